// Creates that are safe to call again: what a create asked (its project, payment id, amount,
// currency and method), compared with the payment the service (or the store) already holds
// under its payment_id. The same request resolves as that payment (`response.replayed`),
// whatever call made it first; a different one is PAYMENT_EXISTS with `.existing` filled
// and the members that differ. With `createClient({ store })` each create is recorded before
// it is sent, and the service's answer after: a repeat is known before it goes out.
import { statusModel } from './models.mjs';

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
/** The members compared, as the create body and the info's payment_info name them. */
const COMPARED = ['amount', 'currency', 'method', 'widget_method'];

/** What a create's body asks: `{ amount, currency, method, widget_method }` (undefined where absent). */
function askedOf(request) {
  const payment = isObject(request?.payment) ? request.payment : {};
  return Object.fromEntries(COMPARED.map((name) => [name, payment[name]]));
}

/**
 * What the payment held under the payment_id was asked for, by the info's payment_info: its
 * amount at creation (`initial_amount`, which never changes, else `old_amount`, the amount
 * before an appeal), never the current `amount` a dispute may have changed. Null without one.
 */
function originalOfInfo(info) {
  const stored = info?.raw?.payment_info;
  if (!isObject(stored)) return null;
  const amount = stored.initial_amount ?? stored.old_amount ?? stored.amount;
  return { amount, currency: stored.currency, method: stored.method, widget_method: stored.widget_method };
}

/** The same, by a create record of the store (CreateRecord). */
function originalOfRecord(record) {
  return { amount: record.amount, currency: record.currency, method: record.method, widget_method: record.widgetMethod };
}

/** The members the create asks that the original differs in: `['amount 150000 (asked 7)', …]`. */
function differences(original, asked) {
  return COMPARED.filter((name) => asked[name] !== undefined && original[name] !== undefined && original[name] !== null && original[name] !== asked[name])
    .map((name) => `${name} ${JSON.stringify(original[name])} (asked ${JSON.stringify(asked[name])})`);
}

/**
 * The create record of a create's signed text (CreateRecord with its ids) and what it asks
 * (askedOf), from one parse of the text; null when it names no payment.
 */
function createRecordOf(operation, text, now) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    return null;
  }
  const general = isObject(request?.general) ? request.general : {};
  if (typeof general.project_id !== 'string' || typeof general.payment_id !== 'string') return null;
  const asked = askedOf(request);
  const lifetime = request.payment?.lifetime;
  const record = {
    projectId: general.project_id, paymentId: general.payment_id, operation: operation.path,
    amount: asked.amount ?? null, currency: asked.currency ?? null, method: asked.method ?? null, widgetMethod: asked.widget_method ?? null,
    requestedAt: new Date(now).toISOString(), lifetime: Number.isSafeInteger(lifetime) ? lifetime : null,
  };
  return { record, asked };
}

/** `work`, or a rejection once the call's deadline passed: a store that never answers (its database gone) does not hold the call for ever. */
function withinDeadline(work, ms) {
  let timer;
  const deadline = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`the store did not answer within the call's deadline (${Math.max(0, Math.round(ms))} ms left)`)), Math.max(0, ms));
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

function exists(make, operation, general, details, message, hint) {
  return make('PAYMENT_EXISTS', `${operation.path}: payment_id '${general.payment_id}' is already used in project '${general.project_id}'${message}`, { ...details, hint });
}

/**
 * A create that met an existing payment (the service said so, `info` its info answer): the
 * same request resolves as that payment, a different one is PAYMENT_EXISTS. The original is
 * read from the info's payment_info, else from the store's record when one was there before
 * this call (`deadline.recorded.existing`): a record this call wrote itself proves nothing.
 */
function settleCreate(make, { operation, request, info, response, details, recorded }) {
  const general = request?.general ?? {};
  const asked = askedOf(request);
  const original = originalOfInfo(info) ?? (recorded?.existing ? originalOfRecord(recorded.existing) : null);
  const withExisting = { ...details, existing: info, attempts: response.attempts };
  if (original === null) {
    // Payout and ECOM infos: the spec does not show their bodies, and the sandbox's carry
    // only the StatusResponse, so nothing says whether the stored payment is this one.
    const why = `the spec does not show the body of ${operation.info}, so its answer carries no amount, currency or method to compare, and no store held an earlier record of this create`;
    throw exists(make, operation, general, withExisting, ', and it cannot be told whether by this request',
      `read .existing (its state) and compare it with your order before using a new payment_id, which would make a second payment (${why}; createClient({ store }) records each create, so a repeat is recognised)`);
  }
  const differ = differences(original, asked);
  if (differ.length === 0) return { ...statusModel(info), response };
  throw exists(make, operation, general, withExisting, ` by another payment: ${differ.join(', ')}`,
    `a create with this payment_id was made with other members (${differ.join(', ')}): use a new payment_id for a new payment; the stored one is in .existing`);
}

/**
 * Before a create is first sent (with a store): records it; `readInfo(ref)` reads the
 * payment with its info operation. When the store already held a
 * create of this payment_id that differs, nothing is sent: PAYMENT_EXISTS, with `.existing`
 * the service's info answer (or the record, when the service cannot be asked).
 */
async function recordCreate({ make, store, clock }, operation, text, deadline, readInfo) {
  const made = createRecordOf(operation, text, clock());
  if (made === null) return;
  const { record, asked } = made;
  let recorded;
  try {
    recorded = await withinDeadline(store.recordCreate(record), deadline.at - clock());
  } catch (cause) {
    throw make('STORE_FAILED', `${operation.path}: the store could not record the create of '${record.paymentId}', so nothing was sent`, { cause, hint: 'the create is sent only once it is recorded: check the store (its database) and call again' });
  }
  deadline.recorded = { ...recorded, record };
  if (recorded.isNew || recorded.existing === null) return;
  const differ = differences(originalOfRecord(recorded.existing), asked);
  if (differ.length === 0) return;
  let existing = recorded.existing;
  try {
    existing = await readInfo({ projectId: record.projectId, paymentId: record.paymentId });
  } catch {
    // the service cannot be asked now: the store's record stands for it
  }
  const general = { project_id: record.projectId, payment_id: record.paymentId };
  throw exists(make, operation, general, { existing, attempts: 0 }, ` by another create recorded in the store: ${differ.join(', ')}; nothing was sent`,
    `use a new payment_id for a new payment; the stored one is in .existing (${differ.join(', ')})`);
}

/** After a create's answer: the store records what the service said. Its failure fails nothing (the create is recorded). */
async function recordAnswer({ store, clock }, deadline, result) {
  const { record } = deadline.recorded ?? {};
  if (!record || !result) return;
  const answer = { status: result.status, subStatus: result.subStatus ?? null, requestId: result.requestId ?? null, answeredAt: new Date(clock()).toISOString() };
  try {
    await store.recordAnswer(record.projectId, record.paymentId, answer);
  } catch {
    result.response.recorded = false;
  }
}

export { recordAnswer, recordCreate, settleCreate };
