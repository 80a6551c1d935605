// E2E, the debugger page against a local sandbox (issue 14, item 3) in headless
// Chromium: step 2 signs a request and sends it to the sandbox at the Base URL; the
// page shows the sandbox's answer (HTTP 200 for the merchant's key, 401 'Invalid public
// key' for another). The sandbox answers the page's origin (CORS), and the page's CSP
// lets it reach loopback addresses only.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { openPage, readKey, root, settle, useServerAndBrowser } from './helpers.mjs';

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
