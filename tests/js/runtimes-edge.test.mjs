// The package in the runtimes that are neither a Node main thread nor a browser page, from
// the packed tarball installed into one fresh project:
// - Vercel Edge style: a worker bundled by esbuild with the `edge-light` condition, whose entry
//   imports its .wasm as Vercel's bundlers do, `import wasm from './payment_intake_bg.wasm?module'`
//   (a compiled WebAssembly.Module; the import left to the platform: --external:*.wasm?module),
//   run in workerd (npm `workerd`), which gives a wasm module under that name, as the Edge
//   Runtime does; no init() call;
// - a Node worker thread (worker_threads), importing and requiring the package.
// Each verifies a callback the service signed and refuses the same body rewritten after
// signing (INVALID_SIGNATURE, a PaymentIntakeError), with the commands of docs/deploying.md.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { after, before, describe, test } from 'node:test';

import { installPacked, installedPackage } from './support/packed.mjs';
import { ASYNC_CHECK, CHECK, expectedCheck, signedCallback, startWorkerd } from './support/runtime-app.mjs';

const esbuild = await import('esbuild');
const WASM = 'payment_intake_bg.wasm';

let app;
before(() => {
  app = installPacked({ type: 'module' });
});
after(() => app?.remove());

describe('Vercel Edge style: the `edge-light` condition, the .wasm imported with ?module, in workerd', () => {
  test('`esbuild worker.mjs --bundle --platform=neutral --conditions=edge-light --external:*.wasm?module --outdir=dist`: verifies, refuses, no init()', async (t) => {
    fs.writeFileSync(
      path.join(app.dir, 'worker.mjs'),
      `import * as intake from 'payment-intake';
${CHECK}
export default {
  async fetch(request) {
    if (request.method !== 'POST') return new Response('ready');
    try {
      return Response.json(checkCallbacks(intake, await request.json()));
    } catch (error) {
      return Response.json({ error: String(error && error.stack) }, { status: 500 });
    }
  },
};
`,
    );
    const out = path.join(app.work, 'dist-edge-light');
    const result = await esbuild.build({
      absWorkingDir: app.dir,
      entryPoints: ['worker.mjs'],
      bundle: true,
      platform: 'neutral',
      conditions: ['edge-light'],
      external: ['*.wasm?module'],
      outdir: out,
      metafile: true,
      logLevel: 'silent',
    });
    assert.deepEqual(result.errors, []);
    assert.ok(Object.keys(result.metafile.inputs).includes('node_modules/payment-intake/web/edge-light.js'), Object.keys(result.metafile.inputs).join(', '));
    const bundle = fs.readFileSync(path.join(out, 'worker.js'), 'utf8');
    const imported = bundle.match(/from\s*"(\.\/payment_intake_bg\.wasm\?module)"/);
    assert.ok(imported, 'the bundle imports the .wasm with ?module, for the platform to give as a module');
    // The platform's part: the .wasm the import names, given to the worker as a compiled module.
    fs.copyFileSync(path.join(installedPackage(app.dir), 'web', WASM), path.join(out, WASM));
    const worker = await startWorkerd(out, [
      ['worker.js', 'esModule', 'worker.js'],
      [`${WASM}?module`, 'wasm', WASM],
    ]);
    t.after(worker.stop);
    const answer = await fetch(worker.url, { method: 'POST', body: JSON.stringify(signedCallback()) });
    const seen = await answer.json();
    assert.equal(answer.status, 200, `${JSON.stringify(seen)}\n${worker.log()}`);
    assert.deepEqual(seen, expectedCheck());
  });
});

describe('payment-intake/lean and payment-intake/receiver in workerd (RSA by WebCrypto)', () => {
  for (const [name, condition] of [['receiver', 'workerd'], ['receiver', 'edge-light'], ['lean', 'workerd']]) {
    test(`payment-intake/${name}, --conditions=${condition}: verifies by WebCrypto, refuses, the sync check SYNC_RSA_UNAVAILABLE, no init()`, async (t) => {
      const wasm = `payment_intake_${name}_bg.wasm`;
      const file = `worker-${name}-${condition}.mjs`;
      fs.writeFileSync(
        path.join(app.dir, file),
        `import * as intake from 'payment-intake/${name}';
${ASYNC_CHECK}
export default {
  async fetch(request) {
    try {
      return Response.json(await checkCallbacks(intake, await request.json()));
    } catch (error) {
      return Response.json({ error: String(error && error.stack) }, { status: 500 });
    }
  },
};
`,
      );
      const out = path.join(app.work, `dist-${name}-${condition}`);
      const result = await esbuild.build({
        absWorkingDir: app.dir,
        entryPoints: { worker: file },
        bundle: true,
        platform: 'neutral',
        conditions: [condition],
        external: ['*.wasm', '*.wasm?module'],
        outdir: out,
        metafile: true,
        logLevel: 'silent',
      });
      assert.deepEqual(result.errors, []);
      const entry = condition === 'workerd' ? `${name}-edge.js` : `${name}-edge-light.js`;
      assert.ok(Object.keys(result.metafile.inputs).includes(`node_modules/payment-intake/web/${entry}`), Object.keys(result.metafile.inputs).join(', '));
      fs.copyFileSync(path.join(installedPackage(app.dir), 'web', wasm), path.join(out, wasm));
      const imported = condition === 'workerd' ? wasm : `${wasm}?module`;
      const worker = await startWorkerd(out, [
        ['worker.js', 'esModule', 'worker.js'],
        [imported, 'wasm', wasm],
      ]);
      t.after(worker.stop);
      const answer = await fetch(worker.url, { method: 'POST', body: JSON.stringify(signedCallback()) });
      const seen = await answer.json();
      assert.equal(answer.status, 200, `${JSON.stringify(seen)}\n${worker.log()}`);
      assert.deepEqual(seen, { ...expectedCheck(), sync: 'SYNC_RSA_UNAVAILABLE' });
    });
  }
});

describe('a Node worker thread (worker_threads)', () => {
  for (const [file, load] of [
    ['worker-thread.mjs', "import * as intake from 'payment-intake';\nimport { parentPort, workerData } from 'node:worker_threads';"],
    ['worker-thread.cjs', "const intake = require('payment-intake');\nconst { parentPort, workerData } = require('node:worker_threads');"],
  ]) {
    test(`new Worker('${file}'): the package ${file.endsWith('.mjs') ? 'imported' : 'required'} in the thread verifies and refuses, ready on load`, async () => {
      fs.writeFileSync(path.join(app.dir, file), `${load}\n${CHECK}\nparentPort.postMessage(checkCallbacks(intake, workerData));\n`);
      const worker = new Worker(path.join(app.dir, file), { workerData: signedCallback('order-8') });
      const seen = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) without an answer`)));
      });
      await worker.terminate();
      assert.deepEqual(seen, expectedCheck('order-8'));
    });
  }
});
