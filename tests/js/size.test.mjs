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
 * Regression budget: the size measured when it was set, plus some room. Set at 256 KiB
 * (229 KiB measured); raised to 280 KiB when HMAC-SHA512 and the sender dialects came in
 * (269.2 KiB measured: SHA-512 alone is about 10 KB of unrolled code before wasm-opt;
 * BENCHMARKS.md, Size, has the breakdown); raised to 284 KiB when issue 15's error
 * statuses, key-error recognition, the sandbox's loopback option and builder input
 * problems in the report came in (280.0 KiB measured; the 100 KiB target is issue 16's);
 * raised to 288 KiB when a private key came to be checked without `rsa`'s precomputation
 * (for a faster cold start, its own checks and the lazily made forms are about 8 KB raw,
 * 3 KB gzip) and validation to report numbers signing refuses (284.9 KiB measured; 287.0 KiB
 * with issue 16's SIMD squaring and sha2 at opt-level 2, which made pure-wasm verification 16 %
 * faster for 2 KB); raised to 292 KiB with issue 16's third round (290.4 KiB measured, 3.4 KB
 * gzip over 287.1): callback headers read in one crossing and verifying keys found again by
 * their JS string (1.8 KB, about 1.5 µs of a 43 µs verification, 4.5 µs with a Node server's
 * 13 headers), SIMD base64url and string scans (0.7 KB, 7 % each of `canonicalMessage`), the
 * radix sort of large entry sets (0.7 KB, hostile bodies 1.17× as fast), and node:crypto's
 * key checked by its JWK (0.2 KB, part of 2–3 ms off a cold start); raised to 293 KiB when
 * validateRequest's text came to be checked as it is read, without a tree, and to go into the
 * wasm in one copy, a report without an issue written by the wrapper (292.4 KiB measured, 2.0 KB
 * gzip over 290.4; validateRequest of text 1.25× as fast); and to 296 KiB with issue 16's fourth
 * round together (295.1 KiB measured: that, canonicalMessage's body and message written and read
 * in wasm memory, 1.5 KB, 1 KB bodies 1.32–1.42× as fast, and the tree read after the signature
 * checks; validateRequest of text about 1.46× as fast in all); and to 300 KiB with its fifth round
 * (296.2 KiB measured, 1.3 KB gzip over 295.0: long strings copied by `TextEncoder.encodeInto`,
 * a Fetch `Headers` asked for four names, one input buffer for validation and canonicalization,
 * the async verification's pending object that keeps the model after the awaited check, and the
 * key's blinding pair squared per signature, which made pure-wasm signing about 1.3× as fast);
 * and to 304 KiB with the public exports optionTable(), specStates(), declineReasons() and the
 * client's errorStatus, the options table's rules in the core and keys read as own properties
 * (301.6 KiB measured, 308,885 bytes against 303,908 at b17390a: 4.9 KB gzip more). The issue
 * of the typed boundary asks for no larger than b17390a: not met, and recorded there. The
 * tables and boundary merges then grew it to 312,598 bytes (305.3 KiB, over this budget);
 * lowered to 303 KiB when the results of the cold exports (and signRequest's) came to be
 * serde_json text read by `JSON.parse` instead of serde-wasm-bindgen's serializer, one per
 * shape (310,223 bytes, 302.95 KiB measured: still 6.3 KB gzip over b17390a's 303,908).
 */
export const BUDGET_GZIP_BYTES = 303 * 1024;
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
