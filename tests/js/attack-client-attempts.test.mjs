// Retries on a timeout: each attempt used to get the whole remaining deadline, so an attempt
// that timed out left no time for another and "retried on timeouts" never happened. Each
// attempt now gets its share (the remaining time divided among the attempts left, the last
// all that remains), or `attemptTimeoutMs` when given; a timed-out attempt is retried.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { P2P_CREATE, clientWith, fakeFetch, hang, p2pCreate, plainAnswer, rejection, statusOf } from './support/fake-service.mjs';

describe('client: an attempt that times out is retried within the call', () => {
  test('an info whose first attempt hangs is answered by the second (timeoutMs 6000, retries 1)', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch((call) => (call.n === 1 ? hang() : plainAnswer(statusOf(call.body))));
    const events = [];
    const client = clientWith({ fetch, timeoutMs: 6000, retries: 1, onResponse: (event) => events.push(event.error) });
    const model = await client.ecom.payin.info({ paymentId: 'order-1' });
    assert.equal(model.paymentId, 'order-1');
    assert.equal(model.response.attempts, 2);
    assert.equal(calls.length, 2);
    assert.equal(calls[0].init.signal.aborted, true, 'the first attempt was aborted by its own timeout');
    assert.deepEqual(events, ['timeout', null]);
  });

  test('a create whose first attempt hangs is retried, and its 409 settled through info (replayed)', { timeout: 20000 }, async () => {
    const infos = [];
    const { fetch, calls } = fakeFetch((call) => {
      if (call.n === 1) return hang(); // it reached the service, which made the payment
      if (call.url.endsWith(P2P_CREATE)) return plainAnswer(JSON.stringify({ status: 'error', status_description: 'payment exists' }), 409);
      infos.push(call.url);
      const request = JSON.parse(call.body);
      return plainAnswer(statusOf(call.body, { payment_info: { amount: 150000, old_amount: 150000, initial_amount: 150000, currency: 'RUB', method: 'card-p2p' }, integration: { form_url: null, redirect_url: null }, general: request.general }));
    });
    const client = clientWith({ fetch, timeoutMs: 9000, retries: 2, validate: false });
    const model = await client.p2p.payin.create(p2pCreate('order-9'));
    assert.equal(model.paymentId, 'order-9');
    assert.equal(model.response.replayed, true);
    assert.equal(calls.filter((call) => call.url.endsWith(P2P_CREATE)).length, 2);
    assert.equal(infos.length, 1);
  });

  test('attemptTimeoutMs bounds each attempt: 100 ms of a 15 s deadline, the second attempt answers', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch((call) => (call.n === 1 ? hang() : plainAnswer(statusOf(call.body))));
    const client = clientWith({ fetch, timeoutMs: 15000, attemptTimeoutMs: 100, retries: 2 });
    const started = Date.now();
    const model = await client.ecom.payin.info({ paymentId: 'order-2' });
    assert.equal(model.response.attempts, 2);
    assert.ok(Date.now() - started < 12000, `answered after ${Date.now() - started} ms: the first attempt had its 100 ms, not the call's 15 s share`);
    assert.equal(calls.length, 2);
  });

  test('every attempt hangs: TIMEOUT after retries + 1 attempts, each aborted', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch(() => hang());
    const client = clientWith({ fetch, timeoutMs: 4500, retries: 2 });
    const error = await rejection(client.ecom.payin.info({ paymentId: 'order-3' }), 'TIMEOUT');
    assert.equal(error.attempts, 3, error.message);
    assert.equal(calls.length, 3);
    assert.ok(calls.every((call) => call.init.signal.aborted));
  });
});
