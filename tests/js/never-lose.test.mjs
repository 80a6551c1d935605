// Issue "no payment lost, doubled or mis-credited", on every store (support/store-matrix.mjs)
// against the real sandbox over loopback: creates recorded by the client and safe to call
// again across calls, reconciliation through the info operations when callbacks never come,
// the amount check, and the outcome of every decision.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { SERVICE_KEY, merchantKey, nextId, withSandbox } from './support/sandbox-kit.mjs';
import { STORES } from './support/store-matrix.mjs';

const clientOf = (sandbox, config = {}) => api.createClient({
  baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1',
  timeoutMs: 5000, retries: 2, retryDelayMs: 5, maxRetryDelayMs: 20, ...config,
});
/** Callbacks that never arrive: every address is a loopback port nothing listens on. */
const NOWHERE = { merchant_callback_url: 'http://127.0.0.1:9/cb', merchant_success_callback_url: 'http://127.0.0.1:9/ok', merchant_decline_callback_url: 'http://127.0.0.1:9/no' };
const payin = (paymentId = nextId('nl'), amount = 150000) => ({
  general: { project_id: 'prj_1', payment_id: paymentId, ...NOWHERE },
  payment: { method: 'card-p2p', amount, currency: 'RUB', lifetime: 300 },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});
const payout = (paymentId = nextId('po')) => ({ general: { project_id: 'prj_1', payment_id: paymentId, ...NOWHERE }, payment: { amount: 5000, currency: 'RUB' } });
const count = (sandbox, paymentId) => sandbox.payments().filter((p) => p.paymentId === paymentId).length;

async function rejects(promise, code) {
  try {
    await promise;
  } catch (error) {
    assert.ok(api.isPaymentIntakeError(error), `${error?.stack}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  return assert.fail(`resolved; expected ${code}`);
}
async function setFaults(sandbox, faults) {
  const res = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
  assert.equal(res.status, 200, await res.text());
}
async function force(sandbox, paymentId, scenario, json = {}) {
  const res = await fetch(`${sandbox.url}/sandbox/payments/${encodeURIComponent(paymentId)}/${scenario}?project_id=prj_1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) });
  assert.equal(res.status, 200, `${scenario}: ${await res.text()}`);
}
async function until(predicate, what) {
  for (let i = 0; i < 500; i += 1) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.fail(`timed out waiting for ${what}`);
}
/** A handler over `store` that records every event and outcome. */
function receiverOf(sandbox, store, extra = {}) {
  const events = [];
  const outcomes = [];
  const handler = api.createCallbackHandler({
    keys: sandbox.servicePublicKeyPem, store, onError: () => {},
    onEvent: (event) => events.push(event), onOutcome: (outcome) => outcomes.push(outcome), ...extra,
  });
  return { handler, events, outcomes };
}
/** The service's key, as the sandbox signs callbacks with it (withSandbox gives it SERVICE_KEY). */
const SERVICE = api.SigningKey.fromPem(SERVICE_KEY);
const states = (events) => events.map((e) => `${e.source} ${e.callback.status}:${e.callback.subStatus ?? ''}`);

