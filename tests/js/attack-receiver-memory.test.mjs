// Attacks on memoryStore through createCallbackHandler (the packed package): a holder whose
// lease expired inside onEvent must not overwrite what was recorded since (a final state
// undone would let a second final state through), and ids that hold any character must
// never make two payments one.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { callback, installed, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

const post = async (handler, sent) => {
  const answer = await handler.handle(sent.body, sent.headers);
  return { status: answer.status, json: JSON.parse(answer.body) };
};
const stateOf = (e) => `${e.state.status}:${e.state.subStatus ?? ''}`;

describe('memoryStore under attack', () => {
  test('a late commit after the lease expired never undoes a final state recorded meanwhile', async () => {
    let resume;
    const hung = new Promise((resolve) => (resume = resolve));
    const { seen, config } = recorder({
      leaseMs: 10000,
      onEvent: async (event) => {
        seen.events.push(event);
        if (event.state.subStatus === 'new') await hung; // slower than its lease
      },
    });
    const store = pkg.memoryStore();
    // The slow delivery's lease is short; every later one is handled at once.
    const slowHandler = pkg.createCallbackHandler({ ...config, store, leaseMs: 50 });
    const handler = pkg.createCallbackHandler({ ...config, store });
    const slow = post(slowHandler, callback('processing:new'));
    while (seen.events.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(await post(handler, callback('success')), { status: 200, json: { ok: true } });
    resume();
    const late = await slow;
    assert.equal(late.status, 500, 'the late holder records nothing: the service retries it');
    const recorded = await store.payment('prj_1', 'order-1');
    assert.equal(recorded.status, 'success', 'the final state stays');
    assert.equal(recorded.isFinal, true);
    // A decline now is another final state after a final one: a person's, never a second credit.
    assert.deepEqual(await post(handler, callback('decline')), { status: 200, json: { ok: true, code: 'AFTER_FINAL' } });
    // The service's retry of the late processing:new is stale now.
    assert.deepEqual(await post(handler, callback('processing:new')), { status: 200, json: { ok: true, code: 'STALE' } });
    assert.deepEqual(seen.events.map(stateOf), ['processing:new', 'success:']);
    assert.equal(seen.events.filter((e) => e.final).length, 1, 'one final state delivered');
  });

  test('the previous state handed to onEvent is a copy: an onEvent that changes it and throws makes no retry STALE', async () => {
    let failOnce = true;
    const { seen, config } = recorder({
      onEvent: (event) => {
        seen.events.push(event);
        if (event.previous && failOnce) {
          failOnce = false;
          event.previous.isFinal = true; // a merchant's bug, or a library mutating its input
          throw new Error('the order system is down');
        }
      },
    });
    const handler = pkg.createCallbackHandler({ ...config, store: pkg.memoryStore() });
    assert.equal((await post(handler, callback('processing:new'))).status, 200);
    assert.equal((await post(handler, callback('processing:paid'))).status, 500);
    assert.deepEqual(await post(handler, callback('processing:paid')), { status: 200, json: { ok: true } }, 'the retry is acted on');
    assert.deepEqual(await post(handler, callback('success')), { status: 200, json: { ok: true } });
    assert.deepEqual(seen.events.map(stateOf), ['processing:new', 'processing:paid', 'processing:paid', 'success:']);
    assert.equal((await handler.store.payment('prj_1', 'order-1')).status, 'success');
  });

  test('ids holding the separator of another store layout never make two payments one', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler({ ...config, store: pkg.memoryStore() });
    const pairs = [
      ['a:b', 'c'],
      ['a', 'b:c'],
      ['["a","b"]', 'c'],
      ['a,b', 'c'],
    ];
    for (const [projectId, paymentId] of pairs) {
      assert.deepEqual(await post(handler, callback('success', { projectId, paymentId })), { status: 200, json: { ok: true } }, `${JSON.stringify([projectId, paymentId])}`);
    }
    assert.equal(seen.events.length, pairs.length, 'each payment is its own');
    assert.equal(seen.reviews.length, 0);
    // Ids holding NUL, which PostgreSQL cannot store, are kept for review by every store alike: each its own.
    for (const [projectId, paymentId] of [['a\u0000b', 'c'], ['a', 'b\u0000c']]) {
      assert.deepEqual(await post(handler, callback('success', { projectId, paymentId })), { status: 200, json: { ok: true, code: 'INVALID_CALLBACK' } });
    }
    assert.equal(seen.reviews.length, 2);
    for (const [projectId, paymentId] of pairs) assert.equal((await handler.store.payment(projectId, paymentId)).status, 'success');
  });
});
