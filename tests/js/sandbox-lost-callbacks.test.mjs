// `loseCallbacks`: a share of the payments (chosen as each is created), or those a predicate
// picks, never get a callback: each of their callbacks is recorded as lost and never POSTed,
// while their states move and the info operation answers the true state, so a merchant can
// try reconciliation locally.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { P2P, call, ids, merchantKey, nextId, p2pBody, SERVICE_KEY, startSandbox, withSandbox } from './support/sandbox-kit.mjs';

const control = (sandbox, requestId, scenario) => fetch(`${sandbox.url}/sandbox/payments/${requestId}/${scenario}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

/** Creates a payin and declines it (two callbacks: awaiting_confirm, decline); resolves with its body and request_id. */
async function payAndDecline(sandbox, receiver, paymentId = nextId('order')) {
  const body = p2pBody(receiver, { paymentId });
  const created = await call(sandbox, P2P, body);
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const requestId = created.json.request_id;
  assert.equal((await control(sandbox, requestId, 'requisites-found')).status, 200);
  assert.equal((await control(sandbox, requestId, 'cancel')).status, 200);
  return { body, requestId };
}

test('loseCallbacks: 1: no callback is POSTed; each is recorded lost; the states move and info answers the true state', async () => {
  await withSandbox({ loseCallbacks: 1 }, async ({ sandbox, receiver }) => {
    const seen = [];
    sandbox.events.on('callback', (e) => seen.push(e));
    const { body, requestId } = await payAndDecline(sandbox, receiver);
    await sandbox.callbacksIdle();
    assert.deepEqual(receiver.received, [], 'nothing reached the receiver');

    const [payment] = sandbox.payments();
    assert.equal(payment.callbacksLost, true);
    assert.deepEqual(payment.history.map((h) => h.subStatus ?? h.status), ['requisites', 'awaiting_confirm', 'decline']);
    assert.deepEqual(payment.deliveries.map((d) => [d.callback, d.state, d.kind, d.lost, d.status, d.code, d.gaveUp, d.nextRetryAt]), [
      [1, 'processing:awaiting_confirm', 'informative', true, null, null, true, null],
      [2, 'decline', 'decline', true, null, null, true, null],
    ]);
    assert.deepEqual(seen.map((e) => [e.type, e.requestId, e.lost]), [['callback', requestId, true], ['callback', requestId, true]], "one 'callback' event per lost callback");

    const info = await call(sandbox, `${P2P}/info`, ids(body));
    assert.equal(info.status, 200);
    assert.deepEqual([info.json.status, info.json.status_description], ['decline', 'Canceled by client'], 'info answers the true state');

    // Visible in the JSON list, the index and both pages.
    const listed = await (await fetch(`${sandbox.url}/sandbox/payments`)).json();
    assert.equal(listed[0].callbacksLost, true);
    assert.ok(listed[0].deliveries.every((d) => d.lost === true));
    const index = await (await fetch(`${sandbox.url}/sandbox/?format=json`)).json();
    assert.equal(index.payments[0].callbacksLost, true);
    assert.ok(index.deliveries.length === 2 && index.deliveries.every((d) => d.lost === true));
    const page = await (await fetch(`${sandbox.url}/sandbox/pay/${requestId}`)).text();
    assert.match(page, /lost \(loseCallbacks\): never sent/);
    assert.match(page, /callbacks<\/dt><dd>lost/);
    const indexPage = await (await fetch(`${sandbox.url}/sandbox/?format=html`)).text();
    assert.match(indexPage, /lost \(loseCallbacks\): never sent/);

    // "Deliver again" does not deliver either: the callback is lost for good.
    const again = await (await control(sandbox, requestId, 'deliver-again')).json();
    assert.deepEqual([again.delivery.lost, again.delivery.manual, again.delivery.status], [true, true, null]);
    await sandbox.callbacksIdle();
    assert.deepEqual(receiver.received, []);
  });
});

test('loseCallbacks: 0 (and absent) loses none: every delivery says lost: false', async () => {
  for (const options of [{ loseCallbacks: 0 }, {}]) {
    await withSandbox(options, async ({ sandbox, receiver }) => {
      const { body } = await payAndDecline(sandbox, receiver);
      await receiver.callback(body.general.payment_id, 'decline');
      await sandbox.callbacksIdle();
      const [payment] = sandbox.payments();
      assert.equal(payment.callbacksLost, false);
      assert.deepEqual(payment.deliveries.map((d) => [d.state, d.lost, d.status]), [['processing:awaiting_confirm', false, 200], ['decline', false, 200]]);
    });
  }
});

test('loseCallbacks as a predicate: called once per payment as it is created; the payments it picks lose every callback, the others none', async () => {
  const asked = [];
  const pick = (payment) => {
    asked.push([payment.paymentId, payment.status, payment.deliveries.length]);
    return payment.paymentId.startsWith('lose-');
  };
  await withSandbox({ loseCallbacks: pick }, async ({ sandbox, receiver }) => {
    const lost = await payAndDecline(sandbox, receiver, nextId('lose-me'));
    const kept = await payAndDecline(sandbox, receiver, nextId('keep-me'));
    await receiver.callback(kept.body.general.payment_id, 'decline');
    await sandbox.callbacksIdle();
    assert.deepEqual(asked, [[lost.body.general.payment_id, 'processing', 0], [kept.body.general.payment_id, 'processing', 0]]);
    assert.deepEqual(receiver.of(lost.body.general.payment_id), []);
    assert.equal(receiver.of(kept.body.general.payment_id).length, 2);
    const byId = Object.fromEntries(sandbox.payments().map((p) => [p.paymentId, p]));
    assert.equal(byId[lost.body.general.payment_id].callbacksLost, true);
    assert.equal(byId[kept.body.general.payment_id].callbacksLost, false);
  });
});

test('loseCallbacks: 0.5 picks at random per payment: of 40, some lose their callbacks and some do not, each payment all or nothing', async () => {
  await withSandbox({ loseCallbacks: 0.5 }, async ({ sandbox, receiver }) => {
    const made = [];
    for (let i = 0; i < 40; i += 1) made.push(await payAndDecline(sandbox, receiver));
    await sandbox.callbacksIdle();
    const payments = sandbox.payments();
    const lost = payments.filter((p) => p.callbacksLost);
    assert.ok(lost.length > 0 && lost.length < 40, `${lost.length} of 40 lost`);
    for (const p of payments) {
      assert.ok(p.deliveries.length >= 2);
      assert.ok(p.deliveries.every((d) => d.lost === p.callbacksLost), `${p.paymentId}: all lost or none`);
      assert.equal(receiver.of(p.paymentId).length, p.callbacksLost ? 0 : 2);
    }
  });
});

test('loseCallbacks must be a number from 0 to 1 or a function: INVALID_OPTION naming it', async () => {
  for (const value of [NaN, Infinity, -Infinity, -0.1, 1.0001, '0.3', '1', true, false, null, {}, [0.3], 10n]) {
    await assert.rejects(startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, loseCallbacks: value }), (e) => {
      assert.equal(e.code, 'INVALID_OPTION', String(value));
      assert.match(e.message, /^startSandbox: 'loseCallbacks' must be a number from 0 to 1 \(the share of payments whose callbacks are lost\), or a function/);
      return true;
    }, String(value));
  }
  for (const value of [0, 1, 0.3, -0, 1e-9, () => false]) {
    const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, loseCallbacks: value });
    await sandbox.close();
  }
});

test('a loseCallbacks predicate that throws: the create answers 500 naming it, no payment is made, the sandbox goes on', async () => {
  await withSandbox({ loseCallbacks: () => { throw new Error('boom in my predicate'); } }, async ({ sandbox, receiver }) => {
    const failures = [];
    sandbox.events.on('failure', (e) => failures.push(e));
    const created = await call(sandbox, P2P, p2pBody(receiver));
    assert.equal(created.status, 500);
    assert.match(created.json.error, /loseCallbacks.*boom in my predicate/);
    assert.deepEqual(sandbox.payments(), []);
    assert.equal(failures.length, 1);
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments`)).status, 200);
  });
});

