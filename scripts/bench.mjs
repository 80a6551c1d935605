#!/usr/bin/env node
// Side-by-side benchmark of the built package (pkg/) against plain Node
// baselines, in one process: every ratio is computed within one round from
// two measurements taken back to back, and the rounds give min/median/max.
// Writes bench/results.json and BENCHMARKS.md. Not a test: nothing fails.
//
//   npm run bench                 (build first: npm run build)
//   node scripts/bench.mjs --rounds 9 --ms 300
//   node scripts/bench.mjs --pkg DIR     measure the built package in DIR instead of pkg/
//   npm run bench -- --against DIR   also times each of the package's own lines
//                                 (bench/ab.mjs) in this build against the build in DIR
//                                 (made by scripts/build-rev.sh REV DIR), in this process,
//                                 and writes that A/B table to BENCHMARKS.md too; each line
//                                 interleaves ~2 ms batches of both for --ab-seconds (4)
//   node scripts/bench.mjs --only "16 concurrent" --load-rounds 31   the client's creates 16 at a
//                                 time, by hand, without and with a store (bench/client-load.mjs)
//   npm run bench -- --only receiver   only the receiver's line (bench/receiver.mjs: callbacks
//                                 handled per second with each store; its own section)
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

import { packageLines } from '../bench/ab.mjs';
import { CLIENT_LINE, clientLine } from '../bench/client.mjs';
import { AGAINST_LINE, CONCURRENT_LINE, PGLITE_LINE, RECONCILE_LINE, STORE_LINE, concurrentLines, reconcileLines } from '../bench/client-load.mjs';
import { payinSchema, plainCanonicalMessage, plainVerifyCallback, largeBody, payinBody } from '../bench/baselines.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkgIndex = process.argv.indexOf('--pkg');
const pkgDir = pkgIndex >= 0 ? path.resolve(process.argv[pkgIndex + 1]) : path.join(root, 'pkg');
const require = createRequire(import.meta.url);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', 7);
const BATCH_MS = arg('ms', 200);
const COLD_RUNS = arg('cold', 15);
const againstIndex = process.argv.indexOf('--against');
const AGAINST = againstIndex >= 0 ? path.resolve(process.argv[againstIndex + 1]) : null;
/** Seconds of interleaved batches per A/B line (`--ab-seconds`). */
const AB_SECONDS = arg('ab-seconds', 4);
const onlyIndex = process.argv.indexOf('--only');
const ONLY = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : null;

/**
 * The receiver's line (bench/receiver.mjs: callbacks handled per second with each store, one
 * and four processes; writes its own section of BENCHMARKS.md), in a child process.
 */
function receiverBench() {
  const r = spawnSync(process.execPath, [path.join(root, 'bench', 'receiver.mjs'), '--pkg', pkgDir], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) console.error(`bench/receiver.mjs failed (${r.status ?? r.signal})`);
  return r.status ?? 1;
}
if (ONLY === 'receiver') process.exit(receiverBench());

if (!fs.existsSync(path.join(pkgDir, 'node', 'index.js'))) {
  console.error('pkg/ is not built: run `npm run build` first');
  process.exit(1);
}
const pi = require(pkgDir);
const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');

// ---------------------------------------------------------------------------
// Timing
// ---------------------------------------------------------------------------

/** Operations per second of `fn` over about `ms` milliseconds (sync or async). */
async function rate(fn, ms, isAsync) {
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(ms * 1e6));
  let now = start;
  while (now < end) {
    // Small inner batches keep the clock reads out of the measurement.
    for (let i = 0; i < 4; i++) {
      if (isAsync) await fn();
      else fn();
    }
    n += 4;
    now = process.hrtime.bigint();
  }
  return (n * 1e9) / Number(now - start);
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};

/**
 * `ours` against `baseline`: each round measures both, alternating which goes
 * first, and takes ours/baseline (throughput ratio: > 1 means ours is faster).
 */
