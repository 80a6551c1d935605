// Sender dialects through the package as users import it, in Node: the shared
// vectors (tests/vectors/dialects.json, an independent implementation) and our
// own (tests/fixtures/dialects_reference.json, scripts/dialects_reference.py),
// with each backend: node:crypto, the wasm, WebCrypto (the web entry's async
// functions) and the web entry's wasm. node:crypto checks every signature again
// on its own; a port of the public JS client's rules signs callbacks that the
// diagnosis must name.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import * as web from '../../pkg/web/index.js';
import { base64urlDecode, esm as api, pkgDir, readKey, readVectors, root, throwsCode } from './helpers.mjs';
import { signLikeJsClient } from './support/js-client-port.mjs';

web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });

const FILES = [
  ['dialects.json (shared)', readVectors('dialects.json')],
  ['dialects_reference.json (ours)', JSON.parse(fs.readFileSync(path.join(root, 'tests', 'fixtures', 'dialects_reference.json'), 'utf8'))],
];
const REFUSED_AS_NO_CALLBACK = ['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK'];
const WRONG_SECRET = 'a-wrong-test-only-secret-0123456789';

/** The signature is good: verification passes, or refuses only what is no callback. */
async function signatureGood(verify) {
  try {
    await verify();
  } catch (error) {
    assert.ok(REFUSED_AS_NO_CALLBACK.includes(error.code), `${error.code}: ${error.message}`);
  }
}

async function rejectsCode(verify, code, label) {
  await assert.rejects(async () => verify(), (error) => error.code === code, label);
}

/** What a node:crypto RSA-SHA256 signs for a message under the vector's digest rule. */
function rsaInput(message, digest) {
  const bytes = Buffer.from(message, 'utf8');
  return digest === 'double' ? crypto.createHash('sha256').update(bytes).digest() : bytes;
}

