// One receiver process of tests/e2e/reconcile-cluster.test.mjs: createCallbackHandler over a
// postgresStore on a pg.Pool shared with three other such processes, behind node:http on
// 127.0.0.1 and a free port, that ALSO runs `handler.reconcile` on its own timer with its own
// createClient (same store) pointed at the sandbox. Prints JSON lines on stdout:
//   {"port":N}                                  once listening
//   {"o":[code, source, key, paymentId]}        each onOutcome
//   {"round":N,"checked":…,"advanced":…,…}      each reconcile run that returned
//   {"roundError":"…"}                          a reconcile run that threw
//   node reconcile-receiver.mjs '<json config>'
// config: { pkgDir, pg (pg.Pool config), servicePublicKeyPem, merchantId, merchantKeyPath,
//           sandboxUrl, olderThanMs, intervalMs, limit, concurrency }
// onEvent, through `tx` (so it commits with the store's record or not at all): notes the
// event (table events) and credits a final success whose amount did not change (table credits).
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

import pg from 'pg';

const config = JSON.parse(process.argv[2]);
const load = (file) => import(pathToFileURL(path.join(config.pkgDir, file)).href);
const api = await load('index.mjs');
const { postgresStore } = await load('stores/postgres.mjs');

const pool = new pg.Pool({ ...config.pg, max: 8 });
const store = postgresStore(pool);
const print = (json) => process.stdout.write(`${JSON.stringify(json)}\n`);

const client = api.createClient({
  baseUrl: config.sandboxUrl, merchantId: config.merchantId, key: api.SigningKey.fromPem(fs.readFileSync(config.merchantKeyPath, 'utf8')), store,
  timeoutMs: 10000, retries: 3, retryDelayMs: 20, maxRetryDelayMs: 200,
});

async function onEvent(event, { tx }) {
  const { callback } = event;
  await tx.query(
    'INSERT INTO events (pid, project_id, payment_id, key, source, status, sub_status, final, amount_changed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [process.pid, callback.projectId, callback.paymentId, callback.idempotencyKey, event.source, callback.status, callback.subStatus, event.final, event.amountChanged],
  );
  if (event.final && callback.status === 'success' && !event.amountChanged) {
    await tx.query('INSERT INTO credits (project_id, payment_id, key, source, pid) VALUES ($1, $2, $3, $4, $5)', [callback.projectId, callback.paymentId, callback.idempotencyKey, event.source, process.pid]);
  }
}

const handler = api.createCallbackHandler({
  keys: api.VerifyingKey.fromPem(config.servicePublicKeyPem),
  store,
  verify: { toleranceSeconds: 600, expectedMerchantId: config.merchantId },
  onEvent,
  onOutcome: (o) => print({ o: [o.code, o.source, o.idempotencyKey, o.paymentId] }),
  onError: (error) => process.stderr.write(`onError: ${error?.code ?? ''} ${error?.message}\n`),
  onReview: (kept) => process.stderr.write(`review: ${kept.code} ${kept.message}\n`),
});

let stopping = false;
let rounds = 0;
/** Reconciles until told to stop, a jittered `intervalMs` between runs. */
async function reconcileLoop() {
  while (!stopping) {
    try {
      const report = await handler.reconcile({ client, olderThanMs: config.olderThanMs, limit: config.limit, concurrency: config.concurrency });
      rounds += 1;
      const failedCodes = report.payments.filter((p) => p.error).map((p) => p.code);
      print({ round: rounds, checked: report.checked, advanced: report.advanced, unchanged: report.unchanged, failed: report.failed, failedCodes });
    } catch (error) {
      print({ roundError: `${error?.code ?? ''} ${error?.message}` });
    }
    await sleep(Math.round(config.intervalMs * (0.5 + Math.random())));
  }
}

const server = http.createServer(handler.node);
server.keepAliveTimeout = 30000;
let looping;
server.listen(0, '127.0.0.1', () => {
  print({ port: server.address().port });
  looping = reconcileLoop();
});
process.on('SIGTERM', () => {
  stopping = true;
  server.close();
  server.closeAllConnections();
  Promise.resolve(looping)
    .then(() => pool.end())
    .finally(() => process.exit(0));
});
