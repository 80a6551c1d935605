// The client (`createClient`) against the real sandbox over loopback HTTP: every operation,
// every error code of the client, every fault kind of the sandbox, hooks, waitFor, signal.
// The load test (500 creates under faults) is in client-load.test.mjs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cjs as api, esm, pkgDir } from './helpers.mjs';
import { P2P, WIDGET, ids, merchantKey, nextId, p2pBody, strangerKey, withSandbox } from './support/sandbox-kit.mjs';

const clientOf = (sandbox, config = {}) => api.createClient({
  baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1',
  timeoutMs: 5000, retries: 2, retryDelayMs: 5, maxRetryDelayMs: 20, ...config,
});
const widgetBody = (receiver, paymentId = nextId('w')) => ({
  general: { project_id: 'prj_1', payment_id: paymentId, ...receiver.urls(paymentId) },
  payment: { amount: 90000, currency: 'RUB', widget_method: 'payin-p2p-card' },
  customer: { id: 'user-8', ip_address: '203.0.113.8', country: 'RU' },
});
const ref = (body) => ({ paymentId: body.general.payment_id });
/** `fn` must reject with a PaymentIntakeError of `code`; resolves to it. */
async function rejects(promise, code) {
  try {
    await promise;
  } catch (error) {
    assert.ok(api.isPaymentIntakeError(error), `${error?.stack}`);
    assert.equal(error.code, code, error.message);
    assert.equal(error.status, api.errorCodes().includes(code) ? error.status : NaN);
    return error;
  }
  assert.fail(`resolved; expected ${code}`);
}
const count = (sandbox, paymentId) => sandbox.payments().filter((p) => p.paymentId === paymentId).length;

describe('createClient', () => {
  test('is exported by every Node entry, the same function for import and require', () => {
    assert.equal(typeof api.createClient, 'function');
    assert.equal(esm.createClient, api.createClient);
  });

  test('refuses a config without baseUrl, merchantId or key (INVALID_ARGUMENT)', () => {
    for (const bad of [{}, { baseUrl: 'x', merchantId: 'm', key: merchantKey }, { baseUrl: 'https://a', merchantId: '', key: merchantKey }, { baseUrl: 'https://a', merchantId: 'm', key: 'pem' }]) {
      assert.throws(() => api.createClient(bad), (e) => e.code === 'INVALID_ARGUMENT');
    }
  });

  test('every operation of the spec index, named after its path, against the sandbox', () => withSandbox({ timeScale: 100 }, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const p2p = p2pBody(receiver);
    const created = await client.p2p.payin.create(p2p);
    assert.equal(created.status, 'processing');
    assert.equal(created.subStatus, 'requisites');
    assert.equal(created.paymentId, p2p.general.payment_id);
    assert.equal(created.projectId, 'prj_1');
    assert.match(created.requestId, /^\S{1,32}$/);
    assert.equal(created.isFinal, false);
    assert.match(created.integration.formUrl, /\/sandbox\/pay\//);
    assert.deepEqual(Object.keys(created.response).sort(), ['attempts', 'durationMs', 'statusCode']);
    assert.equal(created.response.statusCode, 200);
    assert.equal(created.response.attempts, 1);

    const ready = await client.p2p.payin.waitFor(ref(p2p), { intervalMs: 20, timeoutMs: 5000 });
    assert.equal(ready.subStatus, 'awaiting_confirm');
    assert.equal(ready.requisites.pan, '2200700012345678');
    const info = await client.p2p.payin.info(ref(p2p));
    assert.equal(info.variant, 'RU');
    assert.equal(info.paymentInfo.amount, 150000);
    const confirmed = await client.p2p.payin.confirm(ids(p2p));
    assert.deepEqual([confirmed.status, confirmed.subStatus, confirmed.integration], ['processing', 'paid', null]);
    const final = await client.p2p.payin.waitFor(ref(p2p), { until: 'final', intervalMs: 20, timeoutMs: 5000 });
    assert.equal(final.status, 'success');

    const other = p2pBody(receiver);
    await client.p2p.payin.create(JSON.stringify(other)); // a body as text is sent as it is
    await client.p2p.payin.waitFor(ref(other), { intervalMs: 20, timeoutMs: 5000 });
    const cancelled = await client.p2p.payin.cancel(ref(other));
    assert.equal(cancelled.status, 'decline');
    assert.equal(cancelled.isFinal, true);
    assert.equal(cancelled.declineReason.code, 'CANCELED_BY_CLIENT');

    const widget = widgetBody(receiver);
    const w = await client.widget.payin.create(widget);
    assert.equal(w.subStatus, 'requisites');
    const wReady = await client.widget.payin.waitFor(ref(widget), { intervalMs: 20, timeoutMs: 5000 });
    assert.ok(wReady.integration.formUrl);
    assert.equal((await client.widget.payin.info(ref(widget))).paymentInfo.widgetMethod, 'payin-p2p-card');
    await client.p2p.payin.waitFor; // exists on both
    const wAwaiting = await client.widget.payin.waitFor(ref(widget), { until: (m) => m.subStatus === 'awaiting_confirm', intervalMs: 20, timeoutMs: 5000 });
    assert.equal(wAwaiting.subStatus, 'awaiting_confirm');
    assert.equal((await client.widget.payin.confirm(ref(widget))).subStatus, 'paid');
    const widget2 = widgetBody(receiver);
    await client.widget.payin.create(widget2);
    assert.equal((await client.widget.payin.cancel(ref(widget2))).status, 'decline');

    const general = () => ({ general: { project_id: 'prj_1', payment_id: nextId('x'), ...receiver.urls('x') } });
    for (const [create, info] of [[client.p2p.payout.create, client.p2p.payout.info], [client.ecom.payin.create, client.ecom.payin.info], [client.ecom.payout.create, client.ecom.payout.info]]) {
      const body = general();
      const made = await create(body);
      assert.equal(made.paymentId, body.general.payment_id);
      const read = await info(ref(body));
      assert.equal(read.requestId, made.requestId);
    }
    const ecom = general();
    await client.ecom.payin.create(ecom);
    assert.equal((await client.ecom.payin.confirm3dsResult(ref(ecom))).status, 'success');

    const { balance, response } = await client.balance();
    assert.ok(balance.length > 0);
    for (const entry of balance) {
      assert.match(entry.currency, /^[A-Z]{3}$/);
      assert.ok(Number.isSafeInteger(entry.amount) && Number.isSafeInteger(entry.lockedAmount));
    }
    assert.equal(response.statusCode, 200);
    const { banks } = await client.banks({ projectId: 'prj_1' });
    assert.ok(banks.length > 0);
    assert.ok(banks.every((b) => typeof b.symbol === 'string' && typeof b.isSbpBank === 'boolean'));
    const raw = await client.request('/api/v1/bank/all', { general: { project_id: 'prj_1' } });
    assert.ok(Array.isArray(raw));
    assert.equal(raw.response.statusCode, 200);
    assert.deepEqual(raw.map((b) => b.symbol), banks.map((b) => b.symbol));
  }));
});

