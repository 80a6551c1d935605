// Every receiver of examples/ end to end, as a merchant runs it: the examples are copied
// into a fresh project that installed the packed package (and express, fastify), each is
// served on a real loopback port, and signed callbacks are POSTed to it: a genuine one is
// handed to the merchant's code once, a repeat and a late state are acknowledged without
// reaching it, a genuine but ambiguous one is kept and answered 200, and forged and tampered
// ones are refused with the package's code (support/receiver-kit.mjs, exerciseAdapter).
// (The edge worker runs in workerd: bundlers.test.mjs.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { PGlite } from '@electric-sql/pglite';

import { root } from './helpers.mjs';
import { installPacked, run } from './support/packed.mjs';
import { callback, exerciseAdapter, poster, recorder as kitRecorder, servicePublicPem, signed } from './support/receiver-kit.mjs';

let app;
let pkg;
before(async () => {
  app = installPacked({ link: ['express', 'fastify'] });
  fs.cpSync(path.join(root, 'examples'), path.join(app.dir, 'examples'), { recursive: true });
  fs.writeFileSync(path.join(app.dir, 'load.mjs'), "export * from 'payment-intake';\n");
  pkg = await import(pathToFileURL(path.join(app.dir, 'load.mjs')).href);
});
after(() => app?.remove());

const example = (file) => import(pathToFileURL(path.join(app.dir, 'examples', file)).href);

/** Handlers that record what reaches the merchant's code, over a store the test reads. */
function recorder() {
  const { seen, config } = kitRecorder();
  const store = pkg.memoryStore();
  return { seen, store, handlers: { onEvent: config.onEvent, onReview: config.onReview, store } };
}

/** POSTs every kind of callback to `url` and checks each answer and what reached the handlers. */
async function exercise(url, seen, store) {
  await exerciseAdapter(poster(url), { seen, store });
  const stale = await poster(url)(callback('processing:new', { paymentId: 'order-7' }));
  assert.deepEqual(stale, { status: 200, json: { ok: true, code: 'STALE' } });
}

/** Serves a node:http server on a loopback port for the test, closed after it. */
async function listening(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/payment-callback`,
    close: () => {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('examples/ through the packed package', () => {
  test('the examples resolve payment-intake to the installed tarball, not this repository', () => {
    const resolved = run(process.execPath, ['--input-type=module', '-e', "console.log(import.meta.resolve('payment-intake'))"], path.join(app.dir, 'examples')).trim();
    assert.equal(resolved, pathToFileURL(path.join(app.dir, 'node_modules', 'payment-intake', 'index.mjs')).href);
  });

  test('node-http.mjs', async () => {
    const { createServer } = await example('node-http.mjs');
    const { seen, store, handlers } = recorder();
    const server = await listening(createServer(pkg.VerifyingKey.fromPem(servicePublicPem), handlers));
    try {
      await exercise(server.url, seen, store);
    } finally {
      await server.close();
    }
  });

  test('express.mjs (handler.express(), express.json() for the rest of the app)', async () => {
    const { createApp } = await example('express.mjs');
    const { seen, store, handlers } = recorder();
    const server = await listening(http.createServer(createApp(servicePublicPem, handlers)));
    try {
      await exercise(server.url, seen, store);
    } finally {
      await server.close();
    }
  });

  test('fastify.mjs (handler.fastify, scoped to its route)', async () => {
    const { createApp } = await example('fastify.mjs');
    const { seen, store, handlers } = recorder();
    const fastify = createApp([servicePublicPem], handlers);
    const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      await exercise(`${address}/payment-callback`, seen, store);
    } finally {
      await fastify.close();
    }
  });

  test('fetch-handler.mjs (a Request in, a Response out), served through node:http', async () => {
    const { createFetchHandler } = await example('fetch-handler.mjs');
    const { seen, store, handlers } = recorder();
    const handle = createFetchHandler(servicePublicPem, handlers);
    // The adapter a Fetch-style framework provides on Node: node:http request -> Request.
    const server = await listening(
      http.createServer(async (req, res) => {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        const request = new Request(`http://${req.headers.host}${req.url}`, {
          method: req.method,
          headers: Object.entries(req.headers).map(([k, v]) => [k, String(v)]),
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        });
        const response = await handle(request);
        res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
      }),
    );
    try {
      await exercise(server.url, seen, store);
    } finally {
      await server.close();
    }
  });

  test('postgres.mjs (postgresStore over PGlite): the order credited once, through tx', async () => {
    const { createServer } = await example('postgres.mjs');
    const db = new PGlite();
    const { seen, config } = kitRecorder();
    const server = await listening(await createServer(pkg.VerifyingKey.fromPem(servicePublicPem), db, { onReview: config.onReview }));
    try {
      const post = poster(server.url);
      const sent = callback('success', { paymentId: 'order-pg' });
      const answers = await Promise.all(Array.from({ length: 5 }, () => post(sent)));
      assert.deepEqual(answers.map((a) => a.json.code ?? 'acted').sort(), ['DUPLICATE', 'DUPLICATE', 'DUPLICATE', 'DUPLICATE', 'acted']);
      assert.deepEqual((await db.query('SELECT payment_id, amount::int AS amount FROM order_credits')).rows, [{ payment_id: 'order-pg', amount: 150000 }]);
      assert.equal(seen.reviews.length, 0);
      // A success after a dispute for another amount: paid 60000 of 150000 asked, never credited.
      const half = JSON.parse(JSON.parse(JSON.stringify(callback('success', { paymentId: 'order-half' }))).body);
      half.payment_info = { amount: 60000, old_amount: 150000, initial_amount: 150000, currency: 'RUB' };
      assert.deepEqual((await post(signed(JSON.stringify(half)))).json, { ok: true });
      assert.deepEqual((await db.query("SELECT count(*)::int AS n FROM order_credits WHERE payment_id = 'order-half'")).rows, [{ n: 0 }]);
    } finally {
      await server.close();
      await db.close();
    }
  });
});
