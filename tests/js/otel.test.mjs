// `payment-intake/otel` with the real OpenTelemetry SDK (devDependencies): the in-memory span
// exporter and a metric reader collected on demand, the AsyncLocalStorage context manager a
// Node SDK registers. The client against the in-process sandbox (a retry, an error, a throwing
// hook), the handler through handle() (delivered, duplicate, tampered) and reconcile(); no
// attribute, span name or status message holds a card number, a CVV or a signature.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';

import { cjs as api, pkgDir, root } from './helpers.mjs';
import { SERVICE_KEY, merchantKey, nextId, withSandbox } from './support/sandbox-kit.mjs';

const { otelHooks, composeHooks } = await import(pathToFileURL(path.join(pkgDir, 'otel', 'index.mjs')).href);

const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
after(() => context.disable());

const PAN = '4111111111111111';
const CVV = '737';
const SPAN_KIND = { INTERNAL: 0, CLIENT: 2 };
const STATUS = { UNSET: 0, ERROR: 2 };

class CollectingReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

/** A tracer and a meter of the SDK, what they recorded, and a sum of a counter's points. */
function telemetry() {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('otel-test');
  const reader = new CollectingReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('otel-test');
  const spans = () => exporter.getFinishedSpans();
  async function metrics() {
    const { resourceMetrics, errors } = await reader.collect();
    assert.deepEqual(errors, []);
    return new Map(resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).map((metric) => [metric.descriptor.name, metric]));
  }
  /** The sum of `name`'s points whose attributes include `where` (a histogram: its count). */
  async function total(name, where = {}) {
    const metric = (await metrics()).get(name);
    if (!metric) return 0;
    const matches = metric.dataPoints.filter((point) => Object.entries(where).every(([key, value]) => point.attributes[key] === value));
    return matches.reduce((sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count), 0);
  }
  return { tracer, meter, spans, metrics, total };
}

/** Every text the telemetry holds: span names, attribute values, status messages, event names and metric attributes. */
async function texts({ spans, metrics }) {
  const out = [];
  for (const span of spans()) {
    out.push(span.name, span.status.message ?? '', ...Object.values(span.attributes).map(String));
    for (const event of span.events) out.push(event.name, ...Object.values(event.attributes ?? {}).map(String));
  }
  for (const metric of (await metrics()).values()) for (const point of metric.dataPoints) out.push(...Object.values(point.attributes).map(String));
  return out;
}
async function assertNothingSecret(t, secrets) {
  const all = await texts(t);
  assert.ok(all.length > 10, `${all.length} texts`);
  for (const text of all) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `'${text}' holds '${secret}'`);
    assert.notEqual(text, CVV);
  }
}

const clientOf = (sandbox, config = {}) => api.createClient({
  baseUrl: sandbox.url, merchantId: sandbox.merchantId, key: merchantKey, projectId: 'prj_1',
  timeoutMs: 5000, retries: 2, retryDelayMs: 5, maxRetryDelayMs: 20, ...config,
});
async function setFaults(sandbox, faults) {
  const res = await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ faults }) });
  assert.equal(res.status, 200, await res.text());
}
/** A fetch that records the signature of every request it sends. */
function signatureRecorder() {
  const signatures = [];
  const fetchFn = (url, init) => {
    signatures.push(init.headers['x-access-signature']);
    return fetch(url, init);
  };
  return { signatures, fetch: fetchFn };
}
/** Callbacks that never arrive: the sandbox's callbacks go to a port nothing listens on. */
const NOWHERE = { merchant_callback_url: 'http://127.0.0.1:9/cb', merchant_success_callback_url: 'http://127.0.0.1:9/ok', merchant_decline_callback_url: 'http://127.0.0.1:9/no' };
/** An ECOM create carrying card data (the spec does not show ECOM bodies: the client sends what it is given). */
const ecomBody = (paymentId = nextId('ecom')) => ({
  general: { project_id: 'prj_1', payment_id: paymentId, ...NOWHERE },
  payment: { amount: 2500, currency: 'RUB' },
  card: { pan: PAN, cvv: CVV, expiry: '12/30', holder: 'IVAN IVANOV' },
});
const byName = (spans, name) => spans.filter((span) => span.name === name);

