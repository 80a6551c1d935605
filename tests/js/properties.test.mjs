// Cases beyond the vectors: random bodies checked against an independent JS
// model of the canonical form and against properties that must always hold;
// Unicode, separators, deep nesting, big integers, bodies given as objects.
// Set PROPERTY_SEED to replay a run, PROPERTY_RUNS to change how many bodies.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  asCallback,
  base64urlDecode,
  callbackValue,
  base64urlPadded,
  compareCodePoints,
  compareUtf16,
  esm as api,
  modelEntries,
  modelMessage,
  nodeVerify,
  randomObject,
  readKey,
  rng,
  throwsCode,
  treeToJson,
  treeToValue,
  unpad,
  valueToTree,
} from './helpers.mjs';

const SEED = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const key = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const publicPem = readKey('keys/rsa2048.public.pem');
const OPTION_SETS = [
  {},
  { booleans: 'lower' },
  { booleans: 'digit', falsy: 'null' },
  { padding: false },
  { order: 'utf16' },
  { falsy: 'null', booleans: 'python', padding: false, order: 'utf16' },
];

function countLeaves(node) {
  if (node.t === 'obj') return node.members.reduce((n, [, v]) => n + countLeaves(v), 0);
  if (node.t === 'arr') return node.items.reduce((n, v) => n + countLeaves(v), 0);
  return 1;
}

function label(i, text) {
  return `seed ${SEED}, body #${i}: ${text.length > 300 ? `${text.slice(0, 300)}…` : text}`;
}

describe(`random bodies (PROPERTY_SEED=${SEED}, ${RUNS} bodies)`, () => {
  test('entries and message equal the independent model, for every option set', () => {
    const r = rng(SEED);
    for (let i = 0; i < RUNS; i += 1) {
      const tree = randomObject(r);
      const text = treeToJson(tree);
      const ts = String(r.int(2 ** 31));
      for (const options of OPTION_SETS) {
        const where = `${label(i, text)} options ${JSON.stringify(options)}`;
        const entries = api.canonicalEntries(text, options);
        assert.deepEqual(entries, modelEntries(tree, options), where);
        assert.equal(api.canonicalMessage(text, ts, options), modelMessage(entries, ts, options), where);
      }
    }
  });

  test('properties: sorted by code point, one entry per leaf, message = base64url(entries joined with ;) + timestamp', () => {
    const r = rng(SEED + 1);
    for (let i = 0; i < RUNS; i += 1) {
      const tree = randomObject(r);
      const text = treeToJson(tree);
      const ts = String(r.int(2 ** 31));
      const steps = api.canonicalSteps(text, ts);
      const where = label(i, text);
      for (let j = 1; j < steps.entries.length; j += 1) {
        assert.ok(compareCodePoints(steps.entries[j - 1], steps.entries[j]) <= 0, `${where}: order at ${j}`);
      }
      assert.equal(steps.entries.length, countLeaves(tree), `${where}: one entry per leaf`);
      assert.equal(steps.joined, steps.entries.join(';'), where);
      assert.equal(base64urlDecode(steps.encoded).toString('utf8'), steps.joined, `${where}: encoded decodes to joined`);
      assert.equal(steps.encoded, base64urlPadded(Buffer.from(steps.joined, 'utf8')), `${where}: padded base64url`);
      assert.equal(steps.message, steps.encoded + ts, where);
      const utf16 = api.canonicalEntries(text, { order: 'utf16' });
      assert.deepEqual(utf16, [...steps.entries].sort(compareUtf16), `${where}: utf16 order is the same entries`);
    }
  });

  test('signRequest signs the exact text, node:crypto verifies it, verifyCallback accepts it', () => {
    const r = rng(SEED + 2);
    const runs = Math.min(RUNS, 60);
    for (let i = 0; i < runs; i += 1) {
      const tree = asCallback(randomObject(r));
      const text = treeToJson(tree);
      const options = OPTION_SETS[i % OPTION_SETS.length];
      const signed = api.signRequest(text, key, { merchantId: `m-${i}`, timestamp: 1700000000 + i, options });
      const where = label(i, text);
      assert.equal(signed.body, text, where);
      const message = modelMessage(modelEntries(tree, options), 1700000000 + i, options);
      assert.ok(nodeVerify(message, signed.headers['x-access-signature'], publicPem), `${where}: node:crypto verifies`);
      // Random members (an empty top-level key, unread members after text) may make the body
      // ambiguous: then it is refused as such, with the signature checked and the body kept.
      try {
        assert.equal(api.verifyCallback(signed.body, signed.headers, publicPem, { options }).verification.merchantId, `m-${i}`);
      } catch (error) {
        assert.equal(error.code, 'AMBIGUOUS_CALLBACK', `${where}: ${error.message}`);
        assert.equal(error.verified, true);
        assert.equal(error.rawBody, text);
      }
      const verified = api.verifyCallback(signed.body, signed.headers, publicPem, { options, allowAmbiguous: true });
      assert.equal(verified.verification.merchantId, `m-${i}`);
    }
  });

  test('a body given as an object signs the same as its JSON.stringify text, and the body returned reads back the same', () => {
    const r = rng(SEED + 3);
    let checked = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const value = treeToValue(randomObject(r));
      if (value === undefined) continue;
      checked += 1;
      const text = JSON.stringify(value);
      const where = label(i, text);
      assert.deepEqual(api.canonicalEntries(value), api.canonicalEntries(text), where);
      assert.deepEqual(api.canonicalEntries(value), modelEntries(valueToTree(value)), where);
      const signed = api.signRequest(value, key, { merchantId: 'm', timestamp: 1 });
      assert.deepEqual(api.canonicalEntries(signed.body), api.canonicalEntries(value), `${where}: returned body text`);
      assert.deepEqual(JSON.parse(signed.body), JSON.parse(text), `${where}: returned body is the same data`);
      assert.equal(signed.headers['x-access-signature'], api.signRequest(text, key, { merchantId: 'm', timestamp: 1 }).headers['x-access-signature'], where);
    }
    assert.ok(checked > RUNS / 4, `only ${checked} bodies were plain enough`);
  });
});

