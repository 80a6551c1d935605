// Never lose a payment, end to end: four receiver processes (tests/e2e/support/reconcile-receiver.mjs)
// on ONE PostgreSQL, each receiving callbacks AND running handler.reconcile on its own timer
// with its own createClient over the same store, against the sandbox:
//  - every callback of 30 % of the payments is lost for good (startSandbox({ loseCallbacks }) where
//    the sandbox has it; their callback URLs are also a loopback port nothing listens on), and the proxy in front of the receivers drops 10 % of their
//    answers to the others' callbacks (sent duplicated, shuffled, 16 at a time);
//  - the creates are made by a client WITH the store (this process); 20 % of them are hit by a
//    sandbox fault (delay past the client's timeout, or drop-after), so the call fails, and a
//    second, separate create with the same body resolves as that payment, `replayed`;
//  - payments are driven to success (most) or decline by the /sandbox/ scenarios and the
//    sandbox's own settle and lifetime timers.
// Then: one payment per order in the sandbox, every final state recorded in the store, each
// success credited once (onEvent through tx), no decline credited, no key acted on twice,
// events from both sources, and callbacks and reconciles racing on the same payments.
// RECONCILE_PAYMENTS=N changes the 300; RECONCILE_SEED replays a run's picks and drops.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import readline from 'node:readline';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import pg from 'pg';

import { serverSkip, startPostgres } from '../support/servers.mjs';
import { lock, pick, random, startProxy } from './support/proxies.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkgDir = path.join(root, 'pkg');
const WORKER = path.join(root, 'tests', 'e2e', 'support', 'reconcile-receiver.mjs');
const MERCHANT_KEY_PATH = path.join(root, 'tests', 'vectors', 'keys', 'rsa2048.pkcs8.pem');
const PAYMENTS = Number(process.env.RECONCILE_PAYMENTS ?? 300);
const LOST = Math.round(PAYMENTS * 0.3);
const FAULTED = Math.round(PAYMENTS * 0.2);
const RECEIVERS = 4;
const DROP_SHARE = 0.1;
const TIME_SCALE = 50;
const MERCHANT_ID = 'reconcile-merchant';
const PROJECT = 'prj_reconcile';
const P2P = '/api/v1/payment/p2p/payin';
/** Where lost payments' callbacks go: the discard port on loopback, where nothing listens. */
const NOWHERE = 'http://127.0.0.1:9/cb';
/** Plans, in turn: success by the settle timer or forced, decline forced or by the lifetime timer. */
const PLANS = ['settle', 'succeed', 'cancel', 'settle', 'succeed', 'expire'];
/** The create client's deadline, and the delay fault past it. */
const CREATE_TIMEOUT_MS = 4000;
const DELAY_MS = 5000;
/** Plain creates in flight at once. */
const CREATES_AT_ONCE = 4;
/** The safety bound of any one wait: the waits end on counts, long before it. */
const BOUND_MS = 60000;
const RECONCILE = { olderThanMs: 200, intervalMs: 150, limit: 20, concurrency: 4 };

const load = (file) => import(pathToFileURL(path.join(pkgDir, file)).href);
const api = await load('index.mjs');
const { startSandbox } = await load('sandbox/index.mjs');
const { postgresStore } = await load('stores/postgres.mjs');
const { merchantKey, SERVICE_KEY } = await import('../js/support/sandbox-kit.mjs');

/** Polls `predicate` every 50 ms until it holds (true) or `ms` passed (false). */
async function waitFor(predicate, ms = BOUND_MS) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await predicate()) return true;
    await sleep(50);
  }
  return predicate();
}

