// The package from a CommonJS merchant backend: plain require(), no init call.
'use strict';

const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { describe, test } = require('node:test');

const root = path.resolve(__dirname, '..', '..');
const vectors = path.join(root, 'tests', 'vectors');
const read = (name) => JSON.parse(fs.readFileSync(path.join(vectors, name), 'utf8'));
const key = (relative) => fs.readFileSync(path.join(vectors, relative), 'utf8');

const pi = require(path.join(root, 'pkg'));

test('require() gives the whole API synchronously', () => {
  for (const name of ['canonicalEntries', 'canonicalMessage', 'canonicalSteps', 'signRequest', 'verifyCallback', 'diagnoseCallback', 'errorCodes']) {
    assert.equal(typeof pi[name], 'function', name);
  }
  assert.equal(typeof pi.SigningKey.fromPem, 'function');
  assert.equal(typeof pi.SigningKey.generate, 'function');
  assert.equal(typeof pi.VerifyingKey.fromPem, 'function');
});

describe('vectors through require()', () => {
  test('canonical.json', () => {
    for (const c of read('canonical.json')) {
      assert.deepEqual(pi.canonicalEntries(c.body, c.options), c.entries, c.name);
      assert.equal(pi.canonicalMessage(c.body, c.timestamp, c.options), c.message, c.name);
    }
  });

  test('signatures.json', () => {
    const keys = {};
    for (const c of read('signatures.json')) {
      keys[c.key] ??= pi.SigningKey.fromPem(key(c.key));
      const signed = pi.signRequest(c.body, keys[c.key], {
        merchantId: c.merchant_id,
        timestamp: c.headers['x-access-timestamp'],
        options: c.options,
      });
      assert.deepEqual(signed.headers, c.headers, c.name);
    }
  });

  test('callbacks.json', () => {
    const { verifying_key: vk, cases } = read('callbacks.json');
    const verifyingKey = pi.VerifyingKey.fromPem(key(vk));
    for (const c of cases) {
      if (c.expect === 'ok') {
        const { verification, ...model } = pi.verifyCallback(c.body, c.headers, verifyingKey);
        assert.deepEqual(model, pi.parseCallback(c.body), c.name);
        assert.equal(verification.ambiguous, false, c.name);
      } else {
        assert.throws(() => pi.verifyCallback(c.body, c.headers, verifyingKey), (e) => e instanceof Error && e.code === c.expect, c.name);
      }
    }
  });
});

test('errors thrown across require() are Error instances with .code', () => {
  assert.throws(
    () => pi.SigningKey.fromPem('nope'),
    (e) => e instanceof Error && e.code === 'INVALID_KEY' && typeof e.message === 'string',
  );
});
