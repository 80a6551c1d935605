// `memoryStore({ maxKeys })`: the callback store (receiver/store.d.ts) in this process's
// memory. At least once: a claim takes a lease on the idempotency key and on the payment,
// the key is marked done only when onEvent resolved (`commit`), a lease whose holder never
// answered expires after `leaseMs` so a retry takes it, and a delivery that finds a live
// lease is answered busy. Nothing survives a restart, and two processes do not see each
// other's keys: one process only. Done keys are kept until `maxKeys`, then the oldest go;
// payments (their state and their create) the same, the oldest final ones first. It also
// keeps the creates the client records (`recordCreate`) and lists the payments that are due
// a reconciliation (`due`).
import { dueOf, isDue, lastMoved } from './due.mjs';

const DEFAULT_MAX_KEYS = 100000;

function memoryStoreFactory(invalidArgument) {
  return function memoryStore(options = {}) {
    if (options === null || typeof options !== 'object') throw invalidArgument('options', 'must be an object ({ maxKeys })');
    const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
    if (!(Number.isSafeInteger(maxKeys) && maxKeys > 0)) throw invalidArgument('maxKeys', 'must be a whole number above 0');
    /** key -> { done: true } or { holder, until } (a live or expired lease). Map order: oldest first. */
    const keys = new Map();
    /** `projectId\u0000paymentId` -> { holder, until }: one open claim per payment. */
    const leases = new Map();
    /** payment -> { projectId, paymentId, state, create, checkedAt }. Map order: least recently written first. */
    const payments = new Map();
    const reviews = new Map();
    const live = (lease, now) => lease !== undefined && lease.until > now;
    // JSON of the pair: no text inside one id can make two payments one (ids may hold any character).
    const paymentOf = (projectId, paymentId) => JSON.stringify([projectId, paymentId]);

    function markDone(key) {
      keys.delete(key);
      keys.set(key, { done: true });
      for (const [old, entry] of keys) {
        if (keys.size <= maxKeys) break;
        if (entry.done) keys.delete(old);
      }
    }

    /**
     * The payments whose recorded state is final, in the order of `payments` (a state is only
     * ever written by `write`): past maxKeys they are forgotten first without a walk over every
     * payment, which made each create past maxKeys cost a pass over all of them.
     */
    const finals = new Set();

    /** Writes a payment's entry as the newest; past maxKeys, forgets the oldest final ones, then the oldest not leased. */
    function write(payment, entry) {
      payments.delete(payment);
      payments.set(payment, entry);
      finals.delete(payment);
      if (entry.state?.isFinal === true) finals.add(payment);
      if (payments.size <= maxKeys) return;
      const now = Date.now();
      for (const candidates of [finals, payments.keys()]) {
        for (const old of candidates) {
          if (payments.size <= maxKeys) return;
          if (old !== payment && !live(leases.get(old), now)) {
            payments.delete(old);
            finals.delete(old);
          }
        }
      }
    }
    const entryOf = (projectId, paymentId) => payments.get(paymentOf(projectId, paymentId)) ?? { projectId, paymentId, state: null, create: null, checkedAt: null };
    const copy = (value) => (value ? structuredClone(value) : null);

    return Object.freeze({
      guarantee: 'at-least-once',
      async claim({ key, projectId, paymentId, leaseMs }) {
        const now = Date.now();
        const entry = keys.get(key);
        if (entry?.done) return { outcome: 'done' };
        const payment = paymentOf(projectId, paymentId);
        if (live(entry, now) || live(leases.get(payment), now)) return { outcome: 'busy' };
        const holder = {};
        const lease = { holder, until: now + leaseMs };
        keys.set(key, lease);
        leases.set(payment, lease);
        const holds = () => keys.get(key)?.holder === holder;
        const drop = () => {
          if (leases.get(payment)?.holder === holder) leases.delete(payment);
        };
        const seen = payments.get(payment)?.state ?? null;
        return {
          outcome: 'claimed',
          previous: copy(seen),
          tx: null,
          async commit(next) {
            // A lease that expired and was taken by a retry is that retry's to commit.
            if (!holds()) return;
            // The lease expired and another callback of the payment was recorded meanwhile: this
            // one was decided against a state that is gone, so nothing is written (a final state
            // is never overwritten by a late commit) and the handler answers 500: the service's
            // retry decides it again against the state recorded now.
            if ((payments.get(payment)?.state ?? null) !== seen) {
              throw new Error(`memoryStore: the lease on payment '${paymentId}' (project '${projectId}') expired before commit and another callback of it was recorded since: nothing recorded, the retry decides again (raise leaseMs above the time onEvent takes)`);
            }
            markDone(key);
            if (next) write(payment, { ...entryOf(projectId, paymentId), state: { ...next } });
            drop();
          },
          async release() {
            if (holds()) keys.delete(key);
            drop();
          },
        };
      },
      async keep(review) {
        if (reviews.has(review.id)) return { isNew: false };
        reviews.set(review.id, { ...review, headers: { ...review.headers } });
        return { isNew: true };
      },
      async forget(id) {
        reviews.delete(id);
      },
      async payment(projectId, paymentId) {
        const entry = payments.get(paymentOf(projectId, paymentId));
        if (!entry) return null;
        if (entry.state) return { ...entry.state, create: copy(entry.create) };
        return { status: null, subStatus: null, isFinal: false, idempotencyKey: null, updatedAt: null, create: copy(entry.create) };
      },
      async reviews({ limit = 1000 } = {}) {
        return [...reviews.values()].slice(0, limit).map((review) => ({ ...review, headers: { ...review.headers } }));
      },
      async recordCreate(record) {
        const payment = paymentOf(record.projectId, record.paymentId);
        const entry = payments.get(payment);
        if (entry?.create) return { isNew: false, existing: copy(entry.create) };
        const { projectId, paymentId, ...create } = record;
        write(payment, { ...entryOf(projectId, paymentId), create: { ...create, answer: null } });
        return { isNew: true, existing: null };
      },
      async recordAnswer(projectId, paymentId, answer) {
        const entry = payments.get(paymentOf(projectId, paymentId));
        if (entry?.create) entry.create = { ...entry.create, answer: { ...answer } };
      },
      async due({ now, olderThanMs, limit }) {
        const found = [...payments.values()].filter((entry) => isDue(entry, now, olderThanMs));
        found.sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0) || lastMoved(a) - lastMoved(b));
        return found.slice(0, limit).map((entry) => {
          entry.checkedAt = now;
          return dueOf(structuredClone(entry));
        });
      },
    });
  };
}

export { memoryStoreFactory };
