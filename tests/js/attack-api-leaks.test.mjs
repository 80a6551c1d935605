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
// join are such imports now, and every Reflect.get and Function.prototype.call of the
// gateway: for those `null` and `undefined` cross as one `None`, told apart by the own
// property's descriptor (a getter's or an inherited `null` reads as `undefined`).
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

test('the reads that keep no slot still tell null from undefined, and a hole from an item', async () => {
  const { cjs: api } = await import('./helpers.mjs');
  const message = (body) => {
    try {
      return api.canonicalMessage(body, '1700000000');
    } catch (error) {
      return error.message;
    }
  };
  assert.equal(message({ a: [null, 1] }), api.canonicalMessage({ a: [null, 1] }, '1700000000'));
  assert.match(message({ a: [undefined, 1] }), /'a\.0' is undefined/);
  assert.match(message({ a: [, 1] }), /'a\.0' is undefined/); // eslint-disable-line no-sparse-arrays
  assert.notEqual(message({ a: new Proxy([null], {}) }), message({ a: new Proxy([undefined], {}) }));
  const header = (value) => {
    try {
      api.verifyCallback('{}', { 'x-access-signature': value }, 'x');
    } catch (error) {
      return error.message;
    }
  };
  assert.match(header(null), /is null, not a string/);
  assert.match(header(undefined), /is undefined, not a string/);
});
