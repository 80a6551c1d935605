// verifyCallback and verifyCallbackAsync given no raw body: `undefined` or `null` (what a
// framework leaves when nothing read the body) was read as an empty body and refused as
// INVALID_SIGNATURE with a hint about canonical variants; it is INVALID_ARGUMENT naming the
// framework settings, as a parsed object already was. Both builds (ES module and CommonJS).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { cjs, esm, readKey } from './helpers.mjs';

const service = esm.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const text = JSON.stringify({ project_id: 'prj_1', general: { payment_id: 'order-1' }, status: { status: 'success', sub_status: null } });
const sent = esm.signRequest(text, service, { merchantId: 'merchant-1' });

for (const [name, api] of [['import', esm], ['require', cjs]]) {
  describe(`no raw body (${name})`, () => {
    for (const body of [undefined, null]) {
      test(`verifyCallback(${body}, …) and verifyCallbackAsync: INVALID_ARGUMENT naming the raw-body settings`, async () => {
        const check = (error) => {
          assert.ok(api.isPaymentIntakeError(error));
          assert.equal(error.code, 'INVALID_ARGUMENT', error.message);
          assert.equal(error.status, 500);
          assert.match(error.message, new RegExp(`'rawBody' is ${body}`));
          assert.match(error.hint, /express\.raw\(\{ type: 'application\/json' \}\)/);
          assert.match(error.hint, /parseAs: 'buffer'/);
          assert.match(error.hint, /request\.arrayBuffer\(\)/);
          return true;
        };
        assert.throws(() => api.verifyCallback(body, sent.headers, service.verifyingKey(), { toleranceSeconds: 600 }), check);
        await assert.rejects(api.verifyCallbackAsync(body, sent.headers, service.verifyingKey(), { toleranceSeconds: 600 }), check);
      });
    }

    test('a parsed object is refused the same way (by the wasm), and the raw body verifies', () => {
      assert.throws(() => api.verifyCallback(JSON.parse(text), sent.headers, service.verifyingKey()), (error) => error.code === 'INVALID_ARGUMENT' && /express\.raw/.test(error.hint));
      assert.equal(api.verifyCallback(Buffer.from(sent.body), sent.headers, service.verifyingKey()).paymentId, 'order-1');
      // An empty body is a body: refused by its signature, not as an argument.
      assert.throws(() => api.verifyCallback('', sent.headers, service.verifyingKey()), (error) => error.code === 'INVALID_SIGNATURE');
    });
  });
}
