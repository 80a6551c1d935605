// Four receiver processes (createCallbackHandler, tests/e2e/support/cluster-receiver.mjs) on one
// shared store, behind a loopback round-robin proxy that drops 10 % of the receivers' answers
// (the socket is destroyed after the receiver answered), fed by the sandbox delivering 300
// payments' callbacks duplicated, shuffled and 16 at a time. One receiver SIGKILLs itself inside
// onEvent partway through (its work done, not committed); it is restarted half a second later on
// a new port, as a supervisor would. Then:
//  - PostgreSQL (postgresStore on a pg.Pool): every successful payment is credited exactly once in
//    the merchant's table written through `tx`, no callback reached onEvent twice with its work
//    committed, every payment's final state is recorded, and every delivery was answered 200 in
//    the end (none given up);
//  - Redis (redisStore): no callback reached onEvent twice among the processes that lived
//    (the killed one's callback is handled again once its lease expires), final states recorded,
//    nothing given up.
// CLUSTER_PAYMENTS=N changes the 300.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import pg from 'pg';
import { createClient } from 'redis';

import { serverSkip, startPostgres, startRedis } from '../support/servers.mjs';
import { random, startProxy } from './support/proxies.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'pkg');
const WORKER = path.join(root, 'tests', 'e2e', 'support', 'cluster-receiver.mjs');
const PAYMENTS = Number(process.env.CLUSTER_PAYMENTS ?? 300);
const RECEIVERS = 4;
const DROP_SHARE = 0.1;
const TIME_SCALE = 25;
const MERCHANT_ID = 'cluster-merchant';
const P2P = '/api/v1/payment/p2p/payin';

const load = (file) => import(pathToFileURL(path.join(pkgDir, file)).href);
const api = await load('index.mjs');
const { startSandbox } = await load('sandbox/index.mjs');
const { merchantKey, SERVICE_KEY } = await import('../js/support/sandbox-kit.mjs');

/** A round-robin proxy over `upstreams` (ports; a slot may be null while its receiver restarts: 502) that drops a `dropShare` of the answers. */
function roundRobinProxy(upstreams, dropShare, seed) {
  let next = 0;
  return startProxy({ upstream: () => upstreams[next++ % upstreams.length], dropShare, rand: random(seed) });
}

/** Starts one receiver process; resolves with `{ child, port }` once it listens. */
function startReceiver(config) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr.setEncoding('utf8').on('data', (text) => process.stderr.write(`[receiver ${child.pid}] ${text}`));
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, port: JSON.parse(line).port }));
    child.once('exit', (code, signal) => reject(new Error(`receiver exited (${code ?? signal}) before it listened`)));
  });
}

/**
 * POSTs to a /sandbox/ control; the answer's JSON. 'succeed' may lose the race with the
 * sandbox's own settle timer (the payment is then a success already): that is fine.
 */
async function control(sandbox, paymentId, scenario) {
  const res = await fetch(`${sandbox.url}/sandbox/payments/${encodeURIComponent(paymentId)}/${scenario}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const json = await res.json();
  if (res.status === 409 && scenario === 'succeed' && json.state === 'success') return json;
  if (res.status !== 200) throw new Error(`${scenario} of ${paymentId}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Runs `fn` over `items` with at most `limit` at once. */
async function pool(items, limit, fn) {
  let i = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (i < items.length) await fn(items[i++]);
  }));
}

/**
 * The whole run over one store: receivers, proxy, sandbox, 300 payments driven to success or
 * decline; resolves with what the assertions need. `receiverConfig` is the store's part.
 */
