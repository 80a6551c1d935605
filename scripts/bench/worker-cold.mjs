#!/usr/bin/env node
// The bench line "cold start in a worker": the time from `new Worker` (worker_threads, a new
// Worker per sample) to the first genuine callback verified (tests/vectors/callbacks.json's
// "valid callback", rsa2048.public.pem), for each entry of each built package present:
//   full, web entry    pkg/web/index.js: init() with the compiled .wasm, verifyCallbackAsync (WebCrypto)
//   full, Node entry   pkg/index.mjs: its import compiles the .wasm, verifyCallback (node:crypto)
//   lean, receiver     payment-intake/lean and payment-intake/receiver when the manifest has them,
//                      as the web entry (their .wasm found from the glue they import); absent: a note
// Parts: thread start (new Worker to the worker's first line), import (the entry's JS; for the
// Node entry the .wasm's read, compile and instantiation too), read, compile
// (WebAssembly.compile), fetch globals (Node loads its fetch at the glue's first `typeof
// Response`: see cold-worker.mjs), instantiate (init), first verify (key from PEM and the
// verification).
// Every round runs one sample of every entry, their order turned by one each round; the figures
// are medians with min and max (a part's median is of that part: the parts' medians need not sum
// to the total's). scripts/bench.mjs runs this in a child process of its own (`workerColdBench`),
// whose main thread loads no package, with V8's wasm native module cache off: a thread of the same
// process would otherwise reuse another's compiled module (a worker pool's second worker), and
// the first sample of a build would be the only cold one (--worker-wasm-cache keeps it on).
//   node scripts/bench.mjs --only "cold start in a worker" [--worker-rounds 15] [--against DIR]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

import { AGAINST, arg, pkgDir, root } from './settings.mjs';
import { stats } from './timing.mjs';

export const WORKER_COLD_LINE = 'cold start in a worker';
const here = fileURLToPath(import.meta.url);
const PARTS = ['threadMs', 'importMs', 'readMs', 'compileMs', 'globalsMs', 'instantiateMs', 'verifyMs', 'totalMs'];

/** The target of `subpath` in a package's `exports` under `conditions` (first match in the map's order). */
function resolveExport(exportsMap, subpath, conditions) {
  let target = exportsMap?.[subpath];
  while (target && typeof target === 'object') {
    const key = Object.keys(target).find((k) => conditions.includes(k));
    target = key === undefined ? undefined : target[key];
  }
  return typeof target === 'string' ? target : null;
}

/** The `*_bg.wasm` a web entry's glue loads: named in a module the entry imports (the wasm-bindgen glue's first). */
function wasmOf(entryFile) {
  const seen = new Set();
  const queue = [entryFile];
  const found = [];
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file) || !fs.existsSync(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    const wasm = text.match(/['"`]\.?\/?([\w.-]+_bg\.wasm)['"`]/);
    if (wasm) found.push({ file: path.join(path.dirname(file), wasm[1]), glue: text.includes('__wbg_get_imports') });
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) queue.push(path.resolve(path.dirname(file), m[1]));
  }
  return (found.find((f) => f.glue) ?? found[0])?.file ?? null;
}

/** The entries of the built package in `dir` this line measures, and a note for each absent one. */
export function entriesOf(dir, build) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const entries = [];
  const notes = [];
  const web = ['browser', 'import', 'default'];
  const shownDir = path.relative(root, dir).startsWith('..') ? dir : path.relative(root, dir);
  for (const [name, subpath, kind, conditions] of [
    ['full, web entry', '.', 'web', web],
    ['full, Node entry', '.', 'node', ['node', 'import', 'default']],
    ['lean', './lean', 'web', web],
    ['receiver', './receiver', 'web', web],
  ]) {
    const target = resolveExport(manifest.exports, subpath, conditions);
    const label = `${build}: ${name}`;
    if (!target) {
      notes.push(`${label}: skipped, ${shownDir}/package.json exports no ${subpath === '.' ? 'package root' : `"${subpath}"`} under ${conditions.join('/')}`);
      continue;
    }
    const entryFile = path.join(dir, target);
    const wasmFile = kind === 'web' ? wasmOf(entryFile) : null;
    if (kind === 'web' && !wasmFile) {
      notes.push(`${label}: skipped, no *_bg.wasm named by ${target} or the modules it imports`);
      continue;
    }
    const shown = `${subpath === '.' ? 'payment-intake' : `payment-intake/${subpath.slice(2)}`} → ${target}`;
    entries.push({ label, shown, kind, entryUrl: pathToFileURL(entryFile).href, wasmFile, wasmBytes: wasmFile ? fs.statSync(wasmFile).size : null });
  }
  return { entries, notes };
}

