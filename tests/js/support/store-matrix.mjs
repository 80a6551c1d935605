// Every store the package ships, opened fresh for a test: memoryStore, postgresStore on PGlite
// and on a throwaway PostgreSQL (pg Pool), redisStore on a throwaway redis-server (ioredis;
// NODE_REDIS: through node-redis). The servers start once per test file, on first use, and
// stop when it ends. Each but memoryStore also opens a store over a client already closed
// (`broken()`), whose every call fails.
import path from 'node:path';
import { after } from 'node:test';
import { pathToFileURL } from 'node:url';

import { PGlite } from '@electric-sql/pglite';

import { serverSkip, startPostgres, startRedis } from '../../support/servers.mjs';
import { cjs as api, pkgDir } from '../helpers.mjs';

const { postgresStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'postgres.mjs')).href);
const { redisStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'redis.mjs')).href);

let serial = 0;
const fresh = (prefix) => `${prefix}_${process.pid}_${(serial += 1)}`;
const servers = {};
const stops = [];
// Registered when the file imports this module: the root's hook, run once every test ended.
after(async () => {
  for (const stop of stops.splice(0)) await stop();
});
/** A server of `kind`, started on first use (one per file), stopped when the file's tests end. */
function server(kind, start, stop) {
  servers[kind] ??= start().then((s) => {
    stops.push(() => stop(s));
    return s;
  });
  return servers[kind];
}

/** `{ name, skip, open(), broken? }` per store; `open()` gives `{ store, db?, close() }`, `broken()` a store over a closed client. */
export const STORES = [
  { name: 'memoryStore', skip: false, open: async (options) => ({ store: api.memoryStore(options), close: async () => {} }) },
  {
    name: 'postgresStore on PGlite',
    skip: false,
    async open() {
      const db = await server('pglite', async () => {
        const pglite = new PGlite();
        await pglite.waitReady;
        return pglite;
      }, (pglite) => pglite.close());
      return { store: postgresStore(db, { schema: fresh('pi') }), db, close: async () => {} };
    },
    async broken() {
      const closed = new PGlite();
      await closed.waitReady;
      await closed.close();
      return postgresStore(closed, { schema: fresh('pi') });
    },
  },
  {
    name: 'postgresStore on PostgreSQL',
    skip: serverSkip('postgres'),
    async open() {
      const db = await server('postgres', async () => {
        const pg = await startPostgres();
        const { default: pgLib } = await import('pg');
        const pool = new pgLib.Pool({ ...pg.config, max: 8 });
        pool.stopServer = pg.stop;
        return pool;
      }, async (pool) => {
        await pool.end();
        await pool.stopServer();
      });
      return { store: postgresStore(db, { schema: fresh('pi') }), db, close: async () => {} };
    },
    async broken() {
      const pool = await this.open().then(({ db }) => db);
      const { default: pgLib } = await import('pg');
      const ended = new pgLib.Pool({ ...pool.options, max: 1 });
      await ended.end();
      return postgresStore(ended, { schema: fresh('pi') });
    },
  },
  {
    name: 'redisStore',
    skip: serverSkip('redis'),
    async open() {
      const redis = await server('redis', startRedis, (s) => s.stop());
      const { Redis } = await import('ioredis');
      const client = new Redis(redis.port, redis.host, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      return { store: redisStore(client, { prefix: fresh('t') }), client, close: () => client.quit() };
    },
    async broken() {
      const { store, client } = await this.open();
      await client.quit();
      return store;
    },
  },
];

/** redisStore through node-redis (`sendCommand`), as STORES's redisStore is through ioredis (`call`). */
export const NODE_REDIS = {
  name: 'redisStore (node-redis)',
  skip: serverSkip('redis'),
  async open() {
    const redis = await server('redis', startRedis, (s) => s.stop());
    const { createClient } = await import('redis');
    const client = await createClient({ url: redis.url }).connect();
    return { store: redisStore(client, { prefix: fresh('t') }), client, close: () => client.quit() };
  },
  async broken() {
    const { store, client } = await this.open();
    await client.quit();
    return store;
  },
};