/** `promise`, or a rejection naming `what` once `ms` passed. */
function bounded(promise, what, ms = BOUND_MS) {
  let timer;
  const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out (${ms} ms) waiting for ${what}`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Starts one receiver; `sink` collects it and its lines. Resolves with its port once it listens. */
function startReceiver(config, sink) {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  sink.children.push(child);
  child.stderr.setEncoding('utf8').on('data', (text) => process.stderr.write(`[receiver ${child.pid}] ${text}`));
  const rounds = { n: 0, checked: 0, advanced: 0, unchanged: 0, failed: 0, failedCodes: {}, errors: [] };
  sink.rounds.push(rounds);
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let json;
      try {
        json = JSON.parse(line);
      } catch {
        return process.stderr.write(`[receiver ${child.pid}] not JSON: ${line}\n`);
      }
      if (json.port) resolve(json.port);
      else if (json.o) sink.outcomes.push(json.o);
      else if (json.roundError) rounds.errors.push(json.roundError);
      else if (json.round) {
        rounds.n = json.round;
        for (const name of ['checked', 'advanced', 'unchanged', 'failed']) rounds[name] += json[name];
        for (const code of json.failedCodes) rounds.failedCodes[code] = (rounds.failedCodes[code] ?? 0) + 1;
      }
    });
    child.once('exit', (code, signal) => reject(new Error(`receiver exited (${code ?? signal}) before it listened`)));
  });
}

/** SIGTERM, then SIGKILL should the receiver not have exited 10 s later. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await bounded(exited, `receiver ${child.pid} to exit`, 10000).catch(() => child.kill('SIGKILL'));
}

/**
 * POSTs a /sandbox/ request; throws unless 200. A move refused because the payment is final
 * already (the settle timer beat 'succeed', the lifetime ended on a loaded machine) is fine.
 */
async function control(sandbox, paymentId, scenario, body = {}) {
  const url = scenario === 'faults' ? `${sandbox.url}/sandbox/faults` : `${sandbox.url}/sandbox/payments/${encodeURIComponent(paymentId)}/${scenario}?project_id=${PROJECT}`;
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (res.status === 409 && ['success', 'decline'].includes(json.state)) return json;
  if (res.status !== 200) throw new Error(`${scenario} of ${paymentId}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The moves a plan forces once the payment awaits confirmation ('expire': none, its lifetime ends it). */
async function drive(sandbox, { paymentId, plan }) {
  if (plan === 'cancel') await control(sandbox, paymentId, 'cancel');
  if (plan === 'settle' || plan === 'succeed') await control(sandbox, paymentId, 'confirm');
  if (plan === 'succeed') await control(sandbox, paymentId, 'succeed');
}

function bodyOf(p, callbackUrl) {
  return {
    general: { project_id: PROJECT, payment_id: p.paymentId, merchant_callback_url: p.lost ? NOWHERE : callbackUrl, merchant_success_callback_url: p.lost ? NOWHERE : callbackUrl, merchant_decline_callback_url: p.lost ? NOWHERE : callbackUrl },
    payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: p.plan === 'expire' ? 300 : 600 },
    customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
  };
}

/**
 * Every create, by `client` (with the store), under `exclusive`: the plain ones between two
 * faulted ones CREATES_AT_ONCE at a time, each faulted one alone: the receivers' requests to
 * the sandbox are held (`gate.hold()`, none in flight), the fault is armed for one request, and
 * the lock is let go once the sandbox reports the fault taken. A faulted call must fail, and a
 * second create with the same body (once the sandbox holds the payment) must resolve as it,
 * replayed. A plain create that fails (a loaded machine) is called again alike.
 */
async function createAll({ sandbox, client, gate, payments, callbackUrl, faults }) {
  const byId = new Map(payments.map((p) => [p.paymentId, p]));
  sandbox.events.on('move', ({ payment }) => (byId.get(payment.paymentId).made = true));
  const exclusive = lock();
  const retries = [];
  /** The first call's end, then (when it failed) the second call, once the sandbox holds the payment (or it never came). */
  const settle = async (p, call) => {
    try {
      await call;
      p.first = 'ok';
      return;
    } catch (error) {
      p.first = error.code;
    }
    p.madeByFirst = await waitFor(() => p.made === true, DELAY_MS * 4);
    const again = await exclusive(() => client.p2p.payin.create(bodyOf(p, callbackUrl)));
    p.retried = { replayed: again.response.replayed === true, paymentId: again.paymentId };
  };
  const plain = [];
  const flush = async () => {
    const batch = plain.splice(0);
    await exclusive(() => Promise.all(Array.from({ length: Math.min(CREATES_AT_ONCE, batch.length) }, async () => {
      while (batch.length) {
        const p = batch.shift();
        const call = client.p2p.payin.create(bodyOf(p, callbackUrl));
        retries.push(settle(p, call));
        await call.catch(() => {});
      }
    })));
  };
  for (const p of payments) {
    if (!p.fault) {
      plain.push(p);
      continue;
    }
    await flush();
    await exclusive(async () => {
      const release = await bounded(gate.hold(), "the receivers' requests in flight to the sandbox");
      try {
        const taken = new Promise((resolve) => faults.once('taken', () => resolve(true)));
        await control(sandbox, null, 'faults', { faults: [p.fault === 'delay' ? { type: 'delay', ms: DELAY_MS, count: 1 } : { type: 'drop-after', count: 1 }] });
        // Fails on its own time (the delay is past the client's deadline): not waited here.
        const call = client.p2p.payin.create(bodyOf(p, callbackUrl));
        retries.push(settle(p, call));
        // A call that ended without taking the fault (the assertions say so) leaves none armed.
        if (!(await bounded(Promise.race([taken, call.then(() => false, () => false)]), `the fault on ${p.paymentId}`))) await control(sandbox, null, 'faults', { faults: [] });
      } finally {
        release();
      }
    });
  }
  await flush();
  const loopEnded = Date.now();
  await Promise.all(retries);
  return loopEnded;
}

