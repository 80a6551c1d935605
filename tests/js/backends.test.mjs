// Every RSA backend gives byte-identical signatures and identical verdicts on
// every shared vector: node:crypto (the Node default, sync and async), the pure
// WebAssembly path (`backend: 'wasm'`), and WebCrypto through the web wrapper
// (Node has crypto.subtle too). Errors match in code, message and hint.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { esm as api, pkgDir, readKey, readVectors } from './helpers.mjs';

const web = await import(pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href);
web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });

const signatures = readVectors('signatures.json');
const canonical = readVectors('canonical.json');
const callbacks = readVectors('callbacks.json');

/** The signers under test: name -> (module, body, key, options) => Promise<SignedRequest>. */
const signers = {
  'node:crypto': async (m, body, key, o) => m.signRequest(body, key, o),
  'node:crypto async': (m, body, key, o) => m.signRequestAsync(body, key, o),
  wasm: async (m, body, key, o) => m.signRequest(body, key, { ...o, backend: 'wasm' }),
  'wasm async': (m, body, key, o) => m.signRequestAsync(body, key, { ...o, backend: 'wasm' }),
};
const webSigners = {
  WebCrypto: (body, key, o) => web.signRequestAsync(body, key, { ...o, backend: 'native' }),
  'web wasm': async (body, key, o) => web.signRequest(body, key, o),
};
const verifiers = {
  'node:crypto': async (...a) => api.verifyCallback(...a),
  'node:crypto forced': async (b, h, k, o) => api.verifyCallback(b, h, k, { ...o, backend: 'native' }),
  'node:crypto async': (...a) => api.verifyCallbackAsync(...a),
  wasm: async (b, h, k, o) => api.verifyCallback(b, h, k, { ...o, backend: 'wasm' }),
  WebCrypto: (b, h, k, o) => web.verifyCallbackAsync(b, h, k, { ...o, backend: 'native' }),
  'web wasm': async (...a) => web.verifyCallback(...a),
};

/** `{ ok: value }` or `{ error: { name, code, message, hint } }`. */
async function outcome(promise) {
  try {
    return { ok: await promise };
  } catch (error) {
    assert.ok(error instanceof Error, `thrown value is an Error: ${error}`);
    return { error: { name: error.name, code: error.code, message: error.message, hint: error.hint } };
  }
}

const apiKeys = new Map();
const webKeys = new Map();
const keyFor = (cache, m, relative) => {
  if (!cache.has(relative)) cache.set(relative, m.SigningKey.fromPem(readKey(relative)));
  return cache.get(relative);
};

describe('signatures.json: every backend writes the vector headers exactly', () => {
  for (const c of signatures) {
    test(c.name, async () => {
      const options = { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options };
      for (const [name, sign] of Object.entries(signers)) {
        const signed = await sign(api, c.body, keyFor(apiKeys, api, c.key), options);
        assert.deepEqual(signed.headers, c.headers, name);
        assert.equal(signed.body, c.body, name);
      }
      for (const [name, sign] of Object.entries(webSigners)) {
        const signed = await sign(c.body, keyFor(webKeys, web, c.key), options);
        assert.deepEqual(signed.headers, c.headers, name);
      }
    });
  }
});

describe('canonical.json bodies: same signature bytes from every backend, and each verifies the others', () => {
  const pkcs8 = 'keys/rsa2048.pkcs8.pem';
  for (const c of canonical) {
    test(c.name, async () => {
      const options = { merchantId: 'merchant-1', timestamp: c.timestamp, options: c.options };
      const results = {};
      for (const [name, sign] of Object.entries(signers)) results[name] = await sign(api, c.body, keyFor(apiKeys, api, pkcs8), options);
      for (const [name, sign] of Object.entries(webSigners)) results[name] = await sign(c.body, keyFor(webKeys, web, pkcs8), options);
      const [first, ...rest] = Object.entries(results);
      for (const [name, signed] of rest) assert.deepEqual(signed, first[1], `${name} = ${first[0]}`);
      // The message each backend signed is the vector's.
      assert.equal(api.prepareRequest(c.body, keyFor(apiKeys, api, pkcs8), options).message, c.message);
    });
  }
});

describe('callbacks.json: every backend gives the same verdict, result and error', () => {
  const key = readKey(callbacks.verifying_key);
  const keyForms = {
    pem: () => key,
    VerifyingKey: () => api.VerifyingKey.fromPem(key),
    'PKCS#1 PEM second in an array': () => [readKey('keys/rsa3072.public.pem'), readKey('keys/rsa2048.public.pkcs1.pem')],
  };
  for (const c of callbacks.cases) {
    test(c.name, async () => {
      for (const [form, makeKey] of Object.entries(keyForms)) {
        const seen = {};
        for (const [name, verify] of Object.entries(verifiers)) {
          // A VerifyingKey of one wasm instance is read by the other through publicKeyPem().
          seen[name] = await outcome(verify(c.body, c.headers, makeKey(), {}));
        }
        const [first, ...rest] = Object.entries(seen);
        if (c.expect === 'ok') assert.ok(first[1].ok, `${form}: ${first[0]}: ${JSON.stringify(first[1].error)}`);
        else assert.equal(first[1].error?.code, c.expect, `${form}: ${first[0]}`);
        for (const [name, result] of rest) assert.deepEqual(result, first[1], `${form}: ${name} = ${first[0]}`);
      }
    });
  }
});

