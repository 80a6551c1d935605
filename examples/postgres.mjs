// Exactly once, on one machine or many: the callback handler over PostgreSQL (your own `pg`
// Pool; PGlite works the same). Each callback is one transaction: its idempotency key
// recorded, the payment's row locked, onEvent's writes through `tx`, the new state, then
// COMMIT. The credit below commits with the record or not at all: a crash rolls both back and
// the service's retry credits once.
//
//   DATABASE_URL=postgres://… SERVICE_PUBLIC_KEY=service-public.pem PORT=3000 node examples/postgres.mjs
import fs from 'node:fs';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { VerifyingKey, createCallbackHandler } from 'payment-intake';
import { postgresStore } from 'payment-intake/stores/postgres';

/**
 * @param {import('payment-intake').KeyInput} keys
 * @param {import('payment-intake/stores/postgres').PgPoolLike | import('payment-intake/stores/postgres').PgliteLike} db
 * @param {{ onReview?: (review: import('payment-intake').ReviewRecord) => void }} [options]
 */
export async function createServer(keys, db, options = {}) {
  await db.query('CREATE TABLE IF NOT EXISTS order_credits (payment_id text PRIMARY KEY, amount bigint NOT NULL, credited_at timestamptz NOT NULL DEFAULT now())');
  const handler = createCallbackHandler({
    keys,
    store: postgresStore(db),
    verify: { toleranceSeconds: 600 },
    onEvent: async (event, { tx }) => {
      if (event.final && event.callback.status === 'success' && !event.amountChanged) {
        // Through tx: in the callback's transaction, committed with its record. What was paid,
        // and only when it is what was asked: a dispute can change the amount.
        await tx.query('INSERT INTO order_credits (payment_id, amount) VALUES ($1, $2)', [event.callback.paymentId, event.callback.paymentInfo?.amount]);
      } else if (event.amountChanged) {
        console.warn(`payment ${event.callback.paymentId}: paid ${event.callback.paymentInfo?.amount ?? 'an unknown amount'}, not what was asked: to review`);
      }
    },
    onReview: options.onReview ?? ((review) => console.warn('kept a genuine callback to look up:', review.code, review.message)),
  });
  return http.createServer((req, res) => {
    if (req.url !== '/payment-callback') {
      res.writeHead(404).end();
      return;
    }
    handler.node(req, res);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { default: pg } = await import('pg');
  const key = VerifyingKey.fromPem(fs.readFileSync(process.env.SERVICE_PUBLIC_KEY ?? 'service-public.pem', 'utf8'));
  const server = await createServer(key, new pg.Pool({ connectionString: process.env.DATABASE_URL }));
  server.listen(Number(process.env.PORT ?? 3000));
}