async function compare(title, ours, baseline, { ms = BATCH_MS, target, asyncOurs = false, asyncBase = false } = {}) {
  if (ONLY && !title.includes(ONLY)) return null;
  process.stdout.write(`  ${title} `);
  await rate(ours.fn, Math.max(400, ms), asyncOurs); // warm up: wasm tiers up to TurboFan
  await rate(baseline.fn, Math.max(400, ms), asyncBase);
  const ratios = [];
  const oursRates = [];
  const baseRates = [];
  for (let round = 0; round < ROUNDS; round++) {
    let a;
    let b;
    if (round % 2 === 0) {
      a = await rate(ours.fn, ms, asyncOurs);
      b = await rate(baseline.fn, ms, asyncBase);
    } else {
      b = await rate(baseline.fn, ms, asyncBase);
      a = await rate(ours.fn, ms, asyncOurs);
    }
    oursRates.push(a);
    baseRates.push(b);
    ratios.push(a / b);
    process.stdout.write('.');
  }
  const ratio = stats(ratios);
  const result = {
    title,
    ours: ours.name,
    baseline: baseline.name,
    oursOpsPerSec: stats(oursRates),
    baselineOpsPerSec: stats(baseRates),
    ratio,
    target: target ?? null,
    met: target === undefined ? null : ratio.median >= target,
  };
  console.log(` ratio ${ratio.median.toFixed(2)} (min ${ratio.min.toFixed(2)}, max ${ratio.max.toFixed(2)})${target ? `, target >= ${target}` : ''}`);
  return result;
}

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

const signingPem = read('tests/vectors/keys/rsa2048.pkcs8.pem');
const publicPem = read('tests/vectors/keys/rsa2048.public.pem');
const signingKey = pi.SigningKey.fromPem(signingPem);
const verifyingKey = pi.VerifyingKey.fromPem(publicPem);
const privateKeyObject = crypto.createPrivateKey(signingPem);
const publicKeyObject = crypto.createPublicKey(publicPem);
const subtle = crypto.webcrypto.subtle;
const ALG = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const der = (pem) => Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
const subtlePrivate = await subtle.importKey('pkcs8', der(signingPem), ALG, false, ['sign']);
const subtlePublic = await subtle.importKey('spki', der(publicPem), ALG, false, ['verify']);

const timestamp = '1700000000';
const signOptions = { merchantId: 'merchant-1', timestamp };
const payinText = JSON.stringify(payinBody);
const signMessage = Buffer.from(pi.canonicalMessage(payinText, timestamp));

const callbackCase = JSON.parse(read('tests/vectors/callbacks.json')).cases.find((c) => c.name === 'valid callback');
const callbackBody = callbackCase.body;
const callbackHeaders = callbackCase.headers;
const verifyMessage = Buffer.from(pi.canonicalMessage(callbackBody, timestamp));
const verifySignature = Buffer.from(callbackHeaders['x-access-signature'].replace(/=+$/, ''), 'base64url');
// Under the 64 KiB limit on bodies to canonicalize (it was 100 KB before that limit).
const bigText = JSON.stringify(largeBody(60 * 1024));

// The baselines must compute the same thing as the package.
for (const [name, text] of [['1 KB', callbackBody], ['100 KB', bigText], ['payin', payinText]]) {
  if (plainCanonicalMessage(text, timestamp) !== pi.canonicalMessage(text, timestamp)) {
    throw new Error(`the plain JS canonicalizer disagrees with the package on the ${name} body`);
  }
}
if (!crypto.verify('sha256', verifyMessage, publicKeyObject, verifySignature)) throw new Error('the callback vector does not verify');
plainVerifyCallback(crypto, callbackBody, callbackHeaders, publicKeyObject); // throws unless it accepts the vector
const { hostileBodies } = await import(pathToFileURL(path.join(root, 'tests', 'js', 'hostile-bodies.mjs')).href);
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
const ajvValidate = ajv.compile(payinSchema);
const validatePath = '/api/v1/payment/p2p/payin';
if (!ajvValidate(JSON.parse(payinText)) || !pi.validateRequest(validatePath, payinText).valid) {
  throw new Error(`the payin body must be valid for both validators: ${JSON.stringify(ajvValidate.errors)}`);
}

// ---------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------

