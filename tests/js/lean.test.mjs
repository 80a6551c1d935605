// payment-intake/lean and payment-intake/receiver (pkg/web/lean.js, pkg/web/receiver.js), each
// over its own .wasm without RSA in WebAssembly, run in Node with WebCrypto
// (globalThis.crypto.subtle), as browsers and edge runtimes run them: genuine callbacks of
// tests/vectors/ verify and tampered ones are refused, as the full build answers them; the
// synchronous RSA functions refuse with SYNC_RSA_UNAVAILABLE, whose hint names the async
// function; keys are read, tokened and refused as the full build does it (the small DER
// reader of src/rsa/keys/der.rs against the `rsa` crate's); the receiver's handler works.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { esm as full, keyFamilies, pkgDir, readKey, readVectors, throwsCode } from './helpers.mjs';
import { callback, exerciseAdapter, recorder, service } from './support/receiver-kit.mjs';

async function load(name) {
  const entry = await import(pathToFileURL(path.join(pkgDir, 'web', `${name}.js`)).href);
  entry.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', `payment_intake_${name}_bg.wasm`)) });
  return entry;
}
const entries = { lean: await load('lean'), receiver: await load('receiver') };
const callbacks = readVectors('callbacks.json');
const servicePem = readKey(callbacks.verifying_key);

/** The code of what `fn` (sync or async) throws or rejects with; 'ok' when it answers. */
async function outcome(fn) {
  try {
    await fn();
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    return error.code;
  }
}

/** Keys the full build refuses, in every way it names: the codes must be the same everywhere. */
function badKeys() {
  const pem = (options, type = 'rsa') => crypto.generateKeyPairSync(type, options);
  const small = pem({ modulusLength: 1024 });
  const ec = pem({ namedCurve: 'P-256' }, 'ec');
  const ed = pem({}, 'ed25519');
  const good = readKey('keys/rsa2048.public.pem');
  const lines = good.trim().split('\n');
  return {
    empty: '',
    path: './keys/service-public.pem',
    escaped: good.replace(/\n/g, '\\n'),
    armourless: lines.slice(1, -1).join(''),
    truncated: [...lines.slice(0, 4), lines.at(-1)].join('\n'),
    garbage: good.replace(/[A-Z]{8}/, '!@#$%^&*'),
    certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    private: readKey('keys/rsa2048.pkcs8.pem'),
    rsa1024: small.publicKey.export({ type: 'spki', format: 'pem' }),
    rsa1024pkcs1: small.publicKey.export({ type: 'pkcs1', format: 'pem' }),
    ec: ec.publicKey.export({ type: 'spki', format: 'pem' }),
    ed25519: ed.publicKey.export({ type: 'spki', format: 'pem' }),
  };
}

