// When a payment is due a reconciliation, the one rule every store follows (memoryStore
// here; postgresStore and redisStore write the same rule in SQL and in sorted sets):
// the client recorded its create, it is not final, and either nothing moved it (its create,
// a state) nor checked it for `olderThanMs`, or its lifetime has passed since it was last
// checked. The spec's lifetime is 600 s when the create gives none.

/** The spec's default lifetime (seconds) of a create that gives none. */
const DEFAULT_LIFETIME_SECONDS = 600;

const ms = (iso) => (iso ? Date.parse(iso) : 0);

/** When the payment's lifetime ends (ms), from its create record. */
function expiresAtOf(create) {
  const lifetime = Number.isSafeInteger(create.lifetime) && create.lifetime > 0 ? create.lifetime : DEFAULT_LIFETIME_SECONDS;
  return ms(create.requestedAt) + lifetime * 1000;
}

/** The last time (ms) the payment moved or was checked: its create, its recorded state, a reconciliation. */
function lastMoved(entry) {
  return Math.max(ms(entry.create?.requestedAt), ms(entry.state?.updatedAt), entry.checkedAt ?? 0);
}

/** `entry`: `{ state, create, checkedAt }` (checkedAt in ms or null). */
function isDue(entry, now, olderThanMs) {
  if (!entry.create || entry.state?.isFinal === true) return false;
  if (lastMoved(entry) <= now - olderThanMs) return true;
  const expiresAt = expiresAtOf(entry.create);
  return expiresAt <= now && (entry.checkedAt ?? 0) < expiresAt;
}

/** What `due()` answers for a payment: its ids, its create and its recorded state (or null). */
function dueOf(entry) {
  return { projectId: entry.projectId, paymentId: entry.paymentId, create: entry.create, state: entry.state ?? null };
}

export { DEFAULT_LIFETIME_SECONDS, dueOf, expiresAtOf, isDue, lastMoved };
