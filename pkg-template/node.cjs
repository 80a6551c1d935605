// payment-intake for Node through `require` (bundled by scripts/build.mjs, as CommonJS, into
// pkg/node/index.js): the JS core (./core.mjs) over the CommonJS wasm build, with RSA by
// node:crypto. The glue (`#glue` under `require`: wasm-bindgen --target nodejs) stays a file of
// its own in pkg/web/, next to the package's one .wasm, which it reads when this module loads.
// The ES modules required here are bundled in (Node 18 cannot require them itself).
'use strict';

const { createHash } = require('node:crypto');
const glue = require('#glue');
const { createApi } = require('./core.mjs');
const { default: nodeCrypto } = require('./node-crypto.mjs');
const { clientFactory } = require('./client/index.mjs');
const { receiverFactory } = require('./receiver/index.mjs');
const { memoryStoreFactory } = require('./stores/memory.mjs');

/**
 * The wasm is ready as soon as the module loads: `init()` and `initSync()` exist so that
 * code written for the browser build (`await init()`) runs here too; they do nothing.
 * The module is `init` itself, carrying the API, so the ES module's default import is
 * both the browser build's `init` and, as before, the whole API.
 */
async function init() {}
function initSync() {}

const api = createApi(glue, nodeCrypto);
const { createCallbackHandler, memoryStore, internal } = receiverFactory(api, glue, (bytes) => createHash('sha256').update(bytes).digest('hex'), memoryStoreFactory);
// `__internal`: the stores' rules and the error factory for stores/ and sandbox/ (Node only; undeclared).
module.exports = Object.assign(init, api, { createClient: clientFactory(api, glue), createCallbackHandler, memoryStore, init, initSync, __internal: internal });
