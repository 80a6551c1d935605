// Attack on verifyCallbackRequest with request-likes (README: "a Fetch Request, or anything
// with its headers and arrayBuffer()") whose getters throw: every failure must be a
// PaymentIntakeError with a `.code`. `bodyUsed` was read outside the guarded check, and
// `headers` read a second time after the body, so a getter that threw there rejected with
// the caller's own error, without `.code`.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { caught, cjs, esm as api, readKey, readVectors } from './helpers.mjs';

const publicPem = readKey('keys/rsa2048.public.pem');
const good = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
const bytes = () => new TextEncoder().encode(good.body).buffer;

test('a request-like whose bodyUsed getter throws is INVALID_ARGUMENT, not the getter\'s error', async () => {
  for (const build of [api, cjs]) {
    const request = {
      headers: good.headers,
      arrayBuffer: async () => bytes(),
      get bodyUsed() {
        throw new Error('bodyUsed getter');
      },
    };
    const error = await caught(() => build.verifyCallbackRequest(request, publicPem));
    assert.ok(build.isPaymentIntakeError(error), String(error));
    assert.equal(error.code, 'INVALID_ARGUMENT');
  }
});

test('a request-like whose headers getter throws when read again is read once: it verifies', async () => {
  for (const build of [api, cjs]) {
    let reads = 0;
    const request = {
      get headers() {
        reads += 1;
        if (reads > 1) throw new Error('headers read twice');
        return good.headers;
      },
      arrayBuffer: async () => bytes(),
    };
    const callback = await build.verifyCallbackRequest(request, publicPem);
    assert.equal(callback.status, 'processing');
    assert.equal(reads, 1);
  }
});

test('a real Request still verifies, and a read one is still refused (held)', async () => {
  const request = () => new Request('http://localhost/cb', { method: 'POST', body: good.body, headers: good.headers });
  assert.equal((await api.verifyCallbackRequest(request(), publicPem)).status, 'processing');
  const used = request();
  await used.text();
  assert.equal((await caught(() => api.verifyCallbackRequest(used, publicPem))).code, 'INVALID_ARGUMENT');
});
