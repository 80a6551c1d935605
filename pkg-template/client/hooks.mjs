// The client's hooks, `onRequest` and `onResponse`: what they see is masked by default
// (card numbers under any name, the members named below, the signature), a CVV/CVC always
// (cards.mjs), and a hook that throws does not break the call.
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

/** The hooks of a config: `{ request(event), response(event) }`, each masking, each never throwing. */
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
    request({ operation, url, attempt, headers: sent, body }) {
      if (typeof config.onRequest !== 'function') return;
      const shown = { ...sent };
      for (const name of headers) if (name in shown) shown[name] = MASK;
      safely(config.onRequest, { operation, url, attempt, headers: shown, body: shownBody(body, fields, cards) });
    },
    response({ operation, statusCode, attempt, durationMs, body, error }) {
      if (typeof config.onResponse !== 'function') return;
      safely(config.onResponse, { operation, statusCode, attempt, durationMs, body: shownBody(body, fields, cards), error: error ?? null });
    },
  };
}

export { MASKED_FIELDS, hooksOf, maskBody };
