// One kit of misuse, run over every store (tests/js/store-misuse.test.mjs): what each is given
// wrong (ids that are not strings, hold NUL, are empty or too long; leases of 0, below 0,
// Infinity, 2^31; bad reviews() and due() options; bad records), a claim used wrong (committed
// twice, released then committed, committed after its lease ran out), and a client that is
// closed or fails. Each case asserts what every store must do (receiver/store.d.ts) and gives
// an observation per step: code, status, class, own members and message (its store's name
// taken off; a STORE_FAILED's message up to the driver's words), so that the test file can
// also hold the observations of every store equal.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

import { cjs as api } from '../helpers.mjs';
import { callback, recorder } from './receiver-kit.mjs';

/** The statuses of src/error.rs's table for the codes a store throws. */
const STATUS = { INVALID_ARGUMENT: 500, STORE_FAILED: 503, TIMEOUT: 504 };
const STORE_NAMES = ['memoryStore', 'postgresStore', 'redisStore'];

const state = (status, key, isFinal = status === 'success' || status === 'decline') => ({ status, subStatus: null, isFinal, idempotencyKey: key, updatedAt: new Date().toISOString() });
const review = (id, receivedAt, extra = {}) => ({ id, code: 'INVALID_CALLBACK', message: 'm', projectId: 'p', paymentId: null, rawBody: '{}', headers: { 'x-access-signature': 's' }, receivedAt, ...extra });
const create = (extra = {}) => ({ projectId: 'p', paymentId: 'c-1', operation: '/api/v1/payment/p2p/payin', amount: 5, currency: 'RUB', method: 'card-p2p', widgetMethod: null, requestedAt: new Date().toISOString(), lifetime: null, ...extra });
/** Text of `bytes` UTF-8 bytes that PostgreSQL cannot compress in an index (random hex). */
const random = (bytes) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 16).toString(16)).join('');

/** An error as the kit compares it across stores. */
function shapeOf(error) {
  const prefix = STORE_NAMES.find((name) => error?.message?.startsWith(`${name}: `));
  let message = prefix ? error.message.slice(prefix.length + 2) : `(no store's name) ${error?.message}`;
  if (error?.code === 'STORE_FAILED') message = message.replace(/ failed: [\s\S]*$/, ' failed: …');
  return {
    class: error?.name,
    package: api.isPaymentIntakeError(error) && error instanceof api.PaymentIntakeError,
    code: error?.code,
    status: error?.status,
    members: Object.keys(error ?? {}).sort(),
    message,
    cause: error?.cause === undefined ? null : error.cause instanceof Error ? 'Error' : typeof error.cause,
  };
}

/** `{ error: shape }` or `{ value }` of `fn()`, without its store's words. */
async function outcome(fn) {
  try {
    return { value: await fn() };
  } catch (error) {
    return { error: shapeOf(error) };
  }
}

/** Asserts `fn()` rejects with the package's error of `code` (its table's status), and gives its shape. */
async function refused(fn, code, what) {
  const seen = await outcome(fn);
  assert.ok(seen.error, `${what}: resolved with ${JSON.stringify(seen.value)?.slice(0, 200)}; expected ${code}`);
  const { error } = seen;
  assert.equal(error.package, true, `${what}: not a PaymentIntakeError: ${JSON.stringify(error)}`);
  assert.equal(error.code, code, `${what}: ${error.message}`);
  assert.equal(error.status, STATUS[code], `${what}: status`);
  assert.ok(!error.message.startsWith('(no store'), `${what}: the message names no store: ${error.message}`);
  if (code === 'STORE_FAILED') assert.equal(error.cause, 'Error', `${what}: its cause is an Error`);
  return error;
}

const claimOf = (store, extra = {}) => store.claim({ key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 5000, ...extra });

/**
 * The cases: `{ name, when?(kind), run(ctx) }`, `ctx`: `{ store, open, kind, guarantee }` (a
 * fresh store per case); `run` asserts and resolves with what it observed, to compare.
 */
