// What scripts/bench.mjs measures the package against, and its inputs: a
// typical P2P payin body, its JSON Schema for ajv, a plain straightforward JS
// canonicalizer (as a merchant would write it from the spec), and a large body.

/** A typical P2P payin create body (spec: Create P2P payin). */
export const payinBody = {
  general: {
    project_id: 'prj_8f2c',
    payment_id: 'order-10045',
    merchant_callback_url: 'https://merchant.example/callbacks/payin',
    merchant_success_callback_url: 'https://merchant.example/callbacks/success',
    merchant_decline_callback_url: 'https://merchant.example/callbacks/decline',
    redirect_url: 'https://merchant.example/return',
  },
  payment: {
    method: 'card-p2p',
    amount: 150000,
    currency: 'RUB',
    lifetime: 600,
    description: 'Order 10045',
  },
  sender: { phone: '+79001234567', card_holder: 'IVAN IVANOV' },
  customer: {
    id: 'user-7',
    ip_address: '203.0.113.7',
    first_name: 'Ivan',
    last_name: 'Ivanov',
    customer_type: 'ftd',
    country: 'RU',
    language: 'ru',
    email: 'ivan@example.com',
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  },
};

const str = (max) => ({ type: 'string', maxLength: max });
const httpsUrl = { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https://' };

/** JSON Schema of the P2P payin create body, from the spec's field table. */
export const payinSchema = {
  type: 'object',
  required: ['general', 'payment', 'customer'],
  additionalProperties: false,
  properties: {
    general: {
      type: 'object',
      required: ['project_id', 'payment_id'],
      additionalProperties: false,
      properties: {
        project_id: str(32),
        payment_id: str(255),
        merchant_callback_url: httpsUrl,
        merchant_success_callback_url: httpsUrl,
        merchant_decline_callback_url: httpsUrl,
        redirect_url: httpsUrl,
      },
    },
    payment: {
      type: 'object',
      required: ['method', 'amount', 'currency'],
      additionalProperties: false,
      properties: {
        method: str(32),
        amount: { type: 'integer', minimum: 1, maximum: 10000000000000 },
        currency: { type: 'string', pattern: '^[A-Z]{3}$' },
        lifetime: { type: 'integer', minimum: 1 },
        bank_symbol: str(32),
        description: str(255),
        extra_param: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,16}$' },
      },
    },
    sender: {
      type: 'object',
      additionalProperties: false,
      properties: {
        pan: str(32),
        phone: { type: 'string', maxLength: 24, pattern: '^\\+7\\d{10}$' },
        bank_symbol: str(32),
        card_holder: { type: 'string', minLength: 1, maxLength: 255, pattern: "^[A-Za-zА-Яа-яЁёІіЇїЄєҐґ0-9\\s.'-]+$" },
      },
    },
    customer: {
      type: 'object',
      required: ['id', 'ip_address', 'country'],
      additionalProperties: false,
      properties: {
        id: str(255),
        ip_address: { type: 'string', maxLength: 255, anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
        first_name: str(255),
        last_name: str(255),
        customer_type: { type: 'string', pattern: '^(ftd|trust)$' },
        country: { type: 'string', pattern: '^[A-Z]{2}$' },
        language: { type: 'string', pattern: '^[a-z]{2}$' },
        email: { type: 'string', maxLength: 255, format: 'email' },
        browser: str(512),
        device_type: str(512),
        user_agent: str(1024),
      },
    },
  },
};

/**
 * The spec's message construction written plainly: JSON.parse, recursive
 * flatten, Python-style falsy -> None and True, sort, Buffer base64url (with
 * the '=' padding the default keeps), then the timestamp.
 */
export function plainCanonicalMessage(text, timestamp) {
  const body = text === '' ? {} : JSON.parse(text);
  const entries = [];
  const flatten = (value, path) => {
    if (value !== null && typeof value === 'object') {
      if (Array.isArray(value)) value.forEach((item, i) => flatten(item, path === '' ? String(i) : `${path}:${i}`));
      else for (const key of Object.keys(value)) flatten(value[key], path === '' ? key : `${path}:${key}`);
      return;
    }
    const text = !value ? 'None' : value === true ? 'True' : String(value);
    entries.push(`${path}:${text}`);
  };
  flatten(body, '');
  entries.sort();
  const encoded = Buffer.from(entries.join(';'), 'utf8').toString('base64url');
  return encoded + '='.repeat((4 - (encoded.length % 4)) % 4) + timestamp;
}

/** A callback-shaped body of about `bytes` bytes: many `display_data` items. */
export function largeBody(bytes) {
  const body = {
    project_id: 'prj_8f2c',
    general: { request_id: 'req_01HZX', payment_id: 'order-10045' },
    status: { status: 'processing', sub_status: 'awaiting_confirm', status_description: null },
    payment_info: { amount: 150000, currency: 'RUB', method: 'card-p2p', type: 'payin' },
    additional_info: { display_data: [] },
  };
  for (let i = 0; JSON.stringify(body).length < bytes; i++) {
    body.additional_info.display_data.push({ type: 'add_info', title: `field_${i}`, data: i % 7 === 0 ? 0 : `value ${i} Ж ${'x'.repeat(i % 13)}`, shown: i % 3 === 0 });
  }
  return body;
}

/**
 * The callback check a merchant would write in a few lines from the spec
 * (the comparison #16 names): JSON.parse, flatten, sort, base64url with
 * padding, the timestamp, then `crypto.verify` with their own key. It checks
 * only the signature, and returns the parsed body.
 */
export function plainVerifyCallback(crypto, text, headers, publicKey) {
  const message = plainCanonicalMessage(text, headers['x-access-timestamp']);
  const signature = Buffer.from(headers['x-access-signature'], 'base64');
  if (!crypto.verify('sha256', Buffer.from(message), publicKey, signature)) throw new Error('bad signature');
  return JSON.parse(text);
}
