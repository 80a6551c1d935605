// E2E, tool 3 of the debugger page in headless Chromium: every callback vector
// gets the verdict the vectors expect, a tampered and a forged callback are
// explained by the diagnosis, callbacks signed with the `booleans: 'digit'`
// variant and with the public-js-client rules are recognised (every rule named),
// HMAC callbacks verify with their secret and not with another, and the parsed
// callback (verified or clearly unverified) shows status, finality, idempotency
// key and requisites.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { headerLines, pkg, readKey, readVector, settle, useServerAndBrowser } from './helpers.mjs';

const e2e = useServerAndBrowser();

const { withPage } = e2e;

const vectors = readVector('callbacks.json');
const projectKeyPem = readKey('rsa2048.public.pem');
const projectSigningKey = pkg.SigningKey.fromPem(readKey('rsa2048.pkcs8.pem'));
const attackerKey = pkg.SigningKey.fromPem(readKey('attacker2048.pkcs8.pem'));
const validCase = vectors.cases.find((c) => c.expect === 'ok');
const tamperedCase = vectors.cases.find((c) => c.name === 'amount changed after signing');

/** Pastes a callback; `headers` is text (lines or JSON). Returns the verdict text once rendered. */
async function check(page, { body, headers, key = projectKeyPem }) {
  await page.fill('#c-body', body);
  await page.fill('#c-headers', headers);
  await page.fill('#c-key', key);
  await settle(page);
  await page.waitForFunction(() => /Verified|Not verified/.test(document.querySelector('#c-verdict').textContent));
  return page.locator('#c-verdict').textContent();
}

const field = (page, name) => page.locator(`#c-callback [data-field="${name}"]`).textContent();
const diagnosis = (page) => page.locator('#c-diagnosis [data-field="diagnosis"]').textContent();
const diagnosisField = (page, name) => page.locator(`#c-diagnosis [data-field="${name}"]`).textContent();

/** A callback body with a boolean, so that the boolean variants sign different messages. */
function callbackWithBoolean(extra = {}) {
  const body = JSON.parse(validCase.body);
  body.payment_info.is_test = true;
  Object.assign(body, extra);
  return JSON.stringify(body);
}