describe('errors', () => {
  test('REQUEST_INVALID: refused before sending, with the report; validate: false sends it (REQUEST_REJECTED, never retried)', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const sent = [];
    const client = clientOf(sandbox, { onRequest: (e) => sent.push(e) });
    const body = p2pBody(receiver);
    body.payment.currency = 'rub';
    const e = await rejects(client.p2p.payin.create(body), 'REQUEST_INVALID');
    assert.equal(e.report.valid, false);
    assert.ok(e.report.errors.some((issue) => issue.path === 'payment.currency'));
    assert.equal(e.retryable, false);
    assert.equal(e.statusCode, null);
    assert.equal(sent.length, 0, 'nothing sent');
    const rejected = await rejects(clientOf(sandbox, { validate: false, onRequest: (ev) => sent.push(ev) }).p2p.payin.create(body), 'REQUEST_REJECTED');
    assert.equal(rejected.statusCode, 400);
    assert.equal(rejected.attempts, 1);
    assert.equal(sent.length, 1, 'a 4xx is not retried');
    assert.match(rejected.message, /payment\.currency/);
    assert.equal(rejected.response.status, 'error');
    assert.equal(typeof rejected.body, 'string');
    assert.equal(count(sandbox, body.general.payment_id), 0);
  }));

  test('REQUEST_INVALID too for a body the signing refuses (not an object, a number with no exact form), nothing sent', async () => {
    let sent = 0;
    const client = api.createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key: merchantKey, fetch: async () => { sent += 1; throw new Error('sent'); } });
    for (const [body, code] of [[null, 'INVALID_BODY'], ['[1]', 'BODY_NOT_OBJECT'], ['{"general":{},"payment":{"amount":1e400}}', 'INVALID_NUMBER']]) {
      const e = await rejects(client.p2p.payin.create(body), 'REQUEST_INVALID');
      assert.ok(e.report.errors.some((issue) => issue.code === code), `${JSON.stringify(body)}: ${JSON.stringify(e.report.errors)}`);
    }
    assert.equal(sent, 0);
    // validate: false sends what it can sign, and the signing's own refusal is thrown as it is.
    const unchecked = api.createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key: merchantKey, validate: false, fetch: async () => { sent += 1; throw new Error('sent'); } });
    await rejects(unchecked.p2p.payin.create('[1]'), 'BODY_NOT_OBJECT');
    assert.equal(sent, 0);
  });

  test('REQUEST_REJECTED: status "error" from the service (an unknown payment), its description in the message', () => withSandbox({}, async ({ sandbox }) => {
    const e = await rejects(clientOf(sandbox).p2p.payin.info({ paymentId: 'nope' }), 'REQUEST_REJECTED');
    assert.equal(e.statusCode, 404);
    assert.match(e.message, /no p2p payment 'nope'/);
  }));

  test('AUTH_REFUSED: another key (Invalid public key), another merchant id, a canonical variant the service does not use (Invalid signature)', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const key = await rejects(clientOf(sandbox, { key: strangerKey }).p2p.payin.create(p2pBody(receiver)), 'AUTH_REFUSED');
    assert.equal(key.statusCode, 401);
    assert.match(key.message, /Invalid public key/);
    assert.match(key.hint, /private key/);
    const id = await rejects(clientOf(sandbox, { merchantId: 'someone-else' }).balance(), 'AUTH_REFUSED');
    assert.match(id.hint, /merchant id 'someone-else'/);
    const variant = await rejects(clientOf(sandbox, { options: { profile: 'public-js-client' } }).p2p.payin.create(p2pBody(receiver)), 'AUTH_REFUSED');
    assert.match(variant.message, /Invalid signature/);
    assert.match(variant.hint, /profile: 'spec'/);
    assert.equal(variant.attempts, 1);
  }));

  test('a create of a payment_id the service holds, called again by another call: the same request is that payment (replayed), another is PAYMENT_EXISTS with .existing', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const body = p2pBody(receiver);
    await client.p2p.payin.create(body);
    const again = await client.p2p.payin.create(body);
    assert.equal(again.response.replayed, true);
    assert.equal(again.paymentId, body.general.payment_id);
    const e = await rejects(client.p2p.payin.create({ ...body, payment: { ...body.payment, method: 'sbp-p2p' } }), 'PAYMENT_EXISTS');
    assert.equal(e.statusCode, 409);
    assert.equal(e.status, 500, "the merchant's own payment_id: a 5xx of its server");
    assert.equal(e.existing.paymentId, body.general.payment_id);
    assert.match(e.hint, /method "card-p2p" \(asked "sbp-p2p"\)/);
    assert.equal(count(sandbox, body.general.payment_id), 1);
  }));

  test('SERVICE_UNAVAILABLE after the retries (each 5xx and 429), NETWORK_ERROR after them, INVALID_RESPONSE for HTML and for a shape', () => withSandbox({}, async ({ sandbox }) => {
    const client = clientOf(sandbox, { retries: 1 });
    for (const fault of [{ type: 'status', status: 500 }, { type: 'status', status: 502 }, { type: 'status', status: 503 }, { type: 'rate-limit', retryAfter: 0 }, { type: 'html', status: 502 }]) {
      await setFaults(sandbox, [fault]);
      const e = await rejects(client.balance(), 'SERVICE_UNAVAILABLE');
      assert.equal(e.statusCode, fault.status ?? 429);
      assert.equal(e.retryable, true);
      assert.equal(e.attempts, 2);
    }
    await setFaults(sandbox, [{ type: 'drop-before' }]);
    const network = await rejects(client.balance(), 'NETWORK_ERROR');
    assert.equal(network.attempts, 2);
    assert.equal(network.statusCode, null);
    await setFaults(sandbox, [{ type: 'html', status: 200 }]);
    const html = await rejects(client.balance(), 'INVALID_RESPONSE');
    assert.match(html.body, /<html>/);
    assert.equal(html.attempts, 1);
    await setFaults(sandbox, []);
    const shapeless = clientOf(sandbox, { fetch: async () => new Response('{"balance":[{"currency":"RUB","amount":"1"}]}') });
    const shape = await rejects(shapeless.balance(), 'INVALID_RESPONSE');
    assert.equal(shape.path, 'balance[0].amount');
    const noStatus = clientOf(sandbox, { fetch: async () => new Response('{"request_id":"r"}') });
    assert.equal((await rejects(noStatus.p2p.payin.confirm({ paymentId: 'p' }), 'INVALID_RESPONSE')).body, '{"request_id":"r"}');
  }));

  test('TIMEOUT: timeoutMs covers the whole call, across attempts and the body', () => withSandbox({}, async ({ sandbox }) => {
    await setFaults(sandbox, [{ type: 'delay', ms: 400 }]);
    const started = Date.now();
    const e = await rejects(clientOf(sandbox, { timeoutMs: 250, retries: 5 }).balance(), 'TIMEOUT');
    const took = Date.now() - started;
    // Each of the 6 attempts has its share (about 42 ms, attack-client-attempts); the call ends
    // at its deadline or, when the next backoff (at most maxRetryDelayMs, 20 ms) would pass it, that much before.
    assert.ok(took >= 250 - 20 - 10 && took < 350, `${took} ms`);
    assert.equal(e.retryable, true);
    const perCall = Date.now();
    await rejects(clientOf(sandbox).balance(undefined, { timeoutMs: 100 }), 'TIMEOUT');
    assert.ok(Date.now() - perCall < 200);
  }));

  test('a body cut short is a NETWORK_ERROR, and a slow body counts against the deadline', () => withSandbox({}, async ({ sandbox }) => {
    await setFaults(sandbox, [{ type: 'truncate' }]);
    await rejects(clientOf(sandbox, { retries: 0 }).balance(), 'NETWORK_ERROR');
    const slowBody = clientOf(sandbox, {
      timeoutMs: 150,
      fetch: async (url, init) => ({ status: 200, headers: new Headers(), text: () => new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason))) }),
    });
    const started = Date.now();
    await rejects(slowBody.balance(), 'TIMEOUT');
    assert.ok(Date.now() - started < 250);
  }));

  test('signal aborts a call: ABORTED, its reason the cause; a call of a signal already aborted sends nothing', () => withSandbox({}, async ({ sandbox }) => {
    await setFaults(sandbox, [{ type: 'delay', ms: 2000 }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const e = await rejects(clientOf(sandbox).balance(undefined, { signal: controller.signal }), 'ABORTED');
    assert.equal(e.cause, controller.signal.reason);
    assert.equal(e.cause.name, 'AbortError');
    assert.ok(Date.now() - started < 500);
    let sent = 0;
    const early = await rejects(clientOf(sandbox, { onRequest: () => (sent += 1) }).balance(undefined, { signal: AbortSignal.abort() }), 'ABORTED');
    assert.equal(early.cause.name, 'AbortError');
    assert.equal(sent, 0);
  }));
});

