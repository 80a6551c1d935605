// postgresStore (payment-intake/stores/postgres, from the packed package) on PGlite in this
// process, and on a real PostgreSQL through `pg` when tests/support/servers.mjs can start one:
// the store contract (support/store-kit.mjs), and exactly once with the merchant's own
// writes through `tx`: they commit with the record, or roll back with it.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';

import { callback, installed, recorder } from './support/receiver-kit.mjs';
import { deliver, postgresDatabases, storeContract } from './support/store-kit.mjs';

const { pkg, postgres, app } = await installed();
after(() => app.remove());

let schemas = 0;
const databases = postgresDatabases({ poolMax: 8 });

for (const database of databases) {
  describe(`postgresStore on ${database.name}`, { skip: database.skip ?? false }, async () => {
    if (database.skip) return;
    const started = await database.start();
    after(() => started.stop());
    const { db } = started;
    const open = async (options = {}) => {
      schemas += 1;
      const schema = options.schema ?? `pi_test_${process.pid}_${schemas}`;
      return { store: postgres.postgresStore(db, { schema }), schema, close: async () => {} };
    };

    test('exactly once: its guarantee says so; the tables come with a version row', async () => {
      const { store, schema } = await open();
      assert.equal(store.guarantee, 'exactly-once');
      assert.equal(await store.payment('prj_1', 'x'), null);
      const { rows } = await db.query(`SELECT name, version FROM "${schema}".payment_intake_meta`);
      assert.deepEqual(rows, [{ name: 'schema', version: 2 }]);
    });

    test('tables of version 1 (before creates were recorded) are migrated to version 2, their rows kept; a newer version is refused', async () => {
      const { store, schema } = await open();
      await store.payment('prj_1', 'x');
      const t = (name) => `"${schema}".${name}`;
      await db.query(`ALTER TABLE ${t('payments')} DROP COLUMN created, DROP COLUMN requested_at, DROP COLUMN expires_at, DROP COLUMN checked_at`);
      await db.query(`INSERT INTO ${t('payments')} (project_id, payment_id, status, sub_status, is_final, idempotency_key, updated_at) VALUES ('prj_1', 'old', 'success', NULL, true, 'prj_1:old:success:', now())`);
      await db.query(`UPDATE ${t('payment_intake_meta')} SET version = 1`);
      const upgraded = postgres.postgresStore(db, { schema });
      assert.equal((await upgraded.payment('prj_1', 'old')).status, 'success');
      assert.deepEqual((await upgraded.recordCreate({ projectId: 'prj_1', paymentId: 'new', operation: '/api/v1/payment/p2p/payin', amount: 5, currency: 'RUB', method: 'card-p2p', widgetMethod: null, requestedAt: new Date().toISOString(), lifetime: null })), { isNew: true, existing: null });
      assert.deepEqual((await db.query(`SELECT version FROM ${t('payment_intake_meta')}`)).rows, [{ version: 2 }]);
      await db.query(`UPDATE ${t('payment_intake_meta')} SET version = 3`);
      await assert.rejects(postgres.postgresStore(db, { schema }).payment('prj_1', 'old'), (e) => e.code === 'INVALID_ARGUMENT' && /version 3/.test(e.message));
    });

    storeContract(`postgresStore on ${database.name}`, { pkg, open });

    test("the merchant's writes through tx commit with the record, once; a throw rolls both back", async () => {
      const { store, schema } = await open();
      const credits = `"${schema}".merchant_credits`;
      await store.payment('prj_1', 'x'); // the store makes its schema on first use
      await db.query(`CREATE TABLE ${credits} (payment_id text NOT NULL, amount integer NOT NULL)`);
      let crash = true;
      const { config } = recorder({
        onEvent: async (event, { tx }) => {
          assert.equal(typeof tx.query, 'function', 'tx is the transaction');
          if (event.final && event.callback.status === 'success') {
            await tx.query(`INSERT INTO ${credits} (payment_id, amount) VALUES ($1, $2)`, [event.callback.paymentId, event.callback.paymentInfo.amount]);
          }
          if (crash) throw new Error('killed after crediting, before the record');
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, store });
      const sent = callback('success', { paymentId: 'order-credit' });
      assert.equal((await handler.handle(sent.body, sent.headers)).status, 500);
      assert.deepEqual((await db.query(`SELECT count(*)::int AS n FROM ${credits}`)).rows, [{ n: 0 }], 'the credit rolled back with the record');
      assert.equal(await store.payment('prj_1', 'order-credit'), null);
      crash = false;
      await Promise.all(Array.from({ length: 10 }, () => deliver(handler, sent)));
      assert.deepEqual((await db.query(`SELECT payment_id, amount FROM ${credits}`)).rows, [{ payment_id: 'order-credit', amount: 150000 }]);
      assert.equal((await store.payment('prj_1', 'order-credit')).status, 'success');
    });

    test('AFTER_FINAL is kept in the claim’s transaction and read back by reviews()', async () => {
      const { store } = await open();
      const { seen, config } = recorder();
      const handler = pkg.createCallbackHandler({ ...config, store });
      await deliver(handler, callback('decline', { paymentId: 'order-af' }));
      assert.deepEqual(await deliver(handler, callback('success', { paymentId: 'order-af' })), { ok: true, code: 'AFTER_FINAL' });
      const [review] = await store.reviews();
      assert.equal(review.code, 'AFTER_FINAL');
      assert.equal(review.paymentId, 'order-af');
      assert.deepEqual(review, seen.reviews[0]);
      assert.equal((await store.payment('prj_1', 'order-af')).status, 'decline');
    });

    test('an onEvent that catches the failure of a query through tx, on a dispute after a final state (nothing to record): answered 500, not 200; the retry acts', async () => {
      const { store, schema } = await open();
      const notes = `"${schema}".merchant_notes`;
      await store.payment('prj_1', 'x');
      await db.query(`CREATE TABLE ${notes} (payment_id text NOT NULL)`);
      let fail = true;
      const { seen, config } = recorder({
        onEvent: async (event, { tx }) => {
          seen.events.push(event);
          if (event.callback.status !== 'dispute') return;
          if (fail) {
            fail = false;
            await tx.query('SELECT no_such_column FROM no_such_table').catch(() => {}); // the merchant's bug, swallowed
            return;
          }
          await tx.query(`INSERT INTO ${notes} (payment_id) VALUES ($1)`, [event.callback.paymentId]);
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, store });
      await deliver(handler, callback('success', { paymentId: 'order-dispute' }));
      const dispute = callback('dispute:different_amount', { paymentId: 'order-dispute' });
      const first = await handler.handle(dispute.body, dispute.headers);
      // COMMIT of the failed transaction is a rollback with no error: the key and onEvent's writes are gone.
      assert.deepEqual({ status: first.status, ...JSON.parse(first.body) }, { status: 500, ok: false, code: 'EVENT_FAILED' });
      assert.equal(seen.errors.at(-1).code, 'STORE_FAILED');
      assert.ok(seen.errors.at(-1).cause instanceof Error);
      assert.deepEqual(await deliver(handler, dispute), { ok: true, code: 'NOT_FORWARD' });
      assert.deepEqual((await db.query(`SELECT payment_id FROM ${notes}`)).rows, [{ payment_id: 'order-dispute' }]);
      assert.equal((await store.payment('prj_1', 'order-dispute')).status, 'success');
    });

    test('the connection dies inside onEvent (the server ends it): rolled back by the server, answered 500; the retry credits once', { skip: database.name.startsWith('PGlite') && 'PGlite has one connection in this process' }, async () => {
      const { store, schema } = await open();
      const credits = `"${schema}".merchant_credits`;
      await store.payment('prj_1', 'x');
      await db.query(`CREATE TABLE ${credits} (payment_id text NOT NULL)`);
      let kill = true;
      const { seen, config } = recorder({
        onEvent: async (event, { tx }) => {
          await tx.query(`INSERT INTO ${credits} (payment_id) VALUES ($1)`, [event.callback.paymentId]);
          if (kill) {
            kill = false;
            await tx.query('SELECT pg_terminate_backend(pg_backend_pid())'); // as if this process were killed
          }
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, store });
      const sent = callback('success', { paymentId: 'order-killed' });
      assert.deepEqual(JSON.parse((await handler.handle(sent.body, sent.headers)).body), { ok: false, code: 'EVENT_FAILED' });
      assert.equal(seen.errors.length >= 1, true);
      assert.deepEqual((await db.query(`SELECT count(*)::int AS n FROM ${credits}`)).rows, [{ n: 0 }]);
      assert.equal(await store.payment('prj_1', 'order-killed'), null);
      assert.deepEqual(await deliver(handler, sent), { ok: true });
      assert.deepEqual((await db.query(`SELECT payment_id FROM ${credits}`)).rows, [{ payment_id: 'order-killed' }]);
      assert.equal((await store.payment('prj_1', 'order-killed')).status, 'success');
    });

    test('tables made by a newer version are refused, not written', async () => {
      const { store, schema } = await open();
      await store.payment('prj_1', 'x');
      await db.query(`UPDATE "${schema}".payment_intake_meta SET version = 99`);
      const again = postgres.postgresStore(db, { schema });
      await assert.rejects(again.payment('prj_1', 'x'), (error) => error.code === 'INVALID_ARGUMENT' && /version 99/.test(error.message));
    });
  });
}

describe('postgresStore arguments', () => {
  test('neither a Pool nor PGlite, or a bad schema name: INVALID_ARGUMENT with the status of the package table', () => {
    const status = (() => {
      try {
        pkg.createCallbackHandler(null);
      } catch (error) {
        return error.status;
      }
      return assert.fail('no error');
    })();
    for (const [db, options] of [[undefined, {}], [{}, {}], [{ query() {}, transaction() {} }, { schema: 'Bad-Name' }]]) {
      assert.throws(() => postgres.postgresStore(db, options), (error) => error instanceof pkg.PaymentIntakeError && error.code === 'INVALID_ARGUMENT' && error.status === status);
    }
  });
});
