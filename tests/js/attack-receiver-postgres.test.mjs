// Attacks on postgresStore through createCallbackHandler (the packed package), on PGlite and
// on a real PostgreSQL through a pg Pool of one client: an onEvent that never settles must not
// hold the payment's row (and the pool) for ever, and a write an abandoned onEvent sends
// through `tx` later must never commit (with a reused pool client it landed in the next
// callback's transaction: a second credit).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import { callback, installed, recorder } from './support/receiver-kit.mjs';
import { postgresDatabases } from './support/store-kit.mjs';

const { pkg, postgres, app } = await installed();
after(() => app.remove());

const databases = postgresDatabases({ poolMax: 1 });

/** `promise`, or 'hung' after `ms`. */
const bounded = (promise, ms = 5000) => Promise.race([promise, sleep(ms).then(() => 'hung')]);
const post = async (handler, sent) => {
  const answer = await bounded(handler.handle(sent.body, sent.headers));
  return answer === 'hung' ? answer : { status: answer.status, json: JSON.parse(answer.body) };
};

let schemas = 0;
for (const database of databases) {
  describe(`postgresStore on ${database.name} under attack`, { skip: database.skip ?? false }, async () => {
    if (database.skip) return;
    const started = await database.start();
    after(() => started.stop());
    const { db } = started;
    async function open() {
      schemas += 1;
      const schema = `pi_attack_${process.pid}_${schemas}`;
      const store = postgres.postgresStore(db, { schema });
      await store.payment('x', 'y'); // its tables
      await db.query(`CREATE TABLE "${schema}".credits (payment_id text NOT NULL, note text)`);
      const credits = async () => (await db.query(`SELECT payment_id, note FROM "${schema}".credits ORDER BY note`)).rows;
      return { store, schema, credits };
    }

    test('an onEvent that never settles: answered 500 EVENT_TIMEOUT at leaseMs, the row is free, the retry acts', async () => {
      const { store, schema, credits } = await open();
      let calls = 0;
      const { seen, config } = recorder({
        leaseMs: 300,
        onEvent: async (event, { tx }) => {
          calls += 1;
          if (calls === 1) return new Promise(() => {}); // hangs for ever
          await tx.query(`INSERT INTO "${schema}".credits VALUES ($1, 'retry')`, [event.callback.paymentId]);
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, store });
      const sent = callback('success');
      const started = Date.now();
      assert.deepEqual(await post(handler, sent), { status: 500, json: { ok: false, code: 'EVENT_TIMEOUT' } });
      assert.ok(Date.now() - started < 3000, 'answered near leaseMs');
      assert.equal(seen.errors.at(-1).code, 'TIMEOUT', 'reported to onError');
      assert.deepEqual(await post(handler, sent), { status: 200, json: { ok: true } }, 'the retry is not blocked by the hung one');
      assert.deepEqual(await post(handler, sent), { status: 200, json: { ok: true, code: 'DUPLICATE' } });
      assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
      assert.deepEqual(await credits(), [{ payment_id: 'order-1', note: 'retry' }]);
    });

    test('a write through tx sent by an abandoned onEvent after its deadline never commits: one credit', async () => {
      const { store, schema, credits } = await open();
      let calls = 0;
      let late;
      const { config } = recorder({
        leaseMs: 200,
        onEvent: async (event, { tx }) => {
          calls += 1;
          const note = calls === 1 ? 'abandoned' : 'retry';
          if (calls === 1) {
            await sleep(600); // past its deadline: the handler rolled it back and answered 500
            late = tx.query(`INSERT INTO "${schema}".credits VALUES ($1, $2)`, [event.callback.paymentId, note]).then(() => 'written', (e) => e);
            await late;
            return;
          }
          await tx.query(`INSERT INTO "${schema}".credits VALUES ($1, $2)`, [event.callback.paymentId, note]);
          await sleep(700); // the abandoned one writes while this transaction is open
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, leaseMs: 2000, store });
      const slow = pkg.createCallbackHandler({ ...config, store });
      const sent = callback('success');
      assert.deepEqual(await post(slow, sent), { status: 500, json: { ok: false, code: 'EVENT_TIMEOUT' } });
      assert.deepEqual(await post(handler, sent), { status: 200, json: { ok: true } });
      while (late === undefined) await sleep(20);
      assert.notEqual(await late, 'written', 'the abandoned write fails');
      await sleep(100);
      assert.deepEqual(await credits(), [{ payment_id: 'order-1', note: 'retry' }], 'credited once');
      assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
      assert.equal(calls, 2);
    });

    test('an onEvent that throws but left a write through tx for later: the write never lands in the retry\'s transaction', async () => {
      const { store, schema, credits } = await open();
      let calls = 0;
      let late;
      const { config } = recorder({
        onEvent: async (event, { tx }) => {
          calls += 1;
          const insert = (note) => tx.query(`INSERT INTO "${schema}".credits VALUES ($1, $2)`, [event.callback.paymentId, note]);
          if (calls === 1) {
            // A fire-and-forget write, then a failure: answered 500, rolled back.
            late = sleep(150).then(() => insert('left behind')).then(() => 'written', (e) => e);
            throw new Error('the order system is down');
          }
          await insert('retry');
          await sleep(400); // the left-behind write is sent while this transaction is open
        },
      });
      const handler = pkg.createCallbackHandler({ ...config, store });
      const sent = callback('success');
      assert.deepEqual(await post(handler, sent), { status: 500, json: { ok: false, code: 'EVENT_FAILED' } });
      assert.deepEqual(await post(handler, sent), { status: 200, json: { ok: true } });
      assert.notEqual(await late, 'written', 'the left-behind write fails');
      assert.deepEqual(await credits(), [{ payment_id: 'order-1', note: 'retry' }], 'credited once');
    });
  });
}
