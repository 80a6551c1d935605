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

test('every sender dialect signs byte-exact and verifies in Chromium, with WebCrypto and with the wasm', async () => {
  const keys = Object.fromEntries(fs.readdirSync(keysDir).map((f) => [`keys/${f}`, fs.readFileSync(path.join(keysDir, f), 'utf8')]));
  const ours = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'fixtures', 'dialects_reference.json'), 'utf8'));
  const files = [readVector('dialects.json'), ours];
  const page = await e2e.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${e2e.server.origin}/pkg/package.json`);
  const report = await page.evaluate(async ({ files, keys }) => {
    const m = await import('/pkg/web/index.js');
    await m.default();
    const failures = [];
    const counts = { messages: 0, rsa: 0, hmac: 0 };
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const code = async (run) => {
      try {
        await run();
        return 'ok';
      } catch (e) {
        return e.code;
      }
    };
    const good = (verdict) => ['ok', 'INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK'].includes(verdict);
    const signingKeys = {};
    const keyFor = (relative) => (signingKeys[relative] ??= m.SigningKey.fromPem(keys[relative]));
    const tampered = (body) => (body.trim() === '' ? '{"zz":"1"}' : body.replace('{', '{"zz":"1",').replace(',}', '}'));
    for (const file of files) {
      for (const c of file.messages) {
        if (m.canonicalMessage(c.body, c.timestamp, c.options) !== c.message) failures.push(`${c.name}: message`);
        counts.messages++;
      }
      for (const c of file.rsa) {
        const o = { merchantId: c.merchant_id, timestamp: c.headers['x-access-timestamp'], options: c.options };
        const native = await m.signRequestAsync(c.body, keyFor(c.key), { ...o, backend: 'native' });
        const wasm = m.signRequest(c.body, keyFor(c.key), o);
        if (!same(native.headers, c.headers)) failures.push(`${c.name}: WebCrypto headers differ from the vector`);
        if (!same(wasm.headers, c.headers)) failures.push(`${c.name}: wasm headers differ from the vector`);
        const verifying = keyFor(c.key).verifyingKey();
        const v = { options: c.options };
        if (!good(await code(() => m.verifyCallbackAsync(c.body, c.headers, verifying, { ...v, backend: 'native' })))) failures.push(`${c.name}: WebCrypto does not verify`);
        if (!good(await code(() => m.verifyCallback(c.body, c.headers, verifying, v)))) failures.push(`${c.name}: wasm does not verify`);
        for (const [how, run] of [['WebCrypto', m.verifyCallbackAsync], ['wasm', m.verifyCallback]]) {
          const verdict = await code(() => run(tampered(c.body), c.headers, verifying, v));
          if (verdict !== 'INVALID_SIGNATURE') failures.push(`${c.name}: tampered gives ${verdict} (${how})`);
        }
        // The signature is named by the diagnosis; `matched` only when verifying with the
        // options it names returns a model (these vector bodies are mostly not callbacks).
        const d = m.diagnoseCallback(c.body, c.headers, verifying);
        if (!d.signatureMatched || d.token !== c.options.token) failures.push(`${c.name}: diagnosis ${d.hint}`);
        const modelled = (await code(() => m.verifyCallback(c.body, c.headers, verifying, { options: d.options ?? d.signatureOptions }))) === 'ok';
        if (d.matched !== modelled) failures.push(`${c.name}: matched ${d.matched} but verifying with its options ${modelled ? 'returns' : 'returns no'} model`);
        counts.rsa++;
      }
      for (const c of file.hmac) {
        const key = m.HmacKey.fromSecret(c.secret);
        const o = { merchantId: c.merchant_id, timestamp: c.timestamp, options: c.options };
        const signed = await m.signRequestAsync(c.body, key, o);
        if (signed.headers['x-access-signature'] !== c.signature) failures.push(`${c.name}: HMAC signature differs`);
        if (!good(await code(() => m.verifyCallbackAsync(c.body, signed.headers, key, { options: c.options })))) failures.push(`${c.name}: HMAC does not verify`);
        const verdict = await code(() => m.verifyCallback(tampered(c.body), signed.headers, key, { options: c.options }));
        if (verdict !== 'INVALID_SIGNATURE') failures.push(`${c.name}: tampered HMAC gives ${verdict}`);
        key.free();
        counts.hmac++;
      }
    }
    return { failures, counts };
  }, { files, keys });
  assert.deepEqual(report.failures, []);
  const total = (kind) => files.reduce((n, f) => n + f[kind].length, 0);
  assert.deepEqual(report.counts, { messages: total('messages'), rsa: total('rsa'), hmac: total('hmac') });
  assert.deepEqual(problems, []);
  await page.close();
});
