// The sandbox's HTML pages, in the debugger page's look (its stylesheet, www/style.css,
// served at /sandbox/style.css): the form_url page of one payment (its state, a button for
// each move its state allows, its callback deliveries with "deliver again", its history),
// and the index of /sandbox/ (payments, scenarios, recent deliveries). Both refresh
// themselves: every 2 s a script fetches the page again and swaps in its <main>, unless a
// field of it has the focus. Every value shown is escaped.
import fs from 'node:fs';

import { STATES } from './data.mjs';
import { SCENARIOS, allowed, allowedMoves, stateName } from './payments.mjs';

/** Milliseconds between two refreshes of a page. */
export const REFRESH_MS = 2000;

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const time = (ms) => (ms === null || ms === undefined ? '' : new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z'));
const isFinal = (payment) => STATES.some((s) => s.final && s.status === payment.status);
const tag = (payment) => `<span class="tag ${isFinal(payment) ? 'final' : 'intermediate'}">${escape(stateName(payment))}</span>`;

let stylesheet;
/** The debugger page's stylesheet, beside the sandbox in the package (pkg/www/style.css); null when absent. */
export function debuggerStylesheet() {
  if (stylesheet === undefined) {
    try {
      stylesheet = fs.readFileSync(new URL('../www/style.css', import.meta.url), 'utf8');
    } catch {
      stylesheet = null;
    }
  }
  return stylesheet;
}

/** The refresh: fetch this page, swap in its <main> (not while a field of it is in use), say when. */
const REFRESH_SCRIPT = `
(() => {
  const status = document.getElementById('refresh-status');
  let count = 0;
  async function refresh() {
    const live = document.getElementById('live');
    if (live.contains(document.activeElement) && document.activeElement.matches('input, select, textarea')) return;
    try {
      const res = await fetch(location.href, { headers: { accept: 'text/html' }, cache: 'no-store' });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      const next = new DOMParser().parseFromString(await res.text(), 'text/html').getElementById('live');
      if (next) live.replaceWith(next);
      count += 1;
      document.body.dataset.refreshes = String(count);
      status.textContent = 'Refreshed every ${REFRESH_MS / 1000} s; last ' + new Date().toLocaleTimeString();
    } catch (error) {
      status.textContent = 'Could not refresh: ' + error.message;
    }
  }
  setInterval(refresh, ${REFRESH_MS});
})();`;

function layout(title, lede, nav, main) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/sandbox/style.css"></head>
<body data-refreshes="0">
<header class="page-header"><div class="wrap">
<h1>${escape(title)}</h1>
<p class="lede">${lede}</p>
<nav>${nav}</nav>
<p class="load-status" id="refresh-status">Refreshed every ${REFRESH_MS / 1000} s</p>
</div></header>
<main class="wrap" id="live">
${main}
</main>
<footer class="wrap page-footer"><p>payment-intake sandbox: state lives in memory; not for production.</p></footer>
<script>${REFRESH_SCRIPT}</script>
</body></html>
`;
}

const section = (title, body, id = '') => `<section class="tool"${id ? ` id="${id}"` : ''}><h2>${escape(title)}</h2>\n${body}\n</section>`;

/** A delivery's answer: the HTTP status with the receiver's code, the error, or lost. */
function answer(d) {
  if (d.lost) return 'lost (loseCallbacks): never sent';
  if (d.status === null) return `no answer: ${d.error}`;
  return d.code ? `HTTP ${d.status} ${d.code}` : `HTTP ${d.status}`;
}

/** The deliveries as a table, newest first; `withPayment` adds the payment's column (the index). */
function deliveriesTable(deliveries, withPayment = false) {
  if (deliveries.length === 0) return '<p class="note">No callback delivered yet.</p>';
  const head = ['time', ...(withPayment ? ['payment'] : []), 'callback', 'URL', 'answer', 'attempt', 'next retry'];
  const rows = deliveries.map((d) => {
    const cls = d.status === 200 ? 'good' : 'bad';
    const attempt = `${d.attempt}${d.manual ? ' (delivered again)' : ''}${d.duplicate ? ' (duplicate)' : ''}${d.gaveUp ? ', given up' : ''}`;
    const cells = [
      `<th scope="row">${escape(time(d.at))}</th>`,
      ...(withPayment ? [`<td><a href="/sandbox/pay/${encodeURIComponent(d.requestId)}">${escape(d.paymentId)}</a></td>`] : []),
      `<td>#${escape(d.callback)} ${escape(d.kind)}: ${escape(d.state)}</td>`,
      `<td><code>${escape(d.url)}</code></td>`,
      `<td><span class="verdict ${cls}">${escape(answer(d))}</span></td>`,
      `<td>${escape(attempt)}</td>`,
      `<td>${escape(time(d.nextRetryAt))}</td>`,
    ];
    return `<tr class="delivery">${cells.join('')}</tr>`;
  });
  const columns = head.map((h) => `<th scope="col">${h}</th>`).join('');
  return `<table class="headers deliveries"><thead><tr>${columns}</tr></thead><tbody>\n${rows.reverse().join('\n')}\n</tbody></table>`;
}

