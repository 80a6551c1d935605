// What the runtime fixtures (runtimes-*.test.mjs) share: a merchant's callback check written
// once for every runtime, a callback the service signs (with the test service key) and the
// same body rewritten after signing, a tiny static server for a build's output folder, and
// Chromium (Debian's /usr/bin/chromium through playwright-core; nothing is downloaded).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { esm as api, readKey, root } from '../helpers.mjs';

/**
 * The app's one function: verifies a genuine callback and a tampered one, and tells what it
 * saw (plain data, so it crosses page.evaluate and postMessage). `names` is the package's
 * namespace (or the few functions it needs).
 */
export const CHECK = `function checkCallbacks({ verifyCallback, VerifyingKey, isPaymentIntakeError, PaymentIntakeError }, { body, tampered, headers, servicePem }) {
  const key = VerifyingKey.fromPem(servicePem);
  const callback = verifyCallback(body, headers, key);
  let refused = 'accepted';
  try {
    verifyCallback(tampered, headers, key);
  } catch (error) {
    refused = { code: error.code, guard: isPaymentIntakeError(error), instance: error instanceof PaymentIntakeError };
  }
  return { paymentId: callback.paymentId, status: callback.status, refused };
}`;

/**
 * CHECK for the lean entries (payment-intake/lean, payment-intake/receiver: RSA by WebCrypto,
 * async only): the same checks through verifyCallbackAsync, and what the sync verifyCallback
 * answers there (`sync`: SYNC_RSA_UNAVAILABLE).
 */
export const ASYNC_CHECK = `async function checkCallbacks({ verifyCallback, verifyCallbackAsync, VerifyingKey, isPaymentIntakeError, PaymentIntakeError }, { body, tampered, headers, servicePem }) {
  const key = VerifyingKey.fromPem(servicePem);
  const callback = await verifyCallbackAsync(body, headers, key);
  let refused = 'accepted';
  try {
    await verifyCallbackAsync(tampered, headers, key);
  } catch (error) {
    refused = { code: error.code, guard: isPaymentIntakeError(error), instance: error instanceof PaymentIntakeError };
  }
  let sync = 'accepted';
  try {
    verifyCallback(body, headers, key);
  } catch (error) {
    sync = error.code;
  }
  return { paymentId: callback.paymentId, status: callback.status, refused, sync };
}`;

/**
 * A browser app (an ES module): before init a call fails with an error naming the call; then
 * `await init(initArg)`, and `window.fixture(callback)` runs CHECK. `head` is extra import lines,
 * `initArg` the expression init is given (none: the .wasm beside the glue, as bundled).
 */
export const browserApp = ({ head = '', initArg = '', from = 'payment-intake', check = CHECK } = {}) => `import init, * as intake from '${from}';
${head}
${check}
let beforeInit = 'no error';
try {
  intake.VerifyingKey.fromPem('');
} catch (error) {
  beforeInit = error.message + ' / ' + error.hint;
}
await init(${initArg});
window.fixture = async (callback) => ({ beforeInit, ...(await checkCallbacks(intake, callback)) });
document.title = 'ready';
`;

export const INDEX_HTML = (script, type = 'module') => `<!doctype html>
<html><head><meta charset="utf-8"><title>loading</title></head>
<body><script type="${type}" src="${script}"></script></body></html>
`;

/** A callback the service signed, and its body rewritten after signing. */
export function signedCallback(paymentId = 'order-7') {
  const service = api.SigningKey.fromPem(readKey('keys/rsa3072.pkcs8.pem'));
  const body = `{"project_id":"prj_1","general":{"payment_id":"${paymentId}"},"status":{"status":"success"}}`;
  const sent = api.signRequest(body, service, { merchantId: 'merchant-1' });
  return { body: sent.body, tampered: sent.body.replace('success', 'decline'), headers: sent.headers, servicePem: service.publicKeyPem() };
}

/** What every fixture must see for signedCallback(paymentId). */
export const expectedCheck = (paymentId = 'order-7') => ({
  paymentId,
  status: 'success',
  refused: { code: 'INVALID_SIGNATURE', guard: true, instance: true },
});

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

/** Serves `dir` on a loopback port; resolves { origin, close() }. */
export async function serveFolder(dir) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
    const file = path.join(dir, decodeURIComponent(url.pathname).replace(/\/$/, '/index.html'));
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Headless Chromium; null (with the reason) when it is not installed. */
export async function launchChromium() {
  if (!fs.existsSync(CHROMIUM)) return { browser: null, reason: `no Chromium at ${CHROMIUM} (CHROMIUM_PATH)` };
  const { chromium } = await import('playwright-core');
  return { browser: await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true }) };
}

/**
 * Opens `dir` (a build's output, with its index.html) in a page, waits for the app to be
 * ready and runs its fixture with a signed callback; returns what the page saw. Any page
 * error or failed request fails it, with the page's console.
 */
export async function runInPage(browser, dir, callback) {
  const served = await serveFolder(dir);
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  try {
    await page.goto(`${served.origin}/`);
    await page.waitForFunction(() => globalThis.document.title !== 'loading', null, { timeout: 15_000 }).catch(() => {});
    assert.equal(await page.title(), 'ready', problems.join('\n'));
    const seen = await page.evaluate((c) => globalThis.fixture(c), callback);
    assert.deepEqual(problems, []);
    return seen;
  } finally {
    await page.close();
    await served.close();
  }
}

/**
 * Serves `dir`'s worker (`modules`: [name, kind ('esModule' | 'wasm'), file] in `dir`) in workerd
 * (npm `workerd`) on a loopback port; resolves { url, log(), stop() } once it answers.
 */
export async function startWorkerd(dir, modules) {
  const { freePort } = await import('../../support/servers.mjs');
  const { spawn } = await import('node:child_process');
  const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'workerd.cmd' : 'workerd');
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [
${modules.map(([name, kind, file]) => `    (name = ${JSON.stringify(name)}, ${kind} = embed ${JSON.stringify(file)}),`).join('\n')}
  ],
  compatibilityDate = "2024-09-23",
);
`,
  );
  const child = spawn(bin, ['serve', path.join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (c) => (log += c));
  child.stderr.on('data', (c) => (log += c));
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    child.kill();
    await exited;
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await Promise.race([exited.then((code) => ({ code })), fetch(url).then((r) => ({ status: r.status }), () => null)]);
    if (state?.code !== undefined) throw new Error(`workerd exited (${state.code}): ${log}`);
    if (state?.status) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`workerd did not answer: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, log: () => log, stop };
}
