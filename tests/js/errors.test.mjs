// Errors a receiver can act on (issue 15): PaymentIntakeError with a status per code,
// a genuine callback of an unexpected shape that keeps everything needed to keep it,
// raw bodies of every byte type, and the message for a body a framework parsed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { hostileBodies } from './hostile-bodies.mjs';
import { createApi } from '../../pkg-template/core.mjs';
import nodeCrypto from '../../pkg-template/node-crypto.mjs';
import { caught, cjs, esm as api, pkgDir, readKey, readVectors, root, throwsCode } from './helpers.mjs';

const require = createRequire(import.meta.url);
const glue = require(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

const TS = 1700000000;
const key = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const publicKey = api.VerifyingKey.fromPem(readKey('keys/rsa2048.public.pem'));
const goodBody = readVectors('callbacks.json').cases.find((c) => c.expect === 'ok').body;
// The service's callback with the amount as a string: genuine, but not the model's shape.
const oddBody = goodBody.replace('"amount": 150000,', '"amount": "150000",');
assert.notEqual(oddBody, goodBody);
const signed = (body) => api.signRequest(body, key, { merchantId: 'merchant-1', timestamp: TS });

describe('status', () => {
  const statuses = new Map(glue.errorCodes().map((code) => [code, JSON.parse(glue.__constants()).statuses[code]]));

  test('every code of errorCodes() has a status: 4xx from the sender, 5xx ours, 200 for a genuine callback', () => {
    assert.deepEqual([...statuses.keys()].sort(), [...api.errorCodes()].sort());
    const sender = ['INVALID_SIGNATURE', 'INVALID_PUBLIC_KEY', 'INVALID_TIMESTAMP', 'TIMESTAMP_OUT_OF_TOLERANCE', 'INVALID_HEADER', 'MISSING_HEADER', 'INVALID_JSON', 'BODY_NOT_OBJECT', 'DUPLICATE_KEY', 'BODY_TOO_DEEP', 'BODY_TOO_LARGE', 'BODY_UNREADABLE', 'INVALID_NUMBER', 'MERCHANT_ID_MISMATCH'];
    for (const [code, status] of statuses) {
      if (sender.includes(code)) assert.ok(status >= 400 && status < 500, `${code}: ${status}`);
      else if (['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK'].includes(code)) assert.equal(status, 200, code);
      else assert.ok(status >= 500 && status < 600, `${code}: ${status}`);
    }
  });

  test("the error table (docs/errors.md) gives each code its status", () => {
    const section = fs.readFileSync(path.join(root, 'docs', 'errors.md'), 'utf8').split(/^## The codes$/m)[1].split(/^## /m)[0];
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (\d+) \|/gm)];
    assert.equal(rows.length, statuses.size);
    for (const [, code, status] of rows) assert.equal(Number(status), statuses.get(code), code);
  });

  test('thrown errors carry the status of their code, from the wasm and from the JS core', async () => {
    const { headers } = signed(goodBody);
    const bad = await caught(() => api.verifyCallback(goodBody, { ...headers, 'x-access-signature': headers['x-access-signature'].replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, publicKey));
    assert.equal(bad.code, 'INVALID_SIGNATURE');
    assert.equal(bad.status, 401);
    const stale = await caught(() => api.verifyCallback(goodBody, headers, publicKey, { toleranceSeconds: 60, now: TS + 7200 }));
    assert.equal(stale.code, 'TIMESTAMP_OUT_OF_TOLERANCE');
    assert.equal(stale.status, 401);
    const freed = api.SigningKey.generate();
    freed.free();
    const fromJs = await caught(() => api.signRequest('{}', freed, { merchantId: 'm' }));
    assert.equal(fromJs.code, 'INVALID_ARGUMENT');
    assert.equal(fromJs.status, statuses.get('INVALID_ARGUMENT'));
    for (const error of [bad, stale, fromJs]) {
      assert.ok(error instanceof api.PaymentIntakeError && error instanceof Error, error.code);
      assert.ok(api.isPaymentIntakeError(error));
      assert.equal(error.name, 'PaymentIntakeError');
    }
    assert.equal(api.isPaymentIntakeError(new Error('x')), false);
    assert.equal(api.isPaymentIntakeError({ name: 'PaymentIntakeError', code: 'INVALID_JSON' }), false);
    assert.equal(api.isPaymentIntakeError(null), false);
  });
});

describe('a genuine callback whose shape is not the model', () => {
  const { headers } = signed(oddBody);
  const entries = [
    ['import verifyCallback', () => api.verifyCallback(oddBody, headers, publicKey)],
    ['import verifyCallback backend wasm', () => api.verifyCallback(oddBody, headers, publicKey, { backend: 'wasm' })],
    ['import verifyCallbackAsync', () => api.verifyCallbackAsync(Buffer.from(oddBody), headers, [publicKey])],
    ['require verifyCallback', () => cjs.verifyCallback(oddBody, headers, readKey('keys/rsa2048.public.pem'))],
    ['verifyCallbackRequest', () => api.verifyCallbackRequest(new Request('http://localhost/cb', { method: 'POST', headers, body: oddBody }), publicKey)],
  ];
  for (const [label, verify] of entries) {
    test(`${label}: INVALID_CALLBACK, verified, with the body, the path and the verification`, async () => {
      const error = await caught(verify);
      assert.equal(error.code, 'INVALID_CALLBACK');
      assert.equal(error.status, 200);
      assert.equal(error.verified, true);
      assert.equal(error.body, oddBody);
      assert.equal(error.path, 'payment_info.amount');
      assert.equal(error.verification.timestamp, TS);
      assert.equal(error.verification.merchantId, 'merchant-1');
      assert.equal(error.verification.keyIndex, 0);
      assert.equal(error.verification.ambiguous, false);
      assert.equal(error.message, "Callback signature is genuine, but the body is not the spec's callback: payment_info.amount must be an integer, found a string");
      assert.ok(error.hint.includes('200'));
      assert.ok(!error.message.includes(error.hint));
      assert.ok(api.isPaymentIntakeError(error));
    });
  }

  test('prepareCallback checks no RSA signature: its callbackError is not verified', () => {
    const prepared = api.prepareCallback(oddBody, headers, publicKey);
    assert.equal(prepared.callbackError.code, 'INVALID_CALLBACK');
    assert.equal(prepared.callbackError.path, 'payment_info.amount');
    assert.equal(prepared.callbackError.verified, undefined);
    assert.equal(prepared.callbackError.body, undefined);
    // Nothing says the service sent it: a receiver answering err.status refuses it.
    assert.equal(prepared.callbackError.status, 400);
  });

  test('parseCallback checks no signature: its INVALID_CALLBACK is a 400, not verified', async () => {
    const error = await caught(() => api.parseCallback(oddBody));
    assert.equal(error.code, 'INVALID_CALLBACK');
    assert.equal(error.status, 400);
    assert.equal(error.verified, undefined);
  });

  test('a forged body of the same shape is INVALID_SIGNATURE, never verified', async () => {
    const forged = oddBody.replace('"150000"', '"150001"');
    const error = await caught(() => api.verifyCallback(forged, headers, publicKey));
    assert.equal(error.code, 'INVALID_SIGNATURE');
    assert.equal(error.verified, undefined);
    assert.equal(error.body, undefined);
  });

  test('parseCallback of the same body: INVALID_CALLBACK, not verified', async () => {
    const error = await caught(() => api.parseCallback(oddBody));
    assert.equal(error.code, 'INVALID_CALLBACK');
    assert.equal(error.verified, undefined);
    assert.equal(error.path, 'payment_info.amount');
  });
});

describe('raw bodies', () => {
  const { headers } = signed(goodBody);
  const bytes = Buffer.from(goodBody);
  // The body in the middle of a larger buffer, so that a view's offset and length matter.
  const padded = new Uint8Array(bytes.length + 16).fill(0x20);
  padded.set(bytes, 8);
  const window = (View, unit = 1) => new View(padded.buffer, 8, bytes.length / unit);
  const forms = {
    ArrayBuffer: new Uint8Array(bytes).buffer,
    DataView: new DataView(padded.buffer, 8, bytes.length),
    'Uint8Array window': window(Uint8Array),
    Int8Array: window(Int8Array),
    Uint8ClampedArray: window(Uint8ClampedArray),
    'Buffer slice': Buffer.from(padded.buffer, 8, bytes.length),
  };
  if (bytes.length % 2 === 0) forms.Uint16Array = new Uint16Array(new Uint8Array(bytes).buffer);
  for (const [name, body] of Object.entries(forms)) {
    test(`${name}: read as its exact bytes by every function that reads a body`, async () => {
      assert.equal(api.verifyCallback(body, headers, publicKey).verification.timestamp, TS);
      assert.equal((await api.verifyCallbackAsync(body, headers, publicKey)).paymentId, 'order-10045');
      assert.equal(api.prepareCallback(body, headers, publicKey).keyIndex, 0);
      assert.equal(api.diagnoseCallback(body, headers, [publicKey]).matched, true);
      assert.equal(api.canonicalMessage(body, TS), api.canonicalMessage(goodBody, TS));
      assert.deepEqual(api.canonicalEntries(body), api.canonicalEntries(goodBody));
      assert.deepEqual(api.parseCallback(body), api.parseCallback(goodBody));
    });
  }

  test('only the bytes of the view are read', async () => {
    const after = new Uint8Array(padded);
    after[8 + bytes.length] = 0x78; // an 'x' right after the view
    assert.equal(api.verifyCallback(new DataView(after.buffer, 8, bytes.length), headers, publicKey).paymentId, 'order-10045');
    const longer = new Uint8Array(after.buffer, 8, bytes.length + 1);
    assert.equal((await caught(() => api.verifyCallback(longer, headers, publicKey))).code, 'INVALID_JSON');
    const shorter = new DataView(padded.buffer, 8, bytes.length - 1);
    assert.equal((await caught(() => api.verifyCallback(shorter, headers, publicKey))).code, 'INVALID_JSON');
  });

  for (const [label, parsed, empty] of [
    ['an empty object (express.raw() without its type)', {}, true],
    ['a parsed callback (express.json(), Fastify)', JSON.parse(goodBody), false],
    ['a parsed array', [], false],
  ]) {
    test(`${label}: INVALID_ARGUMENT saying a framework parsed it, with how to get the raw body`, async () => {
      for (const verify of [api.verifyCallback, api.verifyCallbackAsync, api.prepareCallback, api.diagnoseCallback]) {
        const error = await caught(() => verify(parsed, headers, publicKey));
        assert.equal(error.code, 'INVALID_ARGUMENT');
        assert.match(error.message, empty ? /empty object/ : /parsed/);
        assert.match(error.message, /before verification/);
        for (const way of ["express.raw({ type: 'application/json' })", "parseAs: 'buffer'", 'request.arrayBuffer()', 'verifyCallbackRequest']) {
          assert.ok(error.hint.includes(way), `${way} in ${error.hint}`);
        }
        assert.ok(!error.message.includes(error.hint));
      }
    });
  }

  test('a value that is not a body at all says what it is', async () => {
    const error = await caught(() => api.verifyCallback(new Map(), headers, publicKey));
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.match(error.message, /string or bytes/);
  });
});

describe('verifyCallbackRequest', () => {
  const { headers } = signed(goodBody);

  test('verifies a Fetch Request from its headers and body bytes', async () => {
    const request = new Request('http://localhost/cb', { method: 'POST', headers, body: goodBody });
    const callback = await api.verifyCallbackRequest(request, [publicKey], { toleranceSeconds: 60, now: TS });
    assert.equal(callback.paymentId, 'order-10045');
    assert.equal(callback.verification.merchantId, 'merchant-1');
  });

  test('a body already read is refused clearly; a clone verifies', async () => {
    const request = new Request('http://localhost/cb', { method: 'POST', headers, body: goodBody });
    const copy = request.clone();
    await request.text();
    const error = await caught(() => api.verifyCallbackRequest(request, publicKey));
    assert.equal(error.code, 'INVALID_ARGUMENT');
    assert.match(error.message, /already read/);
    assert.equal((await api.verifyCallbackRequest(copy, publicKey)).paymentId, 'order-10045');
  });

  test('a tampered body is INVALID_SIGNATURE; something that is not a Request is INVALID_ARGUMENT', async () => {
    const tampered = new Request('http://localhost/cb', { method: 'POST', headers, body: goodBody.replace('order-10045', 'order-10046') });
    assert.equal((await caught(() => api.verifyCallbackRequest(tampered, publicKey))).code, 'INVALID_SIGNATURE');
    for (const notRequest of [undefined, goodBody, {}, { headers }]) {
      const error = await caught(() => api.verifyCallbackRequest(notRequest, publicKey));
      assert.equal(error.code, 'INVALID_ARGUMENT');
      assert.match(error.message, /Fetch Request/);
    }
  });

  test('an endless body stream is read no further than the limit, then refused as BODY_TOO_LARGE', async () => {
    for (const [options, limit] of [[{ maxBodyBytes: 16384 }, 16384], [undefined, 1 << 20]]) {
      let pulled = 0;
      const chunk = new Uint8Array(4096).fill(0x20);
      const body = new ReadableStream({
        pull(controller) {
          pulled += chunk.byteLength;
          controller.enqueue(chunk.slice());
        },
      });
      const request = new Request('http://localhost/cb', { method: 'POST', headers, body, duplex: 'half' });
      const error = await caught(() => api.verifyCallbackRequest(request, publicKey, options));
      assert.equal(error.code, 'BODY_TOO_LARGE');
      assert.equal(error.status, 413);
      // What a stream's queue holds ahead of the reader is a few chunks at most.
      assert.ok(pulled <= limit + 4 * chunk.byteLength, `pulled ${pulled} bytes for a limit of ${limit}`);
    }
  });

  test('a body stream that fails mid-body is BODY_UNREADABLE (400), with its reason and a hint', async () => {
    const half = new TextEncoder().encode(goodBody.slice(0, 40));
    const failing = (cause) =>
      new ReadableStream({
        start(controller) {
          controller.enqueue(half);
        },
        pull(controller) {
          controller.error(cause);
        },
      });
    const hostile = { get message() { throw new Error('read me not'); }, toString() { throw new Error('nor me'); } };
    for (const [cause, reason] of [[new Error('socket hang up'), /socket hang up/], ['aborted', /aborted/], [hostile, /the stream failed/]]) {
      const request = new Request('http://localhost/cb', { method: 'POST', headers, body: failing(cause), duplex: 'half' });
      const error = await caught(() => api.verifyCallbackRequest(request, publicKey));
      assert.ok(api.isPaymentIntakeError(error));
      assert.equal(error.code, 'BODY_UNREADABLE');
      assert.equal(error.status, 400);
      assert.match(error.message, reason);
      assert.match(error.hint, /act on nothing/);
    }
    // The instance still works after each.
    const request = new Request('http://localhost/cb', { method: 'POST', headers, body: goodBody });
    assert.equal((await api.verifyCallbackRequest(request, publicKey)).paymentId, 'order-10045');
  });

  test('a stream that gives something other than bytes, or is locked, is INVALID_ARGUMENT', async () => {
    const words = new ReadableStream({
      start(controller) {
        controller.enqueue('not bytes');
        controller.close();
      },
    });
    const odd = await caught(() => api.verifyCallbackRequest({ headers: new Headers(headers), body: words, arrayBuffer: async () => new ArrayBuffer(0) }, publicKey));
    assert.equal(odd.code, 'INVALID_ARGUMENT');
    assert.match(odd.message, /other than bytes/);
    const stream = new Blob([goodBody]).stream();
    stream.getReader(); // locked by someone else, not yet read
    const locked = await caught(() => api.verifyCallbackRequest({ headers: new Headers(headers), body: stream, arrayBuffer: async () => new ArrayBuffer(0) }, publicKey));
    assert.equal(locked.code, 'INVALID_ARGUMENT');
    assert.match(locked.message, /already read/);
  });

  test('a large genuine callback read from a stream still verifies', async () => {
    const large = goodBody.replace('"order-10045"', `"order-10045", "padding": "${'x'.repeat(12000)}"`);
    const signedLarge = signed(large);
    const request = new Request('http://localhost/cb', { method: 'POST', headers: signedLarge.headers, body: new Blob([large]).stream(), duplex: 'half' });
    const callback = await api.verifyCallbackRequest(request, publicKey, { maxBodyBytes: 65536 });
    assert.equal(callback.paymentId, 'order-10045');
  });
});

describe('a detached or shrunk buffer is read as no bytes: a coded error, never a TypeError', () => {
  const { headers } = signed(goodBody);
  /** `wrap(buffer)` made first, then its buffer detached. */
  const detached = (wrap = (buffer) => buffer) => () => {
    const buffer = new TextEncoder().encode(goodBody).buffer;
    const body = wrap(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    return body;
  };
  const shrunk = () => {
    const buffer = new ArrayBuffer(64, { maxByteLength: 64 });
    const view = new DataView(buffer, 0, 64);
    buffer.resize(8);
    return view;
  };
  const bodies = [
    ['a detached ArrayBuffer', detached()],
    ['a DataView of a detached buffer', detached((buffer) => new DataView(buffer))],
    ['a Uint16Array of a detached buffer', detached((buffer) => new Uint16Array(buffer, 0, 8))],
    ['a DataView past a shrunk resizable buffer', shrunk],
  ];
  for (const [label, body] of bodies) {
    test(label, async () => {
      for (const verify of [() => api.verifyCallback(body(), headers, publicKey), () => api.verifyCallbackAsync(body(), headers, publicKey)]) {
        const error = await caught(verify);
        assert.ok(api.isPaymentIntakeError(error), `${label}: ${error}`);
      }
      // prepareCallback leaves the RSA check to its caller: no bytes give no message of this body.
      let prepared;
      try {
        prepared = api.prepareCallback(body(), headers, publicKey);
      } catch (error) {
        assert.ok(api.isPaymentIntakeError(error), `${label}: ${error}`);
      }
      if (prepared) assert.notEqual(prepared.message, api.canonicalMessage(goodBody, String(TS)), label);
      assert.equal(api.verifyCallback(goodBody, headers, publicKey).paymentId, 'order-10045');
    });
  }
});

describe('a large callback is read once: changing the caller buffer after the call starts changes nothing', () => {
  test('verifyCallbackAsync of a 12 KB genuine callback whose bytes are rewritten during the RSA check', async () => {
    const large = goodBody.replace('"order-10045"', `"order-10045", "padding": "${'x'.repeat(12000)}"`);
    const { headers } = signed(large);
    const bytes = new TextEncoder().encode(large);
    const forged = new TextEncoder().encode(large.replace('"amount": 150000', '"amount": 990000'));
    assert.equal(forged.length, bytes.length);
    const pending = api.verifyCallbackAsync(bytes, headers, publicKey, { maxBodyBytes: 65536 });
    bytes.set(forged); // after the wasm read the body, before the RSA check resolves
    const callback = await pending;
    assert.equal(callback.paymentInfo.amount, 150000);
  });
});

describe('messages a person can act on', () => {
  test('a millisecond timestamp is refused with a hint that says so', async () => {
    for (const sign of [api.signRequest, api.prepareRequest]) {
      for (const timestamp of [1700000000123, '1700000000123', 2 ** 32 + 1]) {
        const error = await caught(() => sign('{}', key, { merchantId: 'm', timestamp }));
        assert.equal(error.code, 'INVALID_TIMESTAMP', String(timestamp));
        assert.match(error.hint, /milliseconds/);
        assert.ok(!error.message.includes(error.hint));
      }
    }
    assert.equal(api.signRequest('{}', key, { merchantId: 'm', timestamp: 2 ** 32 }).headers['x-access-timestamp'], String(2 ** 32));
  });

  test('no error of the vectors, the hostile bodies or the cases above carries Rust or serde wording, or repeats its hint', async () => {
    const errors = [];
    const collect = async (fn) => {
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    };
    const callbacks = readVectors('callbacks.json');
    const vectorKey = api.VerifyingKey.fromPem(readKey(callbacks.verifying_key));
    for (const c of callbacks.cases) await collect(() => api.verifyCallback(c.body, c.headers, vectorKey, { now: TS, toleranceSeconds: 600 }));
    for (const c of readVectors('canonical.json')) await collect(() => api.canonicalMessage(c.body, c.timestamp, c.options));
    for (const [, body, options] of hostileBodies(1 << 20)) {
      await collect(() => api.verifyCallback(body, signed('{}').headers, publicKey, options));
      await collect(() => api.validateRequest('/api/v1/payment/p2p/payin', body));
    }
    const { headers } = signed(goodBody);
    await collect(() => api.verifyCallback(goodBody, headers, publicKey, { toleranceSeconds: 600, now: TS + 7201 }));
    await collect(() => api.verifyCallback(goodBody, headers, publicKey, { toleranceSeconds: 600, now: TS - 7201 }));
    await collect(() => api.verifyCallback(oddBody, signed(oddBody).headers, publicKey));
    await collect(() => api.verifyCallback({}, headers, publicKey));
    await collect(() => api.signRequest('{}', key, { merchantId: 'm', timestamp: Date.now() }));
    await collect(() => api.SigningKey.generate(1024));
    await collect(() => api.parseCallback('{"project_id":1}'));
    const report = api.validateRequest('/api/v1/payment/p2p/payin', { payment: { amount: 0, lifetime: 5 } });
    const messages = [...errors.map((e) => e.message), ...report.errors.map((i) => i.message), ...api.issueCodes().map((c) => c.description)];
    assert.ok(errors.length >= 15, `${errors.length} errors`);
    const rustisms = [/\.\.=/, /\binvalid type\b/, /\bexpected (?:u|i|f)(?:8|16|32|64|128)\b/, /\bexpected (?:a |an )?(?:string|struct|map|sequence)\b/, /\bs from now\b/, /-\d+ s\b/];
    for (const message of messages) {
      for (const pattern of rustisms) assert.doesNotMatch(message, pattern);
    }
    for (const error of errors) {
      assert.ok(api.isPaymentIntakeError(error), error.message);
      assert.equal(typeof error.status, 'number', error.code);
      if (error.hint) assert.ok(!error.message.includes(error.hint), `${error.code}: the message repeats the hint`);
    }
  });
});

describe('key errors', () => {
  const pem = readKey('keys/rsa2048.public.pem');
  for (const [label, text, says] of [
    ['an empty string', '', /empty/],
    ['a file path', 'keys/service-public.pem', /file path/],
    ['a PEM with literal \\n', pem.trim().replaceAll('\n', '\\n'), /line breaks/],
    ['a token (the PEM in base64url)', api.VerifyingKey.fromPem(pem).token(), /PEM armour/],
  ]) {
    test(`${label}: INVALID_KEY saying what to pass instead`, async () => {
      for (const read of [(t) => api.VerifyingKey.fromPem(t), (t) => api.SigningKey.fromPem(t)]) {
        const error = await caught(() => read(text));
        assert.equal(error.code, 'INVALID_KEY');
        assert.match(error.message, says);
        assert.doesNotMatch(error.message, /NUL byte|preamble/);
      }
    });
  }
});

describe('validation agrees with signing', () => {
  test('a number with no exact canonical form is an error where it stands, the one signRequest raises', () => {
    const payin = readVectors('canonical.json').find((c) => c.name === 'payin request').body;
    const text = (typeof payin === 'string' ? payin : JSON.stringify(payin)).replace(/^\{/, '{"note":[1,{"big":1e400}],');
    const report = api.validateRequest('/api/v1/payment/p2p/payin', text);
    assert.equal(report.valid, false);
    const found = report.errors.filter((issue) => issue.code === 'INVALID_NUMBER');
    assert.deepEqual(found.map((issue) => [issue.path, issue.actual]), [['note.1.big', '1e+400']]);
    const error = throwsCode(() => signed(text), 'INVALID_NUMBER');
    assert.equal(error.message, found[0].message);
    assert.equal(api.validateRequest('/api/v1/payment/p2p/payin', text.replace('1e400', '1e300')).valid, true);
  });
});

describe('a native RSA check that fails inside the wasm call', () => {
  // The Node core (its source, pkg-template/, which the build bundles as it is) over the same
  // glue, with node:crypto's check replaced: the check runs inside the wasm call (before the
  // model is made), and what it throws or answers comes out as it would.
  const pem = readKey('keys/rsa2048.public.pem');
  const { headers } = signed(goodBody);

  test('a check that throws is CRYPTO_FAILURE with its cause; the module keeps working', () => {
    const failing = createApi(glue, { ...nodeCrypto, verify: () => { throw new Error('provider down'); } });
    const error = throwsCode(() => failing.verifyCallback(goodBody, headers, pem), 'CRYPTO_FAILURE');
    assert.match(error.message, /provider down/);
    assert.equal(api.verifyCallback(goodBody, headers, pem).verification.timestamp, TS);
  });

  test('a check that answers anything but true is INVALID_SIGNATURE', () => {
    for (const answer of [false, 1, 'true', undefined, null]) {
      const api2 = createApi(glue, { ...nodeCrypto, verify: () => answer });
      throwsCode(() => api2.verifyCallback(goodBody, headers, pem), 'INVALID_SIGNATURE', String(answer));
    }
    const trusting = createApi(glue, { ...nodeCrypto, verify: () => true });
    assert.equal(trusting.verifyCallback(goodBody, headers, pem).verification.keyIndex, 0);
  });
});
