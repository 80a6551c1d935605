// memoryStore, from the packed package: the store contract (support/store-kit.mjs), and its
// own rules: a lease, done keys forgotten past maxKeys (oldest first).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { installed } from './support/receiver-kit.mjs';
import { storeContract } from './support/store-kit.mjs';

const { pkg, app } = await installed();
after(() => app.remove());

describe('memoryStore', () => {
  before(() => {});
  storeContract('memoryStore', { pkg, open: async () => ({ store: pkg.memoryStore(), close: async () => {} }) });

  test('at least once: its guarantee says so', () => {
    assert.equal(pkg.memoryStore().guarantee, 'at-least-once');
  });

  test('a claim of another key of a claimed payment is busy; release lets the next claim in', async () => {
    const store = pkg.memoryStore();
    const first = await store.claim({ key: 'k1', projectId: 'p', paymentId: 'x', leaseMs: 1000 });
    assert.equal(first.outcome, 'claimed');
    assert.deepEqual(await store.claim({ key: 'k1', projectId: 'p', paymentId: 'x', leaseMs: 1000 }), { outcome: 'busy' });
    assert.deepEqual(await store.claim({ key: 'k2', projectId: 'p', paymentId: 'x', leaseMs: 1000 }), { outcome: 'busy' });
    assert.equal((await store.claim({ key: 'k3', projectId: 'p', paymentId: 'y', leaseMs: 1000 })).outcome, 'claimed');
    await first.release();
    const again = await store.claim({ key: 'k1', projectId: 'p', paymentId: 'x', leaseMs: 1000 });
    assert.equal(again.outcome, 'claimed');
    await again.commit({ status: 'success', subStatus: null, isFinal: true, idempotencyKey: 'k1', updatedAt: new Date().toISOString() });
    assert.deepEqual(await store.claim({ key: 'k1', projectId: 'p', paymentId: 'x', leaseMs: 1000 }), { outcome: 'done' });
    assert.equal((await store.claim({ key: 'k2', projectId: 'p', paymentId: 'x', leaseMs: 1000 })).previous.idempotencyKey, 'k1');
  });

  test('maxKeys: past it, the oldest done keys are forgotten (a repeat of one would act again)', async () => {
    const store = pkg.memoryStore({ maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) {
      const claim = await store.claim({ key, projectId: 'p', paymentId: key, leaseMs: 1000 });
      await claim.commit(null);
    }
    assert.equal((await store.claim({ key: 'a', projectId: 'p', paymentId: 'a', leaseMs: 1000 })).outcome, 'claimed', 'a was forgotten');
    assert.deepEqual(await store.claim({ key: 'd', projectId: 'p', paymentId: 'd', leaseMs: 1000 }), { outcome: 'done' });
  });
});
