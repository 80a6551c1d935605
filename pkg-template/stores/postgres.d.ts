// Types of `payment-intake/stores/postgres` (pkg-template/stores/postgres.mjs, over
// postgres-pg.mjs and postgres-pglite.mjs).
import type { RecordingStore } from 'payment-intake';

/** What postgresStore takes of a `pg` Pool: `connect()` gives a client to query and release. */
export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}
export interface PgClientLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  release(destroy?: boolean | Error): void;
}
/** What postgresStore takes of a PGlite instance. */
export interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
  transaction<T>(fn: (tx: PgliteTransactionLike) => Promise<T>): Promise<T>;
}
export interface PgliteTransactionLike {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface PostgresStoreOptions {
  /** The schema its tables live in (default 'payment_intake'), created on first use. */
  schema?: string;
}

/**
 * The callback store in PostgreSQL, exactly once: one transaction per callback (its key
 * unique, the payment's row locked), your onEvent's writes through `tx` commit with it.
 * Takes your own `pg` Pool (tx: the PoolClient inside BEGIN) or PGlite (tx: its transaction).
 * A bad database or option is INVALID_ARGUMENT; a database that fails, STORE_FAILED (its error in `cause`).
 */
export function postgresStore<Db extends PgPoolLike | PgliteLike>(db: Db, options?: PostgresStoreOptions): RecordingStore<TxOf<Db>>;
/** The `tx` onEvent gets: PGlite's transaction, or the pool's client (`pg`'s Pool has a callback overload of connect besides). */
export type TxOf<Db> = Db extends { transaction(fn: (tx: infer T) => any): any }
  ? T
  : Db extends { connect(): Promise<infer C>; connect(callback: any): void }
    ? C
    : Db extends { connect(): Promise<infer C> } ? C : unknown;
