// PaymentIntakeError, isPaymentIntakeError, raw bodies and verifyCallbackRequest:
// `tsc -p tests/types` checks them against the built declarations; `@ts-expect-error`
// lines prove mistakes are refused.
import {
  PaymentIntakeError,
  VerifyingKey,
  diagnoseCallback,
  isPaymentIntakeError,
  verifyCallback,
  verifyCallbackRequest,
} from 'payment-intake';
import type { CallbackVerification, ErrorCode, RawBody, VerifiedCallback } from 'payment-intake';

const key = VerifyingKey.fromPem('-----BEGIN PUBLIC KEY-----');
const headers = { 'x-access-timestamp': '1700000000' };
const bodies: RawBody[] = ['{}', new Uint8Array(2), new ArrayBuffer(2), new DataView(new ArrayBuffer(2)), new Int16Array(1)];
for (const body of bodies) verifyCallback(body, headers, [key, key]);
diagnoseCallback(new ArrayBuffer(0), headers, [key, '-----BEGIN PUBLIC KEY-----']);
// @ts-expect-error -- a parsed body is not a raw body
verifyCallback({ project_id: 'p' }, headers, key);

async function handle(request: Request): Promise<number> {
  try {
    const callback: VerifiedCallback = await verifyCallbackRequest(request, key, { toleranceSeconds: 600 });
    return callback.paymentId.length > 0 ? 200 : 500;
  } catch (error) {
    if (!isPaymentIntakeError(error)) throw error;
    const code: ErrorCode = error.code;
    const status: number = error.status;
    if (error.verified) {
      const body: string | undefined = error.body;
      const where: string | undefined = error.path;
      const verification: CallbackVerification | undefined = error.verification;
      console.log(code, body, where, verification?.merchantId);
    }
    // @ts-expect-error -- codes are a closed union
    if (error.code === 'NOT_A_CODE') return 0;
    return status;
  }
}
const caught: unknown = new Error('x');
if (caught instanceof PaymentIntakeError) console.log(caught.code, caught.hint, caught.status);
// @ts-expect-error -- no public constructor
new PaymentIntakeError('x');
void handle;
