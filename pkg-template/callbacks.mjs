// Verifying callbacks (what they are read from: callbacks.d.ts): the native RSA check between
// the wasm's `__verifyCallback` and `__finishCallback` (src/wasm/exports/callback.rs), and the
// body of a Fetch `Request`, read from its stream no further than the limit.
import { NotBytesError, readBounded } from './body-stream.mjs';

/** Read once as this module loads: a caller's replacement must not run inside the package. */
const { getOwnPropertyDescriptor } = Object;

const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

/**
 * The callback functions of the API over `glue`, with `provider`'s RSA, `keys`' key classes and
 * `io`'s in-place check: each is the module-level function of that name over one context.
 */
function createCallbacks(glue, provider, errors, keys, io) {
  const ctx = { glue, provider, errors, io, keyPem: keys.keyPem, publicKey: keys.publicKey, describe: keys.describe };
  return {
    diagnoseCallback: (rawBody, headers, verifyingKeys) => diagnoseCallback(ctx, rawBody, headers, verifyingKeys),
    prepareCallback: (rawBody, headers, verifyingKeys, options) => prepareCallback(ctx, rawBody, headers, verifyingKeys, options),
    verifyCallback: (rawBody, headers, verifyingKeys, options) => verifyCallback(ctx, rawBody, headers, verifyingKeys, options),
    verifyCallbackAsync: (rawBody, headers, verifyingKeys, options) => verifyCallbackAsync(ctx, rawBody, headers, verifyingKeys, options),
    verifyCallbackRequest: (request, verifyingKeys, options) => verifyCallbackRequest(ctx, request, verifyingKeys, options),
  };
}

/**
 * After the native check of `__verifyCallback`'s value answered (`answer`, or `failure`
 * when it threw): `__finishCallback` frees the handle whatever it was, and makes the model
 * once the check passed, from the bytes the wasm read once (`body`: the copy it gave when
 * the check was awaited). What `verifyCallback` returns or throws.
 */
function finish(ctx, handle, body, answer, failure) {
  const finished = ctx.glue.__finishCallback({ handle, verified: failure === undefined && answer === true, body });
  if (failure !== undefined) throw ctx.errors.cryptoFailure(failure.cause);
  return ctx.errors.unwrap(finished);
}

/**
 * `undefined` or `null` for the raw body, what a framework leaves when nothing read the
 * body: refused here, since the wasm reads it as an empty body (INVALID_SIGNATURE, hinting at
 * canonical variants). A parsed object is refused by the wasm with the same advice.
 */
function requireBody(ctx, rawBody) {
  if (rawBody !== undefined && rawBody !== null) return;
  const error = ctx.errors.invalidArgument('rawBody', `is ${rawBody}, not the raw body: nothing read the callback's body before verification, and the signature covers its exact bytes`);
  error.hint =
    "pass the raw bytes: Express: express.raw({ type: 'application/json' }) on the route; Fastify: addContentTypeParser('application/json', { parseAs: 'buffer' }, …); " +
    'Fetch (Next.js, Hono, Workers): await request.arrayBuffer(); or createCallbackHandler, whose adapters read the body themselves';
  throw error;
}

/**
 * Verifies in three plain steps: `__verifyCallback` reads everything once and checks all but
 * a native RSA signature (its value is the verified callback when nothing is left to
 * check); the native check, reading its bytes in wasm memory (pkg-template/wasm-io.mjs);
 * `__finishCallback`, with the handle. A forged body costs no model.
 */
function verifyCallback(ctx, rawBody, headers, keys, options) {
  const { glue, provider } = ctx;
  requireBody(ctx, rawBody);
  const body = provider.bytes(rawBody, 4096);
  const answered = glue.__verifyCallback({ body, headers, keys, options, keyPem: ctx.keyPem, native: provider.sync, awaited: false });
  const value = ctx.errors.unwrap(answered);
  // No check left (`verified`): the value is what verifyCallback returns; else `inPlace`.
  if (answered.kind === 'verified') return value;
  const { handle, answer, failure } = ctx.io.checkInPlace(value, provider.verify, ctx.publicKey);
  return finish(ctx, handle, undefined, answer, failure);
}

/**
 * `verifyCallback`, with the RSA check off the main thread where the provider can. The
 * check is awaited: the wasm gives copies of what it reads and of the body bytes it read
 * (which only this function holds, out of wasm memory during the await: it never
 * shrinks), and keeps the rest under the handle (the timestamp, merchant id, options and
 * limits as it read them once). Once the check answered, `__finishCallback` makes the
 * model from exactly those bytes; the caller's body, headers, keys and options are never
 * read again (a Buffer can change during the await, a getter answer otherwise).
 */
