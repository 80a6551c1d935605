// `postgresStore(poolOrPglite, { schema })`: the callback store (receiver/store.d.ts) in
// PostgreSQL, exactly once: each callback is one transaction that inserts its idempotency key
// (unique: a second delivery waits on it, then finds it done), locks the payment's row
// (`FOR UPDATE`: claims of one payment run one after another, so `previous` is never stale),
// hands its transaction to onEvent as `tx`, records the new state and commits. A crash at any
// point rolls all of it back, the merchant's writes through `tx` included, and the service's
// retry handles the callback again. Takes the user's own client, one driver file each: a `pg`
// Pool (postgres-pg.mjs; `tx` is the PoolClient inside BEGIN) or a PGlite instance
// (postgres-pglite.mjs; `tx` is its transaction). Imports neither. The tables and statements
// (postgres-sql.mjs) are the same for both. The payments table also keeps the creates the
// client records (`created`, with their request's time and lifetime) and when a
// reconciliation last checked each payment: `due()` picks the payments to check, skipping
// rows another process holds (`FOR UPDATE SKIP LOCKED`) and marking those it picks as checked.
// What every store does alike (the checks, the errors, a claim settled once) is rules.mjs's.
import { expiresAtOf } from './due.mjs';
import { pgDriver } from './postgres-pg.mjs';
import { pgliteDriver } from './postgres-pglite.mjs';
import { SCHEMA_NAME, SCHEMA_VERSION, dueRowOf, jsonOf, migration, recordOf, reviewOf, stateOf, statements } from './postgres-sql.mjs';
import { rulesOf } from './rules.mjs';

const rules = rulesOf('postgresStore');
const { argument, guarded } = rules;

const isObject = (value) => value !== null && typeof value === 'object';

/** The driver of `db`, found by its shape: PGlite (`transaction`) or a `pg` Pool (`connect`). */
function driverOf(db) {
  if (isObject(db) && typeof db.query === 'function' && typeof db.transaction === 'function') return pgliteDriver(db);
  if (isObject(db) && typeof db.query === 'function' && typeof db.connect === 'function') return pgDriver(db, argument);
  throw argument('db', 'must be a pg Pool (new pg.Pool(...)) or a PGlite instance (new PGlite(...)): the package imports neither');
}

/** The store's options, checked: `{ schema }`. */
function schemaOf(options) {
  if (!isObject(options)) throw argument('options', 'must be an object ({ schema })');
  const schema = options.schema ?? 'payment_intake';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) throw argument('schema', 'must be a lower-case SQL name (letters, digits, _), e.g. payment_intake');
  return schema;
}

/** The tables, once per store (`pg`: `{ driver, sql, schema, ready }`): created when missing, refused when a newer package made them. */
function migrate(pg) {
  const { driver, sql, schema } = pg;
  pg.ready ??= driver.transaction(async (tx) => {
    await tx.query(sql.lock, [`payment-intake:${schema}`]);
    // A newer package's tables are refused before anything is changed in them.
    const { rows: [{ present }] } = await tx.query(sql.versionTable, [sql.t('payment_intake_meta')]);
    const found = present ? (await tx.query(sql.version)).rows[0]?.version : undefined;
    if (found > SCHEMA_VERSION) {
      throw argument('schema', `"${schema}" holds tables of version ${found}, made by a newer payment-intake (this one knows ${SCHEMA_VERSION}): upgrade, or use another schema`);
    }
    for (const statement of migration(schema)) await tx.query(statement);
  }).catch((error) => {
    pg.ready = undefined;
    throw error;
  });
  return pg.ready;
}

/** A review kept through `tx` (the driver, or a claim's transaction). */
async function keepIn(sql, tx, r) {
  const { rows } = await tx.query(sql.keep, [r.id, r.code, r.message, r.projectId, r.paymentId, r.rawBody, JSON.stringify(r.headers), r.receivedAt]);
  return { isNew: rows.length > 0 };
}

/** Inserts the key and locks the payment's row: null when the key was done, else the recorded state (or null) in `{ previous }`. */
async function openClaim(sql, tx, { key, projectId, paymentId }) {
  const inserted = await tx.query(sql.key, [key, projectId, paymentId]);
  if (inserted.rows.length === 0) return null;
  await tx.query(sql.row, [projectId, paymentId]);
  const { rows } = await tx.query(sql.lockRow, [projectId, paymentId]);
  return { previous: rows[0].status === null ? null : stateOf(rows[0]) };
}

