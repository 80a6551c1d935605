// `memoryStore({ maxKeys })`: the callback store (receiver/store.d.ts) in this process's
// memory. At least once: a claim takes a lease on the idempotency key and on the payment,
// the key is marked done only when onEvent resolved (`commit`), a lease whose holder never
// answered expires after `leaseMs` so a retry takes it, and a delivery that finds a live
// lease is answered busy. Nothing survives a restart, and two processes do not see each
// other's keys: one process only. Done keys are kept until `maxKeys`, then the oldest go;
// payments (their state and their create) the same, the oldest final ones first. It also
// keeps the creates the client records (`recordCreate`) and lists the payments that are due
// a reconciliation (`due`). What it is given is checked, and its errors made, by the rules
// every store shares (receiver/store-rules.mjs, given by the receiver as `rules`).
import { dueOf, isDue, lastMoved } from './due.mjs';

const live = (lease, now) => lease !== undefined && lease.until > now;
// JSON of the pair: no text inside one id can make two payments one (ids may hold any character).
const paymentOf = (projectId, paymentId) => JSON.stringify([projectId, paymentId]);
const copy = (value) => (value ? structuredClone(value) : null);

/**
 * A store's state (`m`), passed to each of its functions: `rules`, `maxKeys`, and its maps.
 * `keys`: key -> { done: true } or { holder, until } (a live or expired lease); Map order:
 * oldest first. `leases`: `projectId\u0000paymentId` -> { holder, until }: one open claim per
 * payment. `payments`: payment -> { projectId, paymentId, state, create, checkedAt }; Map
 * order: least recently written first. `finals`: the payments whose recorded state is final,
 * in the order of `payments` (a state is only ever written by `write`): past maxKeys they are
 * forgotten first without a walk over every payment, which made each create past maxKeys cost
 * a pass over all of them.
 */
function memoryState(rules, maxKeys) {
  return { rules, maxKeys, keys: new Map(), leases: new Map(), payments: new Map(), reviews: new Map(), finals: new Set() };
}

function markDone({ keys, maxKeys }, key) {
  keys.delete(key);
  keys.set(key, { done: true });
  for (const [old, entry] of keys) {
    if (keys.size <= maxKeys) break;
    if (entry.done) keys.delete(old);
  }
}

/** Writes a payment's entry as the newest; past maxKeys, forgets the oldest final ones, then the oldest not leased. */
function write({ payments, finals, leases, maxKeys }, payment, entry) {
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

const entryOf = (m, projectId, paymentId) => m.payments.get(paymentOf(projectId, paymentId)) ?? { projectId, paymentId, state: null, create: null, checkedAt: null };

/** `commit` and `release` of the claim of `key` on `payment`, holding `lease`, decided against the state `seen`. */
function settleClaim(m, { key, projectId, paymentId, leaseMs }, payment, lease, seen) {
  const { keys, leases, payments, rules } = m;
  const ours = (found) => found?.holder === lease.holder;
  const drop = () => {
    if (ours(leases.get(payment))) leases.delete(payment);
  };
  return rules.settledOnce({
    async commit(next) {
      // Past its lease, a claim commits only when nobody acted on the payment since (as
      // redisStore): another live holder, or a state recorded meanwhile, means this one was
      // decided against a state that is gone; nothing is written (a final state is never
      // overwritten by a late commit), and the service's retry decides it again.
      const holding = leases.get(payment);
      const taken = !ours(holding) && live(holding, Date.now());
      if (taken || (payments.get(payment)?.state ?? null) !== seen) throw rules.leaseLost({ projectId, paymentId, leaseMs });
      markDone(m, key);
      if (next) write(m, payment, { ...entryOf(m, projectId, paymentId), state: next });
      drop();
    },
    async release() {
      if (ours(keys.get(key))) keys.delete(key);
      drop();
    },
  });
}

async function claim(m, given) {
  const request = m.rules.claimRequest(given);
  const { key, projectId, paymentId, leaseMs } = request;
  const now = Date.now();
  const entry = m.keys.get(key);
  if (entry?.done) return { outcome: 'done' };
  const payment = paymentOf(projectId, paymentId);
  if (live(entry, now) || live(m.leases.get(payment), now)) return { outcome: 'busy' };
  const lease = { holder: {}, until: now + leaseMs };
  m.keys.set(key, lease);
  m.leases.set(payment, lease);
  const seen = m.payments.get(payment)?.state ?? null;
  const settled = settleClaim(m, request, payment, lease, seen);
  return { outcome: 'claimed', previous: copy(seen), tx: null, commit: settled.commit, release: settled.release };
}

async function keep({ rules, reviews }, given) {
  const review = rules.review(given);
  if (reviews.has(review.id)) return { isNew: false };
  reviews.set(review.id, review);
  return { isNew: true };
}

async function paymentRecord({ rules, payments }, projectId, paymentId) {
  const ids = rules.idsOf(projectId, paymentId);
  const entry = payments.get(paymentOf(ids.projectId, ids.paymentId));
  if (!entry) return null;
  if (entry.state) return { ...entry.state, create: copy(entry.create) };
  return { status: null, subStatus: null, isFinal: false, idempotencyKey: null, updatedAt: null, create: copy(entry.create) };
}

async function recordCreate(m, record) {
  const { projectId, paymentId, create } = m.rules.createRecord(record);
  const payment = paymentOf(projectId, paymentId);
  const entry = m.payments.get(payment);
  if (entry?.create) return { isNew: false, existing: copy(entry.create) };
  write(m, payment, { ...entryOf(m, projectId, paymentId), create: { ...create, answer: null } });
  return { isNew: true, existing: null };
}

async function recordAnswer({ rules, payments }, projectId, paymentId, answer) {
  const ids = rules.idsOf(projectId, paymentId);
  const recorded = rules.answer(answer);
  const entry = payments.get(paymentOf(ids.projectId, ids.paymentId));
  if (entry?.create) entry.create = { ...entry.create, answer: recorded };
}

async function due({ rules, payments }, request) {
  const { now, olderThanMs, limit } = rules.dueRequest(request);
  const found = [...payments.values()].filter((entry) => isDue(entry, now, olderThanMs));
  found.sort((a, b) => (a.checkedAt ?? 0) - (b.checkedAt ?? 0) || lastMoved(a) - lastMoved(b));
  return found.slice(0, limit).map((entry) => {
    entry.checkedAt = now;
    return dueOf(structuredClone(entry));
  });
}

function memoryStoreFactory(rules) {
  const { argument, byReceived } = rules;
  return function memoryStore(options = {}) {
    if (options === null || typeof options !== 'object') throw argument('options', 'must be an object ({ maxKeys })');
    const maxKeys = rules.whole('maxKeys', options.maxKeys, 'maxKeys', rules.defaults.maxKeys);
    const m = memoryState(rules, maxKeys);
    return Object.freeze({
      guarantee: 'at-least-once',
      claim: async (request) => claim(m, request),
      keep: async (given) => keep(m, given),
      forget: async (id) => {
        m.reviews.delete(rules.reviewId(id));
      },
      payment: async (projectId, paymentId) => paymentRecord(m, projectId, paymentId),
      reviews: async (options) => {
        const { limit } = rules.reviewsOptions(options);
        return [...m.reviews.values()].sort(byReceived).slice(0, limit).map((review) => structuredClone(review));
      },
      recordCreate: async (record) => recordCreate(m, record),
      recordAnswer: async (projectId, paymentId, answer) => recordAnswer(m, projectId, paymentId, answer),
      due: async (request) => due(m, request),
    });
  };
}

export { memoryStoreFactory };
