// The package's JS core, written once for every entry (pkg-template/node.cjs, node.mjs,
// web.mjs, edge.mjs): `createApi(glue, provider)` builds the whole API over a wasm-bindgen
// glue module, with the RSA provider injected (node:crypto from ./node-crypto.js, or
// WebCrypto from ./web-crypto.js; its methods: pkg-template/provider.d.ts). scripts/build.mjs
// copies this file and the modules it imports to pkg/web/ as they are and to pkg/node/ as
// CommonJS. One module per concern:
//   errors.js     the one error class, and the one factory of every error
//   keys.js       the key classes (SigningKey and VerifyingKey over one base) and HmacKey
//   callbacks.js  verifying callbacks, and a Fetch Request's body
//   requests.js   signing requests, the canonical message, validation
//   wasm-io.js    the only module that touches wasm memory (the fast paths that pay)
//   body-stream.js  a body read from its stream no further than a limit (also the receiver's)
// The wasm reads every argument, builds every message and makes every check, the `backend`
// option included (the private `__` exports, with named results); the JS adds the native
// RSA operation and key caches, and makes the errors of the wasm's error data.
import { PaymentIntakeError, createErrors, isPaymentIntakeError } from './errors.js';
import { createKeys } from './keys.js';
import { createCallbacks } from './callbacks.js';
import { createRequests } from './requests.js';
import { createWasmIo } from './wasm-io.js';

/** The API over `glue` (the wasm-bindgen module) with `provider`'s RSA. */
function createApi(glue, provider) {
  const errors = createErrors(glue);
  const keys = createKeys(glue, provider, errors);
  const io = createWasmIo(glue, provider, errors);
  const callbacks = createCallbacks(glue, provider, errors, keys, io);
  const requests = createRequests(glue, provider, errors, keys, io);
  const { guard } = errors;
  return {
    HmacKey: keys.HmacKey,
    PaymentIntakeError,
    SigningKey: keys.SigningKey,
    VerifyingKey: keys.VerifyingKey,
    availability: guard(glue.availability),
    buildPayinRequest: guard(glue.buildPayinRequest),
    buildWidgetPayinRequest: guard(glue.buildWidgetPayinRequest),
    canonicalEntries: guard(glue.canonicalEntries),
    canonicalMessage: guard(requests.canonicalMessage),
    canonicalSteps: guard(glue.canonicalSteps),
    declineReasons: guard(glue.declineReasons),
    diagnoseCallback: guard(callbacks.diagnoseCallback),
    errorCodes: guard(glue.errorCodes),
    fromMinorUnits: guard(glue.fromMinorUnits),
    isPaymentIntakeError,
    issueCodes: guard(glue.issueCodes),
    optionTable: guard(glue.optionTable),
    parseCallback: guard(glue.parseCallback),
    parseInfoResponse: guard(glue.parseInfoResponse),
    prepareCallback: guard(callbacks.prepareCallback),
    prepareRequest: guard(requests.prepareRequest),
    profiles: guard(glue.profiles),
    signRequest: guard(requests.signRequest),
    signRequestAsync: guard(requests.signRequestAsync),
    specStates: guard(glue.specStates),
    toMinorUnits: guard(glue.toMinorUnits),
    validateRequest: guard(requests.validateRequest),
    verifyCallback: guard(callbacks.verifyCallback),
    verifyCallbackAsync: guard(callbacks.verifyCallbackAsync),
    verifyCallbackRequest: guard(callbacks.verifyCallbackRequest),
  };
}

export { createApi };
