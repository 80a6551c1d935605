// The order of a payment's states, from the spec's states table as the package reads it
// (`specStates()`: one row per (status, sub_status), `order` increasing, final states last),
// and the one decision the handler makes with it: what a verified callback is, against the
// state recorded before it. Nothing here is written twice: the table is the package's.

/** `status:sub_status` of a row or a callback, the one key of the table. */
function stateKey(status, subStatus) {
  return `${status}:${subStatus ?? ''}`;
}

/** The table as a lookup: `row(status, subStatus)` gives `{ status, subStatus, final, order }` or null. */
function stateOrder(rows) {
  const table = new Map(rows.map((row) => [stateKey(row.status, row.subStatus), row]));
  return { row: (status, subStatus) => table.get(stateKey(status, subStatus)) ?? null };
}

/**
 * What to do with `callback` (a verified callback) when `previous` (a PaymentState or null)
 * is recorded for its payment:
 * - `{ kind: 'deliver', forward, final, record }`: call onEvent; `record` is the state to
 *   record (null: the recorded state stays, e.g. a dispute after a final state);
 * - `{ kind: 'stale' }`: behind the recorded state: acknowledged, its key recorded, not delivered;
 * - `{ kind: 'duplicate' }`: the recorded state's own callback (its key forgotten since): acknowledged;
 * - `{ kind: 'review', code }`: kept for a person: AFTER_FINAL (another final state after a
 *   final one: the service contradicts itself) or UNKNOWN_STATE (not a row of the table).
 * A final state never changes. A dispute is always delivered, and recorded only when it is
 * ahead of a state that is not final, so it never hides a final state that comes later.
 * `error` is delivered as a dispute is: the spec's table shows no transition into or out of
 * it, so its place in the order is unknown; by the table's order alone it was behind every
 * processing state, answered STALE, and never reached onEvent.
 */
function decide(order, previous, callback) {
  const row = order.row(callback.status, callback.subStatus);
  if (row === null) return { kind: 'review', code: 'UNKNOWN_STATE' };
  const state = { status: row.status, subStatus: row.subStatus, isFinal: row.final };
  // Always delivered, whatever the order says: disputes, and `error` (see above).
  const dispute = row.status === 'dispute' || row.status === 'error';
  if (previous === null) return { kind: 'deliver', state, forward: true, final: row.final, record: true };
  // The recorded state's own callback again, after the store forgot its done key (memoryStore's
  // maxKeys, Redis's keepSeconds): a repeat, not a contradiction.
  if (previous.idempotencyKey === callback.idempotencyKey) return { kind: 'duplicate', state };
  const before = order.row(previous.status, previous.subStatus);
  const ahead = before === null || row.order > before.order;
  if (previous.isFinal) {
    if (row.final) return { kind: 'review', code: 'AFTER_FINAL', state };
    if (dispute) return { kind: 'deliver', state, forward: false, final: false, record: false };
    return { kind: 'stale', state };
  }
  if (ahead) return { kind: 'deliver', state, forward: true, final: row.final, record: true };
  if (dispute) return { kind: 'deliver', state, forward: false, final: false, record: false };
  return { kind: 'stale', state };
}

export { decide, stateOrder };