for (const kind of STORES) {
  describe(`never lose a payment: ${kind.name}`, { skip: kind.skip }, () => {
    test('a create whose answer was lost, called again: the same payment, replayed; another amount: PAYMENT_EXISTS with .existing and what differs, nothing sent', () => withSandbox({}, async ({ sandbox }) => {
      const { store, close } = await kind.open();
      try {
        const client = clientOf(sandbox, { store, retries: 0, timeoutMs: 800 });
        const body = payin();
        const id = body.general.payment_id;
        await setFaults(sandbox, [{ type: 'delay', ms: 1500, count: 1 }]);
        await rejects(client.p2p.payin.create(body), 'TIMEOUT');
        const known = await store.payment('prj_1', id);
        assert.equal(known.status, null, 'known before any callback');
        assert.equal(known.create.amount, 150000);
        assert.equal(known.create.operation, '/api/v1/payment/p2p/payin');
        assert.equal(known.create.lifetime, 300);
        await until(() => count(sandbox, id) === 1, 'the delayed create to be made');
        const again = await client.p2p.payin.create(body);
        assert.equal(again.response.replayed, true);
        assert.equal(again.paymentId, id);
        assert.equal((await store.payment('prj_1', id)).create.answer.status, 'processing', 'the answer recorded');
        const other = await rejects(client.p2p.payin.create(payin(id, 7)), 'PAYMENT_EXISTS');
        assert.equal(other.existing.paymentId, id, '.existing filled');
        assert.match(other.message, /amount 150000 \(asked 7\)/);
        assert.match(other.hint, /amount 150000 \(asked 7\)/);
        assert.equal(count(sandbox, id), 1, 'one payment');
      } finally {
        await close();
      }
    }));

    test('a create called again after the payment moved to dispute:different_amount: still the same payment (its initial_amount compared, never the amount paid)', () => withSandbox({}, async ({ sandbox }) => {
      const { store, close } = await kind.open();
      try {
        const client = clientOf(sandbox, { store });
        const body = payin();
        const id = body.general.payment_id;
        await client.p2p.payin.create(body);
        await force(sandbox, id, 'requisites-found');
        await force(sandbox, id, 'different-amount', { amount: 60000 });
        const again = await client.p2p.payin.create(body);
        assert.equal(again.response.replayed, true);
        assert.equal(again.status, 'dispute');
        assert.equal(count(sandbox, id), 1);
      } finally {
        await close();
      }
    }));

    test('a payout whose answer was dropped, called again by another call: replayed by the store record; another amount refused before sending', () => withSandbox({}, async ({ sandbox }) => {
      const { store, close } = await kind.open();
      try {
        const client = clientOf(sandbox, { store, retries: 0 });
        const body = payout();
        const id = body.general.payment_id;
        await setFaults(sandbox, [{ type: 'drop-after', count: 1 }]);
        await rejects(client.p2p.payout.create(body), 'NETWORK_ERROR');
        const again = await client.p2p.payout.create(body);
        assert.equal(again.response.replayed, true);
        const other = await rejects(client.p2p.payout.create({ ...body, payment: { amount: 9000, currency: 'RUB' } }), 'PAYMENT_EXISTS');
        assert.match(other.message, /nothing was sent/);
        assert.equal(other.existing.paymentId, id);
        assert.equal(count(sandbox, id), 1);
      } finally {
        await close();
      }
    }));

    test('callbacks that never come: reconcile asks the service and acts once, through the same path; a late callback of that state is a DUPLICATE', () => withSandbox({ concurrentCallbacks: 8 }, async ({ sandbox }) => {
      const { store, close } = await kind.open();
      try {
        const client = clientOf(sandbox, { store });
        const { handler, events, outcomes } = receiverOf(sandbox, store);
        const sent = [];
        sandbox.events.on('callback', (event) => sent.push(event));
        const paid = payin();
        const declined = payin();
        await client.p2p.payin.create(paid);
        await client.p2p.payin.create(declined);
        const fresh = await handler.reconcile({ client, olderThanMs: 60000 });
        assert.deepEqual({ ...fresh, payments: undefined }, { checked: 0, advanced: 0, unchanged: 0, failed: 0, payments: undefined }, 'nothing is due yet');
        await force(sandbox, paid.general.payment_id, 'requisites-found');
        await force(sandbox, paid.general.payment_id, 'confirm');
        await force(sandbox, paid.general.payment_id, 'succeed');
        await force(sandbox, declined.general.payment_id, 'anti-fraud');
        const report = await handler.reconcile({ client, olderThanMs: 0 });
        assert.equal(report.checked, 2);
        assert.equal(report.advanced, 2);
        assert.equal(report.failed, 0);
        assert.deepEqual(states(events).sort(), ['reconcile decline:', 'reconcile success:']);
        const success = events.find((e) => e.callback.status === 'success');
        assert.equal(success.final, true);
        assert.equal(success.amountChanged, false);
        assert.equal(success.callback.paymentInfo.amount, 150000);
        assert.equal((await store.payment('prj_1', paid.general.payment_id)).status, 'success');
        assert.equal((await store.payment('prj_1', declined.general.payment_id)).status, 'decline');
        assert.deepEqual(outcomes.map((o) => [o.code, o.source]), [['DELIVERED', 'reconcile'], ['DELIVERED', 'reconcile']]);
        assert.equal((await handler.reconcile({ client, olderThanMs: 0 })).checked, 0, 'final payments are not asked again');
        // The success callback arriving late, as the service signed it: a duplicate of what reconcile did.
        await until(() => sent.some((e) => e.requestId === late(sandbox, paid).requestId && e.state === 'success'), 'the sandbox to try the success callback');
        const body = sent.find((e) => e.requestId === late(sandbox, paid).requestId && e.state === 'success').body;
        const signed = api.signRequest(body, SERVICE, { merchantId: sandbox.merchantId });
        const answer = await handler.handle(signed.body, signed.headers);
        assert.deepEqual(JSON.parse(answer.body), { ok: true, code: 'DUPLICATE' });
        assert.deepEqual(outcomes.at(-1), { ...outcomes.at(-1), code: 'DUPLICATE', source: 'callback', status: 200, state: 'success:' });
        assert.equal(events.length, 2, 'onEvent once per payment');
      } finally {
        await close();
      }
    }));

    test("amountChanged: a dispute for another amount, then success: each event says so, and the amount paid is payment_info.amount", () => withSandbox({}, async ({ sandbox }) => {
      const { store, close } = await kind.open();
      try {
        const client = clientOf(sandbox, { store });
        const { handler, events } = receiverOf(sandbox, store);
        const body = payin();
        const id = body.general.payment_id;
        await client.p2p.payin.create(body);
        await force(sandbox, id, 'requisites-found');
        assert.equal((await handler.reconcile({ client, olderThanMs: 0 })).advanced, 1);
        await force(sandbox, id, 'different-amount', { amount: 60000 });
        assert.equal((await handler.reconcile({ client, olderThanMs: 0 })).advanced, 1);
        await force(sandbox, id, 'succeed');
        assert.equal((await handler.reconcile({ client, olderThanMs: 0 })).advanced, 1);
        assert.deepEqual(events.map((e) => [`${e.callback.status}:${e.callback.subStatus ?? ''}`, e.amountChanged]), [
          ['processing:awaiting_confirm', false], ['dispute:different_amount', true], ['success:', true],
        ]);
        assert.equal(events[2].callback.paymentInfo.amount, 60000, 'what was paid');
        assert.equal(events[2].callback.paymentInfo.initialAmount, 150000, 'what was asked');
      } finally {
        await close();
      }
    }));
  });
}

/** The sandbox's payment of a create body. */
const late = (sandbox, body) => sandbox.payments().find((p) => p.paymentId === body.general.payment_id);
