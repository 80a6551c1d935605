// Attack on validateRequest and the builders with U+0000 (NUL) in strings. A payment_id
// 'a\u0000b' passed validateRequest, the service took it, and every callback of that payment
// then failed on PostgreSQL (text cannot hold NUL: STORE_FAILED on every delivery). A NUL is
// now PATTERN at the field, in every string the schemas or the Limits table check, from a body
// object, from body text (the escape \u0000) and from a builder's input alike. What a store
// can hold stays accepted: other control characters, U+FFFF. A lone surrogate never reaches a
// check: it is INVALID_BODY (object), INVALID_JSON (text) or WRONG_TYPE (builder input).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cjs, esm as api, readKey } from './helpers.mjs';

const P2P_PAYIN = '/api/v1/payment/p2p/payin';
const WIDGET_PAYIN = '/api/v1/widget/payin';
// Every operation of the spec's index but the two creates whose bodies the schemas fill in.
const BY_ID = [
  '/api/v1/payment/p2p/payin/info',
  '/api/v1/payment/p2p/payin/confirm',
  '/api/v1/payment/p2p/payin/cancel',
  '/api/v1/payment/p2p/payout',
  '/api/v1/payment/p2p/payout/info',
  '/api/v1/payment/ecom/payin',
  '/api/v1/payment/ecom/payin/info',
  '/api/v1/payment/ecom/payin/confirm-3ds-result',
  '/api/v1/payment/ecom/payout',
  '/api/v1/payment/ecom/payout/info',
  '/api/v1/widget/payin/info',
  '/api/v1/widget/payin/confirm',
  '/api/v1/widget/payin/cancel',
];
const PROJECT_ONLY = ['/api/v1/balance/info', '/api/v1/bank/all'];

const payinInput = { projectId: 'prj_1', paymentId: 'order-1', merchantCallbackUrl: 'https://a.example/cb', method: 'card-p2p', amount: 150000, currency: 'RUB', customerId: 'u', customerIp: '192.0.2.1', country: 'RU' };
const widgetInput = { projectId: 'prj_1', paymentId: 'order-1', amount: 150000, currency: 'RUB', customerId: 'u', customerIp: '192.0.2.1', country: 'RU' };
const clean = (path) => {
  if (path === P2P_PAYIN) return api.buildPayinRequest(payinInput).body;
  if (path === WIDGET_PAYIN) return api.buildWidgetPayinRequest(widgetInput).body;
  if (PROJECT_ONLY.includes(path)) return { general: { project_id: 'prj_1' } };
  return { general: { project_id: 'prj_1', payment_id: 'order-1' } };
};
const withIds = (path, ids) => ({ ...clean(path), general: { ...clean(path).general, ...ids } });
const at = (report, path) => report.errors.filter((e) => e.path === path).map((e) => e.code);
const ALL = [P2P_PAYIN, WIDGET_PAYIN, ...BY_ID, ...PROJECT_ONLY];

test('every operation\'s clean body is valid (the baseline of the cases below)', () => {
  for (const path of ALL) {
    const report = api.validateRequest(path, clean(path));
    assert.equal(report.valid, true, `${path}: ${JSON.stringify(report.errors)}`);
  }
});

test('a payment_id or project_id holding NUL is PATTERN at the id, for every operation, object or text, ESM or CJS', () => {
  for (const build of [api, cjs]) {
    for (const path of [P2P_PAYIN, WIDGET_PAYIN, ...BY_ID]) {
      for (const body of [withIds(path, { payment_id: 'a\u0000b' }), JSON.stringify(withIds(path, { payment_id: 'a\u0000b' }))]) {
        const report = build.validateRequest(path, body);
        assert.equal(report.valid, false, path);
        assert.deepEqual(at(report, 'general.payment_id'), ['PATTERN'], `${path} ${typeof body}`);
        assert.match(report.errors[0].message, /^general\.payment_id must not hold the character U\+0000 \(NUL\)/);
        assert.equal(report.errors.length, 1, `${path}: ${JSON.stringify(report.errors)}`);
      }
    }
    for (const path of ALL) {
      const report = build.validateRequest(path, withIds(path, { project_id: '\u0000prj' }));
      assert.deepEqual(at(report, 'general.project_id'), ['PATTERN'], path);
    }
    // Balance and bank list show no payment_id: it is an unknown member, held to the Limits table.
    for (const path of PROJECT_ONLY) {
      const report = build.validateRequest(path, withIds(path, { payment_id: 'a\u0000b' }));
      assert.deepEqual(at(report, 'general.payment_id'), ['PATTERN'], path);
    }
  }
});

