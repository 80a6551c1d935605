// copy_string (src/wasm/gateway.rs) writes strings of 128 UTF-16 units or more into wasm
// memory with the platform's TextEncoder, made on first use. A caller (or a polyfill) may
// have replaced the global by then: whatever its encodeInto answers, or throws, must not
// unwind through the wasm frames (each such call leaked its shadow-stack frame until the
// instance trapped with "unreachable"), and the text must then be copied the glue's way.
// The encoder is installed after the package loaded (the glue keeps the one it found then)
// and before any long string is copied: copy_string makes its own once per process.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { esm as api, readKey, throwsCode } from './helpers.mjs';

const Platform = globalThis.TextEncoder;
let answer = 'platform';
globalThis.TextEncoder = class {
  encodeInto(text, view) {
    const result = new Platform().encodeInto(text, view);
    switch (answer) {
      case 'throwing written':
        return {
          read: result.read,
          get written() {
            throw new Error('written');
          },
        };
      case 'undefined':
        return undefined;
      case 'not a number':
        return { read: result.read, written: String(result.written) };
      default:
        return result;
    }
  }
};

const body = JSON.stringify({ a: 'a'.repeat(200), b: 'é😀'.repeat(70) });
const message = (text) => api.canonicalSteps(text, '1700000000').message;

test('an encodeInto whose answer throws or is no number: the glue copy, with the same result, and the instance lives on', () => {
  const expected = message(body);
  const entries = api.canonicalEntries(body);
  const header = 'x'.repeat(300);
  for (const mode of ['throwing written', 'undefined', 'not a number']) {
    answer = mode;
    assert.equal(message(body), expected, mode);
    assert.deepEqual(api.canonicalEntries(body), entries, mode);
    // A long header value (token, signature) goes through the same copy.
    const headers = { 'x-access-timestamp': String(Math.floor(Date.now() / 1000)), 'x-access-merchant-id': 'm', 'x-access-signature': header, 'x-access-token': header };
    throwsCode(() => api.verifyCallback('{}', headers, readKey('keys/rsa2048.public.pem')), 'INVALID_PUBLIC_KEY');
  }
  answer = 'throwing written';
  for (let i = 0; i < 30000; i++) api.canonicalEntries(body);
  answer = 'platform';
  assert.deepEqual(api.canonicalEntries(body), entries);
  assert.deepEqual(api.canonicalEntries('{"x":1}'), ['x:1']);
});
