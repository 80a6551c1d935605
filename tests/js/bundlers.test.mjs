// The package bundled as merchants deploy it, from the packed tarball installed into a
// fresh project: esbuild (from npm) bundles a merchant app for Node as an ES module and as
// CommonJS, the bundle is moved away from node_modules with the one step the README names
// (the .wasm copied next to it), and it signs a request and verifies a callback. The edge
// worker of examples/ is bundled as wrangler does (the `workerd` condition, .wasm files
// left as modules) and served by workerd, the Workers runtime (npm `workerd`), on a
// loopback port, with its backend a loopback server of this test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { esm as api, readKey, root } from './helpers.mjs';
import { installPacked, installedPackage, run } from './support/packed.mjs';
import { freePort } from '../support/servers.mjs';

const esbuild = await import('esbuild');
const WASM = 'payment_intake_bg.wasm';

const keyFiles = {
  merchant: path.join(root, 'tests', 'vectors', 'keys', 'rsa2048.pkcs8.pem'),
  service: path.join(root, 'tests', 'vectors', 'keys', 'rsa3072.pkcs8.pem'),
};

// A merchant app: isomorphic start-up (init, initSync), then sign a payin and verify a
// callback the service signed; prints what it saw as JSON. Written once, for both formats.
const APP = (importLine) => `${importLine}
const [merchantPem, servicePem] = process.argv.slice(2).map((f) => fs.readFileSync(f, 'utf8'));
await init();
initSync();
const merchantKey = SigningKey.fromPem(merchantPem);
const signed = signRequest(
  { general: { project_id: 'prj_1', payment_id: 'order-1' }, payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' } },
  merchantKey,
  { merchantId: 'merchant-1', timestamp: 1700000000 },
);
const service = SigningKey.fromPem(servicePem);
const sent = signRequest('{"project_id":"prj_1","general":{"payment_id":"order-1"},"status":{"status":"success"}}', service, { merchantId: 'merchant-1' });
const callback = verifyCallback(Buffer.from(sent.body), sent.headers, VerifyingKey.fromPem(service.publicKeyPem()), { toleranceSeconds: 600 });
let forged = 'accepted';
try {
  verifyCallback(sent.body.replace('success', 'decline'), sent.headers, service.verifyingKey());
} catch (error) {
  forged = error.code;
}
console.log(JSON.stringify({ body: signed.body, headers: signed.headers, paymentId: callback.paymentId, status: callback.status, forged }));
`;
const ESM_APP = APP(`import fs from 'node:fs';
import init, { initSync, SigningKey, VerifyingKey, signRequest, verifyCallback } from 'payment-intake';`);
const CJS_APP = `const fs = require('node:fs');
const { init, initSync, SigningKey, VerifyingKey, signRequest, verifyCallback } = require('payment-intake');
(async () => {
${APP('')}
})();
`;

let app;
before(() => {
  app = installPacked({ type: 'module' });
  fs.writeFileSync(path.join(app.dir, 'app.mjs'), ESM_APP);
  fs.writeFileSync(path.join(app.dir, 'app.cjs'), CJS_APP);
});
after(() => app?.remove());