const CASES = [
  {
    name: 'claim(): a request that is no object, keys and ids that are no strings, hold NUL, are empty or too long: INVALID_ARGUMENT, nothing claimed',
    async run({ store }) {
      const seen = {};
      const bad = {
        request: [undefined, null, 'k', 5],
        key: [undefined, 1, null, {}, '', 'a\u0000b', random(2049)],
        projectId: [undefined, 1, null, ['p'], 'a\u0000b', random(1025), '€'.repeat(342)],
        paymentId: [7n, true, 'a\u0000', random(1025)],
      };
      for (const [member, values] of Object.entries(bad)) {
        for (const [i, value] of values.entries()) {
          const request = member === 'request' ? value : { key: 'k', projectId: 'p', paymentId: 'pay', leaseMs: 5000, [member]: value };
          seen[`${member}[${i}]`] = await refused(() => store.claim(request), 'INVALID_ARGUMENT', `${member} = ${String(value).slice(0, 20)}`);
        }
      }
      const claim = await claimOf(store);
      assert.equal(claim.outcome, 'claimed', 'nothing was claimed by the refused requests');
      await claim.release();
      return seen;
    },
  },
  {
    name: 'claim(): leaseMs 0, below 0, not whole, NaN, Infinity, 2^31 or a text: INVALID_ARGUMENT; 1 to 2^31 - 1, or none (the default), claim',
    async run({ store }) {
      const seen = {};
      for (const leaseMs of [0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53, '1000', null]) {
        seen[String(leaseMs)] = await refused(() => claimOf(store, { leaseMs }), 'INVALID_ARGUMENT', `leaseMs ${leaseMs}`);
      }
      for (const [i, leaseMs] of [2 ** 31 - 1, undefined, 1].entries()) {
        const claim = await claimOf(store, { key: `k${i}`, paymentId: `pay-${i}`, leaseMs });
        assert.equal(claim.outcome, 'claimed', `leaseMs ${leaseMs}`);
        await claim.release();
      }
      return seen;
    },
  },
  {
    name: 'ids at the bounds are held (1024 bytes each, a 2048-byte key, empty ids, any character but NUL): claimed, committed, read back',
    async run({ store }) {
      const pairs = [
        ['', ''],
        [random(1024), random(1024)],
        ['€'.repeat(341), 'к'.repeat(512)],
        ['a:b{c}*', ' \n\t"\'\\'],
      ];
      for (const [i, [projectId, paymentId]] of pairs.entries()) {
        const key = i === 1 ? random(2048) : `key-${i}`;
        const claim = await store.claim({ key, projectId, paymentId, leaseMs: 5000 });
        assert.equal(claim.outcome, 'claimed', `pair ${i}`);
        await claim.commit(state('success', key));
        const read = await store.payment(projectId, paymentId);
        assert.equal(read?.idempotencyKey, key, `pair ${i} read back`);
        assert.deepEqual(await store.claim({ key, projectId, paymentId, leaseMs: 5000 }), { outcome: 'done' });
      }
      return { held: pairs.length };
    },
  },
  {
    name: 'a claim committed twice, or committed after its release: INVALID_ARGUMENT, nothing written; a release after a commit or a release does nothing',
    async run({ store }) {
      const seen = {};
      const claim = await claimOf(store);
      await claim.commit(state('processing', 'k'));
      seen.twice = await refused(() => claim.commit(state('success', 'k')), 'INVALID_ARGUMENT', 'a second commit');
      assert.equal((await store.payment('p', 'pay')).status, 'processing', 'the second commit wrote nothing');
      seen.releaseAfterCommit = await outcome(() => claim.release());
      assert.deepEqual(seen.releaseAfterCommit, { value: undefined });
      assert.deepEqual(await claimOf(store), { outcome: 'done' }, 'the key stays done');
      const other = await claimOf(store, { key: 'k2' });
      await other.release();
      seen.commitAfterRelease = await refused(() => other.commit(state('success', 'k2')), 'INVALID_ARGUMENT', 'a commit after release');
      seen.releaseTwice = await outcome(() => other.release());
      assert.deepEqual(seen.releaseTwice, { value: undefined });
      assert.equal((await store.payment('p', 'pay')).status, 'processing', 'the released claim wrote nothing');
      const again = await claimOf(store, { key: 'k2' });
      assert.equal(again.outcome, 'claimed', 'a released key is not done');
      await again.release();
      return seen;
    },
  },
  {
    name: 'commit(next) with a next that is no PaymentState: INVALID_ARGUMENT, the claim still open (released after, the key not done)',
    async run({ store }) {
      const seen = {};
      const claim = await claimOf(store);
      const bad = ['success', 5, { status: 1 }, { status: '' }, { status: 's', isFinal: 'yes', idempotencyKey: 'k' }, { status: 's', isFinal: true }, { status: 's', subStatus: 3, isFinal: true, idempotencyKey: 'k' }, { status: 'a\u0000', isFinal: true, idempotencyKey: 'k' }];
      for (const [i, next] of bad.entries()) seen[i] = await refused(() => claim.commit(next), 'INVALID_ARGUMENT', `next ${JSON.stringify(next)}`);
      await claim.release();
      assert.equal(await store.payment('p', 'pay'), null);
      const again = await claimOf(store);
      assert.equal(again.outcome, 'claimed');
      await again.commit(null);
      assert.deepEqual(await claimOf(store), { outcome: 'done' });
      return seen;
    },
  },
  {
    name: 'a commit after leaseMs passed, with nobody acting on the payment since: recorded (the state as the store records it: five members, its own updatedAt)',
    async run({ store }) {
      const claim = await claimOf(store, { leaseMs: 100 });
      await sleep(250);
      const before = Date.now();
      await claim.commit({ ...state('success', 'k'), updatedAt: '2001-01-01T00:00:00.000Z', extra: 'dropped' });
      const read = await store.payment('p', 'pay');
      assert.deepEqual(Object.keys(read).sort(), ['create', 'idempotencyKey', 'isFinal', 'status', 'subStatus', 'updatedAt']);
      assert.ok(Date.parse(read.updatedAt) >= before - 1000, `updatedAt is the store's: ${read.updatedAt}`);
      assert.deepEqual(await claimOf(store), { outcome: 'done' });
      return { status: read.status };
    },
  },
  {
    name: 'lease stores: a commit after the lease ran out and another delivery took the payment: TIMEOUT, nothing recorded; its release leaves the other holder',
    when: (guarantee) => guarantee === 'at-least-once',
    async run({ store }) {
      const late = await claimOf(store, { key: 'k1', leaseMs: 100 });
      await sleep(250);
      const taker = await claimOf(store, { key: 'k2' });
      assert.equal(taker.outcome, 'claimed', 'the expired lease is taken');
      const seen = { late: await refused(() => late.commit(state('success', 'k1')), 'TIMEOUT', 'a late commit') };
      assert.equal(await store.payment('p', 'pay'), null, 'nothing recorded');
      seen.release = await outcome(() => late.release());
      assert.deepEqual(await claimOf(store, { key: 'k3' }), { outcome: 'busy' }, "the taker's lease stays");
      seen.commitAfterFailed = await refused(() => late.commit(null), 'INVALID_ARGUMENT', 'a commit after a failed one');
      await taker.commit(state('processing', 'k2'));
      const retry = await claimOf(store, { key: 'k1' });
      assert.equal(retry.outcome, 'claimed', 'k1 is not done: its retry handles it');
      assert.equal(retry.previous.status, 'processing');
      await retry.release();
      return seen;
    },
  },
  {
    name: 'exactly-once stores: a claim of a payment whose claim is open waits for it, then reads what it recorded',
    when: (guarantee) => guarantee === 'exactly-once',
    async run({ store }) {
      const first = await claimOf(store, { key: 'k1', leaseMs: 100 });
      let settled = false;
      const second = claimOf(store, { key: 'k2' }).then((claim) => ((settled = true), claim));
      await sleep(300);
      assert.equal(settled, false, 'the second claim waits, past the first one\'s leaseMs');
      await first.commit(state('processing', 'k1'));
      const claim = await second;
      assert.equal(claim.outcome, 'claimed');
      assert.equal(claim.previous.status, 'processing');
      await claim.release();
      return { waited: true };
    },
  },
  {
    name: 'stores with a transaction: onEvent caught the failure of a query through tx: the commit (of a state, or of none) is STORE_FAILED, nothing recorded',
    when: (guarantee) => guarantee === 'exactly-once',
    async run({ store }) {
      const seen = {};
      for (const next of [state('success', 'k'), null]) {
        const claim = await claimOf(store);
        await claim.tx.query('SELECT no_such_column FROM no_such_table').catch(() => {});
        // With no state to write, COMMIT itself is what fails: PostgreSQL answers it ROLLBACK, with no error.
        seen[String(next?.status)] = await refused(() => claim.commit(next), 'STORE_FAILED', `a commit of ${next ? 'a state' : 'none'} in a failed transaction`);
        seen[`release after ${next?.status}`] = await outcome(() => claim.release());
        assert.equal(await store.payment('p', 'pay'), null);
      }
      const retry = await claimOf(store);
      assert.equal(retry.outcome, 'claimed', 'the key is not done');
      await retry.release();
      return seen;
    },
  },
  {
    name: 'reviews(): limits 0, below 0, not whole, NaN, Infinity, over 10000, texts, and options that are no object: INVALID_ARGUMENT; by default the 100 oldest, oldest first then by id',
    async run({ store }) {
      const seen = {};
      for (const limit of [0, -1, 1.5, NaN, Infinity, 10001, 2 ** 53, '10', null]) seen[`limit ${limit}`] = await refused(() => store.reviews({ limit }), 'INVALID_ARGUMENT', `limit ${limit}`);
      for (const options of ['x', 5, true]) seen[`options ${options}`] = await refused(() => store.reviews(options), 'INVALID_ARGUMENT', `options ${options}`);
      const base = Date.parse('2026-01-01T00:00:00.000Z');
      // Kept newest first; two at the same time, the larger id first.
      for (let i = 101; i >= 1; i -= 1) await store.keep(review(`id-${String(i).padStart(3, '0')}`, new Date(base + i * 1000).toISOString()));
      await store.keep(review('id-000b', new Date(base).toISOString()));
      await store.keep(review('id-000a', new Date(base).toISOString()));
      const ids = (list) => list.map((r) => r.id);
      const all = await store.reviews();
      assert.equal(all.length, 100, 'the default limit is 100');
      assert.deepEqual(ids(all).slice(0, 3), ['id-000a', 'id-000b', 'id-001']);
      assert.deepEqual(ids(await store.reviews(null)), ids(all));
      assert.equal((await store.reviews({ limit: 10000 })).length, 103);
      assert.deepEqual(ids(await store.reviews({ limit: 1 })), ['id-000a']);
      return { seen, first: ids(all).slice(0, 3) };
    },
  },
  {
    name: 'keep(): reviews that are no object, lack an id, hold NUL or a bad time: INVALID_ARGUMENT; a review kept reads back the same on every store',
    async run({ store }) {
      const seen = {};
      const ok = review('r-1', '2026-01-01T00:00:00Z');
      const bad = [null, 'r', { ...ok, id: '' }, { ...ok, id: 5 }, { ...ok, rawBody: 'a\u0000b' }, { ...ok, headers: { a: 'b\u0000' } }, { ...ok, receivedAt: 'yesterday' }, { ...ok, code: undefined }, { ...ok, id: random(2049) }];
      for (const [i, given] of bad.entries()) seen[i] = await refused(() => store.keep(given), 'INVALID_ARGUMENT', `review ${i}`);
      seen.forget = await refused(() => store.forget(5), 'INVALID_ARGUMENT', 'forget(5)');
      const { headers: _, ...bare } = ok;
      assert.deepEqual(await store.keep(bare), { isNew: true });
      assert.deepEqual(await store.reviews(), [{ ...bare, headers: {}, receivedAt: '2026-01-01T00:00:00.000Z' }]);
      return seen;
    },
  },
  {
    name: 'due(): no request, a bad now, olderThanMs or limit: INVALID_ARGUMENT',
    async run({ store }) {
      const seen = {};
      const ok = { now: Date.now(), olderThanMs: 0, limit: 10 };
      const bad = [undefined, null, 5, {}, { ...ok, now: -1 }, { ...ok, now: NaN }, { ...ok, now: '1' }, { ...ok, olderThanMs: -1 }, { ...ok, olderThanMs: Infinity }, { ...ok, limit: 0 }, { ...ok, limit: 10001 }, { ...ok, limit: 1.5 }, { ...ok, limit: undefined }];
      for (const [i, request] of bad.entries()) seen[i] = await refused(() => store.due(request), 'INVALID_ARGUMENT', `due ${JSON.stringify(request)}`);
      assert.deepEqual(await store.due(ok), []);
      return seen;
    },
  },
  {
    name: 'payment(), recordCreate(), recordAnswer(): bad ids, records that are no object, hold NUL or a bad time: INVALID_ARGUMENT',
    async run({ store }) {
      const seen = {};
      seen.payment = [await refused(() => store.payment(1, 'x'), 'INVALID_ARGUMENT', 'payment(1)'), await refused(() => store.payment('a', 'b\u0000'), 'INVALID_ARGUMENT', 'payment NUL')];
      assert.equal(await store.payment('', ''), null);
      const bad = [null, 'x', create({ paymentId: 5 }), create({ requestedAt: 'soon' }), create({ method: 'a\u0000' }), create({ paymentId: 'x\u0000' }), create({ amount: 10n })];
      seen.recordCreate = [];
      for (const [i, record] of bad.entries()) seen.recordCreate.push(await refused(() => store.recordCreate(record), 'INVALID_ARGUMENT', `record ${i}`));
      assert.deepEqual(await store.recordCreate(create()), { isNew: true, existing: null });
      seen.recordAnswer = [
        await refused(() => store.recordAnswer('p', 'c-1', null), 'INVALID_ARGUMENT', 'answer null'),
        await refused(() => store.recordAnswer('p', 'c-1', { status: 'a\u0000' }), 'INVALID_ARGUMENT', 'answer NUL'),
        await refused(() => store.recordAnswer(null, 'c-1', { status: 'ok' }), 'INVALID_ARGUMENT', 'answer ids'),
      ];
      assert.equal((await store.payment('p', 'c-1')).create.answer, null, 'nothing answered');
      return seen;
    },
  },
  {
    name: 'a genuine callback whose ids no store can hold (a payment_id over 1024 bytes) is kept for review (200), not failed for ever',
    async run({ store }) {
      const { seen, config } = recorder();
      const handler = api.createCallbackHandler({ ...config, store });
      const sent = callback('success', { paymentId: random(1025) });
      const answer = await handler.handle(sent.body, sent.headers);
      assert.deepEqual({ status: answer.status, ...JSON.parse(answer.body) }, { status: 200, ok: true, code: 'INVALID_CALLBACK' });
      assert.equal(seen.events.length, 0);
      assert.match(seen.reviews[0].message, /payment_id is over 1024 bytes/);
      return { code: 'INVALID_CALLBACK' };
    },
  },
];

