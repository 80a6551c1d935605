#!/usr/bin/env node
// Callbacks handled per second by createCallbackHandler with each store, over loopback HTTP:
// memory and PGlite (in the receiver process), PostgreSQL and Redis (throwaway servers from
// tests/support/servers.mjs), with one receiver process and with four (round-robin from the
// load generator; memory and PGlite only in one, as each process would have its own store).
// Every callback is a new, genuine one (signed beforehand with RSA-2048; a new payment each,
// so each is verified, claimed, delivered to a no-op onEvent and committed), sent `concurrency`
// at a time over keep-alive connections; the rate is callbacks answered 200 ÷ wall time, the
// median of `rounds` runs, each on a fresh store. A store whose server is missing is skipped
// with the reason. Writes bench/receiver-results.json and its section of BENCHMARKS.md.
//
//   node bench/receiver.mjs [--callbacks 3000] [--rounds 3] [--concurrency 32] [--pkg DIR]
//   npm run bench -- --only receiver     (the same, from scripts/bench.mjs)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { serverMissing, startPostgres, startRedis } from '../tests/support/servers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const CALLBACKS = Number(arg('callbacks', 3000));
const ROUNDS = Number(arg('rounds', 3));
const CONCURRENCY = Number(arg('concurrency', 32));
const WARMUP = 200;
const pkgDir = path.resolve(arg('pkg', path.join(root, 'pkg')));
const WORKER = path.join(root, 'bench', 'receiver-worker.mjs');

if (!fs.existsSync(path.join(pkgDir, 'index.mjs'))) {
  console.error('pkg/ is not built: run `npm run build` first');
  process.exit(1);
}
const api = await import(pathToFileURL(path.join(pkgDir, 'index.mjs')).href);
const keysDir = path.join(root, 'tests', 'vectors', 'keys');
const signingKey = api.SigningKey.fromPem(fs.readFileSync(path.join(keysDir, 'rsa2048.pkcs8.pem'), 'utf8'));
const publicKeyPem = fs.readFileSync(path.join(keysDir, 'rsa2048.public.pem'), 'utf8');
const template = JSON.parse(JSON.parse(fs.readFileSync(path.join(root, 'tests', 'vectors', 'callbacks.json'), 'utf8')).cases[0].body);

/** `count` signed success callbacks of new payments `tag-0`…: `{ body, headers }`. */
function signedCallbacks(tag, count) {
  return Array.from({ length: count }, (_, i) => {
    const body = structuredClone(template);
    body.general.payment_id = `${tag}-${i}`;
    body.status = { status: 'success', sub_status: null, status_description: null };
    const signed = api.signRequest(JSON.stringify(body), signingKey, { merchantId: 'bench-merchant' });
    return { body: signed.body, headers: { 'content-type': 'application/json', ...signed.headers } };
  });
}

function startWorker(config) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', (line) => resolve({ child, port: JSON.parse(line).port }));
    child.once('exit', (code, signal) => reject(new Error(`receiver worker exited (${code ?? signal}) before it listened`)));
  });
}

function stopWorker({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** POSTs every callback, `CONCURRENCY` at a time, round-robin over `ports`; `{ seconds, statuses }`. */
async function send(ports, callbacks) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const statuses = {};
  let next = 0;
  const post = ({ body, headers }, port) =>
    new Promise((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/cb', method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', (e) => resolve(e.code ?? e.message));
      req.end(body);
    });
  const started = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < callbacks.length) {
      const i = next++;
      const status = await post(callbacks[i], ports[i % ports.length]);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  return { seconds, statuses };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`receiver bench: ${CALLBACKS} new callbacks per run, ${ROUNDS} runs, ${CONCURRENCY} in flight, on ${os.cpus().length} cores`);
const signStarted = Date.now();
const warm = signedCallbacks('warm', WARMUP);
const measured = signedCallbacks('bench', CALLBACKS);
console.log(`  (signed ${WARMUP + CALLBACKS} callbacks in ${((Date.now() - signStarted) / 1000).toFixed(1)} s)`);

const servers = {};
const skipped = {};
for (const kind of ['postgres', 'redis']) {
  const why = serverMissing(kind);
  if (why) skipped[kind] = why;
}
if (!skipped.postgres) servers.postgres = await startPostgres({ settings: { max_connections: 100 } });
if (!skipped.redis) servers.redis = await startRedis();

