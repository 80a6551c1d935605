// Callback verification as a merchant backend uses it: forged, tampered and
// rotated keys, header shapes, padding, tolerance, malformed input, diagnosis.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';

import { esm as api, nodeSign, nodeVerify, readKey, readVectors, throwsCode, unpad } from './helpers.mjs';

const TS = 1700000000;
const project = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const rotated = api.SigningKey.fromPem(readKey('keys/rsa3072.pkcs1.pem'));
const attacker = api.SigningKey.fromPem(readKey('keys/attacker2048.pkcs8.pem'));
const projectPublic = api.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
const rotatedPublic = api.VerifyingKey.fromPem(readKey('keys/rsa3072.public.pkcs1.pem'));

// A callback body as the service sends it: the vectors' valid callback, as text.
const callbackBody = readVectors('callbacks.json').cases.find((c) => c.expect === 'ok').body;
const parsedBody = JSON.parse(callbackBody);

/** What the service would send: the body and the four headers, signed by `key`. */
function serviceCallback(key, { body = callbackBody, timestamp = TS, options } = {}) {
  return api.signRequest(body, key, { merchantId: 'merchant-1', timestamp, options });
}

describe('a genuine callback', () => {
  test('verifies and returns the parsed callback', () => {
    const { body, headers } = serviceCallback(project);
    const result = api.verifyCallback(body, headers, projectPublic);
    const { verification, ...model } = result;
    assert.deepEqual(model, api.parseCallback(body), 'the verified model is the body read as the callback model');
    assert.equal(verification.ambiguous, false);
    assert.deepEqual(verification.ambiguities, []);
    assert.equal(result.projectId, parsedBody.project_id);
    assert.equal(result.paymentId, parsedBody.general.payment_id);
    assert.equal(result.requestId, parsedBody.general.request_id);
    assert.equal(result.status, parsedBody.status.status);
    assert.equal(result.subStatus, parsedBody.status.sub_status);
    assert.equal(result.statusDescription, parsedBody.status.status_description);
    assert.equal(result.verification.timestamp, TS);
    assert.equal(result.verification.merchantId, 'merchant-1');
    assert.equal(result.verification.keyIndex, 0);
  });

  test('raw body as a Buffer or Uint8Array verifies too', () => {
    const { body, headers } = serviceCallback(project);
    api.verifyCallback(Buffer.from(body), headers, projectPublic);
    api.verifyCallback(new TextEncoder().encode(body), headers, projectPublic);
  });

  test('a callback signed by node:crypto (independent signer) verifies', () => {
    const message = api.canonicalMessage(callbackBody, TS);
    const headers = {
      'x-access-timestamp': String(TS),
      'x-access-merchant-id': 'merchant-1',
      'x-access-signature': nodeSign(message, readKey('keys/rsa2048.pkcs8.pem')),
      'x-access-token': projectPublic.token(),
    };
    api.verifyCallback(callbackBody, headers, projectPublic);
  });

  test("the package's signature verifies with node:crypto", () => {
    const { body, headers } = serviceCallback(project);
    const message = api.canonicalMessage(body, headers['x-access-timestamp']);
    assert.ok(nodeVerify(message, headers['x-access-signature'], readKey('keys/rsa2048.public.pem')));
    assert.ok(!nodeVerify(`${message}0`, headers['x-access-signature'], readKey('keys/rsa2048.public.pem')));
  });

  test('an empty body is signed as the empty object, which is not a callback', () => {
    const { body, headers } = serviceCallback(project, { body: '' });
    assert.equal(body, '');
    assert.equal(headers['x-access-signature'], serviceCallback(project, { body: '{}' }).headers['x-access-signature']);
    const diagnosis = api.diagnoseCallback('', headers, projectPublic);
    assert.equal(diagnosis.signatureMatched, true, 'the signature is good');
    assert.equal(diagnosis.matched, false, 'but verifyCallback returns no model with any options');
    assert.equal(diagnosis.bodyError.code, 'INVALID_CALLBACK');
    assert.equal(diagnosis.defaultError.code, 'INVALID_CALLBACK', 'defaultError is what verifyCallback reports');
    throwsCode(() => api.verifyCallback('', headers, projectPublic), 'INVALID_CALLBACK');
  });

  test('a well-signed body that is not a callback -> INVALID_CALLBACK', () => {
    const { body, headers } = serviceCallback(project, { body: '{"a":"1"}' });
    throwsCode(() => api.verifyCallback(body, headers, projectPublic), 'INVALID_CALLBACK');
  });
});

