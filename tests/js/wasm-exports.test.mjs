// The .wasm's exported functions, read from its binary: none answers a single externref
// (the one exception below). V8 11 (Node 20) inlines such a function into optimized JS, and
// when that JS is deoptimized during the call (an import the wasm calls can cause it: setting
// the members of the object it answers changes maps the caller depends on), its deoptimizer
// has no frame for a reference result and aborts the process (V8 Fatal "unreachable code" in
// Deoptimizer::DoComputeBuiltinContinuation, exit 133). A function of several results is never
// inlined there, so the private exports answer through a Result (src/wasm/js.rs, `Answer`).
// The bench loop that aborted runs in tests/js/hostile-jit.test.mjs; this test names the
// export at fault at once.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { pkgDir } from './helpers.mjs';

const EXTERNREF = 0x6f;

/** Every exported function of the module in `bytes`: `{ name, params, results }` (value type bytes). */
function exportedFunctions(bytes) {
  let at = 8; // magic and version
  const leb = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const name = () => {
    const length = leb();
    const text = bytes.subarray(at, at + length).toString('utf8');
    at += length;
    return text;
  };
  const limits = () => {
    const flags = bytes[at++];
    leb();
    if (flags & 1) leb();
  };
  const types = [];
  const functions = []; // the type of each function, imported ones first
  const exports = [];
  while (at < bytes.length) {
    const section = bytes[at++];
    const end = leb() + at;
    if (section === 1) {
      for (let count = leb(); count > 0; count -= 1) {
        assert.equal(bytes[at++], 0x60, 'a function type');
        const params = [...bytes.subarray(at + 1, at + 1 + bytes[at])];
        at += 1 + params.length;
        const results = [...bytes.subarray(at + 1, at + 1 + bytes[at])];
        at += 1 + results.length;
        types.push({ params, results });
      }
    } else if (section === 2) {
      for (let count = leb(); count > 0; count -= 1) {
        name();
        name();
        const kind = bytes[at++];
        if (kind === 0) functions.push(types[leb()]);
        else if (kind === 1) {
          at += 1; // element type
          limits();
        } else if (kind === 2) limits();
        else if (kind === 3) at += 2; // value type, mutability
        else if (kind === 4) {
          at += 1; // tag: attribute, then its type
          leb();
        }
      }
    } else if (section === 3) {
      for (let count = leb(); count > 0; count -= 1) functions.push(types[leb()]);
    } else if (section === 7) {
      for (let count = leb(); count > 0; count -= 1) {
        const exported = name();
        const kind = bytes[at++];
        const index = leb();
        if (kind === 0) exports.push({ name: exported, ...functions[index] });
      }
    }
    at = end;
  }
  return exports;
}

test('no exported wasm function answers a single externref (V8 11 inlines it, and aborts deoptimizing it)', () => {
  const bytes = fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm'));
  const functions = exportedFunctions(bytes);
  assert.ok(functions.some((f) => f.name === '__verifyCallback'), 'the private exports were read');
  assert.ok(functions.some((f) => f.results.length > 1), 'some answer several results');
  // __memory answers the memory object; the one import it calls runs no JS that could
  // deoptimize its caller.
  const single = functions.filter((f) => f.results.length === 1 && f.results[0] === EXTERNREF && f.name !== '__memory');
  assert.deepEqual(single.map((f) => f.name), []);
});
