// The contract between createCallbackHandler and its stores (memoryStore, postgresStore,
// redisStore): what a store is, written once. A store of your own implements CallbackStore.

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
  key: string;
  projectId: string;
  paymentId: string;
  leaseMs: number;
}

/** A claim the handler holds: commit or release it, once. */
export interface OpenClaim<Tx = unknown> {
  outcome: 'claimed';
  /** The payment's recorded state, read under the claim (never stale). */
  previous: PaymentState | null;
  /** pg: the PoolClient inside BEGIN; PGlite: its transaction; lease stores: null. */
  tx: Tx;
  /** Marks the key done and, when `next` is given, records it as the payment's state (pg: COMMIT). */
  commit(next: PaymentState | null): Promise<void>;
  /** pg: ROLLBACK; lease stores: drops the lease so a retry can claim the key. */
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
  keep(review: ReviewRecord): Promise<{ isNew: boolean }>;
  /** Drops a kept review (the handler's onReview failed outside a claim: the retry shows it again). Optional. */
  forget?(id: string): Promise<void>;
  /** The payment's last recorded state and its recorded create, or null when the store knows neither. */
  payment(projectId: string, paymentId: string): Promise<PaymentRecord | null>;
  /** The kept reviews, oldest first. */
  reviews(options?: { limit?: number }): Promise<ReviewRecord[]>;
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
   * take others.
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
