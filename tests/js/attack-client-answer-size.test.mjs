// A huge answer: the client read the whole answer (res.text()) before the package's 64 KiB
// limit refused it, so a 256 MiB answer, or a small gzip answer that inflates to it, cost
// hundreds of MiB. The body is now read as a stream, no further than the limit.
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import zlib from 'node:zlib';
import { describe, test } from 'node:test';

import { clientWith, fakeFetch, plainAnswer, rejection, statusOf } from './support/fake-service.mjs';

const MIB = 1 << 20;

/** A stream of `count` chunks of 1 MiB of spaces; `state.pulled` counts the chunks given, `state.cancelled` its cancel. */
function hugeStream(count, state) {
  const chunk = new Uint8Array(MIB).fill(0x20);
  return new ReadableStream({
    pull(controller) {
      if (state.pulled === count) return controller.close();
      state.pulled += 1;
      controller.enqueue(chunk.slice());
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
}

describe('client: an answer over 64 KiB', () => {
  test('a 64 MiB stream body: INVALID_RESPONSE "over 64 KiB", at most 2 MiB read, the stream cancelled', { timeout: 60000 }, async () => {
    const state = { pulled: 0, cancelled: false };
    const { fetch, calls } = fakeFetch(() => new Response(hugeStream(64, state), { status: 200 }));
    const client = clientWith({ fetch, retries: 2 });
    const error = await rejection(client.ecom.payin.info({ paymentId: 'order-1' }), 'INVALID_RESPONSE');
    assert.match(error.message, /over 64 KiB/);
    assert.ok(state.pulled <= 2, `${state.pulled} MiB were read`);
    assert.equal(state.cancelled, true, 'the stream was cancelled');
    assert.equal(calls.length, 1, 'not retried');
    assert.equal(error.statusCode, 200);
  });

  test('a gzip answer of 64 KiB that inflates to 64 MiB, over HTTP: INVALID_RESPONSE "over 64 KiB"', { timeout: 60000 }, async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(64 * MIB, 0x20));
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const client = clientWith({ baseUrl: `http://127.0.0.1:${server.address().port}`, fetch: globalThis.fetch, timeoutMs: 30000 });
      const error = await rejection(client.ecom.payin.info({ paymentId: 'order-1' }), 'INVALID_RESPONSE');
      assert.match(error.message, /over 64 KiB/);
    } finally {
      server.close();
    }
  });

  test('a fetch without a stream body ({ status, text() }) still works, and its text over 64 KiB is refused the same way', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    const model = await clientWith({ fetch }).ecom.payin.info({ paymentId: 'order-1' });
    assert.equal(model.paymentId, 'order-1');
    const big = fakeFetch((call) => plainAnswer(statusOf(call.body, { status_description: 'x'.repeat(70000) })));
    const error = await rejection(clientWith({ fetch: big.fetch }).ecom.payin.info({ paymentId: 'order-1' }), 'INVALID_RESPONSE');
    assert.match(error.message, /over 64 KiB/);
  });

  test('a stream answer just under 64 KiB, in many small chunks, is read whole', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch((call) => {
      const text = statusOf(call.body, { status_description: 'y'.repeat(60000) });
      const bytes = new TextEncoder().encode(text);
      let at = 0;
      const body = new ReadableStream({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(at, at + 1000));
          at += 1000;
        },
      });
      return new Response(body, { status: 200 });
    });
    const model = await clientWith({ fetch }).ecom.payin.info({ paymentId: 'order-1' });
    assert.equal(model.statusDescription.length, 60000);
  });

  test('a stream that stalls after its first bytes: TIMEOUT by the attempt timeout, not a hang', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch(() => new Response(new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"status":'));
      },
    }), { status: 200 }));
    const client = clientWith({ fetch, timeoutMs: 3000, retries: 1 });
    const error = await rejection(client.ecom.payin.info({ paymentId: 'order-1' }), 'TIMEOUT');
    assert.equal(calls.length, 2);
    assert.equal(error.attempts, 2);
  });
});

describe('client: a 5xx answer over 64 KiB', () => {
  test('a 503 with a 70 KiB page (a proxy\'s) is retried as the 5xx it is; the next answer is read', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch((call) => (call.n === 1 ? plainAnswer(`<html>${'x'.repeat(70 * 1024)}</html>`, 503) : plainAnswer(statusOf(call.body))));
    const model = await clientWith({ fetch }).ecom.payin.info({ paymentId: 'order-1' });
    assert.equal(model.response.attempts, 2);
    assert.equal(calls.length, 2);
  });

  test('a 503 over 64 KiB every time: SERVICE_UNAVAILABLE after the retries, its body the first 64 KiB', { timeout: 20000 }, async () => {
    const page = `<html>${'x'.repeat(70 * 1024)}</html>`;
    const { fetch, calls } = fakeFetch(() => plainAnswer(page, 503));
    const error = await rejection(clientWith({ fetch, retries: 1 }).ecom.payin.info({ paymentId: 'order-1' }), 'SERVICE_UNAVAILABLE');
    assert.equal(calls.length, 2);
    assert.equal(error.body, page.slice(0, 64 * 1024));
  });
});

test('the limit is the reader\'s, to the byte: an answer of 65536 bytes is read, 65537 refused, streamed or not', { timeout: 20000 }, async () => {
  for (const size of [65536, 65537]) {
    for (const streamed of [true, false]) {
      const { fetch } = fakeFetch((call) => {
        const base = statusOf(call.body, { status_description: '' });
        const text = statusOf(call.body, { status_description: 'y'.repeat(size - base.length) });
        return streamed ? new Response(text) : plainAnswer(text);
      });
      const call = clientWith({ fetch, retries: 0 }).ecom.payin.info({ paymentId: 'p' });
      if (size === 65536) assert.equal((await call).paymentId, 'p');
      else assert.match((await rejection(call, 'INVALID_RESPONSE')).message, /over 64 KiB/);
    }
  }
});
