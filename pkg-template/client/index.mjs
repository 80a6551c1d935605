// `createClient(config)`: every operation of the spec's index as a method named after its
// path (operations.mjs), over the package's public API (signRequest, validateRequest,
// parseInfoResponse, PaymentIntakeError). Each entry makes its `createClient` from its own
// API with `clientFactory(api, glue)`.
import { abortedError } from './aborted.mjs';
import { caller } from './call.mjs';
import { recordAnswer, recordCreate } from './creates.mjs';
import { errorMaker } from './errors.mjs';
import { createErrors } from '../errors.mjs';
import { hooksOf } from './hooks.mjs';
import { callLimits, clientLimits } from './limits.mjs';
import { baseUrlOf } from './base-url.mjs';
import { bodyOf, clientMethodsOf, operationsOf } from './operations.mjs';
import { sleep } from './attempt.mjs';
import { waiter } from './wait.mjs';

/* global PACKAGE_VERSION */
/** The package's version (the User-Agent's): set by the build (esbuild's `define`, Cargo.toml's version); unbundled, 0.0.0. */
const VERSION = typeof PACKAGE_VERSION === 'string' ? PACKAGE_VERSION : '0.0.0';

const DEFAULTS = { timeoutMs: 30000, retries: 2, retryDelayMs: 500, maxRetryDelayMs: 5000 };

const LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/;

// The functions below take `c`, one client's state: `ctx` (what caller(), waiter() and the
// creates' records read: call.mjs), `send` (caller(ctx)), `validation` (false, undefined or
// validateRequest's options), `config` (its projectId read at each call) and `operations` (`list`, `byPath`).

/** The client's config, checked, as the context of its calls (call.mjs). */
function contextOf(api, errors, make, argument, config) {
  if (config === null || typeof config !== 'object') throw argument('config', 'must be an object with baseUrl, merchantId and key');
  const baseUrl = baseUrlOf(make, config.baseUrl);
  if (typeof config.merchantId !== 'string' || config.merchantId === '') throw argument('merchantId', 'must be the merchant id (x-access-merchant-id)');
  if (!(config.key instanceof api.SigningKey || config.key instanceof api.HmacKey)) throw argument('key', 'must be a SigningKey or an HmacKey');
  const fetchFn = config.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw argument('fetch', 'must be a function (no global fetch here: pass one)');
  const store = config.store ?? null;
  if (store !== null && (typeof store !== 'object' || typeof store.recordCreate !== 'function' || typeof store.recordAnswer !== 'function')) {
    throw argument('store', 'must be a store that records creates (memoryStore(), postgresStore(pool), redisStore(client)): an object with recordCreate() and recordAnswer()');
  }
  return {
    api, make, baseUrl, merchantId: config.merchantId, key: config.key, options: config.options, profile: config.options?.profile,
    fetch: fetchFn, store, clock: config.clock ?? Date.now, sleep: config.sleep ?? sleep, random: config.random ?? Math.random,
    userAgent: config.userAgent ?? `payment-intake/${VERSION}`, hooks: hooksOf(config),
    ...clientLimits(make, config, DEFAULTS), maxAnswerBytes: errors.shared().readerMaxBytes,
  };
}

/** `config.validate` as validateRequest's options: false (no check), undefined (none), or its own. */
function validationOf(config, baseUrl) {
  if (config.validate === false) return false;
  if (typeof config.validate === 'object' && config.validate !== null) return config.validate;
  return LOOPBACK.test(baseUrl) ? { allowLoopbackHttp: true } : undefined;
}

/**
 * Refuses (REQUEST_INVALID) the text about to be sent (or a body the signing refused)
 * when it fails the operation's
 * schema. Checked without options first: the options only relax (a loopback http URL),
 * so a body valid without them is valid with them, and reading them costs as much as the check.
 */
function validated(c, operation) {
  const { validation } = c;
  const { api, make } = c.ctx;
  if (validation === false || operation.model === 'json') return undefined;
  return (body) => {
    let report = api.validateRequest(operation.path, body);
    if (!report.valid && validation !== undefined) report = api.validateRequest(operation.path, body, validation);
    if (report.valid) return;
    const issues = report.errors.map((issue) => `${issue.path || 'body'}: ${issue.code}`).join('; ');
    throw make('REQUEST_INVALID', `${operation.path}: the body is refused before sending (${issues})`, { report, hint: 'each issue is in .report.errors; createClient({ validate: false }) sends without checking' });
  };
}

