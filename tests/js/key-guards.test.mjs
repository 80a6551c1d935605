// The key checks of the package's own key classes (pkg-template/core.mjs) through both
// entries of the package: the Node build (`require`; `import` gives the same functions)
// and the web build (after initSync). A freed key, or a value that is not a key of this
// module where a SigningKey is expected, throws the package's INVALID_ARGUMENT error from
// JS, before the wasm is entered: the glue's own errors had no `.code`, and the freed-key
// one was thrown through the wasm frames, leaking a shadow-stack frame per call. Verifying
// keys are read by the wasm itself (src/wasm/keys.rs), in its own order of checks; the
// core tells it which of its key objects are freed, and the wasm names them as freed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cjs, esm, pkgDir, readKey, readVectors } from './helpers.mjs';

const webUrl = pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href;
const webWasm = path.join(pkgDir, 'web', 'payment_intake_bg.wasm');
const web = await import(webUrl);
web.initSync({ module: fs.readFileSync(webWasm) });

const privatePem = readKey('keys/rsa2048.pkcs8.pem');
const publicPem = readKey('keys/rsa2048.public.pem');
const signatureVector = readVectors('signatures.json').find((v) => v.name === 'callback / rsa2048');
const callbacks = readVectors('callbacks.json');
const goodCallback = callbacks.cases.find((c) => c.expect === 'ok');
const FREED = "is a key that was freed (free() was called on it)";

/** `fn()` must throw the package's INVALID_ARGUMENT error; returns its message. */
function invalidArgument(label, fn) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `${label}: returned`);
  assert.ok(caught instanceof Error && !(caught instanceof WebAssembly.RuntimeError), `${label}: ${caught}`);
  assert.equal(caught.name, 'PaymentIntakeError', `${label}: ${caught.message}`);
  assert.equal(caught.code, 'INVALID_ARGUMENT', `${label}: ${caught.message}`);
  return caught.message;
}

async function invalidArgumentAsync(label, fn) {
  let caught;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof Error, `${label}: ${caught}`);
  assert.equal(caught.name, 'PaymentIntakeError', `${label}: ${caught.message}`);
  assert.equal(caught.code, 'INVALID_ARGUMENT', `${label}: ${caught.message}`);
  return caught.message;
}

/** Signs a known vector to its exact headers and verifies a known callback. */
function assertAlive(api, key, after) {
  const signed = api.signRequest(signatureVector.body, key, {
    merchantId: signatureVector.merchant_id,
    timestamp: signatureVector.headers['x-access-timestamp'],
    options: signatureVector.options,
  });
  assert.deepEqual(signed.headers, signatureVector.headers, `signing after ${after}`);
  const verified = api.verifyCallback(goodCallback.body, goodCallback.headers, readKey(callbacks.verifying_key));
  assert.equal(verified.paymentId, JSON.parse(goodCallback.body).general.payment_id, `verifying after ${after}`);
}

const builds = { node: cjs, web };

test('import and require give the same guarded functions; the web entry has its own, and no private names', async () => {
  for (const name of ['signRequest', 'prepareRequest', 'signRequestAsync', 'SigningKey', 'VerifyingKey']) assert.equal(esm[name], cjs[name], name);
  // The web build's index.js exports its own functions and key classes, which wrap the glue's.
  const glue = await import(pathToFileURL(path.join(pkgDir, 'web', 'payment_intake.js')).href);
  for (const name of ['signRequest', 'prepareRequest', 'SigningKey', 'VerifyingKey']) assert.notEqual(web[name], glue[name], name);
  assert.deepEqual(Object.keys(web).filter((name) => name.startsWith('__')), []);
});

