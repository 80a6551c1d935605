// Renders a callback model (from verifyCallback or parseCallback) as a
// readable summary: status and finality, idempotency key, amounts,
// requisites and payment instruction; and a diagnosis (diagnoseCallback) with
// every rule it names. Text only (textContent), never HTML.
import { fromMinorUnits } from '../pkg/web/index.js';
import { fingerprintText } from './fingerprint.js';
import { defaultProfile, describeProfile, el, formatUnix, plural } from './dom.js';

const present = (v) => v !== null && v !== undefined && v !== '';

/** `150050 (1500.50 RUB)` when the currency is known, else the minor amount alone. */
function amountText(minor, currency) {
  if (!present(minor)) return null;
  if (!present(currency)) return `${minor} minor units`;
  try {
    return `${minor} minor units = ${fromMinorUnits(Number(minor), currency)} ${currency}`;
  } catch {
    return `${minor} minor units (${currency})`;
  }
}

const timeText = (seconds) => (present(seconds) ? `${seconds} · ${formatUnix(seconds) || 'not a valid time'}` : null);

/** A `<dl>` of the rows whose value is present; a row value may be a Node. */
function list(rows, className = 'facts') {
  const dl = el('dl', { class: className });
  for (const [term, value, testId] of rows) {
    if (!present(value)) continue;
    dl.append(el('dt', {}, term), el('dd', { 'data-field': testId }, value));
  }
  return dl;
}

const code = (text) => el('code', {}, text);

/** The callback's state, what it means, its ids and amounts. */
function summary(callback, copyId) {
  const info = callback.paymentInfo ?? {};
  const state = callback.subStatus ? `${callback.status}:${callback.subStatus}` : callback.status;
  const kind = callback.isFinal ? 'final' : 'intermediate';
  const stateLine = el('span', { class: 'state' }, code(state), ' ', el('span', { class: `tag ${kind}` }, kind));
  if (!callback.isKnownState) stateLine.append(' ', el('span', { class: 'tag unknown' }, 'not in the spec’s state table'));

  const keyId = `${copyId}-key`;
  const idempotency = el(
    'span',
    { class: 'inline' },
    el('code', { id: keyId }, callback.idempotencyKey),
    el('button', { type: 'button', class: 'copy small', 'data-copy': keyId }, 'Copy'),
  );
  // The d.ts names the text `text`; the runtime sends `description`: accept both.
  const reasonText = callback.declineReason?.description ?? callback.declineReason?.text;
  const decline = callback.declineReason ? `${callback.declineReason.code}${reasonText ? `: ${reasonText}` : ''}` : null;
  return list([
    ['Status', stateLine, 'status'],
    ['Meaning', callback.isFinal ? 'Final: the payment will not change any more.' : 'Intermediate: more callbacks will follow.', 'meaning'],
    ['Description', callback.statusDescription, 'description'],
    ['Decline reason', decline, 'decline'],
    ['Idempotency key', idempotency, 'idempotency'],
    ['Project · payment', callback.projectId || callback.paymentId ? `${callback.projectId} · ${callback.paymentId}` : null, 'ids'],
    ['Request id', callback.requestId, 'request'],
    ['Amount', amountText(info.amount, info.currency), 'amount'],
    ['Amount before appeal', info.oldAmount !== info.amount ? amountText(info.oldAmount, info.currency) : null, 'old-amount'],
    ['Initial amount', info.initialAmount !== info.amount ? amountText(info.initialAmount, info.currency) : null, 'initial-amount'],
    ['Method', [info.method, info.widgetMethod].filter(present).join(' · ') || null, 'method'],
    ['Type', info.type, 'type'],
    ['Expires', timeText(info.expirationDate), 'expires'],
    ['Payment form', callback.integration?.formUrl, 'form-url'],
  ]);
}

/** The recipient's requisites, or a note that there are none. */
function requisites(req) {
  return req
    ? list([
        [req.masked ? 'Pan (masked)' : 'Pan', req.pan, 'req-pan'],
        [req.masked ? 'Card holder (masked)' : 'Card holder', req.cardHolder, 'req-holder'],
        ['Bank', [req.bankName, req.bankCountry].filter(present).join(' · ') || null, 'req-bank'],
        ['Currency', req.currency, 'req-currency'],
      ])
    : el('p', { class: 'note' }, 'None. Requisites come only with processing:awaiting_confirm and processing:paid.');
}