async function clusterRun(t, receiverConfig) {
  const seed = Number(process.env.CLUSTER_SEED ?? Date.now() % 1e9);
  t.diagnostic(`drop seed ${seed} (CLUSTER_SEED=${seed} replays the drops)`);
  const sandbox = await startSandbox({
    merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, merchantId: MERCHANT_ID, timeScale: TIME_SCALE,
    duplicateCallbacks: true, shuffleCallbacks: true, concurrentCallbacks: 16, callbackAttempts: 40,
  });
  const config = { pkgDir, servicePublicKeyPem: sandbox.servicePublicKeyPem, merchantId: MERCHANT_ID, ...receiverConfig };
  const receivers = await Promise.all(Array.from({ length: RECEIVERS }, (_, i) => startReceiver({ ...config, dieAt: i === 0 ? Math.ceil(PAYMENTS / 10) : 0 })));
  const upstreams = receivers.map((r) => r.port);
  const proxy = await roundRobinProxy(upstreams, DROP_SHARE, seed);
  const killed = [];
  let restarted = null;
  let closing = false;
  receivers[0].child.once('exit', (code, signal) => {
    if (closing) return;
    killed.push({ pid: receivers[0].child.pid, signal, paymentsCreated: sandbox.payments().length });
    upstreams[0] = null;
    restarted = sleep(500).then(() => startReceiver({ ...config, dieAt: 0 })).then((r) => {
      receivers.push(r);
      upstreams[0] = r.port;
    });
  });

  // Every delivery attempt, by callback: answered 200 in the end, or given up.
  const deliveries = new Map();
  const statuses = {};
  sandbox.events.on('callback', (e) => {
    const id = `${e.requestId}#${e.callback}${e.duplicate ? 'd' : ''}`;
    const d = deliveries.get(id) ?? { ok: false, gaveUp: false, attempts: 0 };
    d.attempts += 1;
    d.ok ||= e.status === 200;
    d.gaveUp ||= e.gaveUp;
    deliveries.set(id, d);
    statuses[e.status ?? e.error] = (statuses[e.status ?? e.error] ?? 0) + 1;
  });
  const awaiting = new Map();
  sandbox.events.on('move', ({ payment, move }) => {
    if (move.subStatus === 'awaiting_confirm') awaiting.get(payment.paymentId)?.();
  });

  const started = Date.now();
  const plans = ['cancel', 'settle', 'succeed', 'dispute'];
  const payments = Array.from({ length: PAYMENTS }, (_, i) => ({ paymentId: `order-${i}`, plan: plans[i % plans.length] }));
  try {
    await pool(payments, 24, async ({ paymentId, plan }) => {
      const body = {
        general: { project_id: 'prj_cluster', payment_id: paymentId, merchant_callback_url: `${proxy.url}/cb`, merchant_success_callback_url: `${proxy.url}/cb`, merchant_decline_callback_url: `${proxy.url}/cb` },
        payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 600 },
        customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
      };
      const ready = new Promise((resolve) => awaiting.set(paymentId, resolve));
      const signed = api.signRequest(body, merchantKey, { merchantId: MERCHANT_ID });
      const res = await fetch(`${sandbox.url}${P2P}`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
      assert.equal(res.status, 200, await res.text());
      await ready;
      if (plan === 'cancel') await control(sandbox, paymentId, 'cancel');
      else if (plan === 'settle') await control(sandbox, paymentId, 'confirm'); // success when the settle timer fires
      else if (plan === 'succeed') {
        await control(sandbox, paymentId, 'confirm');
        await control(sandbox, paymentId, 'succeed');
      } else {
        await control(sandbox, paymentId, 'different-amount');
        await control(sandbox, paymentId, 'succeed');
      }
    });
    while (sandbox.payments().some((p) => !['success', 'decline'].includes(p.status))) await sleep(50);
    await sandbox.callbacksIdle();
    await restarted;
    const finals = sandbox.payments().map((p) => ({ projectId: p.projectId, paymentId: p.paymentId, status: p.status }));
    t.diagnostic(`${PAYMENTS} payments in ${((Date.now() - started) / 1000).toFixed(1)} s; ${deliveries.size} callbacks (with duplicates), ${Object.values(statuses).reduce((a, b) => a + b, 0)} attempts: ${JSON.stringify(statuses)}`);
    t.diagnostic(`proxy: ${JSON.stringify(proxy.stats)}; killed: ${JSON.stringify(killed)}`);
    return { finals, deliveries: [...deliveries.values()], killed, proxy: proxy.stats };
  } finally {
    closing = true;
    await restarted?.catch(() => {});
    await sandbox.close();
    await proxy.close();
    for (const { child } of receivers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(receivers.map(({ child }) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : null)));
  }
}

