// One callback, from its raw body and headers to the answer the service gets, by the store
// contract (store.d.ts): verify; a genuine body that cannot be acted on is kept for review;
// a verified callback is claimed by its idempotency key, ordered against the payment's
// recorded state (order.mjs), handed to onEvent with the store's transaction, then committed.
// A reconciliation (reconcile.mjs) feeds what the service answers through the same `settle`.
// The answer is a small JSON `{ ok, code? }`: never the body, never a message of the sender's;
// onOutcome hears every decision (outcome.mjs).
import { decide, stateOrder } from './order.mjs';
import { amountChanged, outcomeReporter } from './outcome.mjs';
import { keptHeaders, reviewIds, storable } from './review.mjs';
import { unclaimable } from './store-rules.mjs';

/** Genuine signature, body not usable: kept, answered 200. */
const KEPT_CODES = new Set(['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK']);
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

function answer(status, json) {
  return { status, body: JSON.stringify(json), headers: { ...JSON_HEADERS } };
}

/**
 * `work` (a promise), or a rejection with code TIMEOUT once `ms` passed: an onEvent that never
 * settles must not hold the payment (pg: its row lock and a pool client; lease stores: past its
 * lease another delivery may act) nor leave the service's delivery waiting for ever.
 */
function within(make, work, ms) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(make('TIMEOUT', `onEvent did not settle within leaseMs (${ms} ms): rolled back (or its lease released), answered 500 so the service sends it again; raise leaseMs above your slowest onEvent`));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The body's JSON with object keys sorted and no whitespace, or null when it is not JSON: the
 * bodies one signature covers alike (re-spaced, keys re-ordered, characters re-escaped, by
 * anyone who replays a genuine one) are one text, so they are one review, not one each.
 */
function canonicalText(text) {
  const sorted = (value) => {
    if (Array.isArray(value)) return value.map(sorted);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.keys(value).sort().map((name) => [name, sorted(value[name])]));
  };
  try {
    return JSON.stringify(sorted(JSON.parse(text)));
  } catch {
    return null;
  }
}

const decoder = new TextDecoder();
function bytesOf(rawBody) {
  if (typeof rawBody === 'string') return new TextEncoder().encode(rawBody);
  if (rawBody instanceof ArrayBuffer) return new Uint8Array(rawBody);
  return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
}

/** `status:sub_status` of a callback, as outcomes and messages name a state. */
const stateName = (callback) => `${callback.status}:${callback.subStatus ?? ''}`;

// Each function below takes `h`, the handler's context: its config (checked by index.mjs:
// `make`, `keys`, `store`, `verify`, `onEvent`, `onReview`, `onError`, `leaseMs`), `api` (the
// package's API), `sha256Hex(bytes)` (the entry's digest), `report` (outcome.mjs) and `order`
// (the spec's state order, read on first use: the web build's wasm is loaded by init(), after
// the handler is made).

const states = (h) => (h.order ??= stateOrder(h.api.specStates()));

/** The review record of a genuine body that is not acted on. */
async function record(h, code, message, rawBody, headers, ids) {
  const { sha256Hex } = h;
  const bytes = bytesOf(rawBody);
  const text = typeof rawBody === 'string' ? rawBody : decoder.decode(bytes);
  const canonical = canonicalText(text);
  return {
    id: await sha256Hex(canonical === null ? bytes : new TextEncoder().encode(canonical)), code, message,
    projectId: storable(ids.projectId), paymentId: storable(ids.paymentId),
    rawBody: storable(text), headers: keptHeaders(headers), receivedAt: new Date().toISOString(),
  };
}

/** Our own failure (a store, onEvent, onReview): reported, answered 500 so the service retries. */
async function failed(h, error, code) {
  try {
    const { onError } = h;
    await onError(error);
  } catch {
    // the report failing changes nothing of the answer
  }
  return { answer: answer(500, { ok: false, code }), code };
}

/**
 * Shows a new review to onReview. When onReview fails, the review is forgotten again (where
 * the store can: a claim's transaction rolls it back, else `store.forget`), so that the
 * service's retry finds it new and shows it again: no review is kept unseen.
 */
async function review(h, kept, claim = null) {
  const { store, onReview } = h;
  const inClaim = typeof claim?.keep === 'function';
  const { isNew } = inClaim ? await claim.keep(kept) : await store.keep(kept);
  if (!isNew || !onReview) return;
  try {
    await within(h.make, Promise.resolve().then(() => onReview(kept)), h.leaseMs);
  } catch (error) {
    // Inside a claim's transaction the release rolls the review back; outside, it is forgotten
    // now (inside, a query beside the open transaction would wait for it: PGlite has one connection).
    if (!inClaim) await store.forget?.(kept.id);
    throw error;
  }
}

/** A genuine body that is not to be acted on: kept (once), shown to onReview when new. */
async function keep(h, code, message, rawBody, headers, ids) {
  try {
    await review(h, await record(h, code, message, rawBody, headers, ids));
    return { answer: answer(200, { ok: true, code }), code: 'REVIEW', reason: code };
  } catch (caught) {
    return failed(h, caught, 'REVIEW_FAILED');
  }
}