/** Sets the sandbox's faults through its control endpoint. */
async function setFaults(sandbox, faults) {
  const res = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
  assert.equal(res.status, 200, await res.clone().text());
}

/** A loopback server answering every request with `answer(body)` (`[status, text]`); the client's `baseUrl`. */
async function answering(answer) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const [status, text] = answer(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe("answers read by the package's own JSON reader", () => {
  const status = (body) => JSON.stringify({ status: 'processing', sub_status: 'new', status_description: null, request_id: 'r', project_id: 'prj_1', payment_id: JSON.parse(body).general.payment_id ?? 'p' });
  const hostile = [
    ['duplicate keys', '{"balance":[],"balance":[{"currency":"RUB","amount":1,"locked_amount":0}]}', /DUPLICATE_KEY/],
    ['nesting past 64 levels', `{"balance":${'['.repeat(70)}${']'.repeat(70)}}`, /BODY_TOO_DEEP/],
    // Read no further than the limit (attack-client-answer-size): the body kept is its first 64 KiB.
    ['over 64 KiB', JSON.stringify({ balance: [], pad: 'x'.repeat(70 * 1024) }), /over 64 KiB/],
    ['a number with no exact form', '{"balance":[{"currency":"RUB","amount":1e400,"locked_amount":0}]}', /INVALID_NUMBER/],
    ['not JSON', '<html>502</html>', /is not JSON/],
    ['two values', '[] []', /is not JSON|INVALID_JSON/],
  ];
  for (const [name, text, reason] of hostile) {
    test(`${name}: INVALID_RESPONSE for the balance, the bank list, client.request and a create, the text kept`, async () => {
      const server = await answering(() => [200, text]);
      try {
        const client = api.createClient({ baseUrl: server.url, merchantId: 'm', key: merchantKey, projectId: 'prj_1', retries: 0 });
        for (const call of [() => client.balance(), () => client.banks(), () => client.request('/api/v1/bank/other', { general: { project_id: 'prj_1' } })]) {
          const e = await rejects(call(), 'INVALID_RESPONSE');
          assert.equal(e.body, name === 'over 64 KiB' ? text.slice(0, 64 * 1024) : text);
          assert.equal(e.statusCode, 200);
          assert.match(e.message, reason);
        }
        const create = await rejects(client.p2p.payin.create(p2pBody({ urls: () => ({}) })), 'INVALID_RESPONSE');
        assert.equal(create.body, name === 'over 64 KiB' ? text.slice(0, 64 * 1024) : text);
      } finally {
        await server.close();
      }
    });
  }

  test('typed balance entries and bank records, read from the text; a duplicate key in an error answer is no description', async () => {
    const banks = [{ id: 'b1', name: 'Bank', symbol: 'bank', sbp_code: '100', is_sbp_bank: true, country_code: 'RU' }, { symbol: 'other' }];
    const server = await answering((body) => {
      const path = JSON.parse(body).general.payment_id === undefined ? 'project' : 'payment';
      if (body.includes('"bad-1"')) return [400, '{"status":"error","status_description":"one","status_description":"two"}'];
      return path === 'project' && body.includes('prj_banks') ? [200, JSON.stringify(banks)] : path === 'project' ? [200, '{"balance":[{"currency":"RUB","amount":150000,"locked_amount":2500}]}'] : [200, status(body)];
    });
    try {
      const client = api.createClient({ baseUrl: server.url, merchantId: 'm', key: merchantKey, projectId: 'prj_1', retries: 0 });
      const balance = await client.balance();
      assert.deepEqual(balance.balance, [{ currency: 'RUB', amount: 150000, lockedAmount: 2500 }]);
      assert.equal(balance.response.statusCode, 200);
      const list = await client.banks({ projectId: 'prj_banks' });
      assert.deepEqual(list.banks, [
        { id: 'b1', name: 'Bank', symbol: 'bank', sbpCode: '100', isSbpBank: true, countryCode: 'RU' },
        { id: null, name: null, symbol: 'other', sbpCode: null, isSbpBank: null, countryCode: null },
      ]);
      const rejected = await rejects(client.p2p.payin.info({ paymentId: 'bad-1' }), 'INVALID_RESPONSE');
      assert.match(rejected.message, /DUPLICATE_KEY/);
    } finally {
      await server.close();
    }
  });
});

describe('retries never make a second payment', () => {
  for (const type of ['drop-after', 'truncate']) {
    test(`a create whose answer is lost (${type}) is settled through info: replayed, one payment`, () => withSandbox({}, async ({ sandbox, receiver }) => {
      await setFaults(sandbox, [{ type, count: 1 }]);
      const body = p2pBody(receiver);
      const created = await clientOf(sandbox).p2p.payin.create(body);
      assert.equal(created.response.replayed, true);
      assert.equal(created.paymentId, body.general.payment_id);
      assert.equal(created.status, 'processing');
      assert.ok(created.response.attempts >= 3, 'create, create (409), info');
      assert.equal(count(sandbox, body.general.payment_id), 1);
    }));
  }

  test('a lost create and then another payment under the same payment_id: PAYMENT_EXISTS, with the stored one', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const body = p2pBody(receiver);
    await clientOf(sandbox).p2p.payin.create(body);
    await setFaults(sandbox, [{ type: 'drop-before', count: 1 }]);
    const e = await rejects(clientOf(sandbox).p2p.payin.create({ ...body, payment: { ...body.payment, amount: 7 } }), 'PAYMENT_EXISTS');
    assert.match(e.message, /amount 150000/);
    assert.equal(e.existing.paymentInfo.amount, 150000);
  }));

  test('a P2P payout or ECOM create whose answer is lost: PAYMENT_EXISTS saying why it cannot be told, the stored payment in .existing, one payment', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    for (const [name, create] of [['/api/v1/payment/p2p/payout', client.p2p.payout.create], ['/api/v1/payment/ecom/payin', client.ecom.payin.create], ['/api/v1/payment/ecom/payout', client.ecom.payout.create]]) {
      await setFaults(sandbox, [{ type: 'drop-after', count: 1 }]);
      const paymentId = nextId('po');
      const e = await rejects(create({ general: { project_id: 'prj_1', payment_id: paymentId, ...receiver.urls(paymentId) } }), 'PAYMENT_EXISTS');
      assert.match(e.message, new RegExp(`^${name}: payment_id '${paymentId}' is already used .* it cannot be told whether by this request`));
      assert.match(e.hint, /read \.existing .* \(the spec does not show the body of .*info.*createClient\(\{ store \}\) records each create/);
      assert.equal(e.existing.paymentId, paymentId);
      assert.equal(e.existing.status, 'processing');
      assert.equal(e.statusCode, 409);
      assert.equal(count(sandbox, paymentId), 1, name);
    }
  }));

  test('a confirm and a cancel whose answers are lost are settled through info', () => withSandbox({ timeScale: 100 }, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const body = p2pBody(receiver);
    await client.p2p.payin.create(body);
    await client.p2p.payin.waitFor(ref(body), { intervalMs: 20, timeoutMs: 5000 });
    await setFaults(sandbox, [{ type: 'drop-after', count: 1 }]);
    const confirmed = await client.p2p.payin.confirm(ref(body));
    assert.equal(confirmed.response.replayed, true);
    assert.ok(['paid', null].includes(confirmed.subStatus));
    const other = p2pBody(receiver);
    await client.p2p.payin.create(other);
    await setFaults(sandbox, [{ type: 'truncate', count: 1 }]);
    const cancelled = await client.p2p.payin.cancel(ref(other));
    assert.equal(cancelled.status, 'decline');
    assert.equal(cancelled.response.replayed, true);
  }));

  test('each fault kind once: the call passes on a retry; Retry-After is waited; a fresh timestamp per attempt', () => withSandbox({}, async ({ sandbox, receiver }) => {
    for (const fault of [{ type: 'drop-before' }, { type: 'delay', ms: 30 }, { type: 'status', status: 500 }, { type: 'status', status: 502 }, { type: 'status' }, { type: 'rate-limit', retryAfter: 2 }, { type: 'html' }]) {
      await setFaults(sandbox, [{ ...fault, count: 1 }]);
      const waits = [];
      const stamps = [];
      let now = Date.now();
      const client = clientOf(sandbox, {
        clock: () => now, sleep: async (ms) => { waits.push(ms); now += ms; },
        onRequest: (e) => { stamps.push(e.headers['x-access-timestamp']); now += 1000; },
      });
      const body = p2pBody(receiver);
      const created = await client.p2p.payin.create(body);
      assert.equal(created.paymentId, body.general.payment_id, fault.type);
      assert.equal(count(sandbox, body.general.payment_id), 1);
      if (fault.type === 'delay') continue;
      assert.equal(created.response.attempts, 2, fault.type);
      assert.notEqual(stamps[0], stamps[1], 'each attempt signed at its time');
      if (fault.type === 'rate-limit') assert.ok(waits[0] >= 2000, `${waits}`);
      else assert.ok(waits[0] >= 2.5 && waits[0] <= 5, `${waits}`);
    }
  }));

  test('backoff doubles from retryDelayMs, with jitter, capped at maxRetryDelayMs', () => withSandbox({}, async ({ sandbox }) => {
    await setFaults(sandbox, [{ type: 'status' }]);
    const waits = [];
    const client = clientOf(sandbox, { retries: 5, retryDelayMs: 100, maxRetryDelayMs: 400, random: () => 1, sleep: async (ms) => { waits.push(ms); } });
    await rejects(client.balance(), 'SERVICE_UNAVAILABLE');
    assert.deepEqual(waits, [100, 200, 400, 400, 400]);
    const low = [];
    await rejects(clientOf(sandbox, { retries: 1, retryDelayMs: 100, maxRetryDelayMs: 400, random: () => 0, sleep: async (ms) => { low.push(ms); } }).balance(), 'SERVICE_UNAVAILABLE');
    assert.deepEqual(low, [50]);
  }));
});