/** The form_url page of one payment; `refused`: the scenario a form just asked for in vain. */
export function paymentPage(payment, { refused } = {}) {
  const id = encodeURIComponent(payment.requestId);
  const facts = [
    ['state', tag(payment)],
    ['status_description', escape(payment.statusDescription ?? '')],
    ['payment_id', escape(payment.paymentId)],
    ['project_id', escape(payment.projectId)],
    ['request_id', `<code>${escape(payment.requestId)}</code>`],
    ['amount', escape(`${payment.amount} ${payment.currency ?? ''} (minor units)`)],
    ['method', escape(payment.widgetMethod ?? payment.method ?? '')],
    ...(payment.callbacksLost ? [['callbacks', 'lost (loseCallbacks): none of its callbacks is sent; its info operation answers its state']] : []),
    ['expires', escape(time(payment.expirationDate * 1000))],
    ...Object.entries(payment.requisites ?? {}).map(([name, value]) => [`recipient ${escape(name)}`, escape(value)]),
  ].map(([name, value]) => `<dt>${name}</dt><dd>${value}</dd>`);
  const final = isFinal(payment);
  const moves = allowedMoves(payment);
  const refusedNote = Object.hasOwn(SCENARIOS, refused ?? '')
    ? `<p class="banner warn">'${escape(refused)}' was not possible in this state; the moves it allows now: ${escape(moves.join(', ') || 'none')}</p>`
    : '';
  const buttons = Object.entries(SCENARIOS)
    .map(([name, scenario]) => {
      const amount = name === 'different-amount' ? ' <input name="amount" type="number" min="1" placeholder="amount received" style="max-width: 12rem">' : '';
      const action = `/sandbox/payments/${id}/${name}`;
      const disabled = allowed(payment, name) ? '' : ' disabled';
      return `<form method="post" action="${escape(action)}" class="inline"><button${disabled}>${escape(name)}</button>${amount} <span class="note">${escape(scenario.about)}</span></form>`;
    })
    .join('\n');
  const again = payment.lastCallback && !payment.callbacksLost
    ? `<form method="post" action="/sandbox/payments/${escape(id)}/deliver-again" class="inline"><button id="deliver-again">Deliver again</button> <span class="note">sends callback #${escape(payment.lastCallback.seq)} (${escape(payment.lastCallback.state)}) once more, now, signed anew</span></form>`
    : `<p class="note">No callback to deliver again: ${payment.callbacksLost ? 'its callbacks are lost (loseCallbacks)' : 'the payment has sent none (no callback URL for its moves so far)'}.</p>`;
  const history = payment.history.map((h) => `<li>${escape(time(h.at))}: ${escape(stateName(h))}${h.statusDescription ? ` '${escape(h.statusDescription)}'` : ''}</li>`).join('');
  const main = [
    section('Payment', `<dl class="facts">${facts.join('')}</dl>`),
    section(final ? 'Final state' : 'Make the next move', `${refusedNote}${final ? '<p>The payment is final; nothing moves it any more.</p>' : buttons}`, 'moves'),
    section('Callback deliveries', `${deliveriesTable(payment.deliveries)}\n${again}`, 'deliveries'),
    section('History', `<ol class="steps">${history}</ol>`),
  ].join('\n');
  const nav = `<a href="/sandbox/">All payments</a> <a href="/sandbox/payments/${escape(id)}">This payment as JSON</a>`;
  return layout(`Sandbox payment ${payment.paymentId}`, 'A payment in the payment-intake sandbox: state lives in memory; not for production.', nav, main);
}

/** The index of /sandbox/ as HTML, from the same object the JSON index is. */
export function indexPage(index) {
  const payments = index.payments.length
    ? `<table class="headers"><thead><tr><th scope="col">payment_id</th><th scope="col">project_id</th><th scope="col">state</th><th scope="col">amount</th><th scope="col">deliveries</th></tr></thead><tbody>${index.payments
      .map((p) => `<tr><th scope="row"><a href="${escape(p.page)}">${escape(p.paymentId)}</a></th><td>${escape(p.projectId)}</td><td>${tag(p)}</td><td>${escape(`${p.amount} ${p.currency ?? ''}`)}</td><td>${escape(p.deliveries)}</td></tr>`)
      .join('')}</tbody></table>`
    : '<p class="note">No payment yet: create one with a signed request to an operation of the spec.</p>';
  const scenarios = index.scenarios.map((s) => `<dt><code>${escape(s.name)}</code></dt><dd>${escape(s.about)} <span class="note">(from ${escape(s.from.join(', '))})</span></dd>`).join('');
  const endpoints = index.endpoints.map((e) => `<dt><code>${escape(`${e.method} ${e.path}`)}</code></dt><dd>${escape(e.about)}</dd>`).join('');
  const main = [
    section('Payments', payments, 'payments'),
    section('Recent callback deliveries', deliveriesTable([...index.deliveries].reverse(), true), 'deliveries'),
    section('Keys', `<dl class="facts"><dt>requests</dt><dd>signed with the private key of the merchant's public key <code>${escape(index.merchantKey)}</code> (given as <code>merchantKey</code>, or <code>--merchant-key merchant-public.pem</code>), with <code>x-access-merchant-id: ${escape(index.merchantId)}</code></dd><dt>callbacks</dt><dd>verify them with <a href="${escape(index.servicePublicKey)}" download="service-public.pem">service-public.pem</a>, the service's public key</dd></dl>`, 'keys'),
    section('Scenarios', `<dl class="facts">${scenarios}</dl>`),
    section('Endpoints', `<dl class="facts">${endpoints}</dl>`),
  ].join('\n');
  const lede = `${escape(index.url)}, merchant <code>${escape(index.merchantId)}</code>: state lives in memory; not for production.`;
  return layout('payment-intake sandbox', lede, '<a href="/sandbox/?format=json">This index as JSON</a>', main);
}
