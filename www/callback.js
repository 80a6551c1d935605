// Tool 3, "Check a callback": verifies a pasted callback (verifyCallback) with an
// RSA public key or an HMAC secret, explains a failure (diagnoseCallback: the
// sender's rules, or whether the key, the body or a rule is at fault) and shows
// what the callback says; the canonical entries and message of the received body
// (received.js), and the fingerprint of the configured key (fingerprint.js).
import { HmacKey, VerifyingKey, diagnoseCallback, parseCallback, profiles, signRequest, verifyCallback } from '../pkg/web/index.js';
import { renderCallback, renderDiagnosis } from './callback-view.js';
import { $, debounce, describeError, el, plural, profileLine, readProfile, setFieldMessage, wireKeyChoice, wireProfile, writeProfile } from './dom.js';
import { fingerprintText, keyFingerprint, tokenFingerprint } from './fingerprint.js';
import { parseHeaderText } from './headers.js';
import { renderReceived } from './received.js';

// Which input a thrown error code points at.
const FIELD_OF_CODE = {
  MISSING_HEADER: 'c-headers', INVALID_HEADER: 'c-headers', INVALID_TIMESTAMP: 'c-headers', TIMESTAMP_OUT_OF_TOLERANCE: 'c-headers',
  INVALID_JSON: 'c-body', BODY_NOT_OBJECT: 'c-body', BODY_TOO_LARGE: 'c-body', BODY_TOO_DEEP: 'c-body',
  DUPLICATE_KEY: 'c-body', INVALID_NUMBER: 'c-body', INVALID_BODY: 'c-body', INVALID_CALLBACK: 'c-body',
  INVALID_KEY: 'c-key', KEY_ENCRYPTED: 'c-key', KEY_TYPE_UNSUPPORTED: 'c-key', KEY_SIZE_UNSUPPORTED: 'c-key',
  KEY_EXPONENT_UNSUPPORTED: 'c-key', NO_VERIFYING_KEY: 'c-key',
};
const SIGNATURE_CODES = new Set(['INVALID_SIGNATURE', 'INVALID_PUBLIC_KEY']);

// The package's hints name its functions; on this page the same work is a button.
const HINT_WORDS = [
  [/\bdiagnoseCallback\b/g, 'the Diagnose button (under this verdict)'],
  [/the rules in `options`; pass them to verifyCallback as they are/g, 'the rules listed here; press “Verify with these options” to check with them'],
  [/pass signatureEncoding: '(\w+)'/g, 'choose $1 as “Signature text (HMAC)”'],
];
/** The package's hint worded for this page. */
export const pageHint = (hint) => HINT_WORDS.reduce((text, [word, instead]) => text.replace(word, instead), hint);

/** The x-access-timestamp of header pairs, or null. */
const headerValue = (pairs, name) => pairs.find(([n]) => n.trim().toLowerCase() === name)?.[1]?.trim() ?? null;

function verdict(kind, title, ...lines) {
  $('c-verdict').className = `verdict big ${kind}`;
  $('c-verdict').replaceChildren(el('strong', { 'data-field': 'verdict' }, title), ...lines.filter(Boolean).map((l) => el('span', { class: 'line' }, l)));
}

/** A sample callback (Cyrillic requisites included), signed with `signingKey` (RSA or HMAC). */
function sampleCallback(signingKey, merchantId) {
  const now = Math.floor(Date.now() / 1000);
  const body = {
    project_id: $('b-project-id').value.trim() || 'prj_8f2c',
    general: { request_id: 'req_01HZX', payment_id: $('b-payment-id').value.trim() || 'order-10045' },
    status: { status: 'processing', sub_status: 'awaiting_confirm', status_description: null },
    payment_info: {
      amount: 150050, old_amount: 150050, initial_amount: 150050, currency: 'RUB', lifetime: 600,
      expiration_date: now + 600, updated_date: now, created_date: now - 5,
      method: 'card-p2p', widget_method: null, type: 'payin', payment_system: null,
    },
    recipient_requisites: { pan: '2200700012345678', card_holder: 'ИВАН ПЕТРОВ', bank_name: 'Сбербанк', bank_country: 'RU', currency: 'RUB' },
    integration: { form_url: 'https://pay.example/f/abc', redirect_url: null },
    additional_info: {
      display_data: [
        { type: 'add_info', title: 'recipient_pan', data: '2200700012345678' },
        { type: 'add_info', title: 'recipient_card_holder', data: 'ИВАН ПЕТРОВ' },
        { type: 'add_info', title: 'amount', data: 150050 },
        { type: 'add_info', title: 'currency', data: 'RUB' },
        { type: 'add_info', title: 'valid_until', data: now + 600 },
      ],
    },
  };
  return signRequest(JSON.stringify(body, null, 2), signingKey, { merchantId: merchantId || 'merchant-1', timestamp: now });
}

