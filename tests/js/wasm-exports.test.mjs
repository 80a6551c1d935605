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
  const single = functions.filter((f) => f.results.length === 1 && f.results[0] === EXTERNREF);
  assert.deepEqual(single.map((f) => f.name), []);
});

// The private protocol's one shape (CONTRIBUTING.md, "The boundary's shape"): every private
// export (a `__` function of the glue, or a `__` method of a glue key class, whose request is
// its key, `this`, and at most one object) takes one request object the JS core makes, and
// answers through `js::Answer` (`{ ok: true, value }` or `{ ok: false, error }`). Only these
// keep a shape of their own, each for the reason given.
const OWN_SHAPE = new Map([
  ['__constants', 'takes nothing: the JSON text of what both sides share, read once'],
]);

// The in-place paths (pkg-template/wasm-io.mjs, src/wasm/exports/input.rs): each takes the one
// object of the glue's private class __InPlaceCall the JS keeps, reads its request members and
// fills its answer members (`ok`, then `kind` and `value`, or `error`), so that only numbers
// cross; the wasm function answers nothing itself.
const IN_PLACE = ['__textInput', '__canonicalMessageOfInput', '__validateRequestOfInput'];
const IN_PLACE_CLASS = '__InPlaceCall';

// Private exports the package calls, none for its tests only (what the wasm holds for a
// pending callback is read through __finishCallback: tests/js/support/pending.mjs).
const TEST_ONLY = ['__pendingCallbacks'];

const glue = createRequire(import.meta.url)(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

/** Whether `fn` is a class (the glue's private request class), not a function. */
const isClass = (fn) => /^class\b/.test(Function.prototype.toString.call(fn));

/** The private exports: `{ name, fn, method, wasmName }` (a method's .wasm export is `class___name`). */
function privateExports() {
  const found = Object.keys(glue)
    .filter((name) => name.startsWith('__') && typeof glue[name] === 'function' && !isClass(glue[name]))
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

test('every private export takes one request object and answers through js::Answer, or fills the in-place call', () => {
  const wasm = new Map(exportedFunctions(fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm'))).map((f) => [f.name, f]));
  const exports = privateExports();
  assert.ok(exports.some((e) => e.name === '__verifyCallback'), 'the private exports were read');
  for (const name of [...OWN_SHAPE.keys(), ...IN_PLACE]) assert.ok(exports.some((e) => e.name === name), `${name}, allowed its own shape, is no export: take it off the list`);
  for (const name of TEST_ONLY) assert.ok(!exports.some((e) => e.name === name), `${name} ships, for tests only`);
  // The one private class: the in-place call, its answer members read-only.
  const classes = Object.keys(glue).filter((name) => typeof glue[name] === 'function' && isClass(glue[name]));
  assert.deepEqual(classes.filter((name) => name.startsWith('__')), [IN_PLACE_CLASS]);
  const members = Object.getOwnPropertyDescriptors(glue[IN_PLACE_CLASS].prototype);
  for (const name of ['ok', 'kind', 'value', 'error']) assert.ok(members[name]?.get && !members[name].set, `${IN_PLACE_CLASS}.${name} is read-only`);
  const wrong = [];
  for (const { name, fn, method, wasmName } of exports) {
    if (OWN_SHAPE.has(name)) continue;
    const arity = fn.length;
    if (method ? arity > 1 : arity !== 1) wrong.push(`${name} takes ${arity} arguments`);
    const results = wasm.get(wasmName)?.results;
    if (IN_PLACE.includes(name) ? results?.length !== 0 : !isAnswer(results)) wrong.push(`${name} answers [${results}], not ${IN_PLACE.includes(name) ? 'nothing' : 'js::Answer'}`);
  }
  assert.deepEqual(wrong, []);
});

test('a private export answers { ok, value | error } for a request it refuses, and never throws', () => {
  const key = glue.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
  try {
    for (const { name, fn, method } of privateExports()) {
      if (OWN_SHAPE.has(name)) continue;
      let answer;
      if (IN_PLACE.includes(name)) fn((answer = new glue[IN_PLACE_CLASS]()));
      else answer = method ? fn.call(key, {}) : fn({});
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
    // The in-place paths (pkg-template/wasm-io.mjs): room, then the text written there, read
    // by length; what the wasm writes is read where it lies, after its length.
    const memory = glue.__memory({});
    assert.ok(memory.value instanceof WebAssembly.Memory);
    const view = () => Buffer.from(memory.value.buffer);
    const call = new glue[IN_PLACE_CLASS]();
    const run = (fn, request) => {
      Object.assign(call, request);
      fn(call);
      if (!call.ok) return call.error.code;
      const at = call.value;
      return [call.kind, view().toString('utf8', at + 4, at + 4 + view().readUInt32LE(at))];
    };
    assert.equal(run(glue.__textInput, { capacity: 1e9 }), 'INVALID_ARGUMENT');
    const text = Buffer.from('{"a":1}1700000000');
    run(glue.__textInput, { capacity: text.length });
    assert.equal(call.kind, 'room');
    text.copy(view(), call.value);
    const message = (request) => run(glue.__canonicalMessageOfInput, { length: 7, timestampWritten: false, ...request });
    assert.deepEqual(message({ timestampWritten: true, timestampLength: 10 }), ['message', glue.canonicalMessage('{"a":1}', '1700000000')]);
    assert.deepEqual(message({ timestamp: 1700000001 }), ['message', glue.canonicalMessage('{"a":1}', '1700000001')]);
    assert.equal(message({ timestamp: undefined }), 'INVALID_TIMESTAMP');
    assert.equal(message({ length: 1e9, timestamp: 1700000001 }), 'INVALID_ARGUMENT');
    // The index of an operation in __constants().operations; an index past them is an unknown operation.
    const index = JSON.parse(glue.__constants()).operations.findIndex((row) => row.path === '/api/v1/payment/p2p/payin');
    assert.ok(index >= 0);
    const report = (request) => run(glue.__validateRequestOfInput, { operationIndex: index, length: 7, ...request });
    const [kind, json] = report({});
    assert.equal(kind, 'report');
    assert.deepEqual(JSON.parse(json), glue.validateRequest('/api/v1/payment/p2p/payin', '{"a":1}'));
    assert.deepEqual(JSON.parse(report({ operationIndex: 1e9 })[1]), glue.validateRequest('', '{"a":1}'));
    assert.equal(JSON.parse(report({ length: 1e9 })[1]).errors[0].code, 'INVALID_ARGUMENT');
  } finally {
    key.free();
  }
});
