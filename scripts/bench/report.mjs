// What a run of the bench writes: the machine it ran on, bench/results.json, and
// the tables of BENCHMARKS.md between their markers (the comparisons, and the A/B
// table of --against).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { AB_SECONDS, AGAINST, BATCH_MS, COLD_RUNS, ROUNDS, root } from './settings.mjs';

/** The machine, Node and rustc of this run, and its load at the start. */
export function machineInfo() {
  return {
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
}

/** The table's rows of the worker cold start (scripts/bench/worker-cold.mjs), one per build and entry. */
function workerColdRows(workerCold) {
  if (!workerCold) return '| Worker cold start | failed: see the run\'s output | | | | | |';
  const ms = (s) => (s ? `${s.median.toFixed(1)}` : '–');
  return workerCold.entries
    .map((e) => `| Worker cold start, ${e.label} (\`${e.entry}\`): new Worker → first callback verified (${e.samples} workers) | **${e.totalMs.median.toFixed(1)} ms** (min ${e.totalMs.min.toFixed(1)}, max ${e.totalMs.max.toFixed(1)}; thread ${ms(e.threadMs)}, import ${ms(e.importMs)}, compile ${ms(e.compileMs)}, Node's fetch globals ${ms(e.globalsMs)}, instantiate ${ms(e.instantiateMs)}, first verify ${ms(e.verifyMs)}) | | | | | |`)
    .concat(workerCold.notes.map((note) => `| Worker cold start: ${note} | | | | | | |`))
    .join('\n');
}

/** Writes bench/results.json and BENCHMARKS.md from a whole run (not with --only). */
export function writeReport({ machine, results, reconcile, diagnoseTimes, diagnoseDialect, rsaMs, size, coldStart, workerCold, abResults, abSize }) {
  const output = { machine, settings: { rounds: ROUNDS, batchMs: BATCH_MS, rsaBatchMs: rsaMs, coldRuns: COLD_RUNS }, comparisons: results, reconcile, diagnoseHostile: diagnoseTimes, diagnoseDialect, wasmSize: size, coldStart, workerCold, against: AGAINST ? { dir: AGAINST, comparisons: abResults, wasmBytes: abSize } : null };
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
${workerColdRows(workerCold)}
${reconcile.map((r) => `| ${r.title} (${r.runs} runs of ${r.payments}) | **${ops(r.perSec.median)}/s** (min ${ops(r.perSec.min)}, max ${ops(r.perSec.max)}; CPU ${r.cpuMsPerPayment.median.toFixed(2)} ms a payment) | | | | | |`).join('\n')}
${diagnoseTimes.map((d) => `| diagnoseCallback, hostile ${d.name} (5 runs) | **${d.ms.median.toFixed(1)} ms** (max ${d.ms.max.toFixed(1)}) | | | | ≤ 1000 ms | ${mark(d.met)} |`).join('\n')}
${diagnoseDialect.map((d) => `| diagnoseCallback, ${d.name} (25 runs) | **${d.ms.median.toFixed(2)} ms** (max ${d.ms.max.toFixed(2)}) | | | | < 50 ms | ${mark(d.met)} |`).join('\n')}`;

  const mdPath = path.join(root, 'BENCHMARKS.md');
  const previous = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '';
  const START = '<!-- bench:start (written by scripts/bench.mjs) -->';
  const END = '<!-- bench:end -->';
  const generated = `${START}
Measured ${machine.date.slice(0, 10)} on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB; load average at start ${machine.loadAverageAtStart.join(' / ')}: the machine is shared), Node ${machine.node} (V8 ${machine.v8}), ${machine.rustc}. ${ROUNDS} rounds; in each, ours and the baseline run back to back for ~${BATCH_MS} ms each (${rsaMs} ms for pure-wasm RSA and the 60 KB body), after a warm-up, and the ratio is ours ÷ baseline throughput in that round (higher is better for us). Cold start: ${COLD_RUNS} fresh processes; the time is from before \`import\` to after the first signature (process start-up of Node itself, ~${coldStart.wallMs.median.toFixed(0)} ms wall in all, is not counted). Worker cold start (\`scripts/bench/worker-cold.mjs\`): a new \`worker_threads\` Worker per sample, in a process of its own with V8's wasm module cache off, every entry once a round in turn; medians of each part (load at its start ${workerCold ? workerCold.loadAverageAtStart.join(' / ') : '–'}).

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
}
