// The callback model bound to what the signature covers, as a merchant uses the
// package: AMBIGUOUS_CALLBACK and what it carries on every verify path, the
// allowAmbiguous opt-out, replays and the idempotency key, the timestamp and
// merchant-id rules, strict signing and validation of ambiguous requests, and
// large callbacks whose model is read only after the native signature check.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { caught, cjs, esm as api, pkgDir, readKey, throwsCode } from './helpers.mjs';

// The browser entry, loaded in Node as backends.test.mjs does (WebCrypto is global in Node 20).
const web = await import(pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href);
web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });

const TS = 1700000000;
const service = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const servicePublic = api.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
const signed = (body, options = {}) => api.signRequest(body, service, { merchantId: 'merchant-1', timestamp: TS, ...options });

const callback = (redirect) => ({
  project_id: 'prj',
  general: { payment_id: 'order-7', request_id: 'r-1' },
  status: { status: 'decline', sub_status: null, status_description: 'Canceled by client' },
  payment_info: { amount: 150000, currency: 'RUB' },
  integration: { form_url: 'https://pay.example/f', redirect_url: redirect },
});

/** Every way the package verifies a callback, as [name, fn(body, headers, options) -> Promise<result>]. */
const PATHS = [
  ['verifyCallback (node:crypto)', async (b, h, o) => api.verifyCallback(b, h, servicePublic, o)],
  ["verifyCallback backend 'wasm'", async (b, h, o) => api.verifyCallback(b, h, servicePublic, { ...o, backend: 'wasm' })],
  ['verifyCallbackAsync', (b, h, o) => api.verifyCallbackAsync(b, h, servicePublic, o)],
  ['require().verifyCallback', async (b, h, o) => cjs.verifyCallback(b, h, readKey('keys/rsa2048.public.pem'), o)],
  ['web verifyCallback (wasm)', async (b, h, o) => web.verifyCallback(b, h, readKey('keys/rsa2048.public.pem'), o)],
  ['web verifyCallbackAsync (WebCrypto)', (b, h, o) => web.verifyCallbackAsync(b, h, readKey('keys/rsa2048.public.pem'), o)],
];

describe('a genuine callback that its signed message does not determine', () => {
  const body = JSON.stringify(callback('https://shop.example/back?q=1;status:status:success'));
  const { headers } = signed(body);

  for (const [name, verify] of PATHS) {
    test(`${name}: AMBIGUOUS_CALLBACK with verified, rawBody, ambiguities and a hint; allowAmbiguous flags it`, async () => {
      const error = await caught(() => verify(body, headers));
      assert.ok(error instanceof Error);
      assert.equal(error.code, 'AMBIGUOUS_CALLBACK');
      assert.equal(error.verified, true);
      assert.equal(error.rawBody, body);
      assert.deepEqual(error.ambiguities, [{ path: 'integration.redirect_url', rule: 'VALUE_ENTRY_TEXT' }]);
      assert.match(error.hint, /info operation/);
      const flagged = await verify(body, headers, { allowAmbiguous: true });
      assert.equal(flagged.verification.ambiguous, true);
      assert.deepEqual(flagged.verification.ambiguities, error.ambiguities);
      // The signature still decides first.
      const tampered = body.replace('order-7', 'order-8');
      assert.equal((await caught(() => verify(tampered, headers))).code, 'INVALID_SIGNATURE');
    });
  }

  test('prepareCallback: the same error in callbackError, no model', () => {
    const prepared = api.prepareCallback(body, headers, servicePublic);
    assert.equal(prepared.callback, null);
    assert.equal(prepared.callbackError.code, 'AMBIGUOUS_CALLBACK');
    assert.equal(prepared.callbackError.rawBody, body);
  });

  // An ambiguous body without the callback's shape, allowed: the INVALID_CALLBACK raised
  // after the check says it was ambiguous, as the verified result would have.
  const shapeless = JSON.stringify({ ...callback('https://shop.example/back?q=1;status:status:success'), payment_info: { amount: '1', currency: 'RUB' } });
  const shapelessHeaders = signed(shapeless).headers;
  for (const [name, verify] of PATHS) {
    test(`${name}: allowAmbiguous, INVALID_CALLBACK: its verification is ambiguous, with the places`, async () => {
      const error = await caught(() => verify(shapeless, shapelessHeaders, { allowAmbiguous: true }));
      assert.equal(error.code, 'INVALID_CALLBACK');
      assert.equal(error.verified, true);
      assert.equal(error.verification.ambiguous, true);
      assert.deepEqual(error.verification.ambiguities, [{ path: 'integration.redirect_url', rule: 'VALUE_ENTRY_TEXT' }]);
      assert.equal((await caught(() => verify(shapeless, shapelessHeaders))).code, 'AMBIGUOUS_CALLBACK');
    });
  }

  test("plain ';' text is not ambiguous", async () => {
    const plain = JSON.stringify(callback('https://shop.example/back?a=1;b=2'));
    const verified = await PATHS[0][1](plain, signed(plain).headers);
    assert.equal(verified.integration.redirectUrl, 'https://shop.example/back?a=1;b=2');
    assert.equal(verified.verification.ambiguous, false);
  });
});

