// The sandbox's own endpoints, under /sandbox/ (no spec path starts so), unsigned. PAYMENT
// is the payment's request_id, or the merchant's payment_id (with `project_id` in the query,
// JSON or form, needed when that payment_id is used in more than one project):
//   GET  /sandbox/                                 the index: payments, scenarios, recent
//        deliveries, endpoints (HTML for a browser, JSON for Accept: application/json)
//   GET  /sandbox/payments                         every payment with its deliveries, JSON
//   GET  /sandbox/payments/PAYMENT                 one payment, JSON
//   POST /sandbox/payments/PAYMENT/SCENARIO        force the payment's next move now
//        (SCENARIO: a name of SCENARIOS; 'different-amount' takes `amount` as JSON or form
//        data); a move the state does not allow is 409, listing the moves it allows
//   POST /sandbox/payments/PAYMENT/deliver-again   send the payment's last callback once
//        more, now (whatever its attempts so far); answers with the delivery
//   GET  /sandbox/pay/PAYMENT                      the form_url page (pages.mjs)
//   GET  /sandbox/faults                           the failures injected into the operations
//   POST /sandbox/faults                           replace them: { "faults": [...] } (faults.mjs)
//   GET  /sandbox/service-public.pem               the public key callbacks verify with
//   GET  /sandbox/style.css                        the debugger page's stylesheet
// A POST from the page's forms answers 303 back to the page; any other answers JSON.
import { STATES } from './data.mjs';
import { MoveRefused, SCENARIOS, publicPayment, stateName } from './payments.mjs';
import { FAULT_TYPES, FaultError } from './faults.mjs';
import { debuggerStylesheet, indexPage, paymentPage } from './pages.mjs';

/** The /sandbox/ endpoints, as the index lists them. */
export const ENDPOINTS = Object.freeze([
  { method: 'GET', path: '/sandbox/', about: 'this index: HTML for a browser, JSON for Accept: application/json' },
  { method: 'GET', path: '/sandbox/payments', about: 'every payment with its history and callback deliveries (JSON)' },
  { method: 'GET', path: '/sandbox/payments/PAYMENT', about: 'one payment (JSON); PAYMENT: its request_id, or its payment_id (add ?project_id= when used in several projects)' },
  { method: 'POST', path: '/sandbox/payments/PAYMENT/SCENARIO', about: 'force a move now (a scenario below); 409 lists the moves the state allows' },
  { method: 'POST', path: '/sandbox/payments/PAYMENT/deliver-again', about: "send the payment's last callback once more, now, signed anew" },
  { method: 'GET', path: '/sandbox/pay/PAYMENT', about: 'the payment page (form_url): state, moves, deliveries; refreshes itself' },
  { method: 'GET', path: '/sandbox/faults', about: 'the failures injected into the spec operations, with the count each has left' },
  { method: 'POST', path: '/sandbox/faults', about: 'replace them: {"faults": [{"type": "status", "status": 503, "count": 2}, ...]}; [] clears them' },
  { method: 'GET', path: '/sandbox/service-public.pem', about: "the service's public key (SPKI PEM) your receiver verifies callbacks with" },
].map(Object.freeze));

/** Deliveries the index lists, the newest. */
const RECENT_DELIVERIES = 50;

/**
 * The payment PAYMENT names: a request_id, else a payment_id (in `projectId` when given).
 * `{ payment }` or `{ status, error }`.
 */
function findPayment(book, ref, projectId) {
  const byRequest = book.byRequestId(ref);
  if (byRequest && (projectId === undefined || byRequest.projectId === projectId)) return { payment: byRequest };
  if (projectId !== undefined) {
    const payment = book.find(projectId, ref);
    return payment ? { payment } : { status: 404, error: `no payment has request_id '${ref}', nor payment_id '${ref}' in project '${projectId}'` };
  }
  const matches = book.all().filter((p) => p.paymentId === ref);
  if (matches.length === 1) return { payment: matches[0] };
  if (matches.length > 1) {
    const projects = matches.map((p) => p.projectId);
    return { status: 409, error: `payment_id '${ref}' is used in the projects ${projects.map((p) => `'${p}'`).join(', ')}: add project_id (e.g. ?project_id=${encodeURIComponent(projects[0])})`, projects };
  }
  return { status: 404, error: `no payment has request_id or payment_id '${ref}'` };
}

/** The index of /sandbox/: one object, sent as JSON or shown as HTML. */
function index(book, about) {
  const payments = book.all();
  const deliveries = payments
    .flatMap((p) => p.deliveries.map((d) => ({ requestId: p.requestId, projectId: p.projectId, paymentId: p.paymentId, ...d })))
    .sort((a, b) => b.at - a.at)
    .slice(0, RECENT_DELIVERIES);
  return {
    sandbox: 'payment-intake',
    note: 'state in memory; not for production',
    url: about.url,
    merchantId: about.merchantId,
    /** Fingerprint of the merchant's public key requests must be signed for. */
    merchantKey: about.merchantKeyFingerprint,
    servicePublicKey: '/sandbox/service-public.pem',
    payments: payments.map((p) => ({
      requestId: p.requestId,
      projectId: p.projectId,
      paymentId: p.paymentId,
      kind: p.kind,
      status: p.status,
      subStatus: p.subStatus,
      amount: p.amount,
      currency: p.currency,
      deliveries: p.deliveries.length,
      callbacksLost: p.callbacksLost,
      page: `/sandbox/pay/${encodeURIComponent(p.requestId)}`,
      json: `/sandbox/payments/${encodeURIComponent(p.requestId)}`,
    })),
    scenarios: Object.entries(SCENARIOS).map(([name, { from, about: what }]) => ({
      name,
      about: what,
      from: from === null ? ['any state that is not final'] : from.map(stateName),
    })),
    deliveries,
    endpoints: ENDPOINTS,
    operations: about.operations,
    states: STATES,
  };
}

