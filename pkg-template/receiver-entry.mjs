// payment-intake/receiver (bundled by scripts/build.mjs into pkg/web/receiver.js, and with
// edge.mjs and edge-light.mjs into web/receiver-edge.js and web/receiver-edge-light.js): for a
// callback receiver in a browser or an edge runtime, over the receiver's own .wasm (`#glue`
// under the `receiver` condition of package.json's imports: the crate without its `wasm-rsa`
// and `full-api` features), which holds only what verifying and reading callbacks needs.
// RSA is WebCrypto's, in the async functions: verifyCallbackAsync, verifyCallbackRequest and
// the handler; verifyCallback verifies HMAC callbacks and refuses an RSA one
// (SYNC_RSA_UNAVAILABLE, naming verifyCallbackAsync). `init()` / `initSync()` load the wasm.
import init, * as glue from '#glue';
import { createApi } from './core.mjs';
import webCrypto from './web-crypto.mjs';
import { receiverFactory } from './receiver/index.mjs';
import { memoryStoreFactory } from './stores/memory.mjs';

export { initSync } from '#glue';
export default init;
const api = createApi(glue, webCrypto);
export const {
  HmacKey, PaymentIntakeError, VerifyingKey, errorCodes, isPaymentIntakeError, parseCallback, prepareCallback, specStates, verifyCallback,
  verifyCallbackAsync, verifyCallbackRequest,
} = api;
export const { createCallbackHandler, memoryStore } = receiverFactory(api, glue, undefined, memoryStoreFactory);
