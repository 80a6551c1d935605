// E2E, the debugger page against a local sandbox (issue 14, item 3) in headless
// Chromium: step 2 signs a request and sends it to the sandbox at the Base URL; the
// page shows the sandbox's answer (HTTP 200 for the merchant's key, 401 'Invalid public
// key' for another). The sandbox answers the page's origin (CORS), and the page's CSP
// lets it reach loopback addresses only. And the sandbox's own payment page (form_url):
// the debugger's look, its callback deliveries, "deliver again", and its own refresh
// (screenshot: test-results/sandbox-payment-page.png, not kept in the repository).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { openPage, pkg, readKey, root, screenshot, settle, useServerAndBrowser } from './helpers.mjs';

const e2e = useServerAndBrowser();
const { startSandbox } = await import(pathToFileURL(path.join(root, 'pkg', 'sandbox', 'index.mjs')).href);

let sandbox;
before(async () => {
  sandbox = await startSandbox({ merchantKey: readKey('rsa2048.public.pem'), serviceKey: readKey('rsa3072.pkcs8.pem') });
});
after(() => sandbox.close());

/** Signs the balance request in step 2 with `keyFile` and sends it; the status line and the response shown. */
async function sendBalance(page, keyFile) {
  await page.selectOption('#s-path', '/api/v1/balance/info');
  await page.fill('#s-body', '{"general":{"project_id":"prj_1"}}');
  await page.fill('#s-merchant', sandbox.merchantId);
  await page.fill('#s-key', readKey(keyFile));
  await page.fill('#s-base-url', sandbox.url);
  await settle(page);
  assert.match(await page.locator('#s-verdict').textContent(), /Signed with a 2048-bit RSA key/);
  await page.click('#s-send');
  await page.waitForFunction(() => /^HTTP \d+|^Could not reach/.test(document.getElementById('s-send-status').textContent), null, { timeout: 20_000 });
  return { status: await page.locator('#s-send-status').textContent(), response: await page.locator('#s-response').textContent() };
}

test("the page signs a request, sends it to the sandbox and shows the answer; another key gets 401 'Invalid public key'", async () => {
  const session = await openPage(e2e.browser, e2e.server.origin);
  try {
    const ok = await sendBalance(session.page, 'rsa2048.pkcs8.pem');
    assert.equal(ok.status, `HTTP 200 from ${sandbox.url}/api/v1/balance/info`);
    assert.ok(JSON.parse(ok.response).balance.length > 0, ok.response);

    const refused = await sendBalance(session.page, 'attacker2048.pkcs8.pem');
    assert.equal(refused.status, `HTTP 401 from ${sandbox.url}/api/v1/balance/info`);
    assert.equal(JSON.parse(refused.response).status_description, 'Invalid public key');

    // The only requests that left the page went to the sandbox; the 401 is the one expected error.
    const expected = (p) => p === `request leaves the page: ${sandbox.url}/api/v1/balance/info` || p === `HTTP 401: ${sandbox.url}/api/v1/balance/info`
      || (/status of 401/.test(p) && p.startsWith('console.error'));
    assert.deepEqual(session.problems.filter((p) => !expected(p)), []);
  } finally {
    await session.close();
  }
});

test('a Base URL that is not a loopback sandbox is not sent to', async () => {
  const session = await openPage(e2e.browser, e2e.server.origin);
  try {
    const { page } = session;
    await page.selectOption('#s-path', '/api/v1/balance/info');
    await page.fill('#s-body', '{"general":{"project_id":"prj_1"}}');
    await page.fill('#s-key', readKey('rsa2048.pkcs8.pem'));
    await page.fill('#s-base-url', 'https://pay.example');
    await settle(page);
    await page.click('#s-send');
    assert.match(await page.locator('#s-send-status').textContent(), /Give a local sandbox as Base URL/);
    session.assertClean();
  } finally {
    await session.close();
  }
});

