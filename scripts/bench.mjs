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
//   node scripts/bench.mjs --only "cold start in a worker" [--worker-rounds 15]   only the line
//                                 of scripts/bench/worker-cold.mjs: new Worker to the first
//                                 callback verified, per build and entry (with --against too)
//   npm run bench -- --only receiver   only the receiver's line (bench/receiver.mjs: callbacks
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { packageLines } from '../bench/ab.mjs';
import { coldStart as measureColdStart, wasmSize } from './bench/footprint.mjs';
import { loadInputs } from './bench/inputs.mjs';
import { runLines } from './bench/lines.mjs';
import { machineInfo, writeReport } from './bench/report.mjs';
import { AB_SECONDS, AGAINST, BATCH_MS, ONLY, ROUNDS, pkgDir, require, root } from './bench/settings.mjs';
import { abCompare } from './bench/timing.mjs';
import { WORKER_COLD_LINE, workerColdBench } from './bench/worker-cold.mjs';

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
if (ONLY && WORKER_COLD_LINE.includes(ONLY)) process.exit(workerColdBench() ? 0 : 1);

if (!fs.existsSync(path.join(pkgDir, 'node', 'index.js'))) {
  console.error('pkg/ is not built: run `npm run build` first');
  process.exit(1);
}
const pi = require(pkgDir);
const input = await loadInputs(pi);
const { signingPem, publicPem, payinText, signOptions, callbackBody, callbackHeaders, timestamp, bigText, validatePath } = input;

const machine = machineInfo();
console.log(`bench: ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAverageAtStart.join(' ')}, Node ${machine.node}, ${machine.rustc}`);
console.log(`${ROUNDS} rounds of ~${BATCH_MS} ms per side (RSA in wasm: longer batches)\n`);

const { results, reconcile, diagnoseTimes, diagnoseDialect, hostile, rsaMs } = await runLines(pi, input);

const abResults = [];
let abSize = null;
if (AGAINST) {
  if (!fs.existsSync(path.join(AGAINST, 'node', 'index.js'))) throw new Error(`--against ${AGAINST}: no built package there (scripts/build-rev.sh REV DIR makes one)`);
  const other = require(AGAINST);
  const abInput = { signingPem, publicPem, payinText, signOptions, callbackBody, callbackHeaders, timestamp, bigText, validatePath, hostile };
  const mine = packageLines(pi, abInput);
  const theirs = packageLines(other, abInput);
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

const size = wasmSize(pkgDir);
const coldStart = measureColdStart(pkgDir, signingPem, payinText);
const workerCold = workerColdBench();

writeReport({ machine, results, reconcile, diagnoseTimes, diagnoseDialect, rsaMs, size, coldStart, workerCold, abResults, abSize });

console.log('\ncallbacks handled per second with each store (bench/receiver.mjs)');
receiverBench();
