// The sandbox's own endpoint, under /sandbox/ (no spec path starts so), unsigned:
//   GET  /sandbox/payments                         every payment, JSON
//   GET  /sandbox/payments/REQUEST_ID              one payment, JSON
//   POST /sandbox/payments/REQUEST_ID/SCENARIO     force the payment's next move now
//        (SCENARIO: a name of SCENARIOS; 'different-amount' takes `amount` as JSON or form data)
//   GET  /sandbox/pay/REQUEST_ID                   the form_url page: the payment, and a
//        button for each scenario its state allows
// A POST from the page's form answers 303 back to the page; any other answers JSON.
import { MoveRefused, SCENARIOS, allowed, publicPayment } from './payments.mjs';

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function pageHtml(payment) {
  const state = payment.subStatus ? `${payment.status}:${payment.subStatus}` : payment.status;
  const rows = [
    ['payment_id', payment.paymentId],
    ['project_id', payment.projectId],
    ['request_id', payment.requestId],
    ['state', state],
    ['status_description', payment.statusDescription ?? ''],
    ['amount', `${payment.amount} ${payment.currency ?? ''} (minor units)`],
    ['method', payment.widgetMethod ?? payment.method ?? ''],
    ['expires', new Date(payment.expirationDate * 1000).toISOString()],
    ...Object.entries(payment.requisites ?? {}).map(([name, value]) => [`recipient ${name}`, value]),
  ];
  const table = rows.map(([name, value]) => `<tr><th>${escape(name)}</th><td>${escape(value)}</td></tr>`).join('\n');
  const buttons = Object.entries(SCENARIOS)
    .map(([name, scenario]) => {
      const amount = name === 'different-amount' ? ' <input name="amount" type="number" min="1" placeholder="amount received">' : '';
      const action = `/sandbox/payments/${encodeURIComponent(payment.requestId)}/${name}`;
      const disabled = allowed(payment, name) ? '' : ' disabled';
      return `<form method="post" action="${escape(action)}"><button${disabled}>${escape(name)}</button>${amount} <small>${escape(scenario.about)}</small></form>`;
    })
    .join('\n');
  const final = payment.status === 'success' || payment.status === 'decline';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox payment ${escape(payment.paymentId)}</title>
${final ? '' : '<meta http-equiv="refresh" content="3">'}
<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:50em}th{text-align:left;padding-right:1em}form{margin:.4em 0}</style></head>
<body><h1>Sandbox payment</h1>
<p><strong>payment-intake sandbox: state lives in memory; not for production.</strong></p>
<table>${table}</table>
<h2>${final ? 'Final state' : 'Make the next move'}</h2>
${final ? '<p>The payment is final; nothing moves it any more.</p>' : buttons}
</body></html>
`;
}

/** Handles a /sandbox/ request: `send(status, body, contentType?)`. */
export function handleSandbox({ book, method, pathname, fields, form, send }) {
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [, section, requestId, scenario] = parts;
  if (section === 'payments' && parts.length === 2 && method === 'GET') return send(200, book.all().map(publicPayment));
  const payment = requestId === undefined ? null : book.byRequestId(requestId);
  if ((section === 'payments' || section === 'pay') && requestId !== undefined && !payment) {
    return send(404, { error: `no payment has request_id '${requestId}'` });
  }
  if (section === 'pay' && parts.length === 3 && method === 'GET') return send(200, pageHtml(payment), 'text/html; charset=utf-8');
  if (section === 'payments' && parts.length === 3 && method === 'GET') return send(200, publicPayment(payment));
  if (section === 'payments' && parts.length === 4 && method === 'POST') {
    if (!Object.hasOwn(SCENARIOS, scenario)) {
      return send(404, { error: `no scenario '${scenario}'; the scenarios: ${Object.keys(SCENARIOS).join(', ')}` });
    }
    const amount = fields.amount === undefined || fields.amount === '' ? undefined : Number(fields.amount);
    try {
      book.force(payment, scenario, { amount });
    } catch (e) {
      if (!(e instanceof MoveRefused)) throw e;
      return form ? send(303, '', undefined, `/sandbox/pay/${requestId}`) : send(409, { error: e.message, payment: publicPayment(payment) });
    }
    return form ? send(303, '', undefined, `/sandbox/pay/${requestId}`) : send(200, publicPayment(payment));
  }
  return send(404, { error: 'not a sandbox endpoint; see README.md, "Local sandbox"' });
}
