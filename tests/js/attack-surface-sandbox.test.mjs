// Attacks on the local sandbox's HTTP server (pkg/sandbox): request targets that are no
// URL, bodies over its limit, a slow time scale, and what held (replays of a signed
// request to another path, a wrong merchant id, deep or huge bodies, hostile /sandbox/
// paths, the form page's escaping).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cjs as api, keysDir, pkgDir } from './helpers.mjs';

const { startSandbox } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'index.mjs')).href);

const merchantKey = api.SigningKey.fromPem(fs.readFileSync(path.join(keysDir, 'rsa2048.pkcs8.pem'), 'utf8'));
const SERVICE_KEY = fs.readFileSync(path.join(keysDir, 'rsa3072.pkcs8.pem'), 'utf8');
const P2P = '/api/v1/payment/p2p/payin';
let serial = 0;

const p2pBody = (extra = {}) => ({
  general: { project_id: 'prj_attack', payment_id: `attack-${++serial}`, ...extra },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 300 },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});

/** Sends `text` as written on a fresh connection; resolves with what came back (or what came before a reset). */
function rawRequest(url, text) {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
  });
}

async function call(sandbox, operation, body, { merchantId = sandbox.merchantId, rawBody } = {}) {
  const signed = api.signRequest(body, merchantKey, { merchantId });
  const res = await fetch(`${sandbox.url}${operation}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: rawBody ?? signed.body });
  return { status: res.status, json: await res.json() };
}

describe('the sandbox server', () => {
  let sandbox;
  const failures = [];
  before(async () => {
    sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 100 });
    sandbox.events.on('failure', (e) => failures.push(e.error));
  });
  after(() => sandbox.close());

  test('a request target that is no URL gets 400 (not a 500 "sandbox error" and a failure event)', async () => {
    for (const target of ['http://[', 'http://a:99999/api/v1/balance/info', '//[/sandbox/payments']) {
      const answer = await rawRequest(sandbox.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 400 /, `${target}: ${answer.slice(0, 300)}`);
      assert.doesNotMatch(answer, /sandbox error/);
    }
    assert.deepEqual(failures.map((e) => e.message), []);
  });

  test('a body over the 1 MiB limit is answered 413, not a reset connection', async () => {
    const signed = api.signRequest(p2pBody(), merchantKey, { merchantId: sandbox.merchantId });
    const res = await fetch(`${sandbox.url}${P2P}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: 'x'.repeat(2 << 20) });
    assert.equal(res.status, 413);
    assert.match((await res.json()).error, /too large/);
    // The connection is not kept for another request after that.
    assert.equal(res.headers.get('connection'), 'close');
    assert.deepEqual(sandbox.payments().filter((p) => p.projectId === 'prj_attack' && p.paymentId === signed.body), []);
  });

  test('a sender that announces more than 1 MiB and stalls gets 413 once the limit is passed, then the connection ends', async () => {
    const head = `POST ${P2P} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${64 << 20}\r\n\r\n`;
    const answer = await new Promise((resolve) => {
      const socket = net.connect(Number(new URL(sandbox.url).port), '127.0.0.1', () => socket.write(head + 'x'.repeat((1 << 20) + 1)));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
      setTimeout(() => (socket.destroy(), resolve(`still open after 10 s: ${out}`)), 10000).unref();
    });
    assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
  });

  test('held: a wrong merchant id, a signed body replayed to another operation, a deep body', async () => {
    failures.length = 0;
    const wrongId = await call(sandbox, P2P, p2pBody(), { merchantId: 'someone-else' });
    assert.equal(wrongId.status, 401);
    assert.equal(wrongId.json.sandbox_error.code, 'MERCHANT_ID_MISMATCH');

    // The path is not signed (the spec's message is the body and the timestamp): a body
    // signed for one operation and sent to another is judged by that operation's rules.
    const body = p2pBody();
    const created = await call(sandbox, P2P, body);
    assert.equal(created.status, 200);
    const elsewhere = await call(sandbox, '/api/v1/widget/payin/cancel', body);
    assert.equal(elsewhere.status, 404, JSON.stringify(elsewhere.json));
    const again = await call(sandbox, P2P, body);
    assert.equal(again.status, 409);

    const deep = await call(sandbox, P2P, p2pBody(), { rawBody: `${'['.repeat(100000)}${']'.repeat(100000)}` });
    assert.equal(deep.status, 400);
    assert.equal(deep.json.sandbox_error.code, 'BODY_TOO_DEEP');
    assert.deepEqual(failures.map((e) => e.message), []);
  });

  test('held: hostile /sandbox/ paths and the form page escape what they show', async () => {
    failures.length = 0;
    const body = p2pBody();
    body.general.payment_id = '<img src=x onerror=alert(1)>"\'&';
    const created = await call(sandbox, P2P, body);
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const page = await (await fetch(`${sandbox.url}/sandbox/pay/${created.json.request_id}`)).text();
    assert.doesNotMatch(page, /<img/);
    assert.match(page, /&#60;img src=x onerror=alert\(1\)&#62;&#34;&#39;&#38;/);
    for (const target of ['/sandbox/payments/%ZZ', '/sandbox/pay/..%2f..%2fetc%2fpasswd', '/sandbox/payments/__proto__', '/sandbox/payments/constructor/cancel']) {
      const res = await fetch(`${sandbox.url}${target}`, { method: target.endsWith('cancel') ? 'POST' : 'GET' });
      assert.ok([400, 404].includes(res.status), `${target}: ${res.status}`);
    }
    assert.deepEqual(failures.map((e) => e.message), []);
  });
});

