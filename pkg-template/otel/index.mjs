// `payment-intake/otel`: OpenTelemetry spans and metrics from the client's and the callback
// handler's hooks, over a tracer and a meter the caller passes in (the @opentelemetry/api
// objects of its own SDK). Nothing is imported: the span kinds and status codes are the
// API's stable numbers, written here. What reaches an attribute is an operation, a path, a
// host, a status, a code, a state and the project and payment ids: never a body, a header
// (the signature), a key or a card number (no hook this module uses is shown any of them).
// Self-contained on purpose: it imports no other file of the package.

/** SpanKind and SpanStatusCode of @opentelemetry/api (numbers the API guarantees). */
const KIND_INTERNAL = 0;
const KIND_CLIENT = 2;
const STATUS_ERROR = 2;

/** The handler's codes that are no failure: the callback (or the reconciled state) was handled. */
const HANDLED = new Set(['DELIVERED', 'DUPLICATE', 'STALE', 'BUSY', 'AFTER_FINAL', 'UNKNOWN_STATE', 'REVIEW']);

/** The semantic conventions' buckets for durations in seconds (http.client.request.duration). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Names of the attributes this module sets besides the semantic conventions' own. */
const ATTR = {
  operation: 'payment_intake.operation',
  projectId: 'payment_intake.project_id',
  paymentId: 'payment_intake.payment_id',
  attempts: 'payment_intake.attempts',
  replayed: 'payment_intake.replayed',
  outcome: 'payment_intake.outcome',
  source: 'payment_intake.source',
  state: 'payment_intake.state',
  reason: 'payment_intake.reason',
};

/** The metrics' names, each an instrument of the meter. */
const METRICS = {
  calls: 'payment_intake.client.calls',
  callDuration: 'payment_intake.client.call.duration',
  attempts: 'payment_intake.client.attempts',
  retries: 'payment_intake.client.retries',
  outcomes: 'payment_intake.callbacks.outcomes',
  refusals: 'payment_intake.callbacks.refusals',
  duplicates: 'payment_intake.callbacks.duplicates',
  callbackDuration: 'payment_intake.callbacks.duration',
};

/** A TypeError with the package's code for a wrong argument (this module makes no PaymentIntakeError: it imports nothing). */
function argumentError(message) {
  return Object.assign(new TypeError(`otelHooks: ${message}`), { code: 'INVALID_ARGUMENT' });
}

/** `attributes` without its null and undefined members (an attribute is set or absent). */
function defined(attributes) {
  const out = {};
  for (const [name, value] of Object.entries(attributes)) if (value !== null && value !== undefined) out[name] = value;
  return out;
}

/** `{ address, port }` of a URL (the default port of its scheme when it names none), or nulls. */
function serverOf(url) {
  try {
    const parsed = new URL(url);
    const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : parsed.protocol === 'http:' ? 80 : null;
    return { address: parsed.hostname.replace(/^\[|\]$/g, ''), port, path: parsed.pathname };
  } catch {
    return { address: null, port: null, path: null };
  }
}

/** The instruments of `meter`, or null without one. */
function instrumentsOf(meter) {
  if (!meter) return null;
  const counter = (name, description, unit) => meter.createCounter(name, { description, unit });
  const histogram = (name, description) => meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
  return {
    calls: counter(METRICS.calls, 'Calls of the client, by operation and error.type (absent when the call succeeded)', '{call}'),
    callDuration: histogram(METRICS.callDuration, 'Duration of the client\'s calls, every attempt and retry wait included'),
    attempts: counter(METRICS.attempts, 'HTTP requests the client sent, retries included', '{attempt}'),
    retries: counter(METRICS.retries, 'HTTP requests the client sent again after a failed attempt', '{retry}'),
    outcomes: counter(METRICS.outcomes, 'Decisions of the callback handler, by outcome code and source (callback, reconcile)', '{outcome}'),
    refusals: counter(METRICS.refusals, 'Callbacks refused (not genuine, too old, unreadable), by code', '{callback}'),
    duplicates: counter(METRICS.duplicates, 'Callbacks (or reconciled states) already handled, by source', '{callback}'),
    callbackDuration: histogram(METRICS.callbackDuration, 'Duration of the handler\'s decisions, by source and outcome'),
  };
}