describe('replays and the idempotency key', () => {
  test('sub_status as null, "", 0, false or "None": one signature, one model, one key', () => {
    const bodies = ['null', '""', '0', 'false', '"None"'].map((v) => JSON.stringify(callback('https://x.example/')).replace('"sub_status":null', `"sub_status":${v}`));
    const { headers } = signed(bodies[0]);
    const keys = new Set();
    for (const body of bodies) {
      const verified = api.verifyCallback(body, headers, servicePublic);
      assert.equal(verified.subStatus, null);
      keys.add(verified.idempotencyKey);
    }
    assert.deepEqual([...keys], ['prj:order-7:decline:']);
  });

  test('":" and ";" inside a part are percent-encoded', () => {
    const body = JSON.stringify({ ...callback('https://x.example/'), general: { payment_id: 'a:b;c%', request_id: 'r' } });
    assert.equal(api.verifyCallback(body, signed(body).headers, servicePublic).idempotencyKey, 'prj:a%3Ab%3Bc%25:decline:');
  });
});

describe('headers and options', () => {
  const body = JSON.stringify(callback('https://x.example/'));
  const { headers } = signed(body);

  test('toleranceSeconds: null is INVALID_OPTION, not "off"', () => {
    throwsCode(() => api.verifyCallback(body, headers, servicePublic, { toleranceSeconds: null }), 'INVALID_OPTION');
    assert.ok(api.verifyCallback(body, headers, servicePublic, { toleranceSeconds: 300, now: TS + 10 }));
  });

  test('the timestamp is returned exactly; a leading zero, a sign or 11 digits are INVALID_TIMESTAMP', () => {
    assert.equal(api.verifyCallback(body, headers, servicePublic).verification.timestamp, TS);
    for (const bad of ['01700000000'.slice(0, 10), '+170000000', '17000000000', '170000000']) {
      throwsCode(() => api.verifyCallback(body, { ...headers, 'x-access-timestamp': bad }, servicePublic), 'INVALID_TIMESTAMP', bad);
    }
    throwsCode(() => api.signRequest(body, service, { merchantId: 'm', timestamp: Date.now() }), 'INVALID_TIMESTAMP', 'milliseconds');
  });

  test('expectedMerchantId', () => {
    throwsCode(() => api.verifyCallback(body, headers, servicePublic, { expectedMerchantId: 'merchant-2' }), 'MERCHANT_ID_MISMATCH');
    assert.equal(api.verifyCallback(body, headers, servicePublic, { expectedMerchantId: 'merchant-1' }).verification.merchantId, 'merchant-1');
  });
});

describe('requests whose signed message would not determine them', () => {
  const payin = {
    general: { project_id: 'prj', payment_id: 'order-7;payment:amount:1' },
    payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
    customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
  };

  test('validateRequest: a warning for the text, an error for a key, with their paths', () => {
    const report = api.validateRequest('/api/v1/payment/p2p/payin', payin);
    assert.ok(report.warnings.some((w) => w.path === 'general.payment_id' && w.code === 'AMBIGUOUS_TEXT'), JSON.stringify(report.warnings));
    const keyed = api.validateRequest('/api/v1/payment/p2p/payin', { ...payin, general: { project_id: 'prj', payment_id: 'o', 'a:b': 1 } });
    assert.ok(keyed.errors.some((e) => e.path === 'general.a:b' && e.code === 'AMBIGUOUS_KEY'), JSON.stringify(keyed.errors));
    assert.equal(keyed.valid, false, 'a key holding ":" is an error');
    assert.equal(report.valid, true, 'text the merchant may not control is a warning only');
  });

  for (const [name, sign] of [
    ['signRequest', (b, o) => api.signRequest(b, service, o)],
    ["signRequest backend 'wasm'", (b, o) => api.signRequest(b, service, { ...o, backend: 'wasm' })],
    ['prepareRequest', (b, o) => api.prepareRequest(b, service, o)],
  ]) {
    test(`${name}: strict refuses it (AMBIGUOUS_REQUEST with the places), the default signs it`, () => {
      for (const body of [payin, JSON.stringify(payin)]) {
        const error = throwsCode(() => sign(body, { merchantId: 'm', timestamp: TS, strict: true }), 'AMBIGUOUS_REQUEST');
        assert.deepEqual(error.ambiguities, [{ path: 'general.payment_id', rule: 'VALUE_ENTRY_TEXT' }]);
        assert.ok(sign(body, { merchantId: 'm', timestamp: TS }));
      }
      throwsCode(() => sign(payin, { merchantId: 'm', timestamp: TS, strict: 'yes' }), 'INVALID_ARGUMENT');
    });
  }
});

describe('a large callback (over 8 KiB): its model from the one read of the body', () => {
  const large = (redirect) => JSON.stringify({ ...callback(redirect), _padding: 'x'.repeat(10_000) });

  for (const [name, verify] of PATHS) {
    test(`${name}: genuine, ambiguous and forged`, async () => {
      const body = large('https://x.example/');
      const { headers } = signed(body);
      const verified = await verify(body, headers);
      assert.equal(verified.paymentId, 'order-7');
      const ambiguous = large('https://x.example/?q;status:status:success');
      assert.equal((await caught(() => verify(ambiguous, signed(ambiguous).headers))).code, 'AMBIGUOUS_CALLBACK');
      assert.equal((await caught(() => verify(body.replace('order-7', 'order-8'), headers))).code, 'INVALID_SIGNATURE');
    });
  }
});