// Every function below takes `ck`, the checker's state: `named` (the named profiles),
// `keyChoice`, `failed` (the callback that failed its signature check last, for the Diagnose
// button; null otherwise) and `shownKey` (the key whose fingerprint is shown).

/** The key to check with, from the chosen field; its error at that field. `{ key, field, given }`. */
function readKey(ck) {
  // A secret is taken as typed: the library refuses whitespace at the ends, and the page says so at the field.
  return ck.keyChoice.kind() === 'hmac'
    ? keyFrom('c-secret', $('c-secret').value, (text) => HmacKey.fromSecret(text))
    : keyFrom('c-key', $('c-key').value.trim(), (text) => VerifyingKey.fromPem(text));
}

/** A key made from a field's text, or its error shown at the field. */
function keyFrom(field, text, make) {
  if (!text) return { key: null, field, given: false };
  try {
    return { key: make(text), field, given: true };
  } catch (error) {
    setFieldMessage(field, describeError(error));
    return { key: null, field, given: true };
  }
}

/** Shows the fingerprint of the configured public key under its field. */
function showKeyFingerprint(ck) {
  const pem = ck.keyChoice.kind() === 'rsa' ? $('c-key').value.trim() : '';
  if (pem === ck.shownKey) return;
  ck.shownKey = pem;
  const note = $('c-key-fingerprint');
  note.textContent = '';
  delete note.dataset.fingerprint;
  if (!pem) return;
  keyFingerprint(pem).then((hex) => {
    if (ck.shownKey !== pem || !hex) return;
    note.dataset.fingerprint = hex;
    note.textContent = `Fingerprint of this key: ${fingerprintText(hex)} (of its SubjectPublicKeyInfo DER)`;
  });
}

/** The canonical steps of the received body with the selected rules; `highlight` after a diagnosis blamed the body. */
function showReceived(ck, highlight = false) {
  const pairs = parseHeaderText($('c-headers').value).pairs;
  renderReceived({ bodyText: $('c-body').value, timestamp: headerValue(pairs, 'x-access-timestamp'), options: readProfile('c'), named: ck.named, highlight });
}

/** The headers field read, with what was read or not understood said under it. */
function readHeaders() {
  const headers = parseHeaderText($('c-headers').value);
  $('c-headers-note').textContent = headers.pairs.length ? `Read ${plural(headers.pairs.length, 'header')}: ${headers.pairs.map(([n]) => n).join(', ')}` : '';
  if (headers.error) setFieldMessage('c-headers', headers.error);
  else if (headers.ignored.length) setFieldMessage('c-headers', `Not understood: ${headers.ignored.join(' | ')}`, 'warning');
  return headers;
}

function check(ck) {
  for (const id of ['c-body', 'c-headers', 'c-key', 'c-secret']) setFieldMessage(id, '');
  $('c-diagnosis').hidden = true;
  $('c-diagnose').hidden = true;
  ck.failed = null;
  showKeyFingerprint(ck);
  showReceived(ck);
  const rawBody = $('c-body').value;
  const headers = readHeaders();
  if (!rawBody.trim()) {
    verdict('idle', 'Paste a callback body, its headers and the project’s public key (or HMAC secret).');
    $('c-callback').replaceChildren();
    return;
  }
  const { key, field, given } = readKey(ck);
  try {
    if (!key) {
      const what = field === 'c-secret' ? 'HMAC secret' : 'public key';
      verdict(
        'bad',
        given ? `Not verified: the ${what} is not usable.` : `Not verified: no ${what} yet.`,
        field === 'c-secret' ? 'Type the project’s HMAC secret to verify.' : 'Paste the project’s public key (PEM) to verify.',
      );
      showParsed(null);
      return;
    }
    verifyAndShow(ck, rawBody, headers.pairs, key, field);
  } finally {
    key?.free();
  }
}

