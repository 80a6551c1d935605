// The client under load, and with a store (the "never lose a payment" issue): P2P payin
// creates 16 at a time against the loopback sandbox in this process, through the client
// without a store, with `memoryStore()` and with `postgresStore` on PGlite, against the
// hand-written create of bench/client.mjs (`signRequest`, `fetch`, `JSON.parse`); and
// `handler.reconcile` over payments the client recorded, in payments checked per second.
// The sides are interleaved: each round runs a batch of creates of each side in turn (the
// order rotated from round to round), so every side meets the same load; the ratio of a
// round is the batch's wall time by hand ÷ through the client (throughput ratio: above 1,
// the client is faster), and its spread is over the rounds.
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

import { createBody, handWritten } from './client.mjs';

export const CONCURRENT_LINE = 'client create, 16 concurrent, vs signRequest + fetch + JSON.parse (loopback sandbox)';
export const STORE_LINE = 'client create with memoryStore vs without, 16 concurrent (loopback sandbox)';
export const PGLITE_LINE = 'client create with postgresStore (PGlite) vs without, 16 concurrent (loopback sandbox)';
export const AGAINST_LINE = 'client create, 16 concurrent, this build vs the other build (--against)';
export const RECONCILE_LINE = 'reconcile: payments checked per second (loopback sandbox)';
/** The issue's target: the client's create keeps at least 0.91 of the hand-written create's throughput at 16 concurrent. */
export const CONCURRENT_TARGET = 0.91;
const CONCURRENCY = 16;

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1e3;
};

/** min, median, max, 10th and 90th percentiles. */
function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { min: sorted[0], median: at(0.5), max: sorted[sorted.length - 1], p10: at(0.1), p90: at(0.9) };
}

/** `count` calls of `fn`, `concurrency` in flight; `{ wall, cpu }` in ms. */
async function burst(fn, count, concurrency = CONCURRENCY) {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started += 1;
      await fn();
    }
  };
  const c0 = cpuMs();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { wall: performance.now() - t0, cpu: cpuMs() - c0 };
}

/**
 * `sides` ({ name: fn }) in batches of `batch` calls each, in turn, for `rounds` rounds: the
 * order rotates each round and is reversed every other cycle, so each side takes each place
 * equally. Returns `{ name: { wall: [ms per round], cpu: [...] } }`.
 */
async function interleaved(sides, { rounds, batch }) {
  const names = Object.keys(sides);
  const spent = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
  for (let round = 0; round < rounds; round += 1) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    if (Math.floor(round / names.length) % 2) order.reverse();
    for (const name of order) {
      const { wall, cpu } = await burst(sides[name], batch);
      spent[name].wall.push(wall);
      spent[name].cpu.push(cpu);
    }
    process.stdout.write('.');
  }
  return spent;
}

/** The line of `ours` against `base` (each `{ wall, cpu }` per round), in the shape of scripts/bench.mjs's `compare`. */
function lineOf(title, names, ours, base, batch, target) {
  const perRound = (side, kind) => side[kind].map((ms) => (batch * 1e3) / ms);
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  const ratio = { ...spread(base.wall.map((ms, i) => ms / ours.wall[i])), total: sum(base.wall) / sum(ours.wall) };
  const cpu = { ...spread(base.cpu.map((ms, i) => ms / ours.cpu[i])), total: sum(base.cpu) / sum(ours.cpu) };
  const cpuPerCall = (side) => sum(side.cpu) / (batch * side.cpu.length);
  return {
    title, ours: names[0], baseline: names[1], oursOpsPerSec: spread(perRound(ours, 'wall')), baselineOpsPerSec: spread(perRound(base, 'wall')),
    ratio, target: target ?? null, met: target === undefined ? null : ratio.median >= target,
    cpu: { ratio: cpu, oursMsPerCall: cpuPerCall(ours), baselineMsPerCall: cpuPerCall(base) }, rounds: base.wall.length, batch, concurrency: CONCURRENCY,
  };
}

function printLine(line) {
  const r = line.ratio;
  const c = line.cpu.ratio;
  console.log(`  ${line.title}: throughput ratio ${r.median.toFixed(3)} (rounds 10th–90th percentile ${r.p10.toFixed(2)} – ${r.p90.toFixed(2)}, min ${r.min.toFixed(2)}, max ${r.max.toFixed(2)}; total ${r.total.toFixed(3)})${line.target ? `, target >= ${line.target}` : ''}`);
  console.log(`    ${Math.round(line.oursOpsPerSec.median)}/s vs ${Math.round(line.baselineOpsPerSec.median)}/s (median of ${line.rounds} rounds of ${line.batch}); CPU ratio ${c.median.toFixed(3)} (${c.p10.toFixed(2)} – ${c.p90.toFixed(2)}), CPU per create ${line.cpu.oursMsPerCall.toFixed(3)} vs ${line.cpu.baselineMsPerCall.toFixed(3)} ms`);
}

