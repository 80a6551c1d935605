// Size budget of the built .wasm (gzip -9, as served compressed). The issue's
// target is 100 KiB with everything in; the build is not there yet (see
// BENCHMARKS.md, "Size", for where the bytes are), so this test holds the line
// at the regression budget below and reports the target as a todo.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';

import { pkgDir } from './helpers.mjs';

/**
 * Regression budget: b17390a's .wasm, 303,908 bytes gzip -9 (issue 28's typed boundary
 * asks for no larger than the build before it). History: set at 256 KiB (229 KiB measured),
 * raised step by step to 304 KiB as features came in (HMAC-SHA512 and the sender dialects,
 * error statuses, issue 16's rounds of speed, the options table; BENCHMARKS.md, Size, has the
 * breakdown), when b17390a measured 303,908 bytes; the tables and boundary merges grew it to
 * 312,598 bytes, and serde_json text read by `JSON.parse` instead of serde-wasm-bindgen's
 * serializer brought it to 310,223. Lowered to b17390a's 303,908 when the builders came to
 * fill the body from the input-fields table and the wasm to read their input by that table
 * instead of serde-wasm-bindgen's derived readers (303,555 bytes; the dependency is gone),
 * with wasm-opt's --converge (303,209 bytes measured, 722,447 raw).
 */
export const BUDGET_GZIP_BYTES = 303908;
/** The target. */
export const TARGET_GZIP_BYTES = 100 * 1024;

// The package's one .wasm (both glues load it).
const files = [path.join(pkgDir, 'web', 'payment_intake_bg.wasm')];
const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

for (const file of files) {
  const name = path.relative(pkgDir, file);
  test(`${name} is within the ${kib(BUDGET_GZIP_BYTES)} gzip budget`, () => {
    const size = gzipSize(file);
    assert.ok(size <= BUDGET_GZIP_BYTES, `${name}: ${size} bytes (${kib(size)}) gzip, over the budget of ${kib(BUDGET_GZIP_BYTES)}`);
  });
  test(`${name} is within the ${kib(TARGET_GZIP_BYTES)} gzip target`, { todo: 'not reached: see BENCHMARKS.md, Size' }, () => {
    const size = gzipSize(file);
    assert.ok(size <= TARGET_GZIP_BYTES, `${name}: ${size} bytes (${kib(size)}) gzip, over the target of ${kib(TARGET_GZIP_BYTES)}`);
  });
}

/**
 * The lean builds (payment-intake/lean, payment-intake/receiver: no RSA in WebAssembly, opt-level
 * "z"), each held to a regression budget about 1 % over what it measured when it came
 * (197,732 and 145,295 bytes gzip -9; 450,466 and 326,377 raw), and reported against the
 * issue's targets (41, item 5: 150 KiB and 100 KiB), not reached: what is left is the JSON
 * readers (serde_json's, which words every error, and ours), the callback model, SHA-256 and
 * HMAC-SHA512, float formatting, the option and error tables' text, and wasm-bindgen's glue.
 */
const LEAN = [
  { file: 'payment_intake_lean_bg.wasm', budget: 199700, target: 150 * 1024 },
  { file: 'payment_intake_receiver_bg.wasm', budget: 146750, target: 100 * 1024 },
];
for (const { file, budget, target } of LEAN) {
  const name = `web/${file}`;
  test(`${name} is within the ${kib(budget)} gzip budget`, () => {
    const size = gzipSize(path.join(pkgDir, 'web', file));
    assert.ok(size <= budget, `${name}: ${size} bytes (${kib(size)}) gzip, over the budget of ${kib(budget)}`);
  });
  test(`${name} is within the ${kib(target)} gzip target`, { todo: 'not reached: BENCHMARKS.md, "The lean builds (issue 41)", says where the bytes go' }, () => {
    const size = gzipSize(path.join(pkgDir, 'web', file));
    assert.ok(size <= target, `${name}: ${size} bytes (${kib(size)}) gzip, over the target of ${kib(target)}`);
  });
}
