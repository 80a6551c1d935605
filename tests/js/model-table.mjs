// Data of tests/js/model.test.mjs, written from the spec
// (/work/shared/spec/interface.md: "Availability by country", "Resources and
// their fields", "Endpoints", "Limits") and never from the package's output.
//
// A validation case is { name, path, body, expect } where `expect` lists the
// errors exactly (every one, nothing more) as [fieldPath, code | [codes], { limit, actual }?]
// and, when given, the warnings exactly as [fieldPath, code]; no `warnings` means none.

export const P2P_PAYIN = '/api/v1/payment/p2p/payin';
export const WIDGET_PAYIN = '/api/v1/widget/payin';
export const SHARED_BODY_PATHS = [
  '/api/v1/payment/p2p/payin/info',
  '/api/v1/payment/p2p/payin/confirm',
  '/api/v1/payment/p2p/payin/cancel',
  '/api/v1/widget/payin/info',
];
export const PROJECT_ONLY_PATHS = ['/api/v1/balance/info', '/api/v1/bank/all'];
export const P2P_PAYOUT = '/api/v1/payment/p2p/payout';
/** Operations whose request bodies the spec says are "not shown". */
export const NOT_SHOWN_PATHS = [
  '/api/v1/payment/p2p/payout/info',
  '/api/v1/payment/ecom/payin',
  '/api/v1/payment/ecom/payin/info',
  '/api/v1/payment/ecom/payin/confirm-3ds-result',
  '/api/v1/payment/ecom/payout',
  '/api/v1/payment/ecom/payout/info',
  '/api/v1/widget/payin/confirm',
  '/api/v1/widget/payin/cancel',
];
export const ALL_PATHS = [P2P_PAYIN, ...SHARED_BODY_PATHS, P2P_PAYOUT, WIDGET_PAYIN, ...PROJECT_ONLY_PATHS, ...NOT_SHOWN_PATHS];

/** The spec's "Availability by country" table, row by row (lifetime bound from "Limits"). */
export const SPEC_AVAILABILITY = [
  {
    country: 'RU', currency: 'RUB', integration: 'h2h', lifetimeMax: 600,
    payinMethods: ['card-p2p', 'sbp-p2p', 'international-p2p', 'sbp-qr', 'mobile-p2p', 'international-card-p2p', 'qr-link-p2p', 'account-number'],
    payoutMethods: ['card-p2p', 'sbp-p2p', 'mobile-p2p'],
  },
  {
    country: 'RU', currency: 'RUB', integration: 'widget', lifetimeMax: 600,
    payinMethods: ['payin-p2p-card', 'payin-p2p-sbp', 'payin-1-click', 'payin-p2p-international', 'payin-qr-sbp', 'payin-p2p-mobile', 'payin-p2p-card-international', 'payin-qr-link-p2p', 'payin-account-number'],
    payoutMethods: [],
  },
  { country: 'KZ', currency: 'KZT', integration: 'h2h', lifetimeMax: 900, payinMethods: ['international-card-p2p'], payoutMethods: ['card-p2p'] },
  { country: 'KZ', currency: 'KZT', integration: 'widget', lifetimeMax: 900, payinMethods: ['payin-p2p-card-international'], payoutMethods: [] },
  { country: 'KE', currency: 'KES', integration: 'widget', lifetimeMax: 600, payinMethods: ['payin-mobile-money'], payoutMethods: [] },
  { country: 'NG', currency: 'NGN', integration: 'widget', lifetimeMax: 600, payinMethods: ['payin-wallet-link', 'payin-account-number', 'payin-ussd'], payoutMethods: [] },
  { country: 'ZA', currency: 'ZAR', integration: 'widget', lifetimeMax: 600, payinMethods: ['payin-eft-link'], payoutMethods: [] },
];

/** "Payment method codes" table. */
export const METHOD_CODES = ['card-p2p', 'sbp-p2p', 'phone-p2p', 'mobile-p2p', 'international-p2p', 'international-card-p2p', 'qr-link-p2p', 'account-number', 'sbp-qr', 'card-ecom', 'mobile-money', 'eft-link', 'ussd', 'wallet-link'];
/** "Widget method codes" table. */
export const WIDGET_METHOD_CODES = ['payin-p2p-card', 'payin-account-number', 'payin-p2p-phone', 'payin-p2p-sbp', 'payin-1-click', 'payin-p2p-international', 'payin-p2p-card-international', 'payin-p2p-mobile', 'payin-qr-link-p2p', 'payin-qr-sbp', 'payin-ecom-card', 'payin-mobile-money', 'payin-eft-link', 'payin-ussd', 'payin-wallet-link'];

export const AMOUNT_MIN = 1;
export const AMOUNT_MAX = 10000000000000;

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

/** Removes a member when used as a value in `variant`. */
export const DROP = Symbol('drop');

/** A copy of `body` with dotted paths set (or dropped with DROP); missing objects are created. */
export function variant(body, changes = {}) {
  const copy = structuredClone(body);
  for (const [dotted, value] of Object.entries(changes)) {
    const keys = dotted.split('.');
    let node = copy;
    for (const key of keys.slice(0, -1)) {
      if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') node[key] = {};
      node = node[key];
    }
    const last = keys[keys.length - 1];
    if (value === DROP) delete node[last];
    else node[last] = value;
  }
  return copy;
}

