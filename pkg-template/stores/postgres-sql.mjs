// postgresStore's tables and statements, the same for both drivers (postgres-pg.mjs,
// postgres-pglite.mjs), and how their rows read back.

/** Bumped with every change of the tables below; a newer database is refused, an older one migrated. */
const SCHEMA_VERSION = 2;
/** A schema name, used unquoted-safe inside double quotes. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** The tables, created on first use under an advisory lock (several processes may start at once). */
function migration(schema) {
  const t = (name) => `"${schema}".${name}`;
  return [
    `CREATE SCHEMA IF NOT EXISTS "${schema}"`,
    `CREATE TABLE IF NOT EXISTS ${t('payment_intake_meta')} (name text PRIMARY KEY, version integer NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t('callbacks')} (key text PRIMARY KEY, project_id text NOT NULL, payment_id text NOT NULL, handled_at timestamptz NOT NULL DEFAULT now())`,
    `CREATE TABLE IF NOT EXISTS ${t('payments')} (project_id text NOT NULL, payment_id text NOT NULL, status text, sub_status text, is_final boolean, idempotency_key text, updated_at timestamptz, PRIMARY KEY (project_id, payment_id))`,
    `CREATE TABLE IF NOT EXISTS ${t('reviews')} (id text PRIMARY KEY, code text NOT NULL, message text NOT NULL, project_id text, payment_id text, raw_body text NOT NULL, headers jsonb NOT NULL, received_at timestamptz NOT NULL)`,
    // Version 2: the creates the client records, and when a reconciliation last checked the payment.
    `ALTER TABLE ${t('payments')} ADD COLUMN IF NOT EXISTS created jsonb, ADD COLUMN IF NOT EXISTS requested_at timestamptz, ADD COLUMN IF NOT EXISTS expires_at timestamptz, ADD COLUMN IF NOT EXISTS checked_at timestamptz`,
    `INSERT INTO ${t('payment_intake_meta')} (name, version) VALUES ('schema', ${SCHEMA_VERSION}) ON CONFLICT (name) DO UPDATE SET version = ${SCHEMA_VERSION}`,
  ];
}

/** Every statement of the store, on the tables of `schema`. */
function statements(schema) {
  const t = (name) => `"${schema}".${name}`;
  return {
    t,
    lock: 'SELECT pg_advisory_xact_lock(hashtext($1))',
    key: `INSERT INTO ${t('callbacks')} (key, project_id, payment_id) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING RETURNING key`,
    row: `INSERT INTO ${t('payments')} (project_id, payment_id) VALUES ($1, $2) ON CONFLICT (project_id, payment_id) DO NOTHING`,
    lockRow: `SELECT status, sub_status, is_final, idempotency_key, updated_at FROM ${t('payments')} WHERE project_id = $1 AND payment_id = $2 FOR UPDATE`,
    record: `UPDATE ${t('payments')} SET status = $3, sub_status = $4, is_final = $5, idempotency_key = $6, updated_at = $7 WHERE project_id = $1 AND payment_id = $2`,
    keep: `INSERT INTO ${t('reviews')} (id, code, message, project_id, payment_id, raw_body, headers, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
    payment: `SELECT status, sub_status, is_final, idempotency_key, updated_at, created FROM ${t('payments')} WHERE project_id = $1 AND payment_id = $2 AND (status IS NOT NULL OR created IS NOT NULL)`,
    // Oldest first, then by id in byte order (COLLATE "C": as Redis orders equal scores, whatever the database's collation).
    reviews: `SELECT id, code, message, project_id, payment_id, raw_body, headers, received_at FROM ${t('reviews')} ORDER BY received_at, id COLLATE "C" LIMIT $1`,
    forget: `DELETE FROM ${t('reviews')} WHERE id = $1`,
    version: `SELECT version FROM ${t('payment_intake_meta')} WHERE name = 'schema'`,
    versionTable: 'SELECT to_regclass($1) IS NOT NULL AS present',
    // Inserts the create, or writes it on a row a callback made first; never over another create.
    recordCreate: `INSERT INTO ${t('payments')} (project_id, payment_id, created, requested_at, expires_at) VALUES ($1, $2, $3::jsonb, $4, $5)
      ON CONFLICT (project_id, payment_id) DO UPDATE SET created = EXCLUDED.created, requested_at = EXCLUDED.requested_at, expires_at = EXCLUDED.expires_at
      WHERE ${t('payments')}.created IS NULL RETURNING project_id`,
    created: `SELECT created FROM ${t('payments')} WHERE project_id = $1 AND payment_id = $2`,
    recordAnswer: `UPDATE ${t('payments')} SET created = jsonb_set(created, '{answer}', $3::jsonb) WHERE project_id = $1 AND payment_id = $2 AND created IS NOT NULL`,
    // The rule of due.mjs: recorded by the client, not final, and not moved nor checked for
    // olderThanMs ($1: now - olderThanMs), or its lifetime over ($2: now) since its last check.
    due: `WITH picked AS (
        SELECT project_id, payment_id FROM ${t('payments')}
        WHERE created IS NOT NULL AND is_final IS NOT TRUE
          AND (greatest(requested_at, updated_at, checked_at) <= $1 OR (expires_at <= $2 AND (checked_at IS NULL OR checked_at < expires_at)))
        ORDER BY checked_at NULLS FIRST, greatest(requested_at, updated_at)
        LIMIT $3 FOR UPDATE SKIP LOCKED)
      UPDATE ${t('payments')} AS p SET checked_at = $2 FROM picked WHERE p.project_id = picked.project_id AND p.payment_id = picked.payment_id
      RETURNING p.project_id, p.payment_id, p.created, p.status, p.sub_status, p.is_final, p.idempotency_key, p.updated_at`,
  };
}

const iso = (value) => (value === null || value === undefined ? null : new Date(value).toISOString());
const stateOf = (row) => ({
  status: row.status, subStatus: row.sub_status, isFinal: row.is_final === true, idempotencyKey: row.idempotency_key, updatedAt: iso(row.updated_at),
});
const jsonOf = (value) => (typeof value === 'string' ? JSON.parse(value) : (value ?? null));
/** A payment row as `payment()` answers it: its state (nulls before its first callback) and its create. */
const recordOf = (row) => ({ ...stateOf(row), create: jsonOf(row.created) });
const dueRowOf = (row) => ({ projectId: row.project_id, paymentId: row.payment_id, create: jsonOf(row.created), state: row.status === null ? null : stateOf(row) });
const reviewOf = (row) => ({
  id: row.id, code: row.code, message: row.message, projectId: row.project_id, paymentId: row.payment_id, rawBody: row.raw_body,
  headers: jsonOf(row.headers), receivedAt: iso(row.received_at),
});

export { SCHEMA_NAME, SCHEMA_VERSION, dueRowOf, jsonOf, migration, recordOf, reviewOf, stateOf, statements };
