// The built pkg/ as published: manifest, exports map, ESM wrapper, types, the
// web build, and the package installed from its tarball into a fresh project.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { cjs, esm, pkgDir, readKey, readVectors, root } from './helpers.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
const publicNames = Object.keys(cjs).filter((n) => !n.startsWith('__')).sort();
// The one private name every entry re-exports: the stores' rules and the error factory that
// stores/ and sandbox/ reach through the package's name. It is in no declaration.
const INTERNAL = '__internal';
const exportedNames = [...publicNames, INTERNAL].sort();
const CONTRACT = ['SigningKey', 'VerifyingKey', 'canonicalEntries', 'canonicalMessage', 'canonicalSteps', 'diagnoseCallback', 'errorCodes', 'signRequest', 'verifyCallback'];

describe('package.json', () => {
  test('name, and version from Cargo.toml', () => {
    const cargo = fs.readFileSync(path.join(root, 'Cargo.toml'), 'utf8');
    const version = cargo.split(/^\[/m).find((t) => t.startsWith('package]')).match(/^version\s*=\s*"([^"]+)"/m)[1];
    assert.equal(manifest.name, 'payment-intake');
    assert.equal(manifest.version, version);
    assert.equal(manifest.$comment, undefined, 'template comment removed');
  });

  test('exports map: edge runtimes -> edge entry; node: bundlers -> ES module entry, import -> ESM wrapper, require -> CJS; browser/default -> web', () => {
    const dot = manifest.exports['.'];
    assert.equal(dot.workerd.default, './web/edge.js');
    assert.equal(dot['edge-light'].default, './web/edge-light.js');
    assert.equal(dot.node.module.default, './web/node.js');
    assert.equal(dot.node.import.default, './index.mjs');
    assert.equal(dot.node.require.default, './node/index.js');
    assert.equal(dot.browser.default, './web/index.js');
    assert.equal(dot.default.default, './web/index.js');
    // wrangler and Next.js set `node`/`browser` too: the edge conditions come first; in
    // `node`, `module` (bundlers only; Node never sets it) before import/require.
    assert.deepEqual(Object.keys(dot), ['workerd', 'edge-light', 'node', 'browser', 'default']);
    assert.deepEqual(Object.keys(dot.node), ['module', 'import', 'require']);
  });

  test('sideEffects names the files that load the wasm when imported, and each exists', () => {
    assert.ok(Array.isArray(manifest.sideEffects));
    for (const file of manifest.sideEffects) assert.ok(fs.existsSync(path.join(pkgDir, file)), file);
    for (const entry of ['./index.mjs', './node/index.js', './web/node.js', './web/edge.js', './web/edge-light.js']) assert.ok(manifest.sideEffects.includes(entry), entry);
  });

  test('every file the manifest names exists and is in "files"', () => {
    const named = new Set([manifest.main, manifest.module, manifest.types]);
    const walk = (v) => (typeof v === 'string' ? named.add(v) : Object.values(v).forEach(walk));
    walk(manifest.exports);
    for (const file of named) {
      assert.ok(fs.existsSync(path.join(pkgDir, file)), `${file} exists`);
      const relative = file.replace(/^\.\//, '');
      assert.ok(relative === 'package.json' || manifest.files.some((f) => relative === f || relative.startsWith(f)), `${file} is in files`);
    }
    assert.ok(fs.existsSync(path.join(pkgDir, 'README.md')), 'README.md copied');
    assert.equal(JSON.parse(fs.readFileSync(path.join(pkgDir, 'web', 'package.json'))).type, 'module');
    assert.equal(JSON.parse(fs.readFileSync(path.join(pkgDir, 'node', 'package.json'))).type, 'commonjs');
  });
});

describe('module shapes', () => {
  test('the CommonJS build has the contract API', () => {
    for (const name of CONTRACT) assert.ok(publicNames.includes(name), name);
  });

  test('the ES module wrapper re-exports every CommonJS export by name, the same objects', () => {
    const esmNames = Object.keys(esm).filter((n) => n !== 'default').sort();
    assert.deepEqual(esmNames, exportedNames);
    for (const name of exportedNames) assert.equal(esm[name], cjs[name], name);
    assert.equal(esm.default, cjs);
  });

  test('Node: init() and initSync() are no-ops, and the default import is init carrying the API', async () => {
    assert.equal(typeof esm.default, 'function');
    assert.equal(esm.default, esm.init);
    assert.equal(await esm.default(), undefined);
    assert.equal(await esm.init({ module_or_path: 'ignored' }), undefined);
    assert.equal(esm.initSync(), undefined);
    assert.equal(esm.default.signRequest, esm.signRequest);
  });

  test('web/node.js (the bundlers\' Node entry) exports the same names as the Node build', async () => {
    const bundlerEntry = await import(pathToFileURL(path.join(pkgDir, 'web', 'node.js')).href);
    assert.deepEqual(Object.keys(bundlerEntry).filter((n) => n !== 'default').sort(), exportedNames);
    assert.equal(typeof bundlerEntry.default, 'function');
    assert.equal(bundlerEntry.default.verifyCallback, bundlerEntry.verifyCallback);
    assert.equal(bundlerEntry.canonicalMessage('{"a":"1"}', 1700000000), esm.canonicalMessage('{"a":"1"}', 1700000000));
  });

  test('one .wasm for both glues, and one for each lean entry (payment-intake/lean, payment-intake/receiver) beside its glue', () => {
    const wasmFiles = [];
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else if (entry.name.endsWith('.wasm')) wasmFiles.push(path.relative(pkgDir, path.join(dir, entry.name)));
      }
    };
    walk(pkgDir);
    assert.deepEqual(wasmFiles, ['web/payment_intake_bg.wasm', 'web/payment_intake_lean_bg.wasm', 'web/payment_intake_receiver_bg.wasm']);
    for (const name of ['lean', 'receiver']) assert.ok(fs.existsSync(path.join(pkgDir, 'web', `payment_intake_${name}.js`)), name);
    assert.ok(fs.existsSync(path.join(pkgDir, 'web', 'payment_intake_node.cjs')));
    assert.ok(fs.existsSync(path.join(pkgDir, 'web', 'payment_intake.js')));
  });

  test('TypeScript declarations name every export, for both builds', () => {
    // Each wrapper's declarations re-export the wasm-bindgen ones and add their own.
    const types = (dir) => ['index.d.ts', 'errors.d.ts', 'keys.d.ts', 'payment_intake.d.ts'].map((f) => fs.readFileSync(path.join(pkgDir, dir, f), 'utf8')).join('\n');
    const nodeTypes = types('node');
    const webTypes = types('web');
    assert.match(fs.readFileSync(path.join(pkgDir, 'node', 'index.d.ts'), 'utf8'), /export \* from '\.\/payment_intake\.js'/);
    for (const name of publicNames) {
      const declared = new RegExp(`export (?:function|class|const) ${name}\\b`);
      assert.match(nodeTypes, declared, `node .d.ts declares ${name}`);
      // The web build's init is its default export.
      if (name !== 'init') assert.match(webTypes, declared, `web .d.ts declares ${name}`);
    }
    // The web build's init and initSync: declared by pkg-template/web-init.d.ts, not by the
    // glue (whose declarations name DOM types), which are the nodejs target's there.
    assert.match(webTypes, /export default function init\(/);
    assert.match(webTypes, /export function initSync\(/);
    assert.doesNotMatch(webTypes.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''), /__wbg_init|RequestInfo|BufferSource|WebAssembly\./, 'no DOM type outside comments');
    assert.match(fs.readFileSync(path.join(pkgDir, 'index.d.mts'), 'utf8'), /export \* from '\.\/node\/index\.js'/);
    assert.equal(manifest.exports['.'].node.import.types, './index.d.mts');
  });
});