/** PGlite (a devDependency) and the package's postgresStore, or null when PGlite is not installed. */
async function pgliteOf(pkgDir) {
  let PGlite;
  try {
    ({ PGlite } = await import(pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href));
  } catch {
    return null;
  }
  const { postgresStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'postgres.mjs')).href);
  const db = new PGlite();
  await db.waitReady;
  let serial = 0;
  return { db, store: () => postgresStore(db, { schema: `bench_${(serial += 1)}` }) };
}

let serial = 0;
const nextId = (side) => `load-${side}-${(serial += 1)}`;

/**
 * Starts the sandbox and a key for `run(context)`, then stops them. `clientOf(store, other)`:
 * a client of this build, or of `other` (another build's package, `--against`).
 */
async function withSandbox({ pi, pkgDir, signingPem, publicPem, other }, run) {
  const { startSandbox } = await import(pathToFileURL(path.join(pkgDir, 'sandbox', 'index.mjs')).href);
  const sandbox = await startSandbox({ merchantKey: publicPem });
  const key = pi.SigningKey.fromPem(signingPem);
  const otherKey = other?.SigningKey.fromPem(signingPem);
  const clientOf = (store, theirs = false) => (theirs ? other : pi).createClient({ baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: theirs ? otherKey : key, store });
  const creating = (client, side) => async () => {
    const payment = await client.p2p.payin.create(createBody(nextId(side)));
    if (payment.status !== 'processing') throw new Error(`the client's create (${side}) was answered ${payment.status}`);
  };
  try {
    return await run({ sandbox, key, clientOf, creating });
  } finally {
    key.free();
    otherKey?.free();
    await sandbox.close();
  }
}

/**
 * The creates at 16 concurrent: by hand, through the client, through the client with
 * `memoryStore()` (interleaved, `rounds` rounds of `batch` creates each; with `context.other`,
 * another build's package, its client without and with a memoryStore too), then the client
 * with `postgresStore` on PGlite against the client without a store (`pgliteRounds` rounds
 * of `pgliteBatch`). Returns the lines `only` selects.
 */
export async function concurrentLines(context, { only, rounds = 31, batch = 64, pgliteRounds = 11, pgliteBatch = 32 } = {}) {
  const wants = (title) => !only || title.includes(only);
  if (![CONCURRENT_LINE, STORE_LINE, PGLITE_LINE, AGAINST_LINE].some(wants)) return [];
  const { pi, other } = context;
  return withSandbox(context, async ({ sandbox, key, clientOf, creating }) => {
    const lines = [];
    const byHand = handWritten(pi, key, sandbox, () => nextId('hand'));
    const plain = creating(clientOf(), 'client');
    if (wants(CONCURRENT_LINE) || wants(STORE_LINE) || (other && wants(AGAINST_LINE))) {
      const sides = { hand: byHand, client: plain, memory: creating(clientOf(pi.memoryStore()), 'memory') };
      // An other build whose memoryStore records no creates (before the client's store) has no such side.
      const theyRecord = typeof other?.memoryStore?.()?.recordCreate === 'function';
      if (other) sides.theirs = creating(clientOf(undefined, true), 'theirs');
      if (theyRecord) sides.theirMemory = creating(clientOf(other.memoryStore(), true), 'their-memory');
      await interleaved(sides, { rounds: 3, batch }); // warm-up
      process.stdout.write(`  ${CONCURRENT_LINE} `);
      const spent = await interleaved(sides, { rounds, batch });
      console.log();
      const hand = 'signRequest + fetch + JSON.parse';
      if (wants(CONCURRENT_LINE)) {
        lines.push(lineOf(CONCURRENT_LINE, ['client.p2p.payin.create, no store', hand], spent.client, spent.hand, batch, CONCURRENT_TARGET));
        lines.push(lineOf(`${CONCURRENT_LINE}, client with memoryStore`, ['client.p2p.payin.create, memoryStore()', hand], spent.memory, spent.hand, batch, CONCURRENT_TARGET));
      }
      if (other) {
        lines.push(lineOf(`${AGAINST_LINE}, no store`, ['this build, no store', 'other build, no store'], spent.client, spent.theirs, batch));
        lines.push(lineOf(`${CONCURRENT_LINE}, other build's client`, ['other build, no store', 'signRequest + fetch + JSON.parse'], spent.theirs, spent.hand, batch, CONCURRENT_TARGET));
        if (theyRecord) {
          lines.push(lineOf(`${AGAINST_LINE}, memoryStore`, ['this build, memoryStore()', 'other build, memoryStore()'], spent.memory, spent.theirMemory, batch));
          lines.push(lineOf(`${CONCURRENT_LINE}, other build's client with memoryStore`, ['other build, memoryStore()', 'signRequest + fetch + JSON.parse'], spent.theirMemory, spent.hand, batch, CONCURRENT_TARGET));
        }
      }
      if (wants(STORE_LINE)) lines.push(lineOf(STORE_LINE, ['client.p2p.payin.create, memoryStore()', 'client.p2p.payin.create, no store'], spent.memory, spent.client, batch));
    }
    if (wants(PGLITE_LINE)) {
      const pglite = await pgliteOf(context.pkgDir);
      if (pglite === null) {
        console.log(`  ${PGLITE_LINE}: skipped (no @electric-sql/pglite: npm ci)`);
      } else {
        try {
          const sides = { pglite: creating(clientOf(pglite.store()), 'pglite'), client: plain };
          await interleaved(sides, { rounds: 2, batch: pgliteBatch });
          process.stdout.write(`  ${PGLITE_LINE} `);
          const spent = await interleaved(sides, { rounds: pgliteRounds, batch: pgliteBatch });
          console.log();
          lines.push(lineOf(PGLITE_LINE, ['client.p2p.payin.create, postgresStore(PGlite)', 'client.p2p.payin.create, no store'], spent.pglite, spent.client, pgliteBatch));
        } finally {
          await pglite.db.close();
        }
      }
    }
    for (const line of lines) printLine(line);
    return lines;
  });
}

