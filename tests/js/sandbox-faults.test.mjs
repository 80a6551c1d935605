// Failure injection (startSandbox({ faults }), POST /sandbox/faults), each fault driven
// with plain fetch as a merchant's client would meet it: a dropped connection before or
// after the payin is made, a delay, 500/502/503, 429 with Retry-After, a body cut short,
// an HTML answer; for the next N requests or a share of them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { P2P, Receiver, SERVICE_KEY, merchantKey, p2pBody, startSandbox } from './support/sandbox-kit.mjs';

/** Signs `body` and POSTs it with fetch; the Response (or the fetch's rejection). */
function send(sandbox, operation, body) {
  const signed = api.signRequest(body, merchantKey, { merchantId: sandbox.merchantId });
  return fetch(`${sandbox.url}${operation}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
}

const setFaults = async (sandbox, faults) => {
  const res = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
  return { status: res.status, json: await res.json() };
};

describe('faults, one at a time, on one sandbox', () => {
  let sandbox;
  let receiver;
  const seen = [];
  before(async () => {
    receiver = await new Receiver().start();
    sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 100 });
    sandbox.events.on('fault', (e) => seen.push([e.path, e.fault.type]));
  });
  after(async () => {
    await sandbox.close();
    receiver.close();
  });
  const made = (body) => sandbox.payments().some((p) => p.paymentId === body.general.payment_id);

  test('drop-before: the connection closes unanswered and nothing is made; the retry goes through', async () => {
    assert.equal((await setFaults(sandbox, [{ type: 'drop-before', count: 1 }])).status, 200);
    const body = p2pBody(receiver);
    await assert.rejects(send(sandbox, P2P, body), TypeError);
    assert.equal(made(body), false);
    assert.equal((await send(sandbox, P2P, body)).status, 200, 'the count is used up');
    assert.deepEqual(seen.at(-1), [P2P, 'drop-before']);
  });

  test('drop-after: the payin is made, the answer never comes; the retry meets 409 already used', async () => {
    await setFaults(sandbox, [{ type: 'drop-after', count: 1 }]);
    const body = p2pBody(receiver);
    await assert.rejects(send(sandbox, P2P, body), TypeError);
    assert.equal(made(body), true);
    const again = await send(sandbox, P2P, body);
    assert.equal(again.status, 409);
    assert.match((await again.json()).status_description, /already used/);
  });

  test('delay: the answer waits, then comes as usual', async () => {
    await setFaults(sandbox, [{ type: 'delay', ms: 400, count: 1 }]);
    const started = performance.now();
    const res = await send(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } });
    const waited = performance.now() - started;
    assert.equal(res.status, 200);
    assert.ok((await res.json()).balance.length > 0);
    assert.ok(waited >= 390, `waited ${waited} ms`);
  });

  test('status: 500, 502 and 503, and nothing is made', async () => {
    for (const status of [500, 502, 503]) {
      await setFaults(sandbox, [{ type: 'status', status, count: 1 }]);
      const body = p2pBody(receiver);
      const res = await send(sandbox, P2P, body);
      assert.equal(res.status, status);
      assert.equal((await res.json()).sandbox_fault, 'status');
      assert.equal(made(body), false, String(status));
    }
  });

  test('rate-limit: 429 with Retry-After', async () => {
    await setFaults(sandbox, [{ type: 'rate-limit', retryAfter: 7, count: 1 }]);
    const res = await send(sandbox, '/api/v1/bank/all', { general: { project_id: 'prj_1' } });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get('retry-after'), '7');
    assert.equal((await send(sandbox, '/api/v1/bank/all', { general: { project_id: 'prj_1' } })).status, 200);
  });

  test('truncate: the status and headers come, the body stops short (the payin is made)', async () => {
    await setFaults(sandbox, [{ type: 'truncate', count: 1 }]);
    const body = p2pBody(receiver);
    const res = await send(sandbox, P2P, body);
    assert.equal(res.status, 200);
    await assert.rejects(res.text(), TypeError);
    assert.equal(made(body), true);
  });

  test('html: a proxy-like HTML page where JSON was expected', async () => {
    await setFaults(sandbox, [{ type: 'html', count: 1 }]);
    const body = p2pBody(receiver);
    const res = await send(sandbox, P2P, body);
    assert.equal(res.status, 502);
    assert.match(res.headers.get('content-type'), /^text\/html/);
    await assert.rejects(res.json(), SyntaxError);
    assert.equal(made(body), false);
  });

  test('count and share: the next N requests; a share of them; the first fault of the list that takes a request decides', async () => {
    const balance = () => send(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } });
    await setFaults(sandbox, [{ type: 'status', status: 500, count: 2 }, { type: 'status', status: 502, count: 1 }]);
    assert.deepEqual([(await balance()).status, (await balance()).status, (await balance()).status, (await balance()).status], [500, 500, 502, 200]);
    const listed = await (await fetch(`${sandbox.url}/sandbox/faults`)).json();
    assert.deepEqual(listed.faults.map((f) => [f.status, f.count, f.remaining]), [[500, 2, 0], [502, 1, 0]]);

    await setFaults(sandbox, [{ type: 'status', share: 0 }]);
    assert.equal((await balance()).status, 200);
    await setFaults(sandbox, [{ type: 'status' }]);
    assert.deepEqual([(await balance()).status, (await balance()).status], [503, 503], 'neither count nor share: every request');
    await setFaults(sandbox, [{ type: 'rate-limit', share: 0.5 }]);
    let limited = 0;
    for (let i = 0; i < 200; i += 1) if ((await balance()).status === 429) limited += 1;
    assert.ok(limited > 50 && limited < 150, `${limited} of 200`);

    // The /sandbox/ controls are never faulted, so the faults can always be cleared.
    await setFaults(sandbox, [{ type: 'drop-before' }]);
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments`)).status, 200);
    assert.deepEqual((await setFaults(sandbox, [])).json, { faults: [] });
    assert.equal((await balance()).status, 200);
  });

  test('a fault that is not one is refused (400 at the endpoint, INVALID_OPTION at start), changing nothing', async () => {
    await setFaults(sandbox, [{ type: 'status', count: 1 }]);
    for (const faults of [[{ type: 'explode' }], [{ type: 'status', status: 404 }], [{ type: 'delay' }], [{ type: 'status', count: 0 }], [{ type: 'html', share: 2 }], [{ type: 'truncate', ms: 5 }], 'all']) {
      const r = await setFaults(sandbox, faults);
      assert.equal(r.status, 400, JSON.stringify(faults));
      assert.ok(r.json.types.includes('rate-limit'));
    }
    assert.deepEqual((await (await fetch(`${sandbox.url}/sandbox/faults`)).json()).faults.map((f) => f.remaining), [1]);
    await setFaults(sandbox, []);
    await assert.rejects(
      startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, faults: [{ type: 'delay', ms: -1 }] }),
      (e) => e.code === 'INVALID_OPTION' && /faults\[0\]\.ms/.test(e.message),
    );
  });
});

test('startSandbox({ faults }) sets them from the start', async () => {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, faults: [{ type: 'status', status: 502, count: 1 }] });
  try {
    assert.equal((await send(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } })).status, 502);
    assert.equal((await send(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } })).status, 200);
  } finally {
    await sandbox.close();
  }
});