describe('forged and tampered callbacks', () => {
  test('attacker key with its own token -> INVALID_PUBLIC_KEY', () => {
    const { body, headers } = serviceCallback(attacker);
    const error = throwsCode(() => api.verifyCallback(body, headers, projectPublic), 'INVALID_PUBLIC_KEY');
    assert.match(error.message, /^Invalid public key/);
  });

  test("attacker key with the project's token copied -> INVALID_SIGNATURE", () => {
    const { body, headers } = serviceCallback(attacker);
    const forged = { ...headers, 'x-access-token': projectPublic.token() };
    const error = throwsCode(() => api.verifyCallback(body, forged, projectPublic), 'INVALID_SIGNATURE');
    assert.match(error.message, /^Invalid signature/);
  });

  test('body changed after signing -> INVALID_SIGNATURE', () => {
    const { body, headers } = serviceCallback(project);
    const amount = String(parsedBody.payment_info.amount);
    const tampered = body.replace(`"amount": ${amount}`, `"amount": ${amount}0`);
    assert.notEqual(tampered, body);
    throwsCode(() => api.verifyCallback(tampered, headers, projectPublic), 'INVALID_SIGNATURE');
    const added = body.replace(/}$/, ', "extra": "x"}');
    throwsCode(() => api.verifyCallback(added, headers, projectPublic), 'INVALID_SIGNATURE');
  });

  test('timestamp changed after signing -> INVALID_SIGNATURE', () => {
    const { body, headers } = serviceCallback(project);
    throwsCode(() => api.verifyCallback(body, { ...headers, 'x-access-timestamp': String(TS + 1) }, projectPublic), 'INVALID_SIGNATURE');
  });

  test('a signature cut short or of another key size -> INVALID_SIGNATURE', () => {
    const { body, headers } = serviceCallback(project);
    const short = headers['x-access-signature'].slice(0, 100);
    throwsCode(() => api.verifyCallback(body, { ...headers, 'x-access-signature': short }, projectPublic), 'INVALID_SIGNATURE');
    const other = serviceCallback(rotated).headers['x-access-signature'];
    throwsCode(() => api.verifyCallback(body, { ...headers, 'x-access-signature': other }, projectPublic), 'INVALID_SIGNATURE');
  });
});

describe('rotated keys', () => {
  const both = [projectPublic, rotatedPublic];

  test('a callback signed by either configured key verifies, and says which', () => {
    const a = serviceCallback(project);
    const b = serviceCallback(rotated);
    assert.equal(api.verifyCallback(a.body, a.headers, both).verification.keyIndex, 0);
    assert.equal(api.verifyCallback(b.body, b.headers, both).verification.keyIndex, 1);
    assert.equal(api.verifyCallback(b.body, b.headers, [rotatedPublic, projectPublic]).verification.keyIndex, 0);
    // PEM strings work in the array too.
    const pems = [readKey('keys/rsa2048.public.pem'), readKey('keys/rsa3072.public.pem')];
    assert.equal(api.verifyCallback(b.body, b.headers, pems).verification.keyIndex, 1);
  });

  test('a callback signed by neither fails', () => {
    const c = serviceCallback(attacker);
    throwsCode(() => api.verifyCallback(c.body, c.headers, both), 'INVALID_PUBLIC_KEY');
    const copied = { ...c.headers, 'x-access-token': rotatedPublic.token() };
    throwsCode(() => api.verifyCallback(c.body, copied, both), 'INVALID_SIGNATURE');
  });

  test('no configured key -> NO_VERIFYING_KEY', () => {
    const a = serviceCallback(project);
    throwsCode(() => api.verifyCallback(a.body, a.headers, []), 'NO_VERIFYING_KEY');
  });
});