async function verifyCallbackAsync(ctx, rawBody, headers, keys, options) {
  const { glue, provider } = ctx;
  requireBody(ctx, rawBody);
  const body = provider.bytes(rawBody, 4096);
  const answered = glue.__verifyCallback({ body, headers, keys, options, keyPem: ctx.keyPem, native: provider.available(), awaited: true });
  const value = ctx.errors.unwrap(answered);
  // No check left (`verified`): the value is what it returns; else `awaited`.
  if (answered.kind === 'verified') return value;
  let answer;
  let failure;
  try {
    answer = await provider.verifyAsync(value.data, value.signature, ctx.publicKey(value.key));
  } catch (cause) {
    failure = { cause };
  }
  return finish(ctx, value.handle, value.body, answer, failure);
}

/**
 * Everything of verifyCallback but the RSA check: `{ message, signature, data, keyIndex,
 * callback, callbackError }`, where `data` is what RSA-SHA256 verifies (the message, or its
 * SHA-256 under `digest: 'double'`), and `undefined` for an HMAC signature, which was
 * checked here (the `backend` option changes nothing).
 */
function prepareCallback(ctx, rawBody, headers, keys, options) {
  const { message, signature, data, keyIndex, result } = ctx.errors.unwrap(ctx.glue.__prepareCallback({ body: rawBody, headers, keys, options, keyPem: ctx.keyPem }));
  const ok = typeof result === 'string';
  return { message, signature, data, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : ctx.errors.fromWasm(result) };
}

function diagnoseCallback(ctx, rawBody, headers, keys) {
  return ctx.errors.unwrap(ctx.glue.__diagnoseCallback({ body: rawBody, headers, keys, keyPem: ctx.keyPem }));
}

/**
 * The body of a Fetch `Request`, read from its stream and no further than the limit: a
 * sender must not make us hold more than `maxBodyBytes` (an own member, when a number; else
 * the largest the options accept, `__constants().maxBodyBytes`). What is read past the
 * limit is refused by the wasm as BODY_TOO_LARGE, with the exact limit. A stream that is
 * locked already is INVALID_ARGUMENT (`used`); one that gives something other than bytes,
 * INVALID_ARGUMENT; one that fails, a TypeError or the stream's own error (the caller turns
 * it into BODY_UNREADABLE).
 */
async function requestBytes(ctx, request, options, used) {
  const { invalidArgument } = ctx.errors;
  let limit = ctx.errors.shared().maxBodyBytes;
  try {
    // An own data member only, as the wasm reads the options: one inherited from
    // Object.prototype is none (the wasm would take the default, past what was read).
    const own = isObject(options) ? getOwnPropertyDescriptor(options, 'maxBodyBytes') : undefined;
    const given = own?.enumerable ? own.value : undefined;
    if (typeof given === 'number' && given >= 0 && given < limit) limit = given;
  } catch {
    // a Proxy whose trap throws: the wasm reports it when it reads the options
  }
  const stream = request.body;
  if (stream === null) return new Uint8Array(0);
  if (!isObject(stream) || typeof stream.getReader !== 'function') return request.arrayBuffer();
  let reader;
  try {
    reader = stream.getReader();
  } catch {
    throw invalidArgument('request', used); // locked: something else is reading it
  }
  try {
    return await readBounded(reader, limit);
  } catch (cause) {
    if (cause instanceof NotBytesError) throw invalidArgument('request', 'has a body stream that gave something other than bytes');
    throw cause;
  }
}

/**
 * `request.headers` and `request.bodyUsed`, read once, here, where a getter or Proxy that
 * throws makes the value no Request (read again later, they could throw without a `.code`).
 */
function requestParts(ctx, request) {
  let readable = false;
  let headers;
  let bodyUsed;
  try {
    headers = isObject(request) && typeof request.arrayBuffer === 'function' ? request.headers : undefined;
    readable = isObject(headers);
    bodyUsed = readable && request.bodyUsed;
  } catch {
    readable = false; // a getter or Proxy that throws: not a Request
  }
  if (!readable) {
    throw ctx.errors.invalidArgument('request', `must be a Fetch Request (with headers and arrayBuffer()), not ${ctx.describe(request)}`);
  }
  return { headers, bodyUsed };
}

/**
 * `verifyCallbackAsync` of a Fetch `Request` (Next.js, Hono, Workers, Deno, Bun): the
 * headers from `request.headers`, the exact body bytes from `request.arrayBuffer()`. A
 * body already read is refused (INVALID_ARGUMENT): verify first, or pass `request.clone()`.
 */
async function verifyCallbackRequest(ctx, request, keys, options) {
  const { headers, bodyUsed } = requestParts(ctx, request);
  const used = 'has a body that was already read (bodyUsed): verify before anything reads the body, or pass request.clone()';
  if (bodyUsed === true) throw ctx.errors.invalidArgument('request', used);
  let body;
  try {
    body = await requestBytes(ctx, request, options, used);
  } catch (cause) {
    if (ctx.errors.isPaymentIntakeError(cause)) throw cause;
    // The stream failed before its end (the sender's connection closed, most often).
    let reason;
    try {
      reason = String(cause?.message ?? cause);
    } catch {
      // an error whose message or toString throws: the wasm words it
    }
    ctx.errors.unwrap(ctx.glue.__bodyUnreadable({ reason }));
  }
  return verifyCallbackAsync(ctx, body, headers, keys, options);
}

export { createCallbacks };
