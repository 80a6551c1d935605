// The client's durations against setTimeout's range: a delay of 2^31 ms or more (or Infinity)
// fires after 1 ms, so a deadline that long aborted every attempt at once (while the service
// still made the payment). Every duration is refused above 2^31 - 1 ms, at createClient and
// at each call, naming the option and the limit, before anything is sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { P2P_CREATE, clientWith, fakeFetch, p2pCreate, plainAnswer, rejection, statusOf, thrown } from './support/fake-service.mjs';

const LIMIT = 2 ** 31 - 1;
const BAD = [2 ** 31, 2 ** 53, Infinity, -Infinity, NaN, -1, 1.5, '1000', null];
const OPTIONS = ['timeoutMs', 'retryDelayMs', 'maxRetryDelayMs', 'attemptTimeoutMs'];

describe('client durations at or above 2^31 ms', () => {
  for (const name of OPTIONS) {
    test(`createClient({ ${name} }) refuses 2^31, 2^53, Infinity, NaN, -1, 1.5, a string, null: INVALID_ARGUMENT naming it and 2^31 - 1`, () => {
      for (const value of BAD) {
        if (value === null && name !== 'attemptTimeoutMs') continue; // null is "the default" (??)
        const error = thrown(() => clientWith({ [name]: value }), 'INVALID_ARGUMENT');
        assert.match(error.message, new RegExp(`'${name}'`), `${name}: ${value}`);
        assert.match(error.message, new RegExp(String(LIMIT)), `${name}: ${value}: ${error.message}`);
        assert.equal(typeof error.hint, 'string');
      }
    });
  }

  test('createClient takes 2^31 - 1 ms for each duration', () => {
    for (const name of OPTIONS) clientWith({ [name]: LIMIT });
  });

  test('a call with { timeoutMs: 2^31 } (or Infinity, NaN, 0, -1) is refused before anything is sent; 2^31 - 1 is sent and answered', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    const client = clientWith({ fetch, validate: false });
    for (const timeoutMs of [2 ** 31, 2 ** 53, Infinity, NaN, 0, -1, '5']) {
      const error = await rejection(client.call(P2P_CREATE, p2pCreate(), { timeoutMs }), 'INVALID_ARGUMENT');
      assert.match(error.message, /'timeoutMs'/);
      assert.match(error.message, new RegExp(String(LIMIT)));
    }
    for (const options of [{ attemptTimeoutMs: 2 ** 31 }, { retries: -1 }, { retries: 2 ** 53 }, { retries: NaN }, { retries: 1.5 }]) {
      const error = await rejection(client.call(P2P_CREATE, p2pCreate(), options), 'INVALID_ARGUMENT');
      assert.match(error.message, new RegExp(`'${Object.keys(options)[0]}'`));
    }
    await rejection(client.call(P2P_CREATE, p2pCreate(), 'fast'), 'INVALID_ARGUMENT');
    assert.equal(calls.length, 0, 'nothing was sent');
    const model = await client.call(P2P_CREATE, p2pCreate(), { timeoutMs: LIMIT });
    assert.equal(model.status, 'processing');
    assert.equal(calls.length, 1);
    assert.equal(calls[0].init.signal.aborted, false, 'the attempt was not aborted at once');
  });

  test('waitFor refuses an intervalMs of 2^31 (the poll would repeat every 1 ms) and a timeoutMs of NaN', { timeout: 20000 }, async () => {
    const { fetch, calls } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
    let sleeps = 0;
    // Polls that never end fail the test instead of hanging it (a sleep of no time each).
    const sleep = async () => {
      if (++sleeps > 50) throw new Error('polled on after 50 pauses');
    };
    const client = clientWith({ fetch, sleep, validate: false });
    for (const options of [{ intervalMs: 2 ** 31 }, { intervalMs: Infinity }, { timeoutMs: NaN }, { timeoutMs: -1 }]) {
      const error = await rejection(client.p2p.payin.waitFor({ paymentId: 'order-1' }, options), 'INVALID_ARGUMENT');
      assert.match(error.message, new RegExp(`'${Object.keys(options)[0]}'`));
    }
    assert.equal(calls.length, 0);
  });
});