describe('header shapes', () => {
  const { body, headers } = serviceCallback(project);
  const entries = Object.entries(headers);
  const recase = (fn) => Object.fromEntries(entries.map(([k, v]) => [fn(k), v]));
  const title = (k) => k.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());

  const shapes = {
    'lower-case object': headers,
    'Title-Case object': recase(title),
    'UPPER-CASE object': recase((k) => k.toUpperCase()),
    'mIxEd-case object': recase((k) => [...k].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')),
    'Headers instance': new Headers(entries),
    Map: new Map(entries.map(([k, v]) => [title(k), v])),
    '[name, value] pairs': entries.map(([k, v]) => [k.toUpperCase(), v]),
    'with unrelated headers': { 'content-type': 'application/json', host: 'shop.example', ...headers, 'x-other': ['a', 'b'] },
  };
  for (const [name, shape] of Object.entries(shapes)) {
    test(`${name} verifies`, () => {
      api.verifyCallback(body, shape, projectPublic);
    });
  }

  test('each missing header -> MISSING_HEADER', () => {
    for (const name of Object.keys(headers)) {
      const without = Object.fromEntries(entries.filter(([k]) => k !== name));
      const error = throwsCode(() => api.verifyCallback(body, without, projectPublic), 'MISSING_HEADER', name);
      assert.ok(error.message.includes(name), error.message);
    }
    throwsCode(() => api.verifyCallback(body, {}, projectPublic), 'MISSING_HEADER');
  });

  test('a header given twice or as an array -> INVALID_HEADER', () => {
    const twice = [...entries, ['X-Access-Token', headers['x-access-token']]];
    throwsCode(() => api.verifyCallback(body, twice, projectPublic), 'INVALID_HEADER');
    const array = { ...headers, 'x-access-signature': [headers['x-access-signature'], 'x'] };
    throwsCode(() => api.verifyCallback(body, array, projectPublic), 'INVALID_HEADER');
  });
});

describe('base64 padding', () => {
  test('signature and token verify with and without = padding', () => {
    const { body, headers } = serviceCallback(project);
    assert.match(headers['x-access-signature'], /=$/, 'a 2048-bit signature has padding to strip');
    const variants = [
      headers,
      { ...headers, 'x-access-signature': unpad(headers['x-access-signature']) },
      { ...headers, 'x-access-token': unpad(headers['x-access-token']) },
      { ...headers, 'x-access-signature': unpad(headers['x-access-signature']), 'x-access-token': unpad(headers['x-access-token']) },
    ];
    for (const variant of variants) api.verifyCallback(body, variant, projectPublic);
  });

  test("padding: false signs without = everywhere and verifies only with that option's message", () => {
    const { body, headers } = serviceCallback(project, { options: { padding: false } });
    assert.doesNotMatch(headers['x-access-signature'], /=/);
    assert.doesNotMatch(headers['x-access-token'], /=/);
    api.verifyCallback(body, headers, projectPublic, { options: { padding: false } });
    const message = api.canonicalMessage(body, TS, { padding: false });
    assert.ok(nodeVerify(message, headers['x-access-signature'], project.publicKeyPem()));
  });
});

