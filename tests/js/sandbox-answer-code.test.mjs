// The receiver's answer code: the package's receiver answers a callback with `{ ok, code? }`
// (DUPLICATE, STALE, BUSY, ...). The sandbox keeps that code in each delivery (`code`, or null)
// and shows it in the JSON lists and on the pages ("HTTP 200 DUPLICATE"). It reads at most a
// few KiB of an answer, and keeps only a short code of A-Z and _: never the receiver's text.
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { P2P, call, merchantKey, nextId, p2pBody, SERVICE_KEY, startSandbox } from './support/sandbox-kit.mjs';

/** A receiver whose answer depends on the path's last segment: `answers[name](res)`. */
async function answeringReceiver(answers) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const name = req.url.split('/').pop();
      (answers[name] ?? ((r) => r.end('{"ok":true}')))(res);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

const json = (status, value) => (res) => res.writeHead(status, { 'content-type': 'application/json' }).end(typeof value === 'string' ? value : JSON.stringify(value));

/** Starts a sandbox, makes one payin per case whose informative callback goes to `/CASE`, and moves each to awaiting_confirm. */
async function deliverEach(cases, receiver, options = {}, waitMs = 8000) {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, callbackAttempts: 1, ...options });
  const made = {};
  for (const name of cases) {
    const paymentId = nextId(`code-${name}`);
    const body = p2pBody({ urls: () => ({ merchant_callback_url: `${receiver.base}/${paymentId}/${name}` }) }, { paymentId });
    const created = await call(sandbox, P2P, body);
    assert.equal(created.status, 200, JSON.stringify(created.json));
    made[name] = created.json.request_id;
    const moved = await fetch(`${sandbox.url}/sandbox/payments/${created.json.request_id}/requisites-found`, { method: 'POST' });
    assert.equal(moved.status, 200);
  }
  // At most `waitMs`: an answer read to its end would hold an endless one for ever.
  const idle = await Promise.race([sandbox.callbacksIdle().then(() => true), new Promise((resolve) => setTimeout(resolve, waitMs, false))]);
  return { sandbox, made, idle };
}

