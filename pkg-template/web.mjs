// payment-intake for browsers and edge runtimes (bundled by scripts/build.mjs into
// pkg/web/index.js): the JS core (./core.mjs) over the ES module wasm build (`#glue`, the
// wasm-bindgen glue, beside the bundle), with RSA by WebCrypto in the async functions;
// `init()` / `initSync()` load the wasm.
import init, * as glue from '#glue';
import { createApi } from './core.mjs';
import webCrypto from './web-crypto.mjs';
import { clientFactory } from './client/index.mjs';
import { receiverFactory } from './receiver/index.mjs';
import { memoryStoreFactory } from './stores/memory.mjs';

export { initSync } from '#glue';
export default init;
const api = createApi(glue, webCrypto);
export const {
  HmacKey, PaymentIntakeError, SigningKey, VerifyingKey, availability, buildPayinRequest, buildWidgetPayinRequest, canonicalEntries, canonicalMessage,
  canonicalSteps, declineReasons, diagnoseCallback, errorCodes, fromMinorUnits, inputFieldTable, isPaymentIntakeError, issueCodes, operationTable, optionTable, parseCallback, parseInfoResponse,
  prepareCallback, prepareRequest, profiles, signRequest, signRequestAsync, specStates, toMinorUnits, validateRequest, verifyCallback,
  verifyCallbackAsync, verifyCallbackRequest,
} = api;
export const createClient = clientFactory(api, glue);
export const { createCallbackHandler, memoryStore } = receiverFactory(api, glue, undefined, memoryStoreFactory);