/** The payment instruction (display data), or a note that there is none. */
function instruction(ins, info) {
  if (!ins) return el('p', { class: 'note' }, 'None in this callback.');
  return list([
    ['Pay to', ins.pan, 'ins-pan'],
    ['Phone', ins.phone, 'ins-phone'],
    ['Card holder', ins.cardHolder, 'ins-holder'],
    ['Amount', amountText(ins.amount, ins.currency ?? info.currency), 'ins-amount'],
    ['Valid until', timeText(ins.validUntil), 'ins-valid'],
    ['Lifetime', present(ins.lifetime) ? `${ins.lifetime} s` : null, 'ins-lifetime'],
    ['Bank', [ins.bankName, ins.bankCountry].filter(present).join(' · ') || null, 'ins-bank'],
    ['Confirm URL', ins.confirmUrl, 'ins-confirm'],
    ['Reject URL', ins.rejectUrl, 'ins-reject'],
    ...ins.other.map((item) => [item.title, typeof item.data === 'string' ? item.data : JSON.stringify(item.data), `ins-${item.title}`]),
  ]);
}

export function renderCallback(container, callback, { verified, verification, copyId }) {
  const banner = verified
    ? el('p', { class: 'banner good', 'data-field': 'trust' }, '✓ Verified callback: signed by the configured key')
    : el('p', { class: 'banner warn', 'data-field': 'trust' }, '⚠ UNVERIFIED: parsed without a valid signature. Do not act on it.');
  const parts = [
    banner,
    summary(callback, copyId),
    el('h4', {}, 'Recipient requisites'),
    requisites(callback.requisites),
    el('h4', {}, 'Payment instruction (display data)'),
    instruction(callback.instruction, callback.paymentInfo ?? {}),
  ];
  if (verification) {
    parts.push(el('h4', {}, 'Signature'));
    parts.push(
      list([
        ['Signed at', timeText(verification.timestamp), 'signed-at'],
        ['Merchant id', verification.merchantId, 'merchant'],
      ]),
    );
  }
  container.replaceChildren(...parts);
}

const ALGORITHM_NAMES = { rsa: 'RSA (PKCS#1 v1.5, SHA-256)', hmac: 'HMAC-SHA512' };

/** One row per rule of `options` for `algorithm`: [label, value, data-field], differing ones marked. */
function ruleRows(options, algorithm) {
  const rows = [
    ['Booleans', 'booleans'], ['Falsy values', 'falsy'], ['Numbers', 'numbers'], ['Entry order', 'order'], ['base64 “=” padding', 'padding'],
    ...(algorithm === 'hmac' ? [['Signature text', 'signatureEncoding']] : [['Digest', 'digest'], ['Token encoding', 'token']]),
  ];
  const defaults = defaultProfile();
  return rows.map(([label, name]) => {
    const value = name === 'padding' ? (options.padding ? 'on' : 'off') : options[name];
    const differs = options[name] !== defaults[name];
    // Marked like the sentence's differing members, under another class: the sentence's `.differs` stay the ones to count.
    return [label, el(differs ? 'strong' : 'span', { class: differs ? 'off-default' : undefined, title: differs ? 'differs from the spec profile' : undefined }, value), `rule-${name}`];
  });
}

/** The named profile whose rules are `options` (for `algorithm`'s members), or null. */
function profileNameOf(options, algorithm, named) {
  const skip = algorithm === 'hmac' ? ['digest', 'token'] : ['signatureEncoding'];
  const row = named.find((p) => Object.keys(p.options).every((k) => skip.includes(k) || p.options[k] === options[k]));
  return row ? row.name : null;
}

