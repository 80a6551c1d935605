// The client's types: operation inputs and results, and `status` / `subStatus` as unions
// whose `switch` is checked for exhaustiveness (a `never` default).
import { createClient, isPaymentIntakeError, SigningKey } from 'payment-intake';
import type {
  BalanceEntry, BankRecord, Client, ClientError, InfoResult, P2pPayinCreateBody, PaymentStatus, PaymentSubStatus, StatusResponse,
} from 'payment-intake';

const client: Client = createClient({
  baseUrl: 'https://pay.example',
  merchantId: 'merchant-1',
  key: SigningKey.generate(),
  projectId: 'prj_1',
  timeoutMs: 10000,
  retries: 3,
  fetch: globalThis.fetch,
  mask: ['pan', 'email'],
  onRequest: ({ operation, attempt, headers }) => console.log(operation, attempt, headers['x-access-timestamp']),
  onResponse: ({ statusCode, durationMs }) => console.log(statusCode, durationMs),
});

const body: P2pPayinCreateBody = {
  general: { project_id: 'prj_1', payment_id: 'order-1' },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
  customer: { id: 'u', ip_address: '203.0.113.7', country: 'RU' },
};
// @ts-expect-error: a create body needs its customer
const noCustomer: P2pPayinCreateBody = { general: body.general, payment: body.payment };
void noCustomer;

/** Every status named; adding one to the union without a case fails here. */
function describeStatus(status: PaymentStatus): string {
  switch (status) {
    case 'error': return 'refused';
    case 'processing': return 'in progress';
    case 'dispute': return 'support';
    case 'decline': return 'declined';
    case 'success': return 'paid';
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
}
function describeSubStatus(subStatus: PaymentSubStatus | null): string {
  switch (subStatus) {
    case null: return '';
    case 'new': case 'requisites': case 'awaiting_confirm': case 'paid': return 'processing';
    case 'no_payment': case 'different_amount': case 'confirm_timeout': return 'dispute';
    default: {
      const unreachable: never = subStatus;
      return unreachable;
    }
  }
}
/** A `switch` that forgets a state does not compile: the forgotten one reaches the `never`. */
function forgetsDispute(status: StatusResponse['status']): string {
  switch (status) {
    case 'error': case 'processing': case 'decline': case 'success': return 'known';
    default: {
      // @ts-expect-error: 'dispute' has no case, so it is not never here
      const unreachable: never = status;
      return unreachable;
    }
  }
}
function forgetsConfirmTimeout(subStatus: InfoResult['subStatus']): string {
  switch (subStatus) {
    case null: case 'new': case 'requisites': case 'awaiting_confirm': case 'paid': case 'no_payment': case 'different_amount': return 'known';
    default: {
      // @ts-expect-error: 'confirm_timeout' has no case, so it is not never here
      const unreachable: never = subStatus;
      return unreachable;
    }
  }
}
void forgetsDispute;
void forgetsConfirmTimeout;
// @ts-expect-error: 'refunded' is no status of the spec
describeStatus('refunded');

async function flow(): Promise<void> {
  const created: StatusResponse = await client.p2p.payin.create(body, { timeoutMs: 5000, signal: AbortSignal.timeout(6000) });
  const attempts: number = created.response.attempts;
  const replayed: true | undefined = created.response.replayed;
  const form: string | null = created.integration?.formUrl ?? null;
  console.log(describeStatus(created.status), describeSubStatus(created.subStatus), attempts, replayed, form);
  const info: InfoResult = await client.p2p.payin.waitFor({ paymentId: 'order-1' }, { until: (m) => m.requisites !== null, intervalMs: 15000 });
  console.log(info.requisites?.pan, info.paymentInfo?.amount, describeStatus(info.status));
  await client.p2p.payin.confirm({ paymentId: 'order-1' });
  await client.widget.payin.cancel({ general: { project_id: 'prj_1', payment_id: 'w-1' } });
  await client.ecom.payin.confirm3dsResult({ paymentId: 'e-1' });
  const entries: BalanceEntry[] = (await client.balance()).balance;
  const banks: BankRecord[] = (await client.banks({ projectId: 'prj_2' })).banks;
  console.log(entries[0]?.lockedAmount, banks[0]?.symbol);
  const any: unknown = await client.request('/api/v1/payment/p2p/bank/available', { general: { project_id: 'prj_1' } });
  console.log(any);
  // @ts-expect-error: waitFor takes 'requisites', 'final' or a function
  await client.p2p.payin.waitFor({ paymentId: 'x' }, { until: 'soon' });
  try {
    await client.p2p.payout.info({ paymentId: 'p' });
  } catch (e) {
    if (isPaymentIntakeError(e)) {
      const error = e as ClientError;
      if (error.code === 'PAYMENT_EXISTS' || error.code === 'TIMEOUT' || error.code === 'AUTH_REFUSED') console.log(error.statusCode, error.retryable, error.body);
    }
  }
}
void flow;
