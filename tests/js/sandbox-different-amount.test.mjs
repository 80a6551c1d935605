// The 'different-amount' scenario end to end: a payin made through the sandbox, moved to
// processing:awaiting_confirm, forced to dispute:different_amount with the amount the client
// really sent, then to success. A loopback receiver here verifies each callback with the
// package's verifyCallback and the sandbox's service key, and keeps the body it verified: its
// payment_info carries what was paid as `amount`, what was asked as `initial_amount` and
// `old_amount`, and the info operation answers the same.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { P2P, SAFETY_MS, call, ids, merchantKey, p2pBody, SERVICE_KEY, startSandbox } from './support/sandbox-kit.mjs';

const ASKED = 150000;
const PAID = 120000;

/** A receiver that verifies every callback with `servicePublicKeyPem`; `received`: the verified bodies, as JSON. */
async function verifyingReceiver(servicePublicKeyPem, merchantId) {
  const key = api.VerifyingKey.fromPem(servicePublicKeyPem);
  const box = { received: [], refused: [], waiters: [] };
  box.server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      try {
        const model = api.verifyCallback(raw, req.headers, key, { toleranceSeconds: 600, expectedMerchantId: merchantId });
        box.received.push({ path: req.url, model, body: JSON.parse(raw.toString('utf8')) });
      } catch (e) {
        box.refused.push({ path: req.url, code: e.code, message: e.message });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      box.waiters = box.waiters.filter((w) => !w());
    });
  });
  await new Promise((resolve) => box.server.listen(0, '127.0.0.1', resolve));
  box.base = `http://127.0.0.1:${box.server.address().port}`;
  /** The first verified callback whose body is in `status`[:`sub`]. */
  box.callback = (status, sub = null) => new Promise((resolve, reject) => {
    const find = () => box.received.find((r) => r.body.status.status === status && r.body.status.sub_status === sub);
    const timer = setTimeout(() => reject(new Error(`no ${status}:${sub} callback; got ${JSON.stringify(box.received.map((r) => r.body.status))}`)), SAFETY_MS);
    const check = () => {
      const found = find();
      if (found) (clearTimeout(timer), resolve(found));
      return found !== undefined;
    };
    if (!check()) box.waiters.push(check);
  });
  return box;
}

test("different-amount, then succeed: the callbacks' payment_info has amount = what was paid, initial_amount and old_amount = what was asked; info agrees", async () => {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 20 });
  const receiver = await verifyingReceiver(sandbox.servicePublicKeyPem, sandbox.merchantId);
  try {
    const body = p2pBody({ urls: (tag) => ({ merchant_callback_url: `${receiver.base}/${tag}/info`, merchant_success_callback_url: `${receiver.base}/${tag}/ok`, merchant_decline_callback_url: `${receiver.base}/${tag}/no` }) });
    assert.equal(body.payment.amount, ASKED);
    const created = await call(sandbox, P2P, body);
    assert.equal(created.status, 200, JSON.stringify(created.json));
    await receiver.callback('processing', 'awaiting_confirm');

    const control = (scenario, extra) => fetch(`${sandbox.url}/sandbox/payments/${created.json.request_id}/${scenario}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(extra ?? {}),
    });
    const dispute = await control('different-amount', { amount: PAID });
    assert.equal(dispute.status, 200, await dispute.text());
    const disputed = await receiver.callback('dispute', 'different_amount');
    const succeed = await control('succeed');
    assert.equal(succeed.status, 200, await succeed.text());
    const success = await receiver.callback('success');
    await sandbox.callbacksIdle();

    assert.deepEqual(receiver.refused, [], 'every callback verified with the service key');
    for (const [name, cb] of [['dispute', disputed], ['success', success]]) {
      const info = cb.body.payment_info;
      assert.deepEqual({ amount: info.amount, initial_amount: info.initial_amount, old_amount: info.old_amount }, { amount: PAID, initial_amount: ASKED, old_amount: ASKED }, `${name} callback's payment_info`);
      assert.deepEqual([cb.model.paymentInfo.amount, cb.model.paymentInfo.initialAmount, cb.model.paymentInfo.oldAmount], [PAID, ASKED, ASKED], `${name} callback's model`);
    }
    assert.match(disputed.body.status.status_description, new RegExp(`sent ${PAID} instead of ${ASKED}`));
    assert.equal(success.path, `/${body.general.payment_id}/ok`, 'the success callback went to the success URL');
    assert.deepEqual(receiver.received.map((r) => `${r.body.status.status}:${r.body.status.sub_status}`), ['processing:awaiting_confirm', 'dispute:different_amount', 'success:null']);

    const info = await call(sandbox, `${P2P}/info`, ids(body));
    assert.equal(info.status, 200, JSON.stringify(info.json));
    assert.equal(info.json.status, 'success');
    assert.deepEqual({ amount: info.json.payment_info.amount, initial_amount: info.json.payment_info.initial_amount, old_amount: info.json.payment_info.old_amount }, { amount: PAID, initial_amount: ASKED, old_amount: ASKED });
  } finally {
    await sandbox.close();
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
});
