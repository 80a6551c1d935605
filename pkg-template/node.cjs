// payment-intake for Node (copied by scripts/build.mjs to pkg/node/index.js): the
// JS core (./core.js) over the CommonJS wasm build, with RSA by node:crypto.
'use strict';

const glue = require('./payment_intake.js');
const { createApi } = require('./core.js');
const nodeCrypto = require('./node-crypto.js');

module.exports = createApi(glue, nodeCrypto);
