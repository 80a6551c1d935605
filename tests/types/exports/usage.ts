// Compiled by scripts/typecheck.mjs ("exports" step) under each moduleResolution (Bundler,
// NodeNext, Node16) and each lib (ES2022 alone, and with the DOM), strict, skipLibCheck
// false: a merchant's client, callback handler and error handling, the package resolved
// through its `exports`. After the guard, every member an error code can carry reads
// without a cast.
import { createCallbackHandler, createClient, isPaymentIntakeError, memoryStore, SigningKey, type CallbackEvent, type ClientError } from 'payment-intake';

const key = SigningKey.generate();
const store = memoryStore();
const client = createClient({ baseUrl: 'http://127.0.0.1:8080', merchantId: 'merchant-1', key, store });
const handler = createCallbackHandler({
  keys: [key.publicKeyPem()],
  store,
  onEvent(event: CallbackEvent) {
    if (event.final && event.callback.status === 'success' && !event.amountChanged) console.log('credit', event.callback.paymentInfo?.amount);
  },
  onOutcome(outcome) {
    console.log(outcome.code, outcome.source, outcome.ms);
  },
});

/** What a merchant's code does with each member an error may carry. */
export function describe(error: unknown): string {
  if (!isPaymentIntakeError(error)) return String(error);
  const parts: string[] = [error.code, String(error.status), error.message];
  if (error.hint !== undefined) parts.push(error.hint);
  if (error.statusCode !== undefined && error.statusCode !== null) parts.push(`HTTP ${error.statusCode}`);
  if (error.retryable === true) parts.push('retry later');
  if (error.body !== undefined) parts.push(error.body.slice(0, 80));
  if (error.attempts !== undefined) parts.push(`${error.attempts} attempts`);
  if (error.existing !== undefined) parts.push('the stored payment is in .existing');
  if (error.cause !== undefined) parts.push(error.cause.message);
  if (error.report !== undefined) parts.push(`${error.report.errors.length} errors`);
  return parts.join(' · ');
}

/** The client's own errors: `statusCode` and `retryable` always there. */
export function retryLater(error: ClientError): boolean {
  const status: number | null = error.statusCode;
  return error.retryable && status !== 400;
}

export async function createOnce(paymentId: string): Promise<string> {
  try {
    const payment = await client.p2p.payin.create({
      general: { project_id: 'prj_1', payment_id: paymentId },
      payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
      customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
    });
    return `${payment.status} ${payment.response.replayed ? '(replayed)' : ''}`;
  } catch (error) {
    return describe(error);
  }
}

export async function reconcileNow(): Promise<number> {
  const report = await handler.reconcile({ client, olderThanMs: 10 * 60_000, limit: 500 });
  return report.checked;
}
