// One receiver process of tests/e2e/receiver-cluster.test.mjs: createCallbackHandler over a
// shared store (postgresStore on a pg.Pool, or redisStore on a node-redis client) behind
// node:http on 127.0.0.1 and a free port; prints `{"port":N}` once listening.
//   node cluster-receiver.mjs '<json config>'
// config: { pkgDir, store: 'postgres' | 'redis', pg (pg.Pool config), redisUrl, prefix,
//           servicePublicKeyPem, merchantId, dieAt (SIGKILL itself inside the dieAt-th onEvent to start, once its work is done; 0: never) }
// onEvent: postgres: notes the delivery (table deliveries) and, for a success, credits the
// payment (table credits), both through `tx`, so they commit with the store's record or not at
// all; redis: notes the delivery outside the store (list <prefix>:test:events), at once.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import http from 'node:http';

const config = JSON.parse(process.argv[2]);
const load = (file) => import(pathToFileURL(path.join(config.pkgDir, file)).href);
const api = await load('index.mjs');

let store;
let note;
let close;
if (config.store === 'postgres') {
  const { default: pg } = await import('pg');
  const { postgresStore } = await load('stores/postgres.mjs');
  const pool = new pg.Pool({ ...config.pg, max: 8 });
  store = postgresStore(pool);
  // Through tx: a second pool connection inside onEvent can wait forever on a full pool whose
  // other connections wait on this payment's row lock.
  note = (event, tx) => tx.query('INSERT INTO deliveries (pid, project_id, payment_id, key) VALUES ($1, $2, $3, $4)', [process.pid, event.callback.projectId, event.callback.paymentId, event.callback.idempotencyKey]);
  close = () => pool.end();
} else {
  const { createClient } = await import('redis');
  const { redisStore } = await load('stores/redis.mjs');
  const client = await createClient({ url: config.redisUrl }).connect();
  store = redisStore(client, { prefix: config.prefix, leaseMs: 5000 });
  note = (event) => client.sendCommand(['RPUSH', `${config.prefix}:test:events`, JSON.stringify([process.pid, event.callback.projectId, event.callback.paymentId, event.callback.idempotencyKey])]);
  close = () => client.quit();
}

let events = 0;
const handler = api.createCallbackHandler({
  keys: api.VerifyingKey.fromPem(config.servicePublicKeyPem),
  store,
  verify: { toleranceSeconds: 600, expectedMerchantId: config.merchantId },
  async onEvent(event, { tx }) {
    // This call's number, taken before any await: onEvent calls overlap, so the shared count
    // read after the awaits below may already be past dieAt for every one of them.
    const n = ++events;
    await note(event, tx);
    if (config.store === 'postgres' && event.callback.status === 'success') {
      await tx.query('INSERT INTO credits (project_id, payment_id, key, pid) VALUES ($1, $2, $3, $4)', [event.callback.projectId, event.callback.paymentId, event.callback.idempotencyKey, process.pid]);
    }
    // Killed with the work done but not committed: the store must roll it back (postgres) or let
    // the lease expire (redis), and the service's retry, answered by another process, does it again.
    // `>=`: should the dieAt-th call's work fail, the next call that finishes its work dies instead.
    if (config.dieAt > 0 && n >= config.dieAt) process.kill(process.pid, 'SIGKILL');
  },
  async onReview(kept) {
    process.stderr.write(`review: ${kept.code} ${kept.message}\n`);
  },
});

const server = http.createServer(handler.node);
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => {
  server.close(() => close().finally(() => process.exit(0)));
  server.closeAllConnections();
});
