// payment-intake/otel with the real @opentelemetry/api types: a Tracer and a Meter fit
// otelHooks, its hooks fit createClient and createCallbackHandler (spread, or composed with
// hooks of one's own), and onCall of one's own is typed by the client's CallEvent and CallEnd.
import { metrics, trace, type Meter, type Tracer } from '@opentelemetry/api';
import { createCallbackHandler, createClient, SigningKey, type CallEnd, type CallEvent, type CallbackOutcome, type ClientConfig, type ResponseEvent } from 'payment-intake';
import { composeHooks, otelHooks, type OtelHooks } from 'payment-intake/otel';

const tracer: Tracer = trace.getTracer('shop');
const meter: Meter = metrics.getMeter('shop');
const hooks: OtelHooks = otelHooks({ tracer, meter });
otelHooks({ tracer });
otelHooks({ meter });
// @ts-expect-error: a tracer is no meter
otelHooks({ meter: tracer });

const options: ClientConfig = { baseUrl: 'https://pay.example', merchantId: 'merchant-1', key: SigningKey.generate(), projectId: 'prj_1' };
export const spread = createClient({ ...options, ...hooks.client });
export const composed = createClient(composeHooks({
  ...options,
  onCall: async (call: CallEvent, run: () => Promise<CallEnd>) => {
    const end = await run();
    console.log(call.operation, call.paymentId, end.error ?? 'ok', end.attempts, end.durationMs, end.replayed);
  },
  onResponse: (event: ResponseEvent) => console.log(event.url, event.statusCode),
}, hooks.client));

export const handler = createCallbackHandler(composeHooks({
  keys: '-----BEGIN PUBLIC KEY-----…',
  onEvent: () => {},
  onOutcome: (outcome: CallbackOutcome) => console.log(outcome.code, outcome.source),
}, hooks.handler));
export const spreadHandler = createCallbackHandler({ keys: '-----BEGIN PUBLIC KEY-----…', onEvent: () => {}, ...hooks.handler });