describe('payout and ECOM bodies (not shown by the spec, so not type-checked)', () => {
  test('a lifetime that is not a number does not make expiration_date a string or the form page a 500', async () => {
    const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 100 });
    const failures = [];
    sandbox.events.on('failure', (e) => failures.push(e.error.message));
    try {
      for (const [operation, lifetime] of [['/api/v1/payment/p2p/payout', 'abc'], ['/api/v1/payment/ecom/payin', { a: 1 }], ['/api/v1/payment/ecom/payout', [600]]]) {
        const body = p2pBody();
        body.payment.lifetime = lifetime;
        const created = await call(sandbox, operation, body);
        assert.equal(created.status, 200, JSON.stringify(created.json));
        const payment = sandbox.payments().find((p) => p.requestId === created.json.request_id);
        assert.ok(Number.isSafeInteger(payment.expirationDate), `${operation}: expirationDate ${JSON.stringify(payment.expirationDate)}`);
        assert.equal(payment.lifetime, 600);
        const page = await fetch(`${sandbox.url}/sandbox/pay/${created.json.request_id}`);
        assert.equal(page.status, 200, `${operation}: ${await page.text()}`);
      }
      assert.deepEqual(failures, []);
    } finally {
      await sandbox.close();
    }
  });
});

describe('a slow time scale', () => {
  test('a lifetime longer than setTimeout can wait (2^31 - 1 ms) does not end at once', async () => {
    // 300 s at a time scale of 1/10000 is 3e9 ms: Node's setTimeout runs such a timer after 1 ms.
    const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 0.0001 });
    try {
      const created = await call(sandbox, P2P, p2pBody());
      assert.equal(created.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [payment] = sandbox.payments();
      assert.deepEqual([payment.status, payment.subStatus, payment.statusDescription], ['processing', 'requisites', null]);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the merchant id', () => {
  test('one the verifier refuses (so every request would be 401) is refused at start, INVALID_OPTION', async () => {
    for (const merchantId of ['a\nb', 'tab\there', 'x'.repeat(129), 'my shop', 'marchand-é', 'shop-😀', 'ид-магазина']) {
      const started = startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, merchantId });
      // One that starts anyway is closed, so the failure does not keep the process alive.
      started.then((sandbox) => sandbox.close(), () => {});
      await assert.rejects(started, (e) => e.code === 'INVALID_OPTION' && /merchantId/.test(e.message), JSON.stringify(merchantId.slice(0, 20)));
    }
    // Held: the longest id the verifier takes still starts and is accepted.
    const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, merchantId: `~!${'m'.repeat(126)}` });
    try {
      const created = await call(sandbox, P2P, p2pBody());
      assert.equal(created.status, 200, JSON.stringify(created.json));
    } finally {
      await sandbox.close();
    }
  });
});
