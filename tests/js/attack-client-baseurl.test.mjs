// A baseUrl with credentials (https://user:password@host): accepted, its password then landed
// in error messages (fetch refuses such a URL, and said it whole), hook events and the CLI's
// stderr. Refused now at createClient and by the CLI, the password in no message.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';

import { keysDir, pkgDir } from './helpers.mjs';
import { clientWith, fakeFetch, plainAnswer, statusOf, thrown } from './support/fake-service.mjs';

const SECRET = 'pa55w0rd-S3CRET';

describe('createClient: a baseUrl with a user or password', () => {
  for (const baseUrl of [`https://user:${SECRET}@service.example`, `https://${SECRET}@service.example`, `https://:${SECRET}@service.example/`, `http://user:${SECRET}@127.0.0.1:8080`, `HTTPS://user:${encodeURIComponent(SECRET)}@service.example`]) {
    test(`${baseUrl.replace(SECRET, '<secret>')}: INVALID_ARGUMENT naming baseUrl, the secret in no member`, () => {
      const { fetch, calls } = fakeFetch((call) => plainAnswer(statusOf(call.body)));
      const events = [];
      const error = thrown(() => clientWith({ baseUrl, fetch, onRequest: (event) => events.push(event) }), 'INVALID_ARGUMENT');
      assert.match(error.message, /'baseUrl'/);
      assert.match(error.hint, /credential|password/i);
      assert.ok(!JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes(SECRET), error.message);
      assert.equal(calls.length, 0);
      assert.equal(events.length, 0);
    });
  }

  test('a baseUrl that is no URL at all, or not http(s), is INVALID_ARGUMENT', () => {
    for (const baseUrl of ['https://', 'ftp://service.example', 'https://exa mple.com', 'javascript:alert(1)//']) thrown(() => clientWith({ baseUrl }), 'INVALID_ARGUMENT');
  });

  test('payment-intake call --base-url https://user:password@host: exit 2, the password not on stderr or stdout', { timeout: 60000 }, async () => {
    const args = [path.join(pkgDir, 'cli.js'), 'call', '/api/v1/payment/p2p/payin/info', '--base-url', `https://user:${SECRET}@127.0.0.1:9`, '--merchant-id', 'm-1', '--key', path.join(keysDir, 'rsa2048.pkcs8.pem'), '--project-id', 'prj_1', '--payment-id', 'p-1', '--timeout', '2000', '--retries', '0'];
    const out = await new Promise((resolve) => {
      execFile(process.execPath, args, { encoding: 'utf8' }, (error, stdout, stderr) => resolve({ status: error ? error.code : 0, stdout, stderr }));
    });
    assert.equal(out.status, 2, out.stderr);
    assert.match(out.stderr, /INVALID_ARGUMENT/);
    assert.match(out.stderr, /base-?[uU]rl/);
    assert.ok(!out.stderr.includes(SECRET), out.stderr);
    assert.ok(!out.stdout.includes(SECRET), out.stdout);
  });
});