/** The same option object, in any member order. */
function sameOptions(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function tampered(body) {
  return body.trim() === '' ? '{"zz":"1"}' : body.replace('{', '{"zz":"1",').replace(',}', '}');
}

for (const [label, file] of FILES) {
  describe(`${label}: messages`, () => {
    for (const c of file.messages) {
      test(c.name, () => {
        for (const lib of [api, web]) {
          assert.deepEqual(lib.canonicalEntries(c.body, c.options), c.entries, 'entries');
          assert.equal(lib.canonicalMessage(c.body, c.timestamp, c.options), c.message, 'message');
          assert.equal(lib.canonicalSteps(c.body, c.timestamp, c.options).message, c.message, 'steps');
        }
      });
    }
  });

  describe(`${label}: RSA headers, every backend`, () => {
    const keys = new Map();
    const keyFor = (lib, relative) => {
      const id = `${lib === web ? 'web' : 'node'}:${relative}`;
      if (!keys.has(id)) keys.set(id, lib.SigningKey.fromPem(readKey(relative)));
      return keys.get(id);
    };
    for (const c of file.rsa) {
      test(c.name, async () => {
        const timestamp = c.headers['x-access-timestamp'];
        const sign = { merchantId: c.merchant_id, timestamp, options: c.options };
        const runs = [
          ['node:crypto', () => api.signRequest(c.body, keyFor(api, c.key), sign)],
          ['node wasm', () => api.signRequest(c.body, keyFor(api, c.key), { ...sign, backend: 'wasm' })],
          ['node async', () => api.signRequestAsync(c.body, keyFor(api, c.key), sign)],
          ['web wasm', () => web.signRequest(c.body, keyFor(web, c.key), sign)],
          ['web WebCrypto', () => web.signRequestAsync(c.body, keyFor(web, c.key), sign)],
        ];
        for (const [backend, run] of runs) assert.deepEqual((await run()).headers, c.headers, `${backend}: exact headers`);
        // node:crypto on its own accepts the signature, and the token is the key in the vector's encoding.
        const message = api.canonicalMessage(c.body, timestamp, c.options);
        const publicKey = crypto.createPublicKey(readKey(c.key));
        assert.ok(crypto.verify('sha256', rsaInput(message, c.options.digest), publicKey, base64urlDecode(c.headers['x-access-signature'])));
        const der = publicKey.export({ type: 'spki', format: 'der' });
        const pem = publicKey.export({ type: 'spki', format: 'pem' });
        const tokenBytes = base64urlDecode(c.headers['x-access-token']);
        assert.deepEqual(tokenBytes, c.options.token === 'der' ? der : Buffer.from(pem), 'token');
        // Verified with the vector's options, in each backend; named by the diagnosis.
        const verifying = keyFor(api, c.key).verifyingKey();
        const webVerifying = keyFor(web, c.key).verifyingKey();
        await signatureGood(() => api.verifyCallback(c.body, c.headers, verifying, { options: c.options }));
        await signatureGood(() => api.verifyCallback(c.body, c.headers, verifying, { options: c.options, backend: 'wasm' }));
        await signatureGood(() => api.verifyCallbackAsync(c.body, c.headers, verifying, { options: c.options }));
        await signatureGood(() => web.verifyCallback(c.body, c.headers, webVerifying, { options: c.options }));
        await signatureGood(() => web.verifyCallbackAsync(c.body, c.headers, webVerifying, { options: c.options }));
        const d = api.diagnoseCallback(c.body, c.headers, verifying);
        assert.equal(d.signatureMatched, true, d.hint);
        assert.equal(d.token, c.options.token);
        assert.equal(d.algorithm, 'rsa');
        const wanted = { ...c.options, signatureEncoding: 'base64url' };
        assert.ok(d.matching.some((o) => sameOptions(o, wanted)), `${JSON.stringify(wanted)} in the matches`);
        // `matched` (and `options`) only when verifying with the named options returns a model.
        const named = d.options ?? d.signatureOptions;
        await signatureGood(() => api.verifyCallback(c.body, c.headers, verifying, { options: named }));
        const reads = (() => { try { api.verifyCallback(c.body, c.headers, verifying, { options: named }); return true; } catch { return false; } })();
        assert.equal(d.matched, reads, d.hint);
        // Tampered, and forged by another key (under its own token, or the project's).
        await rejectsCode(() => api.verifyCallback(tampered(c.body), c.headers, verifying, { options: c.options }), 'INVALID_SIGNATURE', 'tampered');
        await rejectsCode(() => web.verifyCallbackAsync(tampered(c.body), c.headers, webVerifying, { options: c.options }), 'INVALID_SIGNATURE', 'tampered (WebCrypto)');
        const attacker = keyFor(api, 'keys/attacker2048.pkcs8.pem');
        const forged = api.signRequest(c.body, attacker, sign).headers;
        await rejectsCode(() => api.verifyCallback(c.body, forged, verifying, { options: c.options }), 'INVALID_PUBLIC_KEY', 'own token');
        const copied = { ...forged, 'x-access-token': c.headers['x-access-token'] };
        await rejectsCode(() => api.verifyCallback(c.body, copied, verifying, { options: c.options }), 'INVALID_SIGNATURE', 'copied token');
        await rejectsCode(() => api.verifyCallbackAsync(c.body, copied, verifying, { options: c.options }), 'INVALID_SIGNATURE', 'copied token, async');
        const diagnosis = api.diagnoseCallback(c.body, copied, verifying);
        assert.equal(diagnosis.matched, false);
        assert.equal(diagnosis.cause, 'key');
      });
    }
  });

  describe(`${label}: HMAC-SHA512`, () => {
    for (const c of file.hmac) {
      test(c.name, async () => {
        const sign = { merchantId: c.merchant_id, timestamp: c.timestamp, options: c.options };
        // Independently: node:crypto's HMAC over the message the package builds.
        const message = api.canonicalMessage(c.body, c.timestamp, c.options);
        const mac = crypto.createHmac('sha512', Buffer.from(c.secret, 'utf8')).update(message).digest();
        const text = c.options.signatureEncoding === 'hex' ? mac.toString('hex') : mac.toString('base64url');
        const padded = c.options.signatureEncoding === 'hex' || c.options.padding === false ? text : `${text}==`;
        assert.equal(padded, c.signature, 'node:crypto agrees with the vector');
        for (const lib of [api, web]) {
          const key = lib.HmacKey.fromSecret(c.secret);
          const bytesKey = lib.HmacKey.fromSecret(new TextEncoder().encode(c.secret));
          for (const signed of [lib.signRequest(c.body, key, sign), await lib.signRequestAsync(c.body, bytesKey, sign)]) {
            assert.equal(signed.headers['x-access-signature'], c.signature, 'signature');
            assert.equal(signed.headers['x-access-merchant-algorithm'], 'HMAC-SHA512');
            assert.equal('x-access-token' in signed.headers, false);
          }
          const { headers } = lib.signRequest(c.body, key, sign);
          await signatureGood(() => lib.verifyCallback(c.body, headers, key, { options: c.options }));
          await signatureGood(() => lib.verifyCallbackAsync(c.body, headers, [key], { options: c.options }));
          const d = lib.diagnoseCallback(c.body, headers, key);
          assert.equal(d.signatureMatched, true, d.hint);
          assert.equal(d.algorithm, 'hmac');
          assert.equal((d.options ?? d.signatureOptions).signatureEncoding, c.options.signatureEncoding);
          await rejectsCode(() => lib.verifyCallback(tampered(c.body), headers, key, { options: c.options }), 'INVALID_SIGNATURE', 'tampered');
          const wrong = lib.HmacKey.fromSecret(WRONG_SECRET);
          await rejectsCode(() => lib.verifyCallback(c.body, headers, wrong, { options: c.options }), 'INVALID_SIGNATURE', 'wrong secret');
          assert.equal(lib.diagnoseCallback(c.body, headers, wrong).cause, 'key');
          wrong.free();
          bytesKey.free();
          key.free();
        }
      });
    }
  });
}

describe('HmacKey', () => {
  test('short, empty, padded and non-secret values are refused with a code', () => {
    for (const lib of [api, web]) {
      for (const secret of ['', 'short', 'fifteen-bytes!!', 'test-only-hmac-secret-0123456789\n', new Uint8Array(8), 'x'.repeat(1 << 20), new Uint8Array(5000)]) {
        throwsCode(() => lib.HmacKey.fromSecret(secret), 'INVALID_KEY');
      }
      for (const secret of [undefined, null, 42, {}, ['x']]) throwsCode(() => lib.HmacKey.fromSecret(secret), 'INVALID_ARGUMENT');
      throwsCode(() => new lib.HmacKey(1), 'INVALID_ARGUMENT');
    }
  });

  test('a freed key is refused wherever a key is taken, and free() is idempotent', () => {
    const key = api.HmacKey.fromSecret('test-only-hmac-secret-0123456789abcdef');
    const { body, headers } = api.signRequest('{"a":1}', key, { merchantId: 'm', timestamp: 1700000000 });
    key.free();
    key.free();
    throwsCode(() => api.signRequest('{"a":1}', key, { merchantId: 'm' }), 'INVALID_ARGUMENT');
    throwsCode(() => api.verifyCallback(body, headers, key), 'INVALID_ARGUMENT');
    throwsCode(() => api.diagnoseCallback(body, headers, [key]), 'INVALID_ARGUMENT');
  });

  test('mixed with RSA keys in a rotation array, each callback finds its key', () => {
    const secret = api.HmacKey.fromSecret('test-only-hmac-secret-0123456789abcdef');
    const rsa = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const body = '{"project_id":"p","general":{"request_id":"r","payment_id":"o"},"status":{"status":"processing","sub_status":"new","status_description":null}}';
    const keys = [rsa.verifyingKey(), secret];
    const byHmac = api.signRequest(body, secret, { merchantId: 'm', timestamp: 1700000000 });
    const byRsa = api.signRequest(body, rsa, { merchantId: 'm', timestamp: 1700000000 });
    assert.equal(api.verifyCallback(body, byHmac.headers, keys).verification.keyIndex, 1);
    assert.equal(api.verifyCallback(body, byRsa.headers, keys).verification.keyIndex, 0);
    // An HMAC callback that still sends some token is checked against the secrets.
    const withToken = { ...byHmac.headers, 'x-access-token': rsa.token() };
    assert.equal(api.verifyCallback(body, withToken, [secret]).verification.keyIndex, 0);
    // The algorithm header is the caller's to set, and checked.
    const named = api.signRequest(body, secret, { merchantId: 'm', timestamp: 1700000000, algorithmHeader: 'sha512' });
    assert.equal(named.headers['x-access-merchant-algorithm'], 'sha512');
    throwsCode(() => api.signRequest(body, secret, { merchantId: 'm', algorithmHeader: 'HMAC SHA512' }), 'INVALID_ARGUMENT');
    // prepareRequest and prepareCallback take an HmacKey too: the HMAC is made and checked in the wasm.
    const prepared = api.prepareRequest(body, secret, { merchantId: 'm', timestamp: 1700000000 });
    assert.equal(prepared.headers['x-access-token'], undefined);
    assert.equal(prepared.message, api.canonicalMessage(body, 1700000000));
    const ready = api.prepareCallback(body, byHmac.headers, keys);
    assert.equal(ready.keyIndex, 1);
    assert.equal(ready.data, undefined, 'nothing is left for a native RSA');
    assert.equal(ready.callback.paymentId, 'o');
    throwsCode(() => api.prepareCallback(tampered(body), byHmac.headers, keys), 'INVALID_SIGNATURE');
    // A hex signature under base64url options is refused, with a hint that names the encoding.
    const hex = api.signRequest(body, secret, { merchantId: 'm', timestamp: 1700000000, options: { signatureEncoding: 'hex' } });
    const error = throwsCode(() => api.verifyCallback(body, hex.headers, keys), 'INVALID_SIGNATURE');
    assert.match(error.hint ?? error.message, /signatureEncoding: 'hex'/);
  });
});

describe('profiles', () => {
  test('profiles() lists spec first and the public JS client, each a full option object every function takes', () => {
    const list = api.profiles();
    assert.deepEqual(list.map((p) => p.name), ['spec', 'public-js-client', 'callback-docs']);
    assert.deepEqual(list[0].options, {
      falsy: 'none', booleans: 'python', padding: true, order: 'codepoint', numbers: 'python', digest: 'single', token: 'pem', signatureEncoding: 'base64url',
    });
    assert.deepEqual(list[1].options, {
      falsy: 'null', booleans: 'lower', padding: false, order: 'utf16', numbers: 'js', digest: 'double', token: 'der', signatureEncoding: 'base64url',
    });
    const body = '{"a":1.0,"b":true,"c":0}';
    for (const { name, options } of list) {
      assert.equal(api.canonicalMessage(body, 1, { profile: name }), api.canonicalMessage(body, 1, options), name);
    }
    assert.equal(api.canonicalMessage(body, 1, { profile: 'public-js-client', padding: true }), api.canonicalMessage(body, 1, { ...list[1].options, padding: true }));
    const error = throwsCode(() => api.canonicalMessage(body, 1, { profile: 'python' }), 'INVALID_OPTION');
    assert.match(error.message, /spec, public-js-client, callback-docs/);
  });

  test('SigningKey.token() in either encoding', () => {
    const key = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const der = crypto.createPublicKey(readKey('keys/rsa2048.pkcs8.pem')).export({ type: 'spki', format: 'der' });
    assert.deepEqual(base64urlDecode(key.token({ token: 'der' })), der);
    assert.equal(key.token({ profile: 'public-js-client' }), der.toString('base64url'));
    assert.equal(key.verifyingKey().token({ token: 'der' }), key.token({ token: 'der' }));
    assert.equal(key.token(), key.token({ token: 'pem' }));
  });
});

describe('a callback signed by a port of the public JS client (node:crypto)', () => {
  const pem = readKey('keys/rsa2048.pkcs8.pem');
  const callback = {
    project_id: 'prj_8f2c',
    general: { request_id: 'req_1', payment_id: 'order-10045' },
    status: { status: 'success', sub_status: null, status_description: null },
    payment_info: { amount: 150050, old_amount: 150050, initial_amount: 150050, currency: 'RUB', lifetime: 600, expiration_date: 1700000600, method: 'card-p2p', type: 'payin', payment_system: null },
    recipient_requisites: null,
    integration: { form_url: 'https://pay.example/f/1', redirect_url: '' },
  };
  for (const lib of ['node', 'web']) {
    test(`diagnoseCallback names it, and verifyCallback accepts it with the options it names (${lib})`, async () => {
      const pkg = lib === 'web' ? web : api;
      const { body, headers } = signLikeJsClient(callback, pem, 'merchant-1', '1700000000');
      const verifying = pkg.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
      throwsCode(() => pkg.verifyCallback(body, headers, verifying), 'INVALID_SIGNATURE');
      const started = performance.now();
      const d = pkg.diagnoseCallback(body, headers, verifying);
      const took = performance.now() - started;
      assert.equal(d.matched, true, d.hint);
      assert.deepEqual(d.options, pkg.profiles().find((p) => p.name === 'public-js-client').options);
      assert.equal(d.token, 'der');
      assert.ok(took >= 0);
      const verified = await pkg.verifyCallbackAsync(body, headers, verifying, { options: d.options });
      assert.equal(verified.status, 'success');
      assert.equal(pkg.verifyCallback(body, headers, verifying, { options: { profile: 'public-js-client' } }).paymentId, 'order-10045');
    });
  }
});
