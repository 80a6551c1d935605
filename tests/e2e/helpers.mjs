// Shared set-up of the end-to-end tests of the debugger page: starts
// scripts/serve.mjs on a free port, drives Debian's /usr/bin/chromium with
// playwright-core (no browser download), records console errors and every
// request that leaves the page's origin, and loads the Node build of pkg/.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { freePort } from '../support/servers.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const resultsDir = path.join(root, 'test-results');
const vectorsDir = path.join(root, 'tests', 'vectors');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

if (!fs.existsSync(path.join(root, 'pkg', 'web', 'payment_intake.js'))) {
  throw new Error('pkg/ is not built: run `npm run build` first');
}
/** The package as Node users load it (CommonJS build). */
export const pkg = createRequire(import.meta.url)(path.join(root, 'pkg'));

export const readVector = (name) => JSON.parse(fs.readFileSync(path.join(vectorsDir, name), 'utf8'));
export const readKey = (name) => fs.readFileSync(path.join(vectorsDir, 'keys', name), 'utf8');


/** Starts the page's static server; resolves once it answers. */
export async function startServer() {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'serve.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', QUIET: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve.mjs exited early (${child.exitCode}): ${output}`);
    try {
      const res = await fetch(`${origin}/www/`);
      if (res.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`serve.mjs did not answer on ${origin}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

export const launchBrowser = () => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });

/**
 * Opens the page at a viewport size and waits for the wasm to load. `problems`
 * collects console errors, page errors, failed requests and any request to
 * another origin; `assertClean()` fails on any.
 */
export async function openPage(browser, origin, viewport = { width: 1366, height: 850 }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('request', (req) => {
    if (!req.url().startsWith(`${origin}/`) && !req.url().startsWith('data:')) problems.push(`request leaves the page: ${req.url()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(`${origin}/www/`);
  // The machine is shared: allow a slow wasm compile, and say what happened if it never loads.
  try {
    await page.waitForSelector('#load-status.ready, #load-status.failed', { state: 'attached', timeout: 60_000 });
  } catch (error) {
    const status = await page.locator('#load-status').textContent().catch(() => '?');
    throw new Error(`the page did not load (status: ${status}; problems: ${problems.join(' | ') || 'none'}): ${error.message}`);
  }
  assert.equal(await page.getAttribute('body', 'data-ready'), 'true', `${await page.locator('#load-status').textContent()} ${problems.join(' | ')}`);
  return {
    page,
    problems,
    assertClean: () => assert.deepEqual(problems, [], 'the page logged errors or made foreign requests'),
    close: () => context.close(),
  };
}

/** Sets a field's value as typing would (fires input), without per-key delay. */
export async function setValue(page, selector, value) {
  await page.fill(selector, value);
}

/** Waits until the debounced renderers have run (they are ≤ 200 ms). */
export const settle = (page) => page.waitForTimeout(450);

/** Saves test-results/<name>.png: the whole page, the viewport (`fullPage: false`) or one element (`selector`). */
export async function screenshot(page, name, { fullPage = true, selector } = {}) {
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage });
  return file;
}

/** Headers as `name: value` lines, the way they are logged. */
export const headerLines = (headers) => Object.entries(headers).map(([n, v]) => `${n}: ${v}`).join('\n');

/**
 * Starts the page server and Chromium before the file's tests and stops them after;
 * returns `{ server, browser, withPage }`, the first two set once started.
 * `withPage(fn, viewport)` runs `fn(session)` on a fresh page and fails on console
 * errors or requests that leave the page's origin.
 */
export function useServerAndBrowser() {
  const e2e = {
    server: undefined,
    browser: undefined,
    async withPage(fn, viewport) {
      const session = await openPage(e2e.browser, e2e.server.origin, viewport);
      try {
        await fn(session);
        session.assertClean();
      } finally {
        await session.close();
      }
    },
  };
  before(async () => {
    e2e.server = await startServer();
    e2e.browser = await launchBrowser();
  });
  after(async () => {
    await e2e.browser?.close();
    await e2e.server?.stop();
  });
  return e2e;
}