describe('otelHooks: the client', () => {
  test('a create retried once: one INTERNAL span for the call, a CLIENT span per attempt under it, resend_count on the retry; counters; your own hooks still called', () => withSandbox({}, async ({ sandbox }) => {
    const t = telemetry();
    const hooks = otelHooks({ tracer: t.tracer, meter: t.meter });
    const { signatures, fetch: fetchFn } = signatureRecorder();
    const mine = { calls: [], ends: [], responses: [] };
    const client = clientOf(sandbox, composeHooks({
      fetch: fetchFn,
      onCall: async (call, run) => {
        mine.calls.push(call);
        mine.ends.push(await run());
      },
      onResponse: (event) => mine.responses.push(event),
    }, hooks.client));
    await setFaults(sandbox, [{ type: 'status', status: 503, count: 1 }]);
    const body = ecomBody();
    const created = await client.ecom.payin.create(body);
    assert.equal(created.response.attempts, 2);

    const spans = t.spans();
    const [call] = byName(spans, 'payment-intake ecom.payin.create');
    assert.ok(call, spans.map((s) => s.name).join(', '));
    assert.equal(call.kind, SPAN_KIND.INTERNAL);
    assert.equal(call.status.code, STATUS.UNSET);
    assert.deepEqual(call.attributes, {
      'payment_intake.operation': 'ecom.payin.create', 'payment_intake.project_id': 'prj_1', 'payment_intake.payment_id': body.general.payment_id, 'payment_intake.attempts': 2,
    });
    const attempts = byName(spans, 'POST /api/v1/payment/ecom/payin');
    assert.equal(attempts.length, 2);
    const { port } = new URL(sandbox.url);
    for (const span of attempts) {
      assert.equal(span.kind, SPAN_KIND.CLIENT);
      assert.equal(span.parentSpanContext?.spanId, call.spanContext().spanId, 'an attempt is a child of its call');
      assert.equal(span.spanContext().traceId, call.spanContext().traceId);
      assert.equal(span.attributes['http.request.method'], 'POST');
      assert.equal(span.attributes['server.address'], '127.0.0.1');
      assert.equal(span.attributes['server.port'], Number(port));
      assert.equal(span.attributes['url.full'], `${sandbox.url}/api/v1/payment/ecom/payin`);
      assert.equal(span.attributes['payment_intake.operation'], 'ecom.payin.create');
    }
    assert.equal(attempts[0].attributes['http.response.status_code'], 503);
    assert.equal(attempts[0].attributes['error.type'], '503');
    assert.equal(attempts[0].status.code, STATUS.ERROR);
    assert.equal(attempts[0].attributes['http.request.resend_count'], undefined, 'a first attempt is no resend');
    assert.equal(attempts[1].attributes['http.response.status_code'], 200);
    assert.equal(attempts[1].attributes['http.request.resend_count'], 1);
    assert.equal(attempts[1].status.code, STATUS.UNSET);
    assert.equal(attempts[1].attributes['error.type'], undefined);

    assert.equal(await t.total('payment_intake.client.calls', { 'payment_intake.operation': 'ecom.payin.create' }), 1);
    assert.equal(await t.total('payment_intake.client.calls', { 'error.type': undefined }), 1, 'no error.type on a call that passed');
    assert.equal(await t.total('payment_intake.client.attempts', { 'payment_intake.operation': 'ecom.payin.create' }), 2);
    assert.equal(await t.total('payment_intake.client.attempts', { 'http.response.status_code': 503, 'error.type': '503' }), 1);
    assert.equal(await t.total('payment_intake.client.retries', { 'payment_intake.operation': 'ecom.payin.create' }), 1);
    assert.equal(await t.total('payment_intake.client.call.duration', { 'payment_intake.operation': 'ecom.payin.create' }), 1);

    // composeHooks: your hooks saw the same call, its end and both attempts.
    assert.deepEqual(mine.calls, [{ operation: 'ecom.payin.create', path: '/api/v1/payment/ecom/payin', projectId: 'prj_1', paymentId: body.general.payment_id }]);
    assert.deepEqual({ ...mine.ends[0], durationMs: 0 }, { error: null, statusCode: 200, attempts: 2, durationMs: 0, replayed: false });
    assert.deepEqual(mine.responses.map((r) => [r.statusCode, r.attempt, r.url]), [[503, 1, `${sandbox.url}/api/v1/payment/ecom/payin`], [200, 2, `${sandbox.url}/api/v1/payment/ecom/payin`]]);
    assert.ok(!mine.responses.some((r) => JSON.stringify(r).includes(PAN)));
    assert.equal(signatures.length, 2);
    await assertNothingSecret(t, [PAN, ...signatures, ...signatures.map((s) => s.slice(0, 24))]);
  }));

  test('calls that fail: error.type is the error code, the span ERROR; a body refused before sending has no attempt', () => withSandbox({}, async ({ sandbox }) => {
    const t = telemetry();
    const client = clientOf(sandbox, otelHooks({ tracer: t.tracer, meter: t.meter }).client);
    await assert.rejects(client.p2p.payin.confirm({ paymentId: 'never-made' }), (e) => e.code === 'REQUEST_REJECTED');
    await assert.rejects(client.p2p.payin.create({ general: { project_id: 'prj_1', payment_id: 'bad' }, payment: { amount: -1, card: { pan: PAN, cvv: CVV } } }), (e) => e.code === 'REQUEST_INVALID');

    const [confirm] = byName(t.spans(), 'payment-intake p2p.payin.confirm');
    assert.equal(confirm.status.code, STATUS.ERROR);
    assert.equal(confirm.status.message, 'REQUEST_REJECTED');
    assert.equal(confirm.attributes['error.type'], 'REQUEST_REJECTED');
    assert.equal(confirm.attributes['payment_intake.payment_id'], 'never-made');
    assert.equal(confirm.attributes['payment_intake.attempts'], 1);
    const [attempt] = byName(t.spans(), 'POST /api/v1/payment/p2p/payin/confirm');
    assert.equal(attempt.parentSpanContext?.spanId, confirm.spanContext().spanId);
    assert.equal(attempt.status.code, STATUS.ERROR);
    assert.equal(attempt.attributes['error.type'], String(attempt.attributes['http.response.status_code']));

    const [invalid] = byName(t.spans(), 'payment-intake p2p.payin.create');
    assert.equal(invalid.attributes['error.type'], 'REQUEST_INVALID');
    assert.equal(invalid.attributes['payment_intake.attempts'], 0);
    assert.equal(byName(t.spans(), 'POST /api/v1/payment/p2p/payin').length, 0, 'nothing was sent');

    assert.equal(await t.total('payment_intake.client.calls', { 'error.type': 'REQUEST_REJECTED', 'payment_intake.operation': 'p2p.payin.confirm' }), 1);
    assert.equal(await t.total('payment_intake.client.calls', { 'error.type': 'REQUEST_INVALID' }), 1);
    assert.equal(await t.total('payment_intake.client.retries'), 0);
    await assertNothingSecret(t, [PAN]);
  }));

  test('a hook or a tracer that throws, rejects or never calls run() breaks no call; calls at once each get their own span', () => withSandbox({}, async ({ sandbox }) => {
    const t = telemetry();
    const broken = {
      startSpan: () => { throw new Error('tracer down'); },
      startActiveSpan: () => { throw new Error('tracer down'); },
    };
    const hooks = composeHooks(
      { onCall: () => { throw new Error('hook'); }, onResponse: () => { throw new Error('hook'); } },
      { onCall: () => Promise.reject(new Error('async hook')) },
      { onCall: () => {} }, // never calls run(): the call runs anyway
      otelHooks({ tracer: broken }).client,
      otelHooks({ tracer: t.tracer }).client,
    );
    const client = clientOf(sandbox, hooks);
    const balance = await client.balance();
    assert.equal(balance.response.statusCode, 200);
    const infos = await Promise.allSettled([1, 2, 3].map((n) => client.p2p.payin.info({ paymentId: `missing-${n}` })));
    assert.equal(infos.length, 3);
    const calls = byName(t.spans(), 'payment-intake p2p.payin.info');
    assert.equal(calls.length, 3);
    assert.deepEqual(calls.map((s) => s.attributes['payment_intake.payment_id']).sort(), ['missing-1', 'missing-2', 'missing-3']);
    for (const call of calls) {
      const children = t.spans().filter((s) => s.parentSpanContext?.spanId === call.spanContext().spanId);
      assert.equal(children.length, 1, 'each call its own attempt');
    }
    assert.ok(byName(t.spans(), 'payment-intake balance')[0], 'balance');
  }));
});