/** JSON text of `body` where each dotted path in `raw` holds the literal JSON text given (e.g. `1.0`). */
export function withRawJson(body, raw) {
  let marked = body;
  const markers = Object.keys(raw).map((dotted, i) => {
    const marker = `\u0000RAW${i}\u0000`;
    marked = variant(marked, { [dotted]: marker });
    return [JSON.stringify(marker), raw[dotted]];
  });
  let text = JSON.stringify(marked);
  for (const [quoted, literal] of markers) text = text.replace(quoted, literal);
  return text;
}

export const p2pBody = (country = 'RU', currency = 'RUB', method = 'card-p2p') => ({
  general: { project_id: 'prj_8f2c', payment_id: 'order-10045' },
  payment: { method, amount: 150000, currency, lifetime: 600 },
  customer: { id: 'user-7', ip_address: '203.0.113.7', country },
});

export const widgetBody = (country = 'RU', currency = 'RUB', widgetMethod = 'payin-p2p-card') => {
  const body = {
    general: { project_id: 'prj_8f2c', payment_id: 'order-20001' },
    payment: { amount: 500000, currency, lifetime: 600, widget_method: widgetMethod },
    customer: { id: 'user-8', ip_address: '2001:db8::7', country },
  };
  // "customer.email … yes for KE, NG, ZA"
  if (['KE', 'NG', 'ZA'].includes(country)) body.customer.email = 'payer@example.com';
  return body;
};

export const sharedBody = () => ({ general: { project_id: 'prj_8f2c', payment_id: 'order-10045' } });
export const projectBody = () => ({ general: { project_id: 'prj_8f2c' } });

// ---------------------------------------------------------------------------
// Values of a given length
// ---------------------------------------------------------------------------

/** Cyrillic text: 2 UTF-8 bytes per character, so a byte count would be twice the limit. */
export const cyrillic = (n) => 'Ж'.repeat(n);
export const digits = (n) => '4'.repeat(n);
/** An https URL of exactly n characters. */
export const urlOf = (n) => {
  const start = 'https://shop.example/cb/';
  return start + 'a'.repeat(n - start.length);
};
/** A well-formed e-mail address of exactly n characters, with a Cyrillic (IDN) domain. */
export const emailOf = (n) => {
  const local = 'payer'.repeat(6);
  const tld = '.рф';
  let domainLength = n - local.length - 1 - tld.length;
  const labels = [];
  while (domainLength > 0) {
    const size = Math.min(60, domainLength);
    // every label but the first is preceded by a dot
    const take = labels.length === 0 ? size : Math.min(size, domainLength - 1);
    if (take <= 0) break;
    labels.push('д'.repeat(take));
    domainLength -= take + (labels.length > 1 ? 1 : 0);
  }
  const address = `${local}@${labels.join('.')}${tld}`;
  if ([...address].length !== n) throw new Error(`emailOf(${n}) made ${[...address].length}`);
  return address;
};

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

const cases = [];
const add = (name, path, body, expect = {}) => cases.push({ name, path, body, expect: { errors: [], ...expect } });
const ok = (name, path, body, warnings) => add(name, path, body, warnings ? { warnings } : {});
const bad = (name, path, body, errors, warnings) => add(name, path, body, warnings ? { errors, warnings } : { errors });

// --- valid base bodies -------------------------------------------------------
ok('P2P payin RU: the base body is valid', P2P_PAYIN, p2pBody());
ok('widget payin RU: the base body is valid', WIDGET_PAYIN, widgetBody());
for (const path of SHARED_BODY_PATHS) ok(`${path}: general.project_id and payment_id`, path, sharedBody());
for (const path of PROJECT_ONLY_PATHS) ok(`${path}: general.project_id`, path, projectBody());