describe('hooks', () => {
  test('see every attempt, with card data, contacts and the signature masked; a hook that throws breaks nothing', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const requests = [];
    const responses = [];
    await setFaults(sandbox, [{ type: 'status', count: 1 }]);
    const client = clientOf(sandbox, {
      onRequest: (e) => { requests.push(e); throw new Error('hook'); },
      onResponse: (e) => { responses.push(e); return Promise.reject(new Error('async hook')); },
    });
    const body = p2pBody(receiver);
    body.sender = { pan: '4111111111111111', card_holder: 'IVAN IVANOV', phone: '+79991234567' };
    body.customer.email = 'a@example.com';
    await client.p2p.payin.create(body);
    assert.equal(requests.length, 2);
    assert.deepEqual(requests.map((r) => r.attempt), [1, 2]);
    assert.equal(requests[0].operation, 'p2p.payin.create');
    assert.equal(requests[0].url, `${sandbox.url}${P2P}`);
    const seen = JSON.parse(requests[0].body);
    assert.deepEqual(seen.sender, { pan: '***', card_holder: '***', phone: '***' });
    assert.equal(seen.customer.email, '***');
    assert.equal(seen.customer.ip_address, '***');
    assert.equal(seen.payment.amount, 150000);
    assert.equal(requests[0].headers['x-access-signature'], '***');
    assert.equal(requests[0].headers['x-access-merchant-id'], sandbox.merchantId);
    for (const r of requests) assert.ok(!r.body.includes('4111111111111111') && !r.body.includes('203.0.113.7'));
    assert.deepEqual(responses.map((r) => r.statusCode), [503, 200]);
    assert.ok(responses.every((r) => typeof r.durationMs === 'number'));
    const shown = [];
    await clientOf(sandbox, { mask: false, onRequest: (e) => shown.push(e) }).p2p.payin.create({ ...body, general: { ...body.general, payment_id: nextId('m') } });
    assert.match(shown[0].body, /4111111111111111/);
  }));
});