/** A claim: the driver's transaction held across onEvent, settled once (rules.settledOnce). */
async function claim(pg, given) {
  const { driver, sql } = pg;
  const request = rules.claimRequest(given);
  await migrate(pg);
  const held = await driver.hold((tx) => openClaim(sql, tx, request));
  if (held === null) return { outcome: 'done' };
  const { projectId, paymentId } = request;
  const settled = rules.settledOnce({
    commit: (next) => held.commit((tx) => next && tx.query(sql.record, [projectId, paymentId, next.status, next.subStatus, next.isFinal, next.idempotencyKey, next.updatedAt])),
    release: () => held.rollback(),
  });
  return {
    outcome: 'claimed',
    previous: held.opened.previous,
    tx: held.tx,
    // In the claim's transaction: a review kept for it commits with its key, or rolls back.
    keep: guarded('keep', (review) => keepIn(sql, held.tx, rules.review(review))),
    commit: settled.commit,
    release: settled.release,
  };
}

async function keep(pg, given) {
  const review = rules.review(given);
  await migrate(pg);
  return keepIn(pg.sql, pg.driver, review);
}

async function forget(pg, given) {
  const id = rules.reviewId(given);
  await migrate(pg);
  await pg.driver.query(pg.sql.forget, [id]);
}

async function payment(pg, ids) {
  const { projectId, paymentId } = rules.idsOf(...ids);
  await migrate(pg);
  const { rows } = await pg.driver.query(pg.sql.payment, [projectId, paymentId]);
  return rows.length ? recordOf(rows[0]) : null;
}

async function recordCreate(pg, given) {
  const { driver, sql } = pg;
  const { projectId, paymentId, create } = rules.createRecord(given);
  await migrate(pg);
  const record = { ...create, answer: null };
  const { rows } = await driver.query(sql.recordCreate, [projectId, paymentId, JSON.stringify(record), create.requestedAt, new Date(expiresAtOf(create)).toISOString()]);
  if (rows.length) return { isNew: true, existing: null };
  const found = await driver.query(sql.created, [projectId, paymentId]);
  return { isNew: false, existing: jsonOf(found.rows[0]?.created) };
}

async function recordAnswer(pg, projectIdGiven, paymentIdGiven, given) {
  const { projectId, paymentId } = rules.idsOf(projectIdGiven, paymentIdGiven);
  const answer = rules.answer(given);
  await migrate(pg);
  await pg.driver.query(pg.sql.recordAnswer, [projectId, paymentId, JSON.stringify(answer)]);
}

async function due(pg, given) {
  const { now, olderThanMs, limit } = rules.dueRequest(given);
  await migrate(pg);
  const { rows } = await pg.driver.transaction((tx) => tx.query(pg.sql.due, [new Date(now - olderThanMs).toISOString(), new Date(now).toISOString(), limit]));
  return rows.map(dueRowOf);
}

async function reviews(pg, options) {
  const { limit } = rules.reviewsOptions(options);
  await migrate(pg);
  const { rows } = await pg.driver.query(pg.sql.reviews, [limit]);
  return rows.map(reviewOf);
}

function postgresStore(db, options = {}) {
  const schema = schemaOf(options);
  /** The store's state, passed to each of its functions: its driver, statements and tables' readiness. */
  const pg = { driver: driverOf(db), sql: statements(schema), schema, ready: undefined };
  return Object.freeze({
    guarantee: 'exactly-once',
    claim: guarded('claim', (given) => claim(pg, given)),
    keep: guarded('keep', (given) => keep(pg, given)),
    forget: guarded('forget', (given) => forget(pg, given)),
    payment: guarded('payment', (...ids) => payment(pg, ids)),
    recordCreate: guarded('recordCreate', (given) => recordCreate(pg, given)),
    recordAnswer: guarded('recordAnswer', (projectId, paymentId, given) => recordAnswer(pg, projectId, paymentId, given)),
    due: guarded('due', (given) => due(pg, given)),
    reviews: guarded('reviews', (options) => reviews(pg, options)),
  });
}

export { postgresStore };
