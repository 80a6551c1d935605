#!/usr/bin/env node
// Soak test of the built package (pkg/, CommonJS build as `require` gives it): many
// verifyCallback and signRequest calls in one process, with memory sampled as it goes,
// then a table and a verdict: flat, or growing.
//
//   npm run soak                          1,000,000 calls (about 20 min on one free core)
//   SOAK_CALLS=100000 npm run soak        fewer calls
//   SOAK_SIGN_EVERY=50 npm run soak       one signRequest every 50 calls (default 100)
//   SOAK_SAMPLES=40 npm run soak          memory samples (default 30)
//   SOAK_JSON=soak.json npm run soak      also write the samples as JSON
//
// The mix, by call number: one call in SOAK_SIGN_EVERY signs a small, different body
// with a 2048-bit key (RSA signing in wasm runs at about 90/s) and checks the signature
// with node:crypto; every other call verifies a callback (about 1,000/s), cycling
// through what a public endpoint receives: genuine callbacks (as text with a plain
// headers object; as a Buffer with a Headers object and the key as a PEM string) and
// forged ones (tampered body, broken JSON, another key's token, a bad timestamp, a
// bad signature), each checked for the exact outcome. Any other outcome stops the run.
//
// Memory: process.memoryUsage() after a forced GC (run with --expose-gc, as the npm
// script does), the wasm memory's byteLength and the length of wasm-bindgen's externref
// table (read from the instance, captured by wrapping WebAssembly.Instance before the
// package loads: the package does not expose them). Wasm memory and the table only
// ever grow, so after warm-up any growth is reported; JS figures are compared between
// the first and second half of the samples after warm-up.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = path.join(root, 'pkg');
const vectors = path.join(root, 'tests', 'vectors');

const CALLS = Number(process.env.SOAK_CALLS ?? 1_000_000);
const SIGN_EVERY = Number(process.env.SOAK_SIGN_EVERY ?? 100);
const SAMPLES = Number(process.env.SOAK_SAMPLES ?? 30);
const WARM_UP = 0.1; // share of the samples left out of the verdict
for (const [name, value] of [['SOAK_CALLS', CALLS], ['SOAK_SIGN_EVERY', SIGN_EVERY], ['SOAK_SAMPLES', SAMPLES]]) {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1, got ${value}`);
}
if (!fs.existsSync(path.join(pkgDir, 'package.json'))) throw new Error('pkg/ is not built: run `npm run build` first');

// --- the package, with its wasm instance in view ----------------------------
let instance;
const OriginalInstance = WebAssembly.Instance;
WebAssembly.Instance = function Instance(module, imports) {
  const created = new OriginalInstance(module, imports);
  instance ??= created;
  return created;
};
const api = createRequire(import.meta.url)(pkgDir);
WebAssembly.Instance = OriginalInstance;
assert.ok(instance?.exports.memory instanceof WebAssembly.Memory, 'could not capture the wasm instance');
const wasmBytes = () => instance.exports.memory.buffer.byteLength;
const externrefs = () => instance.exports.__wbindgen_externrefs?.length ?? NaN;
const gc = globalThis.gc ?? (() => {});

// --- inputs ------------------------------------------------------------------
const readText = (relative) => fs.readFileSync(path.join(vectors, relative), 'utf8');
const privatePem = readText('keys/rsa2048.pkcs8.pem');
const publicPem = readText('keys/rsa2048.public.pem');
const callbacks = JSON.parse(readText('callbacks.json'));
const genuine = callbacks.cases.find((c) => c.expect === 'ok');
assert.equal(callbacks.verifying_key, 'keys/rsa2048.public.pem');
const signingKey = api.SigningKey.fromPem(privatePem);
const verifyingKey = api.VerifyingKey.fromPem(publicPem);
const attacker = api.SigningKey.fromPem(readText('keys/attacker2048.pkcs8.pem'));
const forgedByAttacker = api.signRequest(genuine.body, attacker, { merchantId: 'merchant-1', timestamp: 1700000000 });
const genuineBuffer = Buffer.from(genuine.body);
const genuineHeaders = new Headers(genuine.headers);

/** [label, call, expected code or null for success] */
const VERIFY_MIX = [
  ['genuine, text', () => api.verifyCallback(genuine.body, genuine.headers, verifyingKey), null],
  ['genuine, Buffer + Headers + PEM key', () => api.verifyCallback(genuineBuffer, genuineHeaders, publicPem), null],
  ['tampered body', () => api.verifyCallback(genuine.body.replace('150000', '150001'), genuine.headers, verifyingKey), 'INVALID_SIGNATURE'],
  ['genuine, text', () => api.verifyCallback(genuine.body, genuine.headers, verifyingKey), null],
  ['broken JSON', () => api.verifyCallback(`${genuine.body.slice(0, -1)},}`, genuine.headers, verifyingKey), 'INVALID_JSON'],
  ['another key', () => api.verifyCallback(forgedByAttacker.body, forgedByAttacker.headers, verifyingKey), 'INVALID_PUBLIC_KEY'],
  ['genuine, text', () => api.verifyCallback(genuine.body, genuine.headers, verifyingKey), null],
  ['bad timestamp', () => api.verifyCallback(genuine.body, { ...genuine.headers, 'x-access-timestamp': '1e9' }, verifyingKey), 'INVALID_TIMESTAMP'],
  ['bad signature', () => api.verifyCallback(genuine.body, { ...genuine.headers, 'x-access-signature': 'AAAA' }, verifyingKey), 'INVALID_SIGNATURE'],
];

function verifyOnce(i) {
  const [label, call, code] = VERIFY_MIX[i % VERIFY_MIX.length];
  let result;
  try {
    result = call();
  } catch (error) {
    if (error?.code === code && code !== null) return code;
    throw new Error(`call ${i} (${label}): expected ${code ?? 'success'}, got ${error?.code ?? error}: ${error?.message}`);
  }
  if (code !== null) throw new Error(`call ${i} (${label}): expected ${code}, it verified`);
  if (result.paymentId !== 'order-10045') throw new Error(`call ${i} (${label}): wrong result ${result.paymentId}`);
  return 'ok';
}

function signOnce(i) {
  const body = `{"project_id":"prj_1","payment":{"amount":${i},"currency":"RUB"},"general":{"payment_id":"order-${i}"}}`;
  const { headers } = api.signRequest(body, signingKey, { merchantId: 'merchant-1', timestamp: 1700000000 + i });
  const message = api.canonicalMessage(body, headers['x-access-timestamp']);
  const signature = Buffer.from(headers['x-access-signature'], 'base64url');
  if (!crypto.verify('sha256', Buffer.from(message), publicPem, signature)) throw new Error(`call ${i}: node:crypto rejects the signature`);
  return 'signed';
}

// --- the run -----------------------------------------------------------------
const MB = 1024 * 1024;
const samples = [];
const outcomes = {};
function sample(calls, started) {
  gc();
  const m = process.memoryUsage();
  samples.push({
    calls,
    seconds: (performance.now() - started) / 1000,
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    wasm: wasmBytes(),
    externrefs: externrefs(),
  });
}

const every = Math.max(1, Math.floor(CALLS / SAMPLES));
console.log(`soak: ${CALLS} calls, one signRequest every ${SIGN_EVERY} (${Math.floor(CALLS / SIGN_EVERY)} signs), the rest verifyCallback; a sample every ${every} calls${globalThis.gc ? '' : ' (no --expose-gc: JS heap figures include garbage)'}`);
console.log(`node ${process.version}, package ${JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version}`);
const started = performance.now();
sample(0, started);
let signs = 0;
for (let i = 1; i <= CALLS; i += 1) {
  const outcome = i % SIGN_EVERY === 0 ? signOnce(i) : verifyOnce(i);
  if (outcome === 'signed') signs += 1;
  outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  if (i % every === 0 || i === CALLS) {
    sample(i, started);
    const last = samples.at(-1);
    const line = `  ${i}/${CALLS} calls, ${last.seconds.toFixed(0)} s, wasm ${(last.wasm / MB).toFixed(2)} MB, rss ${(last.rss / MB).toFixed(1)} MB`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}   ` : `${line}\n`);
  }
}
if (process.stderr.isTTY) process.stderr.write('\n');
const seconds = (performance.now() - started) / 1000;