/**
 * `handler.reconcile` against the sandbox: `count` payments created through a client with
 * the store (16 at a time), each moved on by the sandbox (requisites found: not final), then
 * one `reconcile({ olderThanMs: 0 })` over them, timed. `runs` runs per store and
 * concurrency, each on a fresh store; the rate is payments checked ÷ the reconcile's wall time.
 */
export async function reconcileLines(context, { only, runs = 5, count = 200, pgliteRuns = 3, pgliteCount = 100 } = {}) {
  if (only && !RECONCILE_LINE.includes(only)) return [];
  const { pi } = context;
  return withSandbox(context, async ({ sandbox, clientOf }) => {
    const noop = () => {};
    const pglite = await pgliteOf(context.pkgDir);
    const stores = [{ name: 'memoryStore', open: () => pi.memoryStore(), runs, count }];
    if (pglite) stores.push({ name: 'postgresStore (PGlite)', open: pglite.store, runs: pgliteRuns, count: pgliteCount });
    const lines = [];
    try {
      for (const { name, open, runs: n, count: payments } of stores) {
        for (const concurrency of [4, 16]) {
          const rates = [];
          const cpu = [];
          process.stdout.write(`  ${RECONCILE_LINE}, ${name}, concurrency ${concurrency} `);
          for (let run = 0; run <= n; run += 1) {
            const store = open();
            const client = clientOf(store);
            const handler = pi.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, store, onEvent: noop, onError: noop });
            const ids = [];
            await burst(async () => {
              const id = nextId('reconcile');
              ids.push(id);
              const payment = await client.p2p.payin.create(createBody(id));
              if (payment.status !== 'processing') throw new Error(`a create for reconcile was answered ${payment.status}`);
            }, payments);
            await burst(async () => {
              const id = ids.pop();
              const res = await fetch(`${sandbox.url}/sandbox/payments/${encodeURIComponent(id)}/requisites-found?project_id=prj_1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
              if (res.status !== 200) throw new Error(`the sandbox refused to move ${id}: ${res.status} ${await res.text()}`);
            }, payments);
            const c0 = cpuMs();
            const t0 = performance.now();
            const report = await handler.reconcile({ client, olderThanMs: 0, limit: payments, concurrency });
            const wall = performance.now() - t0;
            const used = cpuMs() - c0;
            if (report.checked !== payments || report.advanced !== payments) throw new Error(`reconcile checked ${report.checked} and advanced ${report.advanced} of ${payments}`);
            // The first run warms up.
            if (run > 0) {
              rates.push((payments * 1e3) / wall);
              cpu.push(used / payments);
            }
            process.stdout.write('.');
          }
          const rate = spread(rates);
          const line = { title: `${RECONCILE_LINE}, ${name}, concurrency ${concurrency}`, store: name, concurrency, payments, runs: n, perSec: rate, cpuMsPerPayment: spread(cpu) };
          console.log(` ${Math.round(rate.median)}/s (min ${Math.round(rate.min)}, max ${Math.round(rate.max)}; ${n} runs of ${payments} payments), CPU ${line.cpuMsPerPayment.median.toFixed(3)} ms a payment`);
          lines.push(line);
        }
      }
    } finally {
      await pglite?.db.close();
    }
    return lines;
  });
}
