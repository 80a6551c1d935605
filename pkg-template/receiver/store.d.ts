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

export interface CallbackStore<Tx = unknown> {
  readonly guarantee: 'exactly-once' | 'at-least-once';
  /**
   * Claims a callback's key. Serialises per payment as well as per key: while a claim of a
   * payment is open, a claim of another key of it waits (pg) or is `busy` (lease stores).
   */
  claim(request: ClaimRequest): Promise<Claim<Tx>>;
  keep(review: ReviewRecord): Promise<{ isNew: boolean }>;
  /** The payment's last recorded state, or null. */
  payment(projectId: string, paymentId: string): Promise<PaymentState | null>;
  /** The kept reviews, oldest first. */
  reviews(options?: { limit?: number }): Promise<ReviewRecord[]>;
}
