// 500 creates through the client against the sandbox with 20 % of the requests faulted,
// every fault kind among them: exactly one payment per payment_id that a call reported
// made (none for one that failed before reaching it, never two), every call resolving
// with the right model or a coded error, and none outliving its deadline by over 100 ms.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { merchantKey, nextId, p2pBody, withSandbox } from './support/sandbox-kit.mjs';

const CREATES = 500;
const CONCURRENCY = 8;
const TIMEOUT_MS = 3000;
const KINDS = [
  { type: 'drop-before' }, { type: 'drop-after' }, { type: 'delay', ms: 40 }, { type: 'status', status: 500 },
  { type: 'status', status: 502 }, { type: 'status', status: 503 }, { type: 'rate-limit', retryAfter: 0 }, { type: 'truncate' }, { type: 'html' },
];
// The first fault of the list that takes a request decides: a share s each makes
// 1 - (1 - s)^9 of the requests faulted, 20 % for s = 1 - 0.8^(1/9).
const SHARE = 1 - 0.8 ** (1 / KINDS.length);
const CODES = new Set(['NETWORK_ERROR', 'SERVICE_UNAVAILABLE', 'TIMEOUT', 'INVALID_RESPONSE']);

test(`${CREATES} creates, 20 % of requests faulted (each kind): one payment per payment_id, a model or a coded error, deadlines kept`, () => withSandbox({ faults: KINDS.map((fault) => ({ ...fault, share: SHARE })) }, async ({ sandbox, receiver }) => {
  const faulted = new Map();
  let requests = 0;
  sandbox.events.on('fault', (event) => faulted.set(event.fault.type, (faulted.get(event.fault.type) ?? 0) + 1));
  const client = api.createClient({
    baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1',
    timeoutMs: TIMEOUT_MS, retries: 4, retryDelayMs: 10, maxRetryDelayMs: 40, onRequest: () => (requests += 1),
  });
  const outcomes = [];
  let next = 0;
  async function worker() {
    while (next < CREATES) {
      next += 1;
      // No callback URLs: the sandbox's RSA-3072 callbacks would share this process's CPU.
      const body = p2pBody(receiver, { paymentId: nextId('load') });
      body.general = { project_id: body.general.project_id, payment_id: body.general.payment_id };
      const started = Date.now();
      try {
        const model = await client.p2p.payin.create(body);
        outcomes.push({ body, model, took: Date.now() - started });
      } catch (error) {
        outcomes.push({ body, error, took: Date.now() - started });
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  assert.equal(outcomes.length, CREATES);

  const res = await fetch(`${sandbox.url}/sandbox/payments`);
  const listed = await res.json();
  const payments = Array.isArray(listed) ? listed : listed.payments;
  const made = new Map();
  for (const payment of payments) made.set(payment.paymentId, (made.get(payment.paymentId) ?? 0) + 1);

  const slowest = outcomes.map((o) => o.took).sort((a, b) => b - a).slice(0, 5);
  const share = [...faulted.values()].reduce((a, b) => a + b, 0) / requests;
  console.log(`# ${requests} requests, ${(share * 100).toFixed(1)} % faulted: ${JSON.stringify(Object.fromEntries(faulted))}; slowest calls ${slowest.join(', ')} ms`);
  let ok = 0;
  let replayed = 0;
  for (const { body, model, error, took } of outcomes) {
    const id = body.general.payment_id;
    assert.ok(took <= TIMEOUT_MS + 100, `${id} took ${took} ms`);
    assert.ok((made.get(id) ?? 0) <= 1, `${id}: ${made.get(id)} payments`);
    if (model) {
      ok += 1;
      if (model.response.replayed) replayed += 1;
      assert.equal(made.get(id), 1, `${id}: reported made`);
      assert.equal(model.paymentId, id);
      assert.equal(model.projectId, 'prj_1');
      assert.equal(model.status, 'processing');
      assert.ok(model.response.attempts >= 1 && model.response.durationMs <= TIMEOUT_MS + 100);
    } else {
      assert.ok(api.isPaymentIntakeError(error), `${id}: ${error?.stack}`);
      assert.ok(CODES.has(error.code), `${id}: ${error.code} ${error.message}`);
    }
  }
  assert.deepEqual([...faulted.keys()].sort(), [...new Set(KINDS.map((k) => k.type))].sort(), 'every kind of fault happened');
  assert.ok(share > 0.15 && share < 0.25, `${share}`);
  assert.ok(replayed > 0, 'some creates were settled through info');
  assert.ok(ok > CREATES * 0.9, `${ok} made`);
}));