// --- report ------------------------------------------------------------------
const fmt = (bytes) => (bytes / MB).toFixed(2);
console.log('');
console.log('| sample | calls | seconds | rss MB | heapUsed MB | external MB | arrayBuffers MB | wasm memory MB | externref table |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
samples.forEach((s, n) => {
  console.log(`| ${n} | ${s.calls} | ${s.seconds.toFixed(1)} | ${fmt(s.rss)} | ${fmt(s.heapUsed)} | ${fmt(s.external)} | ${fmt(s.arrayBuffers)} | ${fmt(s.wasm)} | ${s.externrefs} |`);
});

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const settled = samples.slice(Math.max(1, Math.ceil(samples.length * WARM_UP)));
const half = settled.length >> 1;
const first = settled.slice(0, half);
const second = settled.slice(half);
const verdicts = [];
if (first.length === 0 || second.length === 0) {
  verdicts.push(['all', 'too few samples for a verdict', false]);
} else {
  // Never shrink: any growth after warm-up is growth.
  for (const key of ['wasm', 'externrefs']) {
    const grew = Math.max(...second.map((s) => s[key])) - Math.max(...first.map((s) => s[key]));
    verdicts.push([key, grew > 0 ? `grew by ${key === 'wasm' ? `${fmt(grew)} MB` : grew} after warm-up` : 'flat after warm-up', grew > 0]);
  }
  // JS figures move with GC and allocation: growing when the second half's median
  // exceeds the first half's by more than 10 % and 4 MB.
  for (const key of ['rss', 'heapUsed', 'external', 'arrayBuffers']) {
    const a = median(first.map((s) => s[key]));
    const b = median(second.map((s) => s[key]));
    const growing = b - a > Math.max(0.1 * a, 4 * MB);
    verdicts.push([key, `median ${fmt(a)} -> ${fmt(b)} MB (${b >= a ? '+' : ''}${fmt(b - a)})`, growing]);
  }
}
const growing = verdicts.some(([, , g]) => g);
console.log('');
console.log(`calls: ${CALLS} in ${seconds.toFixed(1)} s (${(CALLS / seconds).toFixed(0)}/s): ${JSON.stringify(outcomes)}`);
console.log(`signRequest: ${signs}; verifyCallback: ${CALLS - signs}`);
console.log(`warm-up: first ${samples.length - settled.length} of ${samples.length} samples left out; halves of ${first.length} and ${second.length}`);
for (const [key, text, g] of verdicts) console.log(`  ${g ? 'GROWING' : 'flat   '} ${key}: ${text}`);
console.log(`verdict: ${growing ? 'GROWING' : 'FLAT'}`);
if (process.env.SOAK_JSON) {
  fs.writeFileSync(process.env.SOAK_JSON, `${JSON.stringify({ calls: CALLS, signEvery: SIGN_EVERY, seconds, outcomes, samples, verdicts, verdict: growing ? 'growing' : 'flat' }, null, 2)}\n`);
}
process.exitCode = growing ? 2 : 0;
