// Every receiver of examples/ end to end, as a merchant runs it: the examples are copied
// into a fresh project that installed the packed package (and express, fastify), each is
// served on a real loopback port, and signed callbacks are POSTed to it: a genuine one is
// handed to the merchant's code once, a genuine but ambiguous one is kept and answered 200,
// and forged, tampered, stale and unsigned ones are refused with the package's code.
// (The edge worker runs in workerd: bundlers.test.mjs.)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { esm as api, readKey, root } from './helpers.mjs';
import { installPacked, run } from './support/packed.mjs';

const service = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const attacker = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
const servicePublicPem = readKey('keys/rsa2048.public.pem');

const body = (redirect = 'https://shop.example/back') =>
  JSON.stringify({
    project_id: 'prj_1',
    general: { payment_id: 'order-10045', request_id: 'r-1' },
    status: { status: 'success', sub_status: null, status_description: 'Paid' },
    payment_info: { amount: 150000, currency: 'RUB' },
    integration: { form_url: 'https://pay.example/f', redirect_url: redirect },
  });
const now = () => Math.floor(Date.now() / 1000);
/** A callback as the service sends it: the body signed with `key` at `timestamp`. */
const callback = (key, text = body(), timestamp = now()) => api.signRequest(text, key, { merchantId: 'merchant-1', timestamp });

let app;
before(() => {
  app = installPacked({ link: ['express', 'fastify'] });
  fs.cpSync(path.join(root, 'examples'), path.join(app.dir, 'examples'), { recursive: true });
});
after(() => app?.remove());

const example = (file) => import(pathToFileURL(path.join(app.dir, 'examples', file)).href);

/** Handlers that record what reaches the merchant's code. */
function recorder() {
  const seen = { handled: [], kept: [] };
  return {
    seen,
    handlers: {
      onCallback: (cb) => seen.handled.push(cb),
      keep: (rawBody, error) => seen.kept.push({ rawBody: Buffer.from(rawBody).toString('utf8'), code: error.code }),
    },
  };
}

/** POSTs every kind of callback to `url` and checks each answer and what reached the handlers. */
async function exercise(url, seen) {
  const post = async ({ body: text, headers }, extra = {}) => {
    const response = await fetch(url, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...headers, ...extra } });
    return { status: response.status, text: await response.text() };
  };
  const refused = (answer, code) => {
    assert.equal(answer.text, code);
    assert.ok(answer.status >= 400 && answer.status < 500, `${code} is answered ${answer.status}, a 4xx`);
  };

  const genuine = callback(service);
  assert.deepEqual(await post(genuine), { status: 200, text: 'OK' });

  refused(await post({ ...genuine, body: genuine.body.replace('150000', '150001') }), 'INVALID_SIGNATURE');
  refused(await post(callback(attacker)), 'INVALID_PUBLIC_KEY');
  refused(await post(callback(service, body(), now() - 3600)), 'TIMESTAMP_OUT_OF_TOLERANCE');
  const { 'x-access-signature': _, ...unsigned } = genuine.headers;
  refused(await post({ body: genuine.body, headers: unsigned }), 'MISSING_HEADER');

  // Genuine, but its signed message does not pin the body down: kept, answered 200.
  const ambiguous = callback(service, body('https://shop.example/back?q=1;status:status:success'));
  assert.deepEqual(await post(ambiguous), { status: 200, text: 'OK' });

  assert.equal(seen.handled.length, 1, 'only the genuine callback reached onCallback');
  assert.equal(seen.handled[0].paymentId, 'order-10045');
  assert.equal(seen.handled[0].status, 'success');
  assert.equal(seen.handled[0].verification.merchantId, 'merchant-1');
  assert.deepEqual(seen.kept, [{ rawBody: ambiguous.body, code: 'AMBIGUOUS_CALLBACK' }]);
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
    const { seen, handlers } = recorder();
    const server = await listening(createServer(api.VerifyingKey.fromPem(servicePublicPem), handlers));
    try {
      await exercise(server.url, seen);
    } finally {
      await server.close();
    }
  });

  test('express.mjs (express.raw with type application/json)', async () => {
    const { createApp } = await example('express.mjs');
    const { seen, handlers } = recorder();
    const server = await listening(http.createServer(createApp(servicePublicPem, handlers)));
    try {
      await exercise(server.url, seen);
    } finally {
      await server.close();
    }
  });

  test('fastify.mjs (a buffer content-type parser)', async () => {
    const { createApp } = await example('fastify.mjs');
    const { seen, handlers } = recorder();
    const fastify = createApp([servicePublicPem], handlers);
    const address = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      await exercise(`${address}/payment-callback`, seen);
    } finally {
      await fastify.close();
    }
  });

  test('fetch-handler.mjs (a Request in, a Response out), served through node:http', async () => {
    const { createFetchHandler } = await example('fetch-handler.mjs');
    const { seen, handlers } = recorder();
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
      await exercise(server.url, seen);
    } finally {
      await server.close();
    }
  });
});
