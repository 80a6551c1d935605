// payment-intake/stores/redis: createCallbackHandler's store on Redis, over your own
// node-redis v4+ or ioredis client (the package depends on neither). At least once,
// deduplicated: see the README, "Receiving callbacks".

/** A connected node-redis v4+ client (`sendCommand([...])`) or ioredis client or Cluster (`call(...)`). */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> };

export interface RedisStoreOptions {
  /** First part of every key; default 'payment-intake'. No braces. */
  prefix?: string;
  /** The lease a claim takes on its payment, in ms; when given, used instead of the handler's. */
  leaseMs?: number;
  /** How long done keys and payment states are kept after their last write, in seconds; default 30 days, at least 7 days. */
  keepSeconds?: number;
}

/** The payment's state as a store records it. */
export interface RedisPaymentState {
  status: string;
  subStatus: string | null;
  isFinal: boolean;
  idempotencyKey: string;
  updatedAt: string;
}

/** A genuine callback kept for review. */
export interface RedisReviewRecord {
  id: string;
  code: 'INVALID_CALLBACK' | 'AMBIGUOUS_CALLBACK' | 'AFTER_FINAL';
  message: string;
  projectId: string | null;
  paymentId: string | null;
  rawBody: string;
  headers: Record<string, string>;
  receivedAt: string;
}

export type RedisClaim =
  | { outcome: 'done' }
  | { outcome: 'busy' }
  | {
      outcome: 'claimed';
      previous: RedisPaymentState | null;
      tx: null;
      commit(next: Omit<RedisPaymentState, 'updatedAt'> | RedisPaymentState | null): Promise<void>;
      release(): Promise<void>;
    };

export interface RedisCallbackStore {
  readonly guarantee: 'at-least-once';
  claim(c: { key: string; projectId: string; paymentId: string; leaseMs?: number }): Promise<RedisClaim>;
  keep(review: RedisReviewRecord): Promise<{ isNew: boolean }>;
  payment(projectId: string, paymentId: string): Promise<RedisPaymentState | null>;
  /** The kept reviews, oldest first; at most `limit` (default 100). */
  reviews(options?: { limit?: number }): Promise<RedisReviewRecord[]>;
}

/** The version of the key layout this package writes (`<prefix>:version`). */
export const REDIS_LAYOUT_VERSION: number;

/** The store on `client`; keys are created on first use. */
export function redisStore(client: RedisClientLike, options?: RedisStoreOptions): RedisCallbackStore;
