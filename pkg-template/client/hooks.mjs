// The client's hooks, `onRequest` and `onResponse`: what they see is masked by default
// (card data, contacts, the signature), and a hook that throws does not break the call.

/** Fields whose values hooks never see unless `mask: false`. */
const MASKED_FIELDS = ['pan', 'card_holder', 'phone', 'email', 'ip_address'];
const MASKED_HEADERS = ['x-access-signature'];
const MASK = '***';

function maskValue(value, fields) {
  if (Array.isArray(value)) return value.map((item) => maskValue(item, fields));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [name, item] of Object.entries(value)) {
    out[name] = fields.has(name) && item !== null && item !== '' ? MASK : maskValue(item, fields);
  }
  return out;
}

/** `text` (a JSON body) with the masked fields' values replaced; text that is not JSON is given as it is. */
function maskBody(text, fields) {
  if (fields.size === 0 || typeof text !== 'string') return text;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return text;
  }
  return JSON.stringify(maskValue(json, fields));
}

/** The hooks of a config: `{ request(event), response(event) }`, each masking, each never throwing. */
function hooksOf(config) {
  const fields = new Set(config.mask === false ? [] : Array.isArray(config.mask) ? config.mask : MASKED_FIELDS);
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
      safely(config.onRequest, { operation, url, attempt, headers: shown, body: maskBody(body, fields) });
    },
    response({ operation, statusCode, attempt, durationMs, body, error }) {
      if (typeof config.onResponse !== 'function') return;
      safely(config.onResponse, { operation, statusCode, attempt, durationMs, body: maskBody(body, fields), error: error ?? null });
    },
  };
}

export { MASKED_FIELDS, hooksOf, maskBody };