describe('otelHooks: the callback handler', () => {
  const SERVICE = api.SigningKey.fromPem(SERVICE_KEY);
  const servicePublic = SERVICE.publicKeyPem();
  /** A callback as the service signs it, with a card number among the requisites. */
  const signedCallback = (paymentId, state = 'success') => {
    const [status, subStatus = null] = state.split(':');
    const body = JSON.stringify({
      project_id: 'prj_1',
      general: { payment_id: paymentId, request_id: 'r-1' },
      status: { status, sub_status: subStatus, status_description: null },
      payment_info: { amount: 150000, currency: 'RUB', pan: PAN, cvv: CVV },
      recipient_requisites: { pan: PAN, card_holder: 'IVAN IVANOV' },
    });
    return api.signRequest(body, SERVICE, { merchantId: 'merchant-1' });
  };

  test('delivered, duplicate, tampered: a span each with its outcome, ERROR for the refusal; the counters', async () => {
    const t = telemetry();
    const outcomes = [];
    const handler = api.createCallbackHandler(composeHooks({
      keys: servicePublic, verify: { toleranceSeconds: 600 }, onEvent: () => {}, onOutcome: (o) => outcomes.push(o),
    }, otelHooks({ tracer: t.tracer, meter: t.meter }).handler));
    const sent = signedCallback('order-otel-1');
    const answers = [];
    answers.push(await handler.handle(sent.body, sent.headers));
    answers.push(await handler.handle(sent.body, sent.headers));
    const tampered = sent.body.replace('150000', '990000');
    answers.push(await handler.handle(tampered, sent.headers));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 401]);
    assert.deepEqual(outcomes.map((o) => o.code), ['DELIVERED', 'DUPLICATE', 'INVALID_SIGNATURE']);

    const spans = byName(t.spans(), 'payment-intake callback');
    assert.equal(spans.length, 3);
    const [delivered, duplicate, refused] = spans;
    assert.equal(delivered.kind, SPAN_KIND.INTERNAL);
    assert.deepEqual(delivered.attributes, {
      'payment_intake.outcome': 'DELIVERED', 'payment_intake.source': 'callback', 'payment_intake.project_id': 'prj_1',
      'payment_intake.payment_id': 'order-otel-1', 'payment_intake.state': 'success:', 'http.response.status_code': 200,
    });
    assert.equal(delivered.status.code, STATUS.UNSET);
    assert.equal(duplicate.attributes['payment_intake.outcome'], 'DUPLICATE');
    assert.equal(duplicate.status.code, STATUS.UNSET);
    assert.equal(refused.attributes['payment_intake.outcome'], 'INVALID_SIGNATURE');
    assert.equal(refused.attributes['error.type'], 'INVALID_SIGNATURE');
    assert.equal(refused.attributes['http.response.status_code'], 401);
    assert.equal(refused.attributes['payment_intake.payment_id'], undefined, 'nothing of a body that is not genuine');
    assert.equal(refused.status.code, STATUS.ERROR);

    assert.equal(await t.total('payment_intake.callbacks.outcomes', { 'payment_intake.source': 'callback' }), 3);
    assert.equal(await t.total('payment_intake.callbacks.outcomes', { 'payment_intake.outcome': 'DELIVERED' }), 1);
    assert.equal(await t.total('payment_intake.callbacks.duplicates', { 'payment_intake.source': 'callback' }), 1);
    assert.equal(await t.total('payment_intake.callbacks.refusals', { 'payment_intake.outcome': 'INVALID_SIGNATURE' }), 1);
    assert.equal(await t.total('payment_intake.callbacks.refusals'), 1);
    assert.equal(await t.total('payment_intake.callbacks.duration', { 'payment_intake.source': 'callback' }), 3);
    await assertNothingSecret(t, [PAN, sent.headers['x-access-signature'], sent.headers['x-access-signature'].slice(0, 24)]);
  });

  test('an onEvent that throws: EVENT_FAILED, ERROR; the span is a child of the context the delivery came in', async () => {
    const t = telemetry();
    const handler = api.createCallbackHandler({
      keys: servicePublic, verify: { toleranceSeconds: 600 }, onError: () => {}, onEvent: () => { throw new Error('db down'); },
      ...otelHooks({ tracer: t.tracer }).handler,
    });
    const sent = signedCallback('order-otel-2');
    await t.tracer.startActiveSpan('POST /callbacks', async (server) => {
      assert.equal((await handler.handle(sent.body, sent.headers)).status, 500);
      server.end();
    });
    const [server] = byName(t.spans(), 'POST /callbacks');
    const [failed] = byName(t.spans(), 'payment-intake callback');
    assert.equal(failed.attributes['payment_intake.outcome'], 'EVENT_FAILED');
    assert.equal(failed.attributes['error.type'], 'EVENT_FAILED');
    assert.equal(failed.status.code, STATUS.ERROR);
    assert.equal(failed.parentSpanContext?.spanId, server.spanContext().spanId);
  });

  test('reconcile: a span per payment (source reconcile) beside the info call\'s, ERROR when the service could not be asked', () => withSandbox({}, async ({ sandbox }) => {
    const t = telemetry();
    const hooks = otelHooks({ tracer: t.tracer, meter: t.meter });
    const store = api.memoryStore();
    const client = clientOf(sandbox, { store, ...hooks.client });
    const handler = api.createCallbackHandler({ keys: sandbox.servicePublicKeyPem, store, onEvent: () => {}, onError: () => {}, ...hooks.handler });
    const body = { general: { project_id: 'prj_1', payment_id: nextId('rc'), ...NOWHERE }, payment: { method: 'card-p2p', amount: 150000, currency: 'RUB', lifetime: 300 }, customer: { id: 'user-7', ip_address: '203.0.113.7', country: 'RU' } };
    await client.p2p.payin.create(body);
    const down = { infoOf: () => Promise.reject(Object.assign(new Error('down'), { code: 'NETWORK_ERROR' })) };
    const failed = await handler.reconcile({ client: down, olderThanMs: 0 });
    assert.equal(failed.failed, 1);
    const report = await handler.reconcile({ client, olderThanMs: 0 });
    assert.equal(report.checked, 1);
    assert.equal(report.unchanged + report.advanced, 1);

    const spans = byName(t.spans(), 'payment-intake reconcile');
    assert.equal(spans.length, 2);
    assert.equal(spans[0].attributes['payment_intake.outcome'], 'NETWORK_ERROR');
    assert.equal(spans[0].attributes['error.type'], 'NETWORK_ERROR');
    assert.equal(spans[0].status.code, STATUS.ERROR);
    assert.equal(spans[0].attributes['payment_intake.payment_id'], body.general.payment_id);
    assert.equal(spans[1].attributes['payment_intake.source'], 'reconcile');
    assert.equal(spans[1].attributes['payment_intake.outcome'], report.payments[0].code);
    assert.equal(spans[1].attributes['payment_intake.state'], report.payments[0].state);
    assert.equal(spans[1].attributes['http.response.status_code'], undefined, 'no HTTP answer of ours');
    assert.equal(spans[1].status.code, STATUS.UNSET);
    assert.equal(byName(t.spans(), 'payment-intake p2p.payin.info').length, 1, "the reconcile's info call");
    assert.equal(await t.total('payment_intake.callbacks.outcomes', { 'payment_intake.source': 'reconcile' }), 2);
    assert.equal(await t.total('payment_intake.callbacks.refusals'), 0, 'a failure is no refusal');
  }));
});