for (const [name, entry] of Object.entries(entries)) {
  describe(`payment-intake/${name}`, () => {
    test('callbacks.json: every case answers as the full build answers it (WebCrypto)', async () => {
      const key = entry.VerifyingKey.fromPem(servicePem);
      for (const c of callbacks.cases) {
        const expected = c.expect === 'ok' ? full.verifyCallback(c.body, c.headers, servicePem) : undefined;
        for (const keys of [key, servicePem, [servicePem]]) {
          const got = await outcome(async () => {
            const verified = await entry.verifyCallbackAsync(c.body, c.headers, keys);
            assert.deepEqual(verified, expected, c.name);
          });
          assert.equal(got, c.expect, c.name);
        }
        const request = new Request('https://merchant.example/cb', { method: 'POST', body: c.body, headers: c.headers });
        assert.equal(await outcome(() => entry.verifyCallbackRequest(request, servicePem)), c.expect, `${c.name} (Request)`);
      }
    });

    test('a tampered callback is refused INVALID_SIGNATURE, a forged one INVALID_PUBLIC_KEY', async () => {
      const sent = callback('success');
      assert.equal((await entry.verifyCallbackAsync(sent.body, sent.headers, servicePem)).status, 'success');
      const tampered = sent.body.replace('order-1', 'order-2');
      assert.equal(await outcome(() => entry.verifyCallbackAsync(tampered, sent.headers, servicePem)), 'INVALID_SIGNATURE');
      const forged = { ...sent.headers, 'x-access-token': full.VerifyingKey.fromPem(readKey('keys/attacker2048.public.pem')).token() };
      assert.equal(await outcome(() => entry.verifyCallbackAsync(sent.body, forged, servicePem)), 'INVALID_PUBLIC_KEY');
    });

    test('sync RSA refuses with SYNC_RSA_UNAVAILABLE, naming verifyCallbackAsync; so does the backend option wasm', async () => {
      const c = callbacks.cases.find((x) => x.expect === 'ok');
      const error = throwsCode(() => entry.verifyCallback(c.body, c.headers, servicePem), 'SYNC_RSA_UNAVAILABLE');
      assert.match(error.hint, /verifyCallbackAsync/);
      assert.equal(error.status, 500);
      assert.equal(await outcome(() => entry.verifyCallbackAsync(c.body, c.headers, servicePem, { backend: 'wasm' })), 'SYNC_RSA_UNAVAILABLE');
      // Checks made before RSA still answer as they do: a forged token, a tampered timestamp header.
      const forged = { ...c.headers, 'x-access-token': 'bm9wZQ' };
      throwsCode(() => entry.verifyCallback(c.body, forged, servicePem), 'INVALID_PUBLIC_KEY');
    });

    test('an HMAC callback verifies synchronously (no RSA)', () => {
      const secret = 'test-only-hmac-secret-0123456789abcdef';
      const signed = full.signRequest(callback('success').body, full.HmacKey.fromSecret(secret), { merchantId: 'merchant-1', timestamp: '1700000000' });
      const verified = entry.verifyCallback(signed.body, signed.headers, entry.HmacKey.fromSecret(secret));
      assert.equal(verified.status, 'success');
      const tampered = signed.body.replace('order-1', 'order-2');
      throwsCode(() => entry.verifyCallback(tampered, signed.headers, entry.HmacKey.fromSecret(secret)), 'INVALID_SIGNATURE');
    });

    test('keys: the same PEM, token (pem, der, unpadded) and size as the full build; the same refusals', () => {
      for (const family of keyFamilies()) {
        const theirs = full.VerifyingKey.fromPem(readKey(family.spki));
        for (const form of [family.spki, family.pkcs1Public]) {
          const ours = entry.VerifyingKey.fromPem(readKey(form));
          assert.equal(ours.publicKeyPem(), theirs.publicKeyPem(), form);
          assert.equal(ours.bits, theirs.bits, form);
          for (const options of [undefined, { token: 'der' }, { token: 'pem', padding: false }, { token: 'der', padding: false }]) {
            assert.equal(ours.token(options), theirs.token(options), `${form} ${JSON.stringify(options)}`);
          }
        }
      }
      const code = (fn) => {
        try {
          fn();
          return 'ok';
        } catch (error) {
          return error.code;
        }
      };
      for (const [label, text] of Object.entries(badKeys())) {
        const expected = code(() => full.VerifyingKey.fromPem(text));
        assert.notEqual(expected, 'ok', label);
        assert.equal(code(() => entry.VerifyingKey.fromPem(text)), expected, label);
      }
    });
  });
}

