// A merchant's use of createCallbackHandler, memoryStore and payment-intake/stores/postgres,
// type-checked: the event onEvent gets, `tx` typed as the database's own transaction, every
// adapter, a store of one's own written against CallbackStore.
import { createCallbackHandler, createClient, memoryStore, SigningKey, type CallbackEvent, type CallbackOutcome, type CallbackStore, type Claim, type PaymentRecord, type PaymentState, type ReconcileReport, type ReviewRecord } from 'payment-intake';
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
      const source: 'callback' | 'reconcile' = event.source;
      const changed: boolean = event.amountChanged;
      void source;
      void changed;
    },
    onReview: (review: ReviewRecord) => {
      void review.rawBody;
    },
    leaseMs: 30000,
    onOutcome: (outcome: CallbackOutcome) => {
      const code: string = outcome.code;
      const from: 'callback' | 'reconcile' = outcome.source;
      void code;
      void from;
    },
  });
  const shared = memoryStore();
  const client = createClient({ baseUrl: 'https://pay.example', merchantId: 'm', key: SigningKey.generate(2048), store: shared });
  const report: ReconcileReport = await handler.reconcile({ client, olderThanMs: 600000, limit: 100 });
  void report.payments[0]?.code;
  const known: PaymentRecord | null = await shared.payment('p', 'x');
  void known?.create?.requestedAt;
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