/** The whole run; resolves with what the assertions need. */
async function run(t, pgConfig, admin) {
  const seed = Number(process.env.RECONCILE_SEED ?? Date.now() % 1e9);
  t.diagnostic(`seed ${seed} (RECONCILE_SEED=${seed} replays the picks and drops)`);
  const rand = random(seed);
  const lost = pick(PAYMENTS, LOST, rand);
  const faulted = [...pick(PAYMENTS, FAULTED, rand)].sort((a, b) => a - b);
  const payments = Array.from({ length: PAYMENTS }, (_, i) => ({ paymentId: `order-${i}`, plan: PLANS[i % PLANS.length], lost: lost.has(i), fault: null }));
  faulted.forEach((i, n) => (payments[i].fault = n % 2 ? 'drop-after' : 'delay'));
  const byId = new Map(payments.map((p) => [p.paymentId, p]));

  const sandbox = await startSandbox({
    merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, merchantId: MERCHANT_ID, timeScale: TIME_SCALE,
    duplicateCallbacks: true, shuffleCallbacks: true, concurrentCallbacks: 16, callbackAttempts: 8,
    // A sandbox with loseCallbacks loses these payments' callbacks itself; one without it ignores
    // the option, and their callback URLs (NOWHERE) make them undeliverable all the same.
    loseCallbacks: (payment) => byId.get(payment.paymentId)?.lost === true,
  });
  const faults = [];
  const faultEvents = new EventEmitter();
  sandbox.events.on('fault', (e) => {
    faults.push(e.path);
    faultEvents.emit('taken');
  });
  const deliveries = new Map();
  sandbox.events.on('callback', (e) => {
    const id = `${e.requestId}#${e.callback}${e.duplicate ? 'd' : ''}`;
    const d = deliveries.get(id) ?? { url: e.url, ok: false, gaveUp: false, attempts: 0, lost: false };
    d.attempts += 1;
    d.lost ||= e.lost === true;
    d.ok ||= e.status === 200;
    d.gaveUp ||= e.gaveUp;
    deliveries.set(id, d);
  });
  const drives = [];
  const finals = new Set();
  sandbox.events.on('move', ({ payment, move }) => {
    if (move.subStatus === 'awaiting_confirm') drives.push(drive(sandbox, byId.get(payment.paymentId)));
    if (move.status === 'success' || move.status === 'decline') finals.add(payment.paymentId);
  });

  const sink = { outcomes: [], rounds: [], children: [] };
  const times = {};
  let gate;
  let proxy;
  try {
    gate = await startProxy({ upstream: () => Number(new URL(sandbox.url).port) });
    const config = {
      pkgDir, pg: pgConfig, servicePublicKeyPem: sandbox.servicePublicKeyPem, merchantId: MERCHANT_ID, merchantKeyPath: MERCHANT_KEY_PATH, sandboxUrl: gate.url, ...RECONCILE,
    };
    const ports = await bounded(Promise.all(Array.from({ length: RECEIVERS }, () => startReceiver(config, sink))), 'the receivers to listen');
    let next = 0;
    proxy = await startProxy({ upstream: () => ports[next++ % RECEIVERS], dropShare: DROP_SHARE, rand: random(seed + 1) });
    const client = api.createClient({ baseUrl: sandbox.url, merchantId: MERCHANT_ID, key: merchantKey, store: postgresStore(admin), timeoutMs: CREATE_TIMEOUT_MS, retries: 0 });
    const started = Date.now();
    times.loop = (await createAll({ sandbox, client, gate, payments, callbackUrl: `${proxy.url}/cb`, faults: faultEvents })) - started;
    times.created = Date.now() - started;
    assert.ok(await waitFor(() => finals.size === PAYMENTS), 'every payment final in the sandbox');
    times.final = Date.now() - started;
    await bounded(Promise.all(drives), 'the drives');
    await bounded(sandbox.callbacksIdle(), 'the callbacks (delivered or given up)');
    times.idle = Date.now() - started;
    // Counted, not timed: every final state recorded, or each receiver ran 10 more reconciles.
    const roundsAt = sink.rounds.map((r) => r.n);
    const recorded = async () => (await admin.query('SELECT count(*)::int AS n FROM payment_intake.payments WHERE is_final')).rows[0].n;
    await waitFor(async () => (await recorded()) === PAYMENTS || sink.rounds.every((r, i) => r.n >= roundsAt[i] + 10));
    times.recorded = Date.now() - started;
  } finally {
    await sandbox.close();
    await Promise.all(sink.children.map(stop));
    await proxy?.close();
    await gate?.close();
  }
  return { payments, finals: sandbox.payments(), faults, deliveries: [...deliveries.values()], sink, proxy: proxy.stats, gate: gate.stats, times };
}