const machine = {
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  loadAverageAtStart: os.loadavg().map((l) => Number(l.toFixed(2))),
  node: process.version,
  v8: process.versions.v8,
  rustc: (() => {
    try {
      return execFileSync('rustc', ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      return 'unknown';
    }
  })(),
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  date: new Date().toISOString(),
};
console.log(`bench: ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAverageAtStart.join(' ')}, Node ${machine.node}, ${machine.rustc}`);
console.log(`${ROUNDS} rounds of ~${BATCH_MS} ms per side (RSA in wasm: longer batches)\n`);

const rawSign = { name: 'crypto.sign (cached KeyObject)', fn: () => crypto.sign('sha256', signMessage, privateKeyObject) };
const rawVerify = { name: 'crypto.verify (cached KeyObject)', fn: () => crypto.verify('sha256', verifyMessage, publicKeyObject, verifySignature) };
const plainVerify = { name: 'plain JS verifier (bench/baselines.mjs)', fn: () => plainVerifyCallback(crypto, callbackBody, callbackHeaders, publicKeyObject) };
const subtleSign = { name: 'WebCrypto sign (cached CryptoKey)', fn: () => subtle.sign(ALG, subtlePrivate, signMessage) };
const subtleVerify = { name: 'WebCrypto verify (cached CryptoKey)', fn: () => subtle.verify(ALG, subtlePublic, verifySignature, verifyMessage) };
const wasmSign = { name: "signRequest, backend 'wasm'", fn: () => pi.signRequest(payinText, signingKey, { ...signOptions, backend: 'wasm' }) };
const wasmVerify = {
  name: "verifyCallback, backend 'wasm'",
  fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey, { backend: 'wasm' }),
};
const rsaMs = Math.max(BATCH_MS, 300);

const results = [];
const push = (result) => result && results.push(result);
console.log('signing and verifying (RSA-2048, PKCS#1 v1.5, SHA-256)');
const nodeVerify = { name: 'verifyCallback (node:crypto)', fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey) };
push(await compare('Node signRequest (payin body) vs raw crypto.sign', { name: 'signRequest (node:crypto)', fn: () => pi.signRequest(payinText, signingKey, signOptions) }, rawSign, { ms: rsaMs, target: 0.95 }));
push(await compare('Node verifyCallback (1 KB callback) vs plain JS verifier', nodeVerify, plainVerify, { target: 1.2 }));
push(await compare('Node verifyCallback (1 KB callback) vs raw crypto.verify', nodeVerify, rawVerify, { target: 0.7 }));
push(await compare('pure-wasm signRequest vs raw crypto.sign', wasmSign, rawSign, { ms: rsaMs, target: 0.3 }));
push(await compare('pure-wasm verifyCallback vs raw crypto.verify', wasmVerify, rawVerify, { ms: rsaMs, target: 0.3 }));
push(await compare('pure-wasm signRequest vs WebCrypto sign', wasmSign, subtleSign, { ms: rsaMs, asyncBase: true }));
push(await compare('pure-wasm verifyCallback vs WebCrypto verify', wasmVerify, subtleVerify, { ms: rsaMs, asyncBase: true }));

console.log('\ncanonical message (string in, string out: boundary crossing included)');
push(await compare('canonicalMessage 1 KB vs plain JS', { name: 'canonicalMessage', fn: () => pi.canonicalMessage(callbackBody, timestamp) }, { name: 'plain JS canonicalizer', fn: () => plainCanonicalMessage(callbackBody, timestamp) }, { target: 2.5 }));
push(await compare('canonicalMessage 60 KB vs plain JS', { name: 'canonicalMessage', fn: () => pi.canonicalMessage(bigText, timestamp) }, { name: 'plain JS canonicalizer', fn: () => plainCanonicalMessage(bigText, timestamp) }, { ms: rsaMs, target: 3 }));

console.log('\nvalidation of raw JSON text (P2P payin create body)');
push(await compare('validateRequest vs ajv (JSON.parse + compiled schema, allErrors)', { name: 'validateRequest(path, text)', fn: () => pi.validateRequest(validatePath, payinText) }, { name: 'ajv', fn: () => ajvValidate(JSON.parse(payinText)) }, { target: 1.5 }));

