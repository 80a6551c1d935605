// payment-intake/sandbox: a local stand-in for the Payment Intake Service, for testing
// a merchant's integration end to end on one machine. NOT FOR PRODUCTION: state lives
// in memory, and nothing here is hardened for exposure beyond loopback.
//
// startSandbox(options) starts a node:http server that serves every operation of the
// spec's index at its path, checks each request's signature with the merchant's public
// key and validates its body (validateRequest, loopback http:// callback URLs allowed
// with a warning), runs the states table on the payments it creates (payments.mjs),
// and sends their callbacks signed with the service's key (callbacks.mjs), keeping every
// delivery. Its own endpoints, /sandbox/ (scenarios.mjs), list payments, scenarios and
// deliveries, force moves, deliver a callback again and serve the form_url page (pages.mjs).
// Built on the package's own API: nothing of the service's rules is written here again.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';

import * as api from 'payment-intake';
import { MAX_BODY_BYTES, TIMESTAMP_TOLERANCE_SECONDS, checkRequest, corsHeaders, crossSiteRefusal, fingerprint } from './auth.mjs';
import { CallbackSender } from './callbacks.mjs';
import { BALANCE, BANKS } from './data.mjs';
import { optionError } from './errors.mjs';
import { FaultError, Faults, applyFault } from './faults.mjs';
import {
  MoveRefused, PaymentBook, callbackAddress, callbackBody, infoResponse, lossPicker, publicPayment, stateName, statusResponse,
} from './payments.mjs';
import { ROUTES } from './routes.mjs';
import { handleSandbox } from './scenarios.mjs';

/** Every operation of the spec's index, served at its path. */
export const OPERATIONS = ROUTES.paths;

/** The merchant id when none is given. */
export const DEFAULT_MERCHANT_ID = 'sandbox-merchant';

/** A key option: a key object of the package, or PEM text read with `fromPem`. */
function keyOption(value, KeyClass, name) {
  if (value instanceof KeyClass) return value;
  if (typeof value === 'string') return KeyClass.fromPem(value);
  throw optionError(`'${name}' must be a ${KeyClass.name} or PEM text`);
}

/** The longest wait setTimeout keeps: a longer one (or Infinity) runs after 1 ms. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Timers in the service's seconds, run `timeScale` times faster; all stopped by stop().
 * A slow scale (below 1) can make a wait longer than setTimeout allows: it is made of
 * several, so a 300 s lifetime at 1/10000 does not end after 1 ms.
 */
function scaledClock(timeScale) {
  const timers = new Set();
  return {
    after(seconds, fn) {
      const handle = { timeout: null };
      const arm = (ms) => {
        handle.timeout = setTimeout(() => {
          if (ms > MAX_TIMEOUT_MS) return arm(ms - MAX_TIMEOUT_MS);
          timers.delete(handle);
          fn();
        }, Math.min(ms, MAX_TIMEOUT_MS));
      };
      arm((seconds * 1000) / timeScale);
      timers.add(handle);
      return handle;
    },
    /** Real milliseconds of `seconds` of the service's time. */
    msOf(seconds) {
      return (seconds * 1000) / timeScale;
    },
    cancel(handle) {
      clearTimeout(handle.timeout);
      timers.delete(handle);
    },
    stop() {
      for (const handle of timers) clearTimeout(handle.timeout);
      timers.clear();
    },
  };
}

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

/** `timestampToleranceSeconds`: a number of seconds from 0, or Infinity / false (never refused, only warned). */
function toleranceOption(value) {
  if (value === false || value === Infinity) return Infinity;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw optionError("'timestampToleranceSeconds' must be a number of seconds from 0, or Infinity or false (never refused, only warned)");
}

/** The validation report's issues as one status_description (at most the spec's 1024 characters). */
function describeIssues(report) {
  const text = report.errors.map((i) => `${i.path || '(body)'}: ${i.code}: ${i.message}`).join('; ');
  return text.length > 1024 ? `${text.slice(0, 1021)}...` : text;
}

/**
 * Starts a sandbox. Options: `merchantKey` (required: the merchant's public key, PEM or
 * VerifyingKey), `merchantId` (default 'sandbox-merchant'), `serviceKey` (PEM or
 * SigningKey; generated when absent), `port` (0: any free one), `host` ('127.0.0.1'),
 * `timeScale` (1; 60 makes a 300 s lifetime last 5 s), `profile` ('spec': the rules
 * requests are checked and callbacks signed with), `duplicateCallbacks` (false),
 * `shuffleCallbacks` (false: a payment's callbacks may arrive out of order),
 * `concurrentCallbacks` (0; N: callbacks and their duplicates go out at once, at most N
 * attempts in flight; callbacks.mjs), `callbackAttempts` (6), `allowedOrigin` (a browser origin besides loopback ones),
 * `timestampToleranceSeconds` (300: a request whose x-access-timestamp is further from the
 * sandbox's clock is refused; Infinity or false: served, with a warning past 300),
 * `faults` (failures injected into the spec's operations: faults.mjs), `loseCallbacks` (0: a
 * share from 0 to 1 of the payments, picked at random as each is created, or a function of
 * the new payment answering whether, lose every callback: each recorded `lost`, never sent).
 */