test("the payment page: the debugger's look, its callback deliveries, and it refreshes itself", async () => {
  // A merchant receiver that refuses the first delivery and takes the rest.
  let count = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead((count += 1) === 1 ? 503 : 200).end());
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${receiver.address().port}`;
  const box = await startSandbox({ merchantKey: readKey('rsa2048.public.pem'), serviceKey: readKey('rsa3072.pkcs8.pem'), timeScale: 1 });
  const session = await openPage(e2e.browser, e2e.server.origin);
  try {
    const key = pkg.SigningKey.fromPem(readKey('rsa2048.pkcs8.pem'));
    const body = {
      general: { project_id: 'prj_e2e', payment_id: 'order-page-1', merchant_callback_url: `${base}/info`, merchant_success_callback_url: `${base}/ok`, merchant_decline_callback_url: `${base}/no` },
      payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 300 },
      customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' },
    };
    const signed = pkg.signRequest(body, key, { merchantId: box.merchantId });
    key.free();
    const created = await (await fetch(`${box.url}/api/v1/payment/p2p/payin`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed.headers }, body: signed.body })).json();

    // The debugger page's computed look, to compare with.
    const look = (page) => page.evaluate(() => {
      const style = getComputedStyle(document.body);
      const header = document.querySelector('.page-header');
      return { font: style.fontFamily, size: style.fontSize, background: style.backgroundColor, color: style.color, header: header && getComputedStyle(header).backgroundColor };
    });
    const debuggerLook = await look(session.page);

    const page = await session.page.context().newPage();
    const problems = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console.error: ${msg.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()}`));
    await page.goto(created.integration.form_url);
    assert.deepEqual(await look(page), debuggerLook, "the payment page has the debugger's font, colours and header");
    assert.equal(await page.locator('#deliveries tr.delivery').count(), 0, 'no callback yet: still processing:requisites');
    assert.match(await page.locator('.tag').first().textContent(), /processing:requisites/);

    // Requisites found now (not in 5 s): a callback the receiver answers 503, then its retry 200.
    await fetch(`${box.url}/sandbox/payments/${created.request_id}/requisites-found`, { method: 'POST' });
    // The page is not reloaded: its own refresh brings the deliveries in.
    await page.waitForFunction(() => document.querySelectorAll('#deliveries tr.delivery').length >= 2, null, { timeout: 20_000 });
    assert.ok(Number(await page.getAttribute('body', 'data-refreshes')) >= 1);
    const rows = await page.locator('#deliveries tr.delivery').allTextContents();
    assert.match(rows[0], /HTTP 200/, `newest first: ${rows}`);
    assert.match(rows[1], /HTTP 503/);
    assert.match(rows.join('\n'), new RegExp(`${base}/info`));
    assert.match(await page.locator('.tag').first().textContent(), /processing:awaiting_confirm/);
    assert.equal(await page.locator('#deliver-again').isVisible(), true);
    assert.match(await page.locator('#refresh-status').textContent(), /^Refreshed every 2 s; last /);

    // Deliver again by its button: one more row, marked so.
    await page.click('#deliver-again');
    await page.waitForFunction(() => document.querySelectorAll('#deliveries tr.delivery').length === 3, null, { timeout: 20_000 });
    assert.match(await page.locator('#deliveries tr.delivery').first().textContent(), /delivered again/);

    const file = await screenshot(page, 'sandbox-payment-page');
    assert.ok(fs.statSync(file).size > 10_000, 'a screenshot with something in it');
    const refreshed = Number(await page.getAttribute('body', 'data-refreshes'));
    await page.waitForFunction((n) => Number(document.body.dataset.refreshes) > n, refreshed, { timeout: 10_000 });
    await page.close();
    assert.deepEqual(problems, [], 'the payment page ran without errors');
    session.assertClean();
  } finally {
    await session.close();
    await box.close();
    receiver.close();
    receiver.closeAllConnections();
  }
});
