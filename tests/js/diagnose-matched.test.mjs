// diagnoseCallback says `matched` only when verifyCallback with the options it names returns
// a model (issue 28, item 5). A body rewritten after signing so that its signed message stays
// the same under looser rules (150000 -> "150000" or 150000.0, 1 -> true) was answered
// `matched: true` with those rules, although verifyCallback with them refuses the body: a
// merchant following that advice loosened the receiver for every later callback.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { esm as api, readKey, readVectors } from './helpers.mjs';

const project = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const projectPublic = api.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
const callbackBody = readVectors('callbacks.json').cases.find((c) => c.expect === 'ok').body;

/** The genuine callback with its first `amount` set to `amount`, signed under `options`. */
function genuine(amount, options) {
  const body = callbackBody.replace('"amount": 150000,', `"amount": ${amount},`);
  assert.notEqual(body, callbackBody.replace('"amount": 150000,', ''));
  return api.signRequest(body, project, { merchantId: 'merchant-1', timestamp: 1700000000, options });
}

describe('diagnoseCallback on a body rewritten after signing', () => {
  for (const profile of ['spec', 'public-js-client']) {
    for (const [amount, rewritten] of [['150000', '"150000"'], ['150000', '150000.0'], ['1', 'true']]) {
      test(`${amount} -> ${rewritten}, signed under ${profile}: the signature matches, the body does not read`, () => {
        const { body, headers } = genuine(amount, { profile });
        // The genuine body verifies under its rules.
        api.verifyCallback(body, headers, projectPublic, { options: { profile } });
        const forged = body.replace(`"amount": ${amount},`, `"amount": ${rewritten},`);
        assert.notEqual(forged, body);
        const d = api.diagnoseCallback(forged, headers, projectPublic);
        assert.equal(d.matched, false, d.hint);
        assert.equal(d.options, null, 'no options to pass to verifyCallback');
        assert.equal(d.keyIndex, 0, 'the key that made the signature');
        assert.equal(d.algorithm, 'rsa');
        assert.equal(d.cause, 'body');
        assert.equal(d.signatureMatched, true);
        assert.ok(d.matching.length > 0);
        assert.ok(d.signatureOptions, 'the rules the signature matches under');
        assert.equal(d.field, 'payment_info.amount');
        assert.equal(d.bodyError.code, 'INVALID_CALLBACK');
        assert.match(d.hint, /`payment_info\.amount`/);
        // Nothing the signature matches under gives a model for this body.
        for (const options of [d.signatureOptions, ...d.matching]) {
          assert.throws(() => api.verifyCallback(forged, headers, projectPublic, { options }), (e) => e.code === 'INVALID_CALLBACK');
        }
      });
    }
  }

  test('a genuine callback is matched, and its options return a model', () => {
    for (const options of [undefined, { booleans: 'digit' }, { profile: 'public-js-client' }]) {
      const { body, headers } = genuine('150000', options);
      const d = api.diagnoseCallback(body, headers, projectPublic);
      assert.equal(d.matched, true, d.hint);
      assert.equal(d.signatureMatched, true);
      assert.equal(d.signatureOptions, null);
      assert.equal(d.bodyError, null);
      assert.equal(d.field, null);
      const verified = api.verifyCallback(body, headers, projectPublic, { options: d.options });
      assert.equal(verified.paymentInfo.amount, 150000);
    }
  });
});