describe('onCall', () => {
  test('around each call: its operation and ids, never its body; run() resolves to how it ended, never rejects; a hook that throws or never runs it breaks nothing', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const seen = [];
    const client = clientOf(sandbox, {
      onCall: async (call, run) => {
        const end = await run();
        seen.push({ call, end: { ...end, durationMs: typeof end.durationMs } });
      },
    });
    await setFaults(sandbox, [{ type: 'status', count: 1 }]);
    const body = p2pBody(receiver);
    body.sender = { pan: '4111111111111111' };
    await client.p2p.payin.create(JSON.stringify(body));
    await rejects(client.p2p.payin.create({ general: { project_id: 'prj_1', payment_id: 'bad' } }), 'REQUEST_INVALID');
    await rejects(client.p2p.payin.confirm({ paymentId: 'never-made' }), 'REQUEST_REJECTED');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(seen, [
      { call: { operation: 'p2p.payin.create', path: P2P, projectId: 'prj_1', paymentId: body.general.payment_id }, end: { error: null, statusCode: 200, attempts: 2, durationMs: 'number', replayed: false } },
      { call: { operation: 'p2p.payin.create', path: P2P, projectId: 'prj_1', paymentId: 'bad' }, end: { error: 'REQUEST_INVALID', statusCode: null, attempts: 0, durationMs: 'number', replayed: false } },
      { call: { operation: 'p2p.payin.confirm', path: `${P2P}/confirm`, projectId: 'prj_1', paymentId: 'never-made' }, end: { error: 'REQUEST_REJECTED', statusCode: seen[2].end.statusCode, attempts: 1, durationMs: 'number', replayed: false } },
    ]);
    assert.ok(seen[2].end.statusCode >= 400);
    for (const onCall of [() => { throw new Error('hook'); }, () => Promise.reject(new Error('hook')), () => {}, (call, run) => setTimeout(run, 50)]) {
      const created = await clientOf(sandbox, { onCall }).p2p.payin.create(p2pBody(receiver));
      assert.equal(created.status, 'processing');
    }
  }));
});