/**
 * One call, under the onCall hook: the body made, then signed, validated and sent under a
 * deadline of its own; an abort by the caller is ABORTED. `tally` counts its attempts.
 */
async function performCall(c, operation, input, callOptions) {
  const tally = { attempts: 0, statusCode: null };
  const body = bodyOf(operation, input, c.config.projectId);
  return c.ctx.hooks.call({ operation, body, tally, clock: c.ctx.clock, perform: () => performCaught(c, operation, body, callOptions, tally) });
}

async function performCaught(c, operation, body, callOptions, tally) {
  try {
    return await performOnce(c, operation, body, callOptions, tally);
  } catch (error) {
    throw abortedError(c.ctx.make, operation.path, callOptions?.signal, error, operation.create === true);
  }
}

async function performOnce(c, operation, body, callOptions, tally) {
  const { ctx, send } = c;
  const { timeoutMs, ...limits } = callLimits(ctx.make, callOptions, ctx);
  const started = ctx.clock();
  const deadline = { started, at: started + timeoutMs, timeoutMs, tally, ...limits };
  if (!(operation.create && ctx.store)) return send(operation, body, deadline, validated(c, operation));
  const infoOperation = c.operations.byPath.get(operation.info);
  const before = (text) => recordCreate(ctx, operation, text, deadline, (ref) => send(infoOperation, bodyOf(infoOperation, ref, c.config.projectId), deadline));
  const result = await send(operation, body, deadline, validated(c, operation), before);
  await recordAnswer(ctx, deadline, result);
  return result;
}

/** The client's methods besides the operations': waitFor, call, infoOf and request. */
function addMethods(c, client, argument) {
  const { list, byPath } = c.operations;
  const wait = waiter(c.ctx);
  client.p2p.payin.waitFor = (ref, options) => wait(client.p2p.payin.info, 'p2p', ref, options);
  client.widget.payin.waitFor = (ref, options) => wait(client.widget.payin.info, 'widget', ref, options);
  /** The operation of the spec's index at `path` (its row's `path`), as its method would make it. */
  client.call = (path, input, callOptions) => {
    const operation = byPath.get(path);
    if (!operation) return Promise.reject(argument('path', `is no operation of the spec's index: ${list.map((known) => known.path).join(', ')}`));
    return performCall(c, operation, input, callOptions);
  };
  /**
   * The info operation of the create at `createPath` (its row's `info`), for `{ projectId,
   * paymentId }`: how a reconciliation asks about a payment the store recorded.
   */
  client.infoOf = (createPath, ref, callOptions) => {
    const create = byPath.get(createPath);
    if (!create?.create) return Promise.reject(argument('createPath', `is no create of the spec's index: ${list.filter((known) => known.create).map((known) => known.path).join(', ')}`));
    return performCall(c, byPath.get(create.info), ref, callOptions);
  };
  /** Any other path (e.g. the two bank paths the spec names but does not show): the answer's JSON. */
  client.request = (path, body, callOptions) => {
    if (typeof path !== 'string' || !path.startsWith('/')) return Promise.reject(argument('path', "must be a path starting with '/'"));
    return performCall(c, { name: 'request', path, model: 'json', takes: 'body' }, body, callOptions);
  };
}

/** `createClient` over `api`; its errors made by the one factory over `glue` (../errors.mjs). */
function clientFactory(api, glue) {
  const errors = createErrors(glue);
  const make = errorMaker(errors);
  const argument = (name, reason) => make('INVALID_ARGUMENT', `createClient: '${name}' ${reason}`);
  // The operations, from the package's table: made once, at the first createClient (the web
  // entry's wasm is loaded by init(), after this module).
  let operations;

  return function createClient(config) {
    operations ??= operationsOf(api.operationTable());
    const ctx = contextOf(api, errors, make, argument, config);
    ctx.byPath = operations.byPath;
    const c = { ctx, send: caller(ctx), validation: validationOf(config, ctx.baseUrl), config, operations };
    const { list: OPERATIONS } = operations;
    const perform = (operation, input, callOptions) => performCall(c, operation, input, callOptions);
    const client = clientMethodsOf(OPERATIONS, perform);
    addMethods(c, client, argument);
    return Object.freeze(client);
  };
}

export { clientFactory };
