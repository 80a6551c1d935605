// The contract between createCallbackHandler and its stores (memoryStore, postgresStore,
// redisStore): what a store is, written once. A store of your own implements CallbackStore.
//
// Every store of the package keeps it alike, misuse included (tests/js/store-misuse.test.mjs
// runs one kit over all of them), with the defaults of receiver/defaults.mjs:
// - what a method is given wrong is INVALID_ARGUMENT (status 500), its message naming the
//   store and the argument: a key or id that is not a string, holds NUL (U+0000) or is over
//   1024 bytes as UTF-8 (a key: empty, or over 2048), a `leaseMs` that is not a whole number
//   from 1 to 2^31 - 1, a `limit` out of its range, a record that is not JSON or holds NUL;
// - its database or client failing is STORE_FAILED (503), the driver's error as `cause`
//   (always an Error); a lease lost before commit is TIMEOUT (504), nothing recorded;
// - every error is a PaymentIntakeError of the package, with `code`, `status`, `message`.

/** The state a store recorded for a payment: the last one that moved it forward. */
export interface PaymentState {
  status: string;
  subStatus: string | null;
  isFinal: boolean;
  /** Of the callback that set this state. */
  idempotencyKey: string;
  /** ISO time the store recorded it. */
  updatedAt: string;
}

/** A genuine callback kept for a person: not acted on as it is. */
export interface ReviewRecord {
  /**
   * SHA-256 hex of the body's JSON with keys sorted and no whitespace (of the raw bytes when it
   * is not JSON): a repeat of the same body is one record, and so is one re-spaced, re-ordered
   * or re-escaped by someone replaying it (its signature still verifies).
   */
  id: string;
  /**
   * INVALID_CALLBACK / AMBIGUOUS_CALLBACK: signed by the service, but not a callback to act on;
   * AFTER_FINAL: another final state after a final one; UNKNOWN_STATE: no state of the spec's table.
   */
  code: 'INVALID_CALLBACK' | 'AMBIGUOUS_CALLBACK' | 'AFTER_FINAL' | 'UNKNOWN_STATE';
  message: string;
  projectId: string | null;
  paymentId: string | null;
  /** The body as received (UTF-8 text). */
  rawBody: string;
  /** The headers its signature was checked with (x-access-*, content-type), lower-case names. */
  headers: Record<string, string>;
  receivedAt: string;
}

export interface ClaimRequest {
  /** The callback's idempotency key: not empty, at most 2048 bytes as UTF-8, no NUL. */
  key: string;
  /** At most 1024 bytes as UTF-8 each, no NUL (may be empty). */
  projectId: string;
  paymentId: string;
  /**
   * How long the claim holds the payment (lease stores; pg holds it until commit or release),
   * whole ms from 1 to 2^31 - 1; default 60000, the handler's. redisStore's own `leaseMs`
   * option, when given, replaces it.
   */
  leaseMs?: number;
}

/**
 * A claim the handler holds: commit or release it, once. The first `commit()` or `release()`
 * settles it: a `commit()` after that (after a commit, a release, or a commit that failed) is
 * INVALID_ARGUMENT and writes nothing; a `release()` after a commit or a release does nothing,
 * and after a failed commit drops what the claim still holds (as the handler does).
 */
export interface OpenClaim<Tx = unknown> {
  outcome: 'claimed';
  /** The payment's recorded state, read under the claim (never stale). */
  previous: PaymentState | null;
  /** pg: the PoolClient inside BEGIN; PGlite: its transaction; lease stores: null. */
  tx: Tx;
  /**
   * Marks the key done and, when `next` is given, records it as the payment's state (pg:
   * COMMIT): its five members, `updatedAt` the time the store records it. A `next` that is not
   * a PaymentState is INVALID_ARGUMENT, the claim still open. Past its lease (lease stores),
   * it commits only when nobody acted on the payment since; else TIMEOUT, nothing recorded.
   * pg: a transaction that failed (a query through `tx` whose error onEvent caught) is
   * STORE_FAILED, nothing recorded.
   */
  commit(next: PaymentState | null): Promise<void>;
  /** pg: ROLLBACK (its connection closed); lease stores: drops the lease so a retry can claim the key. */
  release(): Promise<void>;
  /** Optional: keeps a review inside the claim (pg: in its transaction, so it commits with the key). */
  keep?(review: ReviewRecord): Promise<{ isNew: boolean }>;
}