/** The same calls on a store whose client is closed: every one STORE_FAILED, its cause an Error. */
const BROKEN = {
  name: 'a closed client: every call is STORE_FAILED (503), its cause an Error; a failing client the same, even when it throws no Error',
  async run({ kind }) {
    const seen = {};
    const calls = (store) => ({
      claim: () => claimOf(store),
      keep: () => store.keep(review('r', new Date().toISOString())),
      forget: () => store.forget('r'),
      payment: () => store.payment('p', 'x'),
      reviews: () => store.reviews(),
      recordCreate: () => store.recordCreate(create()),
      recordAnswer: () => store.recordAnswer('p', 'x', { status: 'success', subStatus: null, requestId: null, answeredAt: new Date().toISOString() }),
      due: () => store.due({ now: Date.now(), olderThanMs: 0, limit: 1 }),
    });
    for (const [name, call] of Object.entries(calls(await kind.broken()))) seen[name] = await refused(call, 'STORE_FAILED', `closed: ${name}`);
    const failing = await kind.failing();
    for (const [name, call] of Object.entries(calls(failing))) {
      const error = await refused(call, 'STORE_FAILED', `failing: ${name}`);
      assert.deepEqual(error, seen[name], `a failing client's ${name} fails as a closed one's`);
    }
    return seen;
  },
};

export { BROKEN, CASES };
