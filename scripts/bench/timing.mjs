// Timing: operations per second over a batch, min/median/max of rounds, and the
// two ways one line is measured: `compare` (ours against a baseline, round by
// round, back to back) and `abCompare` (this build against another, interleaved
// batches of about 2 ms).
import { BATCH_MS, ONLY, ROUNDS } from './settings.mjs';

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

export const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};

/**
 * `ours` against `baseline`: each round measures both, alternating which goes
 * first, and takes ours/baseline (throughput ratio: > 1 means ours is faster).
 */
export async function compare(title, ours, baseline, { ms = BATCH_MS, target, asyncOurs = false, asyncBase = false } = {}) {
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

/**
 * This build against another, one line: batches of about 2 ms of each build in turn (ABBA…)
 * for `seconds`, after a warm-up. Batches this short put both builds under the same load
 * (rounds of 200 ms each, as `compare` takes, moved by 10 % and more between two runs on this
 * shared machine). The ratio is the other build's total time ÷ this build's (throughput of
 * this build ÷ the other's: above 1, this build is faster); the spread is the 10th to 90th
 * percentile of the ratios of the pairs.
 */
export function abCompare(title, ours, theirs, seconds) {
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
