// The native-backend exports (pkg/node/index.js through `import`, and the web
// wrapper pkg/web/index.js): `tsc -p tests/types` checks them against the
// built declarations; `@ts-expect-error` lines prove mistakes are refused.
import {
  SigningKey,
  VerifyingKey,
  prepareCallback,
  prepareRequest,
  signRequest,
  signRequestAsync,
  verifyCallback,
  verifyCallbackAsync,
} from 'payment-intake';
import type { Backend, PreparedCallback, PreparedRequest, SignedRequest, VerifiedCallback } from 'payment-intake';
import webInit, { signRequestAsync as webSignAsync, verifyCallbackAsync as webVerifyAsync } from '../../pkg/web/index.js';

const key: SigningKey = SigningKey.fromPem('-----BEGIN PRIVATE KEY-----');
const backend: Backend = 'wasm';
const signed: SignedRequest = signRequest('{}', key, { merchantId: 'm', backend });
const later: Promise<SignedRequest> = signRequestAsync({ a: 1 }, key, { merchantId: 'm', backend: 'native' });
const prepared: PreparedRequest = prepareRequest('{}', key, { merchantId: 'm', timestamp: 1700000000 });
const message: string = prepared.message;
const padding: boolean = prepared.padding;
const token: string | undefined = prepared.headers['x-access-token'];
const digest: 'single' | 'double' = prepared.digest;
const ready: PreparedCallback = prepareCallback('{}', { 'x-access-timestamp': '1' }, VerifyingKey.fromPem(''));
const bytes: Uint8Array = ready.signature;
const model: VerifiedCallback | null = ready.callback;
const checked: VerifiedCallback = verifyCallback('{}', new Map(), [key.verifyingKey()], { backend: 'wasm' });
const checkedLater: Promise<VerifiedCallback> = verifyCallbackAsync(new Uint8Array(), [], 'pem', { toleranceSeconds: 300 });
const web: Promise<SignedRequest> = webInit().then(() => webSignAsync('{}', key, { merchantId: 'm' }));
const webChecked: Promise<VerifiedCallback> = webVerifyAsync('{}', {}, 'pem');

// @ts-expect-error: not a backend
signRequest('{}', key, { merchantId: 'm', backend: 'gpu' });
// @ts-expect-error: the async variants return promises
const notAPromise: SignedRequest = signRequestAsync('{}', key, { merchantId: 'm' });

export { signed, later, message, padding, token, digest, ready, bytes, model, checked, checkedLater, web, webChecked, notAPromise };
