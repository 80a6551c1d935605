// The client's hooks, `onCall` around each call, `onRequest` and `onResponse` per attempt:
// what they see is masked by default (card numbers under any name, the members named below,
// the signature), a CVV/CVC always (cards.mjs); onCall sees no body nor header at all. A hook
// that throws (or rejects) does not break the call, and the call never waits for a hook.
import { MASK, cardNumber, isSecurityCode, maskCards } from './cards.mjs';

/** Fields whose values hooks never see unless `mask: false`. */
const MASKED_FIELDS = ['pan', 'card_holder', 'phone', 'email', 'ip_address'];
const MASKED_HEADERS = ['x-access-signature'];
/** The deepest nesting a hook sees (the package's reader's 64 levels); deeper values are '***' whole, never walked (a deep answer would overflow the stack). */
const MAX_DEPTH = 64;

/** `value` (parsed JSON) masked: `how.fields` by name, card numbers when `how.cards`, CVVs always; `how.changed` set when anything was. */
function maskValue(value, how, depth = 0) {
  const masked = () => {
    how.changed = true;
    return MASK;
  };
  if (value !== null && typeof value === 'object' && depth >= MAX_DEPTH) return masked();
  if (Array.isArray(value)) return value.map((item) => maskValue(item, how, depth + 1));
  if (typeof value === 'string') {
    if (!how.cards) return value;
    const out = maskCards(value);
    if (out !== value) how.changed = true;
    return out;
  }
  if (typeof value === 'number') return how.cards && cardNumber(value) ? masked() : value;
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    const name = how.cards ? maskCards(key) : key;
    if (name !== key) how.changed = true;
    const hidden = item !== null && item !== '' && (isSecurityCode(key) || how.fields.has(key));
    out[name] = hidden ? masked() : maskValue(item, how, depth + 1);
  }
  return out;
}

/** `text` (a JSON body) masked; text that is not JSON has its card numbers masked (unless `mask: false`); unchanged text is given as it is. */
function maskBody(text, fields, cards) {
  if (typeof text !== 'string') return text;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return cards ? maskCards(text) : text;
  }
  const how = { fields, cards, changed: false };
  const masked = maskValue(json, how);
  return how.changed ? JSON.stringify(masked) : text;
}

/** What a hook sees of a body: masked, or '***' whole when masking it fails (the call goes on either way). */
function shownBody(text, fields, cards) {
  try {
    return maskBody(text, fields, cards);
  } catch {
    return MASK;
  }
}

/** The project and payment ids a call's body names (an object, or its JSON text), else nulls. */
function idsOf(body) {
  let json = body;
  if (typeof body === 'string') {
    try {
      json = JSON.parse(body);
    } catch {
      json = null;
    }
  }
  const general = json !== null && typeof json === 'object' ? json.general : undefined;
  const id = (value) => (typeof value === 'string' ? value : null);
  return { projectId: id(general?.project_id), paymentId: id(general?.payment_id) };
}

/** How a call ended, for onCall: `{ error, statusCode, attempts, durationMs, replayed }` (`tally` is the call's, call.mjs). */
function endOf(tally, durationMs, value, error) {
  let code = null;
  if (error !== undefined) code = typeof error?.code === 'string' ? error.code : typeof error?.name === 'string' ? error.name : 'Error';
  return { error: code, statusCode: tally.statusCode, attempts: tally.attempts, durationMs, replayed: value?.response?.replayed === true };
}

/**
 * `perform()` (the call) under onCall: `onCall(call, run)` is called at once; the call starts
 * when it calls `run()`, or as soon as it returns. `run()` resolves to how the call ended and
 * never rejects; what the caller gets is the call's own result, whatever the hook does.
 */
function aroundCall(onCall, { operation, body, tally, clock, perform }) {
  let result = null;
  let ended = null;
  const start = () => {
    if (result === null) {
      const started = clock();
      result = perform();
      // Measured as the call settles, whenever the hook asks.
      ended = result.then((value) => endOf(tally, clock() - started, value, undefined), (error) => endOf(tally, clock() - started, undefined, error));
    }
    return result;
  };
  const run = () => {
    start();
    return ended;
  };
  try {
    const out = onCall({ operation: operation.name, path: operation.path, ...idsOf(body) }, run);
    if (out && typeof out.catch === 'function') out.catch(() => {});
  } catch {
    // a hook's failure is the hook's: the call goes on
  }
  return start();
}

/** The hooks of a config: `{ call(what), request(event), response(event) }`, each masking, each never throwing. */
function hooksOf(config) {
  const fields = new Set(config.mask === false ? [] : Array.isArray(config.mask) ? config.mask : MASKED_FIELDS);
  const cards = config.mask !== false;
  const headers = config.mask === false ? [] : MASKED_HEADERS;
  const safely = (hook, event) => {
    if (typeof hook !== 'function') return;
    try {
      const out = hook(event);
      if (out && typeof out.catch === 'function') out.catch(() => {});
    } catch {
      // a hook's failure is the hook's: the call goes on
    }
  };
  return {
    /** `what`: `{ operation, body, tally, clock, perform }`; the call's promise. */
    call(what) {
      if (typeof config.onCall !== 'function') return what.perform();
      return aroundCall(config.onCall, what);
    },
    request({ operation, url, attempt, headers: sent, body }) {
      if (typeof config.onRequest !== 'function') return;
      const shown = { ...sent };
      for (const name of headers) if (name in shown) shown[name] = MASK;
      safely(config.onRequest, { operation, url, attempt, headers: shown, body: shownBody(body, fields, cards) });
    },
    response({ operation, url, statusCode, attempt, durationMs, body, error }) {
      if (typeof config.onResponse !== 'function') return;
      safely(config.onResponse, { operation, url, statusCode, attempt, durationMs, body: shownBody(body, fields, cards), error: error ?? null });
    },
  };
}

export { MASKED_FIELDS, hooksOf, maskBody };
