// Renders a callback model (from verifyCallback or parseCallback) as a
// readable summary: status and finality, idempotency key, amounts,
// requisites and payment instruction. Text only (textContent), never HTML.
import { fromMinorUnits } from '../pkg/web/index.js';
import { el, formatUnix } from './dom.js';

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

export function renderCallback(container, callback, { verified, verification, copyId }) {
  const info = callback.paymentInfo ?? {};
  const state = callback.subStatus ? `${callback.status}:${callback.subStatus}` : callback.status;
  const kind = callback.isFinal ? 'final' : 'intermediate';
  const banner = verified
    ? el('p', { class: 'banner good', 'data-field': 'trust' }, '✓ Verified callback: signed by the configured key')
    : el('p', { class: 'banner warn', 'data-field': 'trust' }, '⚠ UNVERIFIED: parsed without a valid signature. Do not act on it.');

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

  const parts = [
    banner,
    list([
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
    ]),
  ];

  const req = callback.requisites;
  parts.push(el('h4', {}, 'Recipient requisites'));
  parts.push(
    req
      ? list([
          [req.masked ? 'Pan (masked)' : 'Pan', req.pan, 'req-pan'],
          [req.masked ? 'Card holder (masked)' : 'Card holder', req.cardHolder, 'req-holder'],
          ['Bank', [req.bankName, req.bankCountry].filter(present).join(' · ') || null, 'req-bank'],
          ['Currency', req.currency, 'req-currency'],
        ])
      : el('p', { class: 'note' }, 'None. Requisites come only with processing:awaiting_confirm and processing:paid.'),
  );

  const ins = callback.instruction;
  parts.push(el('h4', {}, 'Payment instruction (display data)'));
  if (ins) {
    parts.push(
      list([
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
      ]),
    );
  } else {
    parts.push(el('p', { class: 'note' }, 'None in this callback.'));
  }

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
