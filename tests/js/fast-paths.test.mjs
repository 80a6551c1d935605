// The Node wrapper's shortcuts give what the general path gives: canonicalMessage
// of a string body (UTF-8 bytes straight to the one-pass reader), validateRequest
// of short text (passed as bytes), and verifyCallback's key lookup by the index
// the wasm chose (KeyObjects cached per key object and per PEM string).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { createApi } from '../../pkg-template/core.mjs';
import nodeCrypto from '../../pkg-template/node-crypto.mjs';
import { esm as api, pkgDir, readKey, readVectors, root, throwsCode } from './helpers.mjs';

const require = createRequire(import.meta.url);
// The glue the package loads in Node and the JS core (its source, pkg-template/, which the
// build bundles as it is), for a core over another provider.
const glue = require(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

const reference = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'fixtures', 'python_reference.json'), 'utf8'));
const bodies = [...readVectors('canonical.json'), ...reference.canonical].map((c) => ({ body: c.body, timestamp: c.timestamp }));

/** The general path's answer: canonicalSteps takes neither shortcut. */
function generalMessage(body, timestamp, options) {
  return api.canonicalSteps(body, timestamp, options).message;
}

describe('canonicalMessage shortcut', () => {
  test(`agrees with the general path on ${bodies.length} vector and reference bodies`, () => {
    assert.ok(bodies.length >= 300);
    for (const { body, timestamp } of bodies) {
      const expected = generalMessage(body, timestamp);
      assert.equal(api.canonicalMessage(body, timestamp), expected, body);
      assert.equal(api.canonicalMessage(Buffer.from(body, 'utf8'), timestamp), expected, body);
    }
  });

  test('hands every refusal to the general path, with its code', () => {
    const cases = [
      ['{"a":"\ud800"}', '1700000000', 'INVALID_BODY'], // lone surrogate in the string itself
      ['{"a":1,"a":2}', '1700000000', 'DUPLICATE_KEY'],
      ['{"a":', '1700000000', 'INVALID_JSON'],
      ['[1]', '1700000000', 'BODY_NOT_OBJECT'],
      [`{"a":${'['.repeat(100)}${']'.repeat(100)}}`, '1700000000', 'BODY_TOO_DEEP'],
      ['{"a":1}', '17.5', 'INVALID_TIMESTAMP'],
      ['{"a":1}', '', 'INVALID_TIMESTAMP'],
    ];
    for (const [body, timestamp, code] of cases) {
      throwsCode(() => api.canonicalMessage(body, timestamp), code);
      throwsCode(() => generalMessage(body, timestamp), code);
    }
  });

  test('a lone surrogate escape, a number marker key and options still take the exact path', () => {
    throwsCode(() => api.canonicalMessage('{"a":"\\ud800"}', '1'), 'INVALID_JSON');
    const marker = '{"$serde_json::private::Number":"1"}';
    assert.equal(api.canonicalMessage(marker, '1'), generalMessage(marker, '1'));
    const body = '{"t":true,"s":""}';
    assert.equal(api.canonicalMessage(body, '1', { booleans: 'lower', falsy: 'null' }), generalMessage(body, '1', { booleans: 'lower', falsy: 'null' }));
    assert.notEqual(api.canonicalMessage(body, '1', { booleans: 'lower' }), api.canonicalMessage(body, '1'));
  });

  // Text of more than 128 UTF-16 units is written straight into wasm memory, and the
  // message read where the wasm wrote it.
  test('text written into wasm memory gives the general path\'s message, whatever came before', () => {
    const options = [undefined, { booleans: 'lower', falsy: 'null' }, { padding: false, order: 'utf16', numbers: 'js' }];
    const long = (i) => JSON.stringify({ a: Array.from({ length: 1000 + i }, (_, j) => ({ k: `Ж${j}😀`, n: j % 3 ? j : 0 })) });
    const texts = [...bodies.map(({ body }) => body.padEnd(200, ' ')), long(0), '{"b":"x"}'.padEnd(300, '\n'), long(1200)];
    for (const text of texts) {
      for (const option of options) {
        const expected = outcome(() => generalMessage(text, '17', option));
        assert.deepEqual(outcome(() => api.canonicalMessage(text, '17', option)), expected, text.slice(0, 80));
      }
    }
  });

  test('messages of 64 KiB and more, and one past the output buffer kept, equal the general path', () => {
    // A long key over many items (entries repeat it), a string to move the length by a
    // byte, and timestamps of 1 to 4 digits: messages of every length around each multiple of 64 Ki.
    const key = 'k'.repeat(20);
    for (const target of [1 << 16, 2 << 16, 3 << 16, 5 << 16]) {
      const items = Math.floor((target * 3) / 4 / (key.length + 8));
      const body = (pad) => JSON.stringify({ [key]: Array(items).fill(1), s: 'x'.repeat(pad) });
      const from = Math.floor(((target - api.canonicalMessage(body(1), '1').length) * 3) / 4) - 8;
      const lengths = new Set();
      for (let pad = from; pad < from + 16; pad++) {
        const text = body(pad);
        for (const timestamp of ['1', '17', '170', '1700']) {
          const message = api.canonicalMessage(text, timestamp);
          assert.equal(message, generalMessage(text, timestamp));
          lengths.add(message.length - target);
        }
      }
      for (let off = -2; off <= 2; off++) assert.ok(lengths.has(off), `${target} ${off}: ${[...lengths].sort((a, b) => a - b)}`);
    }
  });

  test('refuses as the bytes path does: too large, lone surrogate, bad timestamp and options', () => {
    const cases = [
      [`{"a":"${'Ж'.repeat(40_000)}"}`, '1'], // under 64 Ki units, over 64 KiB of UTF-8
      [`{"a":"${'x'.repeat(70_000)}"}`, '1'], // over 64 Ki units: not written in place
      [`{"a":1}${' '.repeat(200)}`, '01'],
      [`{"a":1,"a":2}${' '.repeat(200)}`, '1'],
    ];
    for (const [text, timestamp] of cases) {
      const expected = outcome(() => api.canonicalMessage(Buffer.from(text, 'utf8'), timestamp));
      assert.ok(expected.code, text.slice(0, 40));
      assert.deepEqual(outcome(() => api.canonicalMessage(text, timestamp)), expected, text.slice(0, 40));
    }
    for (const pad of [200, 5000]) {
      // A lone surrogate, short and long; U+FFFD and U+FF5E (EF BF BD, EF BD 9E in UTF-8) are well-formed.
      throwsCode(() => api.canonicalMessage(`{"a":"\ud800"}${' '.repeat(pad)}`, '1'), 'INVALID_BODY');
      throwsCode(() => api.canonicalMessage(`{"a":"x${'Ж'.repeat(pad)}\udc00"}`, '1'), 'INVALID_BODY');
      for (const text of [`{"a":"\ufffd"}${' '.repeat(pad)}`, `{"a":"～${'Ж'.repeat(pad)}"}`]) assert.equal(api.canonicalMessage(text, '1'), generalMessage(text, '1'));
    }
    throwsCode(() => api.canonicalMessage(`{"a":1}${' '.repeat(200)}`, '1', { padding: 'yes' }), 'INVALID_OPTION');
  });

  test('a timestamp written in after the text reads as the one read from JS', () => {
    const text = `{"a":[1,"x"]}${' '.repeat(200)}`;
    const timestamps = ['1700000000', 1700000000, '1'.repeat(16), '1'.repeat(17), '１７', '17é', '', '0', '01', ' 1', 'abc', '1700000000000', null, undefined, {}, 1.5, -1, 2 ** 53, true];
    for (const timestamp of timestamps) {
      const expected = outcome(() => api.canonicalMessage(Buffer.from(text, 'utf8'), timestamp));
      assert.deepEqual(outcome(() => api.canonicalMessage(text, timestamp)), expected, String(timestamp));
    }
  });

  test('an options getter that calls canonicalMessage again does not disturb the outer call', () => {
    const outer = `{"outer":[1,2,3]}${' '.repeat(200)}`;
    const inner = JSON.stringify({ inner: 'Ж'.repeat(30_000) });
    let innerMessage;
    const options = {
      get booleans() {
        innerMessage = api.canonicalMessage(inner, '2');
        return 'lower';
      },
    };
    assert.equal(api.canonicalMessage(outer, '1', options), generalMessage(outer, '1', { booleans: 'lower' }));
    assert.equal(innerMessage, generalMessage(inner, '2'));
  });
});

