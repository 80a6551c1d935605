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

function postgresStore(db, options = {}) {
  if (!isObject(options)) throw argument('options', 'must be an object ({ schema })');
  const schema = options.schema ?? 'payment_intake';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) throw argument('schema', 'must be a lower-case SQL name (letters, digits, _), e.g. payment_intake');
  const driver = driverOf(db);
  const sql = statements(schema);

  let ready;
  /** The tables, once per store: created when missing, refused when a newer package made them. */
  function migrate() {
    ready ??= driver.transaction(async (tx) => {
      await tx.query(sql.lock, [`payment-intake:${schema}`]);
      // A newer package's tables are refused before anything is changed in them.
      const { rows: [{ present }] } = await tx.query(sql.versionTable, [sql.t('payment_intake_meta')]);
      const found = present ? (await tx.query(sql.version)).rows[0]?.version : undefined;
      if (found > SCHEMA_VERSION) {
        throw argument('schema', `"${schema}" holds tables of version ${found}, made by a newer payment-intake (this one knows ${SCHEMA_VERSION}): upgrade, or use another schema`);
      }
      for (const statement of migration(schema)) await tx.query(statement);
    }).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  const keepIn = async (tx, r) => {
    const { rows } = await tx.query(sql.keep, [r.id, r.code, r.message, r.projectId, r.paymentId, r.rawBody, JSON.stringify(r.headers), r.receivedAt]);
    return { isNew: rows.length > 0 };
  };

  /** Inserts the key and locks the payment's row: null when the key was done, else the recorded state (or null) in `{ previous }`. */
  async function open(tx, { key, projectId, paymentId }) {
    const inserted = await tx.query(sql.key, [key, projectId, paymentId]);
    if (inserted.rows.length === 0) return null;
    await tx.query(sql.row, [projectId, paymentId]);
    const { rows } = await tx.query(sql.lockRow, [projectId, paymentId]);
    return { previous: rows[0].status === null ? null : stateOf(rows[0]) };
  }

  /** A claim: the driver's transaction held across onEvent, settled once (rules.settledOnce). */
  async function claim(given) {
    const request = rules.claimRequest(given);
    await migrate();
    const held = await driver.hold((tx) => open(tx, request));
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
      keep: guarded('keep', (review) => keepIn(held.tx, rules.review(review))),
      commit: settled.commit,
      release: settled.release,
    };
  }

  return Object.freeze({
    guarantee: 'exactly-once',
    claim: guarded('claim', claim),
    keep: guarded('keep', async (given) => {
      const review = rules.review(given);
      await migrate();
      return keepIn(driver, review);
    }),
    forget: guarded('forget', async (given) => {
      const id = rules.reviewId(given);
      await migrate();
      await driver.query(sql.forget, [id]);
    }),
    payment: guarded('payment', async (...ids) => {
      const { projectId, paymentId } = rules.idsOf(...ids);
      await migrate();
      const { rows } = await driver.query(sql.payment, [projectId, paymentId]);
      return rows.length ? recordOf(rows[0]) : null;
    }),
    recordCreate: guarded('recordCreate', async (given) => {
      const { projectId, paymentId, create } = rules.createRecord(given);
      await migrate();
      const record = { ...create, answer: null };
      const { rows } = await driver.query(sql.recordCreate, [projectId, paymentId, JSON.stringify(record), create.requestedAt, new Date(expiresAtOf(create)).toISOString()]);
      if (rows.length) return { isNew: true, existing: null };
      const found = await driver.query(sql.created, [projectId, paymentId]);
      return { isNew: false, existing: jsonOf(found.rows[0]?.created) };
    }),
    recordAnswer: guarded('recordAnswer', async (projectIdGiven, paymentIdGiven, given) => {
      const { projectId, paymentId } = rules.idsOf(projectIdGiven, paymentIdGiven);
      const answer = rules.answer(given);
      await migrate();
      await driver.query(sql.recordAnswer, [projectId, paymentId, JSON.stringify(answer)]);
    }),
    due: guarded('due', async (given) => {
      const { now, olderThanMs, limit } = rules.dueRequest(given);
      await migrate();
      const { rows } = await driver.transaction((tx) => tx.query(sql.due, [new Date(now - olderThanMs).toISOString(), new Date(now).toISOString(), limit]));
      return rows.map(dueRowOf);
    }),
    reviews: guarded('reviews', async (options) => {
      const { limit } = rules.reviewsOptions(options);
      await migrate();
      const { rows } = await driver.query(sql.reviews, [limit]);
      return rows.map(reviewOf);
    }),
  });
}

export { postgresStore };