test('body bytes: the escape \\u0000 is PATTERN at the id; a raw NUL in JSON text, or C0 80 (modified UTF-8), is INVALID_JSON', () => {
  const path = BY_ID[0];
  const bytes = (text) => new TextEncoder().encode(text);
  const escaped = api.validateRequest(path, bytes('{"general":{"project_id":"p","payment_id":"a\\u0000b"}}'));
  assert.deepEqual(escaped.errors.map((e) => [e.path, e.code]), [['general.payment_id', 'PATTERN']]);
  const raw = api.validateRequest(path, '{"general":{"project_id":"p","payment_id":"a\u0000b"}}');
  assert.deepEqual(raw.errors.map((e) => [e.path, e.code]), [['', 'INVALID_JSON']]);
  const [open, close] = [bytes('{"general":{"project_id":"p","payment_id":"a'), bytes('b"}}')];
  const modified = api.validateRequest(path, new Uint8Array([...open, 0xc0, 0x80, ...close]));
  assert.deepEqual(modified.errors.map((e) => [e.path, e.code]), [['', 'INVALID_JSON']]);
});

test('allowLoopbackHttp: a loopback http URL holding NUL is PATTERN, not the LOOPBACK_HTTP warning', () => {
  const body = { general: { project_id: 'p', payment_id: 'o', merchant_callback_url: 'http://127.0.0.1/cb\u0000' } };
  const report = api.validateRequest('/api/v1/payment/p2p/payout', body, { allowLoopbackHttp: true });
  assert.deepEqual(report.errors.map((e) => [e.path, e.code]), [['general.merchant_callback_url', 'PATTERN']]);
  assert.deepEqual(report.warnings, []);
});

test('the message neither echoes the value nor carries the NUL', () => {
  const report = api.validateRequest(BY_ID[0], withIds(BY_ID[0], { payment_id: 'secret\u0000id' }));
  const [issue] = report.errors;
  assert.equal(issue.actual, undefined);
  assert.ok(!issue.message.includes('secret') && !issue.message.includes('\u0000'), issue.message);
});

test('the builders refuse a NUL in an input member at its body path; the body still holds what was given', () => {
  for (const build of [api, cjs]) {
    const payin = build.buildPayinRequest({ ...payinInput, paymentId: 'a\u0000b', projectId: '\u0000' });
    assert.equal(payin.report.valid, false);
    assert.deepEqual(at(payin.report, 'general.payment_id'), ['PATTERN']);
    assert.deepEqual(at(payin.report, 'general.project_id'), ['PATTERN']);
    assert.equal(payin.body.general.payment_id, 'a\u0000b');
    const widget = build.buildWidgetPayinRequest({ ...widgetInput, paymentId: 'a\u0000b' });
    assert.deepEqual(at(widget.report, 'general.payment_id'), ['PATTERN']);
    const described = build.buildPayinRequest({ ...payinInput, description: 'x\u0000' });
    assert.deepEqual(at(described.report, 'payment.description'), ['PATTERN']);
  }
});

test('NUL is refused in every string the schemas check, not only the ids', () => {
  const body = clean(P2P_PAYIN);
  body.payment.description = 'an order\u0000';
  body.customer.first_name = '\u0000';
  body.customer.user_agent = 'Mozilla\u0000';
  body.general.redirect_url = 'https://a.example/\u0000';
  body.customer.email = 'a\u0000@b.example';
  body.payment.currency = 'R\u0000B';
  const report = api.validateRequest(P2P_PAYIN, body);
  const paths = ['payment.description', 'customer.first_name', 'customer.user_agent', 'general.redirect_url', 'customer.email', 'payment.currency'];
  for (const path of paths) assert.deepEqual(at(report, path), ['PATTERN'], path);
  // One issue each: the NUL is said, not also the format it breaks.
  assert.equal(report.errors.length, paths.length, JSON.stringify(report.errors));
  // A member the schema does not list is held to the Limits table, NUL included.
  const unknown = { ...clean(BY_ID[0]), customer: { id: 'u\u0000' } };
  assert.deepEqual(at(api.validateRequest(BY_ID[0], unknown), 'customer.id'), ['PATTERN']);
});

