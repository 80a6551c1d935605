// The store contract tested the same way for every store (memoryStore, postgresStore on PGlite
// and on a real PostgreSQL): a handler over the store, callbacks delivered as the service
// delivers them (retried until answered 2xx), many at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';

import { callback, recorder } from './receiver-kit.mjs';
import { serverSkip, startPostgres } from '../../support/servers.mjs';

const PATH = ['processing:new', 'processing:requisites', 'processing:awaiting_confirm', 'processing:paid', 'success'];

/** Delivers `sent` through `handler.handle` until it is answered 2xx, as the service retries. */
async function deliver(handler, sent) {
  for (let attempt = 1; attempt <= 400; attempt += 1) {
    const answer = await handler.handle(sent.body, sent.headers);
    if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.body);
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.floor(Math.random() * 5)));
  }
  return assert.fail(`${sent.body} never answered 2xx`);
}

/** Shuffled in place (Fisher–Yates). */
function shuffle(list) {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/**
 * The contract's tests for a store. `open()` gives `{ store, close() }`, a fresh store each time;
 * `pkg` is the installed package.
 */
function storeContract(name, { pkg, open }) {
  const handlerOf = (store, extra) => {
    const { seen, config } = recorder(extra);
    return { seen, handler: pkg.createCallbackHandler({ ...config, store }) };
  };

  test(`${name}: 30 parallel deliveries of one callback: onEvent once, the state recorded`, async () => {
    const { store, close } = await open();
    try {
      const { seen, handler } = handlerOf(store, { onEvent: async (event) => {
        seen.events.push(event);
        await new Promise((resolve) => setTimeout(resolve, 5));
      } });
      const sent = callback('success', { paymentId: 'order-par' });
      const answers = await Promise.all(Array.from({ length: 30 }, () => deliver(handler, sent)));
      assert.equal(seen.events.length, 1);
      assert.equal(answers.filter((a) => a.code === undefined).length, 1, 'one delivery acted');
      assert.equal(answers.filter((a) => a.code === 'DUPLICATE').length, 29, 'the others found it done');
      assert.equal((await store.payment('prj_1', 'order-par')).status, 'success');
    } finally {
      await close();
    }
  });

  test(`${name}: every state of 5 payments, each sent 3 times, shuffled and at once: onEvent once per key, the state never goes back`, async () => {
    const { store, close } = await open();
    try {
      const last = new Map();
      const problems = [];
      const perKey = new Map();
      const { handler } = handlerOf(store, {
        onEvent: async (event) => {
          const { paymentId, idempotencyKey } = event.callback;
          perKey.set(idempotencyKey, (perKey.get(idempotencyKey) ?? 0) + 1);
          // Claims of one payment run one at a time: `previous` is what the last forward event recorded.
          if ((event.previous?.idempotencyKey ?? null) !== (last.get(paymentId) ?? null)) problems.push(`${idempotencyKey}: previous ${event.previous?.idempotencyKey}, recorded ${last.get(paymentId)}`);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));
          if (event.forward) last.set(paymentId, idempotencyKey);
        },
      });
      const payments = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
      const sends = shuffle(payments.flatMap((paymentId) => PATH.flatMap((state) => Array.from({ length: 3 }, () => callback(state, { paymentId })))));
      await Promise.all(sends.map((sent) => deliver(handler, sent)));
      assert.deepEqual(problems, []);
      assert.ok([...perKey.values()].every((n) => n === 1), `onEvent once per key: ${JSON.stringify([...perKey])}`);
      for (const paymentId of payments) {
        const state = await store.payment('prj_1', paymentId);
        assert.equal(state.status, 'success', `${paymentId} ends at its final state`);
        assert.equal(last.get(paymentId), state.idempotencyKey);
      }
      assert.ok(perKey.size >= payments.length, 'at least the final state of each was delivered');
    } finally {
      await close();
    }
  });

  test(`${name}: onEvent throws: nothing recorded; the retry acts`, async () => {
    const { store, close } = await open();
    try {
      let fail = true;
      const { seen, handler } = handlerOf(store, {
        onEvent: (event) => {
          if (fail) throw new Error('crash inside onEvent');
          seen.events.push(event);
        },
      });
      const sent = callback('success', { paymentId: 'order-crash' });
      assert.equal((await handler.handle(sent.body, sent.headers)).status, 500);
      assert.equal(await store.payment('prj_1', 'order-crash'), null);
      fail = false;
      assert.deepEqual(await deliver(handler, sent), { ok: true });
      assert.deepEqual(await deliver(handler, sent), { ok: true, code: 'DUPLICATE' });
      assert.equal(seen.events.length, 1);
    } finally {
      await close();
    }
  });

  test(`${name}: keep() keeps a body once; payment() and reviews() read back`, async () => {
    const { store, close } = await open();
    try {
      const review = { id: 'a'.repeat(64), code: 'AMBIGUOUS_CALLBACK', message: 'm', projectId: 'prj_1', paymentId: null, rawBody: '{"x":1}', headers: { 'x-access-signature': 's' }, receivedAt: new Date().toISOString() };
      assert.deepEqual(await store.keep(review), { isNew: true });
      assert.deepEqual(await store.keep(review), { isNew: false });
      assert.deepEqual(await store.reviews(), [review]);
      assert.equal(await store.payment('prj_1', 'nothing'), null);
    } finally {
      await close();
    }
  });
}

/**
 * The databases postgresStore is tested on: PGlite in this process, and a throwaway
 * PostgreSQL (tests/support/servers.mjs, on a Unix socket) through a `pg` Pool of `poolMax`
 * clients, skipped with the reason when its binaries are missing (a failure under CI=true).
 * Each: `{ name, skip?, start() }`, `start()` giving `{ db, stop() }`.
 */
function postgresDatabases({ poolMax }) {
  return [
    {
      name: 'PGlite',
      async start() {
        const db = new PGlite();
        await db.waitReady;
        return { db, stop: () => db.close() };
      },
    },
    {
      name: `PostgreSQL (pg Pool of ${poolMax})`,
      skip: serverSkip('postgres'),
      async start() {
        const server = await startPostgres();
        const { default: pg } = await import('pg');
        const pool = new pg.Pool({ ...server.config, max: poolMax });
        return {
          db: pool,
          stop: async () => {
            await pool.end();
            await server.stop();
          },
        };
      },
    },
  ];
}

export { deliver, postgresDatabases, shuffle, storeContract };