/** What a failed match says, by its cause. */
function causeText(d, keyKind) {
  if (d.cause === 'key') {
    if (keyKind === 'hmac') {
      return 'Key at fault: the secret given did not make this signature under any rules. Check the secret against the admin panel (or the callback is forged).';
    }
    if (!d.tokenMatchesKey) {
      return 'Key at fault: x-access-token carries a different public key than the one pasted. The callback was signed with another key: forged, or your key is outdated (take the current one from the admin panel).';
    }
    return 'Key at fault: the key pasted did not make this signature under any rules.';
  }
  if (d.cause === 'body') {
    return 'Body or timestamp at fault: the key is yours, but no combination of rules verifies. The body or the timestamp was changed after signing (or the signature was made with another key and the token copied).';
  }
  if (d.cause === 'rule') {
    return 'A rule we do not know: the key and body look right, but no combination of the known rules verifies. The sender builds the message some other way.';
  }
  return 'No combination of rules verifies.';
}

/**
 * The "key at fault" line: the configured key's fingerprint and, when the token carries
 * another key, that one's; filled in when the fingerprints (promises of hex or null) resolve.
 */
function keyAtFault(keyKind, fingerprints) {
  const line = el('p', { class: 'key-at-fault', 'data-field': 'key-at-fault' }, keyKind === 'hmac' ? 'Key at fault: the configured HMAC secret.' : 'Key at fault: the configured key.');
  if (!fingerprints) return line;
  Promise.all([fingerprints.key, fingerprints.token]).then(([key, token]) => {
    if (!key) return;
    line.dataset.fingerprint = key;
    const parts = [`Key at fault: the configured key, ${fingerprintText(key)}.`];
    if (token && token !== key) {
      line.dataset.tokenFingerprint = token;
      parts.push(`x-access-token carries another key, ${fingerprintText(token)}.`);
    }
    line.textContent = parts.join(' ');
  });
  return line;
}

/**
 * Fills `box` with the diagnosis of a failed verification: when a combination of rules
 * verifies, the algorithm, the profile and every rule, with a button that calls
 * `onUseOptions(d.options)`; else the cause (key, body or rule) and the hint.
 * `keyKind` is the kind of key the user gave ('rsa' or 'hmac'); `named` the profiles() rows;
 * `hint` the diagnosis's hint as the page words it; `fingerprints` (RSA) `{ key, token }`,
 * promises of the configured key's and the token's key's fingerprints.
 */
export function renderDiagnosis(box, d, { keyKind, named, hint = d.hint, fingerprints = null, onUseOptions }) {
  const items = [el('h4', {}, 'Diagnosis')];
  const algorithm = d.algorithm ?? keyKind;
  if (d.matched) {
    const name = profileNameOf(d.options, algorithm, named);
    items.push(
      el('p', { 'data-field': 'diagnosis' }, 'The signature is genuine, but the sender built the message with another canonical variant: ', describeProfile(d.options, algorithm), '.'),
      list([
        ['Algorithm', ALGORITHM_NAMES[algorithm] ?? algorithm, 'algorithm'],
        ['Profile', name ?? 'none named (custom rules)', 'profile'],
        ...ruleRows(d.options, algorithm),
      ]),
    );
    if (d.matching.length > 1) {
      items.push(el('p', { class: 'note', 'data-field': 'matching' }, `${d.matching.length} combinations of rules verify: this body has no value they write differently, so the rules above are the likeliest, not the only ones.`));
    }
    items.push(el('button', { type: 'button', id: 'c-use-variant' }, 'Verify with these options'));
  } else {
    items.push(
      el('p', { 'data-field': 'diagnosis' }, causeText(d, keyKind)),
      d.cause === 'key' ? keyAtFault(keyKind, fingerprints) : null,
      d.cause === 'body' ? el('p', { class: 'note', 'data-field': 'body-note' }, 'The received body’s entries are below; those the named profiles would sign otherwise are marked.') : null,
      list([
        ['Cause', d.cause ?? 'unknown', 'cause'],
        ['Algorithm', ALGORITHM_NAMES[keyKind] ?? keyKind, 'algorithm'],
        ['Token encoding (header)', d.token, 'token'],
        ['Error without the diagnosis', d.defaultError ? d.defaultError.code : null, 'default-error'],
      ]),
    );
  }
  items.push(el('p', { class: 'note', 'data-field': 'hint' }, `Hint: ${hint} (${plural(d.messagesTried, 'message')} tried)`));
  box.replaceChildren(...items.filter(Boolean));
  box.hidden = false;
  box.querySelector('#c-use-variant')?.addEventListener('click', () => onUseOptions(d.options));
}