describe('Unicode', () => {
  test('keys and values in many scripts, escaped or not, give the same entries', () => {
    const value = { имя: 'Иван', 名前: '山田', emoji: '😀🎉', 'e\u0301': 'é', nbsp: 'a\u00a0b', rtl: 'שלום', '𝄞': 'clef' };
    const raw = JSON.stringify(value);
    const escaped = raw.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    assert.notEqual(raw, escaped);
    const entries = api.canonicalEntries(raw);
    assert.deepEqual(api.canonicalEntries(escaped), entries);
    assert.deepEqual(entries, modelEntries(valueToTree(value)));
    // Decomposed and composed é are different text and stay different.
    assert.ok(entries.includes('e\u0301:é'));
    const message = api.canonicalMessage(raw, 5);
    assert.equal(Buffer.from(message.slice(0, -1), 'base64url').toString('utf8'), entries.join(';'));
  });

  test('code point order and UTF-16 order differ above the surrogates', () => {
    const text = JSON.stringify({ '😀': '1', '～': '2' });
    const byCodePoint = api.canonicalEntries(text);
    const byUtf16 = api.canonicalEntries(text, { order: 'utf16' });
    assert.deepEqual(byCodePoint, ['😀:1', '～:2'].sort(compareCodePoints));
    assert.deepEqual(byUtf16, ['😀:1', '～:2'].sort(compareUtf16));
    assert.notDeepEqual(byCodePoint, byUtf16);
  });

  test('a lone surrogate in an object body is refused', () => {
    throwsCode(() => api.canonicalEntries({ a: '\ud800' }), 'INVALID_BODY');
    throwsCode(() => api.canonicalEntries('{"a":"x"}\ud800'), 'INVALID_BODY');
  });
});

