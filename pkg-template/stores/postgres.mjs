// `postgresStore(poolOrPglite, { schema })`: the callback store (receiver/store.d.ts) in
// PostgreSQL, exactly once: each callback is one transaction that inserts its idempotency key
// (unique: a second delivery waits on it, then finds it done), locks the payment's row
// (`FOR UPDATE`: claims of one payment run one after another, so `previous` is never stale),
// hands its transaction to onEvent as `tx`, records the new state and commits. A crash at any
// point rolls all of it back, the merchant's writes through `tx` included, and the service's
// retry handles the callback again. Takes the user's own client: a `pg` Pool (`tx` is the
// PoolClient inside BEGIN) or a PGlite instance (`tx` is its transaction; PGlite has one
// connection, so its claims run one at a time). Imports neither. The payments table also keeps
// the creates the client records (`created`, with their request's time and lifetime) and when
// a reconciliation last checked each payment: `due()` picks the payments to check, skipping
// rows another process holds (`FOR UPDATE SKIP LOCKED`) and marking those it picks as checked.
import { PaymentIntakeError } from 'payment-intake';
import { expiresAtOf } from './due.mjs';

/** Bumped with every change of the tables below; a newer database is refused, an older one migrated. */
const SCHEMA_VERSION = 2;
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;
/** INVALID_ARGUMENT's status in the package's one table (src/error.rs); tests/js/store-postgres.test.mjs holds them equal. */
const INVALID_ARGUMENT_STATUS = 500;

function invalidArgument(name, reason) {
  const error = new PaymentIntakeError(`postgresStore: '${name}' ${reason}`);
  error.code = 'INVALID_ARGUMENT';
  error.status = INVALID_ARGUMENT_STATUS;
  return error;
}

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
  headers: typeof row.headers === 'string' ? JSON.parse(row.headers) : row.headers, receivedAt: iso(row.received_at),
});

/** Thrown inside a PGlite transaction to roll it back. */
const ROLLBACK = Symbol('rollback');

