// payment-intake for Node as a real ES module (bundled by scripts/build.mjs into pkg/web/node.js):
// the entry bundlers take for Node (esbuild, webpack and Rollup match the `module` condition
// that package.json puts under `node`; Node itself does not, and takes ../index.mjs). The JS
// core over the ES module wasm build (`#glue`), with RSA by node:crypto, the wasm loaded here
// at once: read from beside the bundle (./wasm-file.mjs), or, built as pkg/web/inline.js
// (`payment-intake/inline`), from the JS itself (./wasm-inline.mjs).
import { createHash } from 'node:crypto';
import * as glue from '#glue';
import { wasmSource } from './wasm-file.mjs';
import { createApi } from './core.mjs';
import nodeCrypto from './node-crypto.mjs';
import { clientFactory } from './client/index.mjs';
import { receiverFactory } from './receiver/index.mjs';
import { memoryStoreFactory } from './stores/memory.mjs';

glue.initSync({ module: wasmSource() });

/** The wasm is loaded above: `init()` and `initSync()` exist for code shared with the browser build, and do nothing. */
export async function init() {}
export function initSync() {}

const api = createApi(glue, nodeCrypto);
export const {
  HmacKey, PaymentIntakeError, SigningKey, VerifyingKey, availability, buildPayinRequest, buildWidgetPayinRequest, canonicalEntries, canonicalMessage,
  canonicalSteps, declineReasons, diagnoseCallback, errorCodes, fromMinorUnits, inputFieldTable, isPaymentIntakeError, issueCodes, operationTable, optionTable, parseCallback, parseInfoResponse,
  prepareCallback, prepareRequest, profiles, signRequest, signRequestAsync, specStates, toMinorUnits, validateRequest, verifyCallback,
  verifyCallbackAsync, verifyCallbackRequest,
} = api;
export const createClient = clientFactory(api, glue);
export const { createCallbackHandler, memoryStore, internal: __internal } = receiverFactory(api, glue, (bytes) => createHash('sha256').update(bytes).digest('hex'), memoryStoreFactory);
// As in ../index.mjs: the default import is `init`, carrying the whole API.
export default Object.assign(init, api, { createClient, createCallbackHandler, memoryStore, init, initSync });
