// The sandbox's HTTP server: each request read, then answered by the spec's operation at
// its path (signature and timestamp checked, body validated, then what the operation does
// to the payment book), by a /sandbox/ endpoint (scenarios.mjs), or refused. Every function
// takes `sb`, the running sandbox's state (index.mjs `startSandbox`): its options, keys,
// payment book, callback sender, faults, events and base URL.
import http from 'node:http';

import * as api from 'payment-intake';
import { MAX_BODY_BYTES, checkRequest, corsHeaders, crossSiteRefusal } from './auth.mjs';
import { BALANCE, BANKS } from './data.mjs';
import { applyFault } from './faults.mjs';
import { MoveRefused, infoResponse, publicPayment, statusResponse } from './payments.mjs';
import { ROUTES } from './routes.mjs';
import { handleSandbox } from './scenarios.mjs';

const OPERATIONS = ROUTES.paths;

/** The client closed the connection before its request's body ended: its doing, not the sandbox's; nobody is left to answer. */
class ClientGone extends Error {
  constructor(method, path) {
    super(`the client went away: ${method} ${path} (closed the connection before its request body ended)`);
    this.method = method;
    this.path = path;
  }
}

/**
 * The request's body, up to MAX_BODY_BYTES. A larger one rejects with status 413 as
 * soon as the limit is passed; what comes after is not kept, and the connection is not
 * destroyed here (that would reset it before the 413 could be read): the answer says
 * `connection: close`, and Node ends the connection once it is written. A connection
 * closed before the body's end rejects with ClientGone.
 */
function readBody(req, pathname) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      if (size > MAX_BODY_BYTES) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0;
        reject(Object.assign(new Error(`body too large: the sandbox reads at most ${MAX_BODY_BYTES} bytes`), { status: 413 }));
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    const gone = () => reject(new ClientGone(req.method, pathname));
    req.on('error', (e) => (req.complete ? reject(e) : gone()));
    req.on('close', () => req.complete || gone());
  });
}

/**
 * The fields of a /sandbox/ request: its query string, then form data or a JSON object in
 * the body (anything else: none), which win over the query.
 */
function sandboxFields(req, raw, searchParams) {
  const query = Object.fromEntries(searchParams);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return { form: true, fields: { ...query, ...Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) } };
  try {
    const parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    return { form: false, fields: { ...query, ...(parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}) } };
  } catch {
    return { form: false, fields: query };
  }
}

/** The validation report's issues as one status_description (at most the spec's 1024 characters). */
function describeIssues(report) {
  const text = report.errors.map((i) => `${i.path || '(body)'}: ${i.code}: ${i.message}`).join('; ');
  return text.length > 1024 ? `${text.slice(0, 1021)}...` : text;
}

/** A spec operation: signature and timestamp, validation, then what the operation does. `[status, body, warnings]`. */
async function operation(sb, path, raw, headers) {
  const { refused, warnings: authWarnings } = await checkRequest(api, { rawBody: raw, headers, ...sb.requestRules });
  if (refused) return [refused.status, { status: 'error', sub_status: null, status_description: refused.description, sandbox_error: refused.error }, []];
  const [status, body] = served(sb, path, raw);
  const all = [...authWarnings, ...(body?.sandbox_warnings ?? [])];
  if (all.length && body && !Array.isArray(body)) body.sandbox_warnings = all;
  return [status, body, authWarnings];
}

/** What a signed request's operation answers: validation, then what it does. */
function served(sb, path, raw) {
  const report = api.validateRequest(path, raw, { allowLoopbackHttp: true });
  const body = report.valid ? JSON.parse(raw.toString('utf8')) : null;
  if (!report.valid) return [400, { status: 'error', sub_status: null, status_description: describeIssues(report), sandbox_report: report }];
  if (ROUTES.project[path] === 'balance') return [200, { balance: BALANCE }];
  if (ROUTES.project[path] === 'banks') return [200, BANKS];
  const { project_id: projectId, payment_id: paymentId } = body.general ?? {};
  // Bodies the spec does not show (ECOM, payout info, widget confirm and cancel) pass
  // validation without them, but a payment is known only by this pair.
  const missing = ['project_id', 'payment_id'].filter((name) => typeof body.general?.[name] !== 'string');
  if (missing.length) {
    const description = missing.map((name) => `general.${name}: REQUIRED: the sandbox finds payments by general.project_id and general.payment_id`).join('; ');
    return [400, { status: 'error', sub_status: null, status_description: description }];
  }
  const existing = sb.book.find(projectId, paymentId);
  if (Object.hasOwn(ROUTES.create, path)) return created(sb, path, body, existing, report.warnings);
  return onPayment(sb, path, existing, projectId, paymentId);
}

