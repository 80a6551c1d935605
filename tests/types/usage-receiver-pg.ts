// postgresStore over a real `pg` Pool, type-checked: `tx` is the Pool's own PoolClient (@types/pg).
import pg from 'pg';
import { createCallbackHandler } from 'payment-intake';
import { postgresStore } from 'payment-intake/stores/postgres';

export function handler(): void {
  createCallbackHandler({
    keys: 'pem',
    store: postgresStore(new pg.Pool()),
    onEvent: async (_event, { tx }) => {
      const client: pg.PoolClient = tx;
      await client.query('SELECT 1');
    },
  });
}
