// Attacks on what records creates and reconciles (issue "no payment lost, doubled or
// mis-credited"): a store that never answers or a database that is stopped must fail a
// create before anything is sent, and fail a reconciliation as STORE_FAILED; a service
// that answers about another payment, or nothing, is counted, never recorded as a state;
// racing reconciles and callbacks act once.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { serverSkip, startPostgres } from '../support/servers.mjs';
import { cjs as api, pkgDir } from './helpers.mjs';
import { merchantKey, nextId, withSandbox } from './support/sandbox-kit.mjs';

const { postgresStore } = await import(pathToFileURL(path.join(pkgDir, 'stores', 'postgres.mjs')).href);
const clientOf = (sandbox, config = {}) => api.createClient({ baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1', retryDelayMs: 5, ...config });
const payin = (paymentId = nextId('an')) => ({
  general: { project_id: 'prj_1', payment_id: paymentId, merchant_success_callback_url: 'http://127.0.0.1:9/ok' },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});
const count = (sandbox, paymentId) => sandbox.payments().filter((p) => p.paymentId === paymentId).length;
async function code(promise) {
  try {
    await promise;
  } catch (error) {
    assert.ok(api.isPaymentIntakeError(error), String(error?.stack));
    return error;
  }
  return assert.fail('resolved');
}

describe('never lose a payment, attacked', () => {
  test('a store that never answers: the create fails STORE_FAILED within its deadline, nothing sent', () => withSandbox({}, async ({ sandbox }) => {
    const hung = { ...api.memoryStore(), recordCreate: () => new Promise(() => {}), recordAnswer: async () => {} };
    const body = payin();
    const started = Date.now();
    const e = await code(clientOf(sandbox, { store: hung, timeoutMs: 300 }).p2p.payin.create(body));
    assert.equal(e.code, 'STORE_FAILED');
    assert.ok(Date.now() - started < 5000, 'within the deadline, not for ever');
    assert.equal(count(sandbox, body.general.payment_id), 0, 'nothing sent');
  }));

  test('a store whose due() fails: reconcile is STORE_FAILED, with the cause', async () => {
    const store = { ...api.memoryStore(), due: async () => { throw new Error('connection refused'); } };
    const handler = api.createCallbackHandler({ keys: api.SigningKey.generate().verifyingKey(), store, onEvent: () => {} });
    const client = api.createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', key: merchantKey, store: api.memoryStore() });
    const e = await code(handler.reconcile({ client }));
    assert.equal(e.code, 'STORE_FAILED');
    assert.equal(e.cause.message, 'connection refused');
  });

  test('reconcile options out of range are INVALID_ARGUMENT; a client without infoOf too', async () => {
    const handler = api.createCallbackHandler({ keys: api.SigningKey.generate().verifyingKey(), onEvent: () => {} });
    const client = api.createClient({ baseUrl: 'http://127.0.0.1:9', merchantId: 'm', key: merchantKey });
    for (const bad of [null, {}, { client: {} }, { client, olderThanMs: -1 }, { client, olderThanMs: Infinity }, { client, limit: 0 }, { client, limit: 2 ** 31 }, { client, concurrency: 1000 }, { client, limit: '5' }]) {
      assert.equal((await code(handler.reconcile(bad))).code, 'INVALID_ARGUMENT', JSON.stringify(bad));
    }
  });

  test('the service answers about another payment, or not at all: counted as failed, nothing recorded, asked again next time', () => withSandbox({}, async ({ sandbox }) => {
    const store = api.memoryStore();
    const client = clientOf(sandbox, { store, retries: 0 });
    const events = [];
    const handler = api.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, store, onEvent: (e) => events.push(e) });
    const body = payin();
    await client.p2p.payin.create(body);
    const lying = { infoOf: async () => ({ ...(await client.infoOf('/api/v1/payment/p2p/payin', { paymentId: body.general.payment_id })), paymentId: 'someone-else' }) };
    const report = await handler.reconcile({ client: lying, olderThanMs: 0 });
    assert.deepEqual([report.checked, report.failed, report.payments[0].code], [1, 1, 'INVALID_RESPONSE']);
    assert.ok(api.isPaymentIntakeError(report.payments[0].error), 'made by the package, with a hint');
    assert.match(report.payments[0].error.hint, /next run/);
    // An info answer the package did not read (a client of another making) brings no key of its
    // own making: refused, not settled under a key the JS would have to reinvent.
    const keyless = { infoOf: async () => ({ ...(await client.infoOf('/api/v1/payment/p2p/payin', { paymentId: body.general.payment_id })), idempotencyKey: undefined }) };
    const refused = await handler.reconcile({ client: keyless, olderThanMs: 0 });
    assert.deepEqual([refused.checked, refused.failed, refused.payments[0].code], [1, 1, 'INVALID_RESPONSE']);
    assert.match(refused.payments[0].error.message, /no idempotencyKey/);
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [{ type: 'status', status: 503 }] }) });
    const down = await handler.reconcile({ client, olderThanMs: 0 });
    assert.deepEqual([down.checked, down.failed, down.payments[0].code], [1, 1, 'SERVICE_UNAVAILABLE']);
    assert.equal(events.length, 0);
    assert.equal((await store.payment('prj_1', body.general.payment_id)).status, null, 'no state recorded from a failure');
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults: [] }) });
    assert.equal((await handler.reconcile({ client, olderThanMs: 0 })).advanced, 1, 'the next run acts');
  }));

  test('ten reconciles at once beside the callback of the same state: one onEvent', () => withSandbox({}, async ({ sandbox }) => {
    const store = api.memoryStore();
    const client = clientOf(sandbox, { store });
    let acted = 0;
    const handler = api.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, store, onEvent: async () => { acted += 1; await new Promise((r) => setTimeout(r, 5)); } });
    const body = payin();
    await client.p2p.payin.create(body);
    const reports = await Promise.all(Array.from({ length: 10 }, () => handler.reconcile({ client, olderThanMs: 0 })));
    assert.equal(acted, 1);
    assert.equal(reports.reduce((n, r) => n + r.advanced, 0), 1);
  }));

  describe('a PostgreSQL that is stopped', { skip: serverSkip('postgres') }, () => {
    test('a create is STORE_FAILED and not sent; reconcile is STORE_FAILED', () => withSandbox({}, async ({ sandbox }) => {
      const server = await startPostgres();
      const { default: pg } = await import('pg');
      const pool = new pg.Pool({ ...server.config, max: 2, connectionTimeoutMillis: 2000 });
      pool.on('error', () => {});
      try {
        const store = postgresStore(pool, { schema: 'pi_stop' });
        const client = clientOf(sandbox, { store, timeoutMs: 5000 });
        const handler = api.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, store, onEvent: () => {} });
        await client.p2p.payin.create(payin());
        await server.stop();
        const body = payin();
        assert.equal((await code(client.p2p.payin.create(body))).code, 'STORE_FAILED');
        assert.equal(count(sandbox, body.general.payment_id), 0, 'nothing sent');
        assert.equal((await code(handler.reconcile({ client, olderThanMs: 0 }))).code, 'STORE_FAILED');
      } finally {
        await pool.end().catch(() => {});
        await server.stop().catch(() => {});
      }
    }));
  });
});
