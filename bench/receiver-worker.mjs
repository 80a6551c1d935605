// One receiver process of bench/receiver.mjs: createCallbackHandler over the store named in
// its config, behind node:http on 127.0.0.1 and a free port; prints `{"port":N}` once listening.
// onEvent does nothing: the figure is the handler's own cost (verify, claim, order, commit)
// plus the store's round trips, not a merchant's work.
//   node bench/receiver-worker.mjs '{"pkgDir":…,"store":"memory|pglite|postgres|redis","pg":{…},"redisUrl":…,"name":…,"publicKeyPem":…}'
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(process.argv[2]);
const load = (file) => import(pathToFileURL(path.join(config.pkgDir, file)).href);
const api = await load('index.mjs');

/** The store of `config.store`, and how to close its client. */
async function openStore() {
  if (config.store === 'memory') return [api.memoryStore(), async () => {}];
  if (config.store === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { postgresStore } = await load('stores/postgres.mjs');
    const db = new PGlite();
    return [postgresStore(db, { schema: config.name }), () => db.close()];
  }
  if (config.store === 'postgres') {
    const { default: pg } = await import('pg');
    const { postgresStore } = await load('stores/postgres.mjs');
    const pool = new pg.Pool({ ...config.pg, max: 10 });
    return [postgresStore(pool, { schema: config.name }), () => pool.end()];
  }
  const { createClient } = await import('redis');
  const { redisStore } = await load('stores/redis.mjs');
  const client = await createClient({ url: config.redisUrl }).connect();
  return [redisStore(client, { prefix: config.name }), () => client.quit()];
}

const [store, close] = await openStore();
const handler = api.createCallbackHandler({
  keys: api.VerifyingKey.fromPem(config.publicKeyPem),
  store,
  verify: { toleranceSeconds: 86400 },
  onEvent: async () => {},
});
const server = http.createServer(handler.node);
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => {
  server.close(() => Promise.resolve(close()).finally(() => process.exit(0)));
  server.closeAllConnections();
});