/** What `fn` returns, or the error it throws as `{ code, message }`. */
function outcome(fn) {
  try {
    return fn();
  } catch (error) {
    return { code: error.code, message: error.message };
  }
}

describe('validateRequest of text as bytes', () => {
  const payin = '/api/v1/payment/p2p/payin';
  const texts = [
    readVectors('canonical.json').find((c) => c.name === 'payin request').body,
    '{"general":{"project_id":"p"}}',
    '{"general":1,"payment":{"amount":-5,"currency":"XXX"},"customer":{"email":"no","ip_address":"999.1.1.1"}}'.padEnd(200, ' '),
    '{"a":"\ud800"}'.padEnd(200, ' '),
    '{"a":1,"a":2}'.padEnd(200, ' '),
  ];
  test('reports what the same text as bytes and as an object report', () => {
    for (const text of texts) {
      const fromText = api.validateRequest(payin, text);
      // (Buffer.from would write a lone surrogate as U+FFFD: another body.)
      if (text.isWellFormed()) assert.deepEqual(fromText, api.validateRequest(payin, Buffer.from(text, 'utf8')), text);
      assert.ok(fromText.errors.every((issue) => typeof issue.code === 'string' && typeof issue.path === 'string'));
    }
    const object = JSON.parse(texts[2]);
    assert.deepEqual(api.validateRequest(payin, texts[2]).errors.map((e) => e.code), api.validateRequest(payin, object).errors.map((e) => e.code));
    assert.deepEqual(api.validateRequest(payin, texts[3]).errors.map((e) => e.code), ['INVALID_BODY']);
  });

  test('text without options (its UTF-8 in one copy, a clean report written by the wrapper) reports what bytes and options do', () => {
    const operations = ['/api/v1/payment/p2p/payin', '/api/v1/widget/payin', '/api/v1/payment/p2p/payout', '/api/v1/balance/info', '/api/v1/nope'];
    const base = JSON.parse(texts[0]);
    const variants = [
      base,
      { ...base, general: { ...base.general, redirect_url: 'http://127.0.0.1/cb' } },
      { ...base, payment: { ...base.payment, lifetime: 900, currency: 'KZT' }, customer: { ...base.customer, country: 'KZ' } },
      { zz: 1, ...base, customer: null, amout: [1, { pan: '4'.repeat(40) }] },
      { ...base, payment: { description: 'a;b:c', ...base.payment } },
    ];
    const all = [...variants.map((body) => JSON.stringify(body)), ...bodies.map((c) => c.body)].filter((text) => text.length > 128 && text.length <= 4096);
    assert.ok(all.length > 100, `${all.length}`);
    let clean = 0;
    for (const text of all) {
      for (const operation of operations) {
        const report = api.validateRequest(operation, text);
        assert.deepStrictEqual(report, api.validateRequest(operation, Buffer.from(text, 'utf8')), `${operation} ${text}`);
        assert.deepStrictEqual(report, api.validateRequest(operation, text, {}), `${operation} ${text}`);
        clean += report.valid && report.warnings.length === 0;
      }
    }
    assert.ok(clean > 0);
  });
});

