// Attack on the builders' two outputs: docs/api.md says "sign `bodyText` (or `body`: the same
// text)". A BigInt amount above 2^53 - 1 (the type says number, the builder reads BigInts
// too) came out as a number in bodyText but as a string in body (a JS object cannot hold
// the number), so the two signed differently. Such an amount is now refused like a number
// above 2^53 - 1: WRONG_TYPE at the input member, left out of both, which stay the same JSON.
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

test('an amount above 2^53 - 1, as a BigInt or a number: WRONG_TYPE at the member, in neither output, body and bodyText the same JSON', () => {
  for (const amount of [2n ** 53n + 1n, 2n ** 64n, -1n, 2 ** 53 + 2]) {
    const { body, bodyText, report } = api.buildPayinRequest({ ...input, amount });
    const problems = report.errors.filter((e) => e.path === 'amount');
    assert.deepEqual(problems.map((e) => e.code), ['WRONG_TYPE'], `${amount}`);
    assert.match(problems[0].message, typeof amount === 'bigint' ? /found a BigInt outside 0 to 2\^53 - 1; it is not in the body/ : /found a number too large to be exact/);
    assert.equal(report.valid, false);
    assert.equal('amount' in body.payment, false, `${amount}`);
    assert.equal(JSON.stringify(body), bodyText, `${amount}`);
  }
  // The largest amount a JS number holds exactly is still read (and is out of the spec's range).
  const { body, bodyText, report } = api.buildPayinRequest({ ...input, amount: 2n ** 53n - 1n });
  assert.equal(body.payment.amount, Number.MAX_SAFE_INTEGER);
  assert.equal(JSON.stringify(body), bodyText);
  assert.ok(report.errors.some((e) => e.code === 'OUT_OF_RANGE' && e.path === 'payment.amount'));
});