describe('separators inside keys and values', () => {
  test('":", ";" and "=" are kept verbatim, so different bodies can share entries', () => {
    const tree = { t: 'obj', members: [['a:b', { t: 'str', v: 'c;d=e' }], ['x', { t: 'obj', members: [['y:z', { t: 'str', v: ':;' }]] }]] };
    const text = treeToJson(tree);
    const entries = api.canonicalEntries(text);
    assert.deepEqual(entries, modelEntries(tree));
    assert.ok(entries.includes('a:b:c;d=e'));
    // {"a": {"b": "c;d=e"}} flattens to the same entry: the spec's form is not injective.
    assert.deepEqual(api.canonicalEntries('{"a":{"b":"c;d=e"}}'), ['a:b:c;d=e']);
  });

  test('an empty key adds no separator while the path is empty (as Python\'s `if path` idiom)', () => {
    assert.deepEqual(api.canonicalEntries('{"":{"a":"1"}}'), api.canonicalEntries('{"a":"1"}'));
    assert.deepEqual(api.canonicalEntries('{"":["x"]}'), api.canonicalEntries('{"0":"x"}'));
    const tree = { t: 'obj', members: [['', { t: 'str', v: 'v' }], ['k', { t: 'obj', members: [['', { t: 'num', text: '1' }]] }]] };
    assert.deepEqual(api.canonicalEntries(treeToJson(tree)), modelEntries(tree));
  });

  test('array indexes are path segments', () => {
    const value = { list: ['x', ['y', { k: 'z' }]], '0': 'zero' };
    assert.deepEqual(api.canonicalEntries(value), modelEntries(valueToTree(value)));
    assert.ok(api.canonicalEntries(value).includes('list:1:1:k:z'));
  });
});

describe('nesting depth', () => {
  const nested = (depth) => `${'{"a":'.repeat(depth - 1)}{"leaf":"v"}${'}'.repeat(depth - 1)}`;
  const nestedArrays = (depth) => `{"a":${'['.repeat(depth - 1)}"v"${']'.repeat(depth - 1)}}`;

  test('64 levels of objects or arrays are read, 65 -> BODY_TOO_DEEP', () => {
    const entry = api.canonicalEntries(nested(64));
    assert.deepEqual(entry, [`${'a:'.repeat(63)}leaf:v`]);
    throwsCode(() => api.canonicalEntries(nested(65)), 'BODY_TOO_DEEP');
    assert.deepEqual(api.canonicalEntries(nestedArrays(64)), [`a:${'0:'.repeat(63)}v`]);
    throwsCode(() => api.canonicalEntries(nestedArrays(65)), 'BODY_TOO_DEEP');
  });

  test('the same limit holds for object bodies and for callbacks', () => {
    let value = { leaf: 'v' };
    for (let i = 1; i < 64; i += 1) value = { a: value };
    api.canonicalEntries(value);
    throwsCode(() => api.canonicalEntries({ a: value }), 'BODY_TOO_DEEP');
    const callback = (depth) => JSON.stringify(callbackValue({ extra: 'X' })).replace('"X"', nested(depth));
    const signed = api.signRequest(callback(63), key, { merchantId: 'm', timestamp: 1700000000 });
    api.verifyCallback(signed.body, signed.headers, publicPem);
    throwsCode(() => api.signRequest(callback(64), key, { merchantId: 'm', timestamp: 1700000000 }), 'BODY_TOO_DEEP');
    throwsCode(() => api.verifyCallback(callback(64), signed.headers, publicPem), 'BODY_TOO_DEEP');
  });

  test('very deep input fails cleanly, without a stack overflow', () => {
    throwsCode(() => api.canonicalEntries(nested(10000)), 'BODY_TOO_DEEP');
    throwsCode(() => api.canonicalEntries(`{"a":${'['.repeat(60000)}`), 'BODY_TOO_DEEP');
    throwsCode(() => api.canonicalEntries(`{"a":${'['.repeat(100000)}`), 'BODY_TOO_LARGE');
    // The module still works afterwards.
    assert.deepEqual(api.canonicalEntries('{"a":"1"}'), ['a:1']);
  });
});