describe('timestamp tolerance', () => {
  const { body, headers } = serviceCallback(project);
  const verify = (extra) => api.verifyCallback(body, headers, projectPublic, extra);

  test('inside the window passes, at both edges', () => {
    verify({ toleranceSeconds: 300, now: TS });
    verify({ toleranceSeconds: 300, now: TS + 300 });
    verify({ toleranceSeconds: 300, now: TS - 300 });
  });

  test('outside the window -> TIMESTAMP_OUT_OF_TOLERANCE', () => {
    throwsCode(() => verify({ toleranceSeconds: 300, now: TS + 301 }), 'TIMESTAMP_OUT_OF_TOLERANCE');
    throwsCode(() => verify({ toleranceSeconds: 300, now: TS - 301 }), 'TIMESTAMP_OUT_OF_TOLERANCE');
    throwsCode(() => verify({ toleranceSeconds: 0, now: TS + 1 }), 'TIMESTAMP_OUT_OF_TOLERANCE');
  });

  test('without now, the tolerance is measured from the clock', () => {
    throwsCode(() => verify({ toleranceSeconds: 300 }), 'TIMESTAMP_OUT_OF_TOLERANCE');
    const fresh = serviceCallback(project, { timestamp: Math.floor(Date.now() / 1000) });
    api.verifyCallback(fresh.body, fresh.headers, projectPublic, { toleranceSeconds: 300 });
    // signRequest without a timestamp uses the clock as well.
    const now = api.signRequest(callbackBody, project, { merchantId: 'm' });
    assert.ok(Math.abs(Number(now.headers['x-access-timestamp']) - Date.now() / 1000) < 60);
    api.verifyCallback(now.body, now.headers, projectPublic, { toleranceSeconds: 300 });
  });

  test('no tolerance by default: an old callback still verifies', () => {
    verify(undefined);
    verify({});
  });

  test('a malformed timestamp -> INVALID_TIMESTAMP', () => {
    for (const bad of ['', 'abc', '-1', '1.5', '1e9', ' ']) {
      throwsCode(() => api.verifyCallback(body, { ...headers, 'x-access-timestamp': bad }, projectPublic), 'INVALID_TIMESTAMP', `timestamp ${JSON.stringify(bad)}`);
    }
    throwsCode(() => api.canonicalMessage('{}', -5), 'INVALID_TIMESTAMP');
    throwsCode(() => api.canonicalMessage('{}', 1.5), 'INVALID_TIMESTAMP');
  });
});

describe('malformed bodies', () => {
  const { headers } = serviceCallback(project);
  test('non-JSON body -> INVALID_JSON', () => {
    for (const bad of ['not json', '{"a":', '{"a":1}}', "{'a':1}", '{"a":1,}']) {
      throwsCode(() => api.verifyCallback(bad, headers, projectPublic), 'INVALID_JSON', bad);
    }
    throwsCode(() => api.verifyCallback(Buffer.from([0x7b, 0xff, 0x7d]), headers, projectPublic), 'INVALID_JSON', 'invalid UTF-8');
  });

  test('JSON that is not an object -> BODY_NOT_OBJECT', () => {
    for (const bad of ['[]', '"text"', '1', 'null', 'true']) {
      throwsCode(() => api.verifyCallback(bad, headers, projectPublic), 'BODY_NOT_OBJECT', bad);
    }
  });

  test('a duplicate key -> DUPLICATE_KEY', () => {
    throwsCode(() => api.verifyCallback('{"a":1,"a":2}', headers, projectPublic), 'DUPLICATE_KEY');
  });

  test('a parsed object instead of the raw body -> INVALID_ARGUMENT', () => {
    throwsCode(() => api.verifyCallback(parsedBody, headers, projectPublic), 'INVALID_ARGUMENT');
  });

  test('over 1 MiB -> BODY_TOO_LARGE, and maxBodyBytes sets the limit', () => {
    const big = JSON.stringify({ pad: 'x'.repeat(1 << 20) });
    throwsCode(() => api.verifyCallback(big, headers, projectPublic), 'BODY_TOO_LARGE');
    throwsCode(() => api.verifyCallback(callbackBody, headers, projectPublic, { maxBodyBytes: 100 }), 'BODY_TOO_LARGE');
    const signed = serviceCallback(project);
    api.verifyCallback(signed.body, signed.headers, projectPublic, { maxBodyBytes: Buffer.byteLength(signed.body) });
  });
});

