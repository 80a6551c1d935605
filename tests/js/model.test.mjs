// The request model of the npm package, as a merchant uses it through
// `import` and `require`: validateRequest against the spec's tables (every
// limit just inside and just outside, every pattern, every cross-field rule),
// the builders, exact minor units, and the callback and info-response models.
// Expectations come from the spec (/work/shared/spec/interface.md) and the
// documented API, never from the package's output. Table: ./model-table.mjs.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

import { cjs, esm, modelEntries, modelMessage, readKey, root, throwsCode, tokenOf, valueToTree } from './helpers.mjs';
import * as T from './model-table.mjs';

const FLAVORS = [
  ['import', esm],
  ['require', cjs],
];
const TS = 1700000000;
const PRIVATE_PEM = readKey('keys/rsa2048.pkcs8.pem');
const PUBLIC_PEM = readKey('keys/rsa2048.public.pem');

// ---------------------------------------------------------------------------
// Report checks
// ---------------------------------------------------------------------------

/** Codes of checks of one field's own value (cross-field rules may word their message around the rule). */
const FIELD_CODES = new Set(['REQUIRED', 'WRONG_TYPE', 'TOO_LONG', 'TOO_SHORT', 'PATTERN', 'OUT_OF_RANGE', 'NOT_HTTPS', 'INVALID_URL', 'INVALID_IP', 'INVALID_EMAIL', 'UNKNOWN_METHOD', 'LIFETIME_OUT_OF_RANGE', 'UNKNOWN_FIELD', 'NULL_FIELD']);
const ISSUE_KEYS = new Set(['path', 'code', 'message', 'limit', 'actual']);

/** The documented shape: { valid, errors: [{ path, code, message, limit?, actual? }], warnings }. */
function assertReportShape(report, what) {
  assert.equal(typeof report, 'object', what);
  assert.deepEqual(Object.keys(report).sort(), ['errors', 'valid', 'warnings'], what);
  assert.equal(typeof report.valid, 'boolean', what);
  assert.ok(Array.isArray(report.errors) && Array.isArray(report.warnings), what);
  assert.equal(report.valid, report.errors.length === 0, `${what}: valid is true exactly when there are no errors`);
  for (const issue of [...report.errors, ...report.warnings]) {
    for (const key of Object.keys(issue)) assert.ok(ISSUE_KEYS.has(key), `${what}: unexpected issue member ${key}`);
    assert.equal(typeof issue.path, 'string', what);
    assert.match(issue.code, /^[A-Z][A-Z0-9_]*$/, what);
    assert.equal(typeof issue.message, 'string', what);
    assert.ok(issue.message.length > 0, what);
    for (const key of ['limit', 'actual']) {
      if (key in issue) assert.ok(['number', 'string'].includes(typeof issue[key]), `${what}: ${key} is ${typeof issue[key]}`);
    }
  }
}

const show = (issues) => issues.map((i) => `${i.path || '(body)'} ${i.code}${'limit' in i ? ` limit=${i.limit}` : ''}${'actual' in i ? ` actual=${i.actual}` : ''}`).join('; ') || 'none';

/** Every expected issue is reported, and nothing else. */
function assertIssues(actual, expected, kind, what) {
  const left = [...actual];
  const missing = [];
  for (const [path, codes, details] of expected) {
    const allowed = Array.isArray(codes) ? codes : [codes];
    const index = left.findIndex((issue) => issue.path === path && allowed.includes(issue.code));
    if (index === -1) {
      missing.push(`${path} ${allowed.join('|')}`);
      continue;
    }
    const [issue] = left.splice(index, 1);
    for (const [key, value] of Object.entries(details ?? {})) {
      assert.equal(issue[key], value, `${what}: ${kind} ${path} ${issue.code}: ${key}`);
    }
    // A field's own check names the field in its message.
    if (path && FIELD_CODES.has(issue.code)) assert.ok(issue.message.includes(path), `${what}: message "${issue.message}" does not name ${path}`);
  }
  assert.ok(missing.length === 0 && left.length === 0, `${what}: ${kind} differ\n  expected: ${expected.map(([p, c]) => `${p} ${c}`).join('; ') || 'none'}\n  got:      ${show(actual)}`);
}

/** The `.code` of the Error `fn` throws (it must throw an Error). */
function throwsCodeOf(fn) {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof Error, String(error));
    return error.code;
  }
  assert.fail('nothing was thrown');
}

function checkCase(api, c) {
  const report = api.validateRequest(c.path, c.body);
  assertReportShape(report, c.name);
  assertIssues(report.errors, c.expect.errors, 'errors', c.name);
  assertIssues(report.warnings, c.expect.warnings ?? [], 'warnings', c.name);
  assert.equal(report.valid, c.expect.errors.length === 0, c.name);
}

// ---------------------------------------------------------------------------
// validateRequest: the table
// ---------------------------------------------------------------------------

describe('validateRequest: the spec table through import', () => {
  for (const c of T.VALIDATION_CASES) test(c.name, () => checkCase(esm, c));
});

test(`validateRequest: the same ${T.VALIDATION_CASES.length} cases through require`, () => {
  const failures = [];
  for (const c of T.VALIDATION_CASES) {
    try {
      checkCase(cjs, c);
    } catch (error) {
      failures.push(error.message);
    }
  }
  assert.deepEqual(failures, []);
});

test('docs/errors.md: the issue code table lists exactly issueCodes()', () => {
  const guide = fs.readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8');
  const section = guide.split(/^## Issue codes$/m)[1].split(/^##/m)[0];
  const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(documented.sort(), esm.issueCodes().map((c) => c.code).sort());
});

test('the table covers every operation path, and JSON text gives the same report as the object', () => {
  const paths = new Set(T.VALIDATION_CASES.map((c) => c.path));
  assert.deepEqual([...paths].sort(), [...T.ALL_PATHS].sort());
  // text bodies give the same report as objects
  // Not comparable: BigInts (JSON.stringify refuses them) and integers beyond 2^53, which the
  // package writes as floats (1e16 → `1e+16`) while JSON.stringify writes their digits.
  for (const c of T.VALIDATION_CASES.filter((x) => typeof x.body === 'object' && !hasBigInt(x.body) && !hasUnsafeInteger(x.body))) {
    assert.deepEqual(esm.validateRequest(c.path, JSON.stringify(c.body)), esm.validateRequest(c.path, c.body), c.name);
  }
});

function hasUnsafeInteger(value) {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value && typeof value === 'object') return Object.values(value).some(hasUnsafeInteger);
  return false;
}

function hasBigInt(value) {
  if (typeof value === 'bigint') return true;
  if (value && typeof value === 'object') return Object.values(value).some(hasBigInt);
  return false;
}

describe('validateRequest: result shape', () => {
  test('a valid body: valid true, empty errors and warnings', () => {
    assert.deepEqual(esm.validateRequest(T.P2P_PAYIN, T.p2pBody()), { valid: true, errors: [], warnings: [] });
  });

  test('TOO_LONG carries limit and actual as numbers, in characters', () => {
    const report = esm.validateRequest(T.P2P_PAYIN, T.variant(T.p2pBody(), { 'general.payment_id': T.cyrillic(256) }));
    assert.equal(report.errors.length, 1);
    const [issue] = report.errors;
    assert.equal(issue.path, 'general.payment_id');
    assert.equal(issue.code, 'TOO_LONG');
    assert.equal(issue.limit, 255);
    assert.equal(issue.actual, 256); // 512 bytes of UTF-8
  });

  test('REQUIRED has neither limit nor actual (absent, not undefined)', () => {
    const [issue] = esm.validateRequest(T.P2P_PAYIN, T.variant(T.p2pBody(), { 'customer.id': T.DROP })).errors;
    assert.deepEqual(Object.keys(issue).sort(), ['code', 'message', 'path']);
  });

  test('a warning does not make a body invalid', () => {
    const report = esm.validateRequest(T.P2P_PAYIN, T.variant(T.p2pBody(), { 'payment.amout': 1 }));
    assert.equal(report.valid, true);
    assert.equal(report.warnings.length, 1);
    assert.equal(report.warnings[0].code, 'UNKNOWN_FIELD');
    assert.match(report.warnings[0].message, /payment\.amount/, 'a typo warning suggests the field meant');
  });

  test('personal data is not echoed: a bad e-mail or IP is not in the issue', () => {
    const report = esm.validateRequest(T.P2P_PAYIN, T.variant(T.p2pBody(), { 'customer.email': 'secret-person', 'customer.ip_address': 'secret-host' }));
    for (const issue of report.errors) {
      assert.ok(!JSON.stringify(issue).includes('secret-'), JSON.stringify(issue));
    }
  });

  test('every code in a report is listed by issueCodes()', () => {
    const known = new Set(esm.issueCodes().map((c) => c.code));
    for (const c of T.VALIDATION_CASES) {
      const report = esm.validateRequest(c.path, c.body);
      for (const issue of [...report.errors, ...report.warnings]) assert.ok(known.has(issue.code), `${c.name}: ${issue.code}`);
    }
  });
});

