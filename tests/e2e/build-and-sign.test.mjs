// E2E, tools 1 and 2 of the debugger page in headless Chromium: choices follow
// availability(), validation errors sit at their field, amounts convert to
// minor units, Unicode survives, and the headers, curl and canonical steps
// shown equal what the Node build of the package computes for the same input.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { describe, test } from 'node:test';
import { pkg, readKey, settle, useServerAndBrowser } from './helpers.mjs';

const e2e = useServerAndBrowser();

const { withPage } = e2e;

const text = (page, selector) => page.locator(selector).textContent();
const optionValues = (page, selector) => page.$$eval(`${selector} option`, (os) => os.map((o) => o.value));

/** The message shown for a field, and whether it sits in the same .field box as the input. */
async function fieldMessage(page, id) {
  return page.evaluate((inputId) => {
    const input = document.getElementById(inputId);
    const msg = document.getElementById(`${inputId}-msg`);
    return {
      text: msg.textContent,
      visible: msg.offsetParent !== null,
      besideField: input.closest('.field') === msg.closest('.field'),
      invalid: input.getAttribute('aria-invalid') === 'true',
    };
  }, id);
}

// The page's default form values (www/index.html), as builder input.
const DEFAULT_INPUT = {
  projectId: 'prj_8f2c', paymentId: 'order-10045', method: 'card-p2p', amountMajor: '1500.50',
  currency: 'RUB', customerId: 'u-1', customerIp: '203.0.113.7', country: 'RU',
};

describe('tool 1: build a payin', () => {
  test('the default P2P body is valid and equals buildPayinRequest for the same input', () =>
    withPage(async ({ page }) => {
      await settle(page);
      assert.match(await text(page, '#b-verdict'), /Valid for POST \/api\/v1\/payment\/p2p\/payin/);
      const expected = pkg.buildPayinRequest(DEFAULT_INPUT);
      assert.deepEqual(JSON.parse(await text(page, '#b-body')), expected.body);
      assert.equal(await page.inputValue('#s-body'), expected.bodyText, 'step 2 signs the exact built text');
      assert.match(await text(page, '#b-amount-minor'), /= 150050 minor units/);
    }));

  test('country and method choices follow availability()', () =>
    withPage(async ({ page }) => {
      const rows = pkg.availability();
      const countries = (integration) => rows.filter((r) => r.integration === integration).map((r) => r.country);
      assert.deepEqual(await optionValues(page, '#b-country'), countries('h2h'));
      await page.selectOption('#b-country', 'KZ');
      assert.deepEqual(await optionValues(page, '#b-method'), rows.find((r) => r.country === 'KZ' && r.integration === 'h2h').payinMethods);
      assert.equal(await page.inputValue('#b-currency'), 'KZT');

      await page.check('#b-kind-widget');
      assert.equal(await text(page, '#b-path'), '/api/v1/widget/payin');
      assert.deepEqual(await optionValues(page, '#b-country'), countries('widget'));
      for (const row of rows.filter((r) => r.integration === 'widget')) {
        await page.selectOption('#b-country', row.country);
        assert.deepEqual(await optionValues(page, '#b-method'), ['', ...row.payinMethods], `widget methods of ${row.country}`);
        assert.equal(await page.inputValue('#b-currency'), row.currency);
      }
      // KE widget payins need an e-mail: the validator's error shows at the e-mail field.
      await page.selectOption('#b-country', 'KE');
      await settle(page);
      const email = await fieldMessage(page, 'b-email');
      assert.match(email.text, /EMAIL_REQUIRED/);
      assert.ok(email.besideField && email.visible && email.invalid, JSON.stringify(email));
      await page.fill('#b-email', 'payer@example.com');
      await settle(page);
      assert.equal((await fieldMessage(page, 'b-email')).text, '');
      assert.match(await text(page, '#b-verdict'), /✓ Valid for POST \/api\/v1\/widget\/payin/);
    }));

  test('an invalid amount shows its error next to the amount field', () =>
    withPage(async ({ page }) => {
      await page.fill('#b-amount', '1.005');
      await settle(page);
      let amount = await fieldMessage(page, 'b-amount');
      assert.match(amount.text, /INVALID_AMOUNT.*3 fraction digits; RUB has 2/);
      assert.ok(amount.besideField && amount.visible && amount.invalid, JSON.stringify(amount));
      assert.match(await text(page, '#b-verdict'), /Not valid for POST \/api\/v1\/payment\/p2p\/payin: fix Amount \(major units\)$/);

      await page.fill('#b-amount', '0');
      await settle(page);
      amount = await fieldMessage(page, 'b-amount');
      assert.match(amount.text, /OUT_OF_RANGE: payment\.amount must be from 1 to 10000000000000/);
      assert.ok(amount.besideField && amount.invalid);
      assert.match(await text(page, '#b-amount-minor'), /= 0 minor units/);

      await page.fill('#b-amount', '12.3');
      await settle(page);
      assert.equal((await fieldMessage(page, 'b-amount')).text, '');
      assert.match(await text(page, '#b-amount-minor'), /= 1230 minor units \(12\.30 RUB\)/);
      assert.equal(JSON.parse(await text(page, '#b-body')).payment.amount, 1230);

      // Other fields: a bad IP and an http callback URL land at their own fields (the URL one in a folded section).
      await page.fill('#b-customer-ip', '300.1.1.1');
      await page.click('#b-more summary');
      await page.fill('#b-callback-url', 'http://shop.example/cb');
      await settle(page);
      assert.match((await fieldMessage(page, 'b-customer-ip')).text, /INVALID_IP/);
      assert.match((await fieldMessage(page, 'b-callback-url')).text, /NOT_HTTPS/);
    }));

  test('Cyrillic input reaches the body and the canonical entries intact', () =>
    withPage(async ({ page }) => {
      await page.click('#b-more-p2p summary');
      await page.fill('#b-sender-holder', 'Иван Петров');
      await page.click('#b-more summary');
      await page.fill('#b-description', 'Заказ №42 — тест');
      await settle(page);
      const body = JSON.parse(await text(page, '#b-body'));
      assert.equal(body.sender.card_holder, 'Иван Петров');
      assert.equal(body.payment.description, 'Заказ №42 — тест');
      assert.match(await text(page, '#s-entries'), /sender:card_holder:Иван Петров/);
      assert.equal((await fieldMessage(page, 'b-sender-holder')).text, '');
    }));
});

