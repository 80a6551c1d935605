// A merchant's use of `payment-intake/stores/redis`, type-checked: both client shapes it takes.
import { REDIS_LAYOUT_VERSION, redisStore, type RedisClaim, type RedisPaymentState } from 'payment-intake/stores/redis';

declare const nodeRedis: { sendCommand(args: string[]): Promise<unknown> };
declare const ioredis: { call(command: string, ...args: (string | number)[]): Promise<unknown> };

export async function run(): Promise<RedisPaymentState | null> {
  const store = redisStore(nodeRedis, { prefix: 'shop', leaseMs: 30000, keepSeconds: 30 * 86400 });
  redisStore(ioredis);
  // @ts-expect-error a client needs sendCommand or call
  redisStore({ get: () => null });
  const guarantee: 'at-least-once' = store.guarantee;
  void guarantee;
  void REDIS_LAYOUT_VERSION;
  const claim: RedisClaim = await store.claim({ key: 'k', projectId: 'p', paymentId: 'x', leaseMs: 1000 });
  if (claim.outcome === 'claimed') {
    const before: RedisPaymentState | null = claim.previous;
    await claim.commit({ status: 'success', subStatus: null, isFinal: true, idempotencyKey: 'k' });
    void before;
  }
  const kept = await store.reviews({ limit: 10 });
  void kept.map((r) => r.code);
  return store.payment('p', 'x');
}
