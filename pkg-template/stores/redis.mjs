// payment-intake/stores/redis: the callback store of createCallbackHandler on Redis, over the
// merchant's own client (node-redis v4+ or ioredis; the package imports neither). At least
// once, deduplicated: a callback's idempotency key is claimed with a lease on its payment,
// recorded as done only after onEvent resolved, and a lease whose holder died expires so the
// service's retry can take it (onEvent may then run again for that callback: the one case).
//
// Keys (`prefix` default 'payment-intake'; P = the payment, project and payment id URI-encoded,
// inside braces so that a payment's keys share one Redis Cluster slot):
//   <prefix>:version               the layout's version (1), set on first use
//   <prefix>:{P}:lease             the holder's random token while a callback of P is handled (PX leaseMs)
//   <prefix>:{P}:done:<key>        'done' once the callback with idempotency key <key> is handled
//   <prefix>:{P}:state             the payment's recorded state (JSON PaymentState)
//   <prefix>:{P}:create            the create the client recorded (JSON CreateRecord)
//   <prefix>:review:<id>           a kept review (JSON ReviewRecord); <prefix>:reviews indexes them by time
//   <prefix>:{index}:due           recorded payments not final, scored by when they last moved or
//                                  were checked (ms); <prefix>:{index}:expiry by when their
//                                  lifetime ends, until a check after it (members: JSON [project, payment])
// Done keys, states and creates expire `keepSeconds` after their last write (default 30 days, at
// least 7); reviews are kept until removed. Each step is one Lua script, so it is atomic; the
// two indexes are written beside it (a payment's keys and the indexes are in different Cluster
// slots), and `due()` reads each payment's own keys before it answers, so a stale index entry
// costs one look, never a wrong answer.
import crypto from 'node:crypto';

import { expiresAtOf } from './due.mjs';
import { rulesOf } from './rules.mjs';

/** The key layout's version: a store finding a higher one refuses to run (a newer package wrote it). */
export const REDIS_LAYOUT_VERSION = 1;
const DAY = 86400;
const DEFAULTS = { prefix: 'payment-intake', keepSeconds: 30 * DAY };
/** The fewest ms a `leaseMs` option may fix (a claim's own leaseMs: receiver/defaults.mjs). */
const MIN_FIXED_LEASE_MS = 100;

const rules = rulesOf('redisStore');
const { argument, guarded } = rules;

// KEYS: lease, done, state. ARGV: token, leaseMs.
// 'done' when the key was handled; 'busy' when a live lease holds the payment; else the lease
// is taken and the payment's recorded state (or '') comes back with 'claimed'.
const CLAIM = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {'done'} end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return {'busy'} end
return {'claimed', redis.call('GET', KEYS[3]) or ''}`;

// KEYS: lease, done, state. ARGV: token, keepSeconds, next state JSON or '', the state read at claim.
// Acts when the lease is still this token's, or when it expired and nobody changed the payment
// since the claim (no one else acted on it); then marks the key done, records the state and
// drops the lease: 1. Another holder has the payment now: nothing is written: 0.
const COMMIT = `
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then
  if holder then return 0 end
  if (redis.call('GET', KEYS[3]) or '') ~= ARGV[4] then return 0 end
end
redis.call('SET', KEYS[2], 'done', 'EX', ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3], 'EX', ARGV[2]) end
if holder then redis.call('DEL', KEYS[1]) end
return 1`;

// KEYS: lease. ARGV: token. Drops the lease only when it is still this token's.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

// KEYS: review, index. ARGV: JSON, score (ms). 1 when the review is new.
const KEEP = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], KEYS[1])
return 1`;

// KEYS: due, expiry. ARGV: moved before (ms), now (ms), limit. The payments due a check (the
// rule of due.mjs), marked as checked now; their lifetime's check is then done.
const DUE = `
local limit = tonumber(ARGV[3])
local picked, seen = {}, {}
local function take(list)
  for _, member in ipairs(list) do
    if #picked >= limit then return end
    if not seen[member] then seen[member] = true; picked[#picked + 1] = member end
  end
end
take(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, limit))
take(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[2], 'LIMIT', 0, limit))
for _, member in ipairs(picked) do
  redis.call('ZADD', KEYS[1], ARGV[2], member)
  redis.call('ZREM', KEYS[2], member)
end
return picked`;

/** `send(args)` for the client: ioredis (`call`) or node-redis v4+ (`sendCommand([...])`), found by shape. */
function commandSender(client) {
  if (client && typeof client.call === 'function') return (args) => client.call(...args);
  if (client && typeof client.sendCommand === 'function') return (args) => client.sendCommand(args);
  throw argument(
    'client',
    "must be a connected node-redis v4+ client (it has sendCommand([...])) or an ioredis client (it has call(...)); " +
      'a node-redis cluster is not supported (use ioredis\'s Cluster)',
  );
}