// --- string limits, in characters: just inside and just outside --------------
/** [path, body maker, field, limit, value maker] */
const STRING_LIMITS = [
  [P2P_PAYIN, p2pBody, 'general.project_id', 32, cyrillic],
  [P2P_PAYIN, p2pBody, 'general.payment_id', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'general.merchant_callback_url', 2048, urlOf],
  [P2P_PAYIN, p2pBody, 'general.merchant_success_callback_url', 2048, urlOf],
  [P2P_PAYIN, p2pBody, 'general.merchant_decline_callback_url', 2048, urlOf],
  [P2P_PAYIN, p2pBody, 'general.redirect_url', 2048, urlOf],
  [P2P_PAYIN, p2pBody, 'payment.bank_symbol', 32, cyrillic],
  [P2P_PAYIN, p2pBody, 'payment.description', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'sender.pan', 32, digits],
  [P2P_PAYIN, p2pBody, 'sender.bank_symbol', 32, cyrillic],
  [P2P_PAYIN, p2pBody, 'sender.card_holder', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.id', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.first_name', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.last_name', 255, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.email', 255, emailOf],
  [P2P_PAYIN, p2pBody, 'customer.browser', 512, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.device_type', 512, cyrillic],
  [P2P_PAYIN, p2pBody, 'customer.user_agent', 1024, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'general.project_id', 32, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'general.payment_id', 255, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'general.merchant_callback_url', 2048, urlOf],
  [WIDGET_PAYIN, widgetBody, 'general.redirect_url', 2048, urlOf],
  [WIDGET_PAYIN, widgetBody, 'payment.description', 255, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'sender.bank_symbol', 32, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'customer.id', 255, cyrillic],
  [WIDGET_PAYIN, widgetBody, 'customer.email', 255, emailOf],
  [P2P_PAYOUT, sharedBody, 'general.project_id', 32, cyrillic],
  [P2P_PAYOUT, sharedBody, 'general.payment_id', 255, cyrillic],
  [P2P_PAYOUT, sharedBody, 'general.merchant_callback_url', 2048, urlOf],
  [P2P_PAYOUT, sharedBody, 'general.merchant_success_callback_url', 2048, urlOf],
  [P2P_PAYOUT, sharedBody, 'general.merchant_decline_callback_url', 2048, urlOf],
  ...SHARED_BODY_PATHS.flatMap((path) => [
    [path, sharedBody, 'general.project_id', 32, cyrillic],
    [path, sharedBody, 'general.payment_id', 255, cyrillic],
  ]),
  ...PROJECT_ONLY_PATHS.map((path) => [path, projectBody, 'general.project_id', 32, cyrillic]),
];
for (const [path, make, field, limit, value] of STRING_LIMITS) {
  ok(`${path}: ${field} of ${limit} characters is valid`, path, variant(make(), { [field]: value(limit) }));
  bad(`${path}: ${field} of ${limit + 1} characters is TOO_LONG`, path, variant(make(), { [field]: value(limit + 1) }), [
    [field, 'TOO_LONG', { limit, actual: limit + 1 }],
  ]);
}
// Characters are code points, not UTF-16 units: an emoji is one character (two in JS `.length`).
ok('general.payment_id of 255 astral characters is valid', P2P_PAYIN, variant(p2pBody(), { 'general.payment_id': '😀'.repeat(255) }));
bad('general.payment_id of 256 astral characters is TOO_LONG', P2P_PAYIN, variant(p2pBody(), { 'general.payment_id': '😀'.repeat(256) }), [['general.payment_id', 'TOO_LONG', { limit: 255, actual: 256 }]]);
// Limits a pattern also bounds: just outside breaks the length and the pattern.
bad('payment.method of 33 characters', P2P_PAYIN, variant(p2pBody(), { 'payment.method': 'card-p2p'.padEnd(33, 'x') }), [
  ['payment.method', 'TOO_LONG', { limit: 32, actual: 33 }],
  ['payment.method', 'UNKNOWN_METHOD'],
]);
bad('payment.widget_method of 33 characters', WIDGET_PAYIN, variant(widgetBody(), { 'payment.widget_method': 'payin-p2p-card'.padEnd(33, 'x') }), [
  ['payment.widget_method', 'TOO_LONG', { limit: 32, actual: 33 }],
  ['payment.widget_method', 'UNKNOWN_METHOD'],
]);
bad('sender.phone of 24 characters breaks only the pattern', P2P_PAYIN, variant(p2pBody(), { 'sender.phone': `+7${'9'.repeat(22)}` }), [['sender.phone', 'PATTERN']]);
bad('sender.phone of 25 characters is TOO_LONG too', P2P_PAYIN, variant(p2pBody(), { 'sender.phone': `+7${'9'.repeat(23)}` }), [
  ['sender.phone', 'TOO_LONG', { limit: 24, actual: 25 }],
  ['sender.phone', 'PATTERN'],
]);
bad('customer.ip_address of 256 characters', P2P_PAYIN, variant(p2pBody(), { 'customer.ip_address': '1'.repeat(256) }), [
  ['customer.ip_address', 'TOO_LONG', { limit: 255, actual: 256 }],
  ['customer.ip_address', 'INVALID_IP'],
]);
ok('extra_param of 16 characters', P2P_PAYIN, variant(p2pBody(), { 'payment.extra_param': 'Aa0_-'.repeat(3) + 'z' }));
bad('extra_param of 17 characters', P2P_PAYIN, variant(p2pBody(), { 'payment.extra_param': 'a'.repeat(17) }), [['payment.extra_param', ['TOO_LONG', 'PATTERN']]]);
bad('extra_param of 0 characters', P2P_PAYIN, variant(p2pBody(), { 'payment.extra_param': '' }), [['payment.extra_param', ['TOO_SHORT', 'PATTERN']]]);
ok('widget extra_param of 16 characters', WIDGET_PAYIN, variant(widgetBody(), { 'payment.extra_param': 'b'.repeat(16) }));
bad('widget extra_param of 17 characters', WIDGET_PAYIN, variant(widgetBody(), { 'payment.extra_param': 'b'.repeat(17) }), [['payment.extra_param', ['TOO_LONG', 'PATTERN']]]);
ok('sender.card_holder of 1 character', P2P_PAYIN, variant(p2pBody(), { 'sender.card_holder': 'Ж' }));
bad('sender.card_holder of 0 characters', P2P_PAYIN, variant(p2pBody(), { 'sender.card_holder': '' }), [['sender.card_holder', ['TOO_SHORT', 'PATTERN']]]);

// --- amounts -------------------------------------------------------------------
for (const [path, make] of [[P2P_PAYIN, p2pBody], [WIDGET_PAYIN, widgetBody]]) {
  const at = (amount) => variant(make(), { 'payment.amount': amount });
  ok(`${path}: amount ${AMOUNT_MIN}`, path, at(AMOUNT_MIN));
  ok(`${path}: amount ${AMOUNT_MAX}`, path, at(AMOUNT_MAX));
  ok(`${path}: amount ${AMOUNT_MAX} as a BigInt`, path, at(10000000000000n));
  bad(`${path}: amount 0`, path, at(0), [['payment.amount', 'OUT_OF_RANGE', { limit: 1, actual: 0 }]]);
  bad(`${path}: amount -1`, path, at(-1), [['payment.amount', 'OUT_OF_RANGE', { limit: 1, actual: -1 }]]);
  bad(`${path}: amount ${AMOUNT_MAX + 1}`, path, at(AMOUNT_MAX + 1), [['payment.amount', 'OUT_OF_RANGE', { limit: AMOUNT_MAX, actual: AMOUNT_MAX + 1 }]]);
  bad(`${path}: amount ${AMOUNT_MAX + 1} as a BigInt`, path, at(10000000000001n), [['payment.amount', 'OUT_OF_RANGE', { limit: AMOUNT_MAX }]]);
  bad(`${path}: amount far beyond 2^64 in JSON text`, path, withRawJson(make(), { 'payment.amount': '123456789012345678901234567890' }), [['payment.amount', 'OUT_OF_RANGE', { limit: AMOUNT_MAX }]]);
  bad(`${path}: amount 1e16 (a JS number beyond 2^53)`, path, at(1e16), [['payment.amount', ['OUT_OF_RANGE', 'WRONG_TYPE']]]);
  bad(`${path}: amount as the string "150000"`, path, at('150000'), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount 15.5`, path, at(15.5), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount written 1.0 in JSON text`, path, withRawJson(make(), { 'payment.amount': '1.0' }), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount written 150000.00 in JSON text`, path, withRawJson(make(), { 'payment.amount': '150000.00' }), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount written 1e3 in JSON text`, path, withRawJson(make(), { 'payment.amount': '1e3' }), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount true`, path, at(true), [['payment.amount', 'WRONG_TYPE']]);
  bad(`${path}: amount null`, path, at(null), [['payment.amount', 'REQUIRED']]);
  bad(`${path}: amount absent`, path, at(DROP), [['payment.amount', 'REQUIRED']]);
  // Amounts in JSON text are read exactly: 150000 in text is the base case.
  ok(`${path}: amount written 150000 in JSON text`, path, JSON.stringify(make()));
}

// --- lifetime: 300..600, 300..900 for KZ ---------------------------------------
const LIFETIME_ROWS = [
  [P2P_PAYIN, () => p2pBody('RU', 'RUB', 'card-p2p'), 'RU', 600],
  [P2P_PAYIN, () => p2pBody('KZ', 'KZT', 'international-card-p2p'), 'KZ', 900],
  [WIDGET_PAYIN, () => widgetBody('RU', 'RUB', 'payin-p2p-card'), 'RU', 600],
  [WIDGET_PAYIN, () => widgetBody('KZ', 'KZT', 'payin-p2p-card-international'), 'KZ', 900],
  [WIDGET_PAYIN, () => widgetBody('KE', 'KES', 'payin-mobile-money'), 'KE', 600],
  [WIDGET_PAYIN, () => widgetBody('NG', 'NGN', 'payin-ussd'), 'NG', 600],
  [WIDGET_PAYIN, () => widgetBody('ZA', 'ZAR', 'payin-eft-link'), 'ZA', 600],
];
for (const [path, make, country, max] of LIFETIME_ROWS) {
  const at = (lifetime) => variant(make(), { 'payment.lifetime': lifetime });
  ok(`${path} ${country}: lifetime 300`, path, at(300));
  ok(`${path} ${country}: lifetime ${max}`, path, at(max));
  ok(`${path} ${country}: lifetime omitted (default 10 minutes)`, path, at(DROP));
  bad(`${path} ${country}: lifetime 299`, path, at(299), [['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', { limit: 300, actual: 299 }]]);
  bad(`${path} ${country}: lifetime ${max + 1}`, path, at(max + 1), [['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', { limit: max, actual: max + 1 }]]);
}
bad('lifetime as the string "600"', P2P_PAYIN, variant(p2pBody(), { 'payment.lifetime': '600' }), [['payment.lifetime', 'WRONG_TYPE']]);
bad('lifetime 450.5', P2P_PAYIN, variant(p2pBody(), { 'payment.lifetime': 450.5 }), [['payment.lifetime', 'WRONG_TYPE']]);

// --- patterns ----------------------------------------------------------------------
const patternCases = (path, make, field, good, wrong, code = 'PATTERN') => {
  for (const value of good) ok(`${path}: ${field} ${JSON.stringify(value)} is valid`, path, variant(make(), { [field]: value }));
  for (const value of wrong) bad(`${path}: ${field} ${JSON.stringify(value)} is ${code}`, path, variant(make(), { [field]: value }), [[field, code]]);
};
for (const [path, make] of [[P2P_PAYIN, p2pBody], [WIDGET_PAYIN, widgetBody]]) {
  patternCases(path, make, 'payment.currency', [], ['rub', 'RU', 'RUBL', 'R1B', 'RÜB']);
  patternCases(path, make, 'customer.country', [], ['ru', 'RUS', 'R1', 'Ru']);
  patternCases(path, make, 'customer.language', ['ru', 'en', 'es', 'kk', 'uz'], ['RU', 'rus', 'r', 'r1', 'ру']);
  patternCases(path, make, 'customer.customer_type', ['ftd', 'trust'], ['FTD', 'Trust', 'vip', 'ftd ', 'ftdtrust']);
  patternCases(path, make, 'payment.extra_param', ['A-z_09', 'route_7'], ['a b', 'a.b', 'маршрут', 'a+b']);
  patternCases(path, make, 'customer.ip_address', ['192.168.0.1', '0.0.0.0', '255.255.255.255', '::1', '2001:db8::8a2e:370:7334', '::ffff:192.0.2.1', '2001:0db8:0000:0000:0000:ff00:0042:8329'], ['256.1.1.1', '1.2.3', '1.2.3.4.5', 'localhost', '2001:db8::g', '2001:db8:::1', ' 192.168.0.1', '192.168.0.1/24'], 'INVALID_IP');
  patternCases(path, make, 'customer.email', ['a@b.co', 'first.last+tag@mail.example.com', 'ivan@почта.рф'], ['plainaddress', 'a@', '@example.com', 'a b@example.com', 'a@@example.com', 'a@exa mple.com'], 'INVALID_EMAIL');
}
patternCases(P2P_PAYIN, p2pBody, 'sender.phone', ['+79001234567'], ['79001234567', '89001234567', '+7900123456', '+790012345678', '+89001234567', '+7 900 123 45 67', '+7900123456a', '+7(900)1234567']);
patternCases(P2P_PAYIN, p2pBody, 'sender.card_holder', ['IVAN IVANOV', 'Іван Ґонта-Їжак', "Євгенія О'Ніл", 'Пётр Ёлкин', 'J. R. R. Tolkien 3rd', 'ИВАН ИВАНОВ'], ['Ivan_Ivanov', 'A@B', 'Ivan!', 'Иван#1', '李小龍', 'Ivan 😀', 'Ivan/Petr']);
ok('language "de" is well-formed but not a supported one: a warning', P2P_PAYIN, variant(p2pBody(), { 'customer.language': 'de' }), [['customer.language', 'LANGUAGE_NOT_SUPPORTED']]);

// --- https-only URLs ---------------------------------------------------------------
for (const field of ['general.merchant_callback_url', 'general.merchant_success_callback_url', 'general.merchant_decline_callback_url', 'general.redirect_url']) {
  for (const [path, make] of [[P2P_PAYIN, p2pBody], [WIDGET_PAYIN, widgetBody]]) {
    for (const url of ['https://shop.example/cb', 'HTTPS://shop.example:8443/cb?order=1#x', 'https://127.0.0.1/cb', 'https://[2001:db8::1]:443/cb']) {
      ok(`${path}: ${field} ${url}`, path, variant(make(), { [field]: url }));
    }
    for (const url of ['http://shop.example/cb', 'ftp://shop.example/cb', 'wss://shop.example/cb']) {
      bad(`${path}: ${field} ${url} is NOT_HTTPS`, path, variant(make(), { [field]: url }), [[field, 'NOT_HTTPS']]);
    }
    for (const url of ['shop.example/cb', 'https://', 'https:///cb', 'https://exa mple.com/cb', 'https://shop.example:0/cb', 'https://shop.example:65536/cb', '']) {
      bad(`${path}: ${field} ${JSON.stringify(url)} is INVALID_URL`, path, variant(make(), { [field]: url }), [[field, ['INVALID_URL', 'NOT_HTTPS']]]);
    }
  }
}
for (const field of ['general.merchant_callback_url', 'general.merchant_success_callback_url', 'general.merchant_decline_callback_url']) {
  bad(`payout: ${field} http is NOT_HTTPS`, P2P_PAYOUT, variant(sharedBody(), { [field]: 'http://shop.example/cb' }), [[field, 'NOT_HTTPS']]);
}

// --- method codes -------------------------------------------------------------------
for (const row of SPEC_AVAILABILITY) {
  const h2h = row.integration === 'h2h';
  const path = h2h ? P2P_PAYIN : WIDGET_PAYIN;
  const field = h2h ? 'payment.method' : 'payment.widget_method';
  for (const method of h2h ? METHOD_CODES : WIDGET_METHOD_CODES) {
    const body = h2h ? p2pBody(row.country, row.currency, method) : widgetBody(row.country, row.currency, method);
    const name = `${row.country} ${row.integration}: ${field} ${method}`;
    if (row.payinMethods.includes(method)) ok(`${name} is available`, path, body);
    else bad(`${name} is METHOD_NOT_AVAILABLE`, path, body, [[field, 'METHOD_NOT_AVAILABLE']]);
  }
}
for (const method of ['card_p2p', 'CARD-P2P', 'card-p2p ', 'payin-p2p-card', 'sbp', '']) {
  bad(`payment.method ${JSON.stringify(method)} is not a method code`, P2P_PAYIN, variant(p2pBody(), { 'payment.method': method }), [['payment.method', method === '' ? ['TOO_SHORT', 'UNKNOWN_METHOD'] : 'UNKNOWN_METHOD']]);
}
for (const method of ['card-p2p', 'PAYIN-P2P-CARD', 'payin_p2p_card', 'payin-p2p-card ']) {
  bad(`payment.widget_method ${JSON.stringify(method)} is not a widget method code`, WIDGET_PAYIN, variant(widgetBody(), { 'payment.widget_method': method }), [['payment.widget_method', 'UNKNOWN_METHOD']]);
}

// --- cross-field rules ----------------------------------------------------------------
bad('KZ H2H payin in RUB', P2P_PAYIN, p2pBody('KZ', 'RUB', 'international-card-p2p'), [['payment.currency', 'CURRENCY_MISMATCH']]);
bad('RU H2H payin in KZT', P2P_PAYIN, p2pBody('RU', 'KZT', 'card-p2p'), [['payment.currency', 'CURRENCY_MISMATCH']]);
bad('KZ widget payin in RUB', WIDGET_PAYIN, widgetBody('KZ', 'RUB', 'payin-p2p-card-international'), [['payment.currency', 'CURRENCY_MISMATCH']]);
bad('KE widget payin in NGN', WIDGET_PAYIN, widgetBody('KE', 'NGN', 'payin-mobile-money'), [['payment.currency', 'CURRENCY_MISMATCH']]);
bad('ZA widget payin in USD', WIDGET_PAYIN, widgetBody('ZA', 'USD', 'payin-eft-link'), [['payment.currency', 'CURRENCY_MISMATCH']]);
for (const [country, currency, method] of [['KE', 'KES', 'mobile-money'], ['NG', 'NGN', 'ussd'], ['ZA', 'ZAR', 'eft-link']]) {
  // H2C only: "Integration H2C", no H2H row.
  bad(`${country} has no H2H payin`, P2P_PAYIN, p2pBody(country, currency, method), [['customer.country', 'COUNTRY_NOT_AVAILABLE']]);
}
ok('UZ is not in the availability table: a warning only', P2P_PAYIN, p2pBody('UZ', 'UZS', 'card-p2p'), [['customer.country', 'COUNTRY_NOT_LISTED']]);
bad('KZ widget payin without widget_method', WIDGET_PAYIN, variant(widgetBody('KZ', 'KZT'), { 'payment.widget_method': DROP }), [['payment.widget_method', 'WIDGET_METHOD_REQUIRED']]);
bad('KZ widget payin with payin-p2p-card', WIDGET_PAYIN, widgetBody('KZ', 'KZT', 'payin-p2p-card'), [['payment.widget_method', 'METHOD_NOT_AVAILABLE']]);
ok('KZ widget payin with payin-p2p-card-international', WIDGET_PAYIN, widgetBody('KZ', 'KZT', 'payin-p2p-card-international'));
ok('RU widget payin without widget_method', WIDGET_PAYIN, variant(widgetBody('RU', 'RUB'), { 'payment.widget_method': DROP }));
for (const [country, currency, method] of [['KE', 'KES', 'payin-mobile-money'], ['NG', 'NGN', 'payin-wallet-link'], ['ZA', 'ZAR', 'payin-eft-link']]) {
  bad(`${country} widget payin without customer.email`, WIDGET_PAYIN, variant(widgetBody(country, currency, method), { 'customer.email': DROP }), [['customer.email', 'EMAIL_REQUIRED']]);
  bad(`${country} widget payin with sender.bank_symbol`, WIDGET_PAYIN, variant(widgetBody(country, currency, method), { 'sender.bank_symbol': 'sberbank' }), [['sender.bank_symbol', 'BANK_SYMBOL_NOT_ALLOWED']]);
  ok(`${country} widget payin with an empty sender.bank_symbol ("may be left empty")`, WIDGET_PAYIN, variant(widgetBody(country, currency, method), { 'sender.bank_symbol': '' }));
}
for (const [country, currency, method] of [['RU', 'RUB', 'payin-1-click'], ['KZ', 'KZT', 'payin-p2p-card-international']]) {
  ok(`${country} widget payin without customer.email`, WIDGET_PAYIN, widgetBody(country, currency, method));
  ok(`${country} widget payin pre-selects a bank`, WIDGET_PAYIN, variant(widgetBody(country, currency, method), { 'sender.bank_symbol': 'sberbank' }));
}
ok('P2P payin with an empty sender.bank_symbol ("may be left empty")', P2P_PAYIN, variant(p2pBody(), { 'sender.bank_symbol': '' }));
ok('P2P payin RU names sender.bank_symbol and payment.bank_symbol', P2P_PAYIN, variant(p2pBody(), { 'sender.bank_symbol': 'tbank', 'payment.bank_symbol': 'sberbank' }));
ok('P2P payin with every optional field', P2P_PAYIN, variant(p2pBody(), {
  'general.merchant_callback_url': 'https://shop.example/cb/info',
  'general.merchant_success_callback_url': 'https://shop.example/cb/success',
  'general.merchant_decline_callback_url': 'https://shop.example/cb/decline',
  'general.redirect_url': 'https://shop.example/done',
  'payment.bank_symbol': 'sberbank',
  'payment.description': 'Заказ №10045',
  'payment.extra_param': 'vip_route-1',
  'sender.pan': '2200700012345678',
  'sender.phone': '+79001234567',
  'sender.bank_symbol': 'tbank',
  'sender.card_holder': 'IVAN IVANOV',
  'customer.first_name': 'Иван',
  'customer.last_name': 'Иванов',
  'customer.customer_type': 'ftd',
  'customer.language': 'ru',
  'customer.email': 'ivan@example.com',
  'customer.browser': 'Firefox 128',
  'customer.device_type': 'desktop',
  'customer.user_agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
}), [
  // "; rv:128.0) …" reads as an entry of its own: the signature would also cover a rewritten body.
  ['customer.user_agent', 'AMBIGUOUS_TEXT'],
]);
ok('P2P payin with a Chrome user agent (plain text after each ";")', P2P_PAYIN, variant(p2pBody(), {
  'customer.user_agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
}));
{
  // Keys holding ":" or ";" would let the signed entries be split another way: an error.
  const body = p2pBody();
  body.customer['note:status'] = 'x';
  body.payment['tag;x'] = 'y';
  bad('P2P payin with keys holding ":" and ";"', P2P_PAYIN, body,
    [['customer.note:status', 'AMBIGUOUS_KEY'], ['payment.tag;x', 'AMBIGUOUS_KEY']],
    [['payment.tag;x', 'UNKNOWN_FIELD'], ['customer.note:status', 'UNKNOWN_FIELD']]);
}

// --- required fields, types, nulls, unknown fields --------------------------------------
for (const field of ['general', 'payment', 'customer', 'general.project_id', 'general.payment_id', 'payment.method', 'payment.amount', 'payment.currency', 'customer.id', 'customer.ip_address', 'customer.country']) {
  bad(`P2P payin without ${field}`, P2P_PAYIN, variant(p2pBody(), { [field]: DROP }), [[field, 'REQUIRED']]);
}
for (const field of ['general', 'payment', 'customer', 'general.project_id', 'general.payment_id', 'payment.amount', 'payment.currency', 'customer.id', 'customer.ip_address', 'customer.country']) {
  bad(`widget payin without ${field}`, WIDGET_PAYIN, variant(widgetBody(), { [field]: DROP }), [[field, 'REQUIRED']]);
}
for (const path of SHARED_BODY_PATHS) {
  bad(`${path} without general.payment_id`, path, variant(sharedBody(), { 'general.payment_id': DROP }), [['general.payment_id', 'REQUIRED']]);
  bad(`${path} without general`, path, {}, [['general', 'REQUIRED']]);
}
for (const path of PROJECT_ONLY_PATHS) bad(`${path} without general.project_id`, path, { general: {} }, [['general.project_id', 'REQUIRED']]);
bad('general as a string', P2P_PAYIN, variant(p2pBody(), { general: 'prj_8f2c' }), [['general', 'WRONG_TYPE']]);
bad('customer as an array', P2P_PAYIN, variant(p2pBody(), { customer: [] }), [['customer', 'WRONG_TYPE']]);
bad('payment.currency as a number', P2P_PAYIN, variant(p2pBody(), { 'payment.currency': 643 }), [['payment.currency', 'WRONG_TYPE']]);
bad('general.project_id as a number', P2P_PAYIN, variant(p2pBody(), { 'general.project_id': 12345 }), [['general.project_id', 'WRONG_TYPE']]);
bad('customer.country null', P2P_PAYIN, variant(p2pBody(), { 'customer.country': null }), [['customer.country', 'REQUIRED']]);
ok('an optional field given as null: a warning', P2P_PAYIN, variant(p2pBody(), { 'payment.description': null }), [['payment.description', 'NULL_FIELD']]);
ok('unknown top-level member: a warning', P2P_PAYIN, variant(p2pBody(), { metadata: { a: 1 } }), [['metadata', 'UNKNOWN_FIELD']]);
ok('unknown nested member: a warning', P2P_PAYIN, variant(p2pBody(), { 'customer.middle_name': 'Petrovich' }), [['customer.middle_name', 'UNKNOWN_FIELD']]);
bad('misspelled amount: a warning, and amount is missing', P2P_PAYIN, variant(p2pBody(), { 'payment.amount': DROP, 'payment.amout': 150000 }), [['payment.amount', 'REQUIRED']], [['payment.amout', 'UNKNOWN_FIELD']]);
ok('widget payin with a P2P-only field: a warning', WIDGET_PAYIN, variant(widgetBody(), { 'customer.first_name': 'Ivan', 'payment.method': 'card-p2p' }), [['customer.first_name', 'UNKNOWN_FIELD'], ['payment.method', 'UNKNOWN_FIELD']]);
ok('payout general has no redirect_url: a warning', P2P_PAYOUT, variant(sharedBody(), { 'general.redirect_url': 'https://shop.example/done' }), [['general.redirect_url', 'UNKNOWN_FIELD']]);
ok('payout members the spec does not show are accepted as they are', P2P_PAYOUT, variant(sharedBody(), { payment: { amount: '1.5', anything: true }, sender: 1, recipient: [], customer: {} }));
bad('payout without general.payment_id', P2P_PAYOUT, { general: { project_id: 'prj_8f2c' }, payment: {} }, [['general.payment_id', 'REQUIRED']]);
for (const path of NOT_SHOWN_PATHS) {
  ok(`${path} (body not shown): any object`, path, { general: { project_id: 'x'.repeat(32) }, anything: [1, { b: null }] });
  bad(`${path} (body not shown): the Limits table still applies`, path, { general: { project_id: 'x'.repeat(33), payment_id: 'x'.repeat(256) } }, [
    ['general.project_id', 'TOO_LONG', { limit: 32, actual: 33 }],
    ['general.payment_id', 'TOO_LONG', { limit: 255, actual: 256 }],
  ]);
  ok(`${path} (body not shown): {}`, path, {});
  bad(`${path} (body not shown): not an object`, path, '[]', [['', 'BODY_NOT_OBJECT']]);
}

// --- the package's documented choices where the spec says "not shown" or gives no format (docs/api.md) ---
ok('UZ (not in the table): lifetime 600', P2P_PAYIN, variant(p2pBody('UZ', 'UZS', 'card-p2p'), { 'payment.lifetime': 600 }), [['customer.country', 'COUNTRY_NOT_LISTED']]);
bad('UZ (not in the table): lifetime 601', P2P_PAYIN, variant(p2pBody('UZ', 'UZS', 'card-p2p'), { 'payment.lifetime': 601 }), [['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', { limit: 600 }]], [['customer.country', 'COUNTRY_NOT_LISTED']]);
bad('an empty required identifier is TOO_SHORT', P2P_PAYIN, variant(p2pBody(), { 'general.project_id': '' }), [['general.project_id', 'TOO_SHORT']]);
bad('balance: an empty project_id is TOO_SHORT', '/api/v1/balance/info', { general: { project_id: '' } }, [['general.project_id', 'TOO_SHORT']]);
ok('e-mail local part of 64 characters', P2P_PAYIN, variant(p2pBody(), { 'customer.email': `${'a'.repeat(64)}@example.com` }));
bad('e-mail local part of 65 characters', P2P_PAYIN, variant(p2pBody(), { 'customer.email': `${'a'.repeat(65)}@example.com` }), [['customer.email', 'INVALID_EMAIL']]);
bad('card_holder with a typographic apostrophe', P2P_PAYIN, variant(p2pBody(), { 'sender.card_holder': 'O’NEIL' }), [['sender.card_holder', 'PATTERN']]);
ok('a null optional payout member is only a warning', P2P_PAYOUT, variant(sharedBody(), { customer: null }), [['customer', 'NULL_FIELD']]);

// --- everything at once, with dotted paths -----------------------------------------------
bad(
  'every error of one body in one pass',
  P2P_PAYIN,
  {
    general: { project_id: cyrillic(33), payment_id: 'order-1', merchant_callback_url: 'http://shop.example/cb', redirect_url: 'https://exa mple.com' },
    payment: { method: 'card-ecom', amount: '150000', currency: 'rub', lifetime: 1000, extra_param: 'a b', bank_symbol: cyrillic(33), amout: 1 },
    sender: { phone: '89001234567', card_holder: 'Ivan_Ivanov' },
    customer: { id: 'user-7', ip_address: 'localhost', country: 'RU', language: 'RUS', email: 'not-an-email', customer_type: 'vip', user_agent: cyrillic(1025) },
  },
  [
    ['general.project_id', 'TOO_LONG', { limit: 32, actual: 33 }],
    ['general.merchant_callback_url', 'NOT_HTTPS'],
    ['general.redirect_url', 'INVALID_URL'],
    ['payment.method', 'METHOD_NOT_AVAILABLE'],
    ['payment.amount', 'WRONG_TYPE'],
    ['payment.currency', 'PATTERN'],
    ['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', { limit: 600, actual: 1000 }],
    ['payment.extra_param', 'PATTERN'],
    ['payment.bank_symbol', 'TOO_LONG', { limit: 32, actual: 33 }],
    ['sender.phone', 'PATTERN'],
    ['sender.card_holder', 'PATTERN'],
    ['customer.ip_address', 'INVALID_IP'],
    ['customer.language', 'PATTERN'],
    ['customer.email', 'INVALID_EMAIL'],
    ['customer.customer_type', 'PATTERN'],
    ['customer.user_agent', 'TOO_LONG', { limit: 1024, actual: 1025 }],
  ],
  [['payment.amout', 'UNKNOWN_FIELD']],
);
bad('an empty object misses every required section', P2P_PAYIN, {}, [['general', 'REQUIRED'], ['payment', 'REQUIRED'], ['customer', 'REQUIRED']]);
bad('an empty widget object misses every required section', WIDGET_PAYIN, {}, [['general', 'REQUIRED'], ['payment', 'REQUIRED'], ['customer', 'REQUIRED']]);

export const VALIDATION_CASES = cases;

// ---------------------------------------------------------------------------
// Bad input that must never throw: [name, body]
// ---------------------------------------------------------------------------
const cyclic = { general: {} };
cyclic.general.self = cyclic;
const throwing = { general: {} };
Object.defineProperty(throwing, 'payment', { enumerable: true, get() { throw new Error('getter'); } });

export const NEVER_THROW_INPUTS = [
  ['text that is not JSON', 'not json'],
  ['truncated JSON text', '{"general":'],
  ['empty text', ''],
  ['a JSON array as text', '[1,2]'],
  ['a JSON string as text', '"x"'],
  ['JSON text with a duplicate key', '{"general":{"project_id":"a","project_id":"b"}}'],
  ['an array', [1, 2]],
  ['an empty array', []],
  ['an object with an undefined member', { general: { project_id: undefined } }],
  ['undefined', undefined],
  ['null', null],
  ['a number', 42],
  ['a boolean', true],
  ['a BigInt', 5n],
  ['a symbol', Symbol('x')],
  ['a function', () => 1],
  ['NaN in a member', { payment: { amount: NaN } }],
  ['Infinity in a member', { payment: { amount: Infinity } }],
  ['a Date', new Date(0)],
  ['a Date in a member', { general: { project_id: new Date(0) } }],
  ['a Map', new Map([['general', {}]])],
  ['a cyclic object', cyclic],
  ['a member whose getter throws', throwing],
  ['bytes that are not UTF-8', new Uint8Array([0xff, 0xfe, 0x7b])],
  ['UTF-8 bytes of JSON', new TextEncoder().encode('{"general":{}}')],
  ['a lone surrogate in a member', { general: { project_id: '\ud800' } }],
  ['nesting deeper than any limit', JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`)],
  ['nesting deeper than any limit, as text', `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`],
  ['a body over 1 MiB', { general: { project_id: 'x'.repeat(1100000) } }],
  ['text over 1 MiB', JSON.stringify({ general: { project_id: 'x'.repeat(1100000) } })],
];
