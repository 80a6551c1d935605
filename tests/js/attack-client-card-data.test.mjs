// Card data in what the client shows: hooks masked by member name only (`pan`, …), so an
// ECOM card's number and CVV under other names reached onRequest/onResponse in clear. Card-like
// strings (12 to 19 digits, spaces or dashes between, passing Luhn) are masked under any name
// by default, a CVV/CVC member always (even with `mask: false` or a custom list), and no
// message the client makes holds one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { clientWith, fakeFetch, plainAnswer, rejection, statusOf } from './support/fake-service.mjs';

const PAN = '4111111111111111';
const PAN_SPACED = '5555 5555 5555 4444';
const PAN_DASHED = '3782-822463-10005';
const CVV = '737';
const ecom = () => ({
  general: { project_id: 'prj_1', payment_id: 'order-card' },
  payment: { method: 'card-ecom', amount: 1000, currency: 'KZT' },
  card: { number: PAN, Security_Code: CVV, expiry: '12/29', holder: 'A B' },
  extra: { nested: [{ CVC2: 123, cvv: { a: '1' } }], note: `card ${PAN_SPACED} and ${PAN_DASHED}`, numeric: Number(PAN), big: '4111111111111111110' },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'KZ' },
});
const LEAKS = [PAN, PAN_SPACED, PAN_DASHED, '4111 1111 1111 1111', `"${CVV}"`];

function seen(events) {
  const text = JSON.stringify(events);
  return LEAKS.filter((leak) => text.includes(leak));
}

describe('client hooks and messages: card data', () => {
  for (const [label, mask] of [['default', undefined], ['mask: false (CVV still masked)', false], ["mask: ['email']", ['email']]]) {
    test(`${label}: onRequest and onResponse (the service echoing the card) never see a CVV${mask === false ? '' : ' or a card number'}`, { timeout: 20000 }, async () => {
      const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body, { echo: JSON.parse(call.body).card, status_description: `declined ${PAN}` })));
      const events = [];
      const client = clientWith({ fetch, validate: false, mask, onRequest: (event) => events.push(event), onResponse: (event) => events.push(event) });
      await client.ecom.payin.create(ecom());
      assert.equal(events.length, 2);
      const body = JSON.parse(events[0].body);
      assert.equal(body.card.Security_Code, '***');
      assert.equal(body.extra.nested[0].CVC2, '***');
      assert.equal(body.extra.nested[0].cvv, '***');
      assert.equal(JSON.parse(events[1].body).echo.Security_Code, '***');
      if (mask === false) {
        assert.equal(body.card.number, PAN, 'mask: false shows card numbers');
      } else {
        assert.deepEqual(seen(events), []);
        assert.equal(body.card.number, '***');
        assert.equal(body.extra.numeric, '***');
        assert.equal(body.extra.big, '***');
        assert.equal(body.card.expiry, '12/29', 'not card-like: shown');
        assert.equal(body.general.payment_id, 'order-card');
        assert.equal(body.payment.amount, 1000);
      }
    });
  }

  test('not card-like: 11 or 20 digits, a failing Luhn, a timestamp, are shown', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    const events = [];
    const shown = { a: '41111111111', b: '4111111111111112', c: '41111111111111111111', d: '2026-12-07 14:15:38', e: 1765117000 };
    await clientWith({ fetch, validate: false, onRequest: (event) => events.push(event) }).ecom.payin.create({ ...ecom(), shown });
    assert.deepEqual(JSON.parse(events[0].body).shown, shown);
  });

  test('a body that is not JSON (the service echoing a card in HTML) is masked in the hook too', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch(() => plainAnswer(`<html>card ${PAN}</html>`, 502));
    const events = [];
    const client = clientWith({ fetch, validate: false, retries: 0, onResponse: (event) => events.push(event) });
    await rejection(client.ecom.payin.info({ paymentId: 'p' }), 'SERVICE_UNAVAILABLE');
    assert.deepEqual(seen(events), []);
  });

  test("error messages the client makes hold no card number: a rejection echoing it, a payment_id that is one", { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch(() => plainAnswer(JSON.stringify({ status: 'error', status_description: `card ${PAN_SPACED} declined` }), 400));
    const client = clientWith({ fetch, validate: false, retries: 0 });
    const rejected = await rejection(client.ecom.payin.create(ecom()), 'REQUEST_REJECTED');
    assert.ok(!rejected.message.includes(PAN_SPACED), rejected.message);
    assert.match(rejected.message, /declined/);
    const other = fakeFetch((call) => plainAnswer(statusOf(call.body, { payment_id: 'x' })));
    const error = await rejection(clientWith({ fetch: other.fetch }).ecom.payin.info({ paymentId: PAN }), 'INVALID_RESPONSE');
    assert.ok(!`${error.message} ${error.hint}`.includes(PAN), error.message);
  });
});