test("each delivery records the receiver's answer code; the JSON lists, the index, the pages and the event show it", async () => {
  const receiver = await answeringReceiver({
    duplicate: json(200, { ok: true, code: 'DUPLICATE' }),
    plain: json(200, { ok: true }),
    busy: json(409, { ok: false, code: 'BUSY' }),
    signature: json(401, { ok: false, code: 'INVALID_SIGNATURE', message: 'the signature does not verify' }),
  });
  const { sandbox, made } = await deliverEach(['duplicate', 'plain', 'busy', 'signature'], receiver).catch((e) => (receiver.server.close(), Promise.reject(e)));
  try {
    const expected = { duplicate: [200, 'DUPLICATE'], plain: [200, null], busy: [409, 'BUSY'], signature: [401, 'INVALID_SIGNATURE'] };
    const list = await (await fetch(`${sandbox.url}/sandbox/payments`)).json();
    for (const [name, requestId] of Object.entries(made)) {
      const payment = list.find((p) => p.requestId === requestId);
      assert.deepEqual(payment.deliveries.map((d) => [d.status, d.code]), [expected[name]], name);
    }
    const index = await (await fetch(`${sandbox.url}/sandbox/?format=json`)).json();
    assert.deepEqual(index.deliveries.map((d) => d.code).sort(), ['BUSY', 'DUPLICATE', 'INVALID_SIGNATURE', null]);

    const page = await (await fetch(`${sandbox.url}/sandbox/pay/${made.duplicate}`)).text();
    assert.match(page, />HTTP 200 DUPLICATE</);
    assert.match(await (await fetch(`${sandbox.url}/sandbox/pay/${made.plain}`)).text(), />HTTP 200</);
    const indexPage = await (await fetch(`${sandbox.url}/sandbox/?format=html`)).text();
    for (const text of ['HTTP 200 DUPLICATE', 'HTTP 409 BUSY', 'HTTP 401 INVALID_SIGNATURE']) assert.ok(indexPage.includes(`>${text}<`), text);

    // "Deliver again" answers with the delivery, its code too; the event carries it.
    const events = [];
    sandbox.events.on('callback', (e) => events.push(e));
    const again = await (await fetch(`${sandbox.url}/sandbox/payments/${made.busy}/deliver-again`, { method: 'POST' })).json();
    assert.deepEqual([again.delivery.status, again.delivery.code], [409, 'BUSY']);
    assert.deepEqual(events.map((e) => e.code), ['BUSY']);
  } finally {
    await sandbox.close();
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
});

test('hostile answers: huge, endless, HTML, a 10 KB code, <script>, lower case, not { ok, code }: the code is null, nothing of the text is kept, the delivery is still recorded at once', { timeout: 30000 }, async () => {
  const endless = new Set();
  const padded = (code, bytes) => `{"ok":true,"code":"${code}","pad":"${'x'.repeat(bytes)}"}`;
  const receiver = await answeringReceiver({
    huge: json(200, padded('DUPLICATE', 2 * 1024 * 1024)),
    'huge-code-last': json(200, `{"ok":true,"pad":"${'x'.repeat(64 * 1024)}","code":"DUPLICATE"}`),
    endless: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":true,"code":"DUPLICATE","pad":"');
      const timer = setInterval(() => res.write('x'.repeat(1024)), 5);
      endless.add(timer);
      res.on('close', () => (clearInterval(timer), endless.delete(timer)));
    },
    html: (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h1>OK</h1><script>alert(1)</script>'),
    'code-10k': json(200, { ok: true, code: 'A'.repeat(10 * 1024) }),
    'code-65': json(200, { ok: true, code: 'A'.repeat(65) }),
    script: json(200, { ok: true, code: '<script>alert(1)</script>' }),
    'script-upper': json(200, { ok: true, code: '<SCRIPT>' }),
    lower: json(200, { ok: true, code: 'duplicate' }),
    spaced: json(200, { ok: true, code: 'DUP LICATE' }),
    newline: json(200, { ok: true, code: 'DUPLICATE\n' }),
    number: json(200, { ok: true, code: 42 }),
    'no-ok': json(200, { code: 'DUPLICATE' }),
    'ok-text': json(200, { ok: 'yes', code: 'DUPLICATE' }),
    array: json(200, ['DUPLICATE']),
    string: json(200, '"DUPLICATE"'),
    proto: json(200, '{"ok":true,"__proto__":{"code":"DUPLICATE"}}'),
    broken: json(200, '{"ok":true,"code":"DUPLICATE"'),
    empty: (res) => res.writeHead(200).end(),
    'within-limit': json(200, padded('STALE', 3000)),
    // The limit: 4096 bytes are read for the code, 4097 are not.
    'at-limit': json(200, padded('STALE', 4096 - padded('STALE', 0).length)),
    'past-limit': json(200, padded('STALE', 4097 - padded('STALE', 0).length)),
  });
  const cases = ['huge', 'huge-code-last', 'endless', 'html', 'code-10k', 'code-65', 'script', 'script-upper', 'lower', 'spaced', 'newline', 'number', 'no-ok', 'ok-text', 'array', 'string', 'proto', 'broken', 'empty', 'within-limit', 'at-limit', 'past-limit'];
  const { sandbox, made, idle } = await deliverEach(cases, receiver).catch((e) => (receiver.server.close(), Promise.reject(e)));
  try {
    assert.ok(idle, 'every callback delivered within 8 s: an endless answer is not read to its end');
    const list = await (await fetch(`${sandbox.url}/sandbox/payments`)).json();
    for (const [name, requestId] of Object.entries(made)) {
      const [delivery] = list.find((p) => p.requestId === requestId).deliveries;
      assert.equal(delivery.status, 200, name);
      assert.equal(delivery.code, name === 'within-limit' || name === 'at-limit' ? 'STALE' : null, name);
      assert.equal(delivery.gaveUp, false, `${name}: a 200 is delivered, whatever its body`);
    }
    const text = JSON.stringify(list) + (await (await fetch(`${sandbox.url}/sandbox/?format=html`)).text());
    for (const name of cases) text.includes(made[name]) || assert.fail(`${name} listed`);
    for (const page of await Promise.all(Object.values(made).map(async (id) => (await fetch(`${sandbox.url}/sandbox/pay/${id}`)).text()))) {
      assert.ok(!/alert\(1\)|<SCRIPT>|AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/.test(page), 'no answer text on a page');
    }
    assert.ok(!/alert\(1\)|<SCRIPT>|xxxxxxxx/.test(text), 'no answer text in the lists or the index');
  } finally {
    for (const timer of endless) clearInterval(timer);
    await sandbox.close();
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
});

test('an answer whose short body trickles in (a byte a second, never ending): its status stands, no code, after the attempt time (10 s), not for ever', { timeout: 30000 }, async () => {
  const timers = new Set();
  const receiver = await answeringReceiver({
    trickle: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"ok":true,"code":"DUPLICATE"');
      const timer = setInterval(() => res.write(' '), 1000);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    },
  });
  const started = Date.now();
  const { sandbox, made } = await deliverEach(['trickle'], receiver, {}, 20000).catch((e) => (receiver.server.close(), Promise.reject(e)));
  try {
    const [delivery] = sandbox.payments().find((p) => p.requestId === made.trickle).deliveries ?? [];
    assert.ok(delivery, `a delivery recorded within ${Date.now() - started} ms`);
    assert.deepEqual([delivery.status, delivery.code, delivery.error], [200, null, null]);
    assert.ok(Date.now() - started < 15000, `${Date.now() - started} ms`);
  } finally {
    for (const timer of timers) clearInterval(timer);
    await sandbox.close();
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
});

test("with the package's own receiver (createCallbackHandler on node:http): the duplicateCallbacks copy's delivery has code DUPLICATE, and the page says HTTP 200 DUPLICATE", async () => {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, duplicateCallbacks: true });
  const events = [];
  const handler = api.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, verify: { expectedMerchantId: sandbox.merchantId }, onEvent: (e) => events.push(e.state), onError: () => {} });
  const server = http.createServer(handler.node);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const body = p2pBody({ urls: () => ({ merchant_callback_url: `${base}/info`, merchant_decline_callback_url: `${base}/no` }) });
    const created = await call(sandbox, P2P, body);
    const control = (scenario) => fetch(`${sandbox.url}/sandbox/payments/${created.json.request_id}/${scenario}`, { method: 'POST' });
    assert.equal((await control('requisites-found')).status, 200);
    assert.equal((await control('cancel')).status, 200);
    await sandbox.callbacksIdle();
    const [payment] = sandbox.payments();
    assert.deepEqual(payment.deliveries.map((d) => [d.state, d.duplicate, d.status, d.code]), [
      ['processing:awaiting_confirm', false, 200, null],
      ['processing:awaiting_confirm', true, 200, 'DUPLICATE'],
      ['decline', false, 200, null],
      ['decline', true, 200, 'DUPLICATE'],
    ]);
    assert.equal(events.length, 2, 'onEvent once per state');
    assert.match(await (await fetch(`${sandbox.url}/sandbox/pay/${created.json.request_id}`)).text(), />HTTP 200 DUPLICATE</);
  } finally {
    await sandbox.close();
    server.close();
    server.closeAllConnections();
  }
});