if (!ONLY || CLIENT_LINE.includes(ONLY)) console.log('\nthe client: a P2P payin create against the loopback sandbox (bench/client.mjs)');
push(await clientLine({ pi, pkgDir, signingPem, publicPem, only: ONLY, rounds: Math.max(ROUNDS, 11) }));
// With --against, the other build's client is interleaved with this one's (AGAINST_LINE).
const loadContext = { pi, pkgDir, signingPem, publicPem, other: AGAINST ? require(AGAINST) : undefined };
if (!ONLY || [CONCURRENT_LINE, STORE_LINE, PGLITE_LINE, AGAINST_LINE].some((title) => title.includes(ONLY))) console.log('\nthe client 16 creates at a time, without and with a store, interleaved batches (bench/client-load.mjs)');
for (const line of await concurrentLines(loadContext, { only: ONLY, rounds: arg('load-rounds', 31), batch: arg('load-batch', 64) })) push(line);
if (!ONLY || RECONCILE_LINE.includes(ONLY)) console.log('\nreconcile over payments the client recorded, against the sandbox (bench/client-load.mjs)');
const reconcile = await reconcileLines(loadContext, { only: ONLY });

console.log('\nhostile bodies up to the default 16 KiB callback limit: valid token, wrong signature (cost against a genuine 1 KB callback)');
const genuineVerify = { name: 'verifyCallback, genuine 1 KB', fn: () => pi.verifyCallback(callbackBody, callbackHeaders, verifyingKey) };
const hostile = hostileBodies(16 * 1024);
for (const [name, text, options] of hostile) {
  // Each must fail, and fail for the expected reason, before it is timed.
  let code;
  try {
    pi.verifyCallback(text, callbackHeaders, verifyingKey, options);
  } catch (error) {
    code = error.code;
  }
  if (!['INVALID_SIGNATURE', 'BODY_TOO_LARGE', 'BODY_TOO_DEEP'].includes(code)) throw new Error(`hostile body ${name}: ${code}`);
  const ours = { name: `verifyCallback, ${name} (${code})`, fn: () => { try { pi.verifyCallback(text, callbackHeaders, verifyingKey, options); } catch { /* the refusal is what is timed */ } } };
  push(await compare(`hostile ${name} (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB) vs genuine 1 KB verify`, ours, genuineVerify, { target: 0.05 }));
}
const diagnoseTimes = [];
if (!ONLY || 'diagnoseCallback'.includes(ONLY)) {
  for (const [name, text] of hostile) {
    const runs = [];
    for (let i = 0; i < 5; i += 1) {
      const t0 = performance.now();
      try { pi.diagnoseCallback(text, callbackHeaders, verifyingKey); } catch { /* the refusal is what is timed */ }
      runs.push(performance.now() - t0);
    }
    const ms = stats(runs);
    diagnoseTimes.push({ name, ms, targetMs: 1000, met: ms.max <= 1000 });
    console.log(`  diagnoseCallback, hostile ${name}: median ${ms.median.toFixed(1)} ms (max ${ms.max.toFixed(1)}); target <= 1000 ms`);
  }
}

// The diagnosis of a genuine 1 KB callback signed by the public JS client's rules
// (tests/js/support/js-client-port.mjs, node:crypto): every combination is tried.
const diagnoseDialect = [];
if (!ONLY || 'diagnoseCallback'.includes(ONLY)) {
  const { signLikeJsClient } = await import(pathToFileURL(path.join(root, 'tests', 'js', 'support', 'js-client-port.mjs')).href);
  // With leaves every rule writes differently, so that each combination builds its own message.
  const extra = { flag: true, rate: 1.5e-7, ratio: 1.0, zero: 0, empty: '', 'k\u{1F600}': 1, 'k\u{FF5E}': 2 };
  const dialect = signLikeJsClient({ ...JSON.parse(callbackBody), extra }, signingPem, 'merchant-1', timestamp);
  const runs = [];
  for (let i = 0; i < 25; i += 1) {
    const t0 = performance.now();
    const d = pi.diagnoseCallback(dialect.body, dialect.headers, verifyingKey);
    runs.push(performance.now() - t0);
    if (!d.matched || d.options.digest !== 'double' || d.token !== 'der') throw new Error(`the diagnosis did not name the public JS client: ${d.hint}`);
  }
  const ms = stats(runs);
  const messages = pi.diagnoseCallback(dialect.body, dialect.headers, verifyingKey).messagesTried;
  diagnoseDialect.push({ name: `1 KB callback, public JS client rules (${messages} messages)`, ms, targetMs: 50, met: ms.max <= 50 });
  console.log(`  diagnoseCallback, 1 KB public JS client callback: median ${ms.median.toFixed(2)} ms (max ${ms.max.toFixed(2)}, ${messages} distinct messages); target < 50 ms`);
}

