// createCallbackHandler's decisions through handler.handle(rawBody, headers), with memoryStore,
// from the packed package: verify, claim, order by the spec's states table, onEvent, commit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { assertRawBodyRefused, body, callback, exerciseAdapter, installed, recorder, servicePublicPem, signed } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

const json = async (answer) => ({ status: answer.status, json: JSON.parse(answer.body) });
const handlerOf = (extra) => {
  const { seen, config } = recorder(extra);
  const handler = pkg.createCallbackHandler({ store: pkg.memoryStore(), ...config });
  const post = async (sent, headers = sent.headers) => json(await handler.handle(sent.body, headers));
  return { seen, handler, post, store: handler.store };
};
const states = (seen) => seen.events.map((e) => `${e.state.status}:${e.state.subStatus ?? ''}`);

describe('createCallbackHandler: handle(rawBody, headers)', () => {
  test('the adapter cases: genuine, duplicate, stale, tampered, forged, ambiguous', async () => {
    const { seen, post, store } = handlerOf();
    await exerciseAdapter(post, { seen, store });
    const answer = await pkg.createCallbackHandler(recorder().config).handle('{}', {});
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('a parsed object and an undefined body are INVALID_ARGUMENT naming the raw-body setting, stored nowhere', async () => {
    const { seen, handler, store } = handlerOf();
    const sent = callback('success');
    assertRawBodyRefused(await json(await handler.handle(JSON.parse(sent.body), sent.headers)));
    assertRawBodyRefused(await json(await handler.handle(undefined, sent.headers)));
    assertRawBodyRefused(await json(await handler.handle(null, sent.headers)));
    assert.equal(seen.events.length, 0);
    assert.equal(seen.errors.length, 3, 'the misconfiguration is reported to onError');
    assert.equal(await store.payment('prj_1', 'order-1'), null);
  });

  test('states in order are each delivered once, with the state recorded before', async () => {
    const { seen, post, store } = handlerOf();
    for (const state of ['processing:new', 'processing:requisites', 'processing:awaiting_confirm', 'processing:paid', 'success']) {
      assert.deepEqual(await post(callback(state)), { status: 200, json: { ok: true } });
    }
    assert.deepEqual(states(seen), ['processing:new', 'processing:requisites', 'processing:awaiting_confirm', 'processing:paid', 'success:']);
    assert.deepEqual(seen.events.map((e) => e.previous?.subStatus ?? e.previous?.status ?? null), [null, 'new', 'requisites', 'awaiting_confirm', 'paid']);
    assert.ok(seen.events.every((e) => e.forward));
    assert.deepEqual(seen.events.map((e) => e.final), [false, false, false, false, true]);
    const recorded = await store.payment('prj_1', 'order-1');
    assert.equal(recorded.status, 'success');
    assert.equal(recorded.isFinal, true);
    assert.equal(recorded.idempotencyKey, seen.events[4].callback.idempotencyKey);
    assert.ok(!Number.isNaN(Date.parse(recorded.updatedAt)));
  });

  test('out of order: a state behind the recorded one is acknowledged, not delivered; the state never goes back', async () => {
    const { seen, post, store } = handlerOf();
    assert.deepEqual((await post(callback('processing:paid'))).json, { ok: true });
    assert.deepEqual((await post(callback('processing:requisites'))).json, { ok: true, code: 'STALE' });
    assert.equal((await store.payment('prj_1', 'order-1')).subStatus, 'paid');
    assert.deepEqual((await post(callback('decline'))).json, { ok: true });
    assert.deepEqual((await post(callback('processing:new'))).json, { ok: true, code: 'STALE' });
    assert.deepEqual((await post(callback('processing:new'))).json, { ok: true, code: 'DUPLICATE' }, 'a stale key is recorded as handled');
    assert.deepEqual(states(seen), ['processing:paid', 'decline:']);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'decline');
  });

  test('another final state after a final one goes to onReview; the final state never changes', async () => {
    const { seen, post, store } = handlerOf();
    await post(callback('success'));
    const late = callback('decline');
    assert.deepEqual(await post(late), { status: 200, json: { ok: true, code: 'AFTER_FINAL' } });
    assert.deepEqual(await post(late), { status: 200, json: { ok: true, code: 'DUPLICATE' } });
    assert.deepEqual(states(seen), ['success:']);
    assert.equal(seen.reviews.length, 1);
    assert.equal(seen.reviews[0].code, 'AFTER_FINAL');
    assert.equal(seen.reviews[0].rawBody, late.body);
    assert.match(seen.reviews[0].message, /decline.*after the final state success/);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
    assert.deepEqual((await store.reviews()).map((r) => r.code), ['AFTER_FINAL']);
  });

  test('disputes are delivered, and never hide a later final state', async () => {
    const { seen, post, store } = handlerOf();
    await post(callback('processing:paid'));
    assert.deepEqual((await post(callback('dispute:different_amount'))).json, { ok: true });
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'dispute');
    // An earlier dispute after a later one: delivered, not recorded as the state.
    assert.deepEqual((await post(callback('dispute:no_payment'))).json, { ok: true, code: 'NOT_FORWARD' });
    assert.equal((await store.payment('prj_1', 'order-1')).subStatus, 'different_amount');
    assert.deepEqual((await post(callback('success'))).json, { ok: true });
    // A dispute after the final state: delivered (forward: false), the final state stays.
    assert.deepEqual((await post(callback('dispute:confirm_timeout'))).json, { ok: true, code: 'NOT_FORWARD' });
    assert.deepEqual(states(seen), ['processing:paid', 'dispute:different_amount', 'dispute:no_payment', 'success:', 'dispute:confirm_timeout']);
    assert.deepEqual(seen.events.map((e) => e.forward), [true, true, false, true, false]);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
  });

  // The spec's states table shows no transition into or out of `error` (intermediate:
  // "payment not made because of an error found when validating the request"), so its place
  // in the order is unknown: it is delivered as a dispute is. It was answered STALE after any
  // processing state, and never reached onEvent.
  test('error is delivered like a dispute: after processing it reaches onEvent, not recorded, and hides no later final state', async () => {
    const { seen, post, store } = handlerOf();
    assert.deepEqual((await post(callback('processing:requisites'))).json, { ok: true });
    assert.deepEqual((await post(callback('error'))).json, { ok: true, code: 'NOT_FORWARD' });
    assert.equal(seen.events.length, 2, 'error reached onEvent');
    const [, error] = seen.events;
    assert.equal(error.state.status, 'error');
    assert.equal(error.forward, false);
    assert.equal(error.final, false);
    // Not recorded as the state: a later state is still compared with processing:requisites.
    assert.equal((await store.payment('prj_1', 'order-1')).subStatus, 'requisites');
    assert.deepEqual((await post(callback('success'))).json, { ok: true });
    assert.deepEqual(states(seen), ['processing:requisites', 'error:', 'success:']);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
  });

  test('error after success: delivered (forward: false), not an undoing of success, not a review', async () => {
    const { seen, post, store } = handlerOf();
    assert.deepEqual((await post(callback('processing:paid'))).json, { ok: true });
    assert.deepEqual((await post(callback('success'))).json, { ok: true });
    const late = callback('error');
    assert.deepEqual((await post(late)).json, { ok: true, code: 'NOT_FORWARD' });
    assert.deepEqual((await post(late)).json, { ok: true, code: 'DUPLICATE' });
    assert.deepEqual(states(seen), ['processing:paid', 'success:', 'error:']);
    assert.deepEqual(seen.events.map((e) => e.forward), [true, true, false]);
    const recorded = await store.payment('prj_1', 'order-1');
    assert.equal(recorded.status, 'success');
    assert.equal(recorded.isFinal, true);
    assert.equal(seen.reviews.length, 0);
  });

  test('error as the first callback is recorded; the processing states after it move forward', async () => {
    const { seen, post, store } = handlerOf();
    assert.deepEqual((await post(callback('error'))).json, { ok: true });
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'error');
    assert.deepEqual((await post(callback('processing:new'))).json, { ok: true });
    assert.deepEqual((await post(callback('decline'))).json, { ok: true });
    assert.deepEqual(states(seen), ['error:', 'processing:new', 'decline:']);
    assert.deepEqual(seen.events.map((e) => e.forward), [true, true, true]);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'decline');
  });

  test('a state the spec does not know is kept for review, not delivered', async () => {
    const { seen, post } = handlerOf();
    assert.deepEqual((await post(callback('refunded'))).json, { ok: true, code: 'UNKNOWN_STATE' });
    assert.equal(seen.events.length, 0);
    assert.equal(seen.reviews[0].code, 'UNKNOWN_STATE');
  });

  test('a genuine INVALID_CALLBACK is kept and shown to onReview once, answered 200', async () => {
    const { seen, post, store } = handlerOf();
    const invalid = signed(body('success', { omitStatus: true }));
    assert.deepEqual(await post(invalid), { status: 200, json: { ok: true, code: 'INVALID_CALLBACK' } });
    assert.deepEqual(await post(invalid), { status: 200, json: { ok: true, code: 'INVALID_CALLBACK' } });
    assert.equal(seen.reviews.length, 1);
    assert.equal(seen.reviews[0].rawBody, invalid.body);
    assert.deepEqual([seen.reviews[0].projectId, seen.reviews[0].paymentId], ['prj_1', 'order-1']);
    assert.equal((await store.reviews()).length, 1);
  });

  test('onEvent throws: released, answered 500, nothing recorded; the retry acts', async () => {
    let fail = true;
    const { seen, post, store } = handlerOf({
      onEvent: (event) => {
        if (fail) throw new Error('the order database is down');
        seen.events.push(event);
      },
    });
    const sent = callback('success');
    assert.deepEqual(await post(sent), { status: 500, json: { ok: false, code: 'EVENT_FAILED' } });
    assert.equal(seen.errors[0].message, 'the order database is down');
    assert.equal(await store.payment('prj_1', 'order-1'), null);
    fail = false;
    assert.deepEqual(await post(sent), { status: 200, json: { ok: true } });
    assert.equal(seen.events.length, 1);
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
  });

  test('a live lease: the same key, or another key of the same payment, is answered 409 until it is done', async () => {
    let finish;
    const { seen, post } = handlerOf({
      onEvent: async (event) => {
        seen.events.push(event);
        if (event.callback.paymentId === 'order-1') await new Promise((resolve) => (finish = resolve));
      },
    });
    const sent = callback('processing:paid');
    const first = post(sent);
    while (!finish) await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(await post(sent), { status: 409, json: { ok: false, code: 'BUSY' } });
    assert.deepEqual(await post(callback('success')), { status: 409, json: { ok: false, code: 'BUSY' } });
    assert.deepEqual(await post(callback('success', { paymentId: 'order-2' })), { status: 200, json: { ok: true } }, 'another payment is not held');
    finish();
    assert.deepEqual(await first, { status: 200, json: { ok: true } });
    assert.deepEqual(await post(sent), { status: 200, json: { ok: true, code: 'DUPLICATE' } });
  });

  test('a lease whose holder never answers expires: a retry takes it; the late holder commits nothing', async () => {
    let calls = 0;
    let release;
    const { post, store } = handlerOf({
      leaseMs: 50,
      onEvent: async () => {
        calls += 1;
        if (calls === 1) await new Promise((resolve) => (release = resolve)); // a holder that hangs
      },
    });
    const sent = callback('success');
    const hung = post(sent);
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(await post(sent), { status: 200, json: { ok: true } });
    assert.equal(calls, 2, 'at least once: the retry ran onEvent again');
    release();
    // Past its lease the hung holder is answered 500 EVENT_TIMEOUT (its deadline is leaseMs).
    assert.deepEqual(await hung, { status: 500, json: { ok: false, code: 'EVENT_TIMEOUT' } });
    assert.equal((await store.payment('prj_1', 'order-1')).status, 'success');
  });

  test('its arguments are checked: INVALID_ARGUMENT', () => {
    const { config } = recorder();
    for (const bad of [null, { ...config, keys: undefined }, { ...config, onEvent: 1 }, { ...config, store: {} }, { ...config, leaseMs: 0 }, { ...config, onReview: 'x' }]) {
      assert.throws(() => pkg.createCallbackHandler(bad), (error) => error instanceof pkg.PaymentIntakeError && error.code === 'INVALID_ARGUMENT');
    }
    assert.throws(() => pkg.memoryStore({ maxKeys: 0 }), (error) => error.code === 'INVALID_ARGUMENT' && /maxKeys/.test(error.message));
    assert.equal(pkg.createCallbackHandler({ keys: servicePublicPem, onEvent() {} }).store.guarantee, 'at-least-once', 'memoryStore by default');
  });
});