describe('tool 3: check a callback', () => {
  for (const [index, vector] of vectors.cases.entries()) {
    // Alternate the two header formats the page accepts.
    const asJson = index % 2 === 0;
    test(`vector "${vector.name}" → ${vector.expect} (headers as ${asJson ? 'JSON' : 'name: value lines'})`, () =>
      withPage(async ({ page }) => {
        const headers = asJson ? JSON.stringify(vector.headers, null, 2) : headerLines(vector.headers);
        const verdict = await check(page, { body: vector.body, headers });
        assert.match(await page.locator('#c-headers-note').textContent(), /Read 4 header/);
        if (vector.expect === 'ok') {
          assert.match(verdict, /✓ Verified/);
          assert.match(await field(page, 'trust'), /Verified callback/);
          assert.ok(await page.locator('#c-diagnosis').isHidden());
        } else {
          assert.match(verdict, new RegExp(`Not verified: ${vector.expect}`));
          assert.match(await field(page, 'trust'), /UNVERIFIED/);
          assert.ok(await page.locator('#c-diagnosis').isVisible(), 'a failed signature is diagnosed');
        }
      }));
  }

  test('a verified callback shows status, finality, idempotency key, requisites and instruction', () =>
    withPage(async ({ page }) => {
      await check(page, { body: validCase.body, headers: headerLines(validCase.headers) });
      const model = pkg.verifyCallback(validCase.body, validCase.headers, projectKeyPem);
      assert.match(await field(page, 'status'), /processing:awaiting_confirm\s+intermediate/);
      assert.equal(await page.locator('#c-callback-key').textContent(), model.idempotencyKey);
      assert.equal(model.idempotencyKey, 'prj_8f2c:order-10045:processing:awaiting_confirm');
      assert.match(await field(page, 'amount'), /150000 minor units = 1500\.00 RUB/);
      assert.equal(await field(page, 'req-pan'), '2200700012345678');
      assert.equal(await field(page, 'req-holder'), 'IVAN IVANOV');
      assert.equal(await field(page, 'ins-pan'), '2200700012345678');
      assert.match(await field(page, 'ins-valid'), /1700000600 · 2023-11-14 22:23:20 UTC/);
      assert.equal(await field(page, 'merchant'), 'merchant-1');
    }));

  test('tampered: INVALID_SIGNATURE with its hint, the body is at fault, the parse is labelled unverified', () =>
    withPage(async ({ page }) => {
      const verdict = await check(page, { body: tamperedCase.body, headers: JSON.stringify(tamperedCase.headers) });
      let thrown;
      try {
        pkg.verifyCallback(tamperedCase.body, tamperedCase.headers, projectKeyPem);
      } catch (error) {
        thrown = error;
      }
      assert.equal(thrown.code, 'INVALID_SIGNATURE');
      assert.ok(verdict.includes(`Hint: ${thrown.hint}`), verdict);
      assert.match(await diagnosis(page), /Body or timestamp at fault/);
      const expected = pkg.diagnoseCallback(tamperedCase.body, tamperedCase.headers, projectKeyPem);
      assert.match(await page.locator('#c-diagnosis').textContent(), new RegExp(`${expected.messagesTried} messages tried`));
      assert.match(await field(page, 'trust'), /UNVERIFIED/);
      assert.match(await field(page, 'amount'), /^1 minor units/, 'the tampered amount is what the parse shows');
    }));

  test('forged with the attacker key: INVALID_PUBLIC_KEY, the key is at fault', () =>
    withPage(async ({ page }) => {
      const forged = pkg.signRequest(validCase.body, attackerKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const verdict = await check(page, { body: forged.body, headers: headerLines(forged.headers) });
      assert.match(verdict, /Not verified: INVALID_PUBLIC_KEY/);
      assert.match(verdict, /Hint: x-access-token carries a different public key/);
      assert.match(await diagnosis(page), /Key at fault/);
      assert.match(await page.locator('#c-key-msg').textContent(), /^$/, 'the pasted key itself is fine');
      assert.match(await field(page, 'trust'), /UNVERIFIED/);
    }));

  test("signed with the booleans: 'digit' variant: the diagnosis names it and verifying with it succeeds", () =>
    withPage(async ({ page }) => {
      const body = callbackWithBoolean();
      const signed = pkg.signRequest(body, projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000, options: { booleans: 'digit' } });
      const verdict = await check(page, { body: signed.body, headers: headerLines(signed.headers) });
      assert.match(verdict, /Not verified: INVALID_SIGNATURE/);
      const text = await diagnosis(page);
      assert.match(text, /another canonical variant: booleans: digit, falsy: none, order: codepoint, padding: on/);
      assert.equal(await page.locator('#c-diagnosis strong.differs').textContent(), 'booleans: digit', 'only the differing member is marked');
      await page.click('#c-use-variant');
      await page.waitForFunction(() => /✓ Verified/.test(document.querySelector('#c-verdict').textContent));
      assert.equal(await page.inputValue('#c-booleans'), 'digit');
      assert.match(await page.locator('#c-verdict').textContent(), /profile digit\/none\/codepoint\/padding on/);
      assert.match(await field(page, 'trust'), /Verified callback/);
    }));

  test("signed with the public-js-client rules: the diagnosis names every rule, and verifying with them succeeds", () =>
    withPage(async ({ page }) => {
      // A boolean, a null and a float written 1.0: leaves on which the rules differ.
      const body = callbackWithBoolean().replace('"is_test":true', '"is_test":true,"rate":1.0');
      const signed = pkg.signRequest(body, projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000, options: { profile: 'public-js-client' } });
      const verdict = await check(page, { body: signed.body, headers: headerLines(signed.headers) });
      assert.match(verdict, /Not verified: INVALID_SIGNATURE/);
      const expected = pkg.diagnoseCallback(signed.body, signed.headers, projectKeyPem);
      assert.equal(expected.token, 'der');
      const rules = {
        booleans: 'lower', falsy: 'null', numbers: 'js', order: 'utf16', padding: 'off', digest: 'double', token: 'der',
      };
      for (const [name, value] of Object.entries(rules)) {
        assert.equal(await diagnosisField(page, `rule-${name}`), value, `the diagnosis names ${name}`);
        assert.equal(String(expected.options[name] === false ? 'off' : expected.options[name]), value, `diagnoseCallback agrees on ${name}`);
      }
      assert.equal(await page.locator('#c-diagnosis [data-field="rule-signatureEncoding"]').count(), 0, 'no HMAC rule for an RSA key');
      assert.match(await diagnosisField(page, 'algorithm'), /^RSA/);
      assert.equal(await diagnosisField(page, 'profile'), 'public-js-client');
      const sentence = await diagnosis(page);
      for (const part of ['booleans: lower', 'falsy: null', 'order: utf16', 'padding: off', 'numbers: js', 'digest: double', 'token: der']) {
        assert.ok(sentence.includes(part), `${part} in: ${sentence}`);
      }

      await page.click('#c-use-variant');
      await page.waitForFunction(() => /✓ Verified/.test(document.querySelector('#c-verdict').textContent));
      assert.equal(await page.inputValue('#c-profile-name'), 'public-js-client', 'the profile selector names the rules set');
      assert.equal(await page.inputValue('#c-numbers'), 'js');
      assert.equal(await page.inputValue('#c-digest'), 'double');
      assert.equal(await page.inputValue('#c-order'), 'utf16');
      assert.equal(await page.isChecked('#c-padding'), false);
      assert.match(await page.locator('#c-verdict').textContent(), /profile lower\/null\/utf16\/padding off\/numbers js\/digest double/);
      assert.match(await field(page, 'trust'), /Verified callback/);
      // The same, as the library does it: verifying with the diagnosis's options succeeds.
      assert.equal(pkg.verifyCallback(signed.body, signed.headers, projectKeyPem, { options: expected.options }).verification.merchantId, 'merchant-1');
    }));

  test('an HMAC-signed callback verifies with its secret; a wrong secret fails with INVALID_SIGNATURE, the key at fault', () =>
    withPage(async ({ page }) => {
      const secret = 'project-secret-0123456789';
      const hmac = pkg.HmacKey.fromSecret(secret);
      const signed = pkg.signRequest(validCase.body, hmac, { merchantId: 'merchant-1', timestamp: 1700000000 });
      hmac.free();
      assert.equal(signed.headers['x-access-merchant-algorithm'], 'HMAC-SHA512');
      await page.check('#c-key-kind-hmac');
      assert.ok(await page.isHidden('#c-key'), 'the public key field is hidden');
      await page.fill('#c-body', signed.body);
      await page.fill('#c-headers', headerLines(signed.headers));
      await page.fill('#c-secret', secret);
      await settle(page);
      await page.waitForFunction(() => /✓ Verified/.test(document.querySelector('#c-verdict').textContent));
      assert.match(await page.locator('#c-verdict').textContent(), /HMAC secret \(HMAC-SHA512\)/);
      assert.match(await field(page, 'trust'), /Verified callback/);
      assert.ok(await page.locator('#c-diagnosis').isHidden());

      await page.fill('#c-secret', 'another-secret-0123456789');
      await settle(page);
      await page.waitForFunction(() => /Not verified/.test(document.querySelector('#c-verdict').textContent));
      assert.match(await page.locator('#c-verdict').textContent(), /Not verified: INVALID_SIGNATURE/);
      const expected = pkg.diagnoseCallback(signed.body, signed.headers, pkg.HmacKey.fromSecret('another-secret-0123456789'));
      assert.equal(expected.cause, 'key');
      assert.equal(await diagnosisField(page, 'cause'), 'key');
      assert.equal(await diagnosisField(page, 'algorithm'), 'HMAC-SHA512');
      assert.match(await diagnosis(page), /^Key at fault: the secret given/);
      assert.match(await page.locator('#c-diagnosis').textContent(), new RegExp(`Hint: ${expected.hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.match(await field(page, 'trust'), /UNVERIFIED/);

      // The secret is taken as typed: a trailing space is refused at the field.
      await page.fill('#c-secret', `${secret} `);
      await settle(page);
      assert.match(await page.locator('#c-secret-msg').textContent(), /^INVALID_KEY: .*whitespace/);
      assert.equal(await page.getAttribute('#c-secret', 'aria-invalid'), 'true');
      assert.match(await page.locator('#c-verdict').textContent(), /Not verified: the HMAC secret is not usable/);
    }));

  test("an HMAC callback with a hex signature: the diagnosis names signatureEncoding hex, and its options verify", () =>
    withPage(async ({ page }) => {
      const secret = 'project-secret-0123456789';
      const hmac = pkg.HmacKey.fromSecret(secret);
      const signed = pkg.signRequest(callbackWithBoolean(), hmac, { merchantId: 'merchant-1', timestamp: 1700000000, options: { signatureEncoding: 'hex', booleans: 'lower' } });
      hmac.free();
      await page.check('#c-key-kind-hmac');
      await page.fill('#c-body', signed.body);
      await page.fill('#c-headers', JSON.stringify(signed.headers));
      await page.fill('#c-secret', secret);
      await settle(page);
      await page.waitForFunction(() => /Not verified/.test(document.querySelector('#c-verdict').textContent));
      assert.equal(await diagnosisField(page, 'algorithm'), 'HMAC-SHA512');
      assert.equal(await diagnosisField(page, 'rule-signatureEncoding'), 'hex');
      assert.equal(await diagnosisField(page, 'rule-booleans'), 'lower');
      assert.equal(await page.locator('#c-diagnosis [data-field="rule-digest"]').count(), 0, 'no RSA rule for an HMAC key');
      assert.equal(await page.locator('#c-diagnosis [data-field="rule-token"]').count(), 0);
      await page.click('#c-use-variant');
      await page.waitForFunction(() => /✓ Verified/.test(document.querySelector('#c-verdict').textContent));
      assert.equal(await page.inputValue('#c-signature-encoding'), 'hex');
      assert.equal(await page.inputValue('#c-profile-name'), '', 'no named profile has these rules: custom');
    }));

  test('a final decline with Cyrillic text: final, decline reason, Unicode intact', () =>
    withPage(async ({ page }) => {
      const body = JSON.parse(validCase.body);
      body.status = { status: 'decline', sub_status: null, status_description: 'Canceled by client' };
      body.recipient_requisites = null;
      body.additional_info = null;
      body.general.payment_id = 'заказ-№7';
      const signed = pkg.signRequest(JSON.stringify(body), projectSigningKey, { merchantId: 'merchant-7', timestamp: 1700000000 });
      const verdict = await check(page, { body: signed.body, headers: JSON.stringify(signed.headers) });
      assert.match(verdict, /✓ Verified/);
      assert.match(await field(page, 'status'), /decline\s+final/);
      assert.equal(await field(page, 'description'), 'Canceled by client');
      assert.equal(await field(page, 'decline'), 'CANCELED_BY_CLIENT: Canceled by client');
      assert.equal(await page.locator('#c-callback-key').textContent(), 'prj_8f2c:заказ-№7:decline:');
      assert.equal(await field(page, 'merchant'), 'merchant-7');
      assert.match(await page.locator('#c-callback').textContent(), /None\. Requisites come only with/);
    }));

  test('missing headers and unreadable input are reported at their fields', () =>
    withPage(async ({ page }) => {
      const { 'x-access-signature': _dropped, ...rest } = validCase.headers;
      const verdict = await check(page, { body: validCase.body, headers: headerLines(rest) });
      assert.match(verdict, /Not verified: MISSING_HEADER/);
      assert.match(await page.locator('#c-headers-msg').textContent(), /MISSING_HEADER.*x-access-signature/);
      assert.match(await field(page, 'trust'), /UNVERIFIED/, 'still parsed, clearly unverified');

      await page.fill('#c-key', 'not a key');
      await settle(page);
      assert.match(await page.locator('#c-key-msg').textContent(), /^INVALID_KEY/);
      await page.fill('#c-body', '{"project_id": ');
      await page.fill('#c-key', projectKeyPem);
      await page.fill('#c-headers', headerLines(validCase.headers));
      await settle(page);
      assert.match(await page.locator('#c-verdict').textContent(), /Not verified: INVALID_JSON/);
      assert.match(await page.locator('#c-body-msg').textContent(), /^INVALID_JSON/);
    }));

  test('the sample callback, signed with a key generated in step 2, verifies', () =>
    withPage(async ({ page }) => {
      await page.click('#s-generate');
      await page.waitForFunction(() => /generated in this page/.test(document.querySelector('#s-key-info').textContent), null, { timeout: 30_000 });
      await page.click('#c-sample');
      await page.waitForFunction(() => /✓ Verified/.test(document.querySelector('#c-verdict').textContent));
      assert.equal(await field(page, 'req-holder'), 'ИВАН ПЕТРОВ');
      assert.match(await field(page, 'req-bank'), /Сбербанк · RU/);
    }));
});