/**
 * This build against another, one line: batches of about 2 ms of each build in turn (ABBA…)
 * for `seconds`, after a warm-up. Batches this short put both builds under the same load
 * (rounds of 200 ms each, as `compare` takes, moved by 10 % and more between two runs on this
 * shared machine). The ratio is the other build's total time ÷ this build's (throughput of
 * this build ÷ the other's: above 1, this build is faster); the spread is the 10th to 90th
 * percentile of the ratios of the pairs.
 */
function abCompare(title, ours, theirs, seconds) {
  if (ONLY && !title.includes(ONLY)) return null;
  process.stdout.write(`  ${title} `);
  const batch = (fn, n) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn();
    return Number(process.hrtime.bigint() - start);
  };
  // Warm-up, 0.4 s of each in turn (the wasm tiers up to TurboFan; a first line of a run
  // with --only is otherwise timed cold), then the batch size of about 2 ms.
  const warmUntil = Date.now() + 800;
  while (Date.now() < warmUntil) {
    batch(ours, 4);
    batch(theirs, 4);
  }
  const n = Math.max(1, Math.round(2e6 / Math.min(batch(ours, 10) / 10, batch(theirs, 10) / 10)));
  let oursNs = 0;
  let theirsNs = 0;
  const pairs = [];
  const end = Date.now() + seconds * 1000;
  for (let k = 0; Date.now() < end; k++) {
    let a;
    let b;
    if (k % 2) {
      a = batch(ours, n);
      b = batch(theirs, n);
    } else {
      b = batch(theirs, n);
      a = batch(ours, n);
    }
    oursNs += a;
    theirsNs += b;
    pairs.push(b / a);
    if (k % 200 === 0) process.stdout.write('.');
  }
  pairs.sort((x, y) => x - y);
  const at = (q) => pairs[Math.min(pairs.length - 1, Math.floor(q * pairs.length))];
  const ratio = { value: theirsNs / oursNs, median: at(0.5), p10: at(0.1), p90: at(0.9), pairs: pairs.length, batch: n };
  const perSec = (ns) => (pairs.length * n * 1e9) / ns;
  const result = { title, ours: 'this build', baseline: 'other build', oursOpsPerSec: perSec(oursNs), baselineOpsPerSec: perSec(theirsNs), ratio, target: 0.97, met: ratio.value >= 0.97 };
  console.log(` ratio ${ratio.value.toFixed(3)} (pairs: median ${ratio.median.toFixed(3)}, 10th–90th percentile ${ratio.p10.toFixed(2)} – ${ratio.p90.toFixed(2)}; ${pairs.length} pairs of ${n}), target >= 0.97`);
  return result;
}

// This build against another (--against DIR): each of the package's own lines, B/A.
const abResults = [];
let abSize = null;
if (AGAINST) {
  if (!fs.existsSync(path.join(AGAINST, 'node', 'index.js'))) throw new Error(`--against ${AGAINST}: no built package there (scripts/build-rev.sh REV DIR makes one)`);
  const other = require(AGAINST);
  const input = { signingPem, publicPem, payinText, signOptions, callbackBody, callbackHeaders, timestamp, bigText, validatePath, hostile };
  const mine = packageLines(pi, input);
  const theirs = packageLines(other, input);
  console.log(`\nthis build (pkg/) against ${AGAINST}: throughput of this build ÷ that build, same process`);
  for (let i = 0; i < mine.length; i += 1) {
    const r = abCompare(`A/B ${mine[i].title}`, mine[i].fn, theirs[i].fn, AB_SECONDS);
    if (r) abResults.push(r);
  }
  const wasmOf = (dir) => fs.statSync(path.join(dir, 'web', 'payment_intake_bg.wasm')).size;
  abSize = { this: wasmOf(pkgDir), other: wasmOf(AGAINST) };
  console.log(`  .wasm: this build ${abSize.this} bytes, other build ${abSize.other} bytes`);
}

