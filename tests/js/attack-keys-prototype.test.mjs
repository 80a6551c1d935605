// Attacks on how verifying keys are read (src/wasm/keys.rs, pkg-template/): through the
// prototype chain and through a key object's own methods, and on the option objects the
// package hands node:crypto. Each of these accepted a callback signed by another key, or
// refused every genuine one, on the build before they were fixed:
// - a keys array with a hole (`keys.length = 2` after one key) was filled from
//   `Array.prototype` or `Object.prototype` (the items were read with `Reflect.get`);
// - a key object that is not the package's own had `publicKeyPem()` called twice, once to
//   choose the key and once for node:crypto, so its second answer verified the signature;
// - `Object.prototype.padding = false` (or another option node:crypto reads) made
//   node:crypto fail every callback, genuine ones included.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { caught, cjs, esm, readKey, readVectors, throwsCode } from './helpers.mjs';

const builds = [
  ['import', esm],
  ['require', cjs],
];
const TS = 1700000000;
const body = readVectors('callbacks.json').cases.find((c) => c.expect === 'ok').body;
const servicePem = readKey('keys/rsa2048.public.pem');
const attackerPem = readKey('keys/attacker2048.public.pem');

/** A callback as `signer` (a SigningKey) sends it, now (within the tolerance). */
function sent(api, signer, timestamp = Math.floor(Date.now() / 1000)) {
  return api.signRequest(body, signer, { merchantId: 'merchant-1', timestamp });
}

/** Runs `fn` with `object[name] = value`, removed again whatever `fn` does. */
async function withMember(object, name, value, fn) {
  Object.defineProperty(object, name, { value, configurable: true, writable: true, enumerable: false });
  try {
    return await fn();
  } finally {
    delete object[name];
  }
}

/** Every way a callback is verified against `keys`, each expected to throw `code`. */
async function refusedEverywhere(api, label, message, keys, code) {
  for (const options of [{}, { backend: 'wasm' }]) {
    throwsCode(() => api.verifyCallback(message.body, message.headers, keys, options), code, `${label}: verifyCallback ${JSON.stringify(options)}`);
    const error = await caught(() => api.verifyCallbackAsync(message.body, message.headers, keys, options));
    assert.equal(error.code, code, `${label}: verifyCallbackAsync ${JSON.stringify(options)}: ${error.message}`);
  }
}

test('a keys array with a hole is refused, not filled from Array.prototype or Object.prototype', async () => {
  for (const [name, api] of builds) {
    const attacker = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
    const service = api.VerifyingKey.fromPem(servicePem);
    const forged = sent(api, attacker);
    for (const [where, prototype] of [
      ['Array.prototype', Array.prototype],
      ['Object.prototype', Object.prototype],
    ]) {
      for (const [kind, inherited] of [
        ['PEM', attackerPem],
        ['VerifyingKey', api.VerifyingKey.fromPem(attackerPem)],
      ]) {
        const label = `${name}, ${where}[1] = ${kind}`;
        await withMember(prototype, 1, inherited, async () => {
          const keys = [service];
          keys.length = 2;
          await refusedEverywhere(api, label, forged, keys, 'INVALID_ARGUMENT');
          const error = throwsCode(() => api.prepareCallback(forged.body, forged.headers, keys), 'INVALID_ARGUMENT', `${label}: prepareCallback`);
          assert.match(error.message, /^'verifyingKey' /, error.message);
          assert.match(error.message, /index 1/, error.message);
          throwsCode(() => api.diagnoseCallback(forged.body, forged.headers, keys), 'INVALID_ARGUMENT', `${label}: diagnoseCallback`);
          // A hole is refused whatever fills it: the genuine key's callback too.
          const genuineKeys = [service];
          genuineKeys.length = 2;
          throwsCode(() => api.verifyCallback(forged.body, forged.headers, genuineKeys), 'INVALID_ARGUMENT', `${label}: hole`);
        });
      }
    }
    // With nothing inherited, a hole is refused too, and an array without one still verifies.
    const keys = [service];
    keys.length = 2;
    await refusedEverywhere(api, `${name}, a bare hole`, forged, keys, 'INVALID_ARGUMENT');
    const project = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const genuine = sent(api, project);
    assert.equal(api.verifyCallback(genuine.body, genuine.headers, [attackerPem, service]).verification.keyIndex, 1);
    assert.equal((await api.verifyCallbackAsync(genuine.body, genuine.headers, [attackerPem, service])).verification.keyIndex, 1);
    // An own item that is a getter is still read (once), as an own property.
    let reads = 0;
    const withGetter = [attackerPem];
    Object.defineProperty(withGetter, 1, { get: () => (reads++, service), enumerable: true });
    assert.equal(api.verifyCallback(genuine.body, genuine.headers, withGetter).verification.keyIndex, 1);
    assert.equal(reads, 1, 'the getter ran once');
    for (const key of [attacker, service, project]) key.free();
  }
});

