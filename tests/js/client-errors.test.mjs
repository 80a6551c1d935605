// The client's errors as a handler logs and acts on them (issue "every runtime…", its errors):
// an abort is ABORTED with the signal's reason as `cause`, whatever the reason; every `cause`
// is an Error (a TIMEOUT's was a Symbol, and `${e.cause}` threw); REQUEST_REJECTED says the
// service's reason, not the payment's old state. Each failed on the build before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { merchantKey, nextId, p2pBody, withSandbox } from './support/sandbox-kit.mjs';

const clientOf = (sandbox, config = {}) => api.createClient({ baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1', retryDelayMs: 5, ...config });
async function caught(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail('resolved');
}

describe('client errors a handler can log and act on', () => {
  test('an abort is ABORTED: the reason as cause (an Error, even when the reason is not), a hint for a create', () => withSandbox({}, async ({ sandbox, receiver }) => {
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ type: 'delay', ms: 2000 }] }) });
    for (const reason of [undefined, new Error('the order was cancelled'), 'shutting down', 42]) {
      const controller = new AbortController();
      setTimeout(() => controller.abort(reason), 30);
      const e = await caught(clientOf(sandbox).p2p.payin.create(p2pBody(receiver, { paymentId: nextId('ab') }), { signal: controller.signal }));
      assert.ok(api.isPaymentIntakeError(e), String(e));
      assert.equal(e.code, 'ABORTED');
      assert.ok(e.cause instanceof Error, `cause of ${String(reason)}`);
      if (reason instanceof Error) assert.equal(e.cause, reason);
      assert.match(e.hint, /same create again is safe/);
      assert.doesNotThrow(() => `${e.cause}`);
    }
  }));

  test('waitFor aborted while it pauses between polls: ABORTED', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const body = p2pBody(receiver);
    await client.p2p.payin.create(body);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await caught(client.p2p.payin.waitFor({ paymentId: body.general.payment_id }, { until: 'final', intervalMs: 1000, signal: controller.signal }));
    assert.equal(e.code, 'ABORTED');
    assert.equal(e.cause.name, 'AbortError');
  }));

  test("a TIMEOUT's cause is an Error that a logger can print", () => withSandbox({}, async ({ sandbox }) => {
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ type: 'delay', ms: 2000 }] }) });
    const e = await caught(clientOf(sandbox, { timeoutMs: 200, retries: 0 }).balance());
    assert.equal(e.code, 'TIMEOUT');
    assert.ok(e.cause instanceof Error, typeof e.cause);
    assert.match(`${e.cause}`, /deadline/);
  }));

  test("REQUEST_REJECTED says why: a confirm of a declined payment names the refusal, not the payment's old description", () => withSandbox({}, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const body = p2pBody(receiver);
    await client.p2p.payin.create(body);
    await client.p2p.payin.cancel({ paymentId: body.general.payment_id });
    const e = await caught(client.p2p.payin.confirm({ paymentId: body.general.payment_id }));
    assert.equal(e.code, 'REQUEST_REJECTED');
    assert.match(e.message, /'confirm' is not possible in the state decline/);
    assert.match(e.message, /the payment is decline, 'Canceled by client'/);
  }));
});
