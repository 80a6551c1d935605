// A client that goes away while it sends its request's body (it closes or resets the
// connection before the body's end) is the client's doing, not the sandbox's: no 'failure'
// event (which the CLI prints as a stack), no answer attempted, one 'client-gone' event; and
// the sandbox goes on serving.
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';

import { merchantKey, SERVICE_KEY, startSandbox } from './support/sandbox-kit.mjs';

/** Sends a request head promising `promised` bytes (or 'chunked'), then `sent` bytes of body, then closes (`how`: 'end', 'destroy' or 'reset'). */
function abortUpload(url, { method = 'POST', path, promised = 100000, sent = 100, how = 'destroy' }) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      const length = promised === 'chunked' ? 'transfer-encoding: chunked' : `content-length: ${promised}`;
      const body = promised === 'chunked' ? `${sent.toString(16)}\r\n${'x'.repeat(sent)}\r\n` : 'x'.repeat(sent);
      socket.write(`${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/json\r\n${length}\r\n\r\n${body}`);
      setTimeout(() => {
        if (how === 'reset') socket.resetAndDestroy();
        else if (how === 'end') socket.end();
        else socket.destroy();
      }, 100);
    });
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
  });
}

const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("an upload the client aborts is no failure of the sandbox: no 'failure' event, no answer, one 'client-gone' event each", async () => {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY });
  const failures = [];
  const gone = [];
  sandbox.events.on('failure', (e) => failures.push(e));
  sandbox.events.on('client-gone', (e) => gone.push(e));
  try {
    const cases = [
      { path: '/api/v1/payment/p2p/payin', how: 'destroy' },
      { path: '/api/v1/payment/p2p/payin', how: 'reset' },
      { path: '/api/v1/payment/p2p/payin', how: 'end' },
      { path: '/sandbox/faults', how: 'destroy' },
      { path: '/nowhere', how: 'reset' },
      { path: '/api/v1/payment/p2p/payin', how: 'destroy', sent: 0 },
      { path: '/api/v1/payment/p2p/payin', how: 'destroy', promised: 'chunked' },
      { path: '/sandbox/payments/x/cancel', how: 'reset', promised: 'chunked', sent: 5 },
    ];
    for (const c of cases) {
      const answer = await abortUpload(sandbox.url, c);
      // 'end' half-closes: the sandbox could still answer; it must not answer 500.
      assert.ok(!/^HTTP\/1\.1 5/.test(answer), `${c.path} ${c.how}: no 5xx answer, got ${JSON.stringify(answer.slice(0, 60))}`);
    }
    await settle(200);
    assert.deepEqual(failures.map((f) => f.error?.stack ?? f.error), [], 'no failure of the sandbox');
    assert.deepEqual(gone.map((e) => [e.type, e.method, e.path]), cases.map((c) => ['client-gone', 'POST', c.path]), 'one client-gone event per aborted upload');
    // It goes on serving.
    assert.equal((await fetch(`${sandbox.url}/sandbox/faults`)).status, 200);
    assert.equal((await fetch(`${sandbox.url}/`)).status, 200);
  } finally {
    await sandbox.close();
  }
});

test('a body over the limit is still 413 (the sandbox stops reading it), not a client-gone', async () => {
  const sandbox = await startSandbox({ merchantKey: merchantKey.publicKeyPem(), serviceKey: SERVICE_KEY });
  const gone = [];
  const failures = [];
  sandbox.events.on('client-gone', (e) => gone.push(e));
  sandbox.events.on('failure', (e) => failures.push(e));
  try {
    const res = await fetch(`${sandbox.url}/api/v1/payment/p2p/payin`, { method: 'POST', body: 'x'.repeat(2 * 1024 * 1024) }).catch((e) => e);
    if (!(res instanceof Error)) assert.equal(res.status, 413);
    await settle(100);
    assert.deepEqual(failures, []);
    assert.deepEqual(gone, []);
  } finally {
    await sandbox.close();
  }
});
