// postgresStore's driver for PGlite (the user's own instance: the package imports no
// PGlite): its transactions, and one held open across onEvent for a claim. PGlite has one
// connection, so its transactions, and so its claims, run one at a time.

/** Thrown inside a PGlite transaction to roll it back. */
const ROLLBACK = Symbol('rollback');

/** `{ query, transaction(fn), hold(begin) }` over `db`, a PGlite instance. */
function pgliteDriver(db) {
  return {
    query: (text, values) => db.query(text, values),

    /** `fn(tx)` in one transaction, committed when it resolves, rolled back when it throws. */
    transaction: (fn) => db.transaction(fn),

    /**
     * A transaction held across onEvent: `begin(tx)` runs in it first; when it answers null
     * null is answered (nothing was written), else `{ opened, tx, commit(write), rollback() }`,
     * each of commit and rollback called once at most (store-rules.mjs). The transaction's
     * function waits for one of them: `write(tx)` then commit, or a rollback.
     */
    hold(begin) {
      return new Promise((resolve, reject) => {
        let decide;
        const decided = new Promise((settle) => (decide = settle));
        let held = false;
        const finished = db.transaction(async (tx) => {
          const opened = await begin(tx);
          if (opened === null) return resolve(null);
          held = true;
          resolve({
            opened,
            tx,
            commit: (write) => {
              decide({ write });
              return finished.then(() => {});
            },
            rollback: () => {
              decide({ rollback: true });
              return finished.then(() => {}, () => {});
            },
          });
          const { write, rollback } = await decided;
          if (rollback) throw ROLLBACK;
          await write(tx);
          // PGlite commits a transaction whose query failed (an onEvent that caught the error of
          // a query through tx) as a rollback, with no error: this query fails in one instead.
          await tx.query('SELECT 1');
        });
        finished.catch((error) => {
          if (!held) reject(error);
        });
      });
    },
  };
}

export { pgliteDriver };