describe('verifyCallback key lookup', () => {
  const callbacks = readVectors('callbacks.json');
  const valid = callbacks.cases.find((c) => c.name === 'valid callback');
  const pem = readKey('keys/rsa2048.public.pem');
  const otherPem = readKey('keys/rsa3072.public.pem');
  test('the key the token names verifies, as an object or a PEM string, at any index', () => {
    const key = api.VerifyingKey.fromPem(pem);
    const other = api.VerifyingKey.fromPem(otherPem);
    for (const keys of [key, pem, [other, key], [otherPem, pem], [other, otherPem, pem], [pem, other]]) {
      const verified = api.verifyCallback(valid.body, valid.headers, keys);
      const expectedIndex = Array.isArray(keys) ? keys.findIndex((k) => k === key || k === pem) : 0;
      assert.equal(verified.verification.keyIndex, expectedIndex);
    }
  });
  test('a key object other than VerifyingKey is read again on every call', () => {
    // The KeyObject follows what publicKeyPem() returns now, as the wasm's token match does.
    let current = pem;
    const rotating = { publicKeyPem: () => current };
    assert.equal(api.verifyCallback(valid.body, valid.headers, rotating).verification.keyIndex, 0);
    const signerB = api.SigningKey.fromPem(readKey('keys/rsa3072.pkcs8.pem'));
    const signed = api.signRequest(valid.body, signerB, { merchantId: 'merchant-1', timestamp: '1700000000' });
    current = otherPem;
    assert.equal(api.verifyCallback(signed.body, signed.headers, rotating).verification.keyIndex, 0);
    current = pem;
    throwsCode(() => api.verifyCallback(signed.body, signed.headers, rotating), 'INVALID_PUBLIC_KEY');
  });

  test('the bytes to check are read in place after the key is found, even when finding it grows wasm memory', () => {
    // A core whose provider grows the wasm's memory while it makes a key (which detaches every
    // view of the memory made before): the check must still read the message and signature.
    let grown = 0;
    const provider = {
      ...nodeCrypto,
      publicKey: (spkiPem) => {
        glue.__memory({}).value.grow(1);
        grown += 1;
        return nodeCrypto.publicKey(spkiPem);
      },
    };
    const core = createApi(glue, provider);
    const verified = core.verifyCallback(valid.body, valid.headers, pem);
    assert.equal(grown, 1);
    assert.equal(verified.paymentId, api.verifyCallback(valid.body, valid.headers, pem).paymentId);
    const tampered = valid.body.replace('150000', '150001');
    throwsCode(() => createApi(glue, provider).verifyCallback(tampered, valid.headers, pem), 'INVALID_SIGNATURE');
    assert.equal(grown, 2);
  });

  test('a tampered body fails with every form of the keys', () => {
    const tampered = valid.body.replace('150000', '150001');
    for (const keys of [pem, api.VerifyingKey.fromPem(pem), [otherPem, pem]]) {
      throwsCode(() => api.verifyCallback(tampered, valid.headers, keys), 'INVALID_SIGNATURE');
    }
  });
});
