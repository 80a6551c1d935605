#!/usr/bin/env node
// Soak test of the built package (pkg/, CommonJS build as `require` gives it): many
// signRequest and verifyCallback calls in one process, through both RSA backends, with
// memory sampled as it goes, then a table and a verdict: flat, or growing.
//
//   npm run soak                          1,000,000 calls (about 3 min: see SOAK.md)
//   SOAK_CALLS=100000 npm run soak        fewer calls
//   SOAK_SIGN_EVERY=10 npm run soak       one signRequest every 10 calls (default 5)
//   SOAK_WASM_EVERY=10 npm run soak       backend 'wasm' for 1 in 10 (default 20; 0: never)
//   SOAK_SAMPLES=40 npm run soak          memory samples (default 30)
//   SOAK_JSON=soak.json npm run soak      also write the samples as JSON
//
// The mix, by call number: one call in SOAK_SIGN_EVERY signs a small, different body
// with a 2048-bit key and checks the signature with node:crypto; every other call
// verifies a callback, cycling through what a public endpoint receives: genuine
// callbacks (as text with a plain headers object; as a Buffer with a Headers object and
// the key as a PEM string) and forged ones (tampered body, broken JSON, another key's
// token, a bad timestamp, a bad signature), each checked for the exact outcome. Any
// other outcome stops the run.
//
// Backends: most calls take the default, which in Node is node:crypto for the RSA
// operation (the wasm still reads the arguments, builds the canonical message and makes
// every other check); one sign in SOAK_WASM_EVERY, and one round of the 9-case verify
// mix in SOAK_WASM_EVERY, pass `backend: 'wasm'`, so that the package's own RSA (about
// 200 signs/s against node:crypto's 3,000) is soaked too. Counts and time are reported
// per backend.
//
// Memory: process.memoryUsage() after a forced GC (heapTotal is what V8 has reserved for
// the JS heap, heapUsed what live objects take) (run with --expose-gc, as the npm
// script does), the wasm memory's byteLength and the length of wasm-bindgen's externref
// table (read from the instance, captured by wrapping WebAssembly.Instance before the
// package loads: the package does not expose them); and the process's peak RSS
// (process.resourceUsage().maxRSS). Wasm memory and the table only ever grow, so after
// warm-up any growth is reported; JS figures are compared between the first and second
// half of the samples after warm-up. For each figure the report gives its start, end
// and peak and the sample from which it stayed flat (within a small band) to the end.
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
const SIGN_EVERY = Number(process.env.SOAK_SIGN_EVERY ?? 5);
const WASM_EVERY = Number(process.env.SOAK_WASM_EVERY ?? 20);
const SAMPLES = Number(process.env.SOAK_SAMPLES ?? 30);
const WARM_UP = 0.1; // share of the samples left out of the verdict
for (const [name, value] of [['SOAK_CALLS', CALLS], ['SOAK_SIGN_EVERY', SIGN_EVERY], ['SOAK_SAMPLES', SAMPLES]]) {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1, got ${value}`);
}
if (!Number.isSafeInteger(WASM_EVERY) || WASM_EVERY < 0) throw new Error(`SOAK_WASM_EVERY must be a whole number >= 0, got ${WASM_EVERY}`);
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

/** [label, call(options), expected code or null for success] */
const VERIFY_MIX = [
  ['genuine, text', (o) => api.verifyCallback(genuine.body, genuine.headers, verifyingKey, o), null],
  ['genuine, Buffer + Headers + PEM key', (o) => api.verifyCallback(genuineBuffer, genuineHeaders, publicPem, o), null],
  ['tampered body', (o) => api.verifyCallback(genuine.body.replace('150000', '150001'), genuine.headers, verifyingKey, o), 'INVALID_SIGNATURE'],
  ['genuine, text', (o) => api.verifyCallback(genuine.body, genuine.headers, verifyingKey, o), null],
  ['broken JSON', (o) => api.verifyCallback(`${genuine.body.slice(0, -1)},}`, genuine.headers, verifyingKey, o), 'INVALID_JSON'],
  ['another key', (o) => api.verifyCallback(forgedByAttacker.body, forgedByAttacker.headers, verifyingKey, o), 'INVALID_PUBLIC_KEY'],
  ['genuine, text', (o) => api.verifyCallback(genuine.body, genuine.headers, verifyingKey, o), null],
  ['bad timestamp', (o) => api.verifyCallback(genuine.body, { ...genuine.headers, 'x-access-timestamp': '1e9' }, verifyingKey, o), 'INVALID_TIMESTAMP'],
  ['bad signature', (o) => api.verifyCallback(genuine.body, { ...genuine.headers, 'x-access-signature': 'AAAA' }, verifyingKey, o), 'INVALID_SIGNATURE'],
];
const DEFAULT = 'default (node:crypto)';
const WASM_OPTIONS = { backend: 'wasm' };

/** The n-th verify (from 0): one round of the mix in WASM_EVERY runs with backend 'wasm'. */
function verifyOnce(i, n) {
  const [label, call, code] = VERIFY_MIX[n % VERIFY_MIX.length];
  const wasm = WASM_EVERY > 0 && Math.floor(n / VERIFY_MIX.length) % WASM_EVERY === 0;
  let result;
  try {
    result = call(wasm ? WASM_OPTIONS : undefined);
  } catch (error) {
    if (error?.code === code && code !== null) return [wasm, code];
    throw new Error(`call ${i} (${label}${wasm ? ', wasm' : ''}): expected ${code ?? 'success'}, got ${error?.code ?? error}: ${error?.message}`);
  }
  if (code !== null) throw new Error(`call ${i} (${label}${wasm ? ', wasm' : ''}): expected ${code}, it verified`);
  if (result.paymentId !== 'order-10045') throw new Error(`call ${i} (${label}): wrong result ${result.paymentId}`);
  return [wasm, 'verified'];
}

/** The script's own check of each signature: node:crypto, with the key parsed once. */
const checkKey = crypto.createPublicKey(publicPem);

/** The n-th sign (from 0): one in WASM_EVERY with backend 'wasm'; node:crypto checks each signature. */
function signOnce(i, n) {
  const wasm = WASM_EVERY > 0 && n % WASM_EVERY === 0;
  const body = `{"project_id":"prj_1","payment":{"amount":${i},"currency":"RUB"},"general":{"payment_id":"order-${i}"}}`;
  const options = { merchantId: 'merchant-1', timestamp: 1700000000 + i, ...(wasm ? WASM_OPTIONS : {}) };
  const { headers } = api.signRequest(body, signingKey, options);
  const message = api.canonicalMessage(body, headers['x-access-timestamp']);
  const signature = Buffer.from(headers['x-access-signature'], 'base64url');
  if (!crypto.verify('sha256', Buffer.from(message), checkKey, signature)) throw new Error(`call ${i}${wasm ? ' (wasm)' : ''}: node:crypto rejects the signature`);
  return [wasm, 'signed'];
}

// --- the run -----------------------------------------------------------------
const MB = 1024 * 1024;
const samples = [];
/** backend -> op -> { outcome -> count } and seconds spent. */
const byBackend = {};
function count(wasm, op, outcome, seconds) {
  const backend = wasm ? 'wasm' : DEFAULT;
  const entry = ((byBackend[backend] ??= {})[op] ??= { calls: 0, seconds: 0, outcomes: {} });
  entry.calls += 1;
  entry.seconds += seconds;
  entry.outcomes[outcome] = (entry.outcomes[outcome] ?? 0) + 1;
}
function sample(calls, started) {
  gc();
  const m = process.memoryUsage();
  samples.push({
    calls,
    seconds: (performance.now() - started) / 1000,
    rss: m.rss,
    heapTotal: m.heapTotal,
    heapUsed: m.heapUsed,
    external: m.external,
    arrayBuffers: m.arrayBuffers,
    wasm: wasmBytes(),
    externrefs: externrefs(),
  });
}

const every = Math.max(1, Math.floor(CALLS / SAMPLES));
const plannedSigns = Math.floor(CALLS / SIGN_EVERY);
console.log(
  `soak: ${CALLS} calls, one signRequest every ${SIGN_EVERY} (${plannedSigns} signs), the rest verifyCallback; ` +
    `backend 'wasm' for ${WASM_EVERY > 0 ? `1 in ${WASM_EVERY}` : 'none'} of each, the default (node:crypto) for the rest; ` +
    `a sample every ${every} calls${globalThis.gc ? '' : ' (no --expose-gc: JS heap figures include garbage)'}`,
);
console.log(`node ${process.version}, package ${JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version}`);
const started = performance.now();
sample(0, started);
let signs = 0;
let verifies = 0;
for (let i = 1; i <= CALLS; i += 1) {
  const sign = i % SIGN_EVERY === 0;
  const before = performance.now();
  const [wasm, outcome] = sign ? signOnce(i, signs++) : verifyOnce(i, verifies++);
  count(wasm, sign ? 'signRequest' : 'verifyCallback', outcome, (performance.now() - before) / 1000);
  if (i % every === 0 || i === CALLS) {
    sample(i, started);
    const last = samples.at(-1);
    const line = `  ${i}/${CALLS} calls, ${last.seconds.toFixed(0)} s, wasm ${(last.wasm / MB).toFixed(2)} MB, heap ${(last.heapUsed / MB).toFixed(2)} MB, rss ${(last.rss / MB).toFixed(1)} MB`;
    process.stderr.write(process.stderr.isTTY ? `\r${line}   ` : `${line}\n`);
  }
}
if (process.stderr.isTTY) process.stderr.write('\n');
const seconds = (performance.now() - started) / 1000;
const peakRss = process.resourceUsage().maxRSS * 1024;

// --- report ------------------------------------------------------------------
const fmt = (bytes) => (bytes / MB).toFixed(2);
console.log('');
console.log('| sample | calls | seconds | rss MB | heapTotal MB | heapUsed MB | external MB | arrayBuffers MB | wasm memory MB | externref table |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
samples.forEach((s, n) => {
  console.log(`| ${n} | ${s.calls} | ${s.seconds.toFixed(1)} | ${fmt(s.rss)} | ${fmt(s.heapTotal)} | ${fmt(s.heapUsed)} | ${fmt(s.external)} | ${fmt(s.arrayBuffers)} | ${fmt(s.wasm)} | ${s.externrefs} |`);
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
  for (const key of ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers']) {
    const a = median(first.map((s) => s[key]));
    const b = median(second.map((s) => s[key]));
    const growing = b - a > Math.max(0.1 * a, 4 * MB);
    verdicts.push([key, `median ${fmt(a)} -> ${fmt(b)} MB (${b >= a ? '+' : ''}${fmt(b - a)})`, growing]);
  }
}
const growing = verdicts.some(([, , g]) => g);

// Start, end and peak of each figure, and the first sample from which it stayed within
// a band to the end: exactly for the wasm memory and the table (they only grow), 2 MB
// for rss, 0.5 MB for the others.
const BANDS = { rss: 2 * MB, heapTotal: MB / 2, heapUsed: MB / 2, external: MB / 2, arrayBuffers: MB / 2, wasm: 0, externrefs: 0 };
const figures = Object.entries(BANDS).map(([key, band]) => {
  const values = samples.map((s) => s[key]);
  let from = values.length - 1;
  let low = values[from];
  let high = values[from];
  for (let n = values.length - 2; n >= 0; n -= 1) {
    const lo = Math.min(low, values[n]);
    const hi = Math.max(high, values[n]);
    if (hi - lo > band) break;
    [low, high, from] = [lo, hi, n];
  }
  return { key, start: values[0], end: values.at(-1), peak: Math.max(...values), flatFrom: { sample: from, calls: samples[from].calls, seconds: samples[from].seconds } };
});
const show = (key, value) => (key === 'externrefs' ? String(value) : `${fmt(value)} MB`);

console.log('');
console.log(`calls: ${CALLS} in ${seconds.toFixed(1)} s (${(CALLS / seconds).toFixed(0)}/s); signRequest: ${signs}; verifyCallback: ${verifies}`);
for (const [backend, ops] of Object.entries(byBackend)) {
  for (const [op, entry] of Object.entries(ops)) {
    console.log(`  ${backend}, ${op}: ${entry.calls} in ${entry.seconds.toFixed(1)} s (${(entry.calls / entry.seconds).toFixed(0)}/s): ${JSON.stringify(entry.outcomes)}`);
  }
}
console.log(`peak rss of the process (maxRSS): ${fmt(peakRss)} MB`);
for (const f of figures) {
  console.log(`  ${f.key}: start ${show(f.key, f.start)}, end ${show(f.key, f.end)}, peak ${show(f.key, f.peak)}; flat from sample ${f.flatFrom.sample} (${f.flatFrom.calls} calls, ${f.flatFrom.seconds.toFixed(0)} s)`);
}
console.log(`warm-up: first ${samples.length - settled.length} of ${samples.length} samples left out; halves of ${first.length} and ${second.length}`);
for (const [key, text, g] of verdicts) console.log(`  ${g ? 'GROWING' : 'flat   '} ${key}: ${text}`);
console.log(`verdict: ${growing ? 'GROWING' : 'FLAT'}`);
if (process.env.SOAK_JSON) {
  const report = { calls: CALLS, signEvery: SIGN_EVERY, wasmEvery: WASM_EVERY, seconds, signs, verifies, byBackend, peakRss, figures, samples, verdicts, verdict: growing ? 'growing' : 'flat' };
  fs.writeFileSync(process.env.SOAK_JSON, `${JSON.stringify(report, null, 2)}\n`);
}
process.exitCode = growing ? 2 : 0;
