// Every store on the same misuse (support/store-misuse-kit.mjs), as the happy paths are run
// over every store (support/store-kit.mjs, support/store-matrix.mjs): memoryStore,
// postgresStore on PGlite and on a real PostgreSQL (pg Pool), redisStore through ioredis and
// node-redis. Each case asserts what the contract says (receiver/store.d.ts); the last tests
// hold what the stores answered equal, case by case: the same code, status, class, members
// and message (their own name aside).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { pkgDir } from './helpers.mjs';
import { BROKEN, CASES } from './support/store-misuse-kit.mjs';
import { NODE_REDIS, STORES } from './support/store-matrix.mjs';

const { postgresStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'postgres.mjs')).href);
const { redisStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'redis.mjs')).href);

/** A client that fails every call with a text, not an Error (a driver, or a wrapper of one, may). */
const down = () => Promise.reject('down');
const FAILING = {
  'postgresStore on PGlite': () => postgresStore({ query: down, transaction: down }),
  'postgresStore on PostgreSQL': () => postgresStore({ query: down, connect: down }),
  redisStore: () => redisStore({ call: down }),
  'redisStore (node-redis)': () => redisStore({ sendCommand: down }),
};

const KINDS = [...STORES, NODE_REDIS].map((kind) => ({ ...kind, failing: FAILING[kind.name] }));
/** case name -> store name -> what the case observed. */
const observed = new Map();

for (const kind of KINDS) {
  describe(`store misuse: ${kind.name}`, { skip: kind.skip }, () => {
    for (const misuse of [...CASES, BROKEN]) {
      test(misuse.name, async (t) => {
        const { store, close } = await kind.open();
        try {
          if (misuse === BROKEN && !kind.broken) return t.skip('no client to close: it lives in this process');
          if (misuse.when && !misuse.when(store.guarantee)) return t.skip(`not for ${store.guarantee} stores`);
          const seen = await misuse.run({ store, kind, guarantee: store.guarantee });
          if (!observed.has(misuse.name)) observed.set(misuse.name, new Map());
          observed.get(misuse.name).set(kind.name, seen);
        } finally {
          await close();
        }
        return undefined;
      });
    }
  });
}

describe('store misuse: every store answers alike', () => {
  for (const misuse of [...CASES, BROKEN]) {
    test(misuse.name, (t) => {
      const byStore = [...(observed.get(misuse.name) ?? new Map())];
      if (byStore.length < 2) return t.skip(`observed on ${byStore.length} store(s)`);
      const [first, firstSeen] = byStore[0];
      for (const [name, seen] of byStore.slice(1)) assert.deepEqual(seen, firstSeen, `${name} differs from ${first}`);
      t.diagnostic(`the same on ${byStore.map(([name]) => name).join(', ')}`);
      return undefined;
    });
  }
});
