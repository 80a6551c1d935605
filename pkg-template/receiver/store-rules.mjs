// What every store of the package (memoryStore, postgresStore, redisStore) does alike,
// written once: the checks of what its methods are given, with the defaults and bounds of
// defaults.mjs; the errors it throws, all made by the package's one factory (errors.mjs):
// INVALID_ARGUMENT for a misuse, STORE_FAILED for its database or client failing (the
// driver's Error as `cause`), TIMEOUT for a lease lost before commit; and a claim that is
// settled once. store.d.ts is the contract; tests/js/store-misuse.test.mjs holds every store
// to it with one kit.
import { DEFAULTS, LIMITS } from './defaults.mjs';

const encoder = new TextEncoder();

/** A value as an error message may show it: numbers as written, texts by their length, anything else by its type. */
const shown = (value) => {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a text of ${value.length} characters`;
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
};

/** UTF-8 bytes of `text`, counted only when they may pass `max` (each UTF-16 unit is 1 to 3 bytes). */
const utf8Over = (text, max) => text.length > max || (text.length * 3 > max && encoder.encode(text).length > max);

/**
 * Why `text` cannot be a key or an id of a store (null when it can): not a string, empty
 * (where `empty` is false), holding NUL, or over `bytes` bytes as UTF-8 (LIMITS).
 */
function unstorable(text, { empty = true, bytes = LIMITS.idBytes } = {}) {
  if (typeof text !== 'string') return `must be a string, not ${shown(text)}`;
  if (!empty && text === '') return 'must not be empty';
  if (text.includes('\u0000')) return 'holds a NUL character (U+0000), which no store can hold';
  if (utf8Over(text, bytes)) return `is over ${bytes} bytes as UTF-8, more than every store can hold`;
  return null;
}

/**
 * Why a verified callback cannot be claimed in any store (null when it can): the handler
 * keeps such a genuine callback for review instead of failing its every delivery.
 */
function unclaimable(callback) {
  for (const [name, text, rule] of [
    ['project_id', callback.projectId, undefined],
    ['payment_id', callback.paymentId, undefined],
    ['idempotency key', callback.idempotencyKey, { empty: false, bytes: LIMITS.keyBytes }],
  ]) {
    const why = unstorable(text, rule);
    if (why !== null) return `its ${name} ${why}`;
  }
  return null;
}

/** Kept reviews in the order every store lists them: oldest `receivedAt` first, then by id. */
const byReceived = (a, b) => (Date.parse(a.receivedAt) || 0) - (Date.parse(b.receivedAt) || 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Whether any text inside `value` (a plain JSON value: its strings and its members' names) holds NUL. */
const holdsNul = (value) => {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([name, member]) => name.includes('\u0000') || holdsNul(member));
};

// Each function below takes `r`, the rules' context: `{ errors, make, store }` (the store's
// name, 'memoryStore', …, starts every message).

const argument = (r, name, reason, hint) => r.make('INVALID_ARGUMENT', `${r.store}: '${name}' ${reason}`, { hint });

function check(r, name, text, rule) {
  const why = unstorable(text, rule);
  if (why !== null) throw argument(r, name, why);
  return text;
}

function object(r, name, value, shape) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw argument(r, name, `must be an object (${shape}), not ${shown(value)}`);
  return value;
}

/** A whole number within `LIMITS[bound]`, or `fallback` when undefined. */
function whole(r, name, value, bound, fallback) {
  if (value === undefined && fallback !== undefined) return fallback;
  const [min, max] = LIMITS[bound];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max) return value;
  throw argument(r, name, `must be a whole number from ${min} to ${max}, not ${shown(value)}`);
}

function noNul(r, name, value) {
  if (holdsNul(value)) throw argument(r, name, 'holds a NUL character (U+0000) in a text, which no store can hold');
  return value;
}

/** `value` as every store keeps it: a copy through JSON (PostgreSQL's jsonb, Redis's text), with no NUL. */
function asJson(r, name, value) {
  let text;
  try {
    text = JSON.stringify(value);
  } catch (thrown) {
    throw argument(r, name, `cannot be written as JSON (${thrown?.message ?? thrown})`);
  }
  return noNul(r, name, text === undefined ? null : JSON.parse(text));
}

function isoTime(r, name, value) {
  if (typeof value !== 'string' || !Number.isFinite(Date.parse(value))) throw argument(r, name, `must be an ISO time text, not ${shown(value)}`);
  return value;
}

const idsOf = (r, projectId, paymentId) => ({ projectId: check(r, 'projectId', projectId), paymentId: check(r, 'paymentId', paymentId) });

/** Any Error as it is; anything else thrown made one, so a `cause` is always an Error. */
const asError = (value) => (value instanceof Error ? value : new Error(typeof value === 'string' ? value : `the store's client threw ${shown(value)}`));

/** What the store's database or client threw, as STORE_FAILED (the package's own errors as they are). */
function failed(r, what, thrown) {
  if (r.errors.isPaymentIntakeError(thrown)) return thrown;
  const cause = asError(thrown);
  return r.make('STORE_FAILED', `${r.store}: ${what} failed: ${cause.message}`, {
    cause, hint: 'check the store (its database, its client): a callback is answered 500 and sent again, a create is not sent',
  });
}

/**
 * What `commit(next)` records: null, or the PaymentState's five members, `updatedAt` the time
 * the store records it (store.d.ts).
 */
function nextState(r, next) {
  if (next === null || next === undefined) return null;
  object(r, 'next', next, 'a PaymentState { status, subStatus, isFinal, idempotencyKey }, or null');
  const { status, subStatus = null, isFinal, idempotencyKey } = next;
  if (typeof status !== 'string' || status === '') throw argument(r, 'next.status', `must be a non-empty string, not ${shown(status)}`);
  if (subStatus !== null && typeof subStatus !== 'string') throw argument(r, 'next.subStatus', `must be a string or null, not ${shown(subStatus)}`);
  if (typeof isFinal !== 'boolean') throw argument(r, 'next.isFinal', `must be true or false, not ${shown(isFinal)}`);
  check(r, 'next.idempotencyKey', idempotencyKey, { empty: false, bytes: LIMITS.keyBytes });
  noNul(r, 'next', [status, subStatus]);
  return { status, subStatus, isFinal, idempotencyKey, updatedAt: new Date().toISOString() };
}

/** `claim(request)`: `{ key, projectId, paymentId, leaseMs }`, leaseMs DEFAULTS.leaseMs when left out. */
function claimRequest(r, request) {
  object(r, 'request', request, '{ key, projectId, paymentId, leaseMs }');
  const key = check(r, 'key', request.key, { empty: false, bytes: LIMITS.keyBytes });
  const leaseMs = whole(r, 'leaseMs', request.leaseMs, 'leaseMs', DEFAULTS.leaseMs);
  return { key, ...idsOf(r, request.projectId, request.paymentId), leaseMs };
}

/** `keep(review)`: a ReviewRecord every store can hold, as every store gives it back (its eight members, `receivedAt` in ms). */
function review(r, given) {
  object(r, 'review', given, 'a ReviewRecord { id, code, message, projectId, paymentId, rawBody, headers, receivedAt }');
  const { id, code, message, projectId = null, paymentId = null, rawBody, headers = {}, receivedAt } = given;
  check(r, 'review.id', id, { empty: false, bytes: LIMITS.keyBytes });
  for (const [name, value] of [['code', code], ['message', message], ['rawBody', rawBody]]) {
    if (typeof value !== 'string') throw argument(r, `review.${name}`, `must be a string, not ${shown(value)}`);
  }
  for (const [name, value] of [['projectId', projectId], ['paymentId', paymentId]]) {
    if (value !== null && typeof value !== 'string') throw argument(r, `review.${name}`, `must be a string or null, not ${shown(value)}`);
  }
  object(r, 'review.headers', headers, 'header names to texts');
  if (!Object.values(headers).every((value) => typeof value === 'string')) throw argument(r, 'review.headers', 'must map header names to texts');
  isoTime(r, 'review.receivedAt', receivedAt);
  const kept = { id, code, message, projectId, paymentId, rawBody, headers: { ...headers }, receivedAt: new Date(receivedAt).toISOString() };
  return noNul(r, 'review', kept);
}

/** `reviews(options)`: `{ limit }`, DEFAULTS.reviewsLimit when left out. */
function reviewsOptions(r, options) {
  if (options === undefined || options === null) return { limit: DEFAULTS.reviewsLimit };
  object(r, 'options', options, '{ limit }');
  return { limit: whole(r, 'limit', options.limit, 'reviewsLimit', DEFAULTS.reviewsLimit) };
}

/** `recordCreate(record)`: its ids, and the rest (a CreateRecord without its answer) as JSON. */
function createRecord(r, record) {
  object(r, 'record', record, 'a CreateRecord with projectId and paymentId');
  const { projectId, paymentId, ...create } = record;
  const ids = idsOf(r, projectId, paymentId);
  isoTime(r, 'record.requestedAt', create.requestedAt);
  return { ...ids, create: asJson(r, 'record', create) };
}

/** `due(request)`: `{ now, olderThanMs, limit }`, every one given. */
function dueRequest(r, request) {
  object(r, 'request', request, '{ now, olderThanMs, limit }');
  const { now } = request;
  if (!(typeof now === 'number' && Number.isSafeInteger(now) && now >= 0)) throw argument(r, 'now', `must be a time in ms (a whole number from 0), not ${shown(now)}`);
  return { now, olderThanMs: whole(r, 'olderThanMs', request.olderThanMs, 'olderThanMs'), limit: whole(r, 'limit', request.limit, 'dueLimit') };
}

/** The lease of a claim ran out and another delivery acted on the payment: nothing was recorded. */
const leaseLost = (r, { projectId, paymentId, leaseMs }) =>
  r.make('TIMEOUT', `${r.store}: the lease on payment '${paymentId}' (project '${projectId}') ran out before commit (${leaseMs} ms) and another delivery acted on the payment since: nothing was recorded, the service's retry handles this callback again`, {
    hint: 'raise leaseMs above the time onEvent takes',
  });

const OVER = { committing: 'is being committed', committed: 'was committed', released: 'was released', failed: 'failed to commit' };

/**
 * A claim settled once: `commit(next)` and `release()` of `open` (the store's own), made so
 * that a commit after the claim was committed, released or failed to commit is an
 * INVALID_ARGUMENT (nothing written), a release after a commit or a release does nothing,
 * and a release after a failed commit drops what the claim still holds (as the handler
 * does). What they throw is made STORE_FAILED (the package's errors as they are).
 */
function settledOnce(r, open) {
  const claim = { state: 'open' };
  return {
    commit: (next) => commitOnce(r, open, claim, next),
    release: () => releaseOnce(r, open, claim),
  };
}

async function commitOnce(r, open, claim, next) {
  if (claim.state !== 'open') {
    throw argument(r, 'commit', `was called on a claim that ${OVER[claim.state]}: nothing was written`, 'commit or release a claim once');
  }
  const recorded = nextState(r, next);
  claim.state = 'committing';
  try {
    await open.commit(recorded);
    claim.state = 'committed';
  } catch (thrown) {
    claim.state = 'failed';
    throw failed(r, 'commit', thrown);
  }
}

async function releaseOnce(r, open, claim) {
  if (claim.state !== 'open' && claim.state !== 'failed') return;
  claim.state = 'released';
  try {
    await open.release();
  } catch (thrown) {
    throw failed(r, 'release', thrown);
  }
}

/**
 * The rules of the store named `store` ('memoryStore', …), its errors made by `errors` (the
 * package's factory, errors.mjs `createErrors(glue)`).
 */
function storeRules(errors, store) {
  const r = { errors, make: errors.make, store };
  /** `fn` (async) with what it throws made STORE_FAILED unless it is the package's error already. */
  const guarded = (what, fn) => async (...args) => {
    try {
      return await fn(...args);
    } catch (thrown) {
      throw failed(r, what, thrown);
    }
  };
  return {
    argument: (name, reason, hint) => argument(r, name, reason, hint),
    byReceived,
    failed: (what, thrown) => failed(r, what, thrown),
    guarded,
    idsOf: (projectId, paymentId) => idsOf(r, projectId, paymentId),
    whole: (name, value, bound, fallback) => whole(r, name, value, bound, fallback),
    defaults: DEFAULTS,
    limits: LIMITS,
    claimRequest: (request) => claimRequest(r, request),
    nextState: (next) => nextState(r, next),
    review: (given) => review(r, given),
    reviewId: (id) => check(r, 'id', id, { empty: false, bytes: LIMITS.keyBytes }),
    reviewsOptions: (options) => reviewsOptions(r, options),
    createRecord: (record) => createRecord(r, record),
    /** `recordAnswer(…, answer)`: the answer as JSON. */
    answer: (answer) => asJson(r, 'answer', object(r, 'answer', answer, '{ status, subStatus, requestId, answeredAt }')),
    dueRequest: (request) => dueRequest(r, request),
    leaseLost: (claim) => leaseLost(r, claim),
    settledOnce: (open) => settledOnce(r, open),
  };
}

export { byReceived, storeRules, unclaimable };
