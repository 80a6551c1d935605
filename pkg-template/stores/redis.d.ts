// Types of `payment-intake/stores/redis` (pkg-template/stores/redis.mjs).
import type { RecordingStore } from 'payment-intake';

/** A connected node-redis v4+ client (`sendCommand([...])`), or an ioredis client or Cluster (`call(...)`). */
export type RedisClientLike =
  | { sendCommand(args: string[]): Promise<unknown> }
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> };

export interface RedisStoreOptions {
  /** First part of every key; default 'payment-intake'. No braces. */
  prefix?: string;
  /** The lease a claim takes on its payment, whole ms from 100 to 2^31 - 1; when given, used instead of the handler's `leaseMs` (default 60000). */
  leaseMs?: number;
  /** How long done keys and payment states are kept after their last write, in seconds; default 30 days, at least 7 days. */
  keepSeconds?: number;
}

/** The version of the key layout this package writes (`<prefix>:version`). */
export const REDIS_LAYOUT_VERSION: number;

/**
 * The callback store in Redis, at least once and deduplicated: a callback's key is claimed with
 * a lease on its payment (another delivery of that payment meanwhile: `busy`, answered 409),
 * marked done only after onEvent resolved; a holder that dies leaves a lease that expires, and
 * the service's retry then handles the callback again. Takes your own client; `tx` is null.
 * A bad client or option is INVALID_ARGUMENT; a client that fails, STORE_FAILED (its error in `cause`).
 */
export function redisStore(client: RedisClientLike, options?: RedisStoreOptions): RecordingStore<null>;
