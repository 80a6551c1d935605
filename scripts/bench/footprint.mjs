// The package's footprint: the size of its .wasm (raw and gzip -9), and its cold
// start, a fresh Node process that imports it, reads a key and signs once.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

import { COLD_RUNS } from './settings.mjs';
import { stats } from './timing.mjs';

/** The .wasm's size in `pkgDir`, against the 100 KiB gzip target. */
export function wasmSize(pkgDir) {
  const wasmBytes = fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm'));
  const size = { raw: wasmBytes.length, gzip: zlib.gzipSync(wasmBytes, { level: 9 }).length, targetGzip: 100 * 1024 };
  size.met = size.gzip <= size.targetGzip;
  console.log(`\n.wasm: ${size.raw} bytes raw, ${size.gzip} bytes gzip (-9); target <= ${size.targetGzip}`);
  return size;
}

/** COLD_RUNS fresh processes: import + key + first sign, against the 25 ms target. */
export function coldStart(pkgDir, signingPem, payinText) {
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
  return coldStart;
}