/** One sample: a new Worker for `entry`, its marks as parts in ms from the `new Worker` call. */
function sample(entry, input) {
  return new Promise((resolve, reject) => {
    const created = Number(process.hrtime.bigint()) / 1e6;
    const worker = new Worker(path.join(path.dirname(here), 'cold-worker.mjs'), { workerData: { ...input, kind: entry.kind, entryUrl: entry.entryUrl, wasmFile: entry.wasmFile } });
    let marks = null;
    worker.once('message', (m) => {
      marks = m;
      worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', () => {
      if (!marks) return reject(new Error(`${entry.label}: the worker ended without verifying`));
      const web = entry.kind === 'web';
      resolve({
        threadMs: marks.started - created,
        importMs: marks.imported - marks.started,
        readMs: web ? marks.read - marks.imported : null,
        compileMs: web ? marks.compiled - marks.read : null,
        globalsMs: web ? marks.globals - marks.compiled : null,
        instantiateMs: web ? marks.instantiated - marks.globals : null,
        verifyMs: marks.verified - (web ? marks.instantiated : marks.imported),
        totalMs: marks.verified - created,
      });
    });
  });
}

/** `rounds` rounds over every entry of `dirs` (`[[dir, build name]]`), interleaved; the stats per entry. */
export async function measureWorkerCold(dirs, rounds) {
  const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');
  const vector = JSON.parse(read('tests/vectors/callbacks.json')).cases.find((c) => c.name === 'valid callback');
  const input = { publicPem: read('tests/vectors/keys/rsa2048.public.pem'), body: vector.body, headers: vector.headers };
  const entries = [];
  const notes = [];
  for (const [dir, build] of dirs) {
    const found = entriesOf(dir, build);
    entries.push(...found.entries);
    notes.push(...found.notes);
  }
  // One sample of each first, not counted: the files into the page cache, Node's own modules
  // warm; an entry that cannot verify the callback (no such export, an error) is left out, noted.
  for (const entry of [...entries]) {
    try {
      await sample(entry, input);
    } catch (error) {
      notes.push(`${entry.label}: skipped, its worker failed: ${error.message}`);
      entries.splice(entries.indexOf(entry), 1);
    }
  }
  for (const note of notes) console.log(`  (${note})`);
  const samples = entries.map(() => []);
  for (let r = 0; r < rounds; r += 1) {
    for (let k = 0; k < entries.length; k += 1) {
      const i = (k + r) % entries.length;
      samples[i].push(await sample(entries[i], input));
    }
  }
  return {
    notes,
    entries: entries.map((entry, i) => ({
      label: entry.label,
      entry: entry.shown,
      wasmBytes: entry.wasmBytes,
      samples: samples[i].length,
      ...Object.fromEntries(PARTS.map((part) => [part, samples[i][0]?.[part] === null ? null : stats(samples[i].map((s) => s[part]))])),
    })),
  };
}

/** The figures as printed lines. */
export function workerColdLines(result) {
  const ms = (s) => (s ? s.median.toFixed(1) : '–');
  const lines = [];
  for (const e of result.entries) {
    lines.push(`  ${e.label} (${e.entry}${e.wasmBytes ? `, .wasm ${e.wasmBytes.toLocaleString('en-US')} B` : ''}): median ${e.totalMs.median.toFixed(1)} ms (min ${e.totalMs.min.toFixed(1)}, max ${e.totalMs.max.toFixed(1)}, ${e.samples} samples)`);
    lines.push(`      parts (medians, ms): thread start ${ms(e.threadMs)}, import ${ms(e.importMs)}, read ${ms(e.readMs)}, compile ${ms(e.compileMs)}, Node's fetch globals ${ms(e.globalsMs)}, instantiate ${ms(e.instantiateMs)}, first verify ${ms(e.verifyMs)}`);
  }
  return lines;
}

/**
 * The line, from scripts/bench.mjs: run in a child process (this file as a script), whose main
 * thread loads no package; its figures, or null when it failed (printed).
 */
export function workerColdBench() {
  const jsonFile = path.join(os.tmpdir(), `worker-cold-${process.pid}.json`);
  const flags = process.argv.includes('--worker-wasm-cache') ? [] : ['--no-wasm-native-module-cache-enabled'];
  const args = [...flags, here, '--pkg', pkgDir, '--worker-rounds', String(arg('worker-rounds', 15)), '--json', jsonFile];
  if (AGAINST) args.push('--against', AGAINST);
  const child = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (child.status !== 0) {
    console.error(`scripts/bench/worker-cold.mjs failed (${child.status ?? child.signal})`);
    return null;
  }
  const result = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
  fs.rmSync(jsonFile, { force: true });
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === here) {
  const rounds = arg('worker-rounds', 15);
  const dirs = [[pkgDir, AGAINST ? 'this build' : path.basename(pkgDir)]];
  if (AGAINST) dirs.push([AGAINST, path.basename(AGAINST)]);
  const loadAverageAtStart = os.loadavg().map((l) => Number(l.toFixed(2)));
  const cache = process.execArgv.includes('--no-wasm-native-module-cache-enabled') ? 'wasm module cache off' : 'wasm module cache on';
  console.log(`\n${WORKER_COLD_LINE}: new Worker → first genuine callback verified (${rounds} rounds, entries interleaved, ${cache}; load ${loadAverageAtStart.join(' ')})`);
  const result = await measureWorkerCold(dirs, rounds);
  for (const line of workerColdLines(result)) console.log(line);
  result.rounds = rounds;
  result.wasmModuleCache = cache;
  result.loadAverageAtStart = loadAverageAtStart;
  const jsonIndex = process.argv.indexOf('--json');
  if (jsonIndex >= 0) fs.writeFileSync(process.argv[jsonIndex + 1], `${JSON.stringify(result, null, 2)}\n`);
}