for (const [build, api] of Object.entries(builds)) {
  const other = build === 'node' ? web : cjs;
  describe(`pkg/${build}`, () => {
    const live = api.SigningKey.fromPem(privatePem);
    const liveVerifying = api.VerifyingKey.fromPem(publicPem);
    const signers = {
      signRequest: (key) => api.signRequest({}, key, { merchantId: 'm', timestamp: 1 }),
      prepareRequest: (key) => api.prepareRequest({}, key, { merchantId: 'm', timestamp: 1 }),
    };
    const asyncSigners = {
      'signRequestAsync (native)': (key) => api.signRequestAsync({}, key, { merchantId: 'm', timestamp: 1 }),
      'signRequestAsync (wasm)': (key) => api.signRequestAsync({}, key, { merchantId: 'm', timestamp: 1, backend: 'wasm' }),
    };

    test('what is not a live SigningKey of this module is refused by every function that signs, naming what it is', async () => {
      const freed = api.SigningKey.fromPem(privatePem);
      freed.free();
      const freedVerifying = api.VerifyingKey.fromPem(publicPem);
      freedVerifying.free();
      const revocable = Proxy.revocable({}, {});
      revocable.revoke();
      const cases = [
        ['a freed SigningKey', freed, `'signingKey' ${FREED}`],
        ['a PEM string', privatePem, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not a string"],
        ['a number', 7, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not a number"],
        ['a BigInt', 7n, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not a BigInt"],
        ['a plain object', {}, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not an object"],
        ['an array of a key', [live], "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not an array"],
        ['null', null, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not null"],
        ['undefined', undefined, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not undefined"],
        ['a VerifyingKey', liveVerifying, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not a VerifyingKey"],
        ['a freed VerifyingKey', freedVerifying, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not a VerifyingKey"],
        ['a SigningKey of the other build', other.SigningKey.fromPem(privatePem), "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not an object"],
        ['an object made from the prototype', Object.create(api.SigningKey.prototype), "'signingKey' is not a SigningKey made by this package (SigningKey.fromPem() or SigningKey.generate())"],
        ['the prototype with a pointer set', Object.assign(Object.create(api.SigningKey.prototype), { __wbg_ptr: 8 }), "'signingKey' is not a SigningKey made by this package (SigningKey.fromPem() or SigningKey.generate())"],
        ['a revoked Proxy', revocable.proxy, "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not an object"],
        ['a Proxy of a live key', new Proxy(live, {}), "'signingKey' is not a SigningKey made by this package (SigningKey.fromPem() or SigningKey.generate())"],
        ['a Proxy whose getPrototypeOf throws', new Proxy({}, { getPrototypeOf() { throw new Error('mine'); } }), "'signingKey' must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not an object"],
      ];
      for (const [label, key, message] of cases) {
        for (const [name, sign] of Object.entries(signers)) assert.equal(invalidArgument(`${name} with ${label}`, () => sign(key)), message, `${name} with ${label}`);
        for (const [name, sign] of Object.entries(asyncSigners)) assert.equal(await invalidArgumentAsync(`${name} with ${label}`, () => sign(key)), message, `${name} with ${label}`);
      }
      assertAlive(api, live, 'the refused keys');
    });

    test('every method and getter of a freed key throws; free() and Symbol.dispose of a freed key do nothing', () => {
      const keys = { SigningKey: api.SigningKey.fromPem(privatePem), VerifyingKey: api.VerifyingKey.fromPem(publicPem) };
      const expected = { SigningKey: ['bits', 'privateKeyPem', 'publicKeyPem', 'token', 'verifyingKey'], VerifyingKey: ['bits', 'publicKeyPem', 'token'] };
      for (const [cls, key] of Object.entries(keys)) {
        const proto = api[cls].prototype;
        // Every member of the prototype, so that a method added later is covered too.
        const members = Reflect.ownKeys(proto).filter((m) => typeof m === 'string' && !['constructor', 'free', '__destroy_into_raw'].includes(m));
        assert.deepEqual([...members].sort(), expected[cls], cls);
        const getter = (m) => typeof Object.getOwnPropertyDescriptor(proto, m).get === 'function';
        // While live, each works.
        for (const m of members) assert.notEqual(getter(m) ? key[m] : key[m](), undefined, `${cls}.${m} while live`);
        key.free();
        for (const m of members) {
          const label = getter(m) ? `${cls}.${m}` : `${cls}.${m}()`;
          assert.equal(invalidArgument(label, () => (getter(m) ? key[m] : key[m]())), `'${label}' was called on a key that was freed (free() was called on it)`);
        }
        assert.equal(key.free(), undefined);
        if (Symbol.dispose) assert.equal(key[Symbol.dispose](), undefined);
        // The key exposes nothing of the glue object it wraps (whose free() the lifecycle tests measure).
        assert.equal('__wbg_ptr' in key, false);
        // Called on something else than a key of this module.
        for (const [label, self] of [['an object', Object.create(proto)], ['undefined', undefined], ['a string', 'key']]) {
          const name = getter('token') ? `${cls}.token` : `${cls}.token()`;
          assert.equal(invalidArgument(`${name} on ${label}`, () => proto.token.call(self)), `'${name}' was called on ${label}, not on a ${cls} made by this package`);
          assert.equal(proto.free.call(self), undefined, `free() on ${label}`);
        }
      }
      assertAlive(api, live, 'methods of freed keys');
    });

    test('keys made by the wasm (fromPem, generate, verifyingKey()) are genuine; free() then frees', () => {
      const key = api.SigningKey.fromPem(privatePem);
      const derived = key.verifyingKey();
      assert.equal(derived.token(), liveVerifying.token());
      assert.equal(api.prepareRequest({}, key, { merchantId: 'm', timestamp: 1 }).headers['x-access-token'], derived.token());
      derived.free();
      key.free();
      assert.equal(invalidArgument('derived key after free', () => derived.token()), "'VerifyingKey.token()' was called on a key that was freed (free() was called on it)");
      assert.equal(invalidArgument('signRequest after free', () => signers.signRequest(key)), `'signingKey' ${FREED}`);
      const generated = api.SigningKey.generate();
      const prepared = api.prepareRequest({}, generated, { merchantId: 'm', timestamp: 1 });
      assert.equal(prepared.headers['x-access-token'], generated.token());
      generated.free();
      assert.equal(invalidArgument('generated key after free', () => signers.prepareRequest(generated)), `'signingKey' ${FREED}`);
    });

    test('verifying keys: a freed one is named as freed by every verifier, alone or in a rotation array', async () => {
      const freed = api.VerifyingKey.fromPem(publicPem);
      freed.free();
      const freedSigning = api.SigningKey.fromPem(privatePem);
      freedSigning.free();
      const { body, headers } = goodCallback;
      const current = api.VerifyingKey.fromPem(readKey(callbacks.verifying_key));
      for (const bad of [freed, freedSigning]) {
        for (const keys of [bad, [bad], [current, bad], [bad, current]]) {
          const label = `${Array.isArray(keys) ? `[${keys.map((k) => (k === bad ? 'freed' : 'live')).join(', ')}]` : 'a freed key'} (${bad.constructor.name})`;
          const message = `'verifyingKey' ${FREED}`;
          assert.equal(invalidArgument(`verifyCallback ${label}`, () => api.verifyCallback(body, headers, keys)), message);
          assert.equal(invalidArgument(`prepareCallback ${label}`, () => api.prepareCallback(body, headers, keys)), message);
          for (const backend of ['native', 'wasm']) {
            if (build === 'web' && backend === 'native' && !globalThis.crypto?.subtle) continue;
            assert.equal(await invalidArgumentAsync(`verifyCallbackAsync ${label}`, () => api.verifyCallbackAsync(body, headers, keys, { backend })), message);
          }
          if (!Array.isArray(keys) || keys.length === 1) {
            assert.equal(invalidArgument(`diagnoseCallback ${label}`, () => api.diagnoseCallback(body, headers, keys)), message);
          }
        }
      }
      // The live key alone still verifies.
      assert.equal(api.verifyCallback(body, headers, [current]).verification.keyIndex, 0);
    });

    test('verifying keys are found again by their PEM (as JS strings, then as text), never another key', () => {
      const { body, headers } = goodCallback;
      const genuinePem = readKey(callbacks.verifying_key);
      const attackerPem = readKey('keys/attacker2048.public.pem');
      const attacker = api.VerifyingKey.fromPem(attackerPem);
      const genuine = api.VerifyingKey.fromPem(genuinePem);
      // More texts than either cache holds (16): the same key with trailing blank lines,
      // each a new JS string, between uses of another key.
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 20; i++) {
          const text = genuinePem + '\n'.repeat(i);
          assert.equal(api.verifyCallback(body, headers, text).verification.keyIndex, 0, `round ${round}, PEM + ${i} newlines`);
          assert.equal(api.verifyCallback(body, headers, `${text}`).verification.keyIndex, 0);
          assert.throws(() => api.verifyCallback(body, headers, attackerPem), { code: 'INVALID_PUBLIC_KEY' });
          assert.throws(() => api.verifyCallback(body, headers, attacker), { code: 'INVALID_PUBLIC_KEY' });
          assert.equal(api.verifyCallback(body, headers, [attacker, genuine]).verification.keyIndex, 1);
          assert.equal(api.verifyCallback(body, headers, [text, attackerPem]).verification.keyIndex, 0);
        }
      }
      attacker.free();
      genuine.free();
    });
  });
}

// ---------------------------------------------------------------------------

describe('the wasm is not entered', () => {
  // In a child per build, the instance's exports are seen through a Proxy that records
  // every export the glue reads (it reads `wasm.<name>` for each call into the wasm).
  function run(build, body) {
    const load =
      build === 'web'
        ? `const api = await import(${JSON.stringify(webUrl)}); api.initSync({ module: fs.readFileSync(${JSON.stringify(webWasm)}) });`
        : `const api = require(${JSON.stringify(pkgDir)});`;
    const script = `
      const fs = require('node:fs');
      const entered = [];
      let recording = false;
      const Instance = WebAssembly.Instance;
      WebAssembly.Instance = function (module, imports) {
        const instance = new Instance(module, imports);
        return { exports: new Proxy(instance.exports, { get(target, name) { if (recording) entered.push(String(name)); return Reflect.get(target, name); } }) };
      };
      const record = (fn) => { entered.length = 0; recording = true; try { fn(); } catch (error) { if (error.code !== 'INVALID_ARGUMENT') throw error; } finally { recording = false; } return [...entered]; };
      (async () => {
        ${load}
        WebAssembly.Instance = Instance;
        const privatePem = fs.readFileSync(${JSON.stringify(path.join(pkgDir, '..', 'tests', 'vectors', 'keys', 'rsa2048.pkcs8.pem'))}, 'utf8');
        const publicPem = fs.readFileSync(${JSON.stringify(path.join(pkgDir, '..', 'tests', 'vectors', 'keys', 'rsa2048.public.pem'))}, 'utf8');
        const result = await (async () => { ${body} })();
        process.stdout.write(JSON.stringify(result));
      })().catch((error) => { console.error(error); process.exit(1); });
    `;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout);
  }

  for (const build of ['node', 'web']) {
    test(`pkg/${build}: no export is called for a freed or wrong-type SigningKey, a method of a freed key, or free() of one`, () => {
      const result = run(
        build,
        `
        const key = api.SigningKey.fromPem(privatePem);
        const verifying = api.VerifyingKey.fromPem(publicPem);
        const headers = { 'x-access-timestamp': '1', 'x-access-merchant-id': 'm', 'x-access-signature': 'AA', 'x-access-token': 'AA' };
        // A live key does reach the wasm, so the recording can see it.
        const whileLive = { token: record(() => key.token()), signRequest: record(() => api.signRequest({}, key, { merchantId: 'm', timestamp: 1 })) };
        const freeLive = [record(() => key.free()), record(() => verifying.free())];
        const refused = {
          'token()': record(() => key.token()),
          'bits': record(() => key.bits),
          'privateKeyPem()': record(() => key.privateKeyPem()),
          'VerifyingKey.publicKeyPem()': record(() => verifying.publicKeyPem()),
          'free() again': record(() => key.free()),
          'VerifyingKey free() again': record(() => verifying.free()),
          'signRequest, freed key': record(() => api.signRequest({}, key, { merchantId: 'm', timestamp: 1 })),
          'prepareRequest, freed key': record(() => api.prepareRequest({}, key, { merchantId: 'm', timestamp: 1 })),
          'signRequest, a string': record(() => api.signRequest({}, privatePem, { merchantId: 'm', timestamp: 1 })),
          'prepareRequest, a VerifyingKey': record(() => api.prepareRequest({}, verifying, { merchantId: 'm', timestamp: 1 })),
        };
        // verifyCallback itself runs in the wasm (it reads the keys); the freed key's
        // publicKeyPem() does not go back into it.
        const verify = record(() => api.verifyCallback('{}', headers, verifying));
        return { whileLive, freeLive, refused, verify };
      `,
      );
      assert.ok(result.whileLive.token.includes('signingkey_token'), JSON.stringify(result.whileLive));
      assert.ok(result.whileLive.signRequest.some((name) => /signRequest/.test(name)), JSON.stringify(result.whileLive));
      // free() of a live key frees its wasm memory.
      assert.ok(result.freeLive[0].includes('__wbg_signingkey_free'), JSON.stringify(result.freeLive));
      assert.ok(result.freeLive[1].includes('__wbg_verifyingkey_free'), JSON.stringify(result.freeLive));
      for (const [name, entered] of Object.entries(result.refused)) assert.deepEqual(entered, [], name);
      assert.ok(result.verify.some((name) => /verifyCallback|prepareCallback/i.test(name)), JSON.stringify(result.verify));
      assert.ok(!result.verify.some((name) => /^(signingkey|verifyingkey)_/.test(name)), JSON.stringify(result.verify));
    });
  }
});