/** Runs `fn`, and keeps its failure (a throw or a rejection) away from the call or the delivery. */
function guarded(fn) {
  try {
    const out = fn();
    if (out && typeof out.catch === 'function') out.catch(() => {});
    return out;
  } catch {
    return undefined;
  }
}

/** When something that took `ms` began: now minus `ms` (a span ends now), as ms since the epoch. */
function startOf(ms, now) {
  return Number.isFinite(ms) && ms > 0 ? now - ms : now;
}

/** The client's hooks: `{ onCall, onResponse }`. */
function clientHooks(tracer, instruments) {
  function ended(span, call, end) {
    const failed = end.error !== null;
    const attributes = defined({ [ATTR.operation]: call.operation, 'error.type': failed ? end.error : null });
    if (instruments) {
      instruments.calls.add(1, attributes);
      instruments.callDuration.record(Math.max(0, end.durationMs) / 1000, attributes);
    }
    if (!span) return;
    span.setAttribute(ATTR.attempts, end.attempts);
    if (end.replayed) span.setAttribute(ATTR.replayed, true);
    if (failed) {
      span.setAttribute('error.type', end.error);
      span.setStatus({ code: STATUS_ERROR, message: end.error });
    }
    span.end();
  }

  /** One span per call, active while the call runs: its attempts' spans are its children. */
  function onCall(call, run) {
    const attributes = defined({ [ATTR.operation]: call.operation, [ATTR.projectId]: call.projectId, [ATTR.paymentId]: call.paymentId });
    if (!tracer) return run().then((end) => ended(null, call, end));
    const options = { kind: KIND_INTERNAL, attributes };
    const name = `payment-intake ${call.operation}`;
    if (typeof tracer.startActiveSpan === 'function') {
      return tracer.startActiveSpan(name, options, (span) => run().then((end) => ended(span, call, end)));
    }
    const span = tracer.startSpan(name, options);
    return run().then((end) => ended(span, call, end));
  }

  /** One CLIENT span per attempt (the HTTP request), ending now, begun `durationMs` ago. */
  function onResponse(event) {
    const { address, port, path } = serverOf(event.url);
    const errorType = event.error ?? (event.statusCode !== null && event.statusCode >= 400 ? String(event.statusCode) : null);
    const resend = event.attempt > 1 ? event.attempt - 1 : null;
    if (instruments) {
      const metric = defined({ [ATTR.operation]: event.operation, 'http.response.status_code': event.statusCode, 'error.type': errorType });
      instruments.attempts.add(1, metric);
      if (resend !== null) instruments.retries.add(1, { [ATTR.operation]: event.operation });
    }
    if (!tracer) return;
    const now = Date.now();
    const attributes = defined({
      'http.request.method': 'POST', 'server.address': address, 'server.port': port, 'url.full': event.url, 'url.template': path,
      'http.response.status_code': event.statusCode, 'http.request.resend_count': resend, 'error.type': errorType, [ATTR.operation]: event.operation,
    });
    const span = tracer.startSpan(path ? `POST ${path}` : 'POST', { kind: KIND_CLIENT, attributes, startTime: startOf(event.durationMs, now) });
    if (errorType !== null) span.setStatus({ code: STATUS_ERROR, message: errorType });
    span.end(now);
  }

  return {
    onCall: (call, run) => guarded(() => onCall(call, run)),
    onResponse: (event) => void guarded(() => onResponse(event)),
  };
}

/**
 * What an outcome was: 'handled' (a code of HANDLED), 'refused' (a callback answered 4xx: not
 * genuine, too old, unreadable) or 'failed' (our side: onEvent, the store, the service asked
 * by a reconciliation).
 */
function verdictOf(outcome) {
  if (HANDLED.has(outcome.code)) return 'handled';
  if (outcome.source === 'callback' && outcome.status !== null && outcome.status >= 400 && outcome.status < 500) return 'refused';
  return 'failed';
}

