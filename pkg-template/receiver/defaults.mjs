// The receiver's and the stores' defaults and bounds, written once: createCallbackHandler
// (index.mjs), handler.reconcile (reconcile.mjs), and every store (memoryStore,
// postgresStore, redisStore, through store-rules.mjs) read them here. store.d.ts and the
// README say the same numbers.

/** The longest wait setTimeout keeps (2^31 - 1 ms, about 24.8 days; a longer one runs after 1 ms): the most a lease can be. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const DEFAULTS = Object.freeze({
  /** How long a claim holds its payment (lease stores), and onEvent's deadline (every store). */
  leaseMs: 60000,
  /** How many kept reviews `store.reviews()` answers when given no limit (oldest first). */
  reviewsLimit: 100,
  /** memoryStore: how many done keys, and payments, it keeps before forgetting the oldest. */
  maxKeys: 100000,
  /** handler.reconcile: how long a payment must not have moved, how many at most, how many at once. */
  olderThanMs: 10 * 60000,
  dueLimit: 500,
  concurrency: 4,
});

/**
 * The bounds, `[min, max]` of a whole number, or the most UTF-8 bytes of a text. A key or an
 * id is a non-empty string (an id may be empty: the spec's Limits allow it) with no NUL
 * (PostgreSQL's text holds none) of at most the bytes below: PostgreSQL indexes a key, and a
 * payment's two ids together, only up to about 2.7 kB. The spec's ids are far shorter
 * (project_id 32 characters, payment_id 255).
 */
const LIMITS = Object.freeze({
  leaseMs: Object.freeze([1, MAX_TIMER_MS]),
  reviewsLimit: Object.freeze([1, 10000]),
  dueLimit: Object.freeze([1, 10000]),
  olderThanMs: Object.freeze([0, Number.MAX_SAFE_INTEGER]),
  concurrency: Object.freeze([1, 64]),
  maxKeys: Object.freeze([1, Number.MAX_SAFE_INTEGER]),
  idBytes: 1024,
  keyBytes: 2048,
});

export { DEFAULTS, LIMITS, MAX_TIMER_MS };