test('a loseCallbacks predicate that answers no boolean (an async function, 1, "yes"): the create answers 500 saying so, no payment is made', async () => {
  for (const [predicate, said] of [[async () => false, /not a Promise \(an async function\)/], [() => 1, /not number/], [() => 'yes', /not string/], [() => undefined, /not undefined/]]) {
    await withSandbox({ loseCallbacks: predicate }, async ({ sandbox, receiver }) => {
      const failures = [];
      sandbox.events.on('failure', (e) => failures.push(e));
      const created = await call(sandbox, P2P, p2pBody(receiver));
      assert.equal(created.status, 500);
      assert.match(created.json.error, /loseCallbacks threw: it must answer true or false/);
      assert.match(created.json.error, said);
      assert.deepEqual(sandbox.payments(), []);
      assert.equal(failures.length, 1);
    });
  }
});

test('lost callbacks stay lost with duplicateCallbacks, shuffleCallbacks and concurrentCallbacks: no POST, no duplicate, one lost delivery per callback', async () => {
  for (const options of [{ duplicateCallbacks: true }, { shuffleCallbacks: true, timeScale: 20 }, { concurrentCallbacks: 4, duplicateCallbacks: true }]) {
    await withSandbox({ loseCallbacks: 1, ...options }, async ({ sandbox, receiver }) => {
      await payAndDecline(sandbox, receiver);
      await sandbox.callbacksIdle();
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.deepEqual(receiver.received, [], JSON.stringify(options));
      const [payment] = sandbox.payments();
      assert.deepEqual(payment.deliveries.map((d) => [d.callback, d.lost, d.duplicate]), [[1, true, false], [2, true, false]], JSON.stringify(options));
    });
  }
});

test("the predicate gets a copy: changing it changes nothing of the sandbox's payment", async () => {
  await withSandbox({ loseCallbacks: (p) => ((p.amount = 1), (p.urls.informative = 'http://127.0.0.1:9/x'), (p.callbacksLost = true), false) }, async ({ sandbox, receiver }) => {
    const { body } = await payAndDecline(sandbox, receiver);
    await receiver.callback(body.general.payment_id, 'decline');
    const [payment] = sandbox.payments();
    assert.deepEqual([payment.amount, payment.urls.informative, payment.callbacksLost], [150000, body.general.merchant_callback_url, false]);
  });
});
