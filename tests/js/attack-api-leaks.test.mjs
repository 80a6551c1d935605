// Attack on wasm memory held by failed reads of caller values: each call in which a
// getter or Proxy trap of the caller throws (caught by a `catch` import of
// src/wasm/gateway/) left one slot of the wasm's externref table in use, so the table, and
// its free list in wasm memory (which never shrinks), grew without bound. Measured on
// b17390a: 100 000 parseCallback calls with a throwing getter grew the table by about
// 130 000 slots and wasm memory from 19 to 35 pages; 1 000 000 calls, to 150 pages. A call
// without a throwing getter leaves nothing. The cause, in wasm-bindgen 0.2.130's code for a
// `catch` import (macro-support codegen.rs): the wasm puts the import's externref result
// (the glue's `undefined` after a throw) in a table slot, then `take_last_exception()?`
// returns the exception before that slot is taken back. An import whose result is a bool
// (Array.isArray) leaks nothing, nor one whose result is an `Option` of an object: the glue
// puts that in the table itself, inside its try, so a throw puts nothing there. The
// gateway's Object.entries, Object.keys, Object.getPrototypeOf, Object.fromEntries and
// join are such imports now. Still leaking (todo below): js_sys's Reflect.get (an array's
// items, a header's value), whose `null` and `undefined` an `Option` would not tell apart.
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
  'parseCallback, a body whose prototype trap throws': '(api) => api.parseCallback(new Proxy({}, { getPrototypeOf() { throw 1; } }))',
  'verifyCallback, headers whose ownKeys trap throws': "(api) => api.verifyCallback('{}', new Proxy({}, { ownKeys() { throw 1; } }), 'x')",
};

/** Reads by Reflect.get (an array's items, a header's value): still one slot per throwing read. */
const STILL = {
  'canonicalMessage, a body array whose item getter throws': "(api) => api.canonicalMessage({ a: Object.defineProperty([1], 0, { get() { throw 1; } }) }, '1700000000')",
  'verifyCallback, a header value whose getter throws': "(api) => api.verifyCallback('{}', { get 'x-access-signature'() { throw 1; } }, 'x')",
};

test('a call refused because a caller getter throws leaves nothing in the wasm (control: a refused call without one)', () => {
  assert.equal(tableGrowth('(api) => api.parseCallback({ project_id: "p" })'), 0);
});

for (const [name, call] of Object.entries(CASES)) {
  test(`${name}: no externref slot kept per call`, () => {
    assert.equal(tableGrowth(call), 0);
  });
}

for (const [name, call] of Object.entries(STILL)) {
  test(`${name}: no externref slot kept per call`, { todo: 'not fixed: js_sys Reflect.get is a catch import of an externref result; see the file comment' }, () => {
    assert.equal(tableGrowth(call), 0);
  });
}
