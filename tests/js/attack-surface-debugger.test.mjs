// Attacks on the `debugger` command's static server: one malformed request target must
// not end the process, and nothing outside the package's www/ and web/ is served.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { pkgDir } from './helpers.mjs';

const cli = path.join(pkgDir, 'cli.js');

/** Sends `text` as written on a fresh connection; resolves with what came back (or '' on a reset). */
function rawRequest(port, text) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('close', () => resolve(out));
    socket.on('error', () => resolve(out));
  });
}

describe('debugger server', () => {
  let child;
  let port;
  let stderr = '';
  before(async () => {
    child = spawn(process.execPath, [cli, 'debugger', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.on('data', (d) => (stderr += d));
    port = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:(\d+)\/www\//);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', (code) => reject(new Error(`debugger exited with ${code}: ${stderr}`)));
    });
  });
  after(() => child?.kill('SIGTERM'));

  test('a request target that is not a URL gets 400, and the server keeps serving', async () => {
    for (const target of ['http://[', 'http://a:99999/www/', '//[/www/']) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 400 /, `${target}: ${JSON.stringify(answer.slice(0, 200))} (stderr: ${stderr})`);
    }
    assert.equal(child.exitCode, null, `the debugger died: ${stderr}`);
    const page = await fetch(`http://127.0.0.1:${port}/www/`);
    assert.equal(page.status, 200);
  });

  test('nothing outside www/ and web/ is served, however the path is written (held)', async () => {
    const escapes = [
      '/www/../cli.js', '/www/%2e%2e/cli.js', '/www/%2e%2e%2fcli.js', '/www/..%5ccli.js', '/www/..\\cli.js',
      '/pkg/web/../package.json', '/pkg/web/%2e%2e/package.json', '/www/%00index.html', '/www/.hidden',
      '/www//etc/passwd', '/www/%2fetc%2fpasswd', '/cli.js', '/package.json', '/pkg/node/index.js', '/www/../../../../etc/passwd',
    ];
    for (const target of escapes) {
      const answer = await rawRequest(port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      assert.match(answer, /^HTTP\/1\.1 404 /, `${target}: ${answer.slice(0, 120)}`);
    }
    assert.equal(child.exitCode, null);
  });
});
