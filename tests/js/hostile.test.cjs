// Hostile input through require('payment-intake') (the CommonJS build a merchant's
// Express/Fastify backend loads): a representative subset of hostile.test.mjs, with
// the same rule: a coded Error every time, and the module still signs and verifies
// known vectors afterwards.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const vectors = path.join(root, 'tests', 'vectors');
const read = (name) => JSON.parse(fs.readFileSync(path.join(vectors, name), 'utf8'));
const key = (relative) => fs.readFileSync(path.join(vectors, relative), 'utf8');

const pi = require(path.join(root, 'pkg'));

const CODES = new Set(pi.errorCodes());
const signingKey = pi.SigningKey.fromPem(key('keys/rsa2048.pkcs8.pem'));
const verifyingKey = pi.VerifyingKey.fromPem(key('keys/rsa2048.public.pem'));
const vector = read('signatures.json').find((v) => v.name === 'callback / rsa2048');
const callback = read('callbacks.json').cases.find((c) => c.expect === 'ok');
const TS = 1700000000;

function assertAlive(after) {
  const signed = pi.signRequest(vector.body, signingKey, { merchantId: vector.merchant_id, timestamp: TS, options: vector.options });
  assert.deepEqual(signed.headers, vector.headers, `signing after ${after}`);
  assert.equal(pi.verifyCallback(callback.body, callback.headers, verifyingKey).verification.keyIndex, 0, `verifying after ${after}`);
}

function rejects(label, fn, code) {
  let caught;
  let threw = false;
  try {
    fn();
  } catch (error) {
    threw = true;
    caught = error;
  }
  assert.ok(threw, `${label}: returned`);
  assert.ok(caught instanceof Error && !(caught instanceof WebAssembly.RuntimeError), `${label}: ${caught}`);
  assert.ok(CODES.has(caught.code), `${label}: no documented .code: ${caught.message}`);
  if (code) assert.equal(caught.code, code, `${label}: ${caught.message}`);
  assertAlive(label);
}

const verify = (body, headers) => pi.verifyCallback(body, headers, verifyingKey);

test('deep nesting, 50 MB and million-digit bodies through require()', () => {
  rejects('2,000 nested arrays', () => verify(`{"a":${'['.repeat(2e3)}${']'.repeat(2e3)}}`, callback.headers), 'BODY_TOO_DEEP');
  rejects('100,000 nested arrays (200 KB)', () => verify(`{"a":${'['.repeat(1e5)}${']'.repeat(1e5)}}`, callback.headers), 'BODY_TOO_LARGE');
  let deep = {};
  const top = deep;
  for (let i = 0; i < 1e5; i += 1) deep = deep.a = {};
  rejects('100,000 nested objects', () => pi.canonicalEntries(top), 'BODY_TOO_DEEP');
  rejects('50 MB Buffer', () => verify(Buffer.alloc(50e6, 0x20), callback.headers), 'BODY_TOO_LARGE');
  rejects('ten thousand digits', () => verify(`{"a":${'1'.repeat(1e4)}}`, callback.headers), 'INVALID_NUMBER');
  rejects('a million digits', () => verify(`{"a":${'1'.repeat(1e6)}}`, callback.headers), 'BODY_TOO_LARGE');
});

test('lone surrogates, __proto__ keys and values JSON cannot carry', () => {
  rejects('lone surrogate value', () => pi.canonicalEntries({ a: '\ud800' }), 'INVALID_BODY');
  rejects('lone surrogate key', () => pi.canonicalEntries({ '\udc00': 1 }), 'INVALID_BODY');
  rejects('NaN', () => pi.canonicalEntries({ a: NaN }), 'INVALID_BODY');
  rejects('a class instance', () => pi.signRequest(new (class X {})(), signingKey, { merchantId: 'm', timestamp: TS }), 'INVALID_BODY');
  rejects('a throwing getter', () => pi.canonicalEntries({ get a() { throw new Error('x'); } }), 'INVALID_BODY');
  rejects('a throwing Proxy as options', () => pi.canonicalEntries({}, new Proxy({}, { ownKeys() { throw new Error('x'); } })), 'INVALID_OPTION');
  const text = '{"__proto__":{"polluted":1}}';
  assert.deepEqual(pi.canonicalEntries(text), ['__proto__:polluted:1']);
  const parsed = pi.parseCallback(`{"project_id":"p","general":{"payment_id":"x"},"status":{"status":"new"},${text.slice(1)}`);
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.ok(!Object.hasOwn(parsed, 'raw'), 'the model carries no body-derived member');
  assert.equal(parsed.polluted, undefined);
  assert.equal({}.polluted, undefined);
});

test('headers, signatures and timestamps', () => {
  rejects('a number header', () => verify(callback.body, { ...callback.headers, 'x-access-timestamp': TS }), 'INVALID_HEADER');
  rejects('duplicate header in another case', () => verify(callback.body, { ...callback.headers, 'X-ACCESS-TOKEN': callback.headers['x-access-token'] }), 'INVALID_HEADER');
  rejects('rawHeaders', () => verify(callback.body, Object.entries(callback.headers).flat()), 'INVALID_HEADER');
  rejects('headers as a string', () => verify(callback.body, 'x'), 'INVALID_HEADER');
  rejects('empty signature', () => verify(callback.body, { ...callback.headers, 'x-access-signature': '' }), 'INVALID_SIGNATURE');
  rejects('short signature', () => verify(callback.body, { ...callback.headers, 'x-access-signature': 'AAAA' }), 'INVALID_SIGNATURE');
  for (const ts of ['1e9', '-1', ' 1', '١٢٣', 1.5, -1, NaN, 2 ** 64]) rejects(`timestamp ${String(ts)}`, () => pi.canonicalMessage({}, ts), 'INVALID_TIMESTAMP');
});

test('wrong argument types and 5000 calls that reach caller code from inside wasm', () => {
  rejects('fromPem(42)', () => pi.VerifyingKey.fromPem(42), 'INVALID_ARGUMENT');
  rejects('verifying key as a plain object', () => pi.verifyCallback(callback.body, callback.headers, {}), 'INVALID_ARGUMENT');
  const headers = { ...callback.headers, get 'x-access-token'() { throw new Error('g'); } };
  for (let i = 0; i < 5000; i += 1) {
    try {
      verify(callback.body, headers);
    } catch (error) {
      assert.equal(error.code, 'INVALID_HEADER');
    }
  }
  assertAlive('5000 throwing header getters');
});