describe('numbers', () => {
  test('big integers given as JSON text are kept exactly', () => {
    const digits = '123456789012345678901234567890123456789';
    const entries = api.canonicalEntries(`{"big":${digits},"neg":-${digits},"safe":9007199254740993}`);
    assert.deepEqual(entries, [`big:${digits}`, `neg:-${digits}`, 'safe:9007199254740993']);
    const text = JSON.stringify(callbackValue({ amount: 'X' })).replace('"X"', digits);
    const signed = api.signRequest(text, key, { merchantId: 'm', timestamp: 1700000000 });
    assert.equal(signed.body, text);
    // A member the model does not read is signed exactly and left out of the model.
    const verified = api.verifyCallback(signed.body, signed.headers, publicPem);
    assert.equal(verified.projectId, 'prj_1');
    assert.ok(!Object.hasOwn(verified, 'raw') && !Object.hasOwn(verified, 'amount'));
    // Where the model reads an integer, one beyond 2^53 is an error at its path, never a rounded number.
    const big = JSON.stringify(callbackValue({ payment_info: { amount: 'X' } })).replace('"X"', digits);
    const bigSigned = api.signRequest(big, key, { merchantId: 'm', timestamp: 1700000000 });
    const error = throwsCode(() => api.verifyCallback(bigSigned.body, bigSigned.headers, publicPem), 'INVALID_CALLBACK');
    assert.equal(error.path, 'payment_info.amount');
  });

  test('integers up to 4300 digits are kept, longer ones -> INVALID_NUMBER', () => {
    const ok = '9'.repeat(4300);
    assert.deepEqual(api.canonicalEntries(`{"n":${ok}}`), [`n:${ok}`]);
    const error = throwsCode(() => api.canonicalEntries(`{"n":${ok}9}`), 'INVALID_NUMBER');
    assert.equal(error.path, 'n');
  });

  test('BigInt values in an object body are exact integers', () => {
    const big = 2n ** 100n;
    assert.deepEqual(api.canonicalEntries({ n: big }), [`n:${big}`]);
  });

  test('floats follow the model (Python repr) for texts and JS numbers alike', () => {
    const values = [0.1, 1.5, -2.25, 1e-7, 1e-4, 0.0001234, 123456789.125, 1e16, 1.5e300, 5e-324, Number.MAX_VALUE, 2 ** 60 + 0.5];
    for (const v of values) {
      const tree = { t: 'obj', members: [['x', { t: 'num', text: JSON.stringify(v) }]] };
      assert.deepEqual(api.canonicalEntries(treeToJson(tree)), modelEntries(tree), String(v));
    }
    assert.deepEqual(api.canonicalEntries('{"a":1.0,"b":1E2,"c":-0.0,"d":2.50}'), modelEntries({ t: 'obj', members: [['a', { t: 'num', text: '1.0' }], ['b', { t: 'num', text: '1E2' }], ['c', { t: 'num', text: '-0.0' }], ['d', { t: 'num', text: '2.50' }]] }));
    throwsCode(() => api.canonicalEntries('{"x":1e400}'), 'INVALID_NUMBER');
  });

  test('values JSON cannot carry are refused in object bodies', () => {
    for (const bad of [{ a: undefined }, { a: NaN }, { a: Infinity }, { a: () => 1 }, { a: new Date(0) }, { a: new Map() }]) {
      throwsCode(() => api.canonicalEntries(bad), 'INVALID_BODY', String(Object.values(bad)[0]));
    }
    const cyclic = { a: {} };
    cyclic.a.self = cyclic;
    assert.throws(() => api.canonicalEntries(cyclic), (e) => e instanceof Error && ['INVALID_BODY', 'BODY_TOO_DEEP'].includes(e.code));
  });
});

describe('falsy leaves', () => {
  test("'none' writes null, \"\", 0, 0.0 and false as None; 'null' only null", () => {
    const tree = { t: 'obj', members: [['n', { t: 'null' }], ['s', { t: 'str', v: '' }], ['z', { t: 'num', text: '0' }], ['f', { t: 'num', text: '0.0' }], ['b', { t: 'bool', v: false }], ['t', { t: 'bool', v: true }]] };
    const text = treeToJson(tree);
    for (const options of [{}, { falsy: 'null' }, { falsy: 'null', booleans: 'lower' }, { falsy: 'none', booleans: 'digit' }]) {
      assert.deepEqual(api.canonicalEntries(text, options), modelEntries(tree, options), JSON.stringify(options));
    }
    assert.ok(api.canonicalEntries(text).every((e) => e.endsWith(':None') || e === 't:True'));
  });

  test('padding: false only drops trailing =', () => {
    for (const v of ['1', '12', '123']) {
      const padded = api.canonicalMessage({ a: v }, 7);
      const bare = api.canonicalMessage({ a: v }, 7, { padding: false });
      assert.equal(bare, `${unpad(padded.slice(0, -1))}7`);
    }
  });
});
