// `payment-intake call OPERATION`: the client from the command line, against a sandbox in
// this process (the CLI runs as a child, asynchronously, so the sandbox can answer).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { cjs as api, keysDir, pkgDir } from './helpers.mjs';
import { nextId, withSandbox } from './support/sandbox-kit.mjs';

const cli = path.join(pkgDir, 'cli.js');
const key = path.join(keysDir, 'rsa2048.pkcs8.pem');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-call-'));

/** Runs the CLI; `{ status, stdout, stderr }`. */
function run(args, input) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [cli, ...args], { encoding: 'utf8' }, (error, stdout, stderr) => resolve({ status: error ? error.code : 0, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

const body = (paymentId) => JSON.stringify({
  general: { project_id: 'prj_1', payment_id: paymentId },
  payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
});

test('call: creates, reads, refuses; exit codes 0, 1 with the code named, 2 for bad arguments', () => withSandbox({}, async ({ sandbox }) => {
  const common = ['--base-url', sandbox.url, '--merchant-id', sandbox.merchantId, '--key', key];
  const id = nextId('cli');
  const created = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', '-', '--json'], body(id));
  assert.equal(created.status, 0, created.stderr);
  const model = JSON.parse(created.stdout);
  assert.equal(model.paymentId, id);
  assert.equal(model.status, 'processing');
  assert.equal(model.response.statusCode, 200);

  const file = path.join(tmp, 'body.json');
  fs.writeFileSync(file, body(nextId('cli')));
  const text = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', file]);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^status: processing$/m);
  assert.match(text.stdout, /\(HTTP 200, 1 attempt, \d+ ms\)/);

  const info = await run(['call', '/api/v1/payment/p2p/payin/info', ...common, '--project-id', 'prj_1', '--payment-id', id, '--json']);
  assert.equal(info.status, 0, info.stderr);
  assert.equal(JSON.parse(info.stdout).paymentInfo.amount, 150000);
  const banks = await run(['call', '/api/v1/bank/all', ...common, '--project-id', 'prj_1']);
  assert.match(banks.stdout, /^banks: \{"id"/m);

  // The same create again is that payment (replayed); another amount under its payment_id is refused.
  const again = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', '-', '--json'], body(id));
  assert.equal(again.status, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).response.replayed, true);
  const exists = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', '-'], body(id).replace('150000', '7'));
  assert.equal(exists.status, 1);
  assert.match(exists.stderr, /^PAYMENT_EXISTS: .*amount 150000 \(asked 7\)/);
  const invalid = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', '-', '--json'], '{"general":{}}');
  assert.equal(invalid.status, 1);
  assert.equal(JSON.parse(invalid.stdout).code, 'REQUEST_INVALID');
  const unknown = await run(['call', '/api/v1/nope', ...common, '--body', '-'], '{}');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /INVALID_ARGUMENT: .*no operation of the spec's index/);
  const missing = await run(['call', '/api/v1/bank/all', '--merchant-id', 'm', '--key', key, '--project-id', 'p']);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--base-url URL is required/);
  const help = await run(['call', '--help']);
  assert.match(help.stdout, /--hmac-secret-file FILE/);
}));

test('call --hmac-secret-file: signs with the secret (x-access-merchant-algorithm sent), User-Agent payment-intake/<version>', async () => {
  const secretFile = path.join(tmp, 'secret.txt');
  fs.writeFileSync(secretFile, 'a-merchant-secret-of-32-bytes-or-more\n');
  const secret = api.HmacKey.fromSecret('a-merchant-secret-of-32-bytes-or-more');
  const seen = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({ headers: req.headers, text });
      const { general } = JSON.parse(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'processing', sub_status: 'new', status_description: null, request_id: 'r-1', project_id: general.project_id, payment_id: general.payment_id }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const out = await run(['call', '/api/v1/payment/p2p/payin/info', '--base-url', base, '--merchant-id', 'm-hmac', '--hmac-secret-file', secretFile, '--project-id', 'prj_1', '--payment-id', 'p-1', '--json']);
    assert.equal(out.status, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).paymentId, 'p-1');
    const [{ headers, text }] = seen;
    assert.equal(headers['x-access-merchant-algorithm'], 'HMAC-SHA512');
    assert.equal(headers['x-access-merchant-id'], 'm-hmac');
    assert.equal(headers['user-agent'], `payment-intake/${JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version}`);
    // The signature is the secret's over the text sent (the trailing newline of the file dropped).
    const again = api.signRequest(text, secret, { merchantId: 'm-hmac', timestamp: headers['x-access-timestamp'] });
    assert.equal(headers['x-access-signature'], again.headers['x-access-signature']);
    const old = await run(['call', '/api/v1/payment/p2p/payin/info', '--base-url', base, '--merchant-id', 'm', '--hmac-secret', secretFile, '--project-id', 'p']);
    assert.equal(old.status, 2, 'the flag is --hmac-secret-file (nothing shipped the other spelling)');
    const unreadable = await run(['call', '/api/v1/payment/p2p/payin/info', '--base-url', base, '--merchant-id', 'm', '--hmac-secret-file', path.join(tmp, 'none'), '--project-id', 'p']);
    assert.equal(unreadable.status, 2);
    assert.match(unreadable.stderr, /--hmac-secret-file: cannot read/);
  } finally {
    secret.free();
    server.close();
  }
});
