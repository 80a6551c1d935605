// Attacks on the key classes of the JS API (pkg-template/core.mjs, src/wasm/keys.rs):
// constructors that must stay private, HMAC secrets given as text, and which key a key
// object stands for when a caller replaces its publicKeyPem method.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cjs, esm as api, readKey, readVectors, throwsCode } from './helpers.mjs';

test('new HmacKey() without an argument is refused like every other call of the private constructor', () => {
  for (const build of [api, cjs]) {
    // `making` is undefined outside fromSecret(), so `new HmacKey()` (id undefined) matched it:
    // the key was made, and signRequest with it threw the glue's Error without `.code`.
    for (const args of [[], [undefined]]) {
      throwsCode(() => new build.HmacKey(...args), 'INVALID_ARGUMENT', `new HmacKey(${args.length ? 'undefined' : ''})`);
    }
    throwsCode(() => new build.HmacKey(1), 'INVALID_ARGUMENT');
    // fromSecret still works, and the constructor is still refused after it.
    const key = build.HmacKey.fromSecret('0123456789abcdef');
    assert.equal(build.signRequest('{}', key, { merchantId: 'm', timestamp: '1700000000' }).headers['x-access-merchant-algorithm'], 'HMAC-SHA512');
    key.free();
    throwsCode(() => new build.HmacKey(), 'INVALID_ARGUMENT');
  }
});

test('an HMAC secret holding a lone surrogate is refused, not read as U+FFFD', () => {
  // The text was converted lossily: '\ud800' x 20, '\udc00' x 20 and '\ufffd' x 20 were one key.
  for (const secret of ['\ud800'.repeat(20), '\udc00'.repeat(20), `0123456789abcdef\ud83d`, `\ude00${'x'.repeat(16)}`]) {
    const error = throwsCode(() => api.HmacKey.fromSecret(secret), 'INVALID_KEY');
    assert.match(error.message, /lone UTF-16 surrogate/);
  }
  // Well-formed text outside ASCII, an astral character and U+FFFD itself are secrets as before.
  for (const secret of ['\ufffd'.repeat(20), 'é'.repeat(8), `${'😀'.repeat(4)}x`]) {
    const key = api.HmacKey.fromSecret(secret);
    key.free();
  }
  assert.equal(api.toMinorUnits('1', 'RUB'), 100);
});

test('a key object is the key it was made from, whatever publicKeyPem the caller puts on it or its class', () => {
  // The core read a key's PEM for the wasm (and the native key) through `key.publicKeyPem()`:
  // an own or prototype method ran there, and its answer named the key, so a VerifyingKey
  // of the attacker's key verified the service's callbacks; a throwing one read as "not a
  // key", a non-string as "freed".
  const good = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
  const servicePem = readKey('keys/rsa2048.public.pem');
  const attackerPem = readKey('keys/attacker2048.public.pem');
  for (const build of [api, cjs]) {
    const other = build.VerifyingKey.fromPem(attackerPem);
    other.publicKeyPem = () => servicePem;
    for (const options of [{}, { backend: 'wasm' }]) {
      throwsCode(() => build.verifyCallback(good.body, good.headers, other, options), 'INVALID_PUBLIC_KEY', `own method, ${JSON.stringify(options)}`);
    }
    assert.equal(build.diagnoseCallback(good.body, good.headers, other).matched, false);

    const service = build.VerifyingKey.fromPem(servicePem);
    for (const method of [() => { throw new Error('spy'); }, () => 5]) {
      service.publicKeyPem = method;
      assert.equal(build.verifyCallback(good.body, good.headers, service).status, 'processing');
      assert.equal(build.prepareCallback(good.body, good.headers, service).keyIndex, 0);
    }

    const descriptor = Object.getOwnPropertyDescriptor(build.VerifyingKey.prototype, 'publicKeyPem');
    build.VerifyingKey.prototype.publicKeyPem = () => servicePem;
    try {
      const fresh = build.VerifyingKey.fromPem(attackerPem);
      throwsCode(() => build.verifyCallback(good.body, good.headers, fresh), 'INVALID_PUBLIC_KEY', 'prototype method');
    } finally {
      Object.defineProperty(build.VerifyingKey.prototype, 'publicKeyPem', descriptor);
    }
    assert.equal(build.verifyCallback(good.body, good.headers, servicePem).status, 'processing');
  }
});

test('a SigningKey signs with its own key, whatever privateKeyPem the caller puts on it', async () => {
  // The native provider read a key it had no source PEM for (a generated key; or any key,
  // with WebCrypto) through `signingKey.privateKeyPem()`: an own method ran there and chose
  // the key that signed, while the token named the key object's own public key.
  const { nodeVerify } = await import('./helpers.mjs');
  const other = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
  for (const build of [api, cjs]) {
    const key = build.SigningKey.generate();
    key.privateKeyPem = () => other.privateKeyPem();
    const message = build.canonicalMessage('{"a":1}', '1700000000');
    for (const sign of [build.signRequest, build.signRequestAsync]) {
      const { headers } = await sign('{"a":1}', key, { merchantId: 'm', timestamp: '1700000000' });
      assert.ok(nodeVerify(message, headers['x-access-signature'], key.publicKeyPem()), 'signed by the key object');
      assert.ok(!nodeVerify(message, headers['x-access-signature'], other.publicKeyPem()), 'not by the other key');
    }
    const spied = build.SigningKey.generate();
    spied.privateKeyPem = () => {
      throw new Error('spy');
    };
    assert.equal(build.signRequest('{}', spied, { merchantId: 'm' }).body, '{}');
  }
});