/** Runs a Lua script by its SHA-1, loading it on the first NOSCRIPT. */
function scripter(send) {
  const shas = new Map();
  return async (script, keys, args) => {
    let sha = shas.get(script);
    if (!sha) shas.set(script, (sha = crypto.createHash('sha1').update(script).digest('hex')));
    const argv = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await send(['EVALSHA', sha, ...argv]);
    } catch (e) {
      if (!/NOSCRIPT/.test(String(e?.message))) throw e;
      return send(['EVAL', script, ...argv]);
    }
  };
}

function options(given) {
  if (given === null || typeof given !== 'object') throw argument('options', 'must be an object ({ prefix, leaseMs, keepSeconds })');
  const o = { ...DEFAULTS, ...given };
  if (typeof o.prefix !== 'string' || o.prefix === '' || /[{}]/.test(o.prefix) || o.prefix.includes('\u0000')) {
    throw argument('prefix', 'must be a non-empty string without braces');
  }
  if (!(Number.isSafeInteger(o.keepSeconds) && o.keepSeconds >= 7 * DAY)) {
    throw argument('keepSeconds', `must be whole seconds, at least 7 days (${7 * DAY}): the service retries a callback for days`);
  }
  if (o.leaseMs !== undefined) {
    const [, max] = rules.limits.leaseMs;
    if (!(Number.isSafeInteger(o.leaseMs) && o.leaseMs >= MIN_FIXED_LEASE_MS && o.leaseMs <= max)) {
      throw argument('leaseMs', `must be whole milliseconds from ${MIN_FIXED_LEASE_MS} to ${max}`);
    }
  }
  return o;
}

const part = (text) => encodeURIComponent(String(text));
const parsed = (text) => (text === null || text === undefined ? null : JSON.parse(String(text)));
/** A payment as a member of the indexes: JSON of `[projectId, paymentId]`. */
const member = (projectId, paymentId) => JSON.stringify([projectId, paymentId]);

/** The keys of one payment (`prefix`'s), in one Cluster slot. */
function paymentKeys(prefix, projectId, paymentId) {
  const base = `${prefix}:{${part(projectId)}:${part(paymentId)}}`;
  return { lease: `${base}:lease`, state: `${base}:state`, create: `${base}:create`, done: (key) => `${base}:done:${part(key)}` };
}

/** After a state is recorded: a final payment leaves the indexes, another one moved now. */
async function indexState({ send, index }, projectId, paymentId, next) {
  if (next.isFinal) {
    await send(['ZREM', index.due, member(projectId, paymentId)]);
    await send(['ZREM', index.expiry, member(projectId, paymentId)]);
  } else {
    await send(['ZADD', index.due, 'XX', String(Date.now()), member(projectId, paymentId)]);
  }
}

/** Sets the version on first use (`r`: the store's state); refuses a layout written by a newer version. */
function migrate(r) {
  const { send, prefix } = r;
  r.ready ??= (async () => {
    await send(['SET', `${prefix}:version`, String(REDIS_LAYOUT_VERSION), 'NX']);
    const found = Number(await send(['GET', `${prefix}:version`]));
    if (found > REDIS_LAYOUT_VERSION) {
      throw argument('prefix', `'${prefix}' holds keys of layout version ${found}, written by a newer payment-intake (this one knows ${REDIS_LAYOUT_VERSION}): upgrade, or give another prefix`);
    }
  })().catch((e) => {
    r.ready = null;
    throw e;
  });
  return r.ready;
}

/** A claim: the payment's lease taken by a Lua script, settled once (rules.settledOnce). */
async function claim(r, given) {
  const { key, projectId, paymentId, leaseMs } = rules.claimRequest(given);
  await migrate(r);
  const lease = r.fixedLeaseMs ?? leaseMs;
  const keys = paymentKeys(r.prefix, projectId, paymentId);
  const token = crypto.randomUUID();
  const scriptKeys = [keys.lease, keys.done(key), keys.state];
  const [outcome, stateText] = await r.run(CLAIM, scriptKeys, [token, lease]);
  if (String(outcome) !== 'claimed') return { outcome: String(outcome) };
  const seen = String(stateText ?? '');
  const settled = rules.settledOnce({
    async commit(next) {
      const done = await r.run(COMMIT, scriptKeys, [token, r.keepSeconds, next ? JSON.stringify(next) : '', seen]);
      if (Number(done) !== 1) throw rules.leaseLost({ projectId, paymentId, leaseMs: lease });
      // The index is a hint for due(), which reads the state itself: its failure loses nothing.
      if (next) await indexState(r, projectId, paymentId, next).catch(() => {});
    },
    // Drops the lease only while this claim's token holds it.
    release: () => r.run(RELEASE, [keys.lease], [token]),
  });
  return { outcome: 'claimed', previous: seen === '' ? null : JSON.parse(seen), tx: null, commit: settled.commit, release: settled.release };
}