describe('payment-intake/lean: signing', () => {
  const { lean } = entries;
  test('SigningKey reads every form as the full build does; signRequestAsync signs the same bytes by WebCrypto', async () => {
    for (const family of keyFamilies()) {
      const theirs = full.SigningKey.fromPem(readKey(family.pkcs8));
      for (const form of [family.pkcs8, family.pkcs1]) {
        const ours = lean.SigningKey.fromPem(readKey(form));
        assert.equal(ours.publicKeyPem(), theirs.publicKeyPem(), form);
        assert.equal(ours.privateKeyPem(), theirs.privateKeyPem(), form);
        assert.equal(ours.token(), theirs.token(), form);
        assert.equal(ours.bits, theirs.bits, form);
      }
    }
    const options = { merchantId: 'merchant-1', timestamp: '1700000000' };
    const body = callback('success').body;
    // RSASSA-PKCS1-v1_5 is deterministic: WebCrypto's signature is the full build's.
    const ours = await lean.signRequestAsync(body, lean.SigningKey.fromPem(readKey('keys/rsa2048.pkcs1.pem')), options);
    assert.deepEqual(ours, full.signRequest(body, service, options));
    assert.deepEqual(await lean.signRequestAsync(body, lean.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem')), { ...options, options: { digest: 'double' } }),
      full.signRequest(body, service, { ...options, options: { digest: 'double' } }));
  });

  test('signRequest, SigningKey.generate() and diagnoseCallback with RSA refuse with SYNC_RSA_UNAVAILABLE, naming what to use', () => {
    const key = lean.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const body = callback('success').body;
    const signing = throwsCode(() => lean.signRequest(body, key, { merchantId: 'merchant-1' }), 'SYNC_RSA_UNAVAILABLE');
    assert.match(signing.hint, /signRequestAsync/);
    assert.match(throwsCode(() => lean.SigningKey.generate(), 'SYNC_RSA_UNAVAILABLE').hint, /fromPem/);
    const c = callbacks.cases.find((x) => x.expect === 'ok');
    assert.match(throwsCode(() => lean.diagnoseCallback(c.body, c.headers, servicePem), 'SYNC_RSA_UNAVAILABLE').hint, /full entry/);
    // What needs no RSA works: prepareRequest, validation, the canonical message.
    assert.deepEqual(lean.prepareRequest(body, key, { merchantId: 'merchant-1', timestamp: '1700000000' }),
      full.prepareRequest(body, service, { merchantId: 'merchant-1', timestamp: '1700000000' }));
    assert.equal(lean.canonicalMessage(body, '1700000000'), full.canonicalMessage(body, '1700000000'));
    assert.deepEqual(lean.validateRequest('/api/v1/payment/p2p/payin', '{}'), full.validateRequest('/api/v1/payment/p2p/payin', '{}'));
  });
});

describe('payment-intake/receiver', () => {
  const { receiver } = entries;
  test('offers the receiver part only, and its .wasm exports nothing of requests', () => {
    const names = Object.keys(receiver).filter((n) => n !== 'default').sort();
    assert.deepEqual(names, [
      'HmacKey', 'PaymentIntakeError', 'VerifyingKey', 'createCallbackHandler', 'errorCodes', 'initSync', 'isPaymentIntakeError', 'memoryStore',
      'parseCallback', 'prepareCallback', 'specStates', 'verifyCallback', 'verifyCallbackAsync', 'verifyCallbackRequest',
    ]);
    const exported = WebAssembly.Module.exports(new WebAssembly.Module(fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_receiver_bg.wasm')))).map((e) => e.name);
    for (const absent of ['validateRequest', 'buildPayinRequest', 'canonicalMessage', '__signRequestHmac', '__diagnoseCallback', '__operationTable']) {
      assert.ok(!exported.includes(absent), absent);
    }
    assert.ok(exported.includes('__verifyCallback'));
    assert.deepEqual(receiver.specStates(), full.specStates());
    assert.deepEqual(receiver.errorCodes(), full.errorCodes());
  });

  test('createCallbackHandler: genuine, duplicate, stale, tampered, forged and ambiguous callbacks (handler.fetch)', async () => {
    const { seen, config } = recorder();
    const handler = receiver.createCallbackHandler(config);
    const post = async (sent) => {
      const response = await handler.fetch(new Request('https://merchant.example/cb', { method: 'POST', body: sent.body, headers: { 'content-type': 'application/json', ...sent.headers } }));
      return { status: response.status, json: await response.json() };
    };
    await exerciseAdapter(post, { seen, store: handler.store });
  });
});
