// A merchant's use of createCallbackHandler, memoryStore and payment-intake/stores/postgres,
// type-checked: the event onEvent gets, `tx` typed as the database's own transaction, every
// adapter, a store of one's own written against CallbackStore.
import { createCallbackHandler, memoryStore, type CallbackEvent, type CallbackStore, type Claim, type PaymentState, type ReviewRecord } from 'payment-intake';
import { postgresStore, type PgliteLike, type PgliteTransactionLike } from 'payment-intake/stores/postgres';

declare const pglite: PgliteLike;

export async function run(): Promise<number> {
  const credited: string[] = [];
  const handler = createCallbackHandler({
    keys: '-----BEGIN PUBLIC KEY-----…',
    store: postgresStore(pglite, { schema: 'payment_intake' }),
    verify: { toleranceSeconds: 600, expectedMerchantId: 'merchant-1' },
    onEvent: async (event: CallbackEvent, { tx }) => {
      const t: PgliteTransactionLike = tx;
      if (event.final && event.callback.status === 'success') {
        await t.query('INSERT INTO credits (payment_id) VALUES ($1)', [event.callback.paymentId]);
        credited.push(event.callback.paymentId);
      }
      const before: PaymentState | null = event.previous;
      void before?.updatedAt;
      void event.forward;
    },
    onReview: (review: ReviewRecord) => {
      void review.rawBody;
    },
    leaseMs: 30000,
  });
  const answer = await handler.handle('{}', { 'x-access-signature': 's' });
  const status: number = answer.status;
  const text: string = answer.body;
  void text;
  const node: (req: unknown, res: unknown) => Promise<void> = handler.node;
  void node;
  void handler.express();
  const response: Response = await handler.fetch(new Request('https://m.example/', { method: 'POST' }));
  void response;
  void handler.fastify;

  const memory = createCallbackHandler({ keys: 'pem', store: memoryStore({ maxKeys: 1000 }), onEvent: (_event, { tx }) => { const none: null = tx; void none; } });
  void memory.store.guarantee;
  // @ts-expect-error onEvent is required
  createCallbackHandler({ keys: 'pem' });

  const own: CallbackStore = {
    guarantee: 'at-least-once',
    claim: async (): Promise<Claim> => ({ outcome: 'busy' }),
    keep: async () => ({ isNew: true }),
    payment: async () => null,
    reviews: async () => [],
  };
  void createCallbackHandler({ keys: 'pem', store: own, onEvent: () => {} });
  return status;
}