/** The handler's hook: `{ onOutcome }`, a span and the counters per decision. */
function handlerHooks(tracer, instruments) {
  function onOutcome(outcome) {
    const verdict = verdictOf(outcome);
    const errorType = verdict === 'handled' ? null : outcome.code;
    if (instruments) {
      const metric = { [ATTR.outcome]: outcome.code, [ATTR.source]: outcome.source };
      instruments.outcomes.add(1, metric);
      instruments.callbackDuration.record(Math.max(0, outcome.ms) / 1000, metric);
      if (verdict === 'refused') instruments.refusals.add(1, { [ATTR.outcome]: outcome.code });
      if (outcome.code === 'DUPLICATE') instruments.duplicates.add(1, { [ATTR.source]: outcome.source });
    }
    if (!tracer) return;
    const now = Date.now();
    const attributes = defined({
      [ATTR.outcome]: outcome.code, [ATTR.source]: outcome.source, [ATTR.projectId]: outcome.projectId, [ATTR.paymentId]: outcome.paymentId,
      [ATTR.state]: outcome.state, [ATTR.reason]: outcome.reason, 'http.response.status_code': outcome.status, 'error.type': errorType,
    });
    const span = tracer.startSpan(`payment-intake ${outcome.source}`, { kind: KIND_INTERNAL, attributes, startTime: startOf(outcome.ms, now) });
    if (errorType !== null) span.setStatus({ code: STATUS_ERROR, message: errorType });
    span.end(now);
  }
  return { onOutcome: (outcome) => void guarded(() => onOutcome(outcome)) };
}

/**
 * `{ client: { onCall, onResponse }, handler: { onOutcome } }`: spans from `tracer` and metrics
 * from `meter` (either may be left out), for `createClient({ ...options, ...hooks.client })`
 * and `createCallbackHandler({ ...options, ...hooks.handler })` (`composeHooks` keeps hooks
 * of your own beside them).
 */
function otelHooks(options) {
  if (options === null || typeof options !== 'object') throw argumentError('takes { tracer, meter }: an OpenTelemetry Tracer and Meter (either may be left out)');
  const { tracer, meter } = options;
  if (tracer !== undefined && (tracer === null || typeof tracer.startSpan !== 'function')) throw argumentError("'tracer' must be an OpenTelemetry Tracer (trace.getTracer(name)): an object with startSpan()");
  if (meter !== undefined && (meter === null || typeof meter.createCounter !== 'function' || typeof meter.createHistogram !== 'function')) {
    throw argumentError("'meter' must be an OpenTelemetry Meter (metrics.getMeter(name)): an object with createCounter() and createHistogram()");
  }
  if (tracer === undefined && meter === undefined) throw argumentError('takes { tracer, meter }: give a tracer, a meter, or both');
  const instruments = instrumentsOf(meter);
  return Object.freeze({
    client: Object.freeze(clientHooks(tracer, instruments)),
    handler: Object.freeze(handlerHooks(tracer, instruments)),
  });
}

/** Hooks that are observers: each given one is called, in order, its failure kept from the others. */
const OBSERVERS = new Set(['onRequest', 'onResponse', 'onOutcome']);

/** `onCall`s nested: the first given is outermost, so the spans it makes active hold the others'. */
function nestedCalls(hooks) {
  return (call, run) => {
    const chain = hooks.reduceRight((next, hook) => () => {
      let pending = null;
      const once = () => (pending ??= next());
      guarded(() => hook(call, once));
      return once();
    }, run);
    return chain();
  };
}

/**
 * One config from several: members found once are kept as they are; `onCall`, `onRequest`,
 * `onResponse` and `onOutcome` given more than once are composed (every one called, in the
 * order given); any other member given more than once is an error (which one would win?).
 */
function composeHooks(...configs) {
  const out = {};
  const given = new Map();
  for (const [i, config] of configs.entries()) {
    if (config === undefined || config === null) continue;
    if (typeof config !== 'object') throw Object.assign(new TypeError(`composeHooks: argument ${i + 1} must be an object (a config or a set of hooks)`), { code: 'INVALID_ARGUMENT' });
    for (const [name, value] of Object.entries(config)) {
      if (value === undefined) continue;
      if (!given.has(name)) {
        given.set(name, [value]);
        continue;
      }
      if (!(OBSERVERS.has(name) || name === 'onCall') || typeof value !== 'function' || typeof given.get(name)[0] !== 'function') {
        throw Object.assign(new TypeError(`composeHooks: '${name}' is given more than once; only onCall, onRequest, onResponse and onOutcome are composed`), { code: 'INVALID_ARGUMENT' });
      }
      given.get(name).push(value);
    }
  }
  for (const [name, values] of given) {
    if (values.length === 1) out[name] = values[0];
    else if (name === 'onCall') out[name] = nestedCalls(values);
    else out[name] = (event) => void values.forEach((hook) => guarded(() => hook(event)));
  }
  return out;
}

export { composeHooks, otelHooks };