export async function startSandbox(options = {}) {
  const {
    merchantId = DEFAULT_MERCHANT_ID,
    port = 0,
    host = '127.0.0.1',
    timeScale = 1,
    profile = 'spec',
    duplicateCallbacks = false,
    shuffleCallbacks = false,
    concurrentCallbacks = 0,
    callbackAttempts = 6,
    allowedOrigin,
  } = options;
  if (options.merchantKey === undefined) throw optionError("'merchantKey' (the merchant's public key) is required");
  if (typeof merchantId !== 'string' || merchantId === '') throw optionError("'merchantId' must be a non-empty string");
  if (!(Number.isFinite(timeScale) && timeScale > 0)) throw optionError("'timeScale' must be a number above 0");
  if (!api.profiles().some((p) => p.name === profile)) throw optionError(`'profile' must be one of ${api.profiles().map((p) => p.name).join(', ')}`);
  if (!(Number.isSafeInteger(callbackAttempts) && callbackAttempts >= 1)) throw optionError("'callbackAttempts' must be a whole number from 1");
  if (typeof shuffleCallbacks !== 'boolean') throw optionError("'shuffleCallbacks' must be true or false");
  if (!(Number.isSafeInteger(concurrentCallbacks) && concurrentCallbacks >= 0)) throw optionError("'concurrentCallbacks' must be a whole number from 0 (0: a payment's callbacks one after the other)");
  const toleranceSeconds = toleranceOption(options.timestampToleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS);
  const loses = lossPicker(options.loseCallbacks === undefined ? 0 : options.loseCallbacks);
  if (!loses) throw optionError("'loseCallbacks' must be a number from 0 to 1 (the share of payments whose callbacks are lost), or a function of a new payment answering whether its callbacks are lost");
  let faults;
  try {
    faults = new Faults(options.faults ?? []);
  } catch (e) {
    throw e instanceof FaultError ? optionError(e.message, e) : e;
  }
  // Keys made here from PEM text (or generated) are freed by close(), or when the server
  // cannot start; the caller's own key objects are not.
  const owned = [];
  const own = (key, given) => (key !== given && owned.push(key), key);
  const freeOwned = () => owned.splice(0).forEach((key) => key.free());
  const merchantKey = own(keyOption(options.merchantKey, api.VerifyingKey, 'merchantKey'), options.merchantKey);
  let serviceKey;
  try {
    serviceKey = own(options.serviceKey === undefined ? api.SigningKey.generate() : keyOption(options.serviceKey, api.SigningKey, 'serviceKey'), options.serviceKey);
  } catch (e) {
    freeOwned();
    throw e;
  }
  // Requests must carry the merchant id as x-access-merchant-id, and so must callbacks:
  // an id the package would not sign with (its one rule, src/spec/limits.rs: a space, a
  // control or non-ASCII character, over 128 characters) would make a sandbox that refuses
  // every request, and whose callbacks it cannot sign. Refused here, in the package's words.
  try {
    api.prepareRequest('{}', serviceKey, { merchantId, timestamp: '1700000000' });
  } catch (e) {
    freeOwned();
    throw optionError(e.message, e);
  }

  const events = new EventEmitter();
  const emit = (event) => events.emit(event.type, event);
  const clock = scaledClock(timeScale);
  let book;
  const record = (requestId, delivery) => {
    const payment = book.byRequestId(requestId);
    if (payment) book.record(payment, delivery);
  };
  const sender = new CallbackSender({
    api, key: serviceKey, merchantId, profile, clock, attempts: callbackAttempts, duplicates: duplicateCallbacks, shuffle: shuffleCallbacks, concurrent: concurrentCallbacks, emit, record,
  });
  let baseUrl;
  book = new PaymentBook({
    clock,
    loses,
    baseUrl: () => baseUrl,
    notify(payment, move) {
      emit({ type: 'move', payment: publicPayment(payment), move: { ...move } });
      const { kind, url } = callbackAddress(payment);
      if (!url) return;
      payment.callbacks += 1;
      payment.lastCallback = { seq: payment.callbacks, kind, url, body: callbackBody(payment, baseUrl), state: stateName(move), lost: payment.callbacksLost };
      sender.send(payment.requestId, payment.lastCallback);
    },
  });
  const merchantKeyFingerprint = fingerprint(crypto.createPublicKey(merchantKey.publicKeyPem()));
  const requestRules = { merchantId, merchantKey, merchantKeyFingerprint, profile, toleranceSeconds, now: () => Math.floor(Date.now() / 1000) };

  /** A spec operation: signature and timestamp, validation, then what the operation does. `[status, body, warnings]`. */
  async function operation(path, raw, headers) {
    const { refused, warnings: authWarnings } = await checkRequest(api, { rawBody: raw, headers, ...requestRules });
    if (refused) return [refused.status, { status: 'error', sub_status: null, status_description: refused.description, sandbox_error: refused.error }, []];
    const [status, body] = served(path, raw);
    const all = [...authWarnings, ...(body?.sandbox_warnings ?? [])];
    if (all.length && body && !Array.isArray(body)) body.sandbox_warnings = all;
    return [status, body, authWarnings];
  }

  /** What a signed request's operation answers: validation, then what it does. */
  function served(path, raw) {
    const report = api.validateRequest(path, raw, { allowLoopbackHttp: true });
    const body = report.valid ? JSON.parse(raw.toString('utf8')) : null;
    const warnings = report.warnings.length ? { sandbox_warnings: report.warnings } : {};
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
    const existing = book.find(projectId, paymentId);
    if (Object.hasOwn(ROUTES.create, path)) {
      if (existing) {
        const description = `payment_id '${paymentId}' is already used in project '${projectId}' (request_id ${existing.requestId})`;
        return [409, { status: 'error', sub_status: null, status_description: description, project_id: projectId, payment_id: paymentId }];
      }
      const payment = book.create(path, body);
      emit({ type: 'move', payment: publicPayment(payment), move: { ...payment.history[0] } });
      return [200, { ...statusResponse(payment, true), ...warnings }];
    }
    const { kind, action } = ROUTES.onPayment[path];
    if (!existing || existing.kind !== kind) {
      return [404, { status: 'error', sub_status: null, status_description: `no ${kind} payment '${paymentId}' in project '${projectId}'`, project_id: projectId, payment_id: paymentId }];
    }
    if (action === 'info') return [200, infoResponse(existing, baseUrl)];
    try {
      book.force(existing, action);
    } catch (e) {
      if (!(e instanceof MoveRefused)) throw e;
      return [409, { ...statusResponse(existing, false), sandbox_error: { code: 'MOVE_REFUSED', message: e.message, allowed: e.allowed } }];
    }
    return [200, statusResponse(existing, false)];
  }

  async function handle(req, res) {
    const cors = corsHeaders(req.headers.origin, allowedOrigin);
    const send = (status, body, type = 'application/json; charset=utf-8', location = undefined, extra = {}) => {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...cors, ...(location ? { location } : {}), ...extra });
      res.end(text);
    };
    let pathname;
    let searchParams;
    try {
      ({ pathname, searchParams } = new URL(req.url ?? '/', 'http://sandbox'));
    } catch {
      return send(400, { error: 'the request target is not a URL path' });
    }
    if (req.method === 'OPTIONS') return send(204, '');
    const raw = await readBody(req, pathname);
    if (OPERATIONS.includes(pathname)) {
      if (req.method !== 'POST') return send(405, { error: 'the spec\'s operations take POST' });
      const run = () => operation(pathname, raw, req.headers);
      const fault = faults.next();
      if (fault) {
        emit({ type: 'fault', path: pathname, fault });
        if (await applyFault(fault, { res, run, send })) return undefined;
      }
      const [status, body, warnings] = await run();
      // Also as a header: the bank list's answer is an array, with no room for sandbox_warnings.
      return send(status, body, undefined, undefined, warnings.length ? { 'x-sandbox-warning': warnings.map((w) => w.code).join(', ') } : {});
    }
    if (pathname === '/sandbox' || pathname.startsWith('/sandbox/')) {
      const refusal = crossSiteRefusal(req.headers, host.includes(':') ? `[${host}]` : host, allowedOrigin);
      if (refusal) return send(403, { error: refusal, code: 'CROSS_SITE_REFUSED' });
      const { form, fields } = sandboxFields(req, raw, searchParams);
      const about = { url: baseUrl, merchantId, merchantKeyFingerprint, servicePublicKeyPem: serviceKey.publicKeyPem(), operations: OPERATIONS };
      return handleSandbox({ book, sender, faults, about, method: req.method, pathname, fields, form, accept: req.headers.accept ?? '', send });
    }
    if (pathname === '/' && req.method === 'GET') {
      return send(200, { sandbox: 'payment-intake', note: 'state in memory; not for production', operations: OPERATIONS, index: '/sandbox/', payments: '/sandbox/payments' });
    }
    return send(404, { error: `'${pathname}' is neither an operation of the spec nor a /sandbox/ endpoint` });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (e instanceof ClientGone) return void emit({ type: 'client-gone', method: e.method, path: e.path });
      const status = e.status ?? (e instanceof URIError ? 400 : 500);
      if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...(status === 413 ? { connection: 'close' } : {}) });
      res.end(JSON.stringify({ error: status === 500 ? `sandbox error: ${e.message}` : e.message }));
      if (status === 500) emit({ type: 'failure', error: e });
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', (e) => {
      freeOwned();
      reject(e);
    });
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
  const shownHost = host.includes(':') ? `[${host}]` : host;
  baseUrl = `http://${shownHost}:${server.address().port}`;

  let closing;
  return {
    url: baseUrl,
    merchantId,
    servicePublicKeyPem: serviceKey.publicKeyPem(),
    events,
    /** A copy of every payment, with its history of states. */
    payments: () => book.all().map(publicPayment),
    /** Resolves when every callback queued so far is delivered or given up. */
    callbacksIdle: () => sender.idle(),
    close() {
      closing ??= new Promise((resolve) => {
        book.stop();
        clock.stop();
        sender.close();
        server.close(() => {
          freeOwned();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
