// Text written straight into wasm memory (`textInput` in pkg-template/core.mjs) is read by the
// next wasm call: no caller code may run in between. A String.prototype.isWellFormed replaced
// after the package loaded (a polyfill, a test double) was called there, and one that called
// the package again had its text read in place of ours.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { esm as api, throwsCode } from './helpers.mjs';

/** Runs `fn` with String.prototype.isWellFormed replaced by `replacement(platform)`. */
function withIsWellFormed(replacement, fn) {
  const platform = String.prototype.isWellFormed;
  String.prototype.isWellFormed = replacement(platform);
  try {
    return fn();
  } finally {
    String.prototype.isWellFormed = platform;
  }
}

const A = JSON.stringify({ a: 'A'.repeat(300), n: 1 });
const B = JSON.stringify({ b: 'B'.repeat(300), m: 2 });

test('canonicalMessage and validateRequest read their own text when isWellFormed calls the package', () => {
  const expected = api.canonicalSteps(A, '1700000000').message;
  const report = api.validateRequest('/api/v1/balance/info', A);
  let depth = 0;
  const calling = (platform) =>
    function () {
      if (depth === 0) {
        depth++;
        try {
          api.canonicalMessage(B, '1700000001');
          api.validateRequest('/api/v1/balance/info', B);
        } finally {
          depth--;
        }
      }
      return platform.call(this);
    };
  withIsWellFormed(calling, () => {
    assert.equal(api.canonicalMessage(A, '1700000000'), expected);
    assert.deepEqual(api.validateRequest('/api/v1/balance/info', A), report);
  });
});

test('a lone surrogate stays refused when isWellFormed says every text is well formed', () => {
  const lone = JSON.stringify({ a: 'x'.repeat(200) }).replace('xx', 'x\ud800');
  throwsCode(() => api.canonicalSteps(lone, '1700000000'), 'INVALID_BODY');
  withIsWellFormed(
    () => () => true,
    () => {
      throwsCode(() => api.canonicalMessage(lone, '1700000000'), 'INVALID_BODY');
    },
  );
});
