// Attacks on the newest fast paths that held (regressions): the sync check's in-place read
// after a key getter (read once, by the wasm) called the package and grew wasm memory, verifyCallbackAsync's checked
// copy under concurrent forged and genuine bodies whose buffers change during the await, and
// a Fetch Headers read by the platform's get whatever its instance or prototype say later.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { caught, esm as api, pkgDir, readKey, throwsCode } from './helpers.mjs';
import { heldCallbacks } from './support/pending.mjs';

const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));
const privatePem = readKey('keys/rsa2048.pkcs8.pem');
const publicPem = readKey('keys/rsa2048.public.pem');
const token = api.VerifyingKey.fromPem(publicPem).token();
const timestamp = String(Math.floor(Date.now() / 1000));
const callback = (status, extra) => JSON.stringify({ project_id: 'p', general: { request_id: 'r', payment_id: 'o' }, status: { status, sub_status: 'n', status_description: null }, zz: 'q'.repeat(300), ...extra });
const genuine = callback('processing');
const forged = callback('success');
const headers = {
  'x-access-timestamp': timestamp,
  'x-access-merchant-id': 'm1',
  'x-access-signature': crypto.sign('sha256', Buffer.from(api.canonicalMessage(genuine, timestamp)), privatePem).toString('base64url'),
  'x-access-token': token,
};
const expected = JSON.stringify(api.verifyCallback(genuine, headers, publicPem, { backend: 'wasm' }));

/**
 * `keys` whose item 0 is `key`, read through a getter that runs `during` first. The keys are
 * read once per call, by the wasm, before it places the bytes the check reads: the check
 * never reads the caller's keys again (tests/js/attack-keys-prototype.test.mjs).
 */
function keysCalling(key, during) {
  const keys = [];
  Object.defineProperty(keys, 0, { get: () => (keys.reads++, during(), key), enumerable: true });
  keys.reads = 0;
  return keys;
}

test('the sync check reads its bytes in place after a key getter called the package and grew wasm memory', () => {
  for (const key of [publicPem, api.VerifyingKey.fromPem(publicPem)]) {
    let grew = false;
    const during = () => {
      const before = glue.__memory({}).value.buffer.byteLength;
      const kept = [];
      for (let i = 0; i < 5000 && glue.__memory({}).value.buffer.byteLength === before; i++) kept.push(api.VerifyingKey.fromPem(publicPem));
      grew ||= glue.__memory({}).value.buffer.byteLength !== before;
      for (const k of kept) k.free();
      api.canonicalMessage(JSON.stringify({ big: 'y'.repeat(60000) }), '1700000000');
      throwsCode(() => api.verifyCallback(forged, headers, publicPem), 'INVALID_SIGNATURE');
      assert.equal(JSON.stringify(api.verifyCallback(genuine, headers, publicPem)), expected);
    };
    const keys = keysCalling(key, during);
    assert.equal(JSON.stringify(api.verifyCallback(genuine, headers, keys)), expected);
    throwsCode(() => api.verifyCallback(forged, headers, keys), 'INVALID_SIGNATURE');
    assert.equal(keys.reads, 2, 'the key was read once per call');
    assert.ok(grew, 'wasm memory did not grow during the call');
  }
  // A getter that throws is the wasm's read of the keys failing, before any check.
  throwsCode(() => api.verifyCallback(genuine, headers, keysCalling(publicPem, () => { throw new Error('key getter'); })), 'INVALID_ARGUMENT');
  assert.equal(JSON.stringify(api.verifyCallback(genuine, headers, publicPem)), expected);
});

test('verifyCallbackAsync: concurrent forged and genuine bodies, buffers changed during the await', async () => {
  const runs = [];
  for (let i = 0; i < 60; i++) {
    const bytes = Buffer.from(i % 3 === 0 ? forged : genuine);
    runs.push(api.verifyCallbackAsync(i % 2 ? bytes : bytes.toString(), headers, publicPem).then((model) => JSON.stringify(model), (error) => error.code));
    // The genuine body's bytes turned into the forged one's while its check is awaited.
    bytes.write('success   ', bytes.indexOf('processing') >= 0 ? bytes.indexOf('processing') : 0);
  }
  const outcomes = await Promise.all(runs);
  outcomes.forEach((outcome, i) => assert.equal(outcome, i % 3 === 0 ? 'INVALID_SIGNATURE' : expected, `call ${i}`));
  assert.equal(heldCallbacks(glue, { body: genuine, headers, keys: [publicPem] }), 0);
  const error = await caught(() => api.verifyCallbackAsync(genuine, headers, keysCalling(publicPem, () => { throw new Error('key getter'); })));
  assert.equal(error.code, 'INVALID_ARGUMENT');
  assert.equal(heldCallbacks(glue, { body: genuine, headers, keys: [publicPem] }), 0);
});

test('a Fetch Headers is read by the platform get: an own get, or Headers.prototype.get replaced later, changes nothing', () => {
  const asMap = JSON.stringify(api.verifyCallback(genuine, new Map(Object.entries(headers)), publicPem));
  const own = new Headers(headers);
  own.get = () => 'evil';
  assert.equal(JSON.stringify(api.verifyCallback(genuine, own, publicPem)), asMap);
  const platformGet = Headers.prototype.get;
  Headers.prototype.get = function (name) {
    return name === 'x-access-merchant-id' ? 'patched' : platformGet.call(this, name);
  };
  try {
    assert.equal(JSON.stringify(api.verifyCallback(genuine, new Headers(headers), publicPem)), asMap);
  } finally {
    Headers.prototype.get = platformGet;
  }
  const twice = new Headers(headers);
  twice.append('x-access-merchant-id', 'm2');
  throwsCode(() => api.verifyCallback(genuine, twice, publicPem), 'INVALID_HEADER');
  throwsCode(() => api.verifyCallback(genuine, new Map([...twice]), publicPem), 'INVALID_HEADER');
});