async function keep(r, given) {
  const review = rules.review(given);
  await migrate(r);
  const isNew = await r.run(KEEP, [`${r.prefix}:review:${review.id}`, `${r.prefix}:reviews`], [JSON.stringify(review), Date.parse(review.receivedAt)]);
  return { isNew: Number(isNew) === 1 };
}

async function forget(r, given) {
  const id = rules.reviewId(given);
  await migrate(r);
  await r.send(['DEL', `${r.prefix}:review:${id}`]);
  await r.send(['ZREM', `${r.prefix}:reviews`, `${r.prefix}:review:${id}`]);
}

async function payment(r, ids) {
  const { projectId, paymentId } = rules.idsOf(...ids);
  await migrate(r);
  const keys = paymentKeys(r.prefix, projectId, paymentId);
  const [state, create] = [parsed(await r.send(['GET', keys.state])), parsed(await r.send(['GET', keys.create]))];
  if (state === null && create === null) return null;
  return { ...(state ?? { status: null, subStatus: null, isFinal: false, idempotencyKey: null, updatedAt: null }), create };
}

async function recordCreate(r, given) {
  const { send, index } = r;
  const { projectId, paymentId, create } = rules.createRecord(given);
  await migrate(r);
  const keys = paymentKeys(r.prefix, projectId, paymentId);
  const written = await send(['SET', keys.create, JSON.stringify({ ...create, answer: null }), 'NX', 'EX', String(r.keepSeconds)]);
  if (written === null || written === undefined) return { isNew: false, existing: parsed(await send(['GET', keys.create])) };
  await send(['ZADD', index.due, 'NX', String(Date.parse(create.requestedAt)), member(projectId, paymentId)]);
  await send(['ZADD', index.expiry, 'NX', String(expiresAtOf(create)), member(projectId, paymentId)]);
  return { isNew: true, existing: null };
}

async function recordAnswer(r, projectIdGiven, paymentIdGiven, given) {
  const { projectId, paymentId } = rules.idsOf(projectIdGiven, paymentIdGiven);
  const answer = rules.answer(given);
  await migrate(r);
  const keys = paymentKeys(r.prefix, projectId, paymentId);
  const create = parsed(await r.send(['GET', keys.create]));
  if (create) await r.send(['SET', keys.create, JSON.stringify({ ...create, answer }), 'XX', 'KEEPTTL']);
}

/** The payments due a reconciliation (due.mjs), at most `limit`, marked checked at `now`. */
async function due(r, given) {
  const { send, index } = r;
  const { now, olderThanMs, limit } = rules.dueRequest(given);
  await migrate(r);
  const members = await r.run(DUE, [index.due, index.expiry], [now - olderThanMs, now, limit]);
  const found = [];
  for (const text of members) {
    const [projectId, paymentId] = JSON.parse(String(text));
    const keys = paymentKeys(r.prefix, projectId, paymentId);
    const [create, state] = [parsed(await send(['GET', keys.create])), parsed(await send(['GET', keys.state]))];
    if (create === null || state?.isFinal === true) {
      await send(['ZREM', index.due, String(text)]);
      continue;
    }
    found.push({ projectId, paymentId, create, state });
  }
  return found;
}

/** The kept reviews, oldest first (then by id), at most `limit` (receiver/defaults.mjs). */
async function reviews(r, options) {
  const { limit } = rules.reviewsOptions(options);
  await migrate(r);
  const ids = await r.send(['ZRANGE', `${r.prefix}:reviews`, '0', String(limit - 1)]);
  if (!ids.length) return [];
  const texts = await r.send(['MGET', ...ids.map(String)]);
  return texts.filter((t) => t !== null).map((t) => JSON.parse(String(t)));
}

/**
 * The store. `client`: a connected node-redis v4+ or ioredis client. Options: `prefix`
 * ('payment-intake'), `leaseMs` (when given, used instead of the handler's), `keepSeconds`
 * (how long done keys and payment states are kept after their last write; default 30 days,
 * at least 7).
 */
export function redisStore(client, given = {}) {
  const send = commandSender(client);
  const { prefix, keepSeconds, leaseMs: fixedLeaseMs } = options(given);
  /** The store's state, passed to each of its functions. */
  const r = {
    send, run: scripter(send), prefix, keepSeconds, fixedLeaseMs, ready: null,
    index: { due: `${prefix}:{index}:due`, expiry: `${prefix}:{index}:expiry` },
  };
  return Object.freeze({
    guarantee: 'at-least-once',
    claim: guarded('claim', (request) => claim(r, request)),
    keep: guarded('keep', (review) => keep(r, review)),
    forget: guarded('forget', (id) => forget(r, id)),
    payment: guarded('payment', (...ids) => payment(r, ids)),
    recordCreate: guarded('recordCreate', (record) => recordCreate(r, record)),
    recordAnswer: guarded('recordAnswer', (projectId, paymentId, answer) => recordAnswer(r, projectId, paymentId, answer)),
    due: guarded('due', (request) => due(r, request)),
    reviews: guarded('reviews', (options) => reviews(r, options)),
  });
}