describe('waitFor', () => {
  test('TIMEOUT when the condition has not held by its deadline; polls on intervalMs', () => withSandbox({}, async ({ sandbox, receiver }) => {
    const client = clientOf(sandbox);
    const body = p2pBody(receiver);
    await client.p2p.payin.create(body);
    let polls = 0;
    const started = Date.now();
    const e = await rejects(client.p2p.payin.waitFor(ref(body), { until: () => (polls += 1) < 0, intervalMs: 40, timeoutMs: 300 }), 'TIMEOUT');
    const took = Date.now() - started;
    assert.ok(took >= 290 && took < 400, `${took}`);
    assert.ok(polls >= 2 && polls <= 9, `${polls}`);
    assert.ok([polls, polls + 1].includes(e.polls), `${e.polls} polls sent, ${polls} answered`); // a last poll cut by the deadline counts as sent
    await assert.rejects(client.p2p.payin.waitFor(ref(body), { until: 'soon' }), (err) => err.code === 'INVALID_ARGUMENT');
    // A poll still in flight at the wait's deadline: the wait's TIMEOUT (with its polls), the poll's as its cause.
    await setFaults(sandbox, [{ type: 'delay', ms: 1000 }]);
    const inFlight = Date.now();
    const cut = await rejects(client.p2p.payin.waitFor(ref(body), { until: 'final', intervalMs: 10, timeoutMs: 150 }), 'TIMEOUT');
    assert.ok(Date.now() - inFlight < 250);
    assert.equal(cut.polls, 1);
    assert.match(cut.message, /^waitFor: 'final' did not hold within 150 ms \(1 polls\)/);
    assert.equal(cut.cause.code, 'TIMEOUT');
  }));

  /**
   * A client on a fake clock whose every info answer takes `pollMs` of it, answering
   * `answers[i]` (a state) to the i-th poll; `log` holds each poll's time and each sleep.
   */
  function clockedClient(answers, pollMs) {
    let now = 1_700_000_000_000;
    const log = [];
    const fetch = async (url, init) => {
      const { general } = JSON.parse(init.body);
      const [status, subStatus] = answers[log.filter((e) => e.poll !== undefined).length] ?? answers.at(-1);
      log.push({ poll: now });
      now += pollMs;
      const text = JSON.stringify({ status, sub_status: subStatus, status_description: null, request_id: 'r1', project_id: general.project_id, payment_id: general.payment_id });
      return { status: 200, headers: new Headers(), text: async () => text };
    };
    const sleep = async (ms) => {
      log.push({ sleep: ms });
      now += ms;
    };
    const client = api.createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key: merchantKey, projectId: 'prj_1', fetch, sleep, clock: () => now });
    return { client, log };
  }

  test('polls at once, then every 15 s by default (the spec interval), start to start', async () => {
    const ready = clockedClient([['success', null]], 40);
    assert.equal((await ready.client.p2p.payin.waitFor({ paymentId: 'p1' }, { until: 'final' })).status, 'success');
    assert.deepEqual(ready.log.map((e) => Object.keys(e)[0]), ['poll'], 'a payment already final: one poll, no wait');
    const { client, log } = clockedClient([['processing', 'requisites'], ['processing', 'awaiting_confirm'], ['success', null]], 400);
    assert.equal((await client.widget.payin.waitFor({ paymentId: 'p2' }, { until: 'final' })).status, 'success');
    const polls = log.filter((e) => e.poll !== undefined).map((e) => e.poll - log[0].poll);
    assert.deepEqual(polls, [0, 15000, 30000], 'each poll 15 s after the one before it began');
    assert.deepEqual(log.filter((e) => e.sleep !== undefined).map((e) => e.sleep), [14600, 14600], "the poll's own 400 ms are not added");
    const every = clockedClient([['processing', 'new'], ['success', null]], 20);
    await every.client.p2p.payin.waitFor({ paymentId: 'p3' }, { until: 'final', intervalMs: 1000 });
    assert.deepEqual(every.log.map((e) => e.poll ?? `sleep ${e.sleep}`).map((v, i, all) => (typeof v === 'number' ? v - all[0] : v)), [0, 'sleep 980', 1000]);
  });
});