describe('otelHooks and composeHooks: arguments', () => {
  test('a tracer alone, a meter alone; neither, or something else, is INVALID_ARGUMENT', async () => {
    const t = telemetry();
    assert.equal(typeof otelHooks({ tracer: t.tracer }).client.onCall, 'function');
    otelHooks({ meter: t.meter }).handler.onOutcome({ code: 'DUPLICATE', status: 200, source: 'callback', projectId: null, paymentId: null, state: null, ms: 1 });
    assert.equal(await t.total('payment_intake.callbacks.duplicates'), 1);
    for (const bad of [undefined, null, {}, { tracer: {} }, { meter: { createCounter() {} } }, { tracer: null }]) {
      assert.throws(() => otelHooks(bad), (e) => e instanceof TypeError && e.code === 'INVALID_ARGUMENT' && /otelHooks/.test(e.message), JSON.stringify(bad));
    }
    assert.ok(Object.isFrozen(otelHooks({ tracer: t.tracer }).client));
  });

  test('composeHooks keeps members found once, composes the hooks, and refuses any other member given twice', () => {
    const seen = [];
    const composed = composeHooks({ keys: 'k', onOutcome: (o) => seen.push(['a', o]) }, null, { onOutcome: (o) => seen.push(['b', o]), leaseMs: 5 });
    assert.equal(composed.keys, 'k');
    assert.equal(composed.leaseMs, 5);
    composed.onOutcome(1);
    assert.deepEqual(seen, [['a', 1], ['b', 1]]);
    assert.throws(() => composeHooks({ onEvent: () => {} }, { onEvent: () => {} }), (e) => e.code === 'INVALID_ARGUMENT' && /'onEvent'/.test(e.message));
    assert.throws(() => composeHooks({ timeoutMs: 1 }, { timeoutMs: 2 }), (e) => e.code === 'INVALID_ARGUMENT');
    assert.throws(() => composeHooks('x'), (e) => e.code === 'INVALID_ARGUMENT');
  });

  test('onCall composed: the first is outermost, run() once, every one sees the end', async () => {
    const order = [];
    const composed = composeHooks(
      { onCall: async (call, run) => { order.push('a start'); const end = await run(); order.push(`a end ${end.attempts}`); } },
      { onCall: async (call, run) => { order.push('b start'); const end = await run(); order.push(`b end ${end.attempts}`); } },
    );
    let runs = 0;
    await composed.onCall({ operation: 'x' }, async () => { runs += 1; order.push('run'); return { attempts: 3 }; });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(runs, 1);
    assert.deepEqual(order, ['a start', 'b start', 'run', 'b end 3', 'a end 3']);
  });
});