test("a key object that is not the package's own is read once per call: its second answer verifies nothing", async () => {
  for (const [name, api] of builds) {
    const attacker = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
    const service = api.VerifyingKey.fromPem(servicePem);
    // Signed by the attacker, with the service's token: the key chosen is the service's.
    const signed = sent(api, attacker);
    const forged = { body: signed.body, headers: { ...signed.headers, 'x-access-token': service.token() } };
    let calls = 0;
    const shifty = {
      publicKeyPem() {
        calls += 1;
        return calls % 2 === 1 ? servicePem : attackerPem;
      },
    };
    for (const options of [{}, { backend: 'wasm' }, { backend: 'native' }]) {
      calls = 0;
      throwsCode(() => api.verifyCallback(forged.body, forged.headers, shifty, options), 'INVALID_SIGNATURE', `${name}: verifyCallback ${JSON.stringify(options)}`);
      assert.equal(calls, 1, `${name}: verifyCallback ${JSON.stringify(options)} called publicKeyPem() ${calls} times`);
      calls = 0;
      const error = await caught(() => api.verifyCallbackAsync(forged.body, forged.headers, shifty, options));
      assert.equal(error.code, 'INVALID_SIGNATURE', `${name}: verifyCallbackAsync ${JSON.stringify(options)}: ${error.message}`);
      assert.equal(calls, 1, `${name}: verifyCallbackAsync ${JSON.stringify(options)} called publicKeyPem() ${calls} times`);
    }
    // In an array, the same.
    calls = 0;
    throwsCode(() => api.verifyCallback(forged.body, forged.headers, [attackerPem, shifty]), 'INVALID_SIGNATURE', `${name}: in an array`);
    assert.equal(calls, 1);
    // A genuine callback still verifies with such an object, its PEM read once.
    const project = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const genuine = sent(api, project);
    let reads = 0;
    const plain = { publicKeyPem: () => (reads++, servicePem) };
    assert.equal(api.verifyCallback(genuine.body, genuine.headers, plain).status, JSON.parse(body).status.status);
    assert.equal((await api.verifyCallbackAsync(genuine.body, genuine.headers, plain)).status, JSON.parse(body).status.status);
    assert.equal(reads, 2, 'once per call');
    for (const key of [attacker, service, project]) key.free();
  }
});

test('options inherited from Object.prototype change nothing of what node:crypto does', async () => {
  for (const [name, api] of builds) {
    // Fresh keys: their native keys are made under the polluted prototype too.
    const project = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
    const service = api.VerifyingKey.fromPem(servicePem);
    const expected = sent(api, project, TS);
    for (const [member, value] of [
      ['padding', false],
      ['padding', 3],
      ['saltLength', 'x'],
      ['dsaEncoding', 'x'],
      ['passphrase', 5],
    ]) {
      const label = `${name}, Object.prototype.${member} = ${JSON.stringify(value)}`;
      const fresh = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
      const freshPublic = api.VerifyingKey.fromPem(servicePem);
      await withMember(Object.prototype, member, value, async () => {
        for (const signer of [project, fresh]) {
          assert.deepEqual(api.signRequest(body, signer, { merchantId: 'merchant-1', timestamp: TS }), expected, `${label}: signRequest`);
          assert.deepEqual(await api.signRequestAsync(body, signer, { merchantId: 'merchant-1', timestamp: TS }), expected, `${label}: signRequestAsync`);
        }
        const genuine = sent(api, project);
        for (const keys of [service, freshPublic, servicePem, [attackerPem, servicePem], { publicKeyPem: () => servicePem }]) {
          assert.equal(api.verifyCallback(genuine.body, genuine.headers, keys).verification.merchantId, 'merchant-1', `${label}: verifyCallback`);
          const verified = await api.verifyCallbackAsync(genuine.body, genuine.headers, keys);
          assert.equal(verified.verification.merchantId, 'merchant-1', `${label}: verifyCallbackAsync`);
        }
      });
      fresh.free();
      freshPublic.free();
    }
    project.free();
    service.free();
  }
});
