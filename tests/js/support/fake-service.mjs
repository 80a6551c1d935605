// A fake service for the client's attack tests: an injected `fetch` that answers from a
// function of the request, without a socket, and what those tests share.
import assert from 'node:assert/strict';

import { cjs as api } from '../helpers.mjs';
import { merchantKey } from './sandbox-kit.mjs';

export const P2P_CREATE = '/api/v1/payment/p2p/payin';

export const p2pCreate = (paymentId = 'order-1', projectId = 'prj_1') => ({
  general: { project_id: projectId, payment_id: paymentId },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 300 },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});

/** The StatusResponse about the payment of `request` (its JSON text), `over` its members. */
export function statusOf(requestText, over = {}) {
  const general = JSON.parse(requestText).general ?? {};
  return JSON.stringify({
    status: 'processing', sub_status: 'requisites', status_description: null, request_id: 'req-1',
    project_id: general.project_id, payment_id: general.payment_id, ...over,
  });
}

/** A fetch's answer without a stream body: `{ status, headers, text() }`. */
export const plainAnswer = (text, status = 200) => ({ status, headers: new Headers({ 'content-type': 'application/json' }), text: async () => text });

/**
 * `fetch` over `answer(call)`, `call` = `{ n, url, init, body }` (n from 1); `calls` holds them.
 * `answer` may return a promise that never settles: the fetch then rejects when its signal aborts.
 */
export function fakeFetch(answer) {
  const calls = [];
  const fetch = (url, init) => {
    const call = { n: calls.length + 1, url, init, body: init.body };
    calls.push(call);
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(init.signal.reason ?? new DOMException('aborted', 'AbortError'));
      if (init.signal.aborted) return onAbort();
      init.signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(answer(call)).then(resolve, reject);
    });
  };
  return { fetch, calls };
}

export const hang = () => new Promise(() => {});

export const clientWith = (config) => api.createClient({
  baseUrl: 'https://service.example', merchantId: 'merchant-1', key: merchantKey, projectId: 'prj_1',
  retries: 2, retryDelayMs: 1, maxRetryDelayMs: 2, sleep: async () => {}, ...config,
});

/** Resolves to the PaymentIntakeError `promise` rejects with (it must be of `code`). */
export async function rejection(promise, code) {
  let error;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  assert.ok(api.isPaymentIntakeError(error), `expected a PaymentIntakeError ${code}, got ${error?.stack ?? 'a result'}`);
  assert.equal(error.code, code, error.message);
  if (code === 'INVALID_ARGUMENT' || code === 'INVALID_RESPONSE') assert.equal(typeof error.hint, 'string', `${code} has a hint: ${error.message}`);
  return error;
}

/** The PaymentIntakeError `fn()` throws (it must be of `code`). */
export function thrown(fn, code) {
  let error;
  try {
    fn();
  } catch (caught) {
    error = caught;
  }
  assert.ok(api.isPaymentIntakeError(error), `expected a PaymentIntakeError ${code}, got ${error?.stack ?? 'no throw'}`);
  assert.equal(error.code, code, error.message);
  return error;
}