describe('tool 2: sign it', () => {
  const pem = readKey('rsa2048.pkcs8.pem');
  const readHeaders = (page) =>
    page.$$eval('#s-headers tbody tr', (rows) => Object.fromEntries(rows.map((r) => [r.dataset.header, r.querySelector('td').textContent])));

  async function fillSigner(page, profile = {}) {
    await page.fill('#s-key', pem);
    await page.fill('#s-merchant', 'merchant-1');
    await page.fill('#s-timestamp', '1700000000');
    if (profile.booleans) await page.selectOption('#s-booleans', profile.booleans);
    if (profile.falsy) await page.selectOption('#s-falsy', profile.falsy);
    if (profile.order) await page.selectOption('#s-order', profile.order);
    if (profile.padding === false) await page.uncheck('#s-padding');
    await settle(page);
    await page.waitForFunction(() => document.querySelector('#s-verdict').classList.contains('good'));
  }

  for (const profile of [{}, { booleans: 'digit', falsy: 'null', padding: false }, { booleans: 'lower', order: 'utf16' }]) {
    test(`the headers shown equal signRequest (profile ${JSON.stringify(profile)})`, () =>
      withPage(async ({ page }) => {
        await page.click('#b-more-p2p summary');
        await page.fill('#b-sender-holder', 'Иван Петров');
        await fillSigner(page, profile);
        const bodyText = await page.inputValue('#s-body');
        const key = pkg.SigningKey.fromPem(pem);
        const expected = pkg.signRequest(bodyText, key, { merchantId: 'merchant-1', timestamp: 1700000000, options: profile });
        assert.deepEqual(await readHeaders(page), expected.headers);

        const steps = pkg.canonicalSteps(bodyText, '1700000000', profile);
        assert.equal(await text(page, '#s-entries'), steps.entries.join('\n'));
        assert.equal(await text(page, '#s-joined'), steps.joined);
        assert.equal(await text(page, '#s-encoded'), steps.encoded);
        assert.equal(await text(page, '#s-message'), steps.message);

        const curl = await text(page, '#s-curl');
        assert.ok(curl.startsWith(`curl -X POST "\${BASE_URL}/api/v1/payment/p2p/payin"`), curl);
        for (const [name, value] of Object.entries(expected.headers)) assert.ok(curl.includes(`-H '${name}: ${value}'`), name);
        assert.ok(curl.endsWith(`--data-raw '${expected.body}'`), 'curl sends the exact signed body');
        key.free();
      }));
  }

  test("the 'public-js-client' profile sets every rule; the headers (DER token) and steps equal signRequest with that profile", () =>
    withPage(async ({ page }) => {
      const named = pkg.profiles();
      assert.deepEqual(await optionValues(page, '#s-profile-name'), [...named.map((p) => p.name), ''], 'profiles() plus the custom state');
      assert.equal(await page.inputValue('#s-profile-name'), 'spec');
      await fillSigner(page);
      await page.selectOption('#s-profile-name', 'public-js-client');
      await settle(page);
      const rules = named.find((p) => p.name === 'public-js-client').options;
      for (const [name, id] of [['booleans', 's-booleans'], ['falsy', 's-falsy'], ['order', 's-order'], ['numbers', 's-numbers'], ['digest', 's-digest'], ['token', 's-token']]) {
        assert.equal(await page.inputValue(`#${id}`), rules[name], `#${id} follows the profile`);
      }
      assert.equal(await page.isChecked('#s-padding'), rules.padding);
      assert.match(await text(page, '#s-profile-name-note'), /public JavaScript client/);
      assert.match(await text(page, '#s-message-how'), /SHA-256 of the message’s SHA-256 digest/);

      const bodyText = await page.inputValue('#s-body');
      const key = pkg.SigningKey.fromPem(pem);
      const expected = pkg.signRequest(bodyText, key, { merchantId: 'merchant-1', timestamp: 1700000000, options: { profile: 'public-js-client' } });
      assert.deepEqual(await readHeaders(page), expected.headers);
      // The token is base64url of the public key's DER bytes (SubjectPublicKeyInfo), unpadded.
      const token = expected.headers['x-access-token'];
      assert.equal(token, key.token({ token: 'der', padding: false }));
      assert.equal(Buffer.from(token, 'base64url').toString('base64'), key.publicKeyPem().replace(/-----[^-]+-----|\s/g, ''));
      const steps = pkg.canonicalSteps(bodyText, '1700000000', { profile: 'public-js-client' });
      assert.equal(await text(page, '#s-entries'), steps.entries.join('\n'));
      assert.equal(await text(page, '#s-message'), steps.message);
      assert.match(await text(page, '#s-verdict'), /profile public-js-client: lower\/null\/utf16\/padding off\/numbers js\/digest double\/token der/);

      // Changing one rule leaves the profile: the selector says custom, and the headers follow the rules shown.
      await page.selectOption('#s-token', 'pem');
      await settle(page);
      assert.equal(await page.inputValue('#s-profile-name'), '');
      assert.match(await page.$eval('#s-profile-name', (s) => s.selectedOptions[0].textContent), /custom/);
      assert.match(await text(page, '#s-profile-name-note'), /Custom/);
      const custom = pkg.signRequest(bodyText, key, { merchantId: 'merchant-1', timestamp: 1700000000, options: { profile: 'public-js-client', token: 'pem' } });
      assert.deepEqual(await readHeaders(page), custom.headers);
      // Back to the rules of a named profile: it is named again.
      await page.selectOption('#s-token', 'der');
      assert.equal(await page.inputValue('#s-profile-name'), 'public-js-client');
      key.free();
    }));

  test('an HMAC secret signs: the algorithm header replaces the token, in the table and in curl', () =>
    withPage(async ({ page }) => {
      const secret = 'merchant-secret-0123456789';
      await fillSigner(page);
      await page.check('#s-key-kind-hmac');
      assert.ok(await page.isHidden('#s-key'), 'the private key field is hidden');
      assert.ok(await page.isHidden('#s-token'), 'the RSA token rule is hidden');
      await settle(page);
      assert.match(await text(page, '#s-verdict'), /Not signed yet: needs an HMAC secret/);
      assert.deepEqual(Object.keys(await readHeaders(page)), ['x-access-timestamp', 'x-access-merchant-id', 'x-access-signature', 'x-access-merchant-algorithm']);

      await page.fill('#s-secret', secret);
      await settle(page);
      await page.waitForFunction(() => document.querySelector('#s-verdict').classList.contains('good'));
      const bodyText = await page.inputValue('#s-body');
      const hmac = pkg.HmacKey.fromSecret(secret);
      const expected = pkg.signRequest(bodyText, hmac, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const shown = await readHeaders(page);
      assert.deepEqual(shown, expected.headers);
      assert.equal(shown['x-access-merchant-algorithm'], 'HMAC-SHA512');
      assert.ok(!('x-access-token' in shown));
      // Checked independently with node:crypto: HMAC-SHA512 over the canonical message, base64url with padding.
      const message = pkg.canonicalMessage(bodyText, '1700000000', {});
      assert.equal(shown['x-access-signature'], crypto.createHmac('sha512', secret).update(message).digest('base64url') + '==');
      const curl = await text(page, '#s-curl');
      assert.ok(curl.includes(`-H 'x-access-merchant-algorithm: HMAC-SHA512'`), curl);
      assert.ok(!curl.includes('x-access-token'), curl);
      assert.match(await text(page, '#s-verdict'), /Signed with the HMAC-SHA512 secret/);
      assert.match(await text(page, '#s-message-how'), /HMAC-SHA512/);

      await page.selectOption('#s-signature-encoding', 'hex');
      await settle(page);
      const hex = pkg.signRequest(bodyText, hmac, { merchantId: 'merchant-1', timestamp: 1700000000, options: { signatureEncoding: 'hex' } });
      assert.deepEqual(await readHeaders(page), hex.headers);
      assert.match(hex.headers['x-access-signature'], /^[0-9a-f]{128}$/);
      hmac.free();

      // The secret is taken as typed: a trailing space is refused, and the error sits at the field.
      await page.fill('#s-secret', `${secret} `);
      await settle(page);
      const msg = await fieldMessage(page, 's-secret');
      assert.match(msg.text, /^INVALID_KEY: .*whitespace at the start or end/);
      assert.ok(msg.besideField && msg.visible && msg.invalid, JSON.stringify(msg));
      assert.match(await text(page, '#s-verdict'), /Not signed yet: needs a usable HMAC secret/);
      assert.equal((await readHeaders(page))['x-access-signature'], '—');
    }));

  test('a base URL and an edited body go into the curl command; the body is validated for its operation', () =>
    withPage(async ({ page }) => {
      await fillSigner(page);
      await page.fill('#s-base-url', 'https://intake.example/');
      await page.selectOption('#s-path', '/api/v1/payment/p2p/payin/info');
      const body = `{"general": {"project_id": "prj_8f2c", "payment_id": "O'Brien-1"}}`;
      await page.fill('#s-body', body);
      await settle(page);
      assert.match(await text(page, '#s-body-source'), /Edited here/);
      assert.match(await text(page, '#s-body-msg'), /valid for \/api\/v1\/payment\/p2p\/payin\/info/);
      const curl = await text(page, '#s-curl');
      assert.ok(curl.startsWith(`curl -X POST 'https://intake.example/api/v1/payment/p2p/payin/info'`), curl);
      assert.ok(curl.endsWith(`--data-raw '${body.replace("'", `'\\''`)}'`), curl);
      const expected = pkg.signRequest(body, pkg.SigningKey.fromPem(pem), { merchantId: 'merchant-1', timestamp: '1700000000' });
      assert.deepEqual(await readHeaders(page), expected.headers);

      // Step 1 changes no longer overwrite the edited body, until asked.
      await page.fill('#b-payment-id', 'order-2');
      await settle(page);
      assert.equal(await page.inputValue('#s-body'), body);
      await page.click('#s-use-built');
      assert.match(await page.inputValue('#s-body'), /"payment_id":"order-2"/);
      assert.equal(await page.inputValue('#s-path'), '/api/v1/payment/p2p/payin');
    }));

  test('bad key and timestamp are reported at their fields', () =>
    withPage(async ({ page }) => {
      await page.fill('#s-key', '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----');
      await page.fill('#s-timestamp', 'yesterday');
      await settle(page);
      assert.match((await fieldMessage(page, 's-key')).text, /^INVALID_KEY/);
      assert.match((await fieldMessage(page, 's-timestamp')).text, /Unix seconds/);
      assert.match(await text(page, '#s-verdict'), /Not signed yet/);
      assert.equal((await readHeaders(page))['x-access-signature'], '—');
    }));

  test('a test key pair generated in the page signs verifiably, and the page stays responsive', () =>
    withPage(async ({ page }) => {
      await page.fill('#s-timestamp', '1700000000');
      const started = Date.now();
      await page.click('#s-generate');
      // The page answers while the key is made (WebCrypto works off the main thread).
      assert.equal(await page.evaluate(() => 1 + 1), 2);
      await page.waitForFunction(() => /generated in this page/.test(document.querySelector('#s-key-info').textContent), null, { timeout: 30_000 });
      await settle(page);
      assert.ok(Date.now() - started < 30_000);
      assert.match(await page.inputValue('#s-key'), /^-----BEGIN PRIVATE KEY-----\n/);
      const publicPem = await text(page, '#s-public-pem');
      const headers = await readHeaders(page);
      // Checked independently with node:crypto: RSA PKCS#1 v1.5 / SHA-256 over the canonical message.
      const message = pkg.canonicalMessage(await page.inputValue('#s-body'), '1700000000', {});
      const signature = Buffer.from(headers['x-access-signature'], 'base64url');
      assert.ok(crypto.verify('sha256', Buffer.from(message), publicPem, signature), 'signature verifies with the shown public key');
      assert.equal(headers['x-access-token'], Buffer.from(publicPem).toString('base64url') + '='.repeat((3 - (publicPem.length % 3)) % 3));
    }));
});
