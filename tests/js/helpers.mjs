// Shared helpers of the JS tests: where things are, the vectors and keys,
// the built package loaded as users load it, and an independent JS model of
// the spec's canonical form (Authentication, steps 1 to 5) to check against.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const pkgDir = path.join(root, 'pkg');
export const vectorsDir = path.join(root, 'tests', 'vectors');
export const keysDir = path.join(vectorsDir, 'keys');
export const sharedVectorsDir = path.resolve(root, '..', 'shared', 'vectors');

if (!fs.existsSync(path.join(pkgDir, 'package.json'))) {
  throw new Error(`${pkgDir} is not built: run \`npm run build\` first`);
}

const require = createRequire(import.meta.url);
/** The package as `require('payment-intake')` gives it (CommonJS build). */
export const cjs = require(pkgDir);
/** The package as `import … from 'payment-intake'` gives it in Node (ES module wrapper). */
export const esm = await import(pathToFileURL(path.join(pkgDir, 'index.mjs')).href);

export function readVectors(name) {
  return JSON.parse(fs.readFileSync(path.join(vectorsDir, name), 'utf8'));
}

export function readKey(relative) {
  return fs.readFileSync(path.join(vectorsDir, relative), 'utf8');
}

/** Key names in keys/ (`rsa2048`, …, `attacker2048`) with the path of each PEM form. */
export function keyFamilies() {
  const names = new Set(fs.readdirSync(keysDir).map((f) => f.split('.')[0]));
  return [...names].sort().map((name) => ({
    name,
    bits: Number(name.match(/(\d+)$/)?.[1]),
    pkcs8: `keys/${name}.pkcs8.pem`,
    pkcs1: `keys/${name}.pkcs1.pem`,
    spki: `keys/${name}.public.pem`,
    pkcs1Public: `keys/${name}.public.pkcs1.pem`,
  }));
}

/** Runs `fn` and checks it throws a real `Error` whose `.code` is `code`. Returns the error. */
export function throwsCode(fn, code, message) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught !== undefined, `${message ?? 'call'}: expected ${code}, nothing was thrown`);
  assert.ok(caught instanceof Error, `${message ?? 'call'}: thrown value is not an Error: ${String(caught)}`);
  assert.equal(caught.code, code, `${message ?? 'call'}: expected ${code}, got ${caught.code}: ${caught.message}`);
  assert.equal(typeof caught.message, 'string');
  return caught;
}

/** The error `fn` throws, or its promise rejects with; fails when it does neither. */
export async function caught(fn) {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  assert.fail('did not throw');
}

// ---------------------------------------------------------------------------
// base64url
// ---------------------------------------------------------------------------