describe('validateRequest never throws on bad input', () => {
  const paths = [T.P2P_PAYIN, T.WIDGET_PAYIN, '/api/v1/balance/info', '/api/v1/payment/ecom/payin', '/api/v1/not-an-operation'];
  for (const [name, body] of T.NEVER_THROW_INPUTS) {
    test(name, () => {
      for (const [flavor, api] of FLAVORS) {
        for (const path of paths) {
          let report;
          assert.doesNotThrow(() => {
            report = api.validateRequest(path, body);
          }, `${flavor} ${path}`);
          assertReportShape(report, `${flavor} ${path} ${name}`);
        }
      }
    });
  }

  test('unreadable bodies are errors of the whole body, with the body codes', () => {
    const codeOf = (body) => esm.validateRequest(T.P2P_PAYIN, body).errors.map((e) => [e.path, e.code]);
    assert.deepEqual(codeOf('not json'), [['', 'INVALID_JSON']]);
    assert.deepEqual(codeOf('[1,2]'), [['', 'BODY_NOT_OBJECT']]);
    assert.deepEqual(codeOf([1, 2]), [['', 'BODY_NOT_OBJECT']]);
    assert.deepEqual(codeOf('{"general":{"project_id":"a","project_id":"b"}}').map(([, code]) => code), ['DUPLICATE_KEY']);
    assert.deepEqual(codeOf({ general: { project_id: undefined } }), [['general.project_id', 'INVALID_BODY']]);
    assert.deepEqual(codeOf(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`).map(([, code]) => code), ['BODY_TOO_DEEP']);
    assert.deepEqual(codeOf(JSON.stringify({ general: { project_id: 'x'.repeat(1100000) } })).map(([, code]) => code), ['BODY_TOO_LARGE']);
  });

  const UNKNOWN_PATHS = ['/api/v1/payment/p2p/payin/', '/api/v1/payment/p2p/bank/all', '/api/v1/payment/p2p/bank/available', '/api/v2/payment/p2p/payin', '', 'payin'];
  test('an unknown operation path is one UNKNOWN_OPERATION error, whatever the body text', () => {
    for (const path of UNKNOWN_PATHS) {
      for (const body of [T.p2pBody(), JSON.stringify(T.p2pBody()), 'not json', '[1]']) {
        const report = esm.validateRequest(path, body);
        assert.deepEqual(report.errors.map((e) => e.code), ['UNKNOWN_OPERATION'], `${path} ${JSON.stringify(body).slice(0, 20)}`);
        assert.equal(report.valid, false);
      }
    }
  });

  test(
    'an unknown operation path is UNKNOWN_OPERATION with an unreadable JS body too',
    () => {
      for (const path of UNKNOWN_PATHS) {
        for (const body of [[1], { a: undefined }]) {
          assert.deepEqual(esm.validateRequest(path, body).errors.map((e) => e.code), ['UNKNOWN_OPERATION'], path);
        }
      }
    },
  );

  test('an operation path that is not a string is UNKNOWN_OPERATION, not an exception', () => {
    for (const [flavor, api] of FLAVORS) {
      for (const path of [42, undefined, null, {}, ['/api/v1/balance/info'], Symbol('p')]) {
        let report;
        assert.doesNotThrow(() => {
          report = api.validateRequest(path, T.projectBody());
        }, `${flavor} ${String(path)}`);
        assert.deepEqual(report.errors.map((e) => e.code), ['UNKNOWN_OPERATION'], `${flavor} ${String(path)}`);
      }
    }
  });

  test(
    'issueCodes() lists every code validateRequest reports, INVALID_BODY included',
    () => {
      const known = new Set(esm.issueCodes().map((c) => c.code));
      for (const [name, body] of T.NEVER_THROW_INPUTS) {
        for (const issue of esm.validateRequest(T.P2P_PAYIN, body).errors) assert.ok(known.has(issue.code), `${name}: ${issue.code}`);
      }
    },
  );

  test('the package keeps working after every bad input', () => {
    assert.equal(esm.validateRequest(T.P2P_PAYIN, T.p2pBody()).valid, true);
    assert.equal(cjs.validateRequest(T.P2P_PAYIN, T.p2pBody()).valid, true);
  });
});

test('arguments of the wrong JS type are thrown as coded Errors and never break the module', () => {
  for (const [flavor, api] of FLAVORS) {
    for (const [name, call] of [
      ['toMinorUnits(number)', () => api.toMinorUnits(15, 'RUB')],
      ['toMinorUnits(currency number)', () => api.toMinorUnits('1', 5)],
      ['fromMinorUnits(string)', () => api.fromMinorUnits('1', 'RUB')],
      ['parseInfoResponse(number path)', () => api.parseInfoResponse(42, {})],
      ['buildPayinRequest()', () => api.buildPayinRequest()],
      ['buildWidgetPayinRequest(null)', () => api.buildWidgetPayinRequest(null)],
      ['parseCallback(undefined)', () => api.parseCallback(undefined)],
    ]) {
      const code = throwsCodeOf(call);
      assert.equal(typeof code, 'string', `${flavor} ${name}: a coded Error`);
    }
    assert.equal(api.validateRequest(T.P2P_PAYIN, T.p2pBody()).valid, true, `${flavor}: still working`);
  }
});

// ---------------------------------------------------------------------------
// availability() and issueCodes()
// ---------------------------------------------------------------------------

describe('availability() and issueCodes()', () => {
  for (const [flavor, api] of FLAVORS) {
    test(`availability() is the spec's table, row by row (${flavor})`, () => {
      assert.deepEqual(api.availability(), T.SPEC_AVAILABILITY);
    });
  }

  test('issueCodes(): unique codes, each with a description, covering every code the validator reports', () => {
    const codes = esm.issueCodes();
    assert.ok(Array.isArray(codes) && codes.length > 0);
    for (const entry of codes) {
      assert.deepEqual(Object.keys(entry).sort(), ['code', 'description']);
      assert.match(entry.code, /^[A-Z][A-Z_]+$/);
      assert.ok(entry.description.length > 10, entry.code);
    }
    assert.equal(new Set(codes.map((c) => c.code)).size, codes.length);
    const documented = [
      'UNKNOWN_OPERATION', 'REQUIRED', 'WRONG_TYPE', 'TOO_LONG', 'TOO_SHORT', 'PATTERN', 'OUT_OF_RANGE', 'NOT_HTTPS',
      'INVALID_URL', 'INVALID_IP', 'INVALID_EMAIL', 'UNKNOWN_METHOD', 'METHOD_NOT_AVAILABLE', 'COUNTRY_NOT_AVAILABLE',
      'CURRENCY_MISMATCH', 'WIDGET_METHOD_REQUIRED', 'EMAIL_REQUIRED', 'BANK_SYMBOL_NOT_ALLOWED', 'LIFETIME_OUT_OF_RANGE',
      'UNKNOWN_FIELD', 'NULL_FIELD', 'COUNTRY_NOT_LISTED', 'LANGUAGE_NOT_SUPPORTED',
    ];
    for (const code of documented) assert.ok(codes.some((c) => c.code === code), code);
    assert.deepEqual(cjs.issueCodes(), codes);
  });
});

// ---------------------------------------------------------------------------
// Done when: a merchant can build, validate and sign a payin for any row of the availability table
// ---------------------------------------------------------------------------

/** A builder input for a row and method, as a merchant writes it. */
function inputFor(row, method, paymentId) {
  const common = {
    projectId: 'prj_8f2c',
    paymentId,
    merchantCallbackUrl: 'https://shop.example/cb/info',
    merchantSuccessCallbackUrl: 'https://shop.example/cb/success',
    merchantDeclineCallbackUrl: 'https://shop.example/cb/decline',
    redirectUrl: 'https://shop.example/done',
    amountMajor: '1500.50',
    currency: row.currency,
    description: `Заказ ${paymentId}`,
    customerId: 'user-7',
    customerIp: '203.0.113.7',
    country: row.country,
    customerType: 'ftd',
  };
  if (row.integration === 'h2h') return { ...common, method };
  const input = { ...common, widgetMethod: method };
  if (['KE', 'NG', 'ZA'].includes(row.country)) input.email = 'payer@example.com';
  return input;
}

function buildFor(api, row, input) {
  return row.integration === 'h2h' ? api.buildPayinRequest(input) : api.buildWidgetPayinRequest(input);
}

describe('done when: build, validate and sign a payin for every row of availability() and every method in it', () => {
  for (const [flavor, api] of FLAVORS) {
    const key = api.SigningKey.fromPem(PRIVATE_PEM);
    const rows = api.availability();
    assert.ok(rows.length >= T.SPEC_AVAILABILITY.length);
    for (const row of rows) {
      for (const method of row.payinMethods) {
        test(`${flavor}: ${row.country} ${row.currency} ${row.integration} ${method}`, () => {
          const paymentId = `order-${row.country}-${method}`;
          const built = buildFor(api, row, inputFor(row, method, paymentId));
          assert.deepEqual(built.report, { valid: true, errors: [], warnings: [] }, show(built.report.errors));
          // The body carries the spec's fields, in minor units, with the default lifetime.
          const { body } = built;
          assert.equal(body.payment.amount, 150050);
          assert.equal(body.payment.currency, row.currency);
          assert.equal(body.payment.lifetime, 600);
          assert.equal(body.customer.country, row.country);
          assert.equal(row.integration === 'h2h' ? body.payment.method : body.payment.widget_method, method);
          assert.deepEqual(JSON.parse(built.bodyText), body);
          // validateRequest agrees on the body text that will be sent.
          const path = row.integration === 'h2h' ? T.P2P_PAYIN : T.WIDGET_PAYIN;
          assert.equal(api.validateRequest(path, built.bodyText).valid, true);

          const signed = api.signRequest(built.bodyText, key, { merchantId: 'merchant-1', timestamp: TS });
          assert.equal(signed.body, built.bodyText, 'the signed text is the built text, unchanged');
          assert.deepEqual(Object.keys(signed.headers).sort(), ['x-access-merchant-id', 'x-access-signature', 'x-access-timestamp', 'x-access-token']);
          assert.equal(signed.headers['x-access-timestamp'], String(TS));
          assert.equal(signed.headers['x-access-merchant-id'], 'merchant-1');
          assert.match(signed.headers['x-access-signature'], /^[A-Za-z0-9_-]+=*$/);
          // Independently: the canonical message of the spec's steps 1-5, and raw node:crypto.
          const message = modelMessage(modelEntries(valueToTree(JSON.parse(signed.body))), TS);
          const signature = Buffer.from(signed.headers['x-access-signature'], 'base64url');
          assert.equal(signature.length, 256);
          assert.ok(crypto.verify('sha256', Buffer.from(message, 'utf8'), PUBLIC_PEM, signature), 'node:crypto verifies the signature');
          const tokenPem = Buffer.from(signed.headers['x-access-token'], 'base64url').toString('utf8');
          const der = (pem) => crypto.createPublicKey(pem).export({ type: 'spki', format: 'der' });
          assert.deepEqual(der(tokenPem), der(PUBLIC_PEM), 'x-access-token is the signer public key PEM');
          assert.equal(signed.headers['x-access-token'], tokenOf(key.publicKeyPem()));
          // Signing the built object gives the same text and signature.
          const fromObject = api.signRequest(built.body, key, { merchantId: 'merchant-1', timestamp: TS });
          assert.equal(fromObject.body, built.bodyText);
          assert.equal(fromObject.headers['x-access-signature'], signed.headers['x-access-signature']);
        });
      }
      test(`${flavor}: ${row.country} ${row.integration}: lifetime ${row.lifetimeMax} is the upper bound`, () => {
        const method = row.payinMethods[0];
        const at = (lifetime) => buildFor(api, row, { ...inputFor(row, method, 'order-l'), lifetime }).report;
        assert.equal(at(300).valid, true);
        assert.equal(at(row.lifetimeMax).valid, true);
        assert.deepEqual(at(row.lifetimeMax + 1).errors.map((e) => [e.path, e.code, e.limit]), [['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', row.lifetimeMax]]);
        assert.deepEqual(at(299).errors.map((e) => [e.path, e.code, e.limit]), [['payment.lifetime', 'LIFETIME_OUT_OF_RANGE', 300]]);
      });
    }
  }
});

// ---------------------------------------------------------------------------
// Builders
// ---------------------------------------------------------------------------

const P2P_INPUT = { projectId: 'prj_8f2c', paymentId: 'order-1', method: 'card-p2p', amount: 150000, currency: 'RUB', customerId: 'u-1', customerIp: '10.0.0.1', country: 'RU' };
const WIDGET_INPUT = { projectId: 'prj_8f2c', paymentId: 'order-2', widgetMethod: 'payin-mobile-money', amount: 500000, currency: 'KES', customerId: 'u-2', customerIp: '::1', country: 'KE', email: 'payer@example.com' };

describe('builders', () => {
  for (const [flavor, api] of FLAVORS) {
    test(`${flavor}: every P2P input lands at its spec path`, () => {
      const built = api.buildPayinRequest({
        projectId: 'prj_8f2c', paymentId: 'order-1',
        merchantCallbackUrl: 'https://s.example/i', merchantSuccessCallbackUrl: 'https://s.example/s', merchantDeclineCallbackUrl: 'https://s.example/d', redirectUrl: 'https://s.example/r',
        method: 'sbp-p2p', amount: 150000, currency: 'RUB', lifetime: 450, bankSymbol: 'sberbank', description: 'd', extraParam: 'x_1',
        senderPan: '2200700012345678', senderPhone: '+79001234567', senderBankSymbol: 'tbank', senderCardHolder: 'IVAN IVANOV',
        customerId: 'u-1', customerIp: '10.0.0.1', firstName: 'Ivan', lastName: 'Ivanov', customerType: 'trust', country: 'RU', language: 'ru', email: 'i@example.com',
        browser: 'b', deviceType: 'dt', userAgent: 'ua',
      });
      assert.deepEqual(built.body, {
        general: { project_id: 'prj_8f2c', payment_id: 'order-1', merchant_callback_url: 'https://s.example/i', merchant_success_callback_url: 'https://s.example/s', merchant_decline_callback_url: 'https://s.example/d', redirect_url: 'https://s.example/r' },
        payment: { method: 'sbp-p2p', amount: 150000, currency: 'RUB', lifetime: 450, bank_symbol: 'sberbank', description: 'd', extra_param: 'x_1' },
        sender: { pan: '2200700012345678', phone: '+79001234567', bank_symbol: 'tbank', card_holder: 'IVAN IVANOV' },
        customer: { id: 'u-1', ip_address: '10.0.0.1', first_name: 'Ivan', last_name: 'Ivanov', customer_type: 'trust', country: 'RU', language: 'ru', email: 'i@example.com', browser: 'b', device_type: 'dt', user_agent: 'ua' },
      });
      assert.deepEqual(built.report, { valid: true, errors: [], warnings: [] });
    });

    test(`${flavor}: every widget input lands at its spec path (bankSymbol is sender.bank_symbol)`, () => {
      const built = api.buildWidgetPayinRequest({
        projectId: 'prj_8f2c', paymentId: 'order-2', redirectUrl: 'https://s.example/r',
        widgetMethod: 'payin-1-click', amount: 500000, currency: 'RUB', lifetime: 300, description: 'd', extraParam: 'x',
        bankSymbol: 'sberbank', customerId: 'u-2', customerIp: '::1', country: 'RU', language: 'ru', customerType: 'ftd', email: 'p@example.com',
      });
      assert.deepEqual(built.body, {
        general: { project_id: 'prj_8f2c', payment_id: 'order-2', redirect_url: 'https://s.example/r' },
        payment: { amount: 500000, currency: 'RUB', lifetime: 300, description: 'd', extra_param: 'x', widget_method: 'payin-1-click' },
        sender: { bank_symbol: 'sberbank' },
        customer: { id: 'u-2', ip_address: '::1', country: 'RU', language: 'ru', customer_type: 'ftd', email: 'p@example.com' },
      });
      assert.equal(built.report.valid, true);
    });

    test(`${flavor}: lifetime defaults to 600 seconds (the spec's 10 minutes)`, () => {
      assert.equal(api.buildPayinRequest(P2P_INPUT).body.payment.lifetime, 600);
      assert.equal(api.buildWidgetPayinRequest(WIDGET_INPUT).body.payment.lifetime, 600);
      assert.equal(api.buildPayinRequest({ ...P2P_INPUT, lifetime: 300 }).body.payment.lifetime, 300);
    });

    test(`${flavor}: amountMajor is converted exactly by the currency`, () => {
      // Each of these is off by one minor unit with floating point (e.g. 0.29 * 100 = 28.999999999999996).
      for (const [major, currency, minor] of [
        ['1500.50', 'RUB', 150050], ['0.29', 'RUB', 29], ['1.13', 'KZT', 113], ['4.35', 'KES', 435], ['19.99', 'NGN', 1999],
        ['0.01', 'ZAR', 1], ['1500', 'RUB', 150000], ['1500.5', 'RUB', 150050], ['100000000000.00', 'RUB', 10000000000000], ['8.20', 'KZT', 820],
      ]) {
        const country = { RUB: 'RU', KZT: 'KZ', KES: 'KE', NGN: 'NG', ZAR: 'ZA' }[currency];
        const input = { ...P2P_INPUT, amount: undefined, amountMajor: major, currency };
        delete input.amount;
        if (currency === 'RUB' || currency === 'KZT') {
          const built = api.buildPayinRequest({ ...input, country, method: currency === 'KZT' ? 'international-card-p2p' : 'card-p2p' });
          assert.equal(built.body.payment.amount, minor, `${major} ${currency}`);
          assert.equal(built.report.valid, true, show(built.report.errors));
        }
        const widget = { ...WIDGET_INPUT, amountMajor: major, currency, country, widgetMethod: undefined };
        delete widget.amount;
        delete widget.widgetMethod;
        if (country === 'KZ') widget.widgetMethod = 'payin-p2p-card-international';
        assert.equal(api.buildWidgetPayinRequest(widget).body.payment.amount, minor, `widget ${major} ${currency}`);
      }
    });

    test(`${flavor}: amountMajor mistakes are thrown with a code`, () => {
      const p2p = { ...P2P_INPUT };
      delete p2p.amount;
      throwsCode(() => api.buildPayinRequest({ ...P2P_INPUT, amountMajor: '1500.00' }), 'INVALID_ARGUMENT', 'amount and amountMajor');
      throwsCode(() => api.buildPayinRequest({ ...p2p, amountMajor: '1500.00', currency: undefined }), 'INVALID_ARGUMENT', 'amountMajor without currency');
      throwsCode(() => api.buildPayinRequest({ ...p2p, amountMajor: '1.005' }), 'INVALID_AMOUNT', 'three fraction digits in RUB');
      throwsCode(() => api.buildPayinRequest({ ...p2p, amountMajor: '1,5' }), 'INVALID_AMOUNT', 'comma');
      throwsCode(() => api.buildPayinRequest({ ...p2p, amountMajor: '-1' }), 'INVALID_AMOUNT', 'negative');
      throwsCode(() => api.buildPayinRequest({ ...p2p, amountMajor: '1', currency: 'ABC' }), 'UNKNOWN_CURRENCY', 'unknown currency');
    });

    test(`${flavor}: unknown input keys are errors of the report (UNKNOWN_INPUT), with "did you mean"`, () => {
      const cases = [
        ['buildPayinRequest', P2P_INPUT, 'projectID', 'x', 'projectId'],
        ['buildPayinRequest', P2P_INPUT, 'amout', 1, 'amount'],
        ['buildPayinRequest', P2P_INPUT, 'project_id', 'x', 'projectId'],
        ['buildPayinRequest', P2P_INPUT, 'customerIP', '10.0.0.1', 'customerIp'],
        ['buildPayinRequest', P2P_INPUT, 'widgetMethod', 'payin-p2p-card', null],
        ['buildPayinRequest', P2P_INPUT, 'customer', { id: 'u' }, 'customerId'],
        ['buildWidgetPayinRequest', WIDGET_INPUT, 'method', 'card-p2p', null],
        ['buildWidgetPayinRequest', WIDGET_INPUT, 'senderBankSymbol', 'x', null],
      ];
      for (const [builder, input, key, value, meant] of cases) {
        const { body, report } = api[builder]({ ...input, [key]: value });
        assert.equal(report.valid, false, `${builder} ${key}`);
        const found = report.errors.filter((issue) => issue.code === 'UNKNOWN_INPUT');
        assert.deepEqual(found.map((issue) => issue.path), [key], `${builder} ${key}`);
        assert.match(found[0].message, new RegExp(`^${key} is not a member of the ${builder} input`));
        if (meant) assert.match(found[0].message, new RegExp(`did you mean ${meant}\\?$`), `${key} means ${meant}`);
        else assert.doesNotMatch(found[0].message, /did you mean/, key);
        // Nothing of the unknown member reaches the body: it is built as without it.
        assert.deepEqual(body, api[builder](input).body, `${builder} ${key}: the body is built from the known members`);
      }
    });

    test(`${flavor}: input members of the wrong type are errors of the report (WRONG_TYPE) at their name`, () => {
      const cases = [
        ['amount', '150000', 'a whole number (0 or more), found a string'],
        ['amount', 1.5, 'a whole number (0 or more), found a number with a fraction'],
        ['lifetime', -300, 'a whole number (0 or more), found a negative number'],
        ['amount', 2 ** 60, 'a whole number (0 or more), found a number too large to be exact'],
        ['amount', Infinity, 'a whole number (0 or more), found a number that is not finite'],
        ['currency', 643, 'a string, found a number'],
        ['customerId', { id: 'u' }, 'a string, found an object'],
        ['country', true, 'a string, found a boolean'],
        ['customerId', 'a\ud800', 'a string, found a string with a lone UTF-16 surrogate'],
      ];
      for (const [key, value, wording] of cases) {
        const { body, report } = api.buildPayinRequest({ ...P2P_INPUT, [key]: value });
        assert.equal(report.valid, false, key);
        const found = report.errors.filter((issue) => issue.path === key);
        assert.deepEqual(found.map((issue) => issue.code), ['WRONG_TYPE'], key);
        assert.equal(found[0].message, `${key} must be ${wording}; it is not in the body`);
        assert.doesNotMatch(found[0].message, /invalid type|expected u64|\.\.=/, key);
        const rest = { ...P2P_INPUT };
        delete rest[key];
        assert.deepEqual(body, api.buildPayinRequest(rest).body, `${key}: left out of the body`);
      }
    });

    test(`${flavor}: input that is not an object is refused`, () => {
      for (const input of ['x', 5, [P2P_INPUT]]) throwsCode(() => api.buildPayinRequest(input), 'INVALID_ARGUMENT', JSON.stringify(input));
    });

    test(`${flavor}: a fractional or negative amount is never rounded into a valid request`, () => {
      for (const amount of [15.5, 150000.4, -1]) {
        let built;
        try {
          built = api.buildPayinRequest({ ...P2P_INPUT, amount });
        } catch (error) {
          assert.equal(error.code, 'INVALID_ARGUMENT', String(amount));
          continue;
        }
        assert.equal(built.report.valid, false, `${amount} became ${built.body.payment?.amount}`);
      }
    });

    test(`${flavor}: missing and wrong inputs are report errors at body paths, not exceptions`, () => {
      const empty = api.buildPayinRequest({});
      assert.equal(empty.report.valid, false);
      assert.deepEqual(empty.report.errors.map((e) => [e.path, e.code]).sort(), [['customer', 'REQUIRED'], ['general', 'REQUIRED'], ['payment.amount', 'REQUIRED'], ['payment.currency', 'REQUIRED'], ['payment.method', 'REQUIRED']]);
      const wrong = api.buildPayinRequest({ ...P2P_INPUT, currency: 'rub', customerIp: '999.1.1.1', senderPhone: '89001234567', amount: 0 });
      assert.deepEqual(wrong.report.errors.map((e) => [e.path, e.code]).sort(), [['customer.ip_address', 'INVALID_IP'], ['payment.amount', 'OUT_OF_RANGE'], ['payment.currency', 'PATTERN'], ['sender.phone', 'PATTERN']]);
      const kz = api.buildWidgetPayinRequest({ ...WIDGET_INPUT, widgetMethod: undefined, currency: 'KZT', country: 'KZ', email: undefined });
      assert.deepEqual(kz.report.errors.map((e) => [e.path, e.code]), [['payment.widget_method', 'WIDGET_METHOD_REQUIRED']]);
      const ke = api.buildWidgetPayinRequest({ ...WIDGET_INPUT, email: undefined, bankSymbol: 'sberbank' });
      assert.deepEqual(ke.report.errors.map((e) => [e.path, e.code]).sort(), [['customer.email', 'EMAIL_REQUIRED'], ['sender.bank_symbol', 'BANK_SYMBOL_NOT_ALLOWED']]);
    });
  }
});

// ---------------------------------------------------------------------------
// Minor units
// ---------------------------------------------------------------------------

describe('toMinorUnits and fromMinorUnits', () => {
  for (const [flavor, api] of FLAVORS) {
    test(`${flavor}: the spec's fraction digits (ARS, KZT, RUB, UZS 2; KRW 0)`, () => {
      assert.equal(api.toMinorUnits('1500.50', 'RUB'), 150050);
      assert.equal(typeof api.toMinorUnits('1500.50', 'RUB'), 'number');
      for (const currency of ['ARS', 'KZT', 'RUB', 'UZS']) {
        assert.equal(api.toMinorUnits('12.34', currency), 1234, currency);
        assert.equal(api.toMinorUnits('12', currency), 1200, currency);
        assert.equal(api.fromMinorUnits(1234, currency), '12.34', currency);
      }
      assert.equal(api.toMinorUnits('1500', 'KRW'), 1500, 'KRW has 0 digits: major units');
      assert.equal(api.fromMinorUnits(1500, 'KRW'), '1500');
      throwsCode(() => api.toMinorUnits('1500.5', 'KRW'), 'INVALID_AMOUNT', 'KRW with a fraction');
    });

    test(`${flavor}: KES, NGN, ZAR use ISO 4217 (2 digits)`, () => {
      for (const currency of ['KES', 'NGN', 'ZAR']) {
        assert.equal(api.toMinorUnits('99.99', currency), 9999, currency);
        assert.equal(api.fromMinorUnits(5, currency), '0.05', currency);
        throwsCode(() => api.toMinorUnits('1.001', currency), 'INVALID_AMOUNT', currency);
      }
    });

    test(`${flavor}: too many fraction digits is INVALID_AMOUNT, never rounded`, () => {
      for (const text of ['1500.505', '0.001', '1.000']) throwsCode(() => api.toMinorUnits(text, 'RUB'), 'INVALID_AMOUNT', text);
    });

    test(`${flavor}: malformed text is INVALID_AMOUNT`, () => {
      for (const text of ['', '.', '-1', '+1', '1e3', '1,50', '1 500', ' 1', 'NaN', '1.2.3', '１５']) throwsCode(() => api.toMinorUnits(text, 'RUB'), 'INVALID_AMOUNT', JSON.stringify(text));
    });

    test(`${flavor}: unknown currency is UNKNOWN_CURRENCY`, () => {
      for (const currency of ['ABC', 'XXX', 'rub', 'RU', '']) {
        throwsCode(() => api.toMinorUnits('1', currency), 'UNKNOWN_CURRENCY', currency);
        throwsCode(() => api.fromMinorUnits(1, currency), 'UNKNOWN_CURRENCY', currency);
      }
    });

    test(`${flavor}: exact at the amount bounds, and round trips`, () => {
      assert.equal(api.toMinorUnits('100000000000.00', 'RUB'), 10000000000000);
      assert.equal(api.toMinorUnits('0.01', 'RUB'), 1);
      assert.equal(api.fromMinorUnits(10000000000000, 'RUB'), '100000000000.00');
      for (const minor of [1, 9, 10, 99, 100, 101, 150050, 10000000000000]) {
        for (const currency of ['RUB', 'KRW', 'KZT', 'NGN']) assert.equal(api.toMinorUnits(api.fromMinorUnits(minor, currency), currency), minor, `${minor} ${currency}`);
      }
    });

    test(`${flavor}: fromMinorUnits refuses what is not whole non-negative minor units`, () => {
      for (const minor of [-1, 1.5, NaN, Infinity]) throwsCode(() => api.fromMinorUnits(minor, 'RUB'), 'INVALID_AMOUNT', String(minor));
    });
  }
});

// ---------------------------------------------------------------------------
// Callback model, from the spec's "Events" and "Recipient requisites"
// ---------------------------------------------------------------------------

/** H2H informative callback at processing:awaiting_confirm with requisites and display data. */
const AWAITING_CONFIRM = {
  project_id: 'prj_8f2c',
  general: { request_id: 'req_01HZX', payment_id: 'order-10045' },
  status: { status: 'processing', sub_status: 'awaiting_confirm', status_description: null },
  payment_info: { amount: 150000, old_amount: 150000, initial_amount: 150000, currency: 'RUB', lifetime: 600, expiration_date: 1700000600, updated_date: 1700000010, created_date: 1700000000, method: 'card-p2p', type: 'payin', payment_system: null },
  recipient_requisites: { pan: '2200700012345678', card_holder: 'IVAN IVANOV', bank_name: 'Sberbank', bank_country: 'RU', currency: 'RUB' },
  integration: { form_url: 'https://pay.example/f/abc', redirect_url: 'https://shop.example/done' },
  additional_info: {
    display_data: [
      { type: 'add_info', title: 'recipient_card_holder', data: 'IVAN IVANOV' },
      { type: 'add_info', title: 'recipient_pan', data: '2200700012345678' },
      { type: 'add_info', title: 'recipient_phone', data: '+79001234567' },
      { type: 'add_info', title: 'lifetime', data: 600 },
      { type: 'add_info', title: 'valid_until', data: 1700000600 },
      { type: 'add_info', title: 'amount', data: 150000 },
      { type: 'add_info', title: 'currency', data: 'RUB' },
      { type: 'add_info', title: 'bank_name', data: 'Sberbank' },
      { type: 'add_info', title: 'bank_country', data: 'RU' },
      { type: 'add_info', title: 'confirm_url', data: 'https://api.example/api/v1/payment/p2p/payin/confirm' },
      { type: 'add_info', title: 'reject_url', data: 'https://api.example/api/v1/payment/p2p/payin/cancel' },
    ],
  },
};

const decline = (method, description = 'Order cancelled by timeout') => ({
  project_id: 'prj_8f2c',
  general: { request_id: 'req_01HZY', payment_id: 'order-10046' },
  status: { status: 'decline', sub_status: null, status_description: description },
  payment_info: { amount: 150000, old_amount: 150000, initial_amount: 150000, currency: 'RUB', lifetime: 600, expiration_date: 1700000600, method, widget_method: method, type: 'payin', payment_system: null },
  recipient_requisites: null,
  integration: { form_url: 'https://pay.example/f/abd', redirect_url: null },
  additional_info: null,
});

const widgetCallback = ({ subStatus = 'awaiting_confirm', status = 'processing', currency = 'RUB', widgetMethod = 'payin-p2p-card', requisites }) => ({
  project_id: 'prj_8f2c',
  general: { request_id: 'req_01HZZ', payment_id: 'order-20001' },
  status: { status, sub_status: subStatus, status_description: null },
  payment_info: { amount: 500000, old_amount: 500000, initial_amount: 500000, currency, lifetime: 600, expiration_date: 1700000600, method: null, widget_method: widgetMethod, type: 'payin', payment_system: null },
  recipient_requisites: requisites,
  integration: { form_url: 'https://pay.example/f/abe', redirect_url: 'https://shop.example/done' },
});

// No `raw`: the model holds only what its fields name (verified, that is what the signature pins down).
const CALLBACK_KEYS = ['projectId', 'paymentId', 'requestId', 'status', 'subStatus', 'statusDescription', 'isFinal', 'isKnownState', 'idempotencyKey', 'declineReason', 'paymentInfo', 'integration', 'requisites', 'instruction'];

describe('parseCallback', () => {
  for (const [flavor, api] of FLAVORS) {
    test(`${flavor}: awaiting_confirm with requisites and display_data gives the instruction`, () => {
      const callback = api.parseCallback(AWAITING_CONFIRM);
      assert.deepEqual(Object.keys(callback).sort(), [...CALLBACK_KEYS].sort());
      assert.equal(callback.projectId, 'prj_8f2c');
      assert.equal(callback.paymentId, 'order-10045');
      assert.equal(callback.requestId, 'req_01HZX');
      assert.equal(callback.status, 'processing');
      assert.equal(callback.subStatus, 'awaiting_confirm');
      assert.equal(callback.statusDescription, null);
      assert.equal(callback.isFinal, false);
      assert.equal(callback.isKnownState, true);
      assert.equal(callback.idempotencyKey, 'prj_8f2c:order-10045:processing:awaiting_confirm');
      assert.equal(callback.declineReason, null);
      assert.deepEqual(callback.paymentInfo, {
        amount: 150000, oldAmount: 150000, initialAmount: 150000, currency: 'RUB', lifetime: 600, expirationDate: 1700000600,
        updatedDate: 1700000010, createdDate: 1700000000, method: 'card-p2p', widgetMethod: null, type: 'payin', paymentSystem: null,
      });
      assert.deepEqual(callback.requisites, { pan: '2200700012345678', cardHolder: 'IVAN IVANOV', masked: false, bankName: 'Sberbank', bankCountry: 'RU', currency: 'RUB' });
      assert.deepEqual(callback.instruction, {
        pan: '2200700012345678', cardHolder: 'IVAN IVANOV', phone: '+79001234567', amount: 150000, currency: 'RUB', validUntil: 1700000600, lifetime: 600,
        bankName: 'Sberbank', bankCountry: 'RU', confirmUrl: 'https://api.example/api/v1/payment/p2p/payin/confirm', rejectUrl: 'https://api.example/api/v1/payment/p2p/payin/cancel', other: [],
      });
      assert.deepEqual(callback.integration, { formUrl: 'https://pay.example/f/abc', redirectUrl: 'https://shop.example/done' });
      // The same from the JSON text and from its bytes.
      assert.deepEqual(api.parseCallback(JSON.stringify(AWAITING_CONFIRM)), callback);
      assert.deepEqual(api.parseCallback(Buffer.from(JSON.stringify(AWAITING_CONFIRM))), callback);
    });

    test(`${flavor}: display_data is "string or integer"; unlisted titles are kept`, () => {
      const body = structuredClone(AWAITING_CONFIRM);
      body.additional_info.display_data = [
        { type: 'add_info', title: 'amount', data: '150000' },
        { type: 'add_info', title: 'valid_until', data: '1700000600' },
        { type: 'add_info', title: 'lifetime', data: '600' },
        { type: 'add_info', title: 'recipient_pan', data: 2200700012345678 },
        { type: 'add_info', title: 'qr_image', data: 'https://img.example/qr.png' },
      ];
      const { instruction } = api.parseCallback(body);
      assert.equal(instruction.amount, 150000);
      assert.equal(instruction.validUntil, 1700000600);
      assert.equal(instruction.lifetime, 600);
      assert.equal(instruction.pan, '2200700012345678');
      assert.deepEqual(instruction.other, [{ type: 'add_info', title: 'qr_image', data: 'https://img.example/qr.png' }]);
    });

    test(`${flavor}: the '---' card holder placeholder reads as no name`, () => {
      const body = structuredClone(AWAITING_CONFIRM);
      body.recipient_requisites.card_holder = '---';
      body.additional_info.display_data[0].data = '---';
      const callback = api.parseCallback(body);
      assert.equal(callback.requisites.cardHolder, null);
      assert.equal(callback.instruction.cardHolder, null);
      assert.equal(callback.requisites.pan, '2200700012345678');
    });

    test(`${flavor}: a decline with a null method`, () => {
      const callback = api.parseCallback(decline(null));
      assert.equal(callback.status, 'decline');
      assert.equal(callback.subStatus, null);
      assert.equal(callback.isFinal, true);
      assert.equal(callback.isKnownState, true);
      assert.equal(callback.paymentInfo.method, null);
      assert.equal(callback.paymentInfo.widgetMethod, null);
      assert.deepEqual(callback.declineReason, { code: 'CANCELLED_BY_TIMEOUT', description: 'Order cancelled by timeout' });
      assert.equal(callback.requisites, null);
      assert.equal(callback.instruction, null);
      // Documented (Callback.idempotencyKey): a null sub_status is written empty.
      assert.equal(callback.idempotencyKey, 'prj_8f2c:order-10046:decline:');
    });

    test(`${flavor}: a decline with the text "null" as method`, () => {
      const callback = api.parseCallback(decline('null'));
      assert.equal(callback.paymentInfo.method, null);
      assert.equal(callback.paymentInfo.widgetMethod, null);
      assert.equal(callback.isFinal, true);
    });

    test(`${flavor}: decline reasons: the four listed, an added one, none`, () => {
      for (const [text, code] of [
        ['Canceled by client', 'CANCELED_BY_CLIENT'],
        ['Declined by anti-fraud', 'DECLINED_BY_ANTI_FRAUD'],
        ['Requisites not found', 'REQUISITES_NOT_FOUND'],
        ['Order cancelled by timeout', 'CANCELLED_BY_TIMEOUT'],
        ['Some reason added later', 'OTHER'],
      ]) {
        assert.deepEqual(api.parseCallback(decline(null, text)).declineReason, { code, description: text }, text);
      }
      assert.deepEqual(api.parseCallback(decline(null, null)).declineReason, { code: 'UNSPECIFIED', description: null });
      assert.equal(api.parseCallback(AWAITING_CONFIRM).declineReason, null, 'only declines have a reason');
    });

    test(`${flavor}: widget callbacks carry masked requisites`, () => {
      const callback = api.parseCallback(widgetCallback({ requisites: { pan_hidden: '2200 70** **** 5678', card_holder_hidden: 'IVAN I.', bank_name: null, bank_country: null, currency: 'RUB' } }));
      assert.deepEqual(callback.requisites, { pan: '2200 70** **** 5678', cardHolder: 'IVAN I.', masked: true, bankName: null, bankCountry: null, currency: 'RUB' });
      assert.equal(callback.paymentInfo.widgetMethod, 'payin-p2p-card');
      assert.equal(callback.paymentInfo.method, null);
    });

    test(`${flavor}: NG payin-ussd carries pan and card_holder`, () => {
      const callback = api.parseCallback(widgetCallback({ currency: 'NGN', widgetMethod: 'payin-ussd', requisites: { pan: '*737*2*500000#', card_holder: 'ADA OBI', currency: 'NGN' } }));
      assert.equal(callback.requisites.masked, false);
      assert.equal(callback.requisites.pan, '*737*2*500000#');
      assert.equal(callback.requisites.cardHolder, 'ADA OBI');
    });

    test(`${flavor}: KE payin-mobile-money carries no requisites`, () => {
      for (const requisites of [null, {}, undefined]) {
        const body = widgetCallback({ subStatus: 'new', currency: 'KES', widgetMethod: 'payin-mobile-money', requisites });
        if (requisites === undefined) delete body.recipient_requisites;
        const callback = api.parseCallback(body);
        assert.equal(callback.requisites, null, JSON.stringify(requisites));
        assert.equal(callback.instruction, null);
        assert.equal(callback.isKnownState, true);
        assert.equal(callback.isFinal, false);
        assert.equal(callback.idempotencyKey, 'prj_8f2c:order-20001:processing:new');
      }
      const success = api.parseCallback(widgetCallback({ status: 'success', subStatus: null, currency: 'KES', widgetMethod: 'payin-mobile-money', requisites: null }));
      assert.equal(success.isFinal, true);
      assert.equal(success.declineReason, null);
    });

    test(`${flavor}: isFinal and isKnownState follow the states table`, () => {
      const states = [
        ['error', null, false, true], ['processing', 'new', false, true], ['processing', 'requisites', false, true],
        ['processing', 'awaiting_confirm', false, true], ['processing', 'paid', false, true], ['dispute', 'no_payment', false, true],
        ['dispute', 'different_amount', false, true], ['dispute', 'confirm_timeout', false, true], ['decline', null, true, true],
        ['success', null, true, true], ['processing', null, false, false], ['processing', 'refunded', false, false], ['chargeback', null, false, false],
      ];
      const keys = new Set();
      for (const [status, subStatus, isFinal, isKnownState] of states) {
        const callback = api.parseCallback(widgetCallback({ status, subStatus, requisites: null }));
        assert.equal(callback.isFinal, isFinal, `${status}:${subStatus}`);
        assert.equal(callback.isKnownState, isKnownState, `${status}:${subStatus}`);
        assert.ok(callback.idempotencyKey.startsWith(`prj_8f2c:order-20001:${status}:`));
        keys.add(callback.idempotencyKey);
      }
      assert.equal(keys.size, states.length, 'each state has its own idempotency key');
      const again = api.parseCallback(widgetCallback({ status: 'processing', subStatus: 'paid', requisites: null }));
      assert.equal(again.idempotencyKey, 'prj_8f2c:order-20001:processing:paid', 'a repeated callback has the same key');
    });

    test(`${flavor}: a body without the callback shape is INVALID_CALLBACK`, () => {
      // A body that is not an object is refused before the callback is read.
      for (const body of ['[]', []]) assert.ok(['BODY_NOT_OBJECT', 'INVALID_CALLBACK'].includes(throwsCodeOf(() => api.parseCallback(body))));
      for (const body of [
        { project_id: 'p', general: { payment_id: 'o' } },
        { project_id: 'p', general: { payment_id: 'o' }, status: 'decline' },
        { general: { payment_id: 'o' }, status: { status: 'success' } },
        { project_id: 'p', status: { status: 'success' } },
        { project_id: 'p', general: { payment_id: 'o' }, status: { status: 'success' }, payment_info: { amount: '150000' } },
      ]) {
        throwsCode(() => api.parseCallback(body), 'INVALID_CALLBACK', JSON.stringify(body));
      }
      throwsCode(() => api.parseCallback('not json'), 'INVALID_JSON');
    });
  }
});

describe('verifyCallback returns the callback model plus verification', () => {
  for (const [flavor, api] of FLAVORS) {
    test(flavor, () => {
      const service = api.SigningKey.fromPem(PRIVATE_PEM);
      const { body, headers } = api.signRequest(JSON.stringify(AWAITING_CONFIRM), service, { merchantId: 'merchant-1', timestamp: TS });
      const verified = api.verifyCallback(body, headers, api.VerifyingKey.fromPem(PUBLIC_PEM));
      assert.deepEqual(Object.keys(verified).sort(), [...CALLBACK_KEYS, 'verification'].sort());
      const { verification, ...model } = verified;
      assert.deepEqual(model, api.parseCallback(body));
      assert.deepEqual(verification, {
        timestamp: TS, merchantId: 'merchant-1', keyIndex: 0,
        options: { falsy: 'none', booleans: 'python', padding: true, order: 'codepoint', numbers: 'python', digest: 'single', signatureEncoding: 'base64url' },
        ambiguous: false, ambiguities: [],
      });
      assert.equal(verified.instruction.confirmUrl, 'https://api.example/api/v1/payment/p2p/payin/confirm');
    });
  }
});

// ---------------------------------------------------------------------------
// Info responses: P2P (KZ and RU variants) and widget
// ---------------------------------------------------------------------------

const P2P_INFO = '/api/v1/payment/p2p/payin/info';
const WIDGET_INFO = '/api/v1/widget/payin/info';

const kzInfo = () => ({
  status: 'processing', sub_status: 'awaiting_confirm', status_description: null,
  request_id: 'req_kz_1', project_id: 'prj_8f2c', payment_id: 'order-kz-1',
  integration: { form_url: 'https://pay.example/f/kz1', redirect_url: null },
  payment_info: { amount: 500000, old_amount: 500000, initial_amount: 500000, currency: 'KZT', lifetime: 900, expiration_date: 1700000900, method: 'international-card-p2p', type: 'payin' },
  recipient_requisites: { pan: '4400430012345678', bank_name: 'Halyk Bank', card_holder: '---', bank_country: 'KZ', currency: 'KZT' },
  sender: { pan_hidden: '5169 49** **** 1234', card_holder_hidden: 'A*** B***' },
});

const ruInfo = () => ({
  status: 'processing', sub_status: 'awaiting_confirm', status_description: null,
  request_id: 'req_ru_1', project_id: 'prj_8f2c', payment_id: 'order-ru-1',
  integration: { form_url: 'https://pay.example/f/ru1' },
  payment_info: { amount: 150000, old_amount: 150000, currency: 'RUB', method: 'sbp-p2p' },
  recipient_requisites: { pan: '+79001234567', card_holder: 'IVAN IVANOV', bank_name: 'T-Bank' },
});

const widgetInfo = () => ({
  status: 'processing', sub_status: 'new', status_description: null,
  request_id: 'req_w_1', project_id: 'prj_8f2c', payment_id: 'order-w-1',
  integration: { form_url: 'https://pay.example/f/w1', redirect_url: 'https://shop.example/done' },
  payment_info: { amount: 500000, old_amount: 500000, initial_amount: 500000, currency: 'KES', expiration_date: 1700000600, method: null, widget_method: 'payin-mobile-money', type: 'payin', payment_system: null },
});

const warningPaths = (response) => response.warnings.map((w) => [w.path, w.code]);

describe('parseInfoResponse', () => {
  for (const [flavor, api] of FLAVORS) {
    test(`${flavor}: P2P KZ variant, complete`, () => {
      const info = api.parseInfoResponse(P2P_INFO, kzInfo());
      assert.equal(info.variant, 'KZ');
      assert.deepEqual(info.warnings, []);
      assert.equal(info.requestId, 'req_kz_1');
      assert.equal(info.isFinal, false);
      assert.equal(info.isKnownState, true);
      assert.equal(info.paymentInfo.lifetime, 900);
      assert.equal(info.paymentInfo.expirationDate, 1700000900);
      assert.equal(info.requisites.pan, '4400430012345678');
      assert.equal(info.requisites.bankName, 'Halyk Bank');
      assert.equal(info.requisites.cardHolder, null, "'---' is the placeholder for no name");
      assert.deepEqual(info.sender, { panHidden: '5169 49** **** 1234', cardHolderHidden: 'A*** B***' });
      assert.deepEqual(info.integration, { formUrl: 'https://pay.example/f/kz1', redirectUrl: null });
      assert.deepEqual(info.raw, kzInfo());
    });

    test(`${flavor}: idempotencyKey is the key a callback of the same state carries, its parts encoded alike`, () => {
      assert.equal(api.parseInfoResponse(P2P_INFO, kzInfo()).idempotencyKey, 'prj_8f2c:order-kz-1:processing:awaiting_confirm');
      const odd = { ...kzInfo(), project_id: 'p:1;%', payment_id: 'o:2', status: 'decline', sub_status: null, status_description: 'Canceled by client' };
      const fromInfo = api.parseInfoResponse(P2P_INFO, odd).idempotencyKey;
      assert.equal(fromInfo, 'p%3A1%3B%25:o%3A2:decline:');
      const callback = { ...AWAITING_CONFIRM, project_id: 'p:1;%', general: { ...AWAITING_CONFIRM.general, payment_id: 'o:2' }, status: { status: 'decline', sub_status: null, status_description: 'Canceled by client' } };
      assert.equal(api.parseCallback(callback).idempotencyKey, fromInfo);
    });

    test(`${flavor}: raw is the body as JSON.parse gives it: a member named __proto__ its own, 1e999 Infinity`, () => {
      const text = JSON.stringify(kzInfo()).replace(/^\{/, '{"__proto__":{"p":1},"big":1e999,"small":-1e999,"n":1.5e3,');
      const info = api.parseInfoResponse(P2P_INFO, text);
      assert.deepEqual(info.raw, JSON.parse(text));
      assert.ok(Object.hasOwn(info.raw, '__proto__'));
      assert.equal(Object.getPrototypeOf(info.raw), Object.prototype);
      assert.equal(info.raw.big, Infinity);
      assert.equal(info.raw.small, -Infinity);
      assert.equal(Object.getPrototypeOf(info), Object.prototype);
    });

    test(`${flavor}: P2P KZ variant: lifetime, expiration_date, requisites pan and bank_name are required (warnings)`, () => {
      const body = kzInfo();
      delete body.payment_info.lifetime;
      delete body.payment_info.expiration_date;
      delete body.recipient_requisites.pan;
      delete body.recipient_requisites.bank_name;
      const info = api.parseInfoResponse(P2P_INFO, body);
      assert.deepEqual(warningPaths(info).sort(), [
        ['payment_info.expiration_date', 'REQUIRED'], ['payment_info.lifetime', 'REQUIRED'],
        ['recipient_requisites.bank_name', 'REQUIRED'], ['recipient_requisites.pan', 'REQUIRED'],
      ]);
    });

    test(`${flavor}: P2P RU variant: lifetime and expiration_date optional, card_holder required`, () => {
      const info = api.parseInfoResponse(P2P_INFO, ruInfo());
      assert.equal(info.variant, 'RU');
      assert.deepEqual(info.warnings, []);
      assert.equal(info.paymentInfo.lifetime, null);
      assert.equal(info.requisites.cardHolder, 'IVAN IVANOV');
      assert.equal(info.sender, null);
      const body = ruInfo();
      delete body.recipient_requisites.card_holder;
      assert.deepEqual(warningPaths(api.parseInfoResponse(P2P_INFO, body)), [['recipient_requisites.card_holder', 'REQUIRED']]);
    });

    test(`${flavor}: P2P info: payment_info and integration are required (warnings)`, () => {
      const body = ruInfo();
      delete body.payment_info.old_amount;
      delete body.payment_info.method;
      delete body.integration;
      assert.deepEqual(warningPaths(api.parseInfoResponse(P2P_INFO, body)).sort(), [['integration', 'REQUIRED'], ['payment_info.method', 'REQUIRED'], ['payment_info.old_amount', 'REQUIRED']]);
    });

    test(`${flavor}: a declined payment's info has its reason`, () => {
      const body = { ...ruInfo(), status: 'decline', sub_status: null, status_description: 'Canceled by client', recipient_requisites: null };
      const info = api.parseInfoResponse(P2P_INFO, body);
      assert.equal(info.isFinal, true);
      assert.deepEqual(info.declineReason, { code: 'CANCELED_BY_CLIENT', description: 'Canceled by client' });
      assert.equal(info.requisites, null);
    });

    test(`${flavor}: widget info: initial_amount required, lifetime optional outside KZ`, () => {
      const info = api.parseInfoResponse(WIDGET_INFO, widgetInfo());
      assert.equal(info.variant, 'KE');
      assert.deepEqual(info.warnings, []);
      assert.equal(info.paymentInfo.widgetMethod, 'payin-mobile-money');
      assert.equal(info.requisites, null);
      const body = widgetInfo();
      delete body.payment_info.initial_amount;
      assert.deepEqual(warningPaths(api.parseInfoResponse(WIDGET_INFO, body)), [['payment_info.initial_amount', 'REQUIRED']]);
      const kz = { ...widgetInfo(), payment_info: { ...widgetInfo().payment_info, currency: 'KZT', widget_method: 'payin-p2p-card-international' } };
      assert.deepEqual(warningPaths(api.parseInfoResponse(WIDGET_INFO, kz)), [['payment_info.lifetime', 'REQUIRED']]);
    });

    test(`${flavor}: widget info with masked requisites`, () => {
      const body = { ...widgetInfo(), sub_status: 'awaiting_confirm', payment_info: { ...widgetInfo().payment_info, currency: 'RUB', widget_method: 'payin-p2p-sbp' }, recipient_requisites: { pan_hidden: '+7 900 *** ** 67', card_holder_hidden: 'IVAN I.' } };
      const info = api.parseInfoResponse(WIDGET_INFO, body);
      assert.equal(info.variant, 'RU');
      assert.equal(info.requisites.masked, true);
      assert.equal(info.requisites.pan, '+7 900 *** ** 67');
    });

    test(`${flavor}: the instruction is read from additional_info.display_data or a top-level display_data`, () => {
      const items = [{ type: 'add_info', title: 'recipient_pan', data: '4400430012345678' }, { type: 'add_info', title: 'amount', data: 500000 }];
      for (const body of [{ ...kzInfo(), additional_info: { display_data: items } }, { ...kzInfo(), display_data: items }]) {
        const { instruction } = api.parseInfoResponse(P2P_INFO, body);
        assert.equal(instruction.pan, '4400430012345678');
        assert.equal(instruction.amount, 500000);
      }
      assert.equal(api.parseInfoResponse(P2P_INFO, kzInfo()).instruction, null);
    });

    test(`${flavor}: missing StatusResponse fields are INVALID_RESPONSE; other paths INVALID_ARGUMENT`, () => {
      for (const key of ['status', 'request_id', 'project_id', 'payment_id']) {
        const body = ruInfo();
        delete body[key];
        throwsCode(() => api.parseInfoResponse(P2P_INFO, body), 'INVALID_RESPONSE', key);
      }
      assert.ok(['BODY_NOT_OBJECT', 'INVALID_RESPONSE'].includes(throwsCodeOf(() => api.parseInfoResponse(P2P_INFO, '[]'))));
      for (const path of ['/api/v1/payment/p2p/payin', '/api/v1/balance/info', '/nope']) throwsCode(() => api.parseInfoResponse(path, ruInfo()), 'INVALID_ARGUMENT', path);
    });
  }
});
