// postgresStore's driver for a `pg` Pool (the user's own: the package imports no `pg`): a
// transaction on a client of the pool, and a transaction held open across onEvent for a
// claim, its client closed (never given back to the pool) when the claim is released.

/** A pool's client (pg), checked: a pg Client has `connect` too, but gives no client to release. */
async function connect(pool, argument) {
  let client;
  try {
    client = await pool.connect();
  } catch (cause) {
    if (/already been connected/.test(String(cause?.message))) throw argument('db', 'is a pg Client: give a pg Pool, whose clients each callback takes and gives back');
    throw cause;
  }
  if (!client || typeof client.query !== 'function' || typeof client.release !== 'function') {
    throw argument('db', 'gave no client from connect(): give a pg Pool (new pg.Pool(...))');
  }
  // A connection the server ends while we hold it (a restart, a failover) emits 'error': with
  // no listener that would end the process. Its query fails too; the client is then destroyed.
  let lost = false;
  const onError = () => {
    lost = true;
  };
  client.on?.('error', onError);
  let released = false;
  return {
    client,
    /** Gives the client back, or closes it (`destroy`, or its connection lost); once. */
    release(destroy) {
      if (released) return;
      released = true;
      client.removeListener?.('error', onError);
      client.release(destroy || lost ? true : undefined);
    },
  };
}

/**
 * COMMIT, checked: PostgreSQL answers COMMIT in a transaction that failed (an onEvent that
 * caught the error of a query through `tx`) with ROLLBACK, and no error.
 */
async function commit(client) {
  const done = await client.query('COMMIT');
  if (done?.command === 'ROLLBACK') throw new Error('the transaction had failed (a query through tx failed), so COMMIT rolled it back: nothing was recorded');
}

/** `fn(tx)` in one transaction on a client of `pool`, committed when it resolves, rolled back when it throws. */
async function transaction(pool, argument, fn) {
  const { client, release } = await connect(pool, argument);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await commit(client);
    release();
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    release(true);
    throw error;
  }
}

/**
 * A transaction held across onEvent: `begin(tx)` runs in it first; when it answers null
 * the transaction is rolled back and null answered, else `{ opened, tx, commit(write),
 * rollback() }`, each of commit and rollback called once at most (store-rules.mjs).
 * Rolling back closes the connection (the server rolls its transaction back) instead of
 * giving it back to the pool: an onEvent that failed or ran past its deadline may still
 * hold `tx`, and a write it sends later must fail, not land in the next callback's
 * transaction on a reused client and commit with it. No ROLLBACK is queued: it would wait
 * behind a query of that onEvent still running.
 */
async function hold(pool, argument, begin) {
  const { client, release } = await connect(pool, argument);
  let opened;
  try {
    await client.query('BEGIN');
    opened = await begin(client);
    if (opened === null) {
      await client.query('ROLLBACK');
      release();
      return null;
    }
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    release(true);
    throw error;
  }
  return {
    opened,
    tx: client,
    async commit(write) {
      try {
        await write(client);
        await commit(client);
        release();
      } catch (error) {
        release(true); // the server rolls back what a closed connection held
        throw error;
      }
    },
    async rollback() {
      release(true);
    },
  };
}

/**
 * `{ query, transaction(fn), hold(begin) }` over `pool`; `argument(name, reason)` makes the
 * INVALID_ARGUMENT of a pool that gives no client it can use.
 */
function pgDriver(pool, argument) {
  return {
    query: (text, values) => pool.query(text, values),
    transaction: (fn) => transaction(pool, argument, fn),
    hold: (begin) => hold(pool, argument, begin),
  };
}

export { pgDriver };
