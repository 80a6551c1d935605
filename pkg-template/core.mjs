// The package's JS core, written once for every entry (pkg-template/node.cjs, node.mjs,
// web.mjs, edge.mjs): `createApi(glue, provider)` builds the whole API over a wasm-bindgen
// glue module, with the RSA provider injected (node:crypto from ./node-crypto.mjs, or
// WebCrypto from ./web-crypto.mjs; its methods: pkg-template/provider.d.ts). scripts/build.mjs
// bundles it, with the modules it imports, into each entry's build. One module per concern:
//   errors.mjs     the one error class, and the one factory of every error
//   keys.mjs       the key classes (SigningKey and VerifyingKey over one base) and HmacKey
//   callbacks.mjs  verifying callbacks, and a Fetch Request's body
//   requests.mjs   signing requests, the canonical message, validation
//   wasm-io.mjs    the only module that touches wasm memory (the fast paths that pay)
//   body-stream.mjs  a body read from its stream no further than a limit (also the receiver's)
// The wasm reads every argument, builds every message and makes every check, the `backend`
// option included (the private `__` exports, with named results); the JS adds the native
// RSA operation and key caches, and makes the errors of the wasm's error data.
import { PaymentIntakeError, createErrors, isPaymentIntakeError } from './errors.mjs';
import { createKeys } from './keys.mjs';
import { createCallbacks } from './callbacks.mjs';
import { createRequests } from './requests.mjs';
import { createWasmIo } from './wasm-io.mjs';

/** A fresh copy of a row of the input-fields table (`__constants().inputFields`), its arrays too. */
const inputFieldRow = (row) => ({ ...row, choices: row.choices && [...row.choices], builders: [...row.builders] });

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
    inputFieldTable: guard(() => errors.shared().inputFields.map(inputFieldRow)),
    isPaymentIntakeError,
    issueCodes: guard(glue.issueCodes),
    operationTable: guard(() => errors.shared().operations.map((row) => ({ ...row }))),
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