describe('diagnoseCallback', () => {
  // A body whose booleans make the variants differ. The spec's callbacks have no boolean
  // field, so they sit under a member the model does not read, named to sort before every
  // other entry: after a text value it would be refused as UNREAD_AFTER_TEXT.
  const body = JSON.stringify({ ...parsedBody, _flags: { test: true, manual: false } });

  test("finds booleans: 'digit' for a callback signed that way", () => {
    const signed = serviceCallback(project, { body, options: { booleans: 'digit' } });
    const error = throwsCode(() => api.verifyCallback(signed.body, signed.headers, projectPublic), 'INVALID_SIGNATURE');
    assert.equal(typeof error.hint, 'string');
    const d = api.diagnoseCallback(signed.body, signed.headers, projectPublic);
    assert.equal(d.matched, true);
    assert.equal(d.options.booleans, 'digit');
    assert.equal(d.options.falsy, 'none');
    assert.equal(d.options.padding, true);
    assert.ok(d.matching.some((o) => o.booleans === 'digit'));
    assert.ok(d.matching.every((o) => o.booleans === 'digit'), 'no other boolean spelling verifies');
    assert.equal(d.tokenMatchesKey, true);
    assert.equal(d.defaultError.code, 'INVALID_SIGNATURE');
    assert.ok(d.messagesTried > 1);
    assert.equal(typeof d.hint, 'string');
    // What it found is what verifyCallback needs.
    const verified = api.verifyCallback(signed.body, signed.headers, projectPublic, { options: d.options });
    assert.equal(verified.verification.options.booleans, 'digit');
  });

  test('a default callback matches the defaults', () => {
    const signed = serviceCallback(project, { body });
    const d = api.diagnoseCallback(signed.body, signed.headers, projectPublic);
    assert.equal(d.matched, true);
    assert.deepEqual(d.options, {
      falsy: 'none', booleans: 'python', padding: true, order: 'codepoint', numbers: 'python', digest: 'single', token: 'pem', signatureEncoding: 'base64url',
    });
    assert.equal(d.defaultError, null);
  });

  test('a tampered callback matches no variant; a forged one says the token is another key', () => {
    const signed = serviceCallback(project, { body });
    const d = api.diagnoseCallback(signed.body.replace('IVAN', 'PETR'), signed.headers, projectPublic);
    assert.equal(d.matched, false);
    assert.equal(d.options, null);
    assert.deepEqual(d.matching, []);
    assert.equal(d.tokenMatchesKey, true);
    const forged = serviceCallback(attacker, { body });
    const f = api.diagnoseCallback(forged.body, forged.headers, projectPublic);
    assert.equal(f.matched, false);
    assert.equal(f.tokenMatchesKey, false);
    assert.equal(f.defaultError.code, 'INVALID_PUBLIC_KEY');
  });
});