test('a very long id of NULs: TOO_LONG and PATTERN, quickly, the message short; past the body limit BODY_TOO_LARGE', () => {
  for (const count of [256, 10_000]) {
    const payment_id = '\u0000'.repeat(count);
    for (const body of [withIds(BY_ID[0], { payment_id }), JSON.stringify(withIds(BY_ID[0], { payment_id }))]) {
      const started = performance.now();
      const report = api.validateRequest(BY_ID[0], body);
      assert.ok(performance.now() - started < 2000);
      assert.deepEqual(at(report, 'general.payment_id'), ['TOO_LONG', 'PATTERN'], `${count}`);
      assert.ok(report.errors.every((e) => e.message.length < 200));
    }
  }
  // Past the body limit (64 KiB of JSON, each NUL written \u0000): the body is refused whole.
  const huge = withIds(BY_ID[0], { payment_id: '\u0000'.repeat(100_000) });
  for (const body of [huge, JSON.stringify(huge)]) {
    assert.deepEqual(api.validateRequest(BY_ID[0], body).errors.map((e) => [e.path, e.code]), [['', 'BODY_TOO_LARGE']]);
  }
  // At the limit, NULs only: PATTERN alone.
  assert.deepEqual(at(api.validateRequest(BY_ID[0], withIds(BY_ID[0], { payment_id: '\u0000'.repeat(255) })), 'general.payment_id'), ['PATTERN']);
});

test('what a store can hold stays valid: other C0 controls, DEL, C1, U+FFFF, U+FFFE, astral characters', () => {
  const ids = ['a\u0001b', 'a\u001fb', 'a\tb', 'a\u007fb', 'a\u0085b', 'a\uffffb', 'a\ufffeb', 'a\ud83d\ude00b'];
  for (const payment_id of ids) {
    for (const body of [withIds(BY_ID[0], { payment_id }), JSON.stringify(withIds(BY_ID[0], { payment_id }))]) {
      const report = api.validateRequest(BY_ID[0], body);
      assert.equal(report.valid, true, `${JSON.stringify(payment_id)}: ${JSON.stringify(report.errors)}`);
    }
  }
});

test('a lone surrogate never reaches the checks: INVALID_BODY, INVALID_JSON, or WRONG_TYPE at the builder\'s member', () => {
  for (const payment_id of ['a\ud800b', '\udc00', 'a\ud800']) {
    const object = api.validateRequest(BY_ID[0], withIds(BY_ID[0], { payment_id }));
    assert.deepEqual(object.errors.map((e) => [e.path, e.code]), [['general.payment_id', 'INVALID_BODY']]);
    // JSON.stringify escapes a lone surrogate (\ud800), which the reader refuses as JSON.
    const text = api.validateRequest(BY_ID[0], JSON.stringify(withIds(BY_ID[0], { payment_id })));
    assert.deepEqual(text.errors.map((e) => e.code), ['INVALID_JSON']);
    const built = api.buildPayinRequest({ ...payinInput, paymentId: payment_id });
    assert.deepEqual(at(built.report, 'paymentId'), ['WRONG_TYPE']);
    assert.equal(built.report.valid, false);
  }
});

test('the client refuses a NUL id before sending: REQUEST_INVALID with PATTERN at the id, nothing sent', async () => {
  let sent = 0;
  const key = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
  const client = api.createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key, fetch: async () => { sent += 1; throw new Error('sent'); } });
  for (const call of [() => client.p2p.payin.info({ projectId: 'prj_1', paymentId: 'a\u0000b' }), () => client.p2p.payin.create(withIds(P2P_PAYIN, { payment_id: 'a\u0000b' }))]) {
    const error = await call().then(() => assert.fail('sent'), (e) => e);
    assert.equal(error.code, 'REQUEST_INVALID', String(error));
    assert.deepEqual(at(error.report, 'general.payment_id'), ['PATTERN']);
  }
  assert.equal(sent, 0);
});
