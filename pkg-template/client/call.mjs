// A call of the client: validated, then signed afresh and sent for each attempt, retried on
// what may pass (the network, a deadline, 5xx, 429 after its Retry-After) with exponential
// backoff and jitter, all under one deadline; a create or an action whose earlier attempt
// may have reached the service is settled through the info operation, never sent as new.
import { oversizeError } from './answer.mjs';
import { attempt, attemptMs, retryAfterMs } from './attempt.mjs';
import { settleCreate } from './creates.mjs';
import { authHint, rejectionReason } from './errors.mjs';
import { ShapeError, modelOf, readJson, statusModel } from './models.mjs';
import { reached } from './operations.mjs';
import { samePayment } from './payment-ref.mjs';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `send(operation, body, deadline, check, before)`: the exchange of one call, over `ctx` (the client's config read once). */
function caller(ctx) {
  return (operation, body, deadline, check, before) => send(ctx, operation, body, deadline, check, before);
}

/** The JSON of an answer's text read by the package's reader, or undefined when it refuses it. */
function jsonOf(api, text) {
  try {
    return readJson(api, text);
  } catch (error) {
    if (error instanceof ShapeError) return undefined;
    throw error;
  }
}

function failureError(make, failure, operation, deadline, attempts) {
  const common = { statusCode: failure.statusCode, retryable: true, attempts, cause: failure.cause, body: failure.text ?? undefined, response: failure.json };
  if (failure.code === 'TIMEOUT') {
    return make('TIMEOUT', `${operation.path}: no answer within the call's ${deadline.timeoutMs} ms (${attempts} attempt${attempts === 1 ? '' : 's'})`, common);
  }
  if (failure.code === 'NETWORK_ERROR') {
    const why = failure.cause?.cause?.code ?? failure.cause?.cause?.message ?? failure.cause?.message ?? 'the connection failed';
    return make('NETWORK_ERROR', `${operation.path}: the connection failed (${why}) after ${attempts} attempt${attempts === 1 ? '' : 's'}`, common);
  }
  return make('SERVICE_UNAVAILABLE', `${operation.path}: the service answered HTTP ${failure.statusCode} after ${attempts} attempt${attempts === 1 ? '' : 's'}`, common);
}

/** The wait before attempt `n + 1`: exponential from `retryDelayMs`, capped, with jitter; at least what Retry-After asks. */
function backoff(ctx, n, failure) {
  const exp = Math.min(ctx.maxRetryDelayMs, ctx.retryDelayMs * 2 ** (n - 1));
  const jittered = exp * (0.5 + ctx.random() * 0.5);
  return Math.max(jittered, failure.retryAfterMs ?? 0);
}

/** The exchange's figures a result carries as `response`. */
const meta = (ctx, deadline, statusCode, attempts, extra) => ({ statusCode, attempts, durationMs: ctx.clock() - deadline.started, ...extra });

/**
 * A create answered "exists" (whatever call made the payment first), or an action refused
 * after an attempt that may have reached the service: the payment read with its info
 * operation. A create settles as that payment or PAYMENT_EXISTS (creates.mjs).
 */
async function settle(ctx, operation, text, deadline, attempts, answer) {
  const request = JSON.parse(text);
  const general = request?.general ?? {};
  const info = await send(ctx, ctx.byPath.get(operation.info), { general: { project_id: general.project_id, payment_id: general.payment_id } }, deadline);
  const response = meta(ctx, deadline, info.response.statusCode, attempts + info.response.attempts, { replayed: true });
  if (operation.create) {
    const details = { statusCode: answer.statusCode, body: answer.text, response: answer.json };
    return settleCreate(ctx.make, { operation, request, info, response, details, recorded: deadline.recorded });
  }
  if (reached(operation.target, info)) return { ...statusModel(info), response };
  return null;
}

/**
 * A redirect the service answered: refused, never followed nor retried. Node's fetch refuses
 * it before it is read (attempt.mjs: no status, no Location); a fetch that hands it over
 * gives both (status 0: a browser's opaque one).
 */
function redirectError(ctx, operation, out, attempts) {
  const { statusCode } = out;
  const location = out.headers?.get?.('location');
  const what = statusCode === null ? '' : ` (HTTP ${statusCode}${location ? ` to ${location}` : ''})`;
  return ctx.make('INVALID_RESPONSE', `${operation.path}: the service answered a redirect${what}: not followed, a signed body goes to baseUrl only`, {
    statusCode, body: out.text ?? undefined, attempts, cause: out.cause ?? undefined,
    hint: 'set baseUrl to the address the service answers at itself (the one the redirect names, when you trust it: `curl -i` on baseUrl shows it)',
  });
}

/** The operation's model of an answer's text, or `{ failed }`: the ShapeError or package error that refused it. */
function readModel(api, operation, text) {
  try {
    return { model: modelOf(api, operation, text) };
  } catch (cause) {
    if (!(cause instanceof ShapeError) && cause?.code === undefined) throw cause;
    return { failed: cause };
  }
}

/** What a read answer (not 5xx or 429) means: a result, a thrown error, or `settle` first. */
async function answered(ctx, operation, text, deadline, attempts, out, mayHaveReached) {
  const { api, make } = ctx;
  const { statusCode } = out;
  if ((statusCode >= 300 && statusCode < 400) || statusCode === 0) throw redirectError(ctx, operation, out, attempts);
  // The common case first: a 2xx answer read straight into its model by the package's reader.
  let failed = null;
  if (statusCode >= 200 && statusCode < 300 && operation.model !== 'json') {
    const read = readModel(api, operation, out.text);
    failed = read.failed ?? null;
    if (read.model && read.model.status !== 'error') {
      return { ...samePayment(make, operation, text, read.model, { statusCode, body: out.text, attempts }), response: meta(ctx, deadline, statusCode, attempts) };
    }
  }
  const json = readAnswerJson(ctx, operation, out, attempts);
  const details = { statusCode, body: out.text, response: json, attempts };
  const isError = isObject(json) && json.status === 'error';
  if (statusCode === 401) {
    const description = isObject(json) ? json.status_description : undefined;
    throw make('AUTH_REFUSED', `${operation.path}: the service refused the request: ${description ?? `HTTP 401`}`, { ...details, hint: authHint(description, ctx) });
  }
  const answer = { statusCode, text: out.text, json };
  // The spec does not show how the service answers a payment_id it already holds; the
  // sandbox answers 409, taken here to mean "payment exists": read it, whatever call made it.
  if (operation.create && statusCode === 409) return settle(ctx, operation, text, deadline, attempts, answer);
  if (operation.target && mayHaveReached && (statusCode === 409 || isError)) {
    const settled = await settle(ctx, operation, text, deadline, attempts, answer);
    if (settled) return settled;
  }
  if (isError || statusCode >= 400) {
    throw make('REQUEST_REJECTED', `${operation.path}: the service rejected the request: ${rejectionReason(json, statusCode)}`, details);
  }
  if (operation.model === 'json') {
    // client.request: the answer's JSON as it is, the exchange's figures beside it.
    if (json !== null && typeof json === 'object') Object.defineProperty(json, 'response', { value: meta(ctx, deadline, statusCode, attempts), enumerable: false });
    return json;
  }
  const read = failed ? { failed } : readModel(api, operation, out.text);
  if (read.failed) {
    throw make('INVALID_RESPONSE', `${operation.path}: the answer lacks the operation's shape: ${read.failed.message}`, { ...details, path: read.failed.path, cause: read.failed });
  }
  return { ...samePayment(make, operation, text, read.model, details), response: meta(ctx, deadline, statusCode, attempts) };
}

/**
 * The JSON of a read answer; one the package's reader refuses is AUTH_REFUSED for a 401 (its
 * text tells nothing more), else INVALID_RESPONSE.
 */
function readAnswerJson(ctx, operation, out, attempts) {
  try {
    return readJson(ctx.api, out.text);
  } catch (unread) {
    if (!(unread instanceof ShapeError)) throw unread;
    const { statusCode } = out;
    const details = { statusCode, body: out.text, response: undefined, attempts };
    if (statusCode === 401) throw ctx.make('AUTH_REFUSED', `${operation.path}: the service refused the request: HTTP 401`, { ...details, hint: authHint(undefined, ctx) });
    throw ctx.make('INVALID_RESPONSE', `${operation.path}: the answer (HTTP ${statusCode}) ${unread.reason}`, { ...details, cause: unread.cause, hint: 'the text the service sent is in .body' });
  }
}

/** What went wrong with an attempt that may pass again (the network, a deadline, 5xx, 429), or null for an answer to read. */
function failureOf(ctx, operation, out, attempts) {
  // An oversize 5xx or 429 is what its status says (retried below, its body's start kept); any other is refused.
  if (out.kind === 'oversize' && out.statusCode < 500 && out.statusCode !== 429) throw oversizeError(ctx.make, operation, out, attempts, ctx.maxAnswerBytes);
  if (out.kind === 'timeout') return { code: 'TIMEOUT', statusCode: out.statusCode, cause: out.cause, reached: true };
  if (out.kind === 'network') return { code: 'NETWORK_ERROR', statusCode: out.statusCode, cause: out.cause, reached: true };
  if (out.statusCode >= 500 || out.statusCode === 429) {
    // A 429 was not handled; a 5xx may have been (a proxy's answer tells nothing).
    return { code: 'SERVICE_UNAVAILABLE', statusCode: out.statusCode, text: out.text, json: jsonOf(ctx.api, out.text), reached: out.statusCode !== 429, retryAfterMs: retryAfterMs(out.headers, Date.now()) };
  }
  return null;
}

/** The request of attempt `attempts` signed (the caller's `body`, or the text the first attempt signed). */
function signAttempt(ctx, text, attempts, body, check) {
  try {
    return ctx.api.signRequest(text, ctx.key, { merchantId: ctx.merchantId, options: ctx.options, timestamp: Math.floor(ctx.clock() / 1000) });
  } catch (error) {
    // A body the signing refuses (not an object, a number with no exact form) is refused
    // by the validation too: REQUEST_INVALID with its report, as any invalid body.
    if (attempts === 1 && check) check(body);
    throw error;
  }
}

/**
 * Sends `body` (the caller's object or text; once signed, the signed text is what every
 * later attempt signs again). `check(text)`, when given, refuses the first signed text
 * before anything is sent (the client's validation of exactly the text it sends);
 * `before(text)`, when given, runs then too (a create recorded in the store).
 */
async function send(ctx, operation, body, deadline, check, before) {
  const { clock, hooks } = ctx;
  const url = ctx.baseUrl + operation.path;
  let mayHaveReached = false;
  let text = body;
  for (let attempts = 1; ; attempts += 1) {
    if (deadline.signal?.aborted) throw deadline.signal.reason;
    const remainingMs = deadline.at - clock();
    if (remainingMs <= 0) throw failureError(ctx.make, { code: 'TIMEOUT', statusCode: null }, operation, deadline, attempts - 1);
    const signed = signAttempt(ctx, text, attempts, body, check);
    if (attempts === 1) {
      text = signed.body;
      if (check) check(text);
      if (before) await before(text);
    }
    const headers = { 'content-type': 'application/json', 'user-agent': ctx.userAgent, ...signed.headers };
    hooks.request({ operation: operation.name, url, attempt: attempts, headers, body: signed.body });
    const begun = clock();
    const out = await attempt({ fetch: ctx.fetch, url, headers, body: signed.body, remainingMs: attemptMs(deadline, attempts, remainingMs), maxBytes: ctx.maxAnswerBytes, signal: deadline.signal });
    // The whole call's count and last status (an info read that settles it included), for onCall.
    deadline.tally.attempts += 1;
    deadline.tally.statusCode = out.statusCode;
    hooks.response({ operation: operation.name, url, statusCode: out.statusCode, attempt: attempts, durationMs: clock() - begun, body: out.text, error: out.kind === 'answer' ? null : out.kind });
    if (out.kind === 'aborted') throw out.cause;
    if (out.kind === 'redirect') throw redirectError(ctx, operation, out, attempts);
    const failure = failureOf(ctx, operation, out, attempts);
    if (!failure) return answered(ctx, operation, text, deadline, attempts, out, mayHaveReached);
    mayHaveReached ||= failure.reached;
    if (attempts > deadline.retries) throw failureError(ctx.make, failure, operation, deadline, attempts);
    const wait = backoff(ctx, attempts, failure);
    // A wait past the deadline is not waited: the call fails now with what it met.
    if (clock() + wait >= deadline.at) throw failureError(ctx.make, failure, operation, deadline, attempts);
    await ctx.sleep(wait, deadline.signal);
  }
}

export { caller };
