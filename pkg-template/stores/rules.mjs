// The rules every store shares (receiver/store-rules.mjs: its checks, its defaults from
// receiver/defaults.mjs, a claim settled once), with the package's one error factory
// (errors.mjs) over the glue the Node entry loads, for the stores with an entry of their own
// (postgres.mjs, redis.mjs): their errors are the package's (`instanceof PaymentIntakeError`,
// statuses from the wasm's table), as memoryStore's are. The paths are those of the built
// package, where the receiver and the core are in node/ (scripts/build.mjs).
import { createErrors } from '../node/errors.js';
import { storeRules } from '../node/receiver/store-rules.js';
import glue from '../web/payment_intake_node.cjs';

/** The rules of the store named `store`, its errors made by the package's factory. */
const rulesOf = (store) => storeRules(createErrors(glue), store);

export { rulesOf };