function postgresStore(db, options = {}) {
  if (options === null || typeof options !== 'object') throw invalidArgument('options', 'must be an object ({ schema })');
  const schema = options.schema ?? 'payment_intake';
  if (typeof schema !== 'string' || !NAME.test(schema)) throw invalidArgument('schema', 'must be a lower-case SQL name (letters, digits, _), e.g. payment_intake');
  const isPglite = db !== null && typeof db === 'object' && typeof db.transaction === 'function' && typeof db.query === 'function';
  if (!isPglite && !(db !== null && typeof db === 'object' && typeof db.connect === 'function' && typeof db.query === 'function')) {
    throw invalidArgument('db', "must be a pg Pool (new pg.Pool(...)) or a PGlite instance (new PGlite(...)): the package imports neither");
  }
  const t = (name) => `"${schema}".${name}`;
  const sql = {
    key: `INSERT INTO ${t('callbacks')} (key, project_id, payment_id) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING RETURNING key`,
    row: `INSERT INTO ${t('payments')} (project_id, payment_id) VALUES ($1, $2) ON CONFLICT (project_id, payment_id) DO NOTHING`,
    lock: `SELECT status, sub_status, is_final, idempotency_key, updated_at FROM ${t('payments')} WHERE project_id = $1 AND payment_id = $2 FOR UPDATE`,
    record: `UPDATE ${t('payments')} SET status = $3, sub_status = $4, is_final = $5, idempotency_key = $6, updated_at = $7 WHERE project_id = $1 AND payment_id = $2`,
    keep: `INSERT INTO ${t('reviews')} (id, code, message, project_id, payment_id, raw_body, headers, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) ON CONFLICT (id) DO NOTHING RETURNING id`,
    payment: `SELECT status, sub_status, is_final, idempotency_key, updated_at, created FROM ${t('payments')} WHERE project_id = $1 AND payment_id = $2 AND (status IS NOT NULL OR created IS NOT NULL)`,
    reviews: `SELECT id, code, message, project_id, payment_id, raw_body, headers, received_at FROM ${t('reviews')} ORDER BY received_at, id LIMIT $1`,
    forget: `DELETE FROM ${t('reviews')} WHERE id = $1`,
    version: `SELECT version FROM ${t('payment_intake_meta')} WHERE name = 'schema'`,
    versionTable: `SELECT to_regclass($1) IS NOT NULL AS present`,
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

  /** A pool's client (pg), checked: a pg Client has `connect` too, but gives no client to release. */
  async function connect() {
    let client;
    try {
      client = await db.connect();
    } catch (cause) {
      if (/already been connected/.test(String(cause?.message))) throw invalidArgument('db', 'is a pg Client: give a pg Pool, whose clients each callback takes and gives back');
      throw cause;
    }
    if (!client || typeof client.query !== 'function' || typeof client.release !== 'function') {
      throw invalidArgument('db', "gave no client from connect(): give a pg Pool (new pg.Pool(...))");
    }
    // A connection the server ends while we hold it (a restart, a failover) emits 'error': with
    // no listener that would end the process. Its query fails too; the client is then destroyed.
    let lost = false;
    const onError = () => {
      lost = true;
    };
    client.on?.('error', onError);
    return {
      client,
      release(destroy) {
        client.removeListener?.('error', onError);
        client.release(destroy || lost ? true : undefined);
      },
    };
  }

  /** `fn(tx)` in one transaction, committed when it resolves, rolled back when it throws. */
  async function inTransaction(fn) {
    if (isPglite) return db.transaction(fn);
    const { client, release } = await connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      release();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      release(true);
      throw error;
    }
  }

  let ready;
  /** The tables, once per store: created when missing, refused when a newer package made them. */
  function migrate() {
    ready ??= inTransaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`payment-intake:${schema}`]);
      // A newer package's tables are refused before anything is changed in them.
      const { rows: [{ present }] } = await tx.query(sql.versionTable, [t('payment_intake_meta')]);
      const found = present ? (await tx.query(sql.version)).rows[0]?.version : undefined;
      if (found > SCHEMA_VERSION) {
        throw invalidArgument('schema', `"${schema}" holds tables of version ${found}, made by a newer payment-intake (this one knows ${SCHEMA_VERSION}): upgrade, or use another schema`);
      }
      for (const statement of migration(schema)) await tx.query(statement);
    }).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  const keepIn = async (tx, r) => {
    const { rows } = await tx.query(sql.keep, [r.id, r.code, r.message, r.projectId, r.paymentId, r.rawBody, JSON.stringify(r.headers ?? {}), r.receivedAt]);
    return { isNew: rows.length > 0 };
  };
  const recordIn = (tx, { projectId, paymentId }, next) =>
    tx.query(sql.record, [projectId, paymentId, next.status, next.subStatus, next.isFinal, next.idempotencyKey, next.updatedAt]);

  /** Inserts the key and locks the payment's row: null when the key was done, else the recorded state (or null) in `{ previous }`. */
  async function open(tx, { key, projectId, paymentId }) {
    const inserted = await tx.query(sql.key, [key, projectId, paymentId]);
    if (inserted.rows.length === 0) return null;
    await tx.query(sql.row, [projectId, paymentId]);
    const { rows } = await tx.query(sql.lock, [projectId, paymentId]);
    return { previous: rows[0].status === null ? null : stateOf(rows[0]) };
  }

  async function claimPool(c) {
    const { client, release } = await connect();
    let finished = false;
    const end = (destroy) => {
      finished = true;
      release(destroy);
    };
    let opened;
    try {
      await client.query('BEGIN');
      opened = await open(client, c);
      if (opened === null) {
        await client.query('ROLLBACK');
        end();
        return { outcome: 'done' };
      }
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      end(true);
      throw error;
    }
    return {
      outcome: 'claimed',
      previous: opened.previous,
      tx: client,
      keep: (review) => keepIn(client, review),
      async commit(next) {
        if (finished) return;
        try {
          if (next) await recordIn(client, c, next);
          await client.query('COMMIT');
          end();
        } catch (error) {
          if (!finished) end(true); // the server rolls back what a dropped connection held
          throw error;
        }
      },
      // The connection is closed (the server rolls its transaction back), not given back to
      // the pool: an onEvent that failed or ran past its deadline may still hold `tx`, and a
      // write it sends later must fail, not land in the next callback's transaction on a
      // reused client and commit with it. No ROLLBACK is queued: it would wait behind a
      // query of that onEvent still running.
      async release() {
        if (finished) return;
        end(true);
      },
    };
  }

  function claimPglite(c) {
    return new Promise((resolve, reject) => {
      let decide;
      const decided = new Promise((settle) => (decide = settle));
      let claimed = false;
      const finished = db.transaction(async (tx) => {
        const opened = await open(tx, c);
        if (opened === null) return resolve({ outcome: 'done' });
        claimed = true;
        resolve({
          outcome: 'claimed',
          previous: opened.previous,
          tx,
          keep: (review) => keepIn(tx, review),
          commit: (next) => {
            decide({ next });
            return finished.then(() => {});
          },
          release: () => {
            decide({ rollback: true });
            return finished.then(() => {}, () => {});
          },
        });
        const { next, rollback } = await decided;
        if (rollback) throw ROLLBACK;
        if (next) await recordIn(tx, c, next);
      });
      finished.catch((error) => {
        if (!claimed) reject(error);
      });
      // A rollback asked for is no failure of the transaction's promise.
      finished.catch(() => {});
    });
  }

  return Object.freeze({
    guarantee: 'exactly-once',
    async claim(c) {
      await migrate();
      return isPglite ? claimPglite(c) : claimPool(c);
    },
    async keep(review) {
      await migrate();
      return keepIn(db, review);
    },
    async forget(id) {
      await migrate();
      await db.query(sql.forget, [id]);
    },
    async payment(projectId, paymentId) {
      await migrate();
      const { rows } = await db.query(sql.payment, [projectId, paymentId]);
      return rows.length ? recordOf(rows[0]) : null;
    },
    async recordCreate({ projectId, paymentId, ...create }) {
      await migrate();
      const record = { ...create, answer: null };
      const { rows } = await db.query(sql.recordCreate, [projectId, paymentId, JSON.stringify(record), create.requestedAt, new Date(expiresAtOf(create)).toISOString()]);
      if (rows.length) return { isNew: true, existing: null };
      const found = await db.query(sql.created, [projectId, paymentId]);
      return { isNew: false, existing: jsonOf(found.rows[0]?.created) };
    },
    async recordAnswer(projectId, paymentId, answer) {
      await migrate();
      await db.query(sql.recordAnswer, [projectId, paymentId, JSON.stringify(answer)]);
    },
    async due({ now, olderThanMs, limit }) {
      await migrate();
      const { rows } = await inTransaction((tx) => tx.query(sql.due, [new Date(now - olderThanMs).toISOString(), new Date(now).toISOString(), limit]));
      return rows.map(dueRowOf);
    },
    async reviews({ limit = 1000 } = {}) {
      await migrate();
      const { rows } = await db.query(sql.reviews, [limit]);
      return rows.map(reviewOf);
    },
  });
}

export { postgresStore };
