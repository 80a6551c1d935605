// handler.fastify, from the packed package: a plugin scoped to its route. Inside its own
// context every body is parsed as bytes; the app's JSON parser, on its other routes, is untouched.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';

import { callback, exerciseAdapter, installed, poster, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

async function serve(extra) {
  const { seen, config } = recorder(extra);
  const handler = pkg.createCallbackHandler(config);
  const fastify = Fastify();
  await fastify.register(handler.fastify, { url: '/callbacks' });
  fastify.post('/orders', async (request) => ({ parsed: request.body }));
  const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { seen, handler, fastify, address, post: poster(`${address}/callbacks`) };
}

describe('handler.fastify (a plugin scoped to its route)', () => {
  test('genuine, duplicate, stale, tampered, forged and ambiguous callbacks', async () => {
    const { seen, handler, fastify, post } = await serve();
    try {
      await exerciseAdapter(post, { seen, store: handler.store });
    } finally {
      await fastify.close();
    }
  });

  test("the app's JSON parser still parses its other routes into objects", async () => {
    const { seen, fastify, address, post } = await serve();
    try {
      const answer = await fetch(`${address}/orders`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
      assert.deepEqual(await answer.json(), { parsed: { a: 1 } });
      assert.deepEqual(await post(callback('success')), { status: 200, json: { ok: true } });
      assert.equal(seen.events.length, 1);
    } finally {
      await fastify.close();
    }
  });

  test('a body of another content type, or none: bytes all the same (no 415); an empty body is refused by the verifier', async () => {
    const { seen, fastify, post } = await serve();
    try {
      assert.deepEqual(await post(callback('success'), { 'content-type': 'text/plain' }), { status: 200, json: { ok: true } });
      const sent = callback('processing:paid', { paymentId: 'order-2' });
      const empty = await post({ body: undefined, headers: sent.headers });
      assert.equal(empty.json.code, 'INVALID_SIGNATURE');
      assert.equal(seen.events.length, 1);
    } finally {
      await fastify.close();
    }
  });
});
