// The client's own limits attacked again: card numbers written with NUL or zero-width
// characters between, in member names, in numbers; a text() that never settles; a Retry-After
// of 2^31 seconds; retries past the most; a baseUrl with a query.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { P2P_CREATE, clientWith, fakeFetch, hang, p2pCreate, plainAnswer, rejection, statusOf, thrown } from './support/fake-service.mjs';

const PAN = '4111111111111111';

describe('client: its own limits, attacked', () => {
  test('card numbers with NUL, zero-width, tab or double-space separators, as a member name, as a number: masked in hooks', { timeout: 20000 }, async () => {
    const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    const events = [];
    const written = ['4111\u00001111\u00001111\u00001111', '4111\u200b1111\u200b1111\u200b1111', '4111\t1111\t1111\t1111', '4111  1111  1111  1111', `${PAN} 12/29`];
    const body = { ...p2pCreate(), extra: { written, [PAN]: 'as a name', n: Number(PAN) } };
    await clientWith({ fetch, validate: false, onRequest: (event) => events.push(event) }).p2p.payin.create(body);
    const shown = JSON.parse(events[0].body).extra;
    assert.deepEqual(shown.written, ['***', '***', '***', '***', '*** 12/29']);
    assert.equal(shown.n, '***');
    assert.deepEqual(Object.keys(shown).sort(), ['***', 'n', 'written']);
  });

  test('a fetch whose text() never settles: TIMEOUT within the deadline, each attempt aborted', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch(() => ({ status: 200, headers: new Headers(), text: hang }));
    const error = await rejection(clientWith({ fetch, timeoutMs: 3000, retries: 1 }).ecom.payin.info({ paymentId: 'p' }), 'TIMEOUT');
    assert.equal(error.attempts, 2);
    assert.equal(calls.length, 2);
  });

  test('Retry-After: 2^31 seconds is not waited (no timer past 2^31 - 1 ms): SERVICE_UNAVAILABLE at once', { timeout: 20000 }, async () => {
    const waits = [];
    const { fetch, calls } = fakeFetch(() => ({ status: 503, headers: new Headers({ 'retry-after': String(2 ** 31) }), text: async () => '' }));
    const client = clientWith({ fetch, sleep: async (ms) => waits.push(ms), timeoutMs: 2 ** 31 - 1 });
    await rejection(client.ecom.payin.info({ paymentId: 'p' }), 'SERVICE_UNAVAILABLE');
    assert.deepEqual(waits, []);
    assert.equal(calls.length, 1);
  });

  test('retries: 100 is taken, 101 refused (each attempt would get next to nothing of the deadline)', { timeout: 20000 }, async () => {
    clientWith({ retries: 100 });
    const error = thrown(() => clientWith({ retries: 101 }), 'INVALID_ARGUMENT');
    assert.match(error.message, /'retries'.*100/);
    const { fetch } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    await rejection(clientWith({ fetch }).call(P2P_CREATE, p2pCreate(), { retries: 101 }), 'INVALID_ARGUMENT');
  });

  test('a baseUrl with a query or a fragment is INVALID_ARGUMENT (the paths would be appended to them)', () => {
    for (const baseUrl of ['https://service.example/?token=abc', 'https://service.example/#x']) {
      const error = thrown(() => clientWith({ baseUrl }), 'INVALID_ARGUMENT');
      assert.ok(!error.message.includes('abc'), error.message);
    }
    clientWith({ baseUrl: 'https://service.example/prefix/' });
  });
});

describe('client hooks: an answer nested past 64 levels', () => {
  for (const depth of [65, 5000, 30000]) {
    test(`${depth} levels with an onResponse hook: the call's own coded error, not a RangeError; the hook sees the deep part as '***'`, { timeout: 20000 }, async () => {
      const text = `{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const { fetch } = fakeFetch(() => plainAnswer(text));
      const events = [];
      const client = clientWith({ fetch, retries: 0, mask: false, onResponse: (event) => events.push(event) });
      await rejection(client.ecom.payin.info({ paymentId: 'p' }), 'INVALID_RESPONSE');
      assert.equal(events.length, 1);
      assert.ok(events[0].body.length < 1000, events[0].body.slice(0, 200));
      assert.match(events[0].body, /\*\*\*/);
    });
  }
});

test('a baseUrl with its scheme in capitals (HTTPS://) is taken, and the URLs sent are lower case', { timeout: 20000 }, async () => {
  const { fetch, calls } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
  await clientWith({ fetch, baseUrl: 'HTTPS://service.example/' }).ecom.payin.info({ paymentId: 'p' });
  assert.equal(calls[0].url, 'https://service.example/api/v1/payment/ecom/payin/info');
});
