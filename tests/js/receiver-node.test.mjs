// handler.node on node:http, from the packed package: it reads the raw body itself (with a
// limit), and answers every case as handle() does; a request stream something else read
// first is refused as INVALID_ARGUMENT, not waited on.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { assertRawBodyRefused, callback, exerciseAdapter, installed, listening, poster, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

describe('handler.node (node:http)', () => {
  test('genuine, duplicate, stale, tampered, forged and ambiguous callbacks', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler(config);
    const server = await listening(http.createServer(handler.node));
    try {
      await exerciseAdapter(poster(server.url), { seen, store: handler.store });
      const get = await fetch(server.url);
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
    } finally {
      await server.close();
    }
  });

  test('a body some code parsed first (an object) or read without keeping (undefined): INVALID_ARGUMENT', async () => {
    const { seen, config } = recorder();
    const handler = pkg.createCallbackHandler(config);
    const server = await listening(
      http.createServer(async (req, res) => {
        let text = '';
        for await (const chunk of req) text += chunk;
        if (req.headers['x-test'] === 'object') req.body = JSON.parse(text);
        await handler.node(req, res);
      }),
    );
    try {
      const post = poster(server.url);
      assertRawBodyRefused(await post(callback('success'), { 'x-test': 'object' }), 'handler.node');
      assertRawBodyRefused(await post(callback('success'), { 'x-test': 'undefined' }), 'handler.node');
      assert.equal(seen.events.length, 0);
      assert.equal(await handler.store.payment('prj_1', 'order-1'), null);
    } finally {
      await server.close();
    }
  });

  test("a body past maxBodyBytes's default (the options table's) is refused BODY_TOO_LARGE", async () => {
    const handler = pkg.createCallbackHandler(recorder().config);
    const server = await listening(http.createServer(handler.node));
    try {
      const sent = callback('success');
      const limit = pkg.optionTable().find((row) => row.name === 'maxBodyBytes').default;
      const padded = `${sent.body}${' '.repeat(limit - sent.body.length + 1)}`;
      assert.equal((await poster(server.url)({ body: padded, headers: sent.headers })).json.code, 'BODY_TOO_LARGE');
      assert.deepEqual(await poster(server.url)({ body: padded.slice(0, limit), headers: sent.headers }), { status: 200, json: { ok: true } }, 'a body of exactly the limit is read whole');
    } finally {
      await server.close();
    }
  });

  test('a body past verify.maxBodyBytes is read no further and refused BODY_TOO_LARGE', async () => {
    const { config } = recorder({ verify: { toleranceSeconds: 600, maxBodyBytes: 256 } });
    const handler = pkg.createCallbackHandler(config);
    const server = await listening(http.createServer(handler.node));
    try {
      const sent = callback('success');
      const answer = await poster(server.url)({ body: sent.body + ' '.repeat(4096), headers: sent.headers });
      assert.equal(answer.json.code, 'BODY_TOO_LARGE');
      assert.ok(answer.status >= 400 && answer.status < 500);
    } finally {
      await server.close();
    }
  });
});
