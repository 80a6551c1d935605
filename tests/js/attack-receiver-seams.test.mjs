// What an attack on the receiver and the stores found (issue "no payment lost, doubled or
// mis-credited"), on every store (support/store-matrix.mjs); each failed on 96156e0:
// - an onReview that throws answered 500, and the service's retry found the review kept and
//   never showed it again (INVALID_CALLBACK on every store; AFTER_FINAL on memory and Redis);
// - a genuine callback whose payment_id holds NUL failed every delivery on PostgreSQL;
// - memoryStore({ maxKeys }) kept every payment's state for ever, and a repeat of a success
//   whose done key was forgotten was filed as AFTER_FINAL;
// - leaseMs of 2^31 ms or more was accepted, and setTimeout runs such a timer after 1 ms;
// and what the handler now tells besides its answer: onOutcome, once per delivery.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { body, callback, recorder, signed } from './support/receiver-kit.mjs';
import { STORES } from './support/store-matrix.mjs';

const json = (answer) => ({ status: answer.status, ...JSON.parse(answer.body) });

for (const kind of STORES) {
  describe(`receiver seams: ${kind.name}`, { skip: kind.skip }, () => {
    test('an onReview that throws is answered 500, and the retry shows the review again (INVALID_CALLBACK, AFTER_FINAL)', async () => {
      const { store, close } = await kind.open();
      try {
        let fail = true;
        const shown = [];
        const { config } = recorder({
          onReview: (review) => {
            if (fail) throw new Error('the ticket system is down');
            shown.push(review.code);
          },
        });
        const handler = api.createCallbackHandler({ ...config, store });
        const invalid = signed(body('success', { omitStatus: true, paymentId: 'rv-1' }));
        assert.equal((await handler.handle(invalid.body, invalid.headers)).status, 500);
        await handler.handle(callback('success', { paymentId: 'rv-2' }).body, callback('success', { paymentId: 'rv-2' }).headers);
        const after = callback('decline', { paymentId: 'rv-2' });
        assert.equal((await handler.handle(after.body, after.headers)).status, 500);
        fail = false;
        assert.deepEqual(json(await handler.handle(invalid.body, invalid.headers)), { status: 200, ok: true, code: 'INVALID_CALLBACK' });
        assert.deepEqual(json(await handler.handle(after.body, after.headers)), { status: 200, ok: true, code: 'AFTER_FINAL' });
        assert.deepEqual(shown, ['INVALID_CALLBACK', 'AFTER_FINAL'], 'each review shown once it could be');
        assert.deepEqual(json(await handler.handle(invalid.body, invalid.headers)), { status: 200, ok: true, code: 'INVALID_CALLBACK' });
        assert.equal(shown.length, 2, 'and only once');
      } finally {
        await close();
      }
    });

    test('a genuine callback whose payment_id holds NUL is kept for review (200), not failed for ever', async () => {
      const { store, close } = await kind.open();
      try {
        const { seen, config } = recorder();
        const handler = api.createCallbackHandler({ ...config, store });
        const nul = callback('success', { paymentId: 'a\u0000b' });
        assert.deepEqual(json(await handler.handle(nul.body, nul.headers)), { status: 200, ok: true, code: 'INVALID_CALLBACK' });
        assert.equal(seen.events.length, 0);
        assert.equal(seen.reviews.length, 1);
        assert.equal(seen.reviews[0].paymentId, 'a\uFFFDb');
        assert.match(seen.reviews[0].message, /NUL/);
      } finally {
        await close();
      }
    });

    test('onOutcome: one outcome per delivery, with its code, source, state and HTTP status', async () => {
      const { store, close } = await kind.open();
      try {
        const outcomes = [];
        let fail = false;
        const { config } = recorder({
          onOutcome: (outcome) => outcomes.push(outcome),
          onEvent: () => {
            if (fail) throw new Error('down');
          },
        });
        const handler = api.createCallbackHandler({ ...config, store });
        const send = async (sent) => (await handler.handle(sent.body, sent.headers)).status;
        const paid = callback('processing:paid', { paymentId: 'oc-1' });
        await send(paid);
        await send(paid);
        await send(callback('processing:awaiting_confirm', { paymentId: 'oc-1' }));
        await send(callback('success', { paymentId: 'oc-1' }));
        await send(callback('decline', { paymentId: 'oc-1' }));
        await send(callback('refunded', { paymentId: 'oc-2' }));
        await send(signed(body('success', { omitStatus: true, paymentId: 'oc-3' })));
        const forged = callback('success', { paymentId: 'oc-4' });
        await send({ ...forged, body: forged.body.replace('150000', '950000') });
        fail = true;
        await send(callback('success', { paymentId: 'oc-5' }));
        assert.deepEqual(outcomes.map((o) => [o.code, o.status, o.state]), [
          ['DELIVERED', 200, 'processing:paid'], ['DUPLICATE', 200, 'processing:paid'], ['STALE', 200, 'processing:awaiting_confirm'],
          ['DELIVERED', 200, 'success:'], ['AFTER_FINAL', 200, 'decline:'], ['UNKNOWN_STATE', 200, 'refunded:'], ['REVIEW', 200, null],
          ['INVALID_SIGNATURE', 401, null], ['EVENT_FAILED', 500, 'success:'],
        ]);
        assert.ok(outcomes.every((o) => o.source === 'callback' && Number.isFinite(o.ms) && o.ms >= 0));
        assert.equal(outcomes[0].idempotencyKey, 'prj_1:oc-1:processing:paid');
        assert.deepEqual([outcomes[0].projectId, outcomes[0].paymentId], ['prj_1', 'oc-1']);
        assert.equal(outcomes[6].reason, 'INVALID_CALLBACK');
      } finally {
        await close();
      }
    });
  });
}

