// Checked by tsconfig.bare.json: no @types/node, no lib esnext.disposable. The keys'
// `[Symbol.dispose]` resolves through the package's own declaration, and every optional
// input member takes `undefined` under exactOptionalPropertyTypes (as spreads and
// `config.x ?? undefined` produce).
import { HmacKey, SigningKey, buildPayinRequest, canonicalEntries, verifyCallback, type VerifyCallbackOptions } from 'payment-intake';

declare const pem: string;
declare const env: { tolerance?: number; merchant?: string };

const key = SigningKey.fromPem(pem);
key[Symbol.dispose]();
HmacKey.fromSecret('a secret of enough length')[Symbol.dispose]();

const options: VerifyCallbackOptions = {
  toleranceSeconds: env.tolerance,
  expectedMerchantId: env.merchant,
  maxBodyBytes: undefined,
  now: undefined,
  allowAmbiguous: undefined,
  options: { profile: undefined, falsy: undefined, padding: undefined },
};
verifyCallback('{}', {}, pem, options);
canonicalEntries('{}', { numbers: undefined, order: undefined });
buildPayinRequest({ projectId: 'p', paymentId: undefined, amount: undefined, email: env.merchant });