describe('four receivers reconciling, one PostgreSQL: no payment lost, doubled or mis-credited', { skip: serverSkip('postgres') }, () => {
  let server;
  let admin;
  after(async () => {
    await admin?.end();
    await server?.stop();
  });

  test(`${PAYMENTS} payments, ${LOST} with every callback lost, ${FAULTED} creates faulted and called again, 10 % of answers dropped`, { timeout: 170000 }, async (t) => {
    server = await startPostgres();
    admin = new pg.Pool(server.config);
    await admin.query('CREATE TABLE events (pid int, project_id text, payment_id text, key text, source text, status text, sub_status text, final boolean, amount_changed boolean)');
    await admin.query('CREATE TABLE credits (project_id text, payment_id text, key text, source text, pid int)');
    const r = await run(t, server.config, admin);
    const store = postgresStore(admin);
    const events = (await admin.query('SELECT * FROM events')).rows;
    const credits = (await admin.query('SELECT * FROM credits')).rows;
    const lostIds = new Set(r.payments.filter((p) => p.lost).map((p) => p.paymentId));
    const bySource = (rows) => rows.reduce((acc, e) => ({ ...acc, [e.source]: (acc[e.source] ?? 0) + 1 }), {});
    const outcomes = {};
    for (const [code, source] of r.sink.outcomes) outcomes[`${source} ${code}`] = (outcomes[`${source} ${code}`] ?? 0) + 1;
    const rounds = r.sink.rounds.map(({ n, checked, advanced, failed, failedCodes, errors }) => ({ n, checked, advanced, failed, failedCodes, errors: errors.length }));
    const successes = r.finals.filter((p) => p.status === 'success');
    t.diagnostic(`times (ms from the first create): ${JSON.stringify(r.times)}`);
    t.diagnostic(`sandbox: ${r.finals.length} payments, ${successes.length} success, ${r.finals.length - successes.length} decline; faults taken: ${r.faults.length}; first creates failed: ${JSON.stringify(r.payments.filter((p) => p.first !== 'ok').reduce((a, p) => ({ ...a, [p.first]: (a[p.first] ?? 0) + 1 }), {}))}`);
    t.diagnostic(`credits: ${credits.length} ${JSON.stringify(bySource(credits))}; events: ${events.length} ${JSON.stringify(bySource(events))}, of lost payments ${JSON.stringify(bySource(events.filter((e) => lostIds.has(e.payment_id))))}`);
    t.diagnostic(`outcomes: ${JSON.stringify(outcomes)}`);
    t.diagnostic(`reconcile rounds: ${JSON.stringify(rounds)}`);
    t.diagnostic(`callback proxy: ${JSON.stringify(r.proxy)}; sandbox proxy: ${JSON.stringify(r.gate)}`);

    // One payment per order; the faulted creates failed, and their second call was that payment.
    assert.equal(r.finals.length, PAYMENTS, 'as many payments in the sandbox as orders');
    assert.deepEqual([...new Set(r.finals.map((p) => p.paymentId))].sort(), r.payments.map((p) => p.paymentId).sort(), 'one payment per order');
    assert.deepEqual(r.faults, Array(FAULTED).fill(P2P), 'every fault armed was taken by its create');
    for (const p of r.payments.filter((x) => x.fault)) {
      assert.equal(p.first, p.fault === 'delay' ? 'TIMEOUT' : 'NETWORK_ERROR', `the faulted create of ${p.paymentId} failed`);
      assert.equal(p.madeByFirst, true, `the first create of ${p.paymentId} made the payment`);
      assert.deepEqual(p.retried, { replayed: true, paymentId: p.paymentId }, `the second create of ${p.paymentId} resolved as the payment, replayed`);
    }
    for (const p of r.payments.filter((x) => !x.fault && x.first !== 'ok')) assert.equal(p.retried?.paymentId, p.paymentId, `the create of ${p.paymentId} failed (${p.first}) and its second call resolved`);

    // Every final state recorded; each success credited once, each decline never.
    const creditsOf = new Map();
    for (const c of credits) creditsOf.set(c.payment_id, (creditsOf.get(c.payment_id) ?? 0) + 1);
    for (const p of r.finals) {
      assert.equal((await store.payment(p.projectId, p.paymentId))?.status, p.status, `the final state of ${p.paymentId} (${lostIds.has(p.paymentId) ? 'callbacks lost' : 'callbacks sent'}) is recorded`);
      assert.equal(creditsOf.get(p.paymentId) ?? 0, p.status === 'success' ? 1 : 0, `credits of ${p.paymentId} (${p.status})`);
    }
    assert.ok(successes.length > PAYMENTS / 2 && successes.length < PAYMENTS, 'most succeed, some decline');
    assert.equal(events.filter((e) => e.amount_changed).length, 0, 'no amount changed');
    const keys = new Map();
    for (const e of events) keys.set(e.key, (keys.get(e.key) ?? 0) + 1);
    assert.deepEqual([...keys].filter(([, n]) => n > 1), [], 'no key acted on twice');
    const states = new Map();
    for (const e of events) states.set(`${e.payment_id} ${e.status}:${e.sub_status ?? ''}`, (states.get(`${e.payment_id} ${e.status}:${e.sub_status ?? ''}`) ?? 0) + 1);
    assert.deepEqual([...states].filter(([, n]) => n > 1), [], 'no state of a payment reached onEvent twice');
    assert.deepEqual(events.filter((e) => e.key !== `${e.project_id}:${e.payment_id}:${e.status}:${e.sub_status ?? ''}`).map((e) => `${e.source} ${e.key}`), [], "both sources claim by the spec's key");

    // The callbacks: lost ones never answered, the others all answered 200 in the end.
    const lostDeliveries = r.deliveries.filter((d) => d.url === NOWHERE);
    assert.ok(lostDeliveries.length > 0 && lostDeliveries.every((d) => !d.ok), 'lost callbacks were tried (or lost by the sandbox) and never delivered');
    t.diagnostic(`lost callbacks: ${lostDeliveries.length} (${lostDeliveries.filter((d) => d.lost).length} lost by the sandbox itself), ${lostDeliveries.reduce((a, d) => a + d.attempts, 0)} attempts`);
    assert.deepEqual(r.deliveries.filter((d) => d.url !== NOWHERE && !d.ok).length, 0, 'every other callback answered 200 in the end');
    assert.ok(r.proxy.dropped > 0, 'answers were dropped');
    assert.deepEqual(r.sink.rounds.flatMap((x) => x.errors), [], 'no reconcile threw');
    assert.ok(r.sink.rounds.every((x) => x.advanced > 0), 'every receiver advanced payments by reconcile');

    // Both sources, racing: the lost payments reached only by reconcile, the others by both, a
    // state acted on by one source met by the other as a DUPLICATE.
    assert.ok(events.filter((e) => lostIds.has(e.payment_id)).every((e) => e.source === 'reconcile'), 'lost payments are reached by reconcile only');
    const sent = events.filter((e) => !lostIds.has(e.payment_id));
    assert.ok(sent.some((e) => e.source === 'callback'), 'callbacks reached onEvent');
    assert.ok(sent.some((e) => e.source === 'reconcile'), 'reconcile beat a callback that was on its way');
    const actedBy = new Map(events.map((e) => [e.key, e.source]));
    const met = (source, other) => r.sink.outcomes.filter(([code, s, key]) => s === source && code === 'DUPLICATE' && actedBy.get(key) === other).length;
    assert.ok(met('callback', 'reconcile') > 0, 'a callback met a state reconcile had acted on');
    assert.ok(met('reconcile', 'callback') > 0, 'a reconcile met a state a callback had acted on');
    t.diagnostic(`racing: callback DUPLICATE of a reconciled state ${met('callback', 'reconcile')}, reconcile DUPLICATE of a called-back state ${met('reconcile', 'callback')}, BUSY ${r.sink.outcomes.filter(([code]) => code === 'BUSY').length}`);
  });
});