export type Claim<Tx = unknown> =
  /** This idempotency key was handled before: answer 200, no onEvent. */
  | { outcome: 'done' }
  /** A live holder has it (lease stores): answer 409 so the service sends it again. */
  | { outcome: 'busy' }
  | OpenClaim<Tx>;

/** What the client recorded of a create (`createClient({ store })`), before sending it. */
export interface CreateRecord {
  /** The create's path (its row's `path` in `operationTable()`). */
  operation: string;
  amount: number | null;
  currency: string | null;
  method: string | null;
  widgetMethod: string | null;
  /** ISO time the create was first sent. */
  requestedAt: string;
  /** `payment.lifetime` as asked (seconds), or null: the spec's default, 600. */
  lifetime: number | null;
  /** The service's answer, once one came: null while none did. */
  answer: { status: string; subStatus: string | null; requestId: string | null; answeredAt: string } | null;
}

/** A payment the store knows: its last recorded state (all null before its first state), and its create. */
export interface PaymentRecord {
  status: string | null;
  subStatus: string | null;
  isFinal: boolean;
  idempotencyKey: string | null;
  updatedAt: string | null;
  /** The create the client recorded, or null (a payment known from its callbacks only). */
  create: CreateRecord | null;
}

/** A payment a reconciliation should ask about (`due()`). */
export interface DuePayment {
  projectId: string;
  paymentId: string;
  create: CreateRecord;
  state: PaymentState | null;
}

export interface CallbackStore<Tx = unknown> {
  readonly guarantee: 'exactly-once' | 'at-least-once';
  /**
   * Claims a callback's key. Serialises per payment as well as per key: while a claim of a
   * payment is open, a claim of another key of it waits (pg) or is `busy` (lease stores).
   */
  claim(request: ClaimRequest): Promise<Claim<Tx>>;
  /** Keeps a review once per id; read back by reviews() as kept (`headers` {} when left out, `receivedAt` to the ms). */
  keep(review: ReviewRecord): Promise<{ isNew: boolean }>;
  /** Drops a kept review (the handler's onReview failed outside a claim: the retry shows it again). Optional. */
  forget?(id: string): Promise<void>;
  /** The payment's last recorded state and its recorded create, or null when the store knows neither. */
  payment(projectId: string, paymentId: string): Promise<PaymentRecord | null>;
  /** The kept reviews, oldest `receivedAt` first, then by id; at most `limit` (1 to 10000, default 100). */
  reviews(options?: { limit?: number } | null): Promise<ReviewRecord[]>;
  /**
   * Records a create before it is sent, once per payment: `isNew` false (and the first
   * record in `existing`) when one was recorded before. For `createClient({ store })`.
   */
  recordCreate?(record: Omit<CreateRecord, 'answer'> & { projectId: string; paymentId: string }): Promise<{ isNew: boolean; existing: CreateRecord | null }>;
  /** Records the service's answer to a recorded create. */
  recordAnswer?(projectId: string, paymentId: string, answer: NonNullable<CreateRecord['answer']>): Promise<void>;
  /**
   * For `handler.reconcile`: at most `limit` recorded payments that are not final and have not
   * moved nor been checked for `olderThanMs` (or whose lifetime ended since their last check),
   * least recently checked first, each marked checked at `now` (ms) so that other processes
   * take others. Each member is required: `now` a whole number from 0, `olderThanMs` from 0,
   * `limit` from 1 to 10000.
   */
  due?(request: { now: number; olderThanMs: number; limit: number }): Promise<DuePayment[]>;
}

/** A store that also records creates and lists the payments due a reconciliation: every store of the package. */
export interface RecordingStore<Tx = unknown> extends CallbackStore<Tx> {
  forget(id: string): Promise<void>;
  recordCreate(record: Omit<CreateRecord, 'answer'> & { projectId: string; paymentId: string }): Promise<{ isNew: boolean; existing: CreateRecord | null }>;
  recordAnswer(projectId: string, paymentId: string, answer: NonNullable<CreateRecord['answer']>): Promise<void>;
  due(request: { now: number; olderThanMs: number; limit: number }): Promise<DuePayment[]>;
}
