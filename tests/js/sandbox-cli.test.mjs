// `payment-intake sandbox` and what the sandbox added for reconciliation: --lose-callbacks
// SHARE (checked, and reported on the ready line), the receiver's answer code on each callback
// line, and a client that aborts its upload: one quiet line, no stack.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';

import { cjs as api, pkgDir, root } from './helpers.mjs';

const cli = path.join(pkgDir, 'cli.js');
const keys = path.join(root, 'tests', 'vectors', 'keys');
const merchant = api.SigningKey.fromPem(fs.readFileSync(path.join(keys, 'rsa2048.pkcs8.pem'), 'utf8'));
const args = (...more) => [cli, 'sandbox', '--merchant-key', path.join(keys, 'rsa2048.public.pem'), '--merchant-id', 'm-1', '--time-scale', '50', ...more];

/** Starts the sandbox command; resolves with the child, its first line, `out()`, `err()` and `until(test)` (a regex or a function of stdout so far). */
function serve(more) {
  const child = spawn(process.execPath, args(...more), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = [];
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      for (const w of waiters.splice(0)) if (!w()) waiters.push(w);
      if (out.includes('\n')) resolve({
        child, line: out.slice(0, out.indexOf('\n')), out: () => out, err: () => err,
        until: (check) => new Promise((ok, fail) => {
          const timer = setTimeout(() => fail(new Error(`timed out; stdout: ${out}\nstderr: ${err}`)), 15000);
          const w = () => (typeof check === 'function' ? check(out) : check.test(out)) && (clearTimeout(timer), ok(out), true);
          if (!w()) waiters.push(w);
        }),
      });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

function stop(child) {
  const exited = new Promise((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.on('exit', resolve)));
  if (child.exitCode === null) child.kill('SIGTERM');
  return exited;
}

/** A receiver answering every callback 200 `{"ok":true,"code":"DUPLICATE"}`; `hits`: the paths it got. */
async function receiver() {
  const hits = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => (hits.push(req.url), res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"code":"DUPLICATE"}')));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, hits, url: `http://127.0.0.1:${server.address().port}` };
}

function payin(url, callbackBase, paymentId) {
  const body = {
    general: { project_id: 'p', payment_id: paymentId, merchant_callback_url: `${callbackBase}/info`, merchant_decline_callback_url: `${callbackBase}/no` },
    payment: { method: 'card-p2p', amount: 1000, currency: 'RUB' },
    customer: { id: 'u', ip_address: '203.0.113.1', country: 'RU' },
  };
  const signed = api.signRequest(body, merchant, { merchantId: 'm-1' });
  return fetch(`${url}/api/v1/payment/p2p/payin`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body });
}

test('--lose-callbacks: anything but a share from 0 to 1 exits 2 naming the flag; --help lists it', () => {
  for (const value of ['x', '1.5', '-0.1', 'NaN', 'Infinity', '', '0x1', '1e-1', ' 0.3', '0.3.1', '.']) {
    const r = spawnSync(process.execPath, args(`--lose-callbacks=${value}`), { encoding: 'utf8' });
    assert.equal(r.status, 2, `'${value}': ${r.stderr}`);
    assert.match(r.stderr, new RegExp(`--lose-callbacks must be a share from 0 to 1 \\(e\\.g\\. 0\\.3\\), got '${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}'`), value);
    assert.match(r.stderr, /payment-intake sandbox --help/);
  }
  const help = spawnSync(process.execPath, [cli, 'sandbox', '--help'], { encoding: 'utf8' });
  assert.match(help.stdout, /--lose-callbacks SHARE +.*never get a callback/);
});

test('--lose-callbacks 1 reaches the sandbox: the ready line says so, no callback is sent, each is logged as lost', async () => {
  const target = await receiver();
  const json = await serve(['--lose-callbacks', '1', '--json']);
  try {
    assert.deepEqual(JSON.parse(json.line).callbacks, { duplicate: false, shuffle: false, concurrent: 0, lose: 1 });
    assert.equal((await payin(JSON.parse(json.line).url, target.url, 'cli-lost-1')).status, 200);
    const lines = (await json.until(/"event":"callback"/)).split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const cb = lines.find((l) => l.event === 'callback');
    assert.deepEqual([cb.lost, cb.status, cb.kind], [true, null, 'informative']);
  } finally {
    await stop(json.child);
  }
  const text = await serve(['--lose-callbacks', '0.5']);
  try {
    for (let i = 0; i < 12; i += 1) assert.equal((await payin(text.line.match(/http:\/\/[\d.:]+/)[0], target.url, `cli-lost-t${i}`)).status, 200);
    const out = await text.until((o) => (o.match(/callback informative -> /g) ?? []).length >= 12);
    assert.equal(out.split('\n')[2], 'The callbacks of about 50% of the payments are lost (--lose-callbacks 0.5): find their state with the info operations.');
    assert.match(out, /callback informative -> http:\S+\/info: lost \(--lose-callbacks\), never sent\n/);
    assert.match(out, /callback informative -> http:\S+\/info: HTTP 200 DUPLICATE, attempt 1\n/, 'the answer code on the line');
  } finally {
    await stop(text.child);
    target.server.close();
  }
  assert.equal(target.hits.length, 12 - (text.out().match(/lost \(--lose-callbacks\)/g) ?? []).length, 'only callbacks not lost reached the receiver');
});

test('a client that aborts its upload: one quiet line on stdout, nothing on stderr (no stack), and the sandbox goes on', async () => {
  for (const json of [false, true]) {
    const box = await serve(json ? ['--json'] : []);
    try {
      const url = new URL(json ? JSON.parse(box.line).url : box.line.match(/http:\/\/[\d.:]+/)[0]);
      await new Promise((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname, () => {
          socket.write(`POST /api/v1/payment/p2p/payin HTTP/1.1\r\nhost: ${url.host}\r\ncontent-length: 5000\r\n\r\n{"gen`);
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('close', resolve);
      });
      const out = await box.until(json ? /"event":"client-gone"/ : /went away/);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(box.err(), '', 'nothing on stderr');
      const after = out.split('\n').slice(json ? 1 : 2).filter(Boolean);
      if (json) assert.deepEqual(after.map((l) => JSON.parse(l)), [{ event: 'client-gone', method: 'POST', path: '/api/v1/payment/p2p/payin' }]);
      else assert.deepEqual(after, ['client went away: POST /api/v1/payment/p2p/payin (closed the connection before its request body ended)']);
      assert.equal((await fetch(`${url.origin}/sandbox/faults`)).status, 200);
    } finally {
      assert.equal(await stop(box.child), 0);
    }
  }
});

test('--service-key FILE that does not exist: a new key is written there (owner-only) and signs; the next run signs with the same', async () => {
  const dir = fs.mkdtempSync(path.join(root, 'tmp-svc-'));
  try {
    const file = path.join(dir, 'service-private.pem');
    const out = path.join(dir, 'service-public.pem');
    const first = await serve(['--service-key', file, '--service-public-key-out', out, '--json']);
    first.child.kill('SIGTERM');
    assert.match(first.err(), /wrote a new service key to /);
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    const key = api.SigningKey.fromPem(fs.readFileSync(file, 'utf8'));
    assert.equal(fs.readFileSync(out, 'utf8').trim(), key.publicKeyPem().trim());
    const second = await serve(['--service-key', file, '--service-public-key-out', out, '--json']);
    second.child.kill('SIGTERM');
    assert.doesNotMatch(second.err(), /wrote a new service key/);
    assert.equal(fs.readFileSync(out, 'utf8').trim(), key.publicKeyPem().trim(), 'the same key signs');
    const missingDir = spawnSync(process.execPath, args('--service-key', path.join(dir, 'nope', 'k.pem')), { encoding: 'utf8' });
    assert.equal(missingDir.status, 2);
    assert.match(missingDir.stderr, /--service-key: .* is not a directory/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
