// payment-intake for Node as a real ES module (copied by scripts/build.mjs to pkg/web/node.js):
// the entry bundlers take for Node (esbuild, webpack and Rollup match the `module` condition
// that package.json puts under `node`; Node itself does not, and takes ../index.mjs). The JS
// core over the ES module wasm build, with RSA by node:crypto, the wasm loaded here at once.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import * as glue from './payment_intake.js';
import { createApi } from './core.js';
import nodeCrypto from './node-crypto.js';
import { clientFactory } from './client/index.js';
import { receiverFactory } from './receiver/index.js';
import { memoryStoreFactory } from './stores/memory.js';

// The package's one .wasm, next to this file. In a bundle this file is the bundle, so the
// .wasm is read from next to the bundle: esbuild needs it copied there (the README's one
// step); webpack 5 emits files it finds as `new URL('…', import.meta.url)` itself (not
// tested here). A CommonJS bundle has no import.meta.url (esbuild empties import.meta):
// there the bundle's folder is used.
const wasmFile = typeof import.meta.url === 'string' ? new URL('./payment_intake_bg.wasm', import.meta.url) : `${__dirname}/payment_intake_bg.wasm`;
let wasmBytes;
try {
  wasmBytes = readFileSync(wasmFile);
} catch (cause) {
  const error = new Error(
    `payment-intake could not read its WebAssembly file ${wasmFile}: ${cause.message}. ` +
      'In a bundle, copy node_modules/payment-intake/web/payment_intake_bg.wasm next to the bundled file (see the README, "Bundlers").',
    { cause },
  );
  error.code = cause.code;
  throw error;
}
glue.initSync({ module: wasmBytes });

/** The wasm is loaded above: `init()` and `initSync()` exist for code shared with the browser build, and do nothing. */
export async function init() {}
export function initSync() {}

const api = createApi(glue, nodeCrypto);
export const {
  HmacKey, PaymentIntakeError, SigningKey, VerifyingKey, availability, buildPayinRequest, buildWidgetPayinRequest, canonicalEntries, canonicalMessage,
  canonicalSteps, declineReasons, diagnoseCallback, errorCodes, fromMinorUnits, isPaymentIntakeError, issueCodes, optionTable, parseCallback, parseInfoResponse,
  prepareCallback, prepareRequest, profiles, signRequest, signRequestAsync, specStates, toMinorUnits, validateRequest, verifyCallback,
  verifyCallbackAsync, verifyCallbackRequest,
} = api;
export const createClient = clientFactory(api, glue);
export const { createCallbackHandler, memoryStore } = receiverFactory(api, glue, (bytes) => createHash('sha256').update(bytes).digest('hex'), memoryStoreFactory);
// As in ../index.mjs: the default import is `init`, carrying the whole API.
export default Object.assign(init, api, { createClient, createCallbackHandler, memoryStore, init, initSync });