if (ONLY) {
  console.log('\n(--only: no size, no cold start, nothing written)');
  process.exit(0);
}

// Size of the .wasm.
const wasmBytes = fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm'));
const size = { raw: wasmBytes.length, gzip: zlib.gzipSync(wasmBytes, { level: 9 }).length, targetGzip: 100 * 1024 };
size.met = size.gzip <= size.targetGzip;
console.log(`\n.wasm: ${size.raw} bytes raw, ${size.gzip} bytes gzip (-9); target <= ${size.targetGzip}`);

// Cold start: a fresh Node process imports the package and signs once.
const coldScript = `
  const t0 = performance.now();
  const pi = await import(${JSON.stringify(path.join(pkgDir, 'index.mjs'))});
  const t1 = performance.now();
  const key = pi.SigningKey.fromPem(${JSON.stringify(signingPem)});
  pi.signRequest(${JSON.stringify(payinText)}, key, { merchantId: 'm', timestamp: 1700000000 });
  const t2 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, firstSignMs: t2 - t1, totalMs: t2 - t0, processMs: t2 }));
`;
const cold = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', coldScript], { encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`cold start run failed: ${child.stderr}`);
  cold.push({ ...JSON.parse(child.stdout), wallMs });
}
const coldStart = Object.fromEntries(['importMs', 'firstSignMs', 'totalMs', 'processMs', 'wallMs'].map((k) => [k, stats(cold.map((c) => c[k]))]));
coldStart.targetMs = 25;
coldStart.met = coldStart.totalMs.median <= coldStart.targetMs;
console.log(`cold start (import + key + first sign, in a fresh process, ${COLD_RUNS} runs): median ${coldStart.totalMs.median.toFixed(1)} ms (min ${coldStart.totalMs.min.toFixed(1)}, max ${coldStart.totalMs.max.toFixed(1)}); process wall ${coldStart.wallMs.median.toFixed(0)} ms`);

// ---------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------

const output = { machine, settings: { rounds: ROUNDS, batchMs: BATCH_MS, rsaBatchMs: rsaMs, coldRuns: COLD_RUNS }, comparisons: results, reconcile, diagnoseHostile: diagnoseTimes, diagnoseDialect, wasmSize: size, coldStart, against: AGAINST ? { dir: AGAINST, comparisons: abResults, wasmBytes: abSize } : null };
fs.mkdirSync(path.join(root, 'bench'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench', 'results.json'), `${JSON.stringify(output, null, 2)}\n`);

const f2 = (x) => x.toFixed(2);
const ops = (x) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));
const perOp = (x) => (1e6 / x >= 1000 ? `${(1e3 / x).toFixed(2)} ms` : `${(1e6 / x).toFixed(1)} µs`);
const mark = (met) => (met === null ? '' : met ? 'yes' : '**no**');
const rows = results.map(
  (r) =>
    `| ${r.title} | ${ops(r.oursOpsPerSec.median)}/s (${perOp(r.oursOpsPerSec.median)}) | ${ops(r.baselineOpsPerSec.median)}/s (${perOp(r.baselineOpsPerSec.median)}) | **${f2(r.ratio.median)}** | ${f2(r.ratio.min)} – ${f2(r.ratio.max)} | ${r.target ? `≥ ${r.target}` : '–'} | ${mark(r.met)} |`,
);
const table = `| comparison | ours (median) | baseline (median) | ratio (median) | ratio min – max | target | met |
| --- | ---: | ---: | ---: | :---: | :---: | :---: |
${rows.join('\n')}
| \`.wasm\` size (raw / gzip -9) | ${size.raw.toLocaleString('en-US')} B / **${size.gzip.toLocaleString('en-US')} B** (${(size.gzip / 1024).toFixed(1)} KiB) | | | | ≤ 100 KiB gzip | ${mark(size.met)} |
| Node cold start: import + key + first sign (fresh process) | **${coldStart.totalMs.median.toFixed(1)} ms** (min ${coldStart.totalMs.min.toFixed(1)}, max ${coldStart.totalMs.max.toFixed(1)}) | | | | ≤ 25 ms | ${mark(coldStart.met)} |
${reconcile.map((r) => `| ${r.title} (${r.runs} runs of ${r.payments}) | **${ops(r.perSec.median)}/s** (min ${ops(r.perSec.min)}, max ${ops(r.perSec.max)}; CPU ${r.cpuMsPerPayment.median.toFixed(2)} ms a payment) | | | | | |`).join('\n')}
${diagnoseTimes.map((d) => `| diagnoseCallback, hostile ${d.name} (5 runs) | **${d.ms.median.toFixed(1)} ms** (max ${d.ms.max.toFixed(1)}) | | | | ≤ 1000 ms | ${mark(d.met)} |`).join('\n')}
${diagnoseDialect.map((d) => `| diagnoseCallback, ${d.name} (25 runs) | **${d.ms.median.toFixed(2)} ms** (max ${d.ms.max.toFixed(2)}) | | | | < 50 ms | ${mark(d.met)} |`).join('\n')}`;