test('docs/observability.md: its JS block runs as written with the package and the SDK installed', { timeout: 120_000 }, () => {
  const doc = fs.readFileSync(path.join(root, 'docs', 'observability.md'), 'utf8');
  // As in the README: a block right after `<!-- fragment -->` is not meant to run alone.
  const runnable = [...doc.matchAll(/^(<!-- fragment -->\n)?```js\n([\s\S]*?)^```$/gm)].filter((m) => !m[1]);
  assert.equal(runnable.length, 1, 'one js block to run');
  const [, , code] = runnable[0];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'otel-doc-'));
  try {
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.symlinkSync(pkgDir, path.join(dir, 'node_modules', 'payment-intake'), 'dir');
    fs.symlinkSync(path.join(root, 'node_modules', '@opentelemetry'), path.join(dir, 'node_modules', '@opentelemetry'), 'dir');
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'merchant-app', private: true, type: 'module' }));
    fs.writeFileSync(path.join(dir, 'otel.mjs'), code);
    const ran = spawnSync(process.execPath, ['otel.mjs'], { cwd: dir, encoding: 'utf8', timeout: 100_000 });
    assert.equal(ran.status, 0, `${ran.stdout}\n${ran.stderr}`);
    const shown = doc.match(/^It prints[^\n]*\n\n```text\n([\s\S]*?)```$/m);
    assert.ok(shown, 'the document shows what it prints');
    const lines = (text) => text.trim().split('\n').map((line) => line.replace(/order-\d+/g, 'order-…'));
    assert.deepEqual(lines(ran.stdout), lines(shown[1]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