const CONFIGS = [
  { store: 'memory', processes: 1 },
  { store: 'pglite', processes: 1 },
  { store: 'postgres', processes: 1 },
  { store: 'postgres', processes: 4 },
  { store: 'redis', processes: 1 },
  { store: 'redis', processes: 4 },
];
const results = [];
try {
  for (const { store, processes } of CONFIGS) {
    const label = `${store}, ${processes} process${processes > 1 ? 'es' : ''}`;
    if (skipped[store]) {
      console.log(`  ${label}: skipped: ${skipped[store]}`);
      results.push({ store, processes, skipped: skipped[store] });
      continue;
    }
    const rates = [];
    const answers = {};
    for (let round = 1; round <= ROUNDS; round += 1) {
      const name = `bench_${store}_${processes}_${round}_${process.pid}`;
      const config = { pkgDir, store, name, publicKeyPem, pg: servers.postgres?.config, redisUrl: servers.redis?.url };
      const workers = await Promise.all(Array.from({ length: processes }, () => startWorker(config)));
      try {
        const ports = workers.map((w) => w.port);
        await send(ports, warm);
        const { seconds, statuses } = await send(ports, measured);
        for (const [k, v] of Object.entries(statuses)) answers[k] = (answers[k] ?? 0) + v;
        rates.push((statuses[200] ?? 0) / seconds);
      } finally {
        await Promise.all(workers.map(stopWorker));
      }
    }
    const row = { store, processes, perSecond: { median: median(rates), min: Math.min(...rates), max: Math.max(...rates) }, answers };
    results.push(row);
    console.log(`  ${label}: median ${Math.round(row.perSecond.median)} callbacks/s (min ${Math.round(row.perSecond.min)}, max ${Math.round(row.perSecond.max)}); answers ${JSON.stringify(answers)}`);
  }
} finally {
  await servers.postgres?.stop();
  await servers.redis?.stop();
}

const machine = { date: new Date().toISOString(), cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, loadAverage: os.loadavg().map((x) => x.toFixed(2)), node: process.version };
fs.writeFileSync(path.join(root, 'bench', 'receiver-results.json'), `${JSON.stringify({ machine, settings: { callbacks: CALLBACKS, rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP }, results }, null, 2)}\n`);

const START = '<!-- bench-receiver:start (written by bench/receiver.mjs) -->';
const END = '<!-- bench-receiver:end -->';
const rows = results.map((r) =>
  r.skipped
    ? `| ${r.store} | ${r.processes} | skipped: ${r.skipped} | | |`
    : `| ${r.store} | ${r.processes} | **${Math.round(r.perSecond.median).toLocaleString('en-US')}** | ${Math.round(r.perSecond.min).toLocaleString('en-US')} – ${Math.round(r.perSecond.max).toLocaleString('en-US')} | ${Object.entries(r.answers).map(([k, v]) => `${k}: ${v}`).join(', ')} |`,
);
const section = `${START}
Measured ${machine.date.slice(0, 10)} on ${machine.cpu} (${machine.cores} cores, shared; load average at the end ${machine.loadAverage.join(' / ')}), Node ${machine.node}. Each run: ${CALLBACKS} new genuine callbacks (RSA-2048, a new payment each: verified, claimed, a no-op onEvent, committed) POSTed over loopback HTTP, ${CONCURRENCY} in flight, after ${WARMUP} warm-up callbacks, on a fresh store; the rate is answers 200 ÷ wall time, median of ${ROUNDS} runs. Four processes: the load generator sends round-robin to four receiver processes on one store (memory and PGlite are per process, so not run that way). PostgreSQL 15 (fsync off: a test server) on a Unix socket; Redis on 127.0.0.1. The load generator and the servers share the same ${machine.cores} cores.

| store | receiver processes | callbacks/s (median) | min – max | answers (all runs) |
| --- | ---: | ---: | :---: | --- |
${rows.join('\n')}
${END}`;
const mdPath = path.join(root, 'BENCHMARKS.md');
const md = fs.existsSync(mdPath) ? fs.readFileSync(mdPath, 'utf8') : '# Benchmarks\n';
const next = md.includes(START) && md.includes(END)
  ? md.slice(0, md.indexOf(START)) + section + md.slice(md.indexOf(END) + END.length)
  : `${md.trimEnd()}\n\n## Receiving callbacks: handled per second with each store\n\n\`node bench/receiver.mjs\` (also \`npm run bench\`) rewrites this section and \`bench/receiver-results.json\`.\n\n${section}\n`;
fs.writeFileSync(mdPath, next);
console.log('wrote bench/receiver-results.json and the receiver section of BENCHMARKS.md');