describe('the web build (its own wasm instance)', async () => {
  const web = await import(pathToFileURL(path.join(pkgDir, 'web', 'index.js')).href);
  web.initSync({ module: fs.readFileSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')) });

  test('exports the same names', () => {
    const names = Object.keys(web).filter((n) => n !== 'default' && !n.startsWith('__')).sort();
    assert.deepEqual(names, publicNames.filter((n) => n !== 'init'));
  });

  test('agrees with the vectors', () => {
    for (const c of readVectors('canonical.json')) {
      assert.equal(web.canonicalMessage(c.body, c.timestamp, c.options), c.message, c.name);
    }
    const keys = {};
    for (const c of readVectors('signatures.json')) {
      keys[c.key] ??= web.SigningKey.fromPem(readKey(c.key));
      const signed = web.signRequest(c.body, keys[c.key], { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options });
      assert.deepEqual(signed.headers, c.headers, c.name);
    }
    const cb = readVectors('callbacks.json');
    for (const c of cb.cases) {
      if (c.expect === 'ok') web.verifyCallback(c.body, c.headers, readKey(cb.verifying_key));
      else assert.throws(() => web.verifyCallback(c.body, c.headers, readKey(cb.verifying_key)), (e) => e instanceof Error && e.code === c.expect);
    }
  });
});

describe('installed from the packed tarball into a fresh project', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'payment-intake-install-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  let app;

  test('npm pack + npm install work offline', () => {
    const packed = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', work], pkgDir));
    const files = packed[0].files.map((f) => f.path).sort();
    for (const f of ['index.mjs', 'index.d.mts', 'node/index.js', 'web/payment_intake_node.cjs', 'web/node.js', 'web/edge.js', 'web/edge-light.js', 'web/index.js', 'web/payment_intake.js', 'web/payment_intake_bg.wasm', 'www/index.html', 'www/app.js', 'README.md', 'package.json']) {
      assert.ok(files.includes(f), `${f} is packed`);
    }
    app = path.join(work, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
    run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', path.join(work, packed[0].filename)], app);
    assert.ok(fs.existsSync(path.join(app, 'node_modules', 'payment-intake', 'package.json')));
  });

  const script = (body) => `
    const vectors = ${JSON.stringify(path.join(root, 'tests', 'vectors'))};
    const fs = require('node:fs');
    const c = JSON.parse(fs.readFileSync(vectors + '/canonical.json', 'utf8')).find((v) => v.entries.length > 1);
    ${body}
    if (pi.canonicalMessage(c.body, c.timestamp, c.options) !== c.message) throw new Error('wrong message');
    if (typeof pi.SigningKey.fromPem !== 'function') throw new Error('no SigningKey');
    console.log('ok', Object.keys(pi).length);`;

  test("require('payment-intake') loads the CommonJS build", () => {
    assert.ok(app, 'installed');
    const out = run(process.execPath, ['-e', script("const pi = require('payment-intake');\nif (!require.resolve('payment-intake').endsWith('node/index.js')) throw new Error(require.resolve('payment-intake'));")], app);
    assert.match(out, /^ok \d+/);
  });

  test("import 'payment-intake' loads the ES module wrapper, no init call", () => {
    assert.ok(app, 'installed');
    const esmScript = `import { createRequire } from 'node:module';
      import * as pi from 'payment-intake';
      import def, { canonicalMessage } from 'payment-intake';
      const require = createRequire(import.meta.url);
      if (!import.meta.resolve('payment-intake').endsWith('/index.mjs')) throw new Error(import.meta.resolve('payment-intake'));
      if (def.canonicalMessage !== canonicalMessage) throw new Error('default export differs');
      ${script('')}`;
    const out = run(process.execPath, ['--input-type=module', '-e', esmScript], app);
    assert.match(out, /^ok \d+/);
  });

  test("'payment-intake/web' is the browser build, usable with initSync", () => {
    assert.ok(app, 'installed');
    const webScript = `import init, { initSync, canonicalEntries } from 'payment-intake/web';
      import fs from 'node:fs';
      import { createRequire } from 'node:module';
      const wasm = new URL('./payment_intake_bg.wasm', import.meta.resolve('payment-intake/web'));
      initSync({ module: fs.readFileSync(wasm) });
      if (typeof init !== 'function') throw new Error('no default init');
      console.log('ok', canonicalEntries('{"a":"1"}').length);`;
    const out = run(process.execPath, ['--input-type=module', '-e', webScript], app);
    assert.match(out, /^ok 1/);
  });

  test("'payment-intake/sandbox' starts a sandbox that answers a signed request", () => {
    assert.ok(app, 'installed');
    const sandboxScript = `import { startSandbox } from 'payment-intake/sandbox';
      import { SigningKey, signRequest } from 'payment-intake';
      import fs from 'node:fs';
      if (!import.meta.resolve('payment-intake/sandbox').endsWith('/sandbox/index.mjs')) throw new Error(import.meta.resolve('payment-intake/sandbox'));
      const key = SigningKey.fromPem(fs.readFileSync(${JSON.stringify(path.join(root, 'tests', 'vectors', 'keys', 'rsa2048.pkcs8.pem'))}, 'utf8'));
      const box = await startSandbox({ merchantKey: key.publicKeyPem(), serviceKey: key.privateKeyPem() });
      const { body, headers } = signRequest({ general: { project_id: 'p' } }, key, { merchantId: box.merchantId });
      const res = await fetch(box.url + '/api/v1/balance/info', { method: 'POST', headers, body });
      console.log('ok', res.status, (await res.json()).balance.length > 0);
      await box.close();`;
    const out = run(process.execPath, ['--input-type=module', '-e', sandboxScript], app);
    assert.match(out, /^ok 200 true/);
    const types = fs.readFileSync(path.join(pkgDir, 'sandbox', 'index.d.ts'), 'utf8');
    assert.match(types, /export function startSandbox\(options: SandboxOptions\): Promise<Sandbox>;/);
    // Types for every moduleResolution (Bundler sets no `node` condition); the code for Node only.
    assert.deepEqual(manifest.exports['./sandbox'], { types: './sandbox/index.d.ts', node: './sandbox/index.mjs' });
  });

  test('the installed package speaks every dialect: RSA (node:crypto and wasm) and HMAC, diagnosed by name', () => {
    assert.ok(app, 'installed');
    const dialectScript = `
      const pi = require('payment-intake');
      const fs = require('node:fs');
      const vectors = ${JSON.stringify(path.join(root, 'tests', 'vectors'))};
      const d = JSON.parse(fs.readFileSync(vectors + '/dialects.json', 'utf8'));
      const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
      let n = 0;
      for (const c of d.rsa) {
        const key = pi.SigningKey.fromPem(fs.readFileSync(vectors + '/' + c.key, 'utf8'));
        const o = { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options };
        for (const backend of ['native', 'wasm']) {
          if (!same(pi.signRequest(c.body, key, { ...o, backend }).headers, c.headers)) throw new Error(c.name + ' ' + backend);
        }
        const diagnosis = pi.diagnoseCallback(c.body, c.headers, key.verifyingKey());
        if (!diagnosis.signatureMatched || diagnosis.token !== c.options.token) throw new Error('diagnosis of ' + c.name);
        key.free();
        n++;
      }
      for (const c of d.hmac) {
        const key = pi.HmacKey.fromSecret(c.secret);
        const signed = pi.signRequest(c.body, key, { merchantId: c.merchant_id, timestamp: c.timestamp, options: c.options });
        if (signed.headers['x-access-signature'] !== c.signature) throw new Error(c.name);
        key.free();
        n++;
      }
      if (pi.profiles()[1].name !== 'public-js-client') throw new Error('profiles');
      console.log('ok', n);`;
    const out = run(process.execPath, ['-e', dialectScript], app);
    assert.match(out, /^ok 40/);
  });

  test('clean up', () => fs.rmSync(work, { recursive: true, force: true }));
});
