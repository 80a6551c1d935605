// handler.express() on Express 4 and Express 5 (devDependencies `express4`, `express`), from
// the packed package: with no body parser it reads the stream itself; after express.raw() it
// takes the Buffer; after express.json() parsed the body it answers INVALID_ARGUMENT naming
// express.raw({ type: 'application/json' }); an app-wide express.json() for other types
// (text/plain) leaves the stream to it.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { assertRawBodyRefused, callback, exerciseAdapter, installed, listening, poster, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

const versions = { 'Express 4': (await import('express4')).default, 'Express 5': (await import('express')).default };

for (const [name, express] of Object.entries(versions)) {
  describe(`handler.express() on ${name}`, () => {
    const serve = async (mount) => {
      const { seen, config } = recorder();
      const handler = pkg.createCallbackHandler(config);
      const web = express();
      mount(web, handler);
      const server = await listening(http.createServer(web));
      return { seen, handler, server, post: poster(server.url) };
    };

    test('no body parser (req.body undefined): it reads the raw body itself', async () => {
      const { seen, handler, server, post } = await serve((web, h) => web.post('/callbacks', h.express()));
      try {
        await exerciseAdapter(post, { seen, store: handler.store });
      } finally {
        await server.close();
      }
    });

    test("express.raw({ type: 'application/json' }): it takes the Buffer", async () => {
      const { seen, handler, server, post } = await serve((web, h) => web.post('/callbacks', express.raw({ type: 'application/json' }), h.express()));
      try {
        await exerciseAdapter(post, { seen, store: handler.store });
      } finally {
        await server.close();
      }
    });

    test('express.raw() with its default type (octet-stream) left the stream unread: it reads it', async () => {
      const { seen, server, post } = await serve((web, h) => web.post('/callbacks', express.raw(), h.express()));
      try {
        assert.deepEqual(await post(callback('success')), { status: 200, json: { ok: true } });
        assert.equal(seen.events.length, 1);
      } finally {
        await server.close();
      }
    });

    test('express.json() ran first (req.body an object): INVALID_ARGUMENT naming express.raw, nothing stored', async () => {
      const { seen, handler, server, post } = await serve((web, h) => {
        web.use(express.json());
        web.post('/callbacks', h.express());
      });
      try {
        assertRawBodyRefused(await post(callback('success')));
        assert.equal(seen.events.length, 0);
        assert.equal(seen.errors[0].code, 'INVALID_ARGUMENT');
        assert.equal(await handler.store.payment('prj_1', 'order-1'), null);
      } finally {
        await server.close();
      }
    });

    test('an app-wide express.json() keeps working on the other routes', async () => {
      const { seen, server } = await serve((web, h) => {
        web.post('/callbacks', h.express());
        web.use(express.json());
        web.post('/orders', (req, res) => res.json({ parsed: req.body }));
      });
      try {
        const url = server.url.replace('/callbacks', '/orders');
        const answer = await fetch(url, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
        assert.deepEqual(await answer.json(), { parsed: { a: 1 } });
        assert.deepEqual(await poster(server.url)(callback('success')), { status: 200, json: { ok: true } });
        assert.equal(seen.events.length, 1);
      } finally {
        await server.close();
      }
    });
  });
}
