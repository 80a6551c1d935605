// The web build in headless Chromium: WebCrypto (signRequestAsync /
// verifyCallbackAsync) and the pure-wasm path give byte-identical signatures
// and identical verdicts and errors on every shared vector.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { readVector, root, useServerAndBrowser } from './helpers.mjs';

const keysDir = path.join(root, 'tests', 'vectors', 'keys');
const e2e = useServerAndBrowser();

test('WebCrypto and wasm agree on every vector in Chromium', async () => {
  const keys = Object.fromEntries(fs.readdirSync(keysDir).map((f) => [`keys/${f}`, fs.readFileSync(path.join(keysDir, f), 'utf8')]));
  const data = { signatures: readVector('signatures.json'), canonical: readVector('canonical.json'), callbacks: readVector('callbacks.json'), keys };
  const page = await e2e.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // A plain same-origin document (no page CSP) to import the package from.
  await page.goto(`${e2e.server.origin}/pkg/package.json`);
  const report = await page.evaluate(async ({ signatures, canonical, callbacks, keys }) => {
    const m = await import('/pkg/web/index.js');
    await m.default();
    const failures = [];
    const counts = { signatures: 0, canonical: 0, callbacks: 0 };
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const outcome = async (run) => {
      try {
        return { ok: await run() };
      } catch (e) {
        return { error: { name: e.name, code: e.code, message: e.message, hint: e.hint, isError: e instanceof Error } };
      }
    };
    const signingKeys = {};
    const keyFor = (relative) => (signingKeys[relative] ??= m.SigningKey.fromPem(keys[relative]));
    if (!globalThis.crypto?.subtle) failures.push('no crypto.subtle in this page');
    for (const c of signatures) {
      const o = { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options };
      const native = await m.signRequestAsync(c.body, keyFor(c.key), { ...o, backend: 'native' });
      const wasm = m.signRequest(c.body, keyFor(c.key), o);
      if (!same(native.headers, c.headers)) failures.push(`${c.name}: WebCrypto headers differ from the vector`);
      if (!same(wasm.headers, c.headers)) failures.push(`${c.name}: wasm headers differ from the vector`);
      counts.signatures++;
    }
    for (const c of canonical) {
      const o = { merchantId: 'merchant-1', timestamp: c.timestamp, options: c.options };
      const key = keyFor('keys/rsa2048.pkcs8.pem');
      const native = await m.signRequestAsync(c.body, key, o);
      const wasm = m.signRequest(c.body, key, o);
      if (!same(native, wasm)) failures.push(`${c.name}: WebCrypto and wasm signatures differ`);
      counts.canonical++;
    }
    const verifyingKey = keys[callbacks.verifying_key];
    for (const c of callbacks.cases) {
      const native = await outcome(() => m.verifyCallbackAsync(c.body, c.headers, verifyingKey, { backend: 'native' }));
      const asyncWasm = await outcome(() => m.verifyCallbackAsync(c.body, c.headers, verifyingKey, { backend: 'wasm' }));
      const wasm = await outcome(async () => m.verifyCallback(c.body, c.headers, verifyingKey));
      const verdict = wasm.ok ? 'ok' : wasm.error.code;
      if (verdict !== c.expect) failures.push(`${c.name}: wasm says ${verdict}, the vector ${c.expect}`);
      if (!same(native, wasm)) failures.push(`${c.name}: WebCrypto ${JSON.stringify(native).slice(0, 200)} != wasm ${JSON.stringify(wasm).slice(0, 200)}`);
      if (!same(asyncWasm, wasm)) failures.push(`${c.name}: async wasm differs from wasm`);
      counts.callbacks++;
    }
    return { failures, counts };
  }, data);
  assert.deepEqual(report.failures, []);
  assert.deepEqual(report.counts, { signatures: data.signatures.length, canonical: data.canonical.length, callbacks: data.callbacks.cases.length });
  assert.deepEqual(problems, []);
  await page.close();
});
