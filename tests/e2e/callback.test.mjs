// E2E, tool 3 of the debugger page in headless Chromium: every callback vector
// gets the verdict the vectors expect, a tampered and a forged callback are
// explained by the diagnosis, callbacks signed with the `booleans: 'digit'`
// variant and with the public-js-client rules are recognised (every rule named),
// HMAC callbacks verify with their secret and not with another, and the parsed
// callback (verified or clearly unverified) shows status, finality, idempotency
// key and requisites.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
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
/** Presses the Diagnose button a failed signature shows; resolves once the diagnosis is shown. */
async function diagnose(page) {
  await page.click('#c-diagnose');
  await page.waitForSelector('#c-diagnosis:not([hidden])');
}
/** SHA-256 of a public key's SubjectPublicKeyInfo DER, hex: what the page shows, computed by node:crypto. */
const fingerprint = (pem) => crypto.createHash('sha256').update(crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' })).digest('hex');
const grouped = (hex) => `SHA-256 ${hex.match(/.{8}/g).join(' ')}`;
const plural = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;
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
          assert.ok(await page.locator('#c-diagnose').isHidden(), 'nothing to diagnose');
        } else {
          assert.match(verdict, new RegExp(`Not verified: ${vector.expect}`));
          assert.match(await field(page, 'trust'), /UNVERIFIED/);
          assert.ok(await page.locator('#c-diagnosis').isHidden(), 'diagnosed when asked');
          await diagnose(page);
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
      // The package's hint names its function; the page names its own button instead.
      assert.match(thrown.hint, /diagnoseCallback tells which variant/);
      assert.ok(verdict.includes(`Hint: ${thrown.hint.replace('diagnoseCallback', 'the Diagnose button (under this verdict)')}`), verdict);
      assert.doesNotMatch(verdict, /diagnoseCallback/);
      await diagnose(page);
      assert.match(await diagnosis(page), /Body or timestamp at fault/);
      const expected = pkg.diagnoseCallback(tamperedCase.body, tamperedCase.headers, projectKeyPem);
      assert.match(await page.locator('#c-diagnosis [data-field="hint"]').textContent(), new RegExp(`\\(${plural(expected.messagesTried, 'message')} tried\\)$`));
      assert.match(await field(page, 'trust'), /UNVERIFIED/);
      assert.match(await field(page, 'amount'), /^1 minor units/, 'the tampered amount is what the parse shows');
    }));

  test('forged with the attacker key: INVALID_PUBLIC_KEY, the key is at fault', () =>
    withPage(async ({ page }) => {
      const forged = pkg.signRequest(validCase.body, attackerKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const verdict = await check(page, { body: forged.body, headers: headerLines(forged.headers) });
      assert.match(verdict, /Not verified: INVALID_PUBLIC_KEY/);
      assert.match(verdict, /Hint: x-access-token carries a different public key/);
      await diagnose(page);
      assert.match(await diagnosis(page), /Key at fault/);
      // The configured key and the token's key, by their SPKI fingerprints.
      const line = page.locator('#c-diagnosis [data-field="key-at-fault"]');
      await page.waitForFunction(() => document.querySelector('#c-diagnosis [data-field="key-at-fault"]')?.dataset.fingerprint);
      assert.equal(await line.getAttribute('data-fingerprint'), fingerprint(projectKeyPem));
      assert.equal(await line.getAttribute('data-token-fingerprint'), fingerprint(attackerKey.publicKeyPem()));
      assert.equal(await line.textContent(), `Key at fault: the configured key, ${grouped(fingerprint(projectKeyPem))}. x-access-token carries another key, ${grouped(fingerprint(attackerKey.publicKeyPem()))}.`);
      assert.match(await page.locator('#c-key-msg').textContent(), /^$/, 'the pasted key itself is fine');
      assert.match(await field(page, 'trust'), /UNVERIFIED/);
    }));

  test("signed with the booleans: 'digit' variant: the diagnosis names it and verifying with it succeeds", () =>
    withPage(async ({ page }) => {
      const body = callbackWithBoolean();
      const signed = pkg.signRequest(body, projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000, options: { booleans: 'digit' } });
      const verdict = await check(page, { body: signed.body, headers: headerLines(signed.headers) });
      assert.match(verdict, /Not verified: INVALID_SIGNATURE/);
      await diagnose(page);
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
      await diagnose(page);
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
      await diagnose(page);
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
      await diagnose(page);
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

  test("the received body's entries and message with the selected rules; a body at fault marks the entries the named profiles sign otherwise", () =>
    withPage(async ({ page }) => {
      // A boolean and a float written 1.0: leaves the profiles write differently. Signed, then changed.
      const body = callbackWithBoolean().replace('"is_test":true', '"is_test":true,"rate":1.0');
      const signed = pkg.signRequest(body, projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const changed = signed.body.replace('150000', '150001');
      await check(page, { body: changed, headers: headerLines(signed.headers) });
      const spec = pkg.profiles().find((p) => p.name === 'spec').options;
      const steps = pkg.canonicalSteps(changed, '1700000000', spec);
      assert.equal(await page.locator('#c-entries').textContent(), `${steps.entries.join('\n')}\n`);
      assert.equal(await page.locator('#c-message').textContent(), steps.message);
      assert.equal(await page.locator('#c-entries mark').count(), 0, 'nothing marked before a diagnosis');
      await diagnose(page);
      assert.equal(pkg.diagnoseCallback(changed, signed.headers, projectKeyPem).cause, 'body');
      assert.doesNotMatch(await page.locator('#c-diagnosis').textContent(), /null|undefined/);
      const others = pkg.profiles().map((p) => new Set(pkg.canonicalSteps(changed, '0', p.options).entries));
      const expected = steps.entries.filter((e) => others.some((set) => !set.has(e)));
      assert.ok(expected.length >= 2, `the body has entries the profiles write otherwise: ${expected}`);
      assert.deepEqual(await page.locator('#c-entries mark.differs-entry').allTextContents(), expected.map((e) => `${e}\n`));
      assert.match(await page.locator('#c-received-note').textContent(), new RegExp(`^Marked: ${expected.length} entries the named profiles would sign otherwise`));
      assert.match(await page.locator('#c-received-note [data-field="differs-list"]').textContent(), /is_test:True → public-js-client: .*is_test:true/);
      // Other rules selected: the entries and message follow them.
      await page.selectOption('#c-booleans', 'lower');
      await settle(page);
      assert.equal(await page.locator('#c-entries').textContent(), `${pkg.canonicalSteps(changed, '1700000000', { ...spec, booleans: 'lower' }).entries.join('\n')}\n`);
    }));

  test("the configured key's fingerprint (SHA-256 of its SPKI DER); a PKCS#1 PEM of the same key has the same one", () =>
    withPage(async ({ page }) => {
      await check(page, { body: validCase.body, headers: headerLines(validCase.headers) });
      const note = page.locator('#c-key-fingerprint');
      await page.waitForFunction(() => document.querySelector('#c-key-fingerprint').dataset.fingerprint);
      assert.equal(await note.getAttribute('data-fingerprint'), fingerprint(projectKeyPem));
      assert.match(await note.textContent(), new RegExp(grouped(fingerprint(projectKeyPem))));
      const pkcs1 = crypto.createPublicKey(projectKeyPem).export({ type: 'pkcs1', format: 'pem' });
      await page.fill('#c-key', pkcs1);
      await settle(page);
      assert.equal(await note.getAttribute('data-fingerprint'), fingerprint(projectKeyPem));
      // Step 2's key: the fingerprint of its public key, the same one.
      await page.fill('#s-key', readKey('rsa2048.pkcs8.pem'));
      await page.waitForFunction(() => document.querySelector('#s-public-fingerprint').dataset.fingerprint);
      assert.equal(await page.getAttribute('#s-public-fingerprint', 'data-fingerprint'), fingerprint(projectKeyPem));
    }));

  test('plurals: "1 message tried", "N messages tried"', () =>
    withPage(async ({ page }) => {
      // A body with one string leaf: one message whatever the rules; the tampered vector: more.
      const small = pkg.signRequest('{"a":"b"}', projectSigningKey, { merchantId: 'merchant-1', timestamp: 1700000000 });
      const seen = new Set();
      for (const [body, headers] of [['{"a":"c"}', small.headers], [tamperedCase.body, tamperedCase.headers]]) {
        await check(page, { body, headers: headerLines(headers) });
        await diagnose(page);
        const n = pkg.diagnoseCallback(body, headers, projectKeyPem).messagesTried;
        seen.add(n === 1);
        assert.match(await page.locator('#c-diagnosis [data-field="hint"]').textContent(), new RegExp(`\\(${n} ${n === 1 ? 'message' : 'messages'} tried\\)$`));
      }
      assert.deepEqual([...seen].sort(), [false, true], 'one count of 1 and one above');
    }));
});

describe('page header', () => {
  test('says what is sent where, and when: only Send, only to a local sandbox, never a private key or secret', () =>
    withPage(async ({ page }) => {
      const lede = await page.locator('#lede').textContent();
      assert.doesNotMatch(lede, /no key or body is sent anywhere/);
      assert.match(lede, /only when you press Send in step 2/);
      assert.match(lede, /never the private key or the HMAC secret/);
      assert.match(lede, /http:\/\/127\.0\.0\.1:PORT.*http:\/\/localhost:PORT/s);
      assert.equal(await page.locator('#s-send').textContent(), 'Send', 'the button the header names');
    }));
});
