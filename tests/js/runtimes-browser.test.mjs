// The browser build as merchants bundle it, from the packed tarball installed into one fresh
// project: Vite (`vite build`), webpack 5, and esbuild with --platform=browser and
// --platform=neutral each build the same page app (support/runtime-app.mjs), with the exact
// command of docs/deploying.md ("Browsers") and no copy step; each output folder is served on a
// loopback port and opened in headless Chromium, where the app awaits init(), verifies a callback
// the service signed and refuses the same body rewritten after signing (INVALID_SIGNATURE, a
// PaymentIntakeError). Before init, a call fails with an error naming `await init()`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { installPacked } from './support/packed.mjs';
import { ASYNC_CHECK, INDEX_HTML, browserApp, expectedCheck, launchChromium, runInPage, signedCallback } from './support/runtime-app.mjs';

const esbuild = await import('esbuild');
const WASM_NAME = /\.wasm$/;

let app;
let browser;
let noBrowser;
before(async () => {
  app = installPacked({ type: 'module' });
  // The app every bundler builds (the .wasm found by the bundler from the glue's
  // `new URL('payment_intake_bg.wasm', import.meta.url)`), and esbuild's (which does not
  // follow that URL: the .wasm is imported with the `file` loader and its URL given to init).
  fs.writeFileSync(path.join(app.dir, 'app.mjs'), browserApp());
  fs.writeFileSync(
    path.join(app.dir, 'app-esbuild.mjs'),
    browserApp({ head: "import wasmUrl from 'payment-intake/web/payment_intake_bg.wasm';", initArg: '{ module_or_path: new URL(wasmUrl, import.meta.url) }' }),
  );
  fs.writeFileSync(path.join(app.dir, 'index.html'), INDEX_HTML('/app.mjs'));
  // The lean entries, bundled by esbuild as above, each with its own .wasm.
  for (const name of ['lean', 'receiver']) {
    const head = `import wasmUrl from 'payment-intake/web/payment_intake_${name}_bg.wasm';`;
    const initArg = '{ module_or_path: new URL(wasmUrl, import.meta.url) }';
    fs.writeFileSync(path.join(app.dir, `app-${name}.mjs`), browserApp({ head, initArg, from: `payment-intake/${name}`, check: ASYNC_CHECK }));
  }
  ({ browser, reason: noBrowser } = await launchChromium());
});
after(async () => {
  await browser?.close();
  app?.remove();
});

/** The page the build made runs the fixture in Chromium. */
async function assertRunsInChromium(t, dir) {
  if (!browser) return t.skip(noBrowser);
  const callback = signedCallback();
  const seen = await runInPage(browser, dir, callback);
  assert.match(seen.beforeInit, /'init' was not awaited.*await init\(\)/, 'before init, the error names the call');
  delete seen.beforeInit;
  assert.deepEqual(seen, expectedCheck());
}

/** The same, for a lean entry: verified by WebCrypto, the sync check refused. */
async function assertLeanRunsInChromium(t, dir) {
  if (!browser) return t.skip(noBrowser);
  const seen = await runInPage(browser, dir, signedCallback());
  assert.match(seen.beforeInit, /'init' was not awaited.*await init\(\)/, 'before init, the error names the call');
  delete seen.beforeInit;
  assert.deepEqual(seen, { ...expectedCheck(), sync: 'SYNC_RSA_UNAVAILABLE' });
}

/** The files of a build's output folder, the .wasm among them (one, as emitted by the bundler). */
function assertOneWasm(dir) {
  const files = fs.readdirSync(dir, { recursive: true }).map(String);
  assert.equal(files.filter((f) => WASM_NAME.test(path.basename(f))).length, 1, files.join(', '));
}

describe('browser bundles of a merchant page, in Chromium', () => {
  test('Vite: `npx vite build` (index.html, app.mjs): the .wasm emitted as an asset, init() fetches it', async (t) => {
    const { build } = await import('vite');
    const outDir = path.join(app.work, 'dist-vite');
    await build({ root: app.dir, configFile: false, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
    assertOneWasm(outDir);
    await assertRunsInChromium(t, outDir);
  });

  test('webpack 5: `npx webpack ./app.mjs --mode production` (default config): the .wasm emitted as an asset', async (t) => {
    const { default: webpack } = await import('webpack');
    const outDir = path.join(app.work, 'dist-webpack');
    // What webpack-cli makes of that command: webpack's defaults, the entry, production mode.
    const stats = await new Promise((resolve, reject) =>
      webpack({ context: app.dir, entry: './app.mjs', mode: 'production', output: { path: outDir } }, (error, result) => (error ? reject(error) : resolve(result))),
    );
    assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
    assertOneWasm(outDir);
    fs.writeFileSync(path.join(outDir, 'index.html'), INDEX_HTML('/main.js', 'text/javascript'));
    await assertRunsInChromium(t, outDir);
  });

  for (const platform of ['browser', 'neutral']) {
    test(`esbuild --platform=${platform}: \`esbuild app.mjs --bundle --platform=${platform} --format=esm --loader:.wasm=file --outdir=dist\``, async (t) => {
      const outDir = path.join(app.work, `dist-esbuild-${platform}`);
      const result = await esbuild.build({
        absWorkingDir: app.dir,
        entryPoints: { app: 'app-esbuild.mjs' },
        bundle: true,
        platform,
        format: 'esm',
        loader: { '.wasm': 'file' },
        outdir: outDir,
        metafile: true,
        logLevel: 'silent',
      });
      assert.deepEqual(result.errors, []);
      // Both take the browser build (`browser`, or neutral's `default` condition).
      assert.ok(Object.keys(result.metafile.inputs).includes('node_modules/payment-intake/web/index.js'));
      assertOneWasm(outDir);
      fs.writeFileSync(path.join(outDir, 'index.html'), INDEX_HTML('/app.js'));
      await assertRunsInChromium(t, outDir);
    });
  }

  for (const name of ['lean', 'receiver']) {
    test(`payment-intake/${name}, esbuild --platform=browser --loader:.wasm=file: verified by WebCrypto, its own .wasm`, async (t) => {
      const outDir = path.join(app.work, `dist-esbuild-${name}`);
      const result = await esbuild.build({
        absWorkingDir: app.dir,
        entryPoints: { app: `app-${name}.mjs` },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        loader: { '.wasm': 'file' },
        outdir: outDir,
        metafile: true,
        logLevel: 'silent',
      });
      assert.deepEqual(result.errors, []);
      assert.ok(Object.keys(result.metafile.inputs).includes(`node_modules/payment-intake/web/${name}.js`));
      const files = fs.readdirSync(outDir).filter((f) => WASM_NAME.test(f));
      assert.deepEqual(files.map((f) => f.replace(/-[A-Z0-9]+\.wasm$/, '.wasm')), [`payment_intake_${name}_bg.wasm`]);
      fs.writeFileSync(path.join(outDir, 'index.html'), INDEX_HTML('/app.js'));
      await assertLeanRunsInChromium(t, outDir);
    });
  }
});