/** Whether the client asked for HTML (a browser) rather than JSON. */
function wantsHtml(accept, fields) {
  if (fields.format === 'json') return false;
  if (fields.format === 'html') return true;
  const html = accept.indexOf('text/html');
  const json = accept.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}

/** `faults` of the /sandbox/faults endpoint: listed, or (POST) set first. */
function faultsEndpoint({ faults, method, fields, send }) {
  if (method === 'POST') {
    try {
      faults.set(fields.faults);
    } catch (e) {
      if (!(e instanceof FaultError)) throw e;
      return send(400, { error: e.message, types: Object.keys(FAULT_TYPES) });
    }
  }
  return send(200, { faults: faults.list() });
}

/**
 * The endpoint of the sandbox itself (no payment named) at `parts`: its index, faults, key,
 * stylesheet or payments, as a function that answers; null for another path.
 */
function sandboxEndpoint(request, parts) {
  const { book, about, method, fields, accept, send } = request;
  const [, section] = parts;
  if (parts.length === 1 && method === 'GET') {
    const data = index(book, about);
    return () => (wantsHtml(accept, fields) ? send(200, indexPage(data), 'text/html; charset=utf-8') : send(200, data));
  }
  if (parts.length !== 2) return null;
  if (section === 'faults' && (method === 'GET' || method === 'POST')) return () => faultsEndpoint(request);
  if (section === 'service-public.pem' && method === 'GET') {
    return () => send(200, about.servicePublicKeyPem, 'application/x-pem-file', undefined, { 'content-disposition': 'attachment; filename="service-public.pem"' });
  }
  if (section === 'style.css' && method === 'GET') {
    const css = debuggerStylesheet();
    return () => (css === null ? send(404, '/* the debugger page (www/) is not beside the sandbox */', 'text/css; charset=utf-8') : send(200, css, 'text/css; charset=utf-8'));
  }
  if (section === 'payments' && method === 'GET') return () => send(200, book.all().map(publicPayment));
  return null;
}

/** POST …/deliver-again: the payment's last callback sent once more. */
async function deliverAgain({ sender, form, send }, payment, page) {
  const callback = payment.lastCallback;
  if (!callback) {
    const error = `payment_id '${payment.paymentId}' has sent no callback (no callback URL for its moves so far): nothing to deliver again`;
    return form ? send(303, '', undefined, page) : send(409, { error, payment: publicPayment(payment) });
  }
  const attempts = payment.deliveries.filter((d) => d.callback === callback.seq && !d.duplicate).map((d) => d.attempt);
  const delivery = await sender.once(payment.requestId, callback, Math.max(0, ...attempts) + 1);
  if (delivery === null) return send(503, { error: 'the sandbox is closing' });
  return form ? send(303, '', undefined, page) : send(200, { delivery, payment: publicPayment(payment) });
}

/** POST …/<scenario>: the scenario's move forced on the payment. */
function runScenario({ book, fields, form, send }, payment, page, action) {
  if (!Object.hasOwn(SCENARIOS, action)) {
    return send(404, { error: `no scenario '${action}'; the scenarios: ${Object.keys(SCENARIOS).join(', ')}, and deliver-again` });
  }
  const amount = fields.amount === undefined || fields.amount === '' ? undefined : Number(fields.amount);
  try {
    book.force(payment, action, { amount });
  } catch (e) {
    if (!(e instanceof MoveRefused)) throw e;
    if (form) return send(303, '', undefined, `${page}?refused=${encodeURIComponent(action)}`);
    return send(409, { error: e.message, state: stateName(payment), allowed: e.allowed, payment: publicPayment(payment) });
  }
  return form ? send(303, '', undefined, page) : send(200, publicPayment(payment));
}

/**
 * Handles a /sandbox/ request: `send(status, body, contentType?, location?, headers?)`; `about`:
 * `{ url, merchantId, merchantKeyFingerprint, servicePublicKeyPem, operations }`; `sender`:
 * the CallbackSender (deliver again).
 */
export async function handleSandbox(request) {
  const { book, method, pathname, fields, send } = request;
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [, section, ref, action] = parts;
  const endpoint = sandboxEndpoint(request, parts);
  if (endpoint) return endpoint();
  const known = (section === 'payments' && (parts.length === 3 || parts.length === 4)) || (section === 'pay' && parts.length === 3);
  if (!known) {
    return send(404, { error: `no sandbox endpoint ${method} ${pathname}; the endpoints:`, endpoints: ENDPOINTS, index: '/sandbox/' });
  }
  const found = findPayment(book, ref, typeof fields.project_id === 'string' && fields.project_id !== '' ? fields.project_id : undefined);
  if (!found.payment) return send(found.status, { error: found.error, ...(found.projects ? { projects: found.projects } : {}) });
  const { payment } = found;
  const page = `/sandbox/pay/${encodeURIComponent(payment.requestId)}`;
  if (section === 'pay' && method === 'GET') return send(200, paymentPage(payment, { refused: fields.refused }), 'text/html; charset=utf-8');
  if (parts.length === 3 && method === 'GET') return send(200, publicPayment(payment));
  if (parts.length === 4 && method === 'POST' && action === 'deliver-again') return deliverAgain(request, payment, page);
  if (parts.length === 4 && method === 'POST') return runScenario(request, payment, page, action);
  return send(405, { error: `${method} is not taken by ${pathname}; the endpoints:`, endpoints: ENDPOINTS });
}
