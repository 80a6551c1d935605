// redisStore (pkg/stores/redis.mjs, `payment-intake/stores/redis`) against a real redis-server
// (tests/support/servers.mjs), through both clients it takes: node-redis (sendCommand) and
// ioredis (call). Claims, done keys, busy payments, the lease of a SIGKILLed holder expiring,
// commit and release only by the holder, and many parallel claims of one key.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import { Redis } from 'ioredis';
import { createClient } from 'redis';

import { serverSkip, startRedis } from '../support/servers.mjs';
import { pkgDir, root } from './helpers.mjs';

const storeUrl = pathToFileURL(path.join(pkgDir, 'stores', 'redis.mjs')).href;
const { redisStore, REDIS_LAYOUT_VERSION } = await import(storeUrl);
const skip = serverSkip('redis');

const CLIENTS = {
  'node-redis': {
    open: (server) => createClient({ url: server.url }).connect(),
    close: (client) => client.quit(),
  },
  ioredis: {
    open: async (server) => {
      const client = new Redis(server.port, server.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      return client;
    },
    close: (client) => client.quit(),
  },
};

let counter = 0;
/** A fresh prefix per test, so tests share the server and not their keys. */
const prefix = () => `t${process.pid}-${(counter += 1)}`;
const state = (status, key, extra = {}) => ({ status, subStatus: null, isFinal: status === 'success' || status === 'decline', idempotencyKey: key, ...extra });

let server;
before(async () => {
  if (!skip) server = await startRedis();
});
after(() => server?.stop());

for (const [name, kind] of Object.entries(CLIENTS)) {
  describe(`redisStore with ${name}`, { skip }, () => {
    const clients = [];
    const open = async () => {
      const client = await kind.open(server);
      clients.push(client);
      return client;
    };
    after(() => Promise.all(clients.map((c) => kind.close(c))));

    test('a claim, its commit, then done for the key and the state recorded; the version key is set', async () => {
      const client = await open();
      const p = prefix();
      const store = redisStore(client, { prefix: p });
      assert.equal(store.guarantee, 'at-least-once');
      assert.equal(await store.payment('proj', 'pay-1'), null);
      const claim = await store.claim({ key: 'k1', projectId: 'proj', paymentId: 'pay-1', leaseMs: 5000 });
      assert.equal(claim.outcome, 'claimed');
      assert.equal(claim.previous, null);
      assert.equal(claim.tx, null);
      const before = Date.now();
      await claim.commit(state('processing', 'k1'));
      const recorded = await store.payment('proj', 'pay-1');
      assert.equal(recorded.status, 'processing');
      assert.equal(recorded.idempotencyKey, 'k1');
      assert.ok(Date.parse(recorded.updatedAt) >= before - 1000, recorded.updatedAt);
      assert.deepEqual(await store.claim({ key: 'k1', projectId: 'proj', paymentId: 'pay-1', leaseMs: 5000 }), { outcome: 'done' });
      const next = await store.claim({ key: 'k2', projectId: 'proj', paymentId: 'pay-1', leaseMs: 5000 });
      assert.equal(next.outcome, 'claimed');
      assert.equal(next.previous.status, 'processing');
      await next.commit(null); // behind: the key is done, the state stays
      assert.equal((await store.payment('proj', 'pay-1')).idempotencyKey, 'k1');
      assert.deepEqual(await store.claim({ key: 'k2', projectId: 'proj', paymentId: 'pay-1', leaseMs: 5000 }), { outcome: 'done' });
      assert.equal(String(await send(client, ['GET', `${p}:version`])), String(REDIS_LAYOUT_VERSION));
      const ttl = Number(await send(client, ['TTL', `${p}:{proj:pay-1}:done:k1`]));
      assert.ok(ttl > 7 * 86400, `done keys are kept at least 7 days: TTL ${ttl}`);
      await assert.rejects(claim.commit(null), { code: 'INVALID_ARGUMENT' }, 'a claim commits once');
    });

    test('while a claim of a payment is open, another key of that payment is busy; release lets the retry claim it', async () => {
      const store = redisStore(await open(), { prefix: prefix() });
      const first = await store.claim({ key: 'a', projectId: 'proj', paymentId: 'pay', leaseMs: 5000 });
      assert.equal(first.outcome, 'claimed');
      assert.deepEqual(await store.claim({ key: 'b', projectId: 'proj', paymentId: 'pay', leaseMs: 5000 }), { outcome: 'busy' });
      assert.deepEqual(await store.claim({ key: 'a', projectId: 'proj', paymentId: 'pay', leaseMs: 5000 }), { outcome: 'busy' });
      // Another payment (even with the same key text, or ids with ':' in them) is not held.
      assert.equal((await store.claim({ key: 'a', projectId: 'proj:pay', paymentId: 'x', leaseMs: 5000 })).outcome, 'claimed');
      await first.release();
      const retry = await store.claim({ key: 'a', projectId: 'proj', paymentId: 'pay', leaseMs: 5000 });
      assert.equal(retry.outcome, 'claimed', 'a released key is not done');
      assert.equal(retry.previous, null);
    });

    test('commit and release act only for the holder: an expired holder neither drops nor overwrites the next one', async () => {
      const store = redisStore(await open(), { prefix: prefix() });
      const slow = await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 150 });
      await sleep(300);
      const retry = await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 5000 });
      assert.equal(retry.outcome, 'claimed', 'the expired lease is taken by the retry');
      await slow.release();
      assert.deepEqual(await store.claim({ key: 'other', projectId: 'p', paymentId: 'pay', leaseMs: 5000 }), { outcome: 'busy' }, "the old holder's release left the new lease");
      const second = await store.claim({ key: 'k2', projectId: 'p', paymentId: 'pay', leaseMs: 150 });
      assert.deepEqual(second, { outcome: 'busy' });
      await retry.commit(state('success', 'k'));
      // A holder whose lease expired and was taken by another delivery: its commit writes nothing.
      const late = await store.claim({ key: 'k3', projectId: 'p', paymentId: 'pay', leaseMs: 150 });
      await sleep(300);
      const taker = await store.claim({ key: 'k4', projectId: 'p', paymentId: 'pay', leaseMs: 5000 });
      assert.equal(taker.outcome, 'claimed');
      await assert.rejects(late.commit(state('decline', 'k3')), (e) => e.name === 'PaymentIntakeError' && e.code === 'TIMEOUT' && /lease/.test(e.message));
      assert.equal((await store.payment('p', 'pay')).status, 'success', 'the late commit recorded nothing');
      await late.release(); // as the handler does after a failed commit: the taker's lease stays
      assert.deepEqual(await store.claim({ key: 'k5', projectId: 'p', paymentId: 'pay', leaseMs: 5000 }), { outcome: 'busy' });
      await taker.release();
      assert.equal((await store.claim({ key: 'k3', projectId: 'p', paymentId: 'pay', leaseMs: 5000 })).outcome, 'claimed', 'k3 is not done: its retry handles it');
    });

    test('a commit after its lease expired, with nobody acting on the payment since, is recorded', async () => {
      const store = redisStore(await open(), { prefix: prefix() });
      const slow = await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 100 });
      await sleep(250);
      await slow.commit(state('success', 'k'));
      assert.equal((await store.payment('p', 'pay')).status, 'success');
      assert.deepEqual(await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 100 }), { outcome: 'done' });
    });

    test('100 parallel claims of one key over 4 connections: one is claimed, the others busy; after its commit all are done', async () => {
      const stores = await Promise.all([1, 2, 3, 4].map(async () => redisStore(await open(), { prefix: 'shared-' + name })));
      const claim = (i) => stores[i % 4].claim({ key: 'same', projectId: 'p', paymentId: 'one', leaseMs: 10000 });
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => claim(i)));
      const claimed = results.filter((r) => r.outcome === 'claimed');
      assert.equal(claimed.length, 1);
      assert.equal(results.filter((r) => r.outcome === 'busy').length, 99);
      await claimed[0].commit(state('success', 'same'));
      const again = await Promise.all(Array.from({ length: 100 }, (_, i) => claim(i)));
      assert.ok(again.every((r) => r.outcome === 'done'));
    });

    test('the lease of a holder SIGKILLed mid-claim expires, and then a retry claims the key', async () => {
      const p = prefix();
      const store = redisStore(await open(), { prefix: p });
      const holder = spawn(process.execPath, ['--input-type=module', '-e', `
        import { Redis } from 'ioredis';
        const { redisStore } = await import(${JSON.stringify(storeUrl)});
        const client = new Redis(${server.port}, '127.0.0.1');
        const claim = await redisStore(client, { prefix: ${JSON.stringify(p)} }).claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 800 });
        console.log(claim.outcome);
        setInterval(() => {}, 1000);`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      const [line] = await once(holder.stdout, 'data');
      assert.equal(String(line).trim(), 'claimed');
      holder.kill('SIGKILL');
      await once(holder, 'exit');
      const killedAt = Date.now();
      assert.deepEqual(await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 5000 }), { outcome: 'busy' }, 'the lease outlives its holder until it expires');
      let claim;
      while ((claim = await store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 5000 })).outcome === 'busy') {
        assert.ok(Date.now() - killedAt < 5000, 'the lease did not expire');
        await sleep(50);
      }
      assert.equal(claim.outcome, 'claimed');
      assert.equal(claim.previous, null);
      await claim.commit(state('success', 'k'));
    });

    test('reviews: kept once per id, listed oldest first', async () => {
      const store = redisStore(await open(), { prefix: prefix() });
      const review = (id, at) => ({ id, code: 'INVALID_CALLBACK', message: 'm', projectId: 'p', paymentId: null, rawBody: `{"id":"${id}"}`, headers: { a: 'b' }, receivedAt: at });
      assert.deepEqual(await store.keep(review('b'.repeat(64), '2026-01-02T00:00:00.000Z')), { isNew: true });
      assert.deepEqual(await store.keep(review('b'.repeat(64), '2026-01-03T00:00:00.000Z')), { isNew: false });
      assert.deepEqual(await store.keep(review('a'.repeat(64), '2026-01-01T00:00:00.000Z')), { isNew: true });
      const kept = await store.reviews();
      assert.deepEqual(kept.map((r) => r.id), ['a'.repeat(64), 'b'.repeat(64)]);
      assert.equal(kept[1].receivedAt, '2026-01-02T00:00:00.000Z', 'the first copy is kept');
      assert.deepEqual((await store.reviews({ limit: 1 })).map((r) => r.id), ['a'.repeat(64)]);
    });

    test('a layout written by a newer version is refused; bad options and clients are errors', async () => {
      const client = await open();
      const p = prefix();
      await send(client, ['SET', `${p}:version`, String(REDIS_LAYOUT_VERSION + 1)]);
      await assert.rejects(redisStore(client, { prefix: p }).payment('p', 'x'), { code: 'INVALID_ARGUMENT', status: 500, name: 'PaymentIntakeError' });
      for (const options of [{ keepSeconds: 3600 }, { prefix: 'a{b}' }, { leaseMs: 99 }, { leaseMs: 2 ** 31 }, null]) {
        assert.throws(() => redisStore(client, options), { code: 'INVALID_ARGUMENT', status: 500, name: 'PaymentIntakeError' }, JSON.stringify(options));
      }
      assert.throws(() => redisStore({ get() {} }), { code: 'INVALID_ARGUMENT' });
    });
  });
}

/** A raw command through either client. */
function send(client, args) {
  return typeof client.call === 'function' ? client.call(...args) : client.sendCommand(args);
}