/** URL-safe base64 with `=` padding (Node's 'base64url' leaves the padding out). */
export function base64urlPadded(bytes) {
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

export function base64urlDecode(text) {
  return Buffer.from(text.replace(/=+$/, ''), 'base64url');
}

export const unpad = (text) => text.replace(/=+$/, '');

// ---------------------------------------------------------------------------
// An independent model of the canonical form, over a tree we build ourselves.
// Nodes: { t: 'null' } | { t: 'bool', v } | { t: 'str', v } | { t: 'num', text }
//        | { t: 'arr', items } | { t: 'obj', members: [[key, node], ...] }
// ---------------------------------------------------------------------------

/** Compact JSON text of a tree; numbers are written exactly as their text. */
export function treeToJson(node) {
  switch (node.t) {
    case 'null':
      return 'null';
    case 'bool':
      return node.v ? 'true' : 'false';
    case 'str':
      return JSON.stringify(node.v);
    case 'num':
      return node.text;
    case 'arr':
      return `[${node.items.map(treeToJson).join(',')}]`;
    case 'obj':
      return `{${node.members.map(([k, v]) => `${JSON.stringify(k)}:${treeToJson(v)}`).join(',')}}`;
    default:
      throw new Error(`bad node ${node.t}`);
  }
}

/** Python's repr() of a finite float: shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pythonFloatRepr(x) {
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const exp = Number(expText);
  const digits = mantissa.replace('.', '');
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${fraction}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Leaf text per the spec with its Python origin, and the named options. */
function leafText(node, options) {
  const allFalsy = (options.falsy ?? 'none') === 'none';
  const booleans = options.booleans ?? 'python';
  switch (node.t) {
    case 'null':
      return 'None';
    case 'bool': {
      if (!node.v && allFalsy) return 'None';
      const spelled = { python: ['False', 'True'], lower: ['false', 'true'], digit: ['0', '1'] }[booleans];
      return spelled[node.v ? 1 : 0];
    }
    case 'str':
      return node.v === '' && allFalsy ? 'None' : node.v;
    case 'num': {
      if (/[.eE]/.test(node.text)) {
        const value = Number(node.text);
        if (value === 0 && allFalsy) return 'None';
        return pythonFloatRepr(value);
      }
      const isZero = /^-?0+$/.test(node.text);
      if (isZero) return allFalsy ? 'None' : '0';
      return node.text;
    }
    default:
      throw new Error(`not a leaf: ${node.t}`);
  }
}

/** Code point order is UTF-8 byte order. */
export function compareCodePoints(a, b) {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** UTF-16 code unit order, as JS compares strings. */
export function compareUtf16(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function modelEntries(tree, options = {}) {
  const out = [];
  // As a Python sender writes it: `f"{path}:{key}" if path else key`, so an
  // empty path (the root, or under an empty key) takes no separator.
  const walk = (node, pathText) => {
    const join = (segment) => (pathText ? `${pathText}:${segment}` : segment);
    if (node.t === 'obj') node.members.forEach(([k, v]) => walk(v, join(k)));
    else if (node.t === 'arr') node.items.forEach((v, i) => walk(v, join(String(i))));
    else out.push(`${pathText}:${leafText(node, options)}`);
  };
  walk(tree, '');
  return out.sort((options.order ?? 'codepoint') === 'utf16' ? compareUtf16 : compareCodePoints);
}

export function modelMessage(entries, timestamp, options = {}) {
  const encoded = base64urlPadded(Buffer.from(entries.join(';'), 'utf8'));
  return `${options.padding === false ? unpad(encoded) : encoded}${timestamp}`;
}

// ---------------------------------------------------------------------------
// Random bodies from a seeded generator, so a failure can be replayed.
// ---------------------------------------------------------------------------

export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

// Separators of the canonical form, base64 and JSON specials, and text in
// several scripts, including astral characters whose UTF-16 order differs
// from their code point order (U+FF5E sorts before U+1F600 by code point only).
const PIECES = ['a', 'b', 'Z', '0', '9', '_', '-', ':', ';', '=', ' ', '"', '\\', '/', '\n', '\t', 'é', 'ß', 'Ж', '中', '～', '😀', '𝄞', '\u00a0', '\u0301', 'None', 'True', '%', '+'];

export function randomText(r, maxLength = 6) {
  let s = '';
  const n = r.int(maxLength + 1);
  for (let i = 0; i < n; i += 1) s += r.pick(PIECES);
  return s;
}

const NUMBER_TEXTS = ['0', '-0', '1', '-1', '7', '42', '150000', '10000000000000', '9007199254740993', '-123456789012345678901234567890', '0.0', '-0.0', '1.0', '0.5', '-2.5', '123.456', '1e5', '1E-7', '2.5e-5', '1.5e300', '0.1', '100.0', '1e16', '1.7976931348623157e308'];

export function randomTree(r, depth = 0) {
  const leafOnly = depth >= 4;
  const kind = r.int(leafOnly ? 5 : 8);
  switch (kind) {
    case 0:
      return { t: 'null' };
    case 1:
      return { t: 'bool', v: r.int(2) === 1 };
    case 2:
      return { t: 'str', v: r.int(5) === 0 ? '' : randomText(r, 8) };
    case 3:
    case 4:
      return r.int(3) === 0 ? { t: 'num', text: String(r.int(2) ? r.int(1e9) : -r.int(1e6)) } : { t: 'num', text: r.pick(NUMBER_TEXTS) };
    case 5:
      return { t: 'arr', items: Array.from({ length: r.int(4) }, () => randomTree(r, depth + 1)) };
    default:
      return randomObject(r, depth + 1);
  }
}

export function randomObject(r, depth = 0) {
  const members = [];
  const seen = new Set();
  const n = r.int(depth === 0 ? 7 : 5);
  for (let i = 0; i < n; i += 1) {
    const key = randomText(r, 5);
    if (seen.has(key)) continue;
    seen.add(key);
    members.push([key, randomTree(r, depth)]);
  }
  return { t: 'obj', members };
}

/**
 * A plain JS value for a tree, or undefined when a number would not keep its
 * kind through JSON.stringify (an integer beyond 2^53 written without exponent).
 */
export function treeToValue(node) {
  switch (node.t) {
    case 'null':
      return null;
    case 'bool':
    case 'str':
      return node.v;
    case 'num': {
      const value = Number(node.text);
      const unsafeInteger = Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21;
      return unsafeInteger ? undefined : value;
    }
    case 'arr': {
      const items = node.items.map(treeToValue);
      return items.includes(undefined) ? undefined : items;
    }
    case 'obj': {
      const object = {};
      for (const [k, v] of node.members) {
        const value = treeToValue(v);
        if (value === undefined || k === '__proto__') return undefined;
        object[k] = value;
      }
      return object;
    }
    default:
      throw new Error(node.t);
  }
}

/** The tree of a plain JS value, numbers written as JSON.stringify writes them. */
export function valueToTree(value) {
  if (value === null) return { t: 'null' };
  if (typeof value === 'boolean') return { t: 'bool', v: value };
  if (typeof value === 'string') return { t: 'str', v: value };
  if (typeof value === 'number') return { t: 'num', text: JSON.stringify(value) };
  if (Array.isArray(value)) return { t: 'arr', items: value.map(valueToTree) };
  return { t: 'obj', members: Object.entries(value).map(([k, v]) => [k, valueToTree(v)]) };
}

// verifyCallback also reads the body as a callback (project_id, general.payment_id
// and status.status are required), so bodies meant to be verified carry these.
export const CALLBACK_SHELL = [
  ['project_id', { t: 'str', v: 'prj_1' }],
  ['general', { t: 'obj', members: [['request_id', { t: 'str', v: 'req_1' }], ['payment_id', { t: 'str', v: 'order-1' }]] }],
  ['status', { t: 'obj', members: [['status', { t: 'str', v: 'processing' }], ['sub_status', { t: 'str', v: 'new' }], ['status_description', { t: 'null' }]] }],
];

/** A callback tree: the shell's members, then those of `tree` (an object tree). */
export function asCallback(tree) {
  return { t: 'obj', members: [...CALLBACK_SHELL, ...tree.members] };
}

/** A callback body as a plain object, with `extra` merged in. */
export function callbackValue(extra = {}) {
  return { project_id: 'prj_1', general: { request_id: 'req_1', payment_id: 'order-1' }, status: { status: 'processing', sub_status: 'new', status_description: null }, ...extra };
}

/** Verifies a base64url RSA PKCS#1 v1.5 SHA-256 signature with node:crypto, independently of the package. */
export function nodeVerify(message, signature, publicKeyPem) {
  return crypto.verify('sha256', Buffer.from(message, 'utf8'), publicKeyPem, base64urlDecode(signature));
}

/** Signs like the spec says, with node:crypto: an independent signer for the verifier's tests. */
export function nodeSign(message, privateKeyPem) {
  return base64urlPadded(crypto.sign('sha256', Buffer.from(message, 'utf8'), privateKeyPem));
}

/** The spec's token for a public key: base64url of its SPKI PEM bytes. */
export function tokenOf(spkiPem) {
  return base64urlPadded(Buffer.from(spkiPem, 'utf8'));
}