/** A callback the order delivers: handed to onEvent with the claim's `tx`, then committed. */
async function deliver(h, claim, callback, source, decision) {
  const previous = claim.previous ?? null;
  const event = {
    callback, previous, state: decision.state, forward: decision.forward, final: decision.final, source, amountChanged: amountChanged(callback.paymentInfo),
  };
  const { onEvent } = h;
  await within(h.make, Promise.resolve().then(() => onEvent(event, { tx: claim.tx ?? null })), h.leaseMs);
  const next = decision.record ? { ...decision.state, idempotencyKey: callback.idempotencyKey, updatedAt: new Date().toISOString() } : null;
  await claim.commit(next);
  return { answer: answer(200, decision.forward ? { ok: true } : { ok: true, code: 'NOT_FORWARD' }), code: 'DELIVERED' };
}

/** The claimed callback: delivered, acknowledged as stale, or kept for review; then committed. */
async function act(h, claim, callback, source, raw) {
  const previous = claim.previous ?? null;
  const decision = decide(states(h), previous, callback);
  if (decision.kind === 'deliver') return deliver(h, claim, callback, source, decision);
  if (decision.kind === 'stale' || decision.kind === 'duplicate') {
    const code = decision.kind === 'stale' ? 'STALE' : 'DUPLICATE';
    await claim.commit(null);
    return { answer: answer(200, { ok: true, code }), code };
  }
  const recorded = previous ? `${previous.status}:${previous.subStatus ?? ''}` : 'none';
  const message = decision.code === 'AFTER_FINAL'
    ? `${stateName(callback)} after the final state ${recorded}: a final state never changes`
    : `${stateName(callback)} is no state of the spec's table (recorded: ${recorded})`;
  const kept = await record(h, decision.code, source === 'reconcile' ? `${message} (found by a reconciliation)` : message, raw.body, raw.headers, callback);
  // In the claim's transaction where the store has one (pg), so it commits with the key.
  await review(h, kept, claim);
  await claim.commit(null);
  return { answer: answer(200, { ok: true, code: decision.code }), code: decision.code };
}

/**
 * A verified callback (or a reconciled state, `source` 'reconcile') through the claim, the
 * order and onEvent: `{ answer, code }`. `raw`: `{ body, headers }` kept with a review.
 */
async function settle(h, callback, source, raw) {
  // Ids no store can hold (a NUL, which PostgreSQL text cannot; too long to index): kept
  // for a person, never retried for ever.
  const unfit = unclaimable(callback);
  if (unfit !== null) return keep(h, 'INVALID_CALLBACK', `${unfit}: not acted on`, raw.body, raw.headers, callback);
  let claim;
  try {
    claim = await h.store.claim({ key: callback.idempotencyKey, projectId: callback.projectId, paymentId: callback.paymentId, leaseMs: h.leaseMs });
  } catch (error) {
    return failed(h, error, 'STORE_FAILED');
  }
  if (claim.outcome === 'done') return { answer: answer(200, { ok: true, code: 'DUPLICATE' }), code: 'DUPLICATE' };
  if (claim.outcome === 'busy') return { answer: answer(409, { ok: false, code: 'BUSY' }), code: 'BUSY' };
  try {
    return await act(h, claim, callback, source, raw);
  } catch (error) {
    try {
      await claim.release();
    } catch (releaseError) {
      await failed(h, releaseError, 'STORE_FAILED');
    }
    return failed(h, error, error?.code === 'TIMEOUT' ? 'EVENT_TIMEOUT' : 'EVENT_FAILED');
  }
}

/** A delivery up to its verified callback: `{ answer, code, callback? }`. */
async function received(h, rawBody, headers) {
  const { api } = h;
  let callback;
  try {
    callback = await api.verifyCallbackAsync(rawBody, headers, h.keys, h.verify);
  } catch (error) {
    if (!api.isPaymentIntakeError(error)) return failed(h, error, 'VERIFY_FAILED');
    if (error.verified === true && KEPT_CODES.has(error.code)) return keep(h, error.code, error.message, rawBody, headers, reviewIds(error.body ?? ''));
    // The receiver's own setup (a body that is no bytes, keys, options): said in full, and
    // reported; the sender's faults are answered with their code only.
    if (error.status >= 500) {
      await failed(h, error, error.code);
      return { answer: answer(error.status, { ok: false, code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) }), code: error.code };
    }
    return { answer: answer(error.status, { ok: false, code: error.code }), code: error.code };
  }
  return { ...(await settle(h, callback, 'callback', { body: rawBody, headers })), callback };
}

async function handle(h, rawBody, headers) {
  const started = Date.now();
  const out = await received(h, rawBody, headers);
  const { report } = h;
  report(out, { source: 'callback', status: out.answer.status, callback: out.callback, started });
  return out.answer;
}

/**
 * `{ handle(rawBody, headers), settle(callback, source) }` for one handler's config (checked by
 * index.mjs): `api` is the package's API, `sha256Hex(bytes)` the entry's digest.
 */
function handlerOf(api, sha256Hex, { make, keys, store, verify, onEvent, onReview, onError, onOutcome, leaseMs }) {
  const h = { api, sha256Hex, make, keys, store, verify, onEvent, onReview, onError, leaseMs, report: outcomeReporter(onOutcome), order: undefined };
  return {
    handle: (rawBody, headers) => handle(h, rawBody, headers),
    settle: (callback, source, raw) => settle(h, callback, source, raw),
    report: h.report,
  };
}

export { answer, handlerOf };
