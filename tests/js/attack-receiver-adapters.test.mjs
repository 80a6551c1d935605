// Attacks on the node:http and Express adapters: a body past the limit that never ends (a
// client that keeps sending, or stalls) must be answered at once with the verifier's refusal,
// not held open until the server's request timeout, and the connection closed after it.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';

import express from 'express';

import { callback, installed, listening, recorder } from './support/receiver-kit.mjs';

let pkg;
let app;
before(async () => ({ pkg, app } = await installed()));
after(() => app?.remove());

/** Sends headers and `bytes` of a chunked body, then never ends it: the answer's head and whether the socket closed, or 'hung'. */
function endlessPost(url, headers, bytes) {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('hung');
    }, 3000);
    socket.on('connect', () => {
      const head = Object.entries({ host: `${hostname}:${port}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers })
        .map(([name, value]) => `${name}: ${value}\r\n`).join('');
      socket.write(`POST ${pathname} HTTP/1.1\r\n${head}\r\n`);
      const chunk = Buffer.alloc(bytes, 0x20);
      socket.write(`${chunk.length.toString(16)}\r\n`);
      socket.write(chunk);
      socket.write('\r\n'); // and no last chunk: the body never ends
    });
    socket.on('data', (data) => (received += data));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ status: Number(received.split(' ')[1]), closed: true, received });
    });
    socket.on('error', () => {});
  });
}

const servers = {
  'node:http': (handler) => http.createServer(handler.node),
  'Express 5': (handler) => {
    const application = express();
    application.post('/callbacks', handler.express());
    return http.createServer(application);
  },
};

describe('adapters: a body past the limit that never ends', () => {
  for (const [name, make] of Object.entries(servers)) {
    test(`${name}: answered at once with BODY_TOO_LARGE, the connection closed; nothing stored`, async () => {
      const { seen, config } = recorder({ verify: { toleranceSeconds: 600, expectedMerchantId: 'merchant-1', maxBodyBytes: 4096 } });
      const handler = pkg.createCallbackHandler({ ...config, store: pkg.memoryStore() });
      const served = await listening(make(handler));
      try {
        const started = Date.now();
        const answer = await endlessPost(served.url, callback('success').headers, 64 * 1024);
        assert.notEqual(answer, 'hung', 'answered before the body ended');
        assert.equal(answer.status, 413, answer.received);
        assert.match(answer.received, /BODY_TOO_LARGE/);
        assert.ok(Date.now() - started < 2500);
        assert.equal(seen.events.length + seen.reviews.length, 0);
        assert.equal(await handler.store.payment('prj_1', 'order-1'), null);
      } finally {
        await served.close();
      }
    });
  }
});
