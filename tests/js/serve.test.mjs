// scripts/serve.mjs: the page, the package with the right MIME types, and no
// way out of the served folders. Runs on a free loopback port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { root } from './helpers.mjs';

let server;
let base;

before(async () => {
  server = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', QUIET: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start in 10 s')), 10000);
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
});

after(() => server?.kill('SIGTERM'));

/** A raw GET that sends the path as written (fetch would normalise `..`). */
function get(rawPath, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/`, { method, path: rawPath }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('/ redirects to the page, which loads the web build', async () => {
  const home = await get('/');
  assert.equal(home.status, 302);
  assert.equal(home.headers.location, '/www/');
  const page = await get('/www/');
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(page.body, /<meta charset="utf-8">/i);
  // The page (or one of its modules) loads the package's web entry from ../pkg/web/.
  const sources = fs.readdirSync(path.join(root, 'www')).filter((f) => /\.(html|m?js)$/.test(f));
  assert.ok(
    sources.some((f) => fs.readFileSync(path.join(root, 'www', f), 'utf8').includes('../pkg/web/index.js')),
    'www/ imports ../pkg/web/index.js',
  );
  assert.equal((await get('/www')).status, 301);
});

test('the package is served with the right MIME types', async () => {
  const wasm = await get('/pkg/web/payment_intake_bg.wasm', 'HEAD');
  assert.equal(wasm.status, 200);
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  const js = await get('/pkg/web/payment_intake.js');
  assert.equal(js.status, 200);
  assert.equal(js.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.match(js.body, /export default __wbg_init|export \{ initSync, __wbg_init as default \}|export default/);
  assert.equal((await get('/pkg/package.json')).headers['content-type'], 'application/json; charset=utf-8');
  assert.equal((await get('/tests/vectors/canonical.json')).status, 200);
});

test('no traversal, no dot-files, nothing outside the served folders', async () => {
  for (const p of ['/../package.json', '/www/../Cargo.toml', '/www/..%2fCargo.toml', '/pkg/%2e%2e/Cargo.toml', '/www/%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/.git/config', '/www/.hidden', '/Cargo.toml', '/src/lib.rs', '/node_modules/', '/target/', '/www/%00', '/www/..\\Cargo.toml', '/%zz']) {
    const res = await get(p);
    assert.equal(res.status, 404, `${p} -> ${res.status}`);
  }
  assert.equal((await get('/www/', 'POST')).status, 405);
});

test('a request target that is no URL gets 400 (not a 500), and the server keeps serving', async () => {
  const { port } = new URL(base);
  for (const target of ['http://[', '//[/www/']) {
    const answer = await new Promise((resolve) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('close', () => resolve(out));
      socket.on('error', () => resolve(out));
    });
    assert.match(answer, /^HTTP\/1\.1 400 /, `${target}: ${JSON.stringify(answer.slice(0, 120))}`);
  }
  assert.equal((await get('/www/')).status, 200);
});
