// One callback, from its raw body and headers to the answer the service gets, by the store
// contract (store.d.ts): verify; a genuine body that cannot be acted on is kept for review;
// a verified callback is claimed by its idempotency key, ordered against the payment's
// recorded state (order.mjs), handed to onEvent with the store's transaction, then committed.
// The answer is a small JSON `{ ok, code? }`: never the body, never a message of the sender's.
import { decide, stateOrder } from './order.mjs';

/** Genuine signature, body not usable: kept, answered 200. */
const KEPT_CODES = new Set(['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK']);
/** The headers a kept callback keeps: what the signature was checked with. */
const KEPT_HEADER = /^(x-access-|content-type$)/;
const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

function answer(status, json) {
  return { status, body: JSON.stringify(json), headers: { ...JSON_HEADERS } };
}

/** The signature's headers of any HeadersInput (Headers, a Map, pairs, node's object), lower-cased. */
function keptHeaders(headers) {
  const kept = {};
  const add = (name, value) => {
    const lower = String(name).toLowerCase();
    if (KEPT_HEADER.test(lower) && value !== undefined) kept[lower] = Array.isArray(value) ? value.join(', ') : String(value);
  };
  try {
    if (headers && typeof headers.forEach === 'function' && !Array.isArray(headers)) headers.forEach((value, name) => add(name, value));
    else if (Array.isArray(headers)) for (const [name, value] of headers) add(name, value);
    else if (headers && typeof headers === 'object') for (const [name, value] of Object.entries(headers)) add(name, value);
  } catch {
    // headers that cannot be read again: the record keeps none
  }
  return kept;
}

/** Best effort, for a person reading a kept body: its project and payment ids, or nulls. */
function idsOf(text) {
  try {
    const json = JSON.parse(text);
    const projectId = typeof json?.project_id === 'string' ? json.project_id : null;
    const paymentId = typeof json?.general?.payment_id === 'string' ? json.general.payment_id : null;
    return { projectId, paymentId };
  } catch {
    return { projectId: null, paymentId: null };
  }
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

/**
 * `handle(rawBody, headers)` for one handler's config (checked by index.mjs): `api` is the
 * package's API, `sha256Hex(bytes)` the entry's digest.
 */
function handlerOf(api, sha256Hex, { make, keys, store, verify, onEvent, onReview, onError, leaseMs }) {
  let order;
  // Read on first use: the web build's wasm is loaded by init(), after the handler is made.
  const states = () => (order ??= stateOrder(api.specStates()));

  async function record(code, message, rawBody, headers, ids) {
    const bytes = bytesOf(rawBody);
    const text = typeof rawBody === 'string' ? rawBody : decoder.decode(bytes);
    const canonical = canonicalText(text);
    return {
      id: await sha256Hex(canonical === null ? bytes : new TextEncoder().encode(canonical)), code, message, projectId: ids.projectId, paymentId: ids.paymentId,
      rawBody: text, headers: keptHeaders(headers), receivedAt: new Date().toISOString(),
    };
  }

  /** Our own failure (a store, onEvent, onReview): reported, answered 500 so the service retries. */
  async function failed(error, code) {
    try {
      await onError(error);
    } catch {
      // the report failing changes nothing of the answer
    }
    return answer(500, { ok: false, code });
  }

  /** A genuine body that is not to be acted on: kept (once), shown to onReview when new. */
  async function keep(error, rawBody, headers) {
    try {
      const review = await record(error.code, error.message, rawBody, headers, idsOf(error.body ?? ''));
      const { isNew } = await store.keep(review);
      if (isNew && onReview) await onReview(review);
      return answer(200, { ok: true, code: error.code });
    } catch (caught) {
      return failed(caught, 'REVIEW_FAILED');
    }
  }

  /** The claimed callback: delivered, acknowledged as stale, or kept for review; then committed. */
  async function act(claim, callback, rawBody, headers) {
    const previous = claim.previous ?? null;
    const decision = decide(states(), previous, callback);
    if (decision.kind === 'deliver') {
      const event = { callback, previous, state: decision.state, forward: decision.forward, final: decision.final };
      await within(make, Promise.resolve().then(() => onEvent(event, { tx: claim.tx ?? null })), leaseMs);
      const next = decision.record ? { ...decision.state, idempotencyKey: callback.idempotencyKey, updatedAt: new Date().toISOString() } : null;
      await claim.commit(next);
      return answer(200, decision.forward ? { ok: true } : { ok: true, code: 'NOT_FORWARD' });
    }
    if (decision.kind === 'stale') {
      await claim.commit(null);
      return answer(200, { ok: true, code: 'STALE' });
    }
    const recorded = previous ? `${previous.status}:${previous.subStatus ?? ''}` : 'none';
    const message = decision.code === 'AFTER_FINAL'
      ? `${callback.status}:${callback.subStatus ?? ''} after the final state ${recorded}: a final state never changes`
      : `${callback.status}:${callback.subStatus ?? ''} is no state of the spec's table (recorded: ${recorded})`;
    const review = await record(decision.code, message, rawBody, headers, callback);
    // In the claim's transaction where the store has one (pg), so it commits with the key.
    const { isNew } = claim.keep ? await claim.keep(review) : await store.keep(review);
    if (isNew && onReview) await within(make, Promise.resolve().then(() => onReview(review)), leaseMs);
    await claim.commit(null);
    return answer(200, { ok: true, code: decision.code });
  }

  return async function handle(rawBody, headers) {
    let callback;
    try {
      callback = await api.verifyCallbackAsync(rawBody, headers, keys, verify);
    } catch (error) {
      if (!api.isPaymentIntakeError(error)) return failed(error, 'VERIFY_FAILED');
      if (error.verified === true && KEPT_CODES.has(error.code)) return keep(error, rawBody, headers);
      // The receiver's own setup (a body that is no bytes, keys, options): said in full, and
      // reported; the sender's faults are answered with their code only.
      if (error.status >= 500) {
        await failed(error, error.code);
        return answer(error.status, { ok: false, code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) });
      }
      return answer(error.status, { ok: false, code: error.code });
    }
    let claim;
    try {
      claim = await store.claim({ key: callback.idempotencyKey, projectId: callback.projectId, paymentId: callback.paymentId, leaseMs });
    } catch (error) {
      return failed(error, 'STORE_FAILED');
    }
    if (claim.outcome === 'done') return answer(200, { ok: true, code: 'DUPLICATE' });
    if (claim.outcome === 'busy') return answer(409, { ok: false, code: 'BUSY' });
    try {
      return await act(claim, callback, rawBody, headers);
    } catch (error) {
      try {
        await claim.release();
      } catch (releaseError) {
        await failed(releaseError, 'STORE_FAILED');
      }
      return failed(error, error?.code === 'TIMEOUT' ? 'EVENT_TIMEOUT' : 'EVENT_FAILED');
    }
  };
}

export { answer, handlerOf };