describe('memoryStore and the handler at their bounds', () => {
  test('maxKeys bounds the payments too; a repeat of a success whose key was forgotten is a DUPLICATE, not AFTER_FINAL', async () => {
    const store = api.memoryStore({ maxKeys: 3 });
    const { seen, config } = recorder();
    const handler = api.createCallbackHandler({ ...config, store });
    const first = callback('success', { paymentId: 'mk-0' });
    await handler.handle(first.body, first.headers);
    // Another payment's two states push mk-0's done key out (3 keys kept), not its state.
    for (const state of ['processing:paid', 'success']) {
      const sent = callback(state, { paymentId: 'mk-1' });
      await handler.handle(sent.body, sent.headers);
    }
    await handler.handle(callback('success', { paymentId: 'mk-2' }).body, callback('success', { paymentId: 'mk-2' }).headers);
    assert.deepEqual(json(await handler.handle(first.body, first.headers)), { status: 200, ok: true, code: 'DUPLICATE' });
    assert.equal(seen.reviews.length, 0, 'nothing filed as AFTER_FINAL');
    for (let i = 3; i < 50; i += 1) {
      const sent = callback('success', { paymentId: `mk-${i}` });
      await handler.handle(sent.body, sent.headers);
    }
    let known = 0;
    for (let i = 0; i < 50; i += 1) if (await store.payment('prj_1', `mk-${i}`)) known += 1;
    assert.ok(known <= 3, `at most maxKeys payments kept, found ${known}`);
  });

  test('leaseMs of 2^31 ms or more (or Infinity) is refused: setTimeout would run it after 1 ms', () => {
    const { config } = recorder();
    for (const leaseMs of [2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER, Infinity]) {
      assert.throws(() => api.createCallbackHandler({ ...config, leaseMs }), (e) => e.code === 'INVALID_ARGUMENT' && /2\^31 - 1/.test(e.message), String(leaseMs));
    }
    assert.equal(typeof api.createCallbackHandler({ ...config, leaseMs: 2 ** 31 - 1 }).handle, 'function');
  });
});
