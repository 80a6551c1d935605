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
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';

import { pkgDir, readKey } from './helpers.mjs';

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

const I32 = 0x7f;

/** Whether wasm results are js::Answer's: value, error (each an externref, or its table slot), is-error. */
const isAnswer = (results) => results?.length === 3 && results.slice(0, 2).every((type) => type === EXTERNREF || type === I32) && results[2] === I32;

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

// The private protocol's one shape (CONTRIBUTING.md, "The boundary's shape"): every private
// export (a `__` function of the glue, or a `__` method of a glue key class, whose request is
// its key, `this`, and at most one object) takes one request object the JS core makes, and
// answers through `js::Answer` (`{ ok: true, value }` or `{ ok: false, error }`). Only these
// keep a shape of their own, each for the reason given; the fast paths where BENCHMARKS.md
// shows they pay, all in pkg-template/wasm-io.mjs.
const OWN_SHAPE = new Map([
  ['__textInput', 'fast path: room in wasm memory for text written in place (an address, 0 for none)'],
  ['__canonicalMessageOfInput', 'fast path: the message of text written in place, read where the wasm wrote it'],
  ['__validateRequestOfInput', 'fast path: the report of text written in place, for an operation by index'],
  ['__memory', "the fast paths' memory, read by wasm-io.mjs"],
  ['__constants', 'takes nothing: the JSON text of what both sides share, read once'],
]);

// Private exports the package calls, none for its tests only (what the wasm holds for a
// pending callback is read through __finishCallback: tests/js/support/pending.mjs).
const TEST_ONLY = ['__pendingCallbacks'];

const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

/** The private exports: `{ name, fn, method, wasmName }` (a method's .wasm export is `class___name`). */
function privateExports() {
  const found = Object.keys(glue)
    .filter((name) => name.startsWith('__') && typeof glue[name] === 'function')
    .map((name) => ({ name, fn: glue[name], method: false, wasmName: name }));
  for (const Class of [glue.SigningKey, glue.VerifyingKey]) {
    for (const name of Object.getOwnPropertyNames(Class.prototype)) {
      // `__destroy_into_raw` is wasm-bindgen's own, in JS only.
      if (!name.startsWith('__') || name === '__destroy_into_raw') continue;
      found.push({ name: `${Class.name}.prototype.${name}`, fn: Class.prototype[name], method: true, wasmName: `${Class.name.toLowerCase()}_${name}` });
    }
  }
  return found;
}

test('every private export takes one request object and answers through js::Answer, but the named fast paths', () => {
  const wasm = new Map(exportedFunctions(fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm'))).map((f) => [f.name, f]));
  const exports = privateExports();
  assert.ok(exports.some((e) => e.name === '__verifyCallback'), 'the private exports were read');
  for (const name of OWN_SHAPE.keys()) assert.ok(exports.some((e) => e.name === name), `${name}, allowed its own shape, is no export: take it off the list`);
  for (const name of TEST_ONLY) assert.ok(!exports.some((e) => e.name === name), `${name} ships, for tests only`);
  const wrong = [];
  for (const { name, fn, method, wasmName } of exports) {
    if (OWN_SHAPE.has(name)) continue;
    const arity = fn.length;
    if (method ? arity > 1 : arity !== 1) wrong.push(`${name} takes ${arity} arguments`);
    const results = wasm.get(wasmName)?.results;
    if (!isAnswer(results)) wrong.push(`${name} answers [${results}], not js::Answer`);
  }
  assert.deepEqual(wrong, []);
});

test('a private export answers { ok, value | error } for a request it refuses, and never throws', () => {
  const key = glue.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
  try {
    for (const { name, fn, method } of privateExports()) {
      if (OWN_SHAPE.has(name)) continue;
      const answer = method ? fn.call(key, {}) : fn({});
      assert.equal(typeof answer.ok, 'boolean', name);
      if (!answer.ok) assert.equal(typeof answer.error.code, 'string', `${name}: the error's data`);
    }
    // Each converted export, by what it names.
    assert.equal(glue.__hmacKeyFromSecret({ secret: 'short' }).error.code, 'INVALID_KEY');
    const made = glue.__hmacKeyFromSecret({ secret: 'a secret of sixteen bytes or more' });
    assert.equal(made.ok, true);
    assert.equal(typeof made.value, 'number');
    const signed = glue.__signRequestHmac({ body: '{"a":1}', key: made.value, options: { merchantId: 'm', timestamp: 1700000000 } });
    assert.equal(signed.ok, true);
    assert.equal(signed.value.signed.headers['x-access-timestamp'], '1700000000');
    const prepared = glue.__signRequestHmac({ body: '{"a":1}', key: made.value, options: { merchantId: 'm', timestamp: 1700000000 }, prepare: true });
    assert.deepEqual(Object.keys(prepared.value), ['prepared']);
    assert.equal(glue.__hmacKeyFree({ key: made.value }).ok, true);
    const freed = glue.__signRequestHmac({ body: '{"a":1}', key: made.value, options: { merchantId: 'm', timestamp: 1700000000 } });
    assert.equal(freed.ok, false);
    assert.match(freed.error.message, /freed/);
    // RSA: `native` lets the backend option choose the caller's RSA (the bytes it signs), `prepare` signs nothing.
    const rsa = (request) => key.__signRequest({ body: '{"a":1}', options: { merchantId: 'm', timestamp: 1700000000 }, ...request }).value;
    assert.deepEqual(Object.keys(rsa({})), ['signed']);
    assert.deepEqual(Object.keys(rsa({ native: true })), ['prepared', 'data']);
    assert.deepEqual(Object.keys(rsa({ native: true, options: { merchantId: 'm', timestamp: 1700000000, backend: 'wasm' } })), ['signed']);
    assert.deepEqual(Object.keys(rsa({ prepare: true })), ['prepared', 'data']);
    assert.equal(key.__signRequest({ body: '{}', options: { merchantId: 'm', backend: 'native' } }).error.code, 'INVALID_OPTION');
    const bytes = glue.__canonicalMessageBytes({ body: '{"a":1}', timestamp: '1700000000' });
    assert.equal(Buffer.from(bytes.value).toString('latin1'), glue.canonicalMessage('{"a":1}', '1700000000'));
    assert.match(key.__publicJwk().value, /^[\w-]+\.AQAB$/);
  } finally {
    key.free();
  }
});