/** A create operation: the new payment, or 409 when its payment id is taken. */
function created(sb, path, body, existing, reportWarnings) {
  const { project_id: projectId, payment_id: paymentId } = body.general;
  if (existing) {
    const description = `payment_id '${paymentId}' is already used in project '${projectId}' (request_id ${existing.requestId})`;
    return [409, { status: 'error', sub_status: null, status_description: description, project_id: projectId, payment_id: paymentId }];
  }
  const payment = sb.book.create(path, body);
  sb.emit({ type: 'move', payment: publicPayment(payment), move: { ...payment.history[0] } });
  const warnings = reportWarnings.length ? { sandbox_warnings: reportWarnings } : {};
  return [200, { ...statusResponse(payment, true), ...warnings }];
}

/** An operation on an existing payment: its info, or a move forced on it. */
function onPayment(sb, path, existing, projectId, paymentId) {
  const { kind, action } = ROUTES.onPayment[path];
  if (!existing || existing.kind !== kind) {
    return [404, { status: 'error', sub_status: null, status_description: `no ${kind} payment '${paymentId}' in project '${projectId}'`, project_id: projectId, payment_id: paymentId }];
  }
  if (action === 'info') return [200, infoResponse(existing, sb.baseUrl)];
  try {
    sb.book.force(existing, action);
  } catch (e) {
    if (!(e instanceof MoveRefused)) throw e;
    return [409, { ...statusResponse(existing, false), sandbox_error: { code: 'MOVE_REFUSED', message: e.message, allowed: e.allowed } }];
  }
  return [200, statusResponse(existing, false)];
}

/** `send(status, body, type, location, extra)`: the answer to `res`, with the CORS headers `cors`. */
function senderOf(res, cors) {
  return (status, body, type = 'application/json; charset=utf-8', location = undefined, extra = {}) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...cors, ...(location ? { location } : {}), ...extra });
    res.end(text);
  };
}

/** A spec operation's request: a fault injected, or the operation run; answered by `send`. */
async function handleOperation(sb, req, res, { pathname, raw, send }) {
  if (req.method !== 'POST') return send(405, { error: 'the spec\'s operations take POST' });
  const run = () => operation(sb, pathname, raw, req.headers);
  const fault = sb.faults.next();
  if (fault) {
    sb.emit({ type: 'fault', path: pathname, fault });
    if (await applyFault(fault, { res, run, send })) return undefined;
  }
  const [status, body, warnings] = await run();
  // Also as a header: the bank list's answer is an array, with no room for sandbox_warnings.
  return send(status, body, undefined, undefined, warnings.length ? { 'x-sandbox-warning': warnings.map((w) => w.code).join(', ') } : {});
}

/** A /sandbox/ request: refused when cross-site, else handled by scenarios.mjs. */
function handleControl(sb, req, { pathname, searchParams, raw, send }) {
  const { host, allowedOrigin } = sb;
  const refusal = crossSiteRefusal(req.headers, host.includes(':') ? `[${host}]` : host, allowedOrigin);
  if (refusal) return send(403, { error: refusal, code: 'CROSS_SITE_REFUSED' });
  const { form, fields } = sandboxFields(req, raw, searchParams);
  const about = { url: sb.baseUrl, merchantId: sb.merchantId, merchantKeyFingerprint: sb.merchantKeyFingerprint, servicePublicKeyPem: sb.serviceKey.publicKeyPem(), operations: OPERATIONS };
  return handleSandbox({ book: sb.book, sender: sb.sender, faults: sb.faults, about, method: req.method, pathname, fields, form, accept: req.headers.accept ?? '', send });
}

async function handle(sb, req, res) {
  const send = senderOf(res, corsHeaders(req.headers.origin, sb.allowedOrigin));
  let pathname;
  let searchParams;
  try {
    ({ pathname, searchParams } = new URL(req.url ?? '/', 'http://sandbox'));
  } catch {
    return send(400, { error: 'the request target is not a URL path' });
  }
  if (req.method === 'OPTIONS') return send(204, '');
  const raw = await readBody(req, pathname);
  const request = { pathname, searchParams, raw, send };
  if (OPERATIONS.includes(pathname)) return handleOperation(sb, req, res, request);
  if (pathname === '/sandbox' || pathname.startsWith('/sandbox/')) return handleControl(sb, req, request);
  if (pathname === '/' && req.method === 'GET') {
    return send(200, { sandbox: 'payment-intake', note: 'state in memory; not for production', operations: OPERATIONS, index: '/sandbox/', payments: '/sandbox/payments' });
  }
  return send(404, { error: `'${pathname}' is neither an operation of the spec nor a /sandbox/ endpoint` });
}

/** A request that failed: answered with its status (500: a sandbox error, emitted), unless its client went away. */
function answerFailure(sb, res, e) {
  if (e instanceof ClientGone) return void sb.emit({ type: 'client-gone', method: e.method, path: e.path });
  const status = e.status ?? (e instanceof URIError ? 400 : 500);
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 413 ? { connection: 'close' } : {}) });
  res.end(JSON.stringify({ error: status === 500 ? `sandbox error: ${e.message}` : e.message }));
  if (status === 500) sb.emit({ type: 'failure', error: e });
}

/** The sandbox's node:http server, not yet listening. */
function sandboxServer(sb) {
  return http.createServer((req, res) => {
    handle(sb, req, res).catch((e) => answerFailure(sb, res, e));
  });
}

export { sandboxServer };
