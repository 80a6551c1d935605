// The local sandbox (pkg/sandbox, `payment-intake/sandbox`) end to end on loopback: a
// merchant signs requests with the package, and a merchant receiver (node:http) verifies
// every callback with verifyCallback and the sandbox's public key. The flows of the
// states table, the 401s, validation, duplicates, retries, the /sandbox/ scenarios,
// CORS, and a load of 200 concurrent payins. Waits are on events (a callback arriving),
// never on guessed delays; timeouts are only a safety net.
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cjs as api, pkgDir } from './helpers.mjs';
import {
  DEFAULT_MERCHANT_ID, OPERATIONS, P2P, Receiver, SERVICE_KEY, WIDGET, call, ids, merchantKey, nextId, p2pBody, startSandbox, states, strangerKey, withSandbox,
} from './support/sandbox-kit.mjs';

const { DECLINE, STATE } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'data.mjs')).href);

describe('sandbox flows (time scale 100)', () => {
  let sandbox;
  let receiver;
  before(async () => {
    receiver = await new Receiver().start();
    sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 100 });
    receiver.trust(sandbox);
  });
  after(async () => {
    await sandbox.close();
    receiver.close();
    assert.deepEqual(receiver.refused, [], 'every callback verified');
  });

  test('create -> requisites -> awaiting_confirm (callback with the instruction) -> confirm -> paid -> success', async () => {
    const body = p2pBody(receiver);
    const created = await call(sandbox, P2P, body);
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal(created.json.status, 'processing');
    assert.equal(created.json.sub_status, 'requisites');
    assert.match(created.json.integration.form_url, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/pay\/sbx_[0-9a-f]{24}$/);
    assert.ok(created.json.request_id.length <= 32);
    assert.deepEqual(created.json.sandbox_warnings.map((w) => w.code), ['LOOPBACK_HTTP', 'LOOPBACK_HTTP', 'LOOPBACK_HTTP']);

    const awaiting = await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    assert.equal(awaiting.path, `/${body.general.payment_id}/info`, 'informative callbacks go to merchant_callback_url');
    assert.equal(awaiting.model.requisites.pan, '2200700012345678');
    assert.equal(awaiting.model.instruction.confirmUrl, `${sandbox.url}${P2P}/confirm`);
    assert.equal(awaiting.model.instruction.rejectUrl, `${sandbox.url}${P2P}/cancel`);
    assert.equal(awaiting.model.instruction.amount, 150000);
    assert.equal(awaiting.model.integration.formUrl, created.json.integration.form_url);

    const info = await call(sandbox, `${P2P}/info`, ids(body));
    const read = api.parseInfoResponse(`${P2P}/info`, info.json);
    assert.equal(read.variant, 'RU');
    assert.deepEqual(read.warnings, []);
    assert.equal(read.subStatus, 'awaiting_confirm');
    assert.equal(read.requisites.cardHolder, 'IVAN IVANOV');
    assert.equal(read.instruction.confirmUrl, awaiting.model.instruction.confirmUrl);

    const confirmed = await call(sandbox, `${P2P}/confirm`, ids(body));
    assert.equal(confirmed.status, 200);
    assert.deepEqual([confirmed.json.status, confirmed.json.sub_status, confirmed.json.integration], ['processing', 'paid', undefined]);
    const success = await receiver.callback(body.general.payment_id, 'success');
    assert.equal(success.path, `/${body.general.payment_id}/ok`, 'the success callback goes to merchant_success_callback_url');
    assert.equal(success.model.isFinal, true);
    assert.equal(success.model.requisites, null, 'no requisites outside awaiting_confirm and paid');
    assert.deepEqual(states(receiver.of(body.general.payment_id)), ['processing:awaiting_confirm', 'processing:paid', 'success']);
    const [payment] = sandbox.payments().filter((p) => p.paymentId === body.general.payment_id);
    assert.deepEqual(payment.history.map((h) => `${h.status}:${h.subStatus}`), ['processing:requisites', 'processing:awaiting_confirm', 'processing:paid', 'success:null']);
    const again = await call(sandbox, `${P2P}/confirm`, ids(body));
    assert.equal(again.status, 409, 'a final payment does not move');
    assert.equal(again.json.status, 'success');
  });

  test("create -> cancel -> decline 'Canceled by client' (decline callback)", async () => {
    const body = p2pBody(receiver);
    await call(sandbox, P2P, body);
    await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    const cancelled = await call(sandbox, `${P2P}/cancel`, ids(body));
    assert.deepEqual([cancelled.json.status, cancelled.json.sub_status, cancelled.json.status_description], ['decline', null, 'Canceled by client']);
    const decline = await receiver.callback(body.general.payment_id, 'decline');
    assert.equal(decline.path, `/${body.general.payment_id}/no`);
    assert.deepEqual(decline.model.declineReason, { code: 'CANCELED_BY_CLIENT', description: 'Canceled by client' });
  });

  test('KZ: the info response is the KZ variant (lifetime, expiration_date)', async () => {
    const body = p2pBody(receiver, { country: 'KZ', currency: 'KZT' });
    await call(sandbox, P2P, body);
    await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    const read = api.parseInfoResponse(`${P2P}/info`, (await call(sandbox, `${P2P}/info`, ids(body))).json);
    assert.equal(read.variant, 'KZ');
    assert.deepEqual(read.warnings, []);
    assert.equal(read.paymentInfo.lifetime, 300);
    assert.equal(read.requisites.bankName, 'Halyk Bank');
  });

  test('KE payin-mobile-money: processing:new, then straight to success; a refused push: decline', async () => {
    const make = () => {
      const paymentId = nextId('ke');
      return {
        general: { project_id: 'prj_1', payment_id: paymentId, ...receiver.urls(paymentId) },
        payment: { amount: 50000, currency: 'KES', widget_method: 'payin-mobile-money' },
        customer: { id: 'user-9', ip_address: '203.0.113.9', country: 'KE', email: 'user@example.com' },
      };
    };
    const body = make();
    const created = await call(sandbox, WIDGET, body);
    assert.deepEqual([created.json.status, created.json.sub_status], ['processing', 'new']);
    assert.ok(created.json.integration.form_url);
    const success = await receiver.callback(body.general.payment_id, 'success');
    assert.equal(success.model.requisites, null, 'KE carries no requisites');
    assert.equal(success.model.paymentInfo.widgetMethod, 'payin-mobile-money');
    const [payment] = sandbox.payments().filter((p) => p.paymentId === body.general.payment_id);
    assert.deepEqual(payment.history.map((h) => h.subStatus ?? h.status), ['new', 'success']);
    const info = api.parseInfoResponse(`${WIDGET}/info`, (await call(sandbox, `${WIDGET}/info`, ids(body))).json);
    assert.equal(info.status, 'success');
    assert.deepEqual(info.warnings, []);

    const refused = make();
    const second = await call(sandbox, WIDGET, refused);
    const res = await fetch(`${sandbox.url}/sandbox/payments/${second.json.request_id}/cancel`, { method: 'POST' });
    assert.equal(res.status, 200);
    const decline = await receiver.callback(refused.general.payment_id, 'decline');
    assert.equal(decline.model.declineReason.code, 'CANCELED_BY_CLIENT');
  });

  test('a body that fails validateRequest: status "error" listing the issues; a repeated payment_id is refused', async () => {
    const body = p2pBody(receiver);
    body.payment.amount = 0;
    body.general.merchant_callback_url = 'http://shop.example/cb';
    const bad = await call(sandbox, P2P, body);
    assert.equal(bad.status, 400);
    assert.equal(bad.json.status, 'error');
    assert.match(bad.json.status_description, /payment\.amount: OUT_OF_RANGE/);
    assert.match(bad.json.status_description, /general\.merchant_callback_url: NOT_HTTPS/, 'only loopback http:// is let through');
    assert.deepEqual(bad.json.sandbox_report, api.validateRequest(P2P, JSON.stringify(body), { allowLoopbackHttp: true }));
    assert.equal(sandbox.payments().some((p) => p.paymentId === body.general.payment_id), false, 'nothing was created');

    const good = p2pBody(receiver);
    assert.equal((await call(sandbox, P2P, good)).status, 200);
    const repeated = await call(sandbox, P2P, good);
    assert.equal(repeated.status, 409);
    assert.equal(repeated.json.status, 'error');
    assert.match(repeated.json.status_description, /already used/);
  });

  test("401 worded for the request: bad signature, wrong token, unknown merchant, missing headers", async () => {
    const body = { general: { project_id: 'prj_1' } };
    const cases = [
      ['a body changed after signing', { tamper: (s) => ({ ...s, body: s.body.replace('prj_1', 'prj_2') }) }, 'Invalid signature', 'INVALID_SIGNATURE'],
      ['a signature of another key', { tamper: (s) => ({ ...s, headers: { ...s.headers, 'x-access-signature': api.signRequest(body, strangerKey, { merchantId: sandbox.merchantId }).headers['x-access-signature'] } }) }, 'Invalid signature', 'INVALID_SIGNATURE'],
      ["another key's token", { key: strangerKey }, 'Invalid public key', 'INVALID_PUBLIC_KEY'],
      ['an unknown merchant', { merchantId: 'someone-else' }, "Invalid merchant id: this sandbox serves the merchant 'sandbox-merchant', not 'someone-else'", 'MERCHANT_ID_MISMATCH'],
      ['no token', { tamper: (s) => ({ ...s, headers: { ...s.headers, 'x-access-token': undefined } }) }, 'Invalid public key', 'MISSING_HEADER'],
      ['no signature', { tamper: (s) => ({ ...s, headers: { ...s.headers, 'x-access-signature': undefined } }) }, 'Invalid signature', 'MISSING_HEADER'],
    ];
    for (const [name, how, description, code] of cases) {
      const r = await call(sandbox, '/api/v1/balance/info', body, {
        ...how,
        tamper: how.tamper && ((s) => {
          const t = how.tamper(s);
          return { ...t, headers: Object.fromEntries(Object.entries(t.headers).filter(([, v]) => v !== undefined)) };
        }),
      });
      assert.equal(r.status, 401, name);
      assert.equal(r.json.status_description, description, name);
      assert.equal(r.json.sandbox_error.code, code, name);
      // The verifier's words are for a callback's receiver; none of them reaches a merchant's request.
      const told = `${r.json.status_description} ${r.json.sandbox_error.message} ${r.json.sandbox_error.hint}`;
      assert.doesNotMatch(told, /callback|admin panel/i, name);
    }
    assert.equal((await call(sandbox, '/api/v1/balance/info', body)).status, 200, 'and the genuine request passes');
  });

  test('a body that cannot be read is refused before anything is done, whatever its signature', async () => {
    // 1e400 has no exact form: the verifier cannot build the message, so no signature is
    // checked; such a request must never be served (here: a payin with a made-up signature).
    const forged = (headers) => ({ ...headers, 'x-access-signature': 'AAAA' });
    for (const text of ['{"general":{"project_id":"prj_1","payment_id":"forged-1"},"x":1e400}', '{"general":{"project_id":"prj_1"},"general":{}}', '{"general":']) {
      const r = await call(sandbox, P2P, {}, { tamper: (s) => ({ body: text, headers: forged(s.headers) }) });
      assert.equal(r.status, 400, text);
      assert.equal(r.json.status, 'error', text);
      assert.ok(['INVALID_NUMBER', 'DUPLICATE_KEY', 'INVALID_JSON'].includes(r.json.sandbox_error.code), `${text}: ${r.json.sandbox_error.code}`);
    }
    assert.equal(sandbox.payments().some((payment) => payment.paymentId === 'forged-1'), false);
  });

  test('every operation of the index is served at its path; balance and banks in the spec shapes', async () => {
    assert.equal(OPERATIONS.length, 17);
    for (const [i, op] of OPERATIONS.entries()) {
      assert.ok(!api.validateRequest(op, '{}').errors.some((e) => e.code === 'UNKNOWN_OPERATION'), `${op} is an operation of the library`);
      const r = await call(sandbox, op, { general: { project_id: 'prj_1', payment_id: `nobody-${i}` } });
      assert.ok([200, 400, 404].includes(r.status) && typeof r.json === 'object', `${op}: ${r.status}`);
      if (r.status === 404) assert.match(r.json.status_description, new RegExp(`^no .* payment 'nobody-${i}'`), op);
    }
    for (const op of ['/api/v1/payment/ecom/payin', '/api/v1/payment/ecom/payin/info', '/api/v1/widget/payin/confirm']) {
      const r = await call(sandbox, op, { general: { project_id: 'prj_1' } });
      assert.equal(r.status, 400, `${op}: a body the spec does not show still needs the payment's identity`);
      assert.match(r.json.status_description, /^general\.payment_id: REQUIRED/);
    }
    const balance = await call(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } });
    assert.ok(balance.json.balance.length > 0);
    for (const b of balance.json.balance) {
      assert.match(b.currency, /^[A-Z]{3}$/);
      assert.ok(Number.isSafeInteger(b.amount) && b.amount >= 1 && Number.isSafeInteger(b.locked_amount));
    }
    const banks = await call(sandbox, '/api/v1/bank/all', { general: { project_id: 'prj_1' } });
    assert.ok(Array.isArray(banks.json) && banks.json.length > 0, 'a bare JSON array');
    for (const b of banks.json) {
      assert.deepEqual(Object.keys(b).sort(), ['country_code', 'id', 'is_sbp_bank', 'name', 'sbp_code', 'symbol']);
      assert.match(b.sbp_code, /^\d{12}$/);
      assert.ok(b.id.length <= 32 && b.name.length <= 64 && b.symbol.length <= 64);
    }
    assert.equal((await fetch(`${sandbox.url}${P2P}`)).status, 405);
    assert.equal((await fetch(`${sandbox.url}/api/v1/nope`, { method: 'POST' })).status, 404);
  });

  test('/sandbox/ scenarios: requisites not found, anti-fraud, different amount, expiry now; the form page', async () => {
    const start = async (scenario, extra) => {
      const body = p2pBody(receiver);
      const created = (await call(sandbox, P2P, body)).json;
      if (scenario !== 'requisites-not-found') await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
      const res = await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}/${scenario}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(extra ?? {}),
      });
      return { body, created, res, json: await res.json() };
    };
    const notFound = await start('requisites-not-found');
    assert.equal(notFound.res.status, 200);
    assert.equal((await receiver.callback(notFound.body.general.payment_id, 'decline')).model.declineReason.code, 'REQUISITES_NOT_FOUND');
    const fraud = await start('anti-fraud');
    assert.equal((await receiver.callback(fraud.body.general.payment_id, 'decline')).model.declineReason.code, 'DECLINED_BY_ANTI_FRAUD');
    const expired = await start('expire');
    assert.equal((await receiver.callback(expired.body.general.payment_id, 'decline')).model.declineReason.code, 'CANCELLED_BY_TIMEOUT');
    const dispute = await start('different-amount', { amount: 120000 });
    assert.equal(dispute.res.status, 200, JSON.stringify(dispute.json));
    const cb = await receiver.callback(dispute.body.general.payment_id, 'dispute', 'different_amount');
    assert.deepEqual([cb.model.paymentInfo.amount, cb.model.paymentInfo.oldAmount, cb.model.paymentInfo.initialAmount], [120000, 150000, 150000]);
    assert.match(cb.model.statusDescription, /support/);

    // A dispute forced after confirm is not settled as success: the next move is the lifetime's end.
    const paid = p2pBody(receiver);
    const paidCreated = (await call(sandbox, P2P, paid)).json;
    await receiver.callback(paid.general.payment_id, 'processing', 'awaiting_confirm');
    await call(sandbox, `${P2P}/confirm`, ids(paid));
    await fetch(`${sandbox.url}/sandbox/payments/${paidCreated.request_id}/different-amount`, { method: 'POST' });
    await receiver.callback(paid.general.payment_id, 'decline');
    assert.deepEqual(states(receiver.of(paid.general.payment_id)), ['processing:awaiting_confirm', 'processing:paid', 'dispute:different_amount', 'decline']);

    const refused = await fetch(`${sandbox.url}/sandbox/payments/${fraud.created.request_id}/confirm`, { method: 'POST' });
    assert.equal(refused.status, 409, 'a final payment does not move');
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments/sbx_none/cancel`, { method: 'POST' })).status, 404);
    assert.equal((await fetch(`${sandbox.url}/sandbox/payments/${fraud.created.request_id}/explode`, { method: 'POST' })).status, 404);

    // The form_url page: the payment and a button per scenario; a form POST returns to it.
    const fresh = p2pBody(receiver);
    const created = (await call(sandbox, P2P, fresh)).json;
    const page = await fetch(created.integration.form_url);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    const html = await page.text();
    assert.ok(html.includes(fresh.general.payment_id) && html.includes('processing:requisites'));
    for (const name of ['requisites-found', 'requisites-not-found', 'anti-fraud', 'different-amount', 'expire', 'confirm', 'cancel']) {
      assert.ok(html.includes(`/sandbox/payments/${created.request_id}/${name}"`), name);
    }
    assert.match(html, /not for production/);
    const form = await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}/requisites-found`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
    });
    assert.equal(form.status, 303);
    assert.equal(form.headers.get('location'), `/sandbox/pay/${created.request_id}`);
    assert.match(await (await fetch(created.integration.form_url)).text(), /processing:awaiting_confirm/);
  });

  test('CORS: a loopback page origin is allowed (preflight too); another origin is not', async () => {
    const preflight = await fetch(`${sandbox.url}${P2P}`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-access-signature' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://127.0.0.1:8080');
    for (const h of ['content-type', 'x-access-timestamp', 'x-access-merchant-id', 'x-access-signature', 'x-access-token']) {
      assert.ok(preflight.headers.get('access-control-allow-headers').split(', ').includes(h), h);
    }
    const other = await fetch(`${sandbox.url}/sandbox/payments`, { headers: { origin: 'https://evil.example' } });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const local = await fetch(`${sandbox.url}/sandbox/payments`, { headers: { origin: 'http://localhost:5173' } });
    assert.equal(local.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  });

  test('the unsigned /sandbox/ endpoints refuse other sites: a cross-site form post, Sec-Fetch-Site cross-site, a rebound Host', async () => {
    const body = p2pBody(receiver);
    const created = (await call(sandbox, P2P, body)).json;
    const move = `/sandbox/payments/${created.request_id}/anti-fraud`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const raw = (headers) =>
      new Promise((resolve, reject) => {
        const req = http.request(`${sandbox.url}${move}`, { method: 'POST', headers: { ...form, ...headers } }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        });
        req.on('error', reject);
        req.end('');
      });
    for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { host: 'rebound.example:80' }]) {
      const res = await raw(headers);
      assert.equal(res.status, 403, JSON.stringify(headers));
      assert.equal(res.json.code, 'CROSS_SITE_REFUSED');
    }
    const unmoved = await (await fetch(`${sandbox.url}/sandbox/payments/${created.request_id}`)).json();
    assert.equal(unmoved.status, 'processing', 'a refused post moves nothing');
    // The sandbox's own page (a loopback origin) still moves it.
    const own = await fetch(`${sandbox.url}${move}`, { method: 'POST', headers: { ...form, origin: sandbox.url }, body: '', redirect: 'manual' });
    assert.equal(own.status, 303);
    assert.equal((await receiver.callback(body.general.payment_id, 'decline')).model.declineReason.code, 'DECLINED_BY_ANTI_FRAUD');
  });
});

test('expiry with a time scale: decline "Order cancelled by timeout"', async () => {
  // 300 s of lifetime at 600x: half a second.
  await withSandbox({ timeScale: 600 }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    await call(sandbox, P2P, body);
    const decline = await receiver.callback(body.general.payment_id, 'decline');
    assert.deepEqual(decline.model.declineReason, { code: 'CANCELLED_BY_TIMEOUT', description: 'Order cancelled by timeout' });
    assert.deepEqual(states(receiver.of(body.general.payment_id)), ['processing:awaiting_confirm', 'decline']);
  });
});

test('duplicate callbacks: every callback comes twice; handled once by idempotency key', async () => {
  await withSandbox({ timeScale: 100, duplicateCallbacks: true }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    await call(sandbox, P2P, body);
    await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    await call(sandbox, `${P2P}/cancel`, ids(body));
    await receiver.until((r) => r.of(body.general.payment_id).filter((c) => c.model.status === 'decline').length === 2, 'the decline twice');
    const handled = new Set();
    let ignored = 0;
    for (const { model } of receiver.of(body.general.payment_id)) {
      if (handled.has(model.idempotencyKey)) ignored += 1;
      else handled.add(model.idempotencyKey);
    }
    assert.deepEqual([...handled], ['prj_1:' + body.general.payment_id + ':processing:awaiting_confirm', 'prj_1:' + body.general.payment_id + ':decline:']);
    assert.equal(ignored, 2);
  });
});

test('a receiver answering 500 twice, then 200, gets the callback three times', async () => {
  await withSandbox({ timeScale: 100 }, async ({ sandbox, receiver }) => {
    const attempts = [];
    const third = new Promise((resolve) => sandbox.events.on('callback', (e) => attempts.push([e.attempt, e.status]) === 3 && resolve()));
    const body = p2pBody(receiver);
    await call(sandbox, P2P, body);
    await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    const arrivals = receiver.received.filter((r) => r.model.paymentId === body.general.payment_id);
    assert.deepEqual(arrivals.map((r) => r.status), [500, 500, 200]);
    assert.ok(arrivals.every((r) => r.model.idempotencyKey === arrivals[0].model.idempotencyKey), 'the same callback each time');
    await third;
    assert.deepEqual(attempts, [[1, 500], [2, 500], [3, 200]]);
  }, { answer: (p, count) => (p.endsWith('/info') && count <= 2 ? 500 : 200) });
});

test('callbackAttempts bounds the retries', async () => {
  await withSandbox({ timeScale: 100, callbackAttempts: 3 }, async ({ sandbox, receiver }) => {
    const gaveUp = new Promise((resolve) => sandbox.events.on('callback', (e) => e.gaveUp && resolve(e)));
    const body = p2pBody(receiver);
    await call(sandbox, P2P, body);
    const last = await gaveUp;
    assert.equal(last.attempt, 3);
    await sandbox.callbacksIdle();
    assert.deepEqual(receiver.received.map((r) => [r.model.subStatus, r.status]), Array(3).fill(['awaiting_confirm', 503]));
  }, { answer: () => 503 });
});

test('close() stops a callback waiting for its retry', async () => {
  await withSandbox({ timeScale: 1 }, async ({ sandbox, receiver }) => {
    const attempts = [];
    const first = new Promise((resolve) => sandbox.events.on('callback', (e) => attempts.push(e.attempt) && resolve()));
    const body = p2pBody(receiver);
    const { json } = await call(sandbox, P2P, body);
    // Requisites now, not in 5 s; its callback fails and waits 2 s for its retry.
    await fetch(`${sandbox.url}/sandbox/payments/${json.request_id}/requisites-found`, { method: 'POST' });
    await first;
    await sandbox.close();
    await sandbox.callbacksIdle();
    assert.deepEqual(attempts, [1], 'nothing was sent after close()');
  }, { answer: () => 503 });
});

test('profile: requests are checked, and callbacks signed, with the named rules', async () => {
  const profile = 'public-js-client';
  await withSandbox({ timeScale: 100, profile }, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    assert.equal((await call(sandbox, P2P, body)).status, 401, 'signed with the spec rules: refused');
    const created = await call(sandbox, P2P, body, { profile });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const awaiting = await receiver.callback(body.general.payment_id, 'processing', 'awaiting_confirm');
    const rules = api.profiles().find((p) => p.name === profile).options;
    const used = awaiting.model.verification.options;
    assert.ok(Object.keys(used).length >= 6, JSON.stringify(used));
    for (const [name, value] of Object.entries(used)) assert.equal(value, rules[name], name);
  });
});

test("the sandbox's tables agree with the library: every state is known, every decline text reads as its code", () => {
  const base = { project_id: 'p', general: { request_id: 'r', payment_id: 'x' } };
  for (const [name, state] of Object.entries(STATE)) {
    const model = api.parseCallback({ ...base, status: { status: state.status, sub_status: state.subStatus, status_description: null } });
    assert.equal(model.isKnownState, true, name);
  }
  for (const [code, text] of Object.entries(DECLINE)) {
    const model = api.parseCallback({ ...base, status: { status: 'decline', sub_status: null, status_description: text } });
    assert.deepEqual(model.declineReason, { code, description: text });
  }
  assert.equal(DEFAULT_MERCHANT_ID, 'sandbox-merchant');
});

test('startSandbox refuses bad options with INVALID_OPTION: the package\'s error (its class and status), what the package refused as its cause', async () => {
  const refused = (e) => e instanceof api.PaymentIntakeError && e.code === 'INVALID_OPTION' && e.status === 500 && e.message.startsWith('startSandbox: ');
  for (const options of [{}, { merchantKey: merchantKey.publicKeyPem(), timeScale: 0 }, { merchantKey: merchantKey.publicKeyPem(), profile: 'nope' }, { merchantKey: 42 }]) {
    await assert.rejects(startSandbox({ serviceKey: SERVICE_KEY, ...options }), refused, JSON.stringify(options));
  }
  await assert.rejects(startSandbox({ serviceKey: SERVICE_KEY, merchantKey: merchantKey.publicKeyPem(), merchantId: 'my shop' }), (e) => refused(e) && e.cause?.code === 'INVALID_ARGUMENT');
  await assert.rejects(startSandbox({ serviceKey: SERVICE_KEY, merchantKey: merchantKey.publicKeyPem(), faults: [{ type: 'explode' }] }), (e) => refused(e) && e.cause instanceof Error);
});

test('load: 200 payins at once; every callback arrives and verifies, none after a final one, the server answers meanwhile', async (t) => {
  const N = 200;
  // 20x: requisites after 0.25 s, the 300 s lifetime 15 s (a safety margin on a busy machine).
  await withSandbox({ timeScale: 20 }, async ({ sandbox, receiver }) => {
    const finals = () => receiver.received.filter((r) => r.model.isFinal).length;
    const started = performance.now();
    const bodies = Array.from({ length: N }, (_, i) => p2pBody(receiver, { paymentId: `load-${i}` }));
    // Each payin is confirmed (even i) or cancelled (odd i) once its instruction arrives.
    const actions = [];
    receiver.onReceive = ({ model }) => {
      if (model.subStatus !== 'awaiting_confirm') return;
      const i = Number(model.paymentId.slice(5));
      actions.push(call(sandbox, `${P2P}/${i % 2 === 0 ? 'confirm' : 'cancel'}`, ids(bodies[i])));
    };
    const creating = Promise.all(bodies.map((b) => call(sandbox, P2P, b)));
    // Asked while the 200 creates are in flight.
    const balanceStarted = performance.now();
    const balance = await call(sandbox, '/api/v1/balance/info', { general: { project_id: 'prj_1' } });
    const balanceMs = performance.now() - balanceStarted;
    const created = await creating;
    assert.ok(created.every((c) => c.status === 200 && c.json.sub_status === 'requisites'));
    assert.equal(balance.status, 200, 'the server answers while the load runs');
    await receiver.until(() => finals() === N, `${N} final callbacks`);
    const elapsed = performance.now() - started;
    assert.ok((await Promise.all(actions)).every((r) => r.status === 200), 'every confirm and cancel was accepted');
    assert.deepEqual(receiver.refused, [], 'every callback verified');
    for (const [i, b] of bodies.entries()) {
      const seen = states(receiver.of(b.general.payment_id));
      const expected = i % 2 === 0 ? ['processing:awaiting_confirm', 'processing:paid', 'success'] : ['processing:awaiting_confirm', 'decline'];
      assert.deepEqual(seen, expected, b.general.payment_id);
    }
    for (const p of sandbox.payments().filter((x) => x.paymentId.startsWith('load-'))) {
      const firstFinal = p.history.findIndex((h) => h.status === 'success' || h.status === 'decline');
      assert.equal(firstFinal, p.history.length - 1, `${p.paymentId}: nothing after the final state`);
    }
    const note = `load: ${N} payins, ${receiver.received.length} callbacks verified in ${(elapsed / 1000).toFixed(2)} s; a balance request during the load answered in ${balanceMs.toFixed(0)} ms`;
    t.diagnostic(note);
    console.log(note);
  });
});
