// A merchant's use of `payment-intake/stores/redis`, type-checked: both client shapes it takes.
import { createCallbackHandler, type CallbackStore, type PaymentRecord } from 'payment-intake';
import { REDIS_LAYOUT_VERSION, redisStore } from 'payment-intake/stores/redis';

declare const nodeRedis: { sendCommand(args: string[]): Promise<unknown> };
declare const ioredis: { call(command: string, ...args: (string | number)[]): Promise<unknown> };

export async function run(): Promise<PaymentRecord | null> {
  const store: CallbackStore<null> = redisStore(nodeRedis, { prefix: 'shop', leaseMs: 30000, keepSeconds: 30 * 86400 });
  redisStore(ioredis);
  // @ts-expect-error a client needs sendCommand or call
  redisStore({ get: () => null });
  void REDIS_LAYOUT_VERSION;
  const handler = createCallbackHandler({
    keys: '-----BEGIN PUBLIC KEY-----',
    store,
    onEvent: async (event, { tx }) => {
      const none: null = tx;
      void none;
      void event.callback.idempotencyKey;
    },
  });
  void handler;
  const claim = await store.claim({ key: 'k', projectId: 'p', paymentId: 'x', leaseMs: 1000 });
  if (claim.outcome === 'claimed') await claim.commit(null);
  return store.payment('p', 'x');
}
