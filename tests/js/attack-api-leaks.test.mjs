// Attack on wasm memory held by failed reads of caller values: each call in which a
// getter or Proxy trap of the caller throws (caught by a `catch` import of
// src/wasm/gateway.rs) leaves one slot of the wasm's externref table in use, so the
// table, and its free list in wasm memory (which never shrinks), grow without bound.
// Measured: 100 000 parseCallback calls with a throwing getter grow the table by about
// 130 000 slots and wasm memory from 19 to 35 pages; 1 000 000 calls, to 150 pages. A
// call without a throwing getter leaves nothing. (The likely cause: on an exception the
// glue's handleError returns undefined, which the externref adapter of an import whose
// result is an externref stores in a slot that is never freed: Array.isArray, whose result
// is a bool, leaks nothing; Object.entries, Object.keys and Reflect.get do.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

import { pkgDir } from './helpers.mjs';

/** Slots the externref table gained over `calls` runs of `call` (after a warm-up), in a fresh process. */
function tableGrowth(call, calls = 20000) {
  const script = `
    let exports;
    const Instance = WebAssembly.Instance;
    WebAssembly.Instance = function (module, imports) {
      const instance = new Instance(module, imports);
      exports = instance.exports;
      return instance;
    };
    const api = require(${JSON.stringify(pkgDir)});
    const call = ${call};
    for (let i = 0; i < 2000; i++) { try { call(api); } catch {} }
    const before = exports.__wbindgen_externrefs.length;
    for (let i = 0; i < ${calls}; i++) { try { call(api); } catch {} }
    console.log(exports.__wbindgen_externrefs.length - before);
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: path.dirname(pkgDir) });
  assert.equal(result.status, 0, result.stderr);
  return Number(result.stdout.trim());
}

const CASES = {
  'parseCallback, a body with a getter that throws': '(api) => api.parseCallback({ get project_id() { throw 1; } })',
  'parseCallback, a Proxy whose ownKeys trap throws': '(api) => api.parseCallback(new Proxy({}, { ownKeys() { throw 1; } }))',
  'buildPayinRequest, an input with a getter that throws': '(api) => api.buildPayinRequest({ get projectId() { throw 1; } })',
  'validateRequest, a body with a getter that throws': "(api) => api.validateRequest('/api/v1/payment/p2p/payin', { general: { get project_id() { throw 1; } } })",
  'canonicalMessage, a body with a getter that throws': "(api) => api.canonicalMessage({ get a() { throw 1; } }, '1700000000')",
};

test('a call refused because a caller getter throws leaves nothing in the wasm (control: a refused call without one)', () => {
  assert.equal(tableGrowth('(api) => api.parseCallback({ project_id: "p" })'), 0);
});

for (const [name, call] of Object.entries(CASES)) {
  test(`${name}: no externref slot kept per call`, { todo: 'not fixed: each throwing read keeps one externref slot (wasm-bindgen catch imports returning an externref); see the file comment' }, () => {
    assert.equal(tableGrowth(call), 0);
  });
}