/** What holds for both stores: the kill happened, nothing given up, every callback answered 200, final states recorded. */
async function assertDelivered(run, store) {
  assert.equal(run.killed.length, 1, 'one receiver was killed inside onEvent');
  assert.equal(run.killed[0].signal, 'SIGKILL');
  assert.ok(run.killed[0].paymentsCreated < PAYMENTS, 'the kill came partway through, before every payment was created');
  assert.ok(run.proxy.dropped > 0, 'answers were dropped');
  assert.equal(run.deliveries.filter((d) => d.gaveUp).length, 0, 'no callback given up');
  assert.equal(run.deliveries.filter((d) => !d.ok).length, 0, 'every callback (and duplicate) answered 200 in the end');
  const successes = run.finals.filter((p) => p.status === 'success');
  assert.ok(successes.length > 0 && successes.length < run.finals.length, 'both outcomes');
  for (const p of run.finals) {
    const recorded = await store.payment(p.projectId, p.paymentId);
    assert.equal(recorded?.status, p.status, `the final state of ${p.paymentId} is recorded`);
  }
  return successes;
}

describe('four receivers, one PostgreSQL: exactly once', { skip: serverSkip('postgres') }, () => {
  let server;
  let admin;
  after(async () => {
    await admin?.end();
    await server?.stop();
  });

  test(`${PAYMENTS} payments, duplicated, shuffled, concurrent, 10 % of answers dropped, a receiver SIGKILLed inside onEvent`, { timeout: 240000 }, async (t) => {
    server = await startPostgres();
    admin = new pg.Pool(server.config);
    await admin.query('CREATE TABLE credits (project_id text, payment_id text, key text, pid int)');
    await admin.query('CREATE TABLE deliveries (pid int, project_id text, payment_id text, key text)');
    const run = await clusterRun(t, { store: 'postgres', pg: server.config });
    const { postgresStore } = await load('stores/postgres.mjs');
    const successes = await assertDelivered(run, postgresStore(admin));
    const credits = (await admin.query('SELECT payment_id, count(*)::int AS n FROM credits GROUP BY payment_id')).rows;
    const byPayment = new Map(credits.map((r) => [r.payment_id, r.n]));
    for (const p of run.finals) assert.equal(byPayment.get(p.paymentId) ?? 0, p.status === 'success' ? 1 : 0, `credits of ${p.paymentId} (${p.status})`);
    assert.equal(credits.reduce((a, r) => a + r.n, 0), successes.length);
    const twice = (await admin.query('SELECT key, count(*)::int AS n FROM deliveries GROUP BY key HAVING count(*) > 1')).rows;
    assert.deepEqual(twice, [], 'no callback acted on twice with its work committed');
    t.diagnostic(`credits: ${successes.length} successful payments credited once each; ${(await admin.query('SELECT count(*)::int AS n FROM deliveries')).rows[0].n} committed onEvent calls`);
  });
});

describe('four receivers, one Redis: deduplicated among live processes', { skip: serverSkip('redis') }, () => {
  let server;
  let client;
  after(async () => {
    await client?.quit();
    await server?.stop();
  });

  test(`${PAYMENTS} payments, duplicated, shuffled, concurrent, 10 % of answers dropped, a receiver SIGKILLed inside onEvent`, { timeout: 240000 }, async (t) => {
    server = await startRedis();
    client = await createClient({ url: server.url }).connect();
    const prefix = 'cluster';
    const run = await clusterRun(t, { store: 'redis', redisUrl: server.url, prefix });
    const { redisStore } = await load('stores/redis.mjs');
    const successes = await assertDelivered(run, redisStore(client, { prefix }));
    const events = (await client.sendCommand(['LRANGE', `${prefix}:test:events`, '0', '-1'])).map((e) => JSON.parse(e));
    const dead = new Set(run.killed.map((k) => k.pid));
    const seen = new Map();
    for (const [pid, , , key] of events.filter(([pid]) => !dead.has(pid))) seen.set(key, [...(seen.get(key) ?? []), pid]);
    const twice = [...seen].filter(([, pids]) => pids.length > 1);
    assert.deepEqual(twice, [], 'no callback reached onEvent twice among live processes');
    const keys = new Set(events.map((e) => e[3]));
    for (const p of successes) assert.ok([...keys].some((k) => k.startsWith(`${p.projectId}:${p.paymentId}:success`)), `the success of ${p.paymentId} reached onEvent`);
    t.diagnostic(`onEvent: ${events.length} calls, ${events.filter(([pid]) => dead.has(pid)).length} in the killed process`);
  });
});
