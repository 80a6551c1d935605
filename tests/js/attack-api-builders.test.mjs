// Attack on the builders' two outputs: README says "sign `bodyText` (or `body`: the same
// text)". A BigInt amount above 2^53 (accepted: the type says number, the builder reads
// BigInts too) comes out as a number in bodyText but as a string in body, so the two sign
// differently. The report says OUT_OF_RANGE (the limit is 10^13), so such a body is invalid
// either way; still, body and bodyText must be the same JSON.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { esm as api } from './helpers.mjs';

const input = { projectId: 'prj_1', paymentId: 'o1', merchantCallbackUrl: 'https://a.example/cb', method: 'card-p2p', currency: 'RUB', customerId: 'u', customerIp: '192.0.2.1', country: 'RU' };

test('body and bodyText are the same JSON for BigInt amounts within the limit (held)', () => {
  for (const amount of [1n, 150000n, 10000000000000n]) {
    const { body, bodyText } = api.buildPayinRequest({ ...input, amount });
    assert.equal(JSON.stringify(body), bodyText);
  }
});

test('body and bodyText are the same JSON for a BigInt amount above 2^53', { todo: 'not fixed: body.payment.amount is the string "9007199254740993", bodyText has the number' }, () => {
  const { body, bodyText, report } = api.buildPayinRequest({ ...input, amount: 2n ** 53n + 1n });
  assert.ok(report.errors.some((e) => e.code === 'OUT_OF_RANGE' && e.path === 'payment.amount'));
  assert.equal(JSON.stringify(body), bodyText);
});