describe('errors', () => {
  test('errorCodes() lists unique codes, including the documented ones', () => {
    const codes = api.errorCodes();
    assert.equal(new Set(codes).size, codes.length);
    for (const code of ['INVALID_SIGNATURE', 'INVALID_PUBLIC_KEY', 'MISSING_HEADER', 'INVALID_JSON', 'BODY_TOO_LARGE', 'BODY_TOO_DEEP', 'INVALID_TIMESTAMP', 'TIMESTAMP_OUT_OF_TOLERANCE', 'KEY_SIZE_UNSUPPORTED', 'KEY_ENCRYPTED', 'KEY_TYPE_UNSUPPORTED', 'INVALID_KEY']) {
      assert.ok(codes.includes(code), code);
    }
  });

  test('thrown errors are Error instances with a listed .code', () => {
    const codes = api.errorCodes();
    const attempts = [
      () => api.verifyCallback('x', {}, projectPublic),
      () => api.VerifyingKey.fromPem('x'),
      () => api.canonicalEntries('[', undefined),
      () => api.canonicalEntries('{}', { booleans: 'yes' }),
      () => api.signRequest('{}', project, { merchantId: '' }),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
        assert.fail('did not throw');
      } catch (error) {
        assert.ok(error instanceof Error, String(error));
        assert.ok(codes.includes(error.code), `${error.code} is listed`);
        assert.ok(error.message.length > 0);
        assert.equal(typeof error.stack, 'string');
      }
    }
  });

  test('bad options -> INVALID_OPTION; a bad merchant id -> INVALID_ARGUMENT', () => {
    throwsCode(() => api.canonicalEntries('{}', { falsy: 'all' }), 'INVALID_OPTION');
    throwsCode(() => api.canonicalEntries('{}', { order: 'bytes' }), 'INVALID_OPTION');
    throwsCode(() => api.canonicalEntries('{}', { booleans: 'digits' }), 'INVALID_OPTION');
    throwsCode(() => api.signRequest('{}', project, { merchantId: '' }), 'INVALID_ARGUMENT');
  });

  test('signing takes exactly the merchant ids a callback may carry (one rule, both ways)', () => {
    const timestamp = '1700000000';
    for (const merchantId of ['m', 'merchant-1', `~!${'m'.repeat(126)}`]) {
      const { body, headers } = api.signRequest(callbackBody, project, { merchantId, timestamp });
      assert.equal(api.verifyCallback(body, headers, projectPublic).verification.merchantId, merchantId);
    }
    for (const merchantId of ['my shop', ' m', 'a\nb', 'tab\there', 'marchand-é', 'ид-магазина', 'shop-😀', 'x'.repeat(129)]) {
      const error = throwsCode(() => api.signRequest('{"a":1}', project, { merchantId, timestamp }), 'INVALID_ARGUMENT');
      assert.match(error.message, /'merchantId' must be 1 to 128 visible ASCII characters/);
      throwsCode(() => api.prepareRequest('{"a":1}', project, { merchantId, timestamp }), 'INVALID_ARGUMENT');
      // What a verifier says of it as a received header: the same rule (a received value is
      // read without the spaces around it, as HTTP sends it: ' m' arrives as 'm').
      const good = api.signRequest(callbackBody, project, { merchantId: 'm', timestamp });
      const received = () => api.verifyCallback(good.body, { ...good.headers, 'x-access-merchant-id': merchantId }, projectPublic);
      if (merchantId === merchantId.trim()) throwsCode(received, 'INVALID_HEADER');
      else assert.equal(received().verification.merchantId, merchantId.trim());
    }
  });
});

describe('a node:http callback endpoint (as in docs/receiving.md, "Verifying by hand")', () => {
  test('answers 200 only for a callback that verifies', async () => {
    const verifyingKey = api.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
    const seen = [];
    const server = http.createServer((req, res) => {
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        try {
          const callback = api.verifyCallback(rawBody, req.headers, verifyingKey);
          seen.push(`${callback.projectId}:${callback.paymentId}:${callback.status}:${callback.subStatus}`);
          res.writeHead(200).end('OK');
        } catch (err) {
          const status = { INVALID_SIGNATURE: 401, INVALID_PUBLIC_KEY: 401, MISSING_HEADER: 400, INVALID_JSON: 400 }[err.code] ?? 400;
          res.writeHead(status, { 'content-type': 'text/plain' }).end(err.code ?? 'ERROR');
        }
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}/callback`;
    try {
      const good = serviceCallback(project);
      const post = (body, headers) => fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
      let response = await post(good.body, good.headers);
      assert.equal(response.status, 200);
      response = await post(good.body.replace('IVAN', 'PETR'), good.headers);
      assert.equal(response.status, 401);
      assert.equal(await response.text(), 'INVALID_SIGNATURE');
      const forged = serviceCallback(attacker);
      response = await post(forged.body, forged.headers);
      assert.equal(await response.text(), 'INVALID_PUBLIC_KEY');
      const { 'x-access-signature': _, ...missing } = good.headers;
      response = await post(good.body, missing);
      assert.equal(response.status, 400);
      assert.equal(await response.text(), 'MISSING_HEADER');
      assert.deepEqual(seen, [`${parsedBody.project_id}:${parsedBody.general.payment_id}:${parsedBody.status.status}:${parsedBody.status.sub_status}`]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
