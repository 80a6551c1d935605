// `handler.reconcile({ client, olderThanMs, limit, concurrency })`: the payments the store
// knows (the client recorded their create) that are not final and have not moved for
// `olderThanMs` (or whose lifetime has passed) are asked of the service with their info
// operation, and what it answers goes through the handler's own `settle`, exactly as a
// callback of that state would: claimed by the spec's idempotency key, ordered, onEvent,
// committed. A callback of that state arriving later is a DUPLICATE; a reconcile racing a
// callback, or another process's reconcile, acts once. A failure of the service is counted
// and left for the next run, never recorded as a state.
import { DEFAULTS, LIMITS } from './defaults.mjs';

/** Each option's name in defaults.mjs, where its default and bounds are (`limit`: the store's due() limit). */
const OPTIONS = { olderThanMs: 'olderThanMs', limit: 'dueLimit', concurrency: 'concurrency' };
/** How each settle code counts in the report. */
const ADVANCED = new Set(['DELIVERED']);
const UNCHANGED = new Set(['DUPLICATE', 'STALE', 'BUSY', 'AFTER_FINAL', 'UNKNOWN_STATE', 'REVIEW']);

/**
 * An info answer read as the callback of its state: the members verifyCallback's model has,
 * the idempotency key the one the package's reader made (`parseInfoResponse`), as a callback's.
 */
function callbackOf(info) {
  const { projectId, paymentId, requestId, status, subStatus, statusDescription, isFinal, isKnownState, idempotencyKey, declineReason, paymentInfo, integration, requisites, instruction } = info;
  return {
    projectId, paymentId, requestId: requestId ?? null, status, subStatus: subStatus ?? null, statusDescription: statusDescription ?? null,
    isFinal, isKnownState, idempotencyKey,
    declineReason: declineReason ?? null, paymentInfo: paymentInfo ?? null, integration: integration ?? null, requisites: requisites ?? null, instruction: instruction ?? null,
  };
}

/** The options, checked: `{ client, olderThanMs, limit, concurrency }`. */
function optionsOf(options, argument) {
  if (options === null || typeof options !== 'object') throw argument('options', 'must be an object ({ client, olderThanMs, limit })');
  const { client } = options;
  if (client === null || typeof client !== 'object' || typeof client.infoOf !== 'function') {
    throw argument('client', 'must be a client of createClient({ baseUrl, merchantId, key, store }): the info operations are asked through it');
  }
  const out = { client };
  for (const [name, shared] of Object.entries(OPTIONS)) {
    const [min, max] = LIMITS[shared];
    const value = options[name] ?? DEFAULTS[shared];
    if (!(Number.isSafeInteger(value) && value >= min && value <= max)) throw argument(name, `must be a whole number from ${min} to ${max}`);
    out[name] = value;
  }
  return out;
}

/** `reconcile(options)` over the handler's store, `settle` and outcome `report`. */
function reconcilerOf({ store, settle, report, argument, storeFailed, invalidResponse }) {
  /** One due payment: asked, then settled; `{ projectId, paymentId, code, state, error? }`. */
  async function check(client, row) {
    const started = Date.now();
    const ids = { projectId: row.projectId, paymentId: row.paymentId };
    let info;
    try {
      info = await client.infoOf(row.create.operation, ids);
      if (info?.projectId !== row.projectId || info?.paymentId !== row.paymentId) {
        throw invalidResponse(`the info answer is about payment '${info?.paymentId}' of project '${info?.projectId}', not the one asked`);
      }
      // What a client of the package answers; anything else would be settled under a key of its own making.
      if (typeof info.idempotencyKey !== 'string') throw invalidResponse("the info answer has no idempotencyKey: 'client' must be a client of createClient(), whose infoOf reads the answer");
    } catch (error) {
      const out = { code: typeof error?.code === 'string' ? error.code : 'RECONCILE_FAILED' };
      report(out, { source: 'reconcile', started, ...ids });
      return { ...ids, code: out.code, state: null, error };
    }
    const callback = callbackOf(info);
    const out = await settle(callback, 'reconcile', { body: JSON.stringify(info.raw ?? {}), headers: {} });
    report(out, { source: 'reconcile', callback, started });
    return { ...ids, code: out.code, state: `${callback.status}:${callback.subStatus ?? ''}` };
  }

  return async function reconcile(options) {
    const { client, olderThanMs, limit, concurrency } = optionsOf(options, argument);
    if (typeof store.due !== 'function') throw argument('store', 'cannot list the payments it knows (no due()): use memoryStore, postgresStore or redisStore, or implement due() (store.d.ts)');
    let rows;
    try {
      rows = await store.due({ now: Date.now(), olderThanMs, limit });
    } catch (cause) {
      throw storeFailed(cause);
    }
    const payments = new Array(rows.length);
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const i = next++;
        payments[i] = await check(client, rows[i]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
    const count = (set) => payments.filter((p) => set.has(p.code)).length;
    const advanced = count(ADVANCED);
    const unchanged = count(UNCHANGED);
    return { checked: payments.length, advanced, unchanged, failed: payments.length - advanced - unchanged, payments };
  };
}

export { callbackOf, reconcilerOf };
