// The sandbox's harsher callback delivery: `shuffleCallbacks` (a payment's callbacks may
// arrive out of order) and `concurrentCallbacks` N (callbacks and their duplicates at once, at
// most N attempts in flight), and the default they leave alone (one after the other per payment).
import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';

import { cjs as api } from './helpers.mjs';
import { P2P, call, ids, merchantKey, p2pBody, SERVICE_KEY, startSandbox, states, withSandbox } from './support/sandbox-kit.mjs';

/** Resolves when the sandbox moves `paymentId` to `subStatus` (the 'move' event). */
function moved(sandbox, paymentId, subStatus) {
  return new Promise((resolve) => {
    const listener = ({ payment, move }) => {
      if (payment.paymentId === paymentId && move.subStatus === subStatus) {
        sandbox.events.off('move', listener);
        resolve();
      }
    };
    sandbox.events.on('move', listener);
  });
}

/** Creates `count` payins and cancels each as soon as it awaits confirmation: two callbacks each, moments apart. */
async function awaitingThenDeclined(sandbox, receiver, count) {
  const bodies = Array.from({ length: count }, () => p2pBody(receiver));
  await Promise.all(
    bodies.map(async (body) => {
      const awaiting = moved(sandbox, body.general.payment_id, 'awaiting_confirm');
      assert.equal((await call(sandbox, P2P, body)).status, 200);
      await awaiting;
      assert.equal((await call(sandbox, `${P2P}/cancel`, ids(body))).status, 200);
    }),
  );
  return bodies;
}

test('shuffleCallbacks: a payment\'s later callback can arrive first; every callback still arrives once, and callbacksIdle waits for them', async () => {
  await withSandbox({ timeScale: 20, shuffleCallbacks: true }, async ({ sandbox, receiver }) => {
    const bodies = await awaitingThenDeclined(sandbox, receiver, 20);
    await sandbox.callbacksIdle();
    const orders = bodies.map((b) => states(receiver.of(b.general.payment_id)));
    for (const order of orders) assert.deepEqual([...order].sort(), ['decline', 'processing:awaiting_confirm'], 'both callbacks, each once');
    const reversed = orders.filter((o) => o[0] === 'decline').length;
    assert.ok(reversed > 0, `no payment of 20 got its decline first: ${JSON.stringify(orders)}`);
  });
});

test('without shuffleCallbacks, a payment\'s callbacks arrive in order', async () => {
  await withSandbox({ timeScale: 20 }, async ({ sandbox, receiver }) => {
    const bodies = await awaitingThenDeclined(sandbox, receiver, 10);
    await sandbox.callbacksIdle();
    for (const b of bodies) assert.deepEqual(states(receiver.of(b.general.payment_id)), ['processing:awaiting_confirm', 'decline']);
  });
});

/**
 * A receiver that verifies each callback and holds every answer `holdMs`, counting the requests
 * in flight: the most at once, and whether both copies of one callback were in flight together.
 */
async function slowReceiver(sandbox, holdMs) {
  const key = api.VerifyingKey.fromPem(sandbox.servicePublicKeyPem);
  const seen = { inFlight: 0, most: 0, keysInFlight: new Map(), overlapped: 0, delivered: [] };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const model = api.verifyCallback(Buffer.concat(chunks), req.headers, key, { toleranceSeconds: 600 });
      seen.inFlight += 1;
      seen.most = Math.max(seen.most, seen.inFlight);
      const n = (seen.keysInFlight.get(model.idempotencyKey) ?? 0) + 1;
      seen.keysInFlight.set(model.idempotencyKey, n);
      if (n > 1) seen.overlapped += 1;
      setTimeout(() => {
        seen.inFlight -= 1;
        seen.keysInFlight.set(model.idempotencyKey, seen.keysInFlight.get(model.idempotencyKey) - 1);
        seen.delivered.push(model.idempotencyKey);
        res.end('OK');
      }, holdMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { seen, server, urls: (tag) => ({ merchant_callback_url: `${base}/${tag}/info`, merchant_success_callback_url: `${base}/${tag}/ok`, merchant_decline_callback_url: `${base}/${tag}/no` }) };
}

async function deliveryRun(options, payments) {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY, timeScale: 100, ...options });
  const receiver = await slowReceiver(sandbox, 150);
  try {
    await Promise.all(
      Array.from({ length: payments }, async () => {
        const body = p2pBody(receiver);
        assert.equal((await call(sandbox, P2P, body)).status, 200);
      }),
    );
    while (receiver.seen.delivered.length < payments * 2) await new Promise((r) => setTimeout(r, 20));
    await sandbox.callbacksIdle();
    return receiver.seen;
  } finally {
    await sandbox.close();
    receiver.server.close();
    receiver.server.closeAllConnections();
  }
}

test('concurrentCallbacks 3 with duplicates: both copies of a callback in flight at once, never more than 3 attempts at once', async () => {
  const seen = await deliveryRun({ duplicateCallbacks: true, concurrentCallbacks: 3 }, 6);
  assert.equal(seen.most, 3, 'the limit is reached and kept');
  assert.ok(seen.overlapped > 0, 'a duplicate arrived while its original was still being answered');
  assert.equal(seen.delivered.length, 12, 'every callback and its duplicate, once each');
  assert.equal(new Set(seen.delivered).size, 6);
});

test('without concurrentCallbacks, a duplicate is sent only after its original was answered', async () => {
  const seen = await deliveryRun({ duplicateCallbacks: true }, 4);
  assert.equal(seen.overlapped, 0);
  assert.equal(seen.delivered.length, 8);
});

test('shuffleCallbacks and concurrentCallbacks are checked', async () => {
  for (const [options, message] of [
    [{ shuffleCallbacks: 'yes' }, /'shuffleCallbacks' must be true or false/],
    [{ concurrentCallbacks: -1 }, /'concurrentCallbacks' must be a whole number from 0/],
    [{ concurrentCallbacks: 1.5 }, /'concurrentCallbacks'/],
    [{ concurrentCallbacks: '4' }, /'concurrentCallbacks'/],
  ]) {
    await assert.rejects(startSandbox({ merchantKey: merchantKey.publicKeyPem(), ...options }), (e) => e.code === 'INVALID_OPTION' && message.test(e.message));
  }
});
