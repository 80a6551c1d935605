// payment-intake for Node through `require` (copied by scripts/build.mjs to pkg/node/index.js):
// the JS core (./core.js) over the CommonJS wasm build, with RSA by node:crypto. The glue
// (wasm-bindgen --target nodejs) sits in ../web/, next to the package's one .wasm, which it
// reads when this module loads.
'use strict';

const glue = require('../web/payment_intake_node.cjs');
const { createApi } = require('./core.js');
const nodeCrypto = require('./node-crypto.js');
const { clientFactory } = require('./client/index.js');
const { receiverFactory } = require('./receiver/index.js');
const { memoryStoreFactory } = require('./stores/memory.js');
const { createHash } = require('node:crypto');

/**
 * The wasm is ready as soon as the module loads: `init()` and `initSync()` exist so that
 * code written for the browser build (`await init()`) runs here too; they do nothing.
 * The module is `init` itself, carrying the API, so the ES module's default import is
 * both the browser build's `init` and, as before, the whole API.
 */
async function init() {}
function initSync() {}

const api = createApi(glue, nodeCrypto);
const { createCallbackHandler, memoryStore } = receiverFactory(api, glue, (bytes) => createHash('sha256').update(bytes).digest('hex'), memoryStoreFactory);
module.exports = Object.assign(init, api, { createClient: clientFactory(api, glue), createCallbackHandler, memoryStore, init, initSync });