describe('failures are the same errors on every backend', () => {
  const valid = callbacks.cases.find((c) => c.expect === 'ok');
  const key = readKey(callbacks.verifying_key);
  const flip = (signature, at) => {
    const bytes = Buffer.from(signature.replace(/=+$/, ''), 'base64url');
    bytes[at] ^= 1;
    return bytes.toString('base64url');
  };
  const cases = {
    'one bit of the signature changed (first byte)': { ...valid.headers, 'x-access-signature': flip(valid.headers['x-access-signature'], 0) },
    'one bit of the signature changed (last byte)': { ...valid.headers, 'x-access-signature': flip(valid.headers['x-access-signature'], 255) },
    'a signature of the wrong length': { ...valid.headers, 'x-access-signature': 'AAAA' },
    'a later timestamp': { ...valid.headers, 'x-access-timestamp': '1700000001' },
  };
  for (const [title, headers] of Object.entries(cases)) {
    test(title, async () => {
      const seen = {};
      for (const [name, verify] of Object.entries(verifiers)) seen[name] = await outcome(verify(valid.body, headers, key, {}));
      assert.equal(seen.wasm.error?.code, 'INVALID_SIGNATURE');
      for (const [name, result] of Object.entries(seen)) assert.deepEqual(result, seen.wasm, `${name} = wasm`);
    });
  }

  test('a well-signed body without the callback shape: INVALID_CALLBACK after the signature checks', async () => {
    const signingKey = keyFor(apiKeys, api, 'keys/rsa2048.pkcs8.pem');
    const signed = api.signRequest('{"a":"1"}', signingKey, { merchantId: 'm', timestamp: 1700000000 });
    const seen = {};
    for (const [name, verify] of Object.entries(verifiers)) seen[name] = await outcome(verify(signed.body, signed.headers, key, {}));
    assert.equal(seen.wasm.error?.code, 'INVALID_CALLBACK');
    for (const [name, result] of Object.entries(seen)) assert.deepEqual(result, seen.wasm, `${name} = wasm`);
    const prepared = api.prepareCallback(signed.body, signed.headers, key);
    assert.equal(prepared.callback, null);
    assert.equal(prepared.callbackError.code, 'INVALID_CALLBACK');
  });

  test("an unknown backend is INVALID_OPTION everywhere; 'native' has no sync form in the web build", async () => {
    const signingKey = keyFor(apiKeys, api, 'keys/rsa2048.pkcs8.pem');
    const o = { merchantId: 'm', backend: 'gpu' };
    for (const result of [
      await outcome((async () => api.signRequest('{}', signingKey, o))()),
      await outcome(api.signRequestAsync('{}', signingKey, o)),
      await outcome((async () => api.verifyCallback(valid.body, valid.headers, key, { backend: 'gpu' }))()),
      await outcome(web.verifyCallbackAsync(valid.body, valid.headers, key, { backend: 'gpu' })),
    ]) {
      assert.equal(result.error?.code, 'INVALID_OPTION');
      assert.match(result.error.message, /backend/);
    }
    const sync = await outcome((async () => web.verifyCallback(valid.body, valid.headers, key, { backend: 'native' }))());
    assert.equal(sync.error?.code, 'INVALID_OPTION');
    assert.match(sync.error.message, /verifyCallbackAsync/);
  });
});

describe('prepareRequest / prepareCallback', () => {
  test('prepareRequest + any RSA implementation = signRequest', async () => {
    const c = signatures.find((v) => v.key === 'keys/rsa2048.pkcs8.pem' && v.body.length > 20);
    const key = keyFor(apiKeys, api, c.key);
    const prepared = api.prepareRequest(c.body, key, { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options });
    assert.deepEqual(Object.keys(prepared), ['body', 'message', 'headers', 'padding', 'digest']);
    assert.equal(prepared.digest, 'single');
    assert.deepEqual(Object.keys(prepared.headers), ['x-access-timestamp', 'x-access-merchant-id', 'x-access-token']);
    const { createSign } = await import('node:crypto');
    const signature = createSign('sha256').update(prepared.message).sign(readKey(c.key));
    const text = signature.toString('base64url');
    assert.equal(prepared.padding ? text + '='.repeat((4 - (text.length % 4)) % 4) : text, c.headers['x-access-signature']);
  });

  test('prepareCallback gives the message, signature bytes, key index and the model', () => {
    const valid = callbacks.cases.find((c) => c.expect === 'ok');
    const key = readKey(callbacks.verifying_key);
    const attacker = readKey('keys/attacker2048.public.pem');
    const prepared = api.prepareCallback(valid.body, valid.headers, [attacker, key]);
    assert.equal(prepared.keyIndex, 1);
    assert.ok(prepared.signature instanceof Uint8Array);
    assert.equal(prepared.signature.length, 256);
    assert.equal(prepared.message, api.canonicalMessage(valid.body, valid.headers['x-access-timestamp']));
    assert.deepEqual(prepared.callback, api.verifyCallback(valid.body, valid.headers, [attacker, key], { backend: 'wasm' }));
    assert.equal(prepared.callbackError, null);
  });
});