/** What the app must print: the request signed as the package signs it here, the callback verified. */
function expected() {
  const merchantKey = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
  const signed = api.signRequest(
    { general: { project_id: 'prj_1', payment_id: 'order-1' }, payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' } },
    merchantKey,
    { merchantId: 'merchant-1', timestamp: 1700000000 },
  );
  return { body: signed.body, headers: signed.headers, paymentId: 'order-1', status: 'success', forged: 'INVALID_SIGNATURE' };
}

describe('esbuild bundles of a merchant app for Node', () => {
  for (const [format, entry, outName] of [
    ['esm', 'app.mjs', 'app.mjs'],
    ['cjs', 'app.cjs', 'app.cjs'],
  ]) {
    test(`--format=${format}: bundled from the package's ES module entry; runs with the .wasm copied next to it`, async () => {
      const out = path.join(app.work, `dist-${format}`);
      const result = await esbuild.build({
        absWorkingDir: app.dir,
        entryPoints: [entry],
        bundle: true,
        platform: 'node',
        format,
        outfile: path.join(out, outName),
        metafile: true,
        logLevel: 'silent',
      });
      assert.deepEqual(result.errors, []);
      const inputs = Object.keys(result.metafile.inputs);
      // The real ES module entry (the `module` condition), not the CommonJS build.
      assert.ok(inputs.includes('node_modules/payment-intake/web/node.js'), inputs.join(', '));
      assert.ok(!inputs.some((i) => i.startsWith('node_modules/payment-intake/node/')), 'no CommonJS file of the package in the bundle');

      // Without the .wasm next to it, the bundle says which file to copy, and where from.
      const missing = spawnResult(process.execPath, [path.join(out, outName), keyFiles.merchant, keyFiles.service]);
      assert.notEqual(missing.status, 0);
      assert.match(missing.stderr, new RegExp(`copy node_modules/payment-intake/web/${WASM} next to the bundled file`));

      // The README's one step, then the bundle runs away from any node_modules.
      fs.copyFileSync(path.join(installedPackage(app.dir), 'web', WASM), path.join(out, WASM));
      const ran = spawnResult(process.execPath, [path.join(out, outName), keyFiles.merchant, keyFiles.service]);
      assert.equal(ran.status, 0, ran.stderr);
      assert.deepEqual(JSON.parse(ran.stdout), expected());
    });
  }

  test('the sandbox and the stores bundled with the app: one copy of the package, the entry the app gets', async () => {
    fs.writeFileSync(
      path.join(app.dir, 'harness.mjs'),
      `import { SigningKey, specStates } from 'payment-intake';
import { startSandbox } from 'payment-intake/sandbox';
import { postgresStore } from 'payment-intake/stores/postgres';
import { redisStore } from 'payment-intake/stores/redis';
const box = await startSandbox({ merchantKey: SigningKey.generate().publicKeyPem() });
const answer = await fetch(new URL('/sandbox/payments', box.url));
console.log(JSON.stringify({ status: answer.status, states: specStates().length, stores: [typeof postgresStore, typeof redisStore] }));
await box.close();
`,
    );
    const out = path.join(app.work, 'dist-harness');
    const result = await esbuild.build({ absWorkingDir: app.dir, entryPoints: ['harness.mjs'], bundle: true, platform: 'node', format: 'esm', outfile: path.join(out, 'harness.mjs'), metafile: true, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(inputs.includes('node_modules/payment-intake/web/node.js'), inputs.join(', '));
    assert.ok(inputs.includes('node_modules/payment-intake/sandbox/index.mjs'), inputs.join(', '));
    assert.ok(!inputs.some((i) => /payment-intake\/(node\/|index\.mjs|web\/index\.js)/.test(i)), `one entry of the package: ${inputs.join(', ')}`);
    fs.copyFileSync(path.join(installedPackage(app.dir), 'web', WASM), path.join(out, WASM));
    const ran = spawnResult(process.execPath, [path.join(out, 'harness.mjs')]);
    assert.equal(ran.status, 0, ran.stderr);
    assert.deepEqual(JSON.parse(ran.stdout), { status: 200, states: api.specStates().length, stores: ['function', 'function'] });
  });

  test('plain Node runs the same app unbundled (import and require share one instance)', () => {
    for (const entry of ['app.mjs', 'app.cjs']) {
      const out = run(process.execPath, [entry, keyFiles.merchant, keyFiles.service], app.dir);
      assert.deepEqual(JSON.parse(out), expected(), entry);
    }
    const same = run(
      process.execPath,
      ['--input-type=module', '-e', "import { createRequire } from 'node:module'; import * as m from 'payment-intake'; const r = createRequire(import.meta.url)('payment-intake'); console.log(m.signRequest === r.signRequest && m.default === r)"],
      app.dir,
    );
    assert.equal(same.trim(), 'true');
  });
});

function spawnResult(cmd, args) {
  try {
    return { status: 0, stdout: run(cmd, args, app.work), stderr: '' };
  } catch (error) {
    return { status: error.status ?? 1, stdout: String(error.stdout ?? ''), stderr: String(error.stderr ?? '') };
  }
}


describe('the edge entry in workerd (the `workerd` condition, no init call)', () => {
  test('examples/edge-worker.mjs, bundled as wrangler does: handler.fetch verifies callbacks, drops a repeat and passes the rest to its backend', async (t) => {
    const workerdBin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'workerd.cmd' : 'workerd');
    const out = path.join(app.work, 'worker');
    fs.cpSync(path.join(root, 'examples'), path.join(app.dir, 'examples'), { recursive: true });
    const result = await esbuild.build({
      absWorkingDir: app.dir,
      entryPoints: ['examples/edge-worker.mjs'],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      // wrangler's conditions, and its rule for .wasm: left as an import of a module of its own.
      conditions: ['workerd', 'worker', 'browser'],
      external: ['*.wasm'],
      outfile: path.join(out, 'worker.js'),
      metafile: true,
      logLevel: 'silent',
    });
    assert.ok(Object.keys(result.metafile.inputs).includes('node_modules/payment-intake/web/edge.js'));
    fs.copyFileSync(path.join(installedPackage(app.dir), 'web', WASM), path.join(out, WASM));

    // The backend the worker passes events to (its EVENTS service binding).
    const events = [];
    const backend = http.createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      events.push({ path: req.url, event: JSON.parse(text) });
      res.writeHead(204).end();
    });
    await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const port = await freePort();
    fs.writeFileSync(
      path.join(out, 'config.capnp'),
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "backend", external = (address = "127.0.0.1:${backend.address().port}", http = ())),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "${WASM}", wasm = embed "${WASM}"),
  ],
  bindings = [
    (name = "SERVICE_PUBLIC_KEY", text = ${JSON.stringify(api.SigningKey.fromPem(readKey('keys/rsa3072.pkcs8.pem')).publicKeyPem())}),
    (name = "EVENTS", service = "backend"),
  ],
  compatibilityDate = "2024-09-23",
);
`,
    );
    const workerd = spawn(workerdBin, ['serve', path.join(out, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    workerd.stdout.on('data', (c) => (log += c));
    workerd.stderr.on('data', (c) => (log += c));
    const exited = new Promise((resolve) => workerd.once('exit', (code) => resolve(code)));
    t.after(async () => {
      workerd.kill();
      await exited;
      await new Promise((resolve) => backend.close(resolve));
    });
    const url = `http://127.0.0.1:${port}/payment-callback`;
    // Ready when it answers; workerd exiting first is a failure with its log.
    for (;;) {
      const state = await Promise.race([exited.then((code) => ({ code })), fetch(url, { method: 'GET' }).then((r) => ({ status: r.status }), () => null)]);
      if (state?.code !== undefined) assert.fail(`workerd exited (${state.code}): ${log}`);
      if (state?.status) {
        assert.equal(state.status, 405, 'a GET is refused by the handler');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const service = api.SigningKey.fromPem(readKey('keys/rsa3072.pkcs8.pem'));
    const text = '{"project_id":"prj_1","general":{"payment_id":"order-9"},"status":{"status":"success","sub_status":null}}';
    const sent = api.signRequest(text, service, { merchantId: 'merchant-1' });
    const post = async (b, h) => {
      const r = await fetch(url, { method: 'POST', body: b, headers: { 'content-type': 'application/json', ...h } });
      return { status: r.status, json: await r.json() };
    };
    // handler.fetch in workerd: a new state is passed on once; a repeat is acknowledged, not passed on.
    assert.deepEqual(await post(sent.body, sent.headers), { status: 200, json: { ok: true } }, log);
    assert.deepEqual(await post(sent.body, sent.headers), { status: 200, json: { ok: true, code: 'DUPLICATE' } }, log);
    const tampered = await post(sent.body.replace('success', 'decline'), sent.headers);
    assert.deepEqual(tampered.json, { ok: false, code: 'INVALID_SIGNATURE' });
    assert.ok(tampered.status >= 400 && tampered.status < 500);
    const ambiguousText = '{"project_id":"prj_1","general":{"payment_id":"order-9"},"status":{"status":"success"},"integration":{"redirect_url":"https://s.example/?q=1;status:status:decline"}}';
    const ambiguous = api.signRequest(ambiguousText, service, { merchantId: 'merchant-1' });
    assert.deepEqual(await post(ambiguous.body, ambiguous.headers), { status: 200, json: { ok: true, code: 'AMBIGUOUS_CALLBACK' } });

    assert.deepEqual(events.map((e) => e.path), ['/payment-events', '/kept-callbacks']);
    assert.equal(events[0].event.paymentId, 'order-9');
    assert.equal(events[0].event.status, 'success');
    assert.equal(events[0].event.forward, true);
    assert.equal(events[1].event.rawBody, ambiguousText);
    assert.equal(events[1].event.code, 'AMBIGUOUS_CALLBACK');
    assert.match(events[1].event.id, /^[0-9a-f]{64}$/, "the review id is the body's SHA-256, by WebCrypto in workerd");
  });
});