test("the types' status and subStatus unions are the spec's states table (specStates())", () => {
  const types = fs.readFileSync(path.join(pkgDir, 'node', 'client', 'index.d.ts'), 'utf8');
  const union = (name) => new Set([...types.match(new RegExp(`export type ${name} = ([^;]+);`))[1].matchAll(/'([a-z_]+)'/g)].map((m) => m[1]));
  const states = api.specStates();
  assert.deepEqual(union('PaymentStatus'), new Set(states.map((s) => s.status)));
  assert.deepEqual(union('PaymentSubStatus'), new Set(states.map((s) => s.subStatus).filter((s) => s !== null)));
  assert.equal(fs.readFileSync(path.join(pkgDir, 'web', 'client', 'index.d.ts'), 'utf8'), types);
});

test('the web build exports createClient too', async () => {
  const web = await import(path.join(pkgDir, 'web', 'index.js'));
  web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });
  const client = web.createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key: web.SigningKey.generate() });
  assert.equal(typeof client.p2p.payin.create, 'function');
  const e = await client.p2p.payin.create({}).then(() => null, (error) => error);
  assert.equal(e.code, 'REQUEST_INVALID');
  assert.ok(e instanceof web.PaymentIntakeError);
});

test('WIDGET path constant is the client widget path', () => assert.equal(WIDGET, '/api/v1/widget/payin'));
