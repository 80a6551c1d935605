// scripts/serve.mjs: the page, the package with the right MIME types, and no
// way out of the served folders. Runs on a free loopback port.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
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

test('one static server: scripts/serve.mjs and `payment-intake debugger` both use pkg-template/cli/static-server.cjs (shipped as pkg/cli/)', () => {
  const source = path.join(root, 'pkg-template', 'cli', 'static-server.cjs');
  assert.ok(fs.readFileSync(path.join(root, 'scripts', 'serve.mjs'), 'utf8').includes("'../pkg-template/cli/static-server.cjs'"));
  assert.ok(fs.readFileSync(path.join(root, 'pkg-template', 'cli', 'debugger.cjs'), 'utf8').includes("require('./static-server.cjs')"));
  assert.ok(fs.readFileSync(path.join(root, 'pkg', 'cli', 'static-server.cjs')).equals(fs.readFileSync(source)), 'the build ships it as it is');
  for (const file of ['scripts/serve.mjs', 'pkg-template/cli/debugger.cjs']) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const rule of ['decodeURIComponent', 'realpath', "'application/wasm'", 'createServer']) assert.ok(!text.includes(rule), `${file} has its own ${rule}`);
  }
});

test('the static server itself: mounts only, symlinks out refused, a folder without its slash redirected, HEAD, wasm MIME, 400', async () => {
  const { createStaticServer, closeServer } = createRequire(import.meta.url)(path.join(root, 'pkg-template', 'cli', 'static-server.cjs'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-static-'));
  const served = path.join(dir, 'served');
  fs.mkdirSync(path.join(served, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(served, 'index.html'), '<p>home</p>');
  fs.writeFileSync(path.join(served, 'a.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  fs.writeFileSync(path.join(served, 'sub', 'index.html'), 'sub');
  fs.writeFileSync(path.join(dir, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(dir, 'secret.txt'), path.join(served, 'link.txt'));
  fs.symlinkSync(dir, path.join(served, 'up'));
  const log = [];
  const server = createStaticServer({ mounts: { '/s/': served }, home: '/s/', onResponse: (req, res) => log.push(`${req.url} ${res.statusCode}`) });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  const get = (p, method = 'GET') => new Promise((resolve, reject) => {
    http.request(`${origin}/`, { method, path: p }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    }).on('error', reject).end();
  });
  try {
    assert.equal((await get('/')).headers.location, '/s/');
    assert.equal((await get('/s/')).body, '<p>home</p>');
    assert.deepEqual([(await get('/s')).status, (await get('/s')).headers.location], [301, '/s/']);
    assert.deepEqual([(await get('/s/sub')).status, (await get('/s/sub?x=1')).headers.location], [301, '/s/sub/?x=1']);
    assert.equal((await get('/s/sub/')).body, 'sub');
    const wasm = await get('/s/a.wasm', 'HEAD');
    assert.deepEqual([wasm.status, wasm.headers['content-type'], wasm.headers['content-length'], wasm.body], [200, 'application/wasm', '4', '']);
    for (const p of ['/s/link.txt', '/s/up/secret.txt', '/s/../secret.txt', '/s/%2e%2e/secret.txt', '/secret.txt', '/s/.x', '/s/a%00', '/s/%zz']) assert.equal((await get(p)).status, 404, p);
    assert.equal((await get('/s/', 'DELETE')).status, 405);
    // Raw, half-closed right after the request (the client sends FIN at once): still answered.
    const raw = (target) => new Promise((resolve) => {
      const socket = net.connect(server.address().port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('close', () => resolve(out));
    });
    assert.match(await raw('http://['), /^HTTP\/1\.1 400 /);
    for (let i = 0; i < 5; i++) assert.match(await raw('/s/a.wasm'), /^HTTP\/1\.1 200 [^]*application\/wasm/);
    assert.ok(log.includes('/s/a.wasm 200'), log.join(', '));
  } finally {
    await closeServer(server);
  }
});
