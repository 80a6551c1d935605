// Types of the callback handler (pkg-template/receiver/): `createCallbackHandler`, its
// config, the event onEvent gets, and the stores' contract (store.d.ts). Copied by
// scripts/build.mjs to pkg/web/receiver/ and pkg/node/receiver/.
import type { HeadersInput, VerifiedCallback, VerifyCallbackOptions } from '../payment_intake.js';
import type { KeyInput, RawBody } from '../index.js';
import type { CallbackStore, PaymentState, ReviewRecord } from './store.js';
export type { CallbackStore, Claim, ClaimRequest, OpenClaim, PaymentState, ReviewRecord } from './store.js';

/** What onEvent gets: a verified callback, ordered against the payment's recorded state. */
export interface CallbackEvent {
  /** The verified callback, as verifyCallback returns it. */
  callback: VerifiedCallback;
  /** The state recorded before this callback, or null (the first one). */
  previous: PaymentState | null;
  /** This callback's state (a row of the spec's states table). */
  state: { status: string; subStatus: string | null; isFinal: boolean };
  /** It moves the payment forward (by the table's order, final states last). False for a dispute or an `error` that comes after a later state. */
  forward: boolean;
  /** This state is final (decline, success): it will never change. */
  final: boolean;
}

export interface CallbackHandlerConfig<Tx = unknown> {
  /** The service's key(s), as verifyCallback takes them (an array during a rotation). */
  keys: KeyInput;
  /** Where keys and states are recorded: memoryStore() (the default), postgresStore(pool), redisStore(client). */
  store?: CallbackStore<Tx>;
  /** verifyCallback's options (toleranceSeconds, expectedMerchantId, options, maxBodyBytes…). */
  verify?: VerifyCallbackOptions;
  /**
   * Your code for each new state of a payment. With postgresStore, write through `tx` (pg: the
   * PoolClient inside BEGIN; PGlite: its transaction): your writes commit with the record. A
   * throw rolls back (or releases the lease) and answers 500, so the service sends it again.
   */
  onEvent(event: CallbackEvent, context: { tx: Tx }): void | Promise<void>;
  /** Genuine callbacks that are not acted on (ambiguous, invalid, after a final state), once each. */
  onReview?(review: ReviewRecord): void | Promise<void>;
  /** Failures answered 5xx (onEvent, the store, the handler's own setup). Default: console.error. */
  onError?(error: unknown): void | Promise<void>;
  /**
   * How long a lease store holds a key for one delivery (ms, default 60000), and onEvent's
   * deadline with every store: an onEvent that has not settled by then is rolled back (pg: its
   * connection closed) or its lease released, and answered 500 `EVENT_TIMEOUT`. Longer than onEvent takes.
   */
  leaseMs?: number;
}

/** An answer for the service: `body` is a small JSON `{ ok, code? }`. */
export interface CallbackAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export interface CallbackHandler<Tx = unknown> {
  /** Any framework: the raw body (text or bytes, never a parsed object) and the headers in, the answer out. */
  handle(rawBody: RawBody, headers: HeadersInput): Promise<CallbackAnswer>;
  /** node:http: `http.createServer(handler.node)`; reads the raw body itself (up to verify.maxBodyBytes, its default 16 KiB). */
  node(req: any, res: any): Promise<void>;
  /** Express 4 and 5: `app.post(path, handler.express())`; reads the raw body itself, or takes express.raw()'s Buffer. */
  express(): (req: any, res: any, next: (error?: unknown) => void) => void;
  /** Fastify: `fastify.register(handler.fastify, { url })`; parses bodies as bytes inside its own route's context only. */
  fastify(instance: any, options: { url?: string }): Promise<void>;
  /** Fetch: `(Request) => Response`, for Workers, Next.js, Deno, Bun, Hono. */
  fetch(request: Request): Promise<Response>;
  /** The store it records in. */
  readonly store: CallbackStore<Tx>;
}

export interface MemoryStoreOptions {
  /** How many done keys are kept (default 100000); past it the oldest are forgotten. */
  maxKeys?: number;
}