const mdPath = path.join(root, 'BENCHMARKS.md');
const previous = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '';
const START = '<!-- bench:start (written by scripts/bench.mjs) -->';
const END = '<!-- bench:end -->';
const generated = `${START}
Measured ${machine.date.slice(0, 10)} on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB; load average at start ${machine.loadAverageAtStart.join(' / ')}: the machine is shared), Node ${machine.node} (V8 ${machine.v8}), ${machine.rustc}. ${ROUNDS} rounds; in each, ours and the baseline run back to back for ~${BATCH_MS} ms each (${rsaMs} ms for pure-wasm RSA and the 60 KB body), after a warm-up, and the ratio is ours ÷ baseline throughput in that round (higher is better for us). Cold start: ${COLD_RUNS} fresh processes; the time is from before \`import\` to after the first signature (process start-up of Node itself, ~${coldStart.wallMs.median.toFixed(0)} ms wall in all, is not counted).

${table}
${END}`;
const AB_START = '<!-- bench-ab:start (written by scripts/bench.mjs --against) -->';
const AB_END = '<!-- bench-ab:end -->';
const abTable = AGAINST
  ? `${AB_START}
A/B of two builds in one process (${machine.date.slice(0, 10)}, same machine as above): this build (\`pkg/\`) against \`${path.basename(AGAINST)}\`. Each line runs batches of about 2 ms of each build in turn (ABBA…) for ${AB_SECONDS} s after a warm-up; the ratio is the other build's total time ÷ this build's (this build's throughput ÷ the other's: above 1, this build is faster), and the spread is the 10th to 90th percentile of the ratios of the pairs of batches. The target is no line more than 3 % slower.

| line | this build | other build | ratio | pairs: 10th – 90th percentile | met (≥ 0.97) |
| --- | ---: | ---: | ---: | :---: | :---: |
${abResults.map((r) => `| ${r.title.replace(/^A\/B /, '')} | ${ops(r.oursOpsPerSec)}/s | ${ops(r.baselineOpsPerSec)}/s | **${r.ratio.value.toFixed(3)}** | ${f2(r.ratio.p10)} – ${f2(r.ratio.p90)} | ${mark(r.met)} |`).join('\n')}
| \`.wasm\` bytes | ${abSize.this.toLocaleString('en-US')} | ${abSize.other.toLocaleString('en-US')} | | | ${mark(abSize.this <= abSize.other)} |
${AB_END}`
  : null;
let md;
if (previous.includes(START) && previous.includes(END)) {
  md = previous.slice(0, previous.indexOf(START)) + generated + previous.slice(previous.indexOf(END) + END.length);
} else {
  md = `# Benchmarks\n\n\`npm run bench\` (after \`npm run build\`) rewrites the table between the markers and \`bench/results.json\`.\n\n${generated}\n`;
}
if (abTable) {
  md = md.includes(AB_START) && md.includes(AB_END)
    ? md.slice(0, md.indexOf(AB_START)) + abTable + md.slice(md.indexOf(AB_END) + AB_END.length)
    : md.replace(END, `${END}\n\n${abTable}`);
}
fs.writeFileSync(mdPath, md);
console.log(`\nwrote bench/results.json and BENCHMARKS.md`);

console.log('\ncallbacks handled per second with each store (bench/receiver.mjs)');
receiverBench();
