// An answer about another payment: a create or an info answered with another project's or
// another payment's StatusResponse (its form_url too) was returned as this payment's. Every
// operation on a payment (create, info, confirm, cancel, confirm-3ds-result) now checks the
// answer's project_id and payment_id against the request's: else INVALID_RESPONSE.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { clientWith, fakeFetch, p2pCreate, plainAnswer, rejection, statusOf } from './support/fake-service.mjs';

const OTHER = [
  ['another payment', { payment_id: 'someone-else' }],
  ['another project', { project_id: 'prj_evil' }],
  ['both', { project_id: 'prj_evil', payment_id: 'someone-else' }],
];
const formUrl = { integration: { form_url: 'https://evil.example/pay/1', redirect_url: null } };

describe('client: an answer about another payment', () => {
  for (const [what, over] of OTHER) {
    test(`create answered with ${what}'s StatusResponse (with its form_url): INVALID_RESPONSE, not retried, the hint says the repeat is safe`, { timeout: 20000 }, async () => {
      const { fetch, calls } = fakeFetch((call) => plainAnswer(statusOf(call.body, { ...over, ...formUrl })));
      const error = await rejection(clientWith({ fetch }).p2p.payin.create(p2pCreate('order-1')), 'INVALID_RESPONSE');
      assert.match(error.message, /another payment|not the request's/);
      assert.match(error.hint, /same payment_id/);
      assert.match(error.hint, /unknown/);
      assert.equal(calls.length, 1);
    });

    for (const op of ['p2p.payin.info', 'p2p.payin.confirm', 'p2p.payin.cancel', 'widget.payin.info', 'ecom.payin.info', 'ecom.payin.confirm3dsResult', 'p2p.payout.info']) {
      test(`${op} answered about ${what}: INVALID_RESPONSE`, { timeout: 20000 }, async () => {
        const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body, { ...over, status: 'success', sub_status: null })));
        const client = clientWith({ fetch });
        const [a, b, c] = op.split('.');
        const method = c ? client[a][b][c] : client[a][b];
        const error = await rejection(method({ paymentId: 'order-1' }), 'INVALID_RESPONSE');
        assert.match(error.message, /order-1/);
      });
    }
  }

  test('the same answers about this payment pass (create, info, confirm)', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body, { status: 'success', sub_status: null })));
    const client = clientWith({ fetch });
    assert.equal((await client.p2p.payin.create(p2pCreate('order-1'))).paymentId, 'order-1');
    assert.equal((await client.p2p.payin.info({ paymentId: 'order-1' })).paymentId, 'order-1');
    assert.equal((await client.p2p.payin.confirm({ paymentId: 'order-1' })).paymentId, 'order-1');
    assert.equal((await client.ecom.payin.info({ general: { project_id: 'prj_2', payment_id: 'x' } })).projectId, 'prj_2');
  });
});
