// The client against a service address that answers a redirect (a misconfigured proxy, a
// hijacked DNS name, an old base URL): the signed body and its signature headers must never be
// sent on to the place the redirect names, and the call fails with a coded error saying so.
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { describe, test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { merchantKey } from './support/sandbox-kit.mjs';

async function listen(handler) {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

const body = {
  general: { project_id: 'prj_1', payment_id: 'order-redirect' },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 300 },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
};

describe('createClient: a redirect from the service', () => {
  for (const code of [301, 302, 303, 307, 308]) {
    test(`HTTP ${code}: not followed, nothing reaches the other host; INVALID_RESPONSE with the status`, async () => {
      const stolen = [];
      const thief = await listen((req, res) => {
        let text = '';
        req.on('data', (chunk) => (text += chunk));
        req.on('end', () => {
          stolen.push({ method: req.method, headers: req.headers, text });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: 'processing', sub_status: 'new', status_description: null, request_id: 'r', project_id: 'prj_1', payment_id: 'order-redirect' }));
        });
      });
      let hits = 0;
      const service = await listen((req, res) => {
        hits += 1;
        req.resume();
        res.writeHead(code, { location: `${thief.url}/steal` });
        res.end();
      });
      try {
        const client = api.createClient({ baseUrl: service.url, merchantId: 'merchant-1', key: merchantKey, timeoutMs: 5000, retries: 2, retryDelayMs: 5, validate: false });
        let error;
        try {
          await client.p2p.payin.create(body);
        } catch (caught) {
          error = caught;
        }
        assert.ok(api.isPaymentIntakeError(error), `${error?.stack ?? 'resolved'}`);
        assert.equal(error.code, 'INVALID_RESPONSE', error.message);
        // Node's fetch refuses the redirect before handing it over (redirect: 'error'): no status.
        assert.equal(error.statusCode, null);
        assert.ok(error.cause instanceof Error, 'the fetch\'s refusal is the cause');
        assert.match(error.message, /answered a redirect/);
        assert.match(error.hint, /baseUrl/);
        assert.equal(hits, 1, 'a redirect is not retried');
        assert.deepEqual(stolen, [], 'nothing was sent to the redirect target');
      } finally {
        service.server.close();
        thief.server.close();
      }
    });
  }

  for (const code of [302, 307, 0]) {
    test(`a fetch that hands the ${code || 'opaque'} redirect over: the same refusal, with its status and Location`, async () => {
      let hits = 0;
      const handOver = async (url, init) => {
        hits += 1;
        assert.equal(init.redirect, 'error', 'the client asks its fetch never to follow');
        return new Response(null, { status: code === 0 ? 200 : code, headers: code ? { location: 'https://elsewhere.example/api' } : {} });
      };
      // Response cannot be made with status 0: an opaque redirect is a Response whose status reads 0.
      const fetch = code === 0 ? async (url, init) => Object.defineProperty(await handOver(url, init), 'status', { value: 0 }) : handOver;
      const client = api.createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'merchant-1', key: merchantKey, fetch, retries: 2, retryDelayMs: 5, validate: false });
      const error = await client.p2p.payin.create(body).then(() => null, (caught) => caught);
      assert.ok(api.isPaymentIntakeError(error), `${error?.stack ?? 'resolved'}`);
      assert.equal(error.code, 'INVALID_RESPONSE', error.message);
      assert.equal(error.statusCode, code);
      assert.match(error.message, code ? /answered a redirect \(HTTP \d+ to https:\/\/elsewhere\.example\/api\)/ : /answered a redirect \(HTTP 0\)/);
      assert.match(error.hint, /baseUrl/);
      assert.equal(hits, 1, 'a redirect is not retried');
    });
  }
});
