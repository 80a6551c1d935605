// Types of `payment-intake/otel` (pkg-template/otel/index.mjs). The tracer and the meter are
// typed by the few members this module uses, so these declarations need no
// @opentelemetry/api installed; a Tracer and a Meter of @opentelemetry/api fit them.

/** An attribute's value, as OpenTelemetry takes it. */
export type OtelAttributeValue = string | number | boolean;
export type OtelAttributes = Record<string, OtelAttributeValue | undefined>;

/** What this module asks of a span (@opentelemetry/api's Span has it). */
export interface OtelSpan {
  setAttribute(key: string, value: OtelAttributeValue): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}
/** The span options this module gives (a subset of @opentelemetry/api's SpanOptions). */
export interface OtelSpanOptions {
  kind?: number;
  attributes?: OtelAttributes;
  /** ms since the epoch. */
  startTime?: number;
}
/** What this module asks of a tracer: @opentelemetry/api's Tracer (`trace.getTracer(name)`). */
export interface OtelTracer {
  startSpan(name: string, options?: OtelSpanOptions): OtelSpan;
  /** Used when present, so that the call's span is the parent of its attempts' spans (and of anything the call does). */
  startActiveSpan?<F extends (span: OtelSpan) => unknown>(name: string, options: OtelSpanOptions, fn: F): ReturnType<F>;
}
export interface OtelInstrumentOptions {
  description?: string;
  unit?: string;
  advice?: { explicitBucketBoundaries?: number[] };
}
/** What this module asks of a meter: @opentelemetry/api's Meter (`metrics.getMeter(name)`). */
export interface OtelMeter {
  createCounter(name: string, options?: OtelInstrumentOptions): { add(value: number, attributes?: OtelAttributes): void };
  createHistogram(name: string, options?: OtelInstrumentOptions): { record(value: number, attributes?: OtelAttributes): void };
}

/** What `onCall` of the client gives (the client's CallEvent). */
export interface OtelCallEvent { operation: string; path: string; projectId: string | null; paymentId: string | null; }
/** How a call ended (the client's CallEnd). */
export interface OtelCallEnd { error: string | null; statusCode: number | null; attempts: number; durationMs: number; replayed: boolean; }
/** What `onResponse` of the client gives, as far as this module reads it (the client's ResponseEvent). */
export interface OtelResponseEvent { operation: string; url: string; statusCode: number | null; attempt: number; durationMs: number; error: string | null; }
/** What `onOutcome` of the handler gives, as far as this module reads it (the handler's CallbackOutcome). */
export interface OtelOutcome {
  code: string;
  status: number | null;
  source: 'callback' | 'reconcile';
  projectId: string | null;
  paymentId: string | null;
  state: string | null;
  ms: number;
  reason?: string;
}

export interface OtelHooksOptions {
  /** Spans: one per call (INTERNAL, active while the call runs), one per attempt (CLIENT), one per callback handled or payment reconciled. */
  tracer?: OtelTracer;
  /** Counters and duration histograms (README: docs/observability.md names each). */
  meter?: OtelMeter;
}

export interface OtelHooks {
  /** For `createClient({ ...options, ...hooks.client })`. */
  readonly client: {
    readonly onCall: (call: OtelCallEvent, run: () => Promise<OtelCallEnd>) => unknown;
    readonly onResponse: (event: OtelResponseEvent) => void;
  };
  /** For `createCallbackHandler({ ...options, ...hooks.handler })`. */
  readonly handler: {
    readonly onOutcome: (outcome: OtelOutcome) => void;
  };
}

/**
 * The client's and the handler's hooks that make spans with `tracer` and metrics with `meter`
 * (give either or both). Nothing is imported at run time; no attribute holds a body, a
 * header, a key or card data. A TypeError (code INVALID_ARGUMENT) when neither is given, or
 * one is no tracer or meter.
 */
export function otelHooks(options: OtelHooksOptions): OtelHooks;

/**
 * One config from several: `composeHooks({ ...options, onResponse: mine }, hooks.client)`.
 * `onCall`, `onRequest`, `onResponse` and `onOutcome` given more than once are all called,
 * in the order given (the first `onCall` outermost), a failure of one kept from the others;
 * any other member given more than once is a TypeError (code INVALID_ARGUMENT).
 */
export function composeHooks<A extends object, B extends object>(a: A, b: B): A & B;
export function composeHooks<A extends object, B extends object, C extends object>(a: A, b: B, c: C): A & B & C;
export function composeHooks(...configs: object[]): object;
