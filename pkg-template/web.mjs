// payment-intake for browsers and edge runtimes (copied by scripts/build.mjs to
// pkg/web/index.js): the JS core (./core.js) over the ES module wasm build, with
// RSA by WebCrypto in the async functions; `init()` / `initSync()` load the wasm.
import init, * as glue from './payment_intake.js';
import { createApi } from './core.js';
import webCrypto from './web-crypto.js';
import { clientFactory } from './client/index.js';
import { receiverFactory } from './receiver/index.js';
import { memoryStoreFactory } from './stores/memory.js';

export { initSync } from './payment_intake.js';
export default init;
const api = createApi(glue, webCrypto);
export const {
  HmacKey, PaymentIntakeError, SigningKey, VerifyingKey, availability, buildPayinRequest, buildWidgetPayinRequest, canonicalEntries, canonicalMessage,
  canonicalSteps, declineReasons, diagnoseCallback, errorCodes, fromMinorUnits, isPaymentIntakeError, issueCodes, optionTable, parseCallback, parseInfoResponse,
  prepareCallback, prepareRequest, profiles, signRequest, signRequestAsync, specStates, toMinorUnits, validateRequest, verifyCallback,
  verifyCallbackAsync, verifyCallbackRequest,
} = api;
export const createClient = clientFactory(api, glue);
export const { createCallbackHandler, memoryStore } = receiverFactory(api, glue, undefined, memoryStoreFactory);
