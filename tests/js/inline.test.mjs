// `payment-intake/inline`: the Node entry with its .wasm carried inside the JS as base64.
// A merchant app is bundled from the packed tarball with the README's one command,
// `esbuild app.mjs --bundle --platform=node` (and with --format=esm), into a folder of its
// own; node_modules is deleted, nothing is copied next to the bundle, and the bundle signs a
// request and verifies a callback. The README's size figure for the entry is the build's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { esm as api, pkgDir, readKey, root, vectorsDir } from './helpers.mjs';
import { installPacked, run } from './support/packed.mjs';

const esbuild = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'esbuild.cmd' : 'esbuild');
const merchantFile = path.join(vectorsDir, 'keys', 'rsa2048.pkcs8.pem');
const serviceFile = path.join(vectorsDir, 'keys', 'rsa3072.pkcs8.pem');

// Signs a payin at a fixed timestamp, verifies a callback signed by the service, and tries a
// forged one; prints what it saw. No top-level await: esbuild's default for Node is CommonJS.
const APP = `import fs from 'node:fs';
import { SigningKey, signRequest, verifyCallback } from 'payment-intake/inline';

const [merchantPem, servicePem] = process.argv.slice(2).map((file) => fs.readFileSync(file, 'utf8'));
const signed = signRequest(
  { general: { project_id: 'prj_1', payment_id: 'order-1' }, payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' } },
  SigningKey.fromPem(merchantPem),
  { merchantId: 'merchant-1', timestamp: 1700000000 },
);
const service = SigningKey.fromPem(servicePem);
const sent = signRequest('{"project_id":"prj_1","general":{"payment_id":"order-1"},"status":{"status":"success"}}', service, { merchantId: 'merchant-1' });
const callback = verifyCallback(sent.body, sent.headers, service.publicKeyPem(), { toleranceSeconds: 600 });
let forged = 'accepted';
try {
  verifyCallback(sent.body.replace('success', 'decline'), sent.headers, service.publicKeyPem());
} catch (error) {
  forged = error.code;
}
console.log(JSON.stringify({ body: signed.body, headers: signed.headers, paymentId: callback.paymentId, status: callback.status, forged }));
`;

function expected() {
  const signed = api.signRequest(
    { general: { project_id: 'prj_1', payment_id: 'order-1' }, payment: { method: 'card-p2p', amount: 150000, currency: 'RUB' } },
    api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem')),
    { merchantId: 'merchant-1', timestamp: 1700000000 },
  );
  return { body: signed.body, headers: signed.headers, paymentId: 'order-1', status: 'success', forged: 'INVALID_SIGNATURE' };
}

let app;
const bundles = [];
before(() => {
  app = installPacked();
  fs.writeFileSync(path.join(app.dir, 'app.mjs'), APP);
  // Both bundles are made while node_modules is there; then it goes.
  for (const [name, extra] of [
    ['app.js', []],
    ['app.mjs', ['--format=esm']],
  ]) {
    const out = path.join(app.work, `dist-${bundles.length}`);
    const meta = path.join(app.work, `meta-${bundles.length}.json`);
    run(esbuild, ['app.mjs', '--bundle', '--platform=node', ...extra, `--outfile=${path.join(out, name)}`, `--metafile=${meta}`, '--log-level=error'], app.dir);
    bundles.push({ file: path.join(out, name), out, inputs: Object.keys(JSON.parse(fs.readFileSync(meta, 'utf8')).inputs), extra });
  }
  fs.rmSync(path.join(app.dir, 'node_modules'), { recursive: true, force: true });
});
after(() => app?.remove());

describe('payment-intake/inline bundled by esbuild, with no copy step', () => {
  test('the bundles come from the inline entry, with nothing of the file-reading entries', () => {
    for (const { inputs } of bundles) {
      assert.ok(inputs.includes('node_modules/payment-intake/web/inline.js'), inputs.join(', '));
      assert.ok(inputs.includes('node_modules/payment-intake/web/inline-wasm.js'), inputs.join(', '));
      assert.ok(!inputs.some((i) => /payment-intake\/(node\/|web\/node\.js|index\.mjs)/.test(i)), inputs.join(', '));
    }
  });

  for (const index of [0, 1]) {
    test(`esbuild app.mjs --bundle --platform=node ${index ? '--format=esm' : '(CommonJS)'}: runs alone, node_modules deleted`, () => {
      const { file, out } = bundles[index];
      assert.ok(!fs.existsSync(path.join(app.dir, 'node_modules')), 'node_modules is gone');
      assert.deepEqual(fs.readdirSync(out), [path.basename(file)], 'the bundle is the only file: no .wasm beside it');
      const printed = run(process.execPath, [file, merchantFile, serviceFile], app.work);
      assert.deepEqual(JSON.parse(printed), expected());
    });
  }

  test('the README and docs/deploying.md give the inline entry\'s size as the build has it (base64: about 1.33x the .wasm)', () => {
    const wasm = fs.statSync(path.join(pkgDir, 'web', 'payment_intake_bg.wasm')).size;
    const inline = fs.statSync(path.join(pkgDir, 'web', 'inline-wasm.js')).size;
    const ratio = (inline / wasm).toFixed(2);
    for (const file of ['README.md', 'docs/deploying.md']) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      assert.match(text, new RegExp(`~${ratio.replace('.', '\\.')}× the \`\\.wasm\``), `${file} says ~${ratio}×`);
    }
  });
});