function verifyAndShow(ck, rawBody, pairs, key, keyField) {
  const options = readProfile('c');
  const kind = ck.keyChoice.kind();
  try {
    const verified = verifyCallback(rawBody, pairs, key, { options });
    const by = kind === 'hmac' ? 'the configured HMAC secret (HMAC-SHA512)' : 'the configured RSA key';
    verdict('good', '✓ Verified', `Signed by ${by} with profile ${profileLine(verified.verification.options, kind)}.`);
    showParsed(verified, verified.verification);
    return;
  } catch (error) {
    // Messages often end with the hint: show the reason, then the hint once.
    const hint = error.hint ?? '';
    const reason = hint && error.message.endsWith(hint) ? error.message.slice(0, -hint.length).replace(/[:\s]+$/, '') : error.message;
    verdict('bad', `✗ Not verified: ${error.code ?? 'ERROR'}`, reason, hint && `Hint: ${pageHint(hint)}`);
    const field = FIELD_OF_CODE[error.code] === 'c-key' ? keyField : FIELD_OF_CODE[error.code];
    if (field) setFieldMessage(field, describeError(error));
    if (SIGNATURE_CODES.has(error.code)) {
      ck.failed = { rawBody, pairs, kind };
      $('c-diagnose').hidden = false;
    }
  }
  showParsed(null);
}

/** The Diagnose button: which rules, key or body the failed callback is down to. */
function diagnose(ck) {
  if (!ck.failed) return;
  const { rawBody, pairs, kind } = ck.failed;
  const { key } = readKey(ck);
  if (!key) return;
  try {
    const d = diagnoseCallback(rawBody, pairs, key);
    const token = headerValue(pairs, 'x-access-token');
    renderDiagnosis($('c-diagnosis'), d, {
      keyKind: kind,
      named: ck.named,
      hint: pageHint(d.hint),
      fingerprints: kind === 'rsa' ? { key: keyFingerprint($('c-key').value.trim()), token: token ? tokenFingerprint(token) : Promise.resolve(null) } : null,
      onUseOptions: (options) => {
        writeProfile('c', options);
        check(ck);
      },
    });
    showReceived(ck, d.cause === 'body');
  } catch (diagnoseError) {
    $('c-diagnosis').replaceChildren(el('p', { class: 'msg error' }, `Diagnosis failed: ${describeError(diagnoseError)}`));
    $('c-diagnosis').hidden = false;
  } finally {
    key.free();
  }
}

/** The callback model; parsed from the raw body (unverified) when `verified` is null. */
function showParsed(verified, verification) {
  let callback = verified;
  if (!callback) {
    try {
      callback = parseCallback($('c-body').value);
    } catch (error) {
      $('c-callback').replaceChildren(el('p', { class: 'msg error', 'data-field': 'parse-error' }, `Cannot read the callback: ${describeError(error)}`));
      if (FIELD_OF_CODE[error.code] === 'c-body') setFieldMessage('c-body', describeError(error));
      return;
    }
  }
  renderCallback($('c-callback'), callback, { verified: Boolean(verified), verification, copyId: 'c-callback' });
}

/** The Sample button: a callback signed with step 2's key, with the key to verify it. */
function fillSample(ck, currentSigner) {
  const signer = currentSigner();
  if (!signer) {
    verdict('bad', 'No signing key yet.', 'Paste or generate a private key (or type an HMAC secret) in step 2 first; the sample is signed with it.');
    return;
  }
  const signed = sampleCallback(signer.key, $('s-merchant').value.trim());
  $('c-body').value = signed.body;
  $('c-headers').value = Object.entries(signed.headers).map(([n, v]) => `${n}: ${v}`).join('\n');
  ck.keyChoice.set(signer.kind);
  $(signer.kind === 'hmac' ? 'c-secret' : 'c-key').value = signer.verifyText;
  check(ck);
}

export function createCallbackChecker({ currentSigner }) {
  const ck = { named: profiles(), keyChoice: null, failed: null, shownKey: null };
  ck.keyChoice = wireKeyChoice('c', 'check', () => check(ck));
  wireProfile('c', ck.named, () => check(ck));
  $('c-diagnose').addEventListener('click', () => diagnose(ck));
  $('check-form').addEventListener('input', debounce(() => check(ck), 200));
  $('check-form').addEventListener('submit', (event) => event.preventDefault());
  $('c-sample').addEventListener('click', () => fillSample(ck, currentSigner));
  check(ck);
}
