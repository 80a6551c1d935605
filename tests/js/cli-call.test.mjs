// `payment-intake call OPERATION`: the client from the command line, against a sandbox in
// this process (the CLI runs as a child, asynchronously, so the sandbox can answer).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

import { keysDir, pkgDir } from './helpers.mjs';
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

  const exists = await run(['call', '/api/v1/payment/p2p/payin', ...common, '--body', '-'], body(id));
  assert.equal(exists.status, 1);
  assert.match(exists.stderr, /^PAYMENT_EXISTS: /);
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
  assert.match(help.stdout, /--hmac-secret FILE/);
}));
