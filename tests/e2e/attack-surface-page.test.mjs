// E2E attack on the debugger page: hostile callback bodies, headers and keys (HTML and
// script in every string the page shows, javascript: URLs in form_url and redirect_url)
// are shown as text. Nothing is parsed as markup: no injected element appears, no link
// is made from a callback's URL, and the page's CSP reports no blocked inline script
// (which would mean markup was parsed and only the CSP stopped it).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { headerLines, pkg, readKey, readVector, settle, useServerAndBrowser } from './helpers.mjs';

const e2e = useServerAndBrowser();
const { withPage } = e2e;

const projectKeyPem = readKey('rsa2048.public.pem');
const projectSigningKey = pkg.SigningKey.fromPem(readKey('rsa2048.pkcs8.pem'));
const validCase = readVector('callbacks.json').cases.find((c) => c.expect === 'ok');

const HTML = '<img id="injected" src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script></textarea></pre>';

/** The valid vector's callback with markup in each string the page shows, and javascript: URLs. */
function hostileBody() {
  const body = JSON.parse(validCase.body);
  body.project_id = `prj${HTML}`;
  body.general.payment_id = `order${HTML}`;
  body.general.request_id = `req${HTML}`;
  body.status.status_description = `desc${HTML}`;
  body.payment_info.method = `m${HTML}`;
  if (body.recipient_requisites) {
    for (const name of Object.keys(body.recipient_requisites)) if (name !== 'currency') body.recipient_requisites[name] = `${name}${HTML}`;
  }
  body.integration = { form_url: 'javascript:window.__pwned=3', redirect_url: `javascript:window.__pwned=4//${HTML}` };
  for (const item of body.additional_info?.display_data ?? []) if (typeof item.data === 'string' && !/^\d+$/.test(item.data)) item.data = `${item.title}${HTML}`;
  body[`key${HTML}`] = `value${HTML}`;
  return JSON.stringify(body);
}

/** Sets up the CSP listener before the page's scripts see any input. */
async function watch(page) {
  await page.evaluate(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

async function assertInert(page, where) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    injected: document.querySelectorAll('#injected, script:not([src]), img[src="x"]').length,
    javascriptLinks: [...document.querySelectorAll('[href], [src], [action]')].filter((n) => /^\s*javascript:/i.test(n.getAttribute('href') ?? n.getAttribute('src') ?? n.getAttribute('action'))).length,
    violations: window.__violations,
  }));
  assert.deepEqual(found, { pwned: null, injected: 0, javascriptLinks: 0, violations: [] }, where);
}

async function check(page, { body, headers, key = projectKeyPem }) {
  await page.fill('#c-body', body);
  await page.fill('#c-headers', headers);
  await page.fill('#c-key', key);
  await settle(page);
}

describe('the debugger page against hostile input (held)', () => {
  test('a verified callback with markup in every shown string and javascript: URLs is shown as text', () =>
    withPage(async ({ page }) => {
      await watch(page);
      const signed = pkg.signRequest(hostileBody(), projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      await check(page, { body: signed.body, headers: headerLines(signed.headers) });
      await page.waitForFunction(() => /Verified|Not verified/.test(document.querySelector('#c-verdict').textContent));
      assert.match(await page.locator('#c-verdict').textContent(), /✓ Verified/);
      const shown = await page.locator('#c-callback').textContent();
      assert.ok(shown.includes(`order${HTML}`), 'the payment id is shown literally');
      assert.ok(shown.includes(`desc${HTML}`), 'the description is shown literally');
      await assertInert(page, 'verified hostile callback');
    }));

  test('an unverified one, hostile headers (merchant id, token, signature) and a hostile key: text, with the diagnosis', () =>
    withPage(async ({ page }) => {
      await watch(page);
      const signed = pkg.signRequest(hostileBody(), projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const headers = {
        ...signed.headers,
        'x-access-merchant-id': '<svg/onload=window.__pwned=5>',
        'x-access-signature': `${signed.headers['x-access-signature']}<b>`,
      };
      await check(page, { body: signed.body, headers: headerLines(headers) });
      await page.waitForFunction(() => /Verified|Not verified/.test(document.querySelector('#c-verdict').textContent));
      if (await page.locator('#c-diagnose').isVisible()) await page.click('#c-diagnose');
      await assertInert(page, 'hostile headers');
      await check(page, { body: signed.body, headers: JSON.stringify({ ...headers, [`x-${HTML}`]: HTML }) });
      await assertInert(page, 'hostile header names');
      await check(page, { body: `{"a":"${HTML.replace(/"/g, '\\"')}"`, headers: headerLines(signed.headers) });
      await assertInert(page, 'a body that is not JSON');
      await check(page, { body: signed.body, headers: headerLines(signed.headers), key: `-----BEGIN PUBLIC KEY-----\n${HTML}\n-----END PUBLIC KEY-----` });
      assert.ok((await page.locator('#c-key-msg').textContent()).length > 0, 'the key is refused with a message');
      await assertInert(page, 'a hostile key');
    }));
});
