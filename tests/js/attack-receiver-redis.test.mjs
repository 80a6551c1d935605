// Attacks on redisStore through createCallbackHandler, on a real redis-server: a holder whose
// lease expired inside onEvent must not undo a final state recorded meanwhile, and ids holding
// Redis's key syntax (braces, `*`, `:`, spaces, newlines) never make two payments one.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { Redis } from 'ioredis';

import { serverSkip, startRedis } from '../support/servers.mjs';
import { pkgDir } from './helpers.mjs';
import { callback, installed, recorder } from './support/receiver-kit.mjs';

const { redisStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'redis.mjs')).href);
const skip = serverSkip('redis');

let pkg;
let app;
let server;
let client;
let prefixes = 0;
const prefix = () => `attack${process.pid}-${(prefixes += 1)}`;
const post = async (handler, sent) => {
  const answer = await handler.handle(sent.body, sent.headers);
  return { status: answer.status, json: JSON.parse(answer.body) };
};

describe('redisStore under attack', { skip }, () => {
  before(async () => {
    ({ pkg, app } = await installed());
    server = await startRedis();
    client = new Redis(server.port, server.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
  });
  after(async () => {
    await client?.quit();
    await server?.stop();
    app?.remove();
  });

  test('a late commit after the lease expired never undoes a final state recorded meanwhile', async () => {
    let resume;
    const hung = new Promise((resolve) => (resume = resolve));
    const { seen, config } = recorder({
      leaseMs: 5000,
      onEvent: async (event) => {
        seen.events.push(event);
        if (event.state.subStatus === 'new') await hung;
      },
    });
    const p = prefix();
    const slow = pkg.createCallbackHandler({ ...config, store: redisStore(client, { prefix: p, leaseMs: 100 }) });
    const handler = pkg.createCallbackHandler({ ...config, store: redisStore(client, { prefix: p }) });
    const late = post(slow, callback('processing:new'));
    while (seen.events.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await post(handler, callback('success')), { status: 200, json: { ok: true } });
    resume();
    assert.equal((await late).status, 500, 'the late holder records nothing');
    assert.equal((await handler.store.payment('prj_1', 'order-1')).status, 'success');
    assert.deepEqual(await post(handler, callback('decline')), { status: 200, json: { ok: true, code: 'AFTER_FINAL' } });
    assert.equal(seen.events.filter((e) => e.final).length, 1);
  });

  test('ids with braces, *, :, spaces, newlines: each payment its own', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler({ ...config, store: redisStore(client, { prefix: prefix() }) });
    const pairs = [['a:b', 'c'], ['a', 'b:c'], ['{a}', 'b'], ['a', '}b{'], ['*', '*'], ['a b', 'c\nd'], ['a%3Ab', 'c']];
    for (const [projectId, paymentId] of pairs) {
      assert.deepEqual(await post(handler, callback('success', { projectId, paymentId })), { status: 200, json: { ok: true } }, JSON.stringify([projectId, paymentId]));
    }
    assert.equal(seen.events.length, pairs.length);
    for (const [projectId, paymentId] of pairs) assert.equal((await handler.store.payment(projectId, paymentId)).status, 'success');
    assert.equal(await handler.store.payment('a', 'b'), null);
    // Ids holding NUL (which PostgreSQL cannot store) are kept for review by every store alike.
    for (const [projectId, paymentId] of [['a\u0000b', 'c'], ['a', 'b\u0000c']]) {
      assert.deepEqual(await post(handler, callback('success', { projectId, paymentId })), { status: 200, json: { ok: true, code: 'INVALID_CALLBACK' } });
    }
    assert.equal(seen.reviews.length, 2);
  });
});
