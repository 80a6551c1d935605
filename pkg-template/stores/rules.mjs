// The rules every store shares (receiver/store-rules.mjs: its checks, its defaults from
// receiver/defaults.mjs, a claim settled once), with the package's one error factory, for
// the stores with an entry of their own (postgres.mjs, redis.mjs): their errors are the
// package's (`instanceof PaymentIntakeError`, statuses from the wasm's table), as
// memoryStore's are. They come from the package itself, imported by its name (its Node
// entry's `__internal`), so a store and your code share one instance of it.
import { __internal } from 'payment-intake';

/** The rules of the store named `store`, its errors made by the package's factory. */
const rulesOf = (store) => __internal.storeRules(store);

export { rulesOf };
