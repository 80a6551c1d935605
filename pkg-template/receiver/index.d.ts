// Types of the callback handler (pkg-template/receiver/): `createCallbackHandler`, its
// config, the event onEvent gets, and the stores' contract (store.d.ts). Copied by
// scripts/build.mjs to pkg/web/receiver/ and pkg/node/receiver/, `#glue` the glue's declarations of each build.
import type { HeadersInput, VerifiedCallback, VerifyCallbackOptions } from '#glue';
import type { RawBody } from '../callbacks.js';
import type { KeyInput } from '../keys.js';
import type { CallbackStore, PaymentState, ReviewRecord } from './store.js';
import type { PaymentClient } from '../client/index.js';
export type { CallbackStore, Claim, ClaimRequest, CreateRecord, DuePayment, OpenClaim, PaymentRecord, PaymentState, RecordingStore, ReviewRecord } from './store.js';

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
  /** 'callback': the service sent it; 'reconcile': `handler.reconcile` read it with the info operation. */
  source: 'callback' | 'reconcile';
  /**
   * What was paid is not what was asked: `paymentInfo.amount` differs from `initialAmount` or
   * `oldAmount`, or no amount is said. Credit `callback.paymentInfo.amount` only when false;
   * send the rest to a person (the spec: the merchant contacts support to resolve the appeal).
   */
  amountChanged: boolean;
}

/** What the handler decided, once per delivery and per reconciled payment (`onOutcome`). */
export interface CallbackOutcome {
  /**
   * DELIVERED (onEvent ran and committed), DUPLICATE, STALE, AFTER_FINAL, UNKNOWN_STATE, BUSY,
   * REVIEW (a genuine body kept for a person; `reason` says why), EVENT_FAILED, EVENT_TIMEOUT,
   * STORE_FAILED, REVIEW_FAILED, VERIFY_FAILED, or a refusal's error code (INVALID_SIGNATURE…);
   * for a reconciliation, the client's error code when the service could not be asked.
   */
  code: string;
  /** The HTTP status answered (callbacks); null for a reconciliation. */
  status: number | null;
  source: 'callback' | 'reconcile';
  /** Null when the callback was not verified. */
  idempotencyKey: string | null;
  projectId: string | null;
  paymentId: string | null;
  /** `status:sub_status` of the callback or info answer, or null. */
  state: string | null;
  /** How long the decision took, ms. */
  ms: number;
  reason?: string;
}

/** What `handler.reconcile` found. */
export interface ReconcileReport {
  /** Payments asked about. */
  checked: number;
  /** Their state moved: onEvent ran. */
  advanced: number;
  /** Nothing new (a DUPLICATE, STALE, BUSY, or a review). */
  unchanged: number;
  /** The service could not be asked, or onEvent or the store failed: left for the next run. */
  failed: number;
  /** Each payment asked, with its outcome code and the state the service said. */
  payments: Array<{ projectId: string; paymentId: string; code: string; state: string | null; error?: unknown }>;
}

export interface ReconcileOptions {
  /** A client of `createClient` (its info operations are asked); give it the same store. */
  client: Pick<PaymentClient, 'infoOf'>;
  /** Payments not moved nor checked for this long (ms, default 600000), or whose lifetime ended. */
  olderThanMs?: number;
  /** At most this many payments per run (1 to 10000, default 500). */
  limit?: number;
  /** Info requests in flight at once (1 to 64, default 4). */
  concurrency?: number;
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
  /** Every decision, once per delivery and per reconciled payment; not awaited, and its failure changes nothing. */
  onOutcome?(outcome: CallbackOutcome): void | Promise<void>;
  /**
   * How long a lease store holds a key for one delivery (ms, default 60000), and onEvent's
   * deadline with every store: an onEvent that has not settled by then is rolled back (pg: its
   * connection closed) or its lease released, and answered 500 `EVENT_TIMEOUT`. Longer than onEvent takes;
   * at most 2^31 - 1 (the longest timer).
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
  /**
   * Asks the service about the recorded payments whose callbacks have not come (see
   * ReconcileOptions) and acts on each answer exactly as on a callback of that state. Safe from
   * any number of processes at once; run it on a timer.
   */
  reconcile(options: ReconcileOptions): Promise<ReconcileReport>;
  /** The store it records in. */
  readonly store: CallbackStore<Tx>;
}

export interface MemoryStoreOptions {
  /** How many done keys, and payments, are kept (default 100000); past it the oldest are forgotten (final payments first). */
  maxKeys?: number;
}
