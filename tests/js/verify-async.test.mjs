// verifyCallbackAsync and verifyCallbackRequest await the native RSA check, so it cannot run
// inside the wasm call as verifyCallback's does: the wasm prepares the callback (every check
// but the RSA one) and gives back a small pending object and a copy of the body bytes it
// read; the model is made from that copy only after the check passed. These tests hold:
// a forged body costs no model, the model is made from exactly what was checked (the
// caller's Buffer, headers and options are not read again during the await), every pending
// object is freed whatever the check answered, wasm memory does not grow for good over many
// forged bodies awaiting their checks, and the errors are those of verifyCallback.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';

import { createApi } from '../../pkg-template/core.mjs';
import nodeCrypto from '../../pkg-template/node-crypto.mjs';
import { caught, esm as api, pkgDir, readKey, readVectors } from './helpers.mjs';
import { heldCallbacks } from './support/pending.mjs';

const require = createRequire(import.meta.url);
// The glue and the JS core the package loads in Node, to run the core over a provider whose
// check answers as a test needs, and to read how many pending callbacks it holds.
const glue = require(path.join(pkgDir, 'web', 'payment_intake_node.cjs'));

const TS = 1700000000;
const signingKey = api.SigningKey.fromPem(readKey('keys/rsa2048.pkcs8.pem'));
const pem = readKey('keys/rsa2048.public.pem');
const key = api.VerifyingKey.fromPem(pem);
const valid = readVectors('callbacks.json').cases.find((c) => c.name === 'valid callback');
const signed = (body) => api.signRequest(body, signingKey, { merchantId: 'merchant-1', timestamp: TS }).headers;
// Genuine, but not the model's shape (INVALID_CALLBACK once it verifies) and ambiguous.
const oddBody = valid.body.replace('"amount": 150000,', '"amount": "150000",');
const ambiguousBody = valid.body.replace('{', '{"x:y": 1, ');
assert.notEqual(oddBody, valid.body);
const forgedHeaders = (headers) => ({ ...headers, 'x-access-signature': headers['x-access-signature'].replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) });
// A hostile body of 16 KiB: {"a":[0,0,…]} with 8,180 zeros, sent with the valid headers.
const hostile = `{"a":[${new Array(8180).fill('0').join(',')}]}`;

/** How many callbacks the wasm holds for a check that never finished (each freed by the read: see support/pending.mjs). */
const held = () => heldCallbacks(glue, { body: valid.body, headers: valid.headers, keys: [pem] });

/**
 * The glue with its calls into the wasm of a callback recorded (`calls`), for a core over it;
 * `open()`, how many handles it gave that the core has not finished yet.
 */
function recordingGlue() {
  const calls = [];
  let open = 0;
  const wrapped = Object.create(glue);
  wrapped.__verifyCallback = (request) => {
    const out = glue.__verifyCallback(request);
    // The handle of a native check still to come (undefined when the answer is whole).
    const pending = out.ok && typeof out.value === 'object' ? out.value.handle : undefined;
    if (pending !== undefined) open += 1;
    calls.push({ name: 'prepare', out, pending });
    return out;
  };
  wrapped.__finishCallback = (request) => {
    open -= 1;
    calls.push({ name: 'finish', verified: request.verified, handle: request.handle });
    return glue.__finishCallback(request);
  };
  return { glue: wrapped, calls, open: () => open };
}

/** A core over `g` whose async check answers `answer(message, signature, publicKey)` (node:crypto's by default). */
const coreWith = (verifyAsync, g = glue) => createApi(g, { ...nodeCrypto, verifyAsync: verifyAsync ?? nodeCrypto.verifyAsync });

/** `{ ok }` or `{ code, message, verification }` of a call. */
async function outcome(fn) {
  try {
    return { ok: await fn() };
  } catch (error) {
    return { code: error.code, message: error.message, verification: error.verification, rawBody: error.rawBody };
  }
}

describe('verifyCallbackAsync: the model only after the awaited check passed', () => {
  test('a forged body is refused without its model being made: nothing of it before the check, no finish after', async () => {
    for (const [body, headers] of [
      [valid.body, forgedHeaders(valid.headers)],
      [oddBody, forgedHeaders(signed(oddBody))],
      [ambiguousBody, forgedHeaders(signed(ambiguousBody))],
      [hostile, valid.headers],
    ]) {
      const { glue: g, calls } = recordingGlue();
      const error = await caught(() => coreWith(undefined, g).verifyCallbackAsync(body, headers, key));
      assert.equal(error.code, 'INVALID_SIGNATURE');
      // The last step only frees the handle of a check that failed: no model is made.
      assert.deepEqual(calls.map((c) => [c.name, c.verified]), [['prepare', undefined], ['finish', false]]);
      // What the wasm gave before the check holds no model, and no error made from one.
      assert.equal(calls[0].out.ok, true);
      assert.equal(calls[0].out.value.result, undefined);
      assert.equal(typeof calls[0].pending, 'number');
    }
  });

  test('a check that resolves false refuses a body that would be INVALID_CALLBACK or AMBIGUOUS_CALLBACK once modelled', async () => {
    const { glue: g, calls } = recordingGlue();
    const refusing = coreWith(async () => false, g);
    for (const body of [oddBody, ambiguousBody, valid.body]) {
      const headers = body === valid.body ? valid.headers : signed(body);
      assert.equal((await caught(() => refusing.verifyCallbackAsync(body, headers, key))).code, 'INVALID_SIGNATURE');
    }
    assert.equal(calls.filter((c) => c.name === 'finish' && c.verified !== false).length, 0);
  });

  test('the count of held callbacks sees one never finished (and frees it)', () => {
    assert.equal(held(), 0);
    for (const awaited of [true, false]) {
      const answer = glue.__verifyCallback({ body: valid.body, headers: valid.headers, keys: [pem], native: true, awaited });
      assert.equal(answer.ok, true);
      // The answer names its value's shape: copies to await, or where the bytes lie.
      assert.equal(answer.kind, awaited ? 'awaited' : 'inPlace');
      assert.deepEqual(Object.keys(answer.value).sort(), awaited ? ['body', 'data', 'handle', 'key', 'signature'] : ['at', 'key']);
      assert.equal(held(), 1, awaited ? 'awaited' : 'sync');
      assert.equal(held(), 0);
    }
    // Checked in the wasm (no native RSA offered): the verified callback itself, nothing held.
    const verified = glue.__verifyCallback({ body: valid.body, headers: valid.headers, keys: [pem], native: false, awaited: false });
    assert.deepEqual([verified.ok, verified.kind, verified.value.paymentId], [true, 'verified', 'order-10045']);
    assert.equal(held(), 0);
  });

  test('a pending callback is held only while its check is awaited', async () => {
    assert.equal(held(), 0);
    const { glue: g, calls, open } = recordingGlue();
    let during;
    const core = coreWith(async (...args) => {
      during = open();
      return nodeCrypto.verifyAsync(...args);
    }, g);
    const verified = await core.verifyCallbackAsync(valid.body, valid.headers, key);
    assert.equal(verified.paymentId, 'order-10045');
    // Its handle was given before the check and finished after it, as the verified model
    // shows (a handle the wasm did not hold then would finish as "not a pending callback")...
    assert.equal(during, 1);
    assert.deepEqual(calls.map((c) => [c.name, c.verified]), [['prepare', undefined], ['finish', true]]);
    assert.equal(calls[1].handle, calls[0].pending);
    // ...and the wasm holds it no more.
    assert.match(glue.__finishCallback({ handle: calls[0].pending }).error.message, /not a pending callback/);
    assert.equal(held(), 0);
  });

  test('every pending callback is freed: on success, a failed check, a throwing check, and an error after the check', async () => {
    assert.equal(held(), 0);
    const cases = [
      ['success', undefined, valid.body, valid.headers, undefined],
      ['forged', undefined, valid.body, forgedHeaders(valid.headers), 'INVALID_SIGNATURE'],
      ['false', async () => false, valid.body, valid.headers, 'INVALID_SIGNATURE'],
      ['throws', async () => { throw new Error('provider down'); }, valid.body, valid.headers, 'CRYPTO_FAILURE'],
      ['throws at once', () => { throw new Error('provider down'); }, valid.body, valid.headers, 'CRYPTO_FAILURE'],
      ['invalid callback', undefined, oddBody, signed(oddBody), 'INVALID_CALLBACK'],
      ['ambiguous', undefined, ambiguousBody, signed(ambiguousBody), 'AMBIGUOUS_CALLBACK'],
    ];
    for (const [name, verifyAsync, body, headers, code] of cases) {
      const result = await outcome(() => coreWith(verifyAsync).verifyCallbackAsync(body, headers, key));
      assert.equal(result.code, code, name);
      if (code === 'CRYPTO_FAILURE') assert.match(result.message, /provider down/);
      assert.equal(held(), 0, name);
    }
    // A key that the core cannot turn into a native one (here: the provider's publicKey
    // throws) is CRYPTO_FAILURE as before, and frees its pending too.
    const failing = createApi(glue, { ...nodeCrypto, publicKey: () => { throw new Error('gone'); } });
    const result = await outcome(() => failing.verifyCallbackAsync(valid.body, valid.headers, pem));
    assert.equal(result.code, 'CRYPTO_FAILURE');
    assert.match(result.message, /gone/);
    assert.equal(held(), 0);
    // The caller's keys are read once, by the wasm: a getter that would throw the second
    // time is never read again (tests/js/attack-keys-prototype.test.mjs).
    let reads = 0;
    const keys = [pem];
    Object.defineProperty(keys, 0, { get: () => (reads++ === 0 ? pem : (() => { throw new Error('gone'); })()) });
    assert.equal((await outcome(() => api.verifyCallbackAsync(valid.body, valid.headers, keys))).ok.paymentId, 'order-10045');
    assert.equal(reads, 1);
    assert.equal(held(), 0);
  });

  test('many forged bodies awaiting their checks at once: all freed, and wasm memory does not grow for good', async () => {
    assert.equal(held(), 0);
    const memory = () => glue.__memory({}).value.buffer.byteLength;
    let peak = 0;
    const { glue: g, open } = recordingGlue();
    const core = coreWith(async (...args) => {
      peak = Math.max(peak, open());
      return nodeCrypto.verifyAsync(...args);
    }, g);
    const round = () => Promise.all(Array.from({ length: 200 }, () => outcome(() => core.verifyCallbackAsync(hostile, valid.headers, key))));
    for (const result of await round()) assert.equal(result.code, 'INVALID_SIGNATURE');
    const after = memory();
    for (let i = 0; i < 5; i++) for (const result of await round()) assert.equal(result.code, 'INVALID_SIGNATURE');
    assert.ok(peak > 1, `checks were awaited together (${peak})`);
    assert.equal(memory(), after, 'wasm memory grew over 1,000 more forged bodies');
    assert.equal(held(), 0);
  });
});

describe('verifyCallbackAsync: the model is made from what was checked', () => {
  test("a caller mutating its Buffer during the await changes nothing", async () => {
    const expected = await api.verifyCallbackAsync(valid.body, valid.headers, key);
    const buffer = Buffer.from(valid.body, 'utf8');
    const core = coreWith(async (...args) => {
      // Same length, other amount and payment: what a second read would see.
      buffer.write(buffer.toString('latin1').replace('150000', '999999').replace('order-10045', 'order-66666'), 'latin1');
      return nodeCrypto.verifyAsync(...args);
    });
    const verified = await core.verifyCallbackAsync(buffer, valid.headers, key);
    assert.notEqual(buffer.toString(), valid.body, 'the buffer was changed during the await');
    assert.deepEqual(verified, expected);
    assert.equal(verified.paymentId, 'order-10045');
  });

  test('the same for a Uint8Array over a shared ArrayBuffer, and an ArrayBuffer', async () => {
    const expected = await api.verifyCallbackAsync(valid.body, valid.headers, key);
    for (const make of [(b) => new Uint8Array(b), (b) => b.buffer]) {
      const bytes = new Uint8Array(new TextEncoder().encode(valid.body));
      const core = coreWith(async (...args) => {
        bytes.fill(0x20);
        return nodeCrypto.verifyAsync(...args);
      });
      assert.deepEqual(await core.verifyCallbackAsync(make(bytes), valid.headers, key), expected);
    }
  });

  test('headers and options are read once, before the check: no getter runs during or after the await', async () => {
    let checking = false;
    let readsAfter = 0;
    const getter = (value) => ({
      enumerable: true,
      get() {
        if (checking) readsAfter++;
        return value;
      },
    });
    const headers = Object.defineProperties({}, Object.fromEntries(Object.entries(valid.headers).map(([name, value]) => [name, getter(value)])));
    const options = Object.defineProperties({}, { allowAmbiguous: getter(false), maxBodyBytes: getter(65536), expectedMerchantId: getter('merchant-1') });
    const core = coreWith(async (...args) => {
      checking = true;
      return nodeCrypto.verifyAsync(...args);
    });
    const verified = await core.verifyCallbackAsync(valid.body, headers, key, options);
    assert.equal(verified.verification.merchantId, 'merchant-1');
    assert.equal(readsAfter, 0);
  });
});

describe('verifyCallbackAsync: the errors and results of verifyCallback', () => {
  test('the same outcome as verifyCallback for genuine, forged, odd and ambiguous bodies, and options', async () => {
    const cases = [
      [valid.body, valid.headers, undefined],
      [valid.body, forgedHeaders(valid.headers), undefined],
      [hostile, valid.headers, undefined],
      [oddBody, signed(oddBody), undefined],
      [ambiguousBody, signed(ambiguousBody), undefined],
      [ambiguousBody, signed(ambiguousBody), { allowAmbiguous: true }],
      [valid.body, valid.headers, { expectedMerchantId: 'other' }],
      [valid.body, valid.headers, { toleranceSeconds: 60, now: TS + 7200 }],
      [valid.body, valid.headers, { backend: 'wasm' }],
      ['{"a":', valid.headers, undefined],
    ];
    for (const [body, headers, options] of cases) {
      const sync = await outcome(() => api.verifyCallback(body, headers, key, options));
      const async = await outcome(() => api.verifyCallbackAsync(body, headers, key, options));
      assert.deepEqual(async, sync, `${body.slice(0, 30)} ${JSON.stringify(options)}`);
    }
    const odd = await outcome(() => api.verifyCallbackAsync(oddBody, signed(oddBody), key));
    assert.equal(odd.code, 'INVALID_CALLBACK');
    assert.equal(odd.verification.merchantId, 'merchant-1');
    assert.equal(odd.rawBody, oddBody);
  });

  test('errors before the check are thrown before it: the check is never called', async () => {
    let checks = 0;
    const core = coreWith(async () => {
      checks++;
      return true;
    });
    const { 'x-access-timestamp': _, ...noTimestamp } = valid.headers;
    for (const [body, headers, code] of [
      ['{"a":', valid.headers, 'INVALID_JSON'],
      [valid.body, noTimestamp, 'MISSING_HEADER'],
      [valid.body, { ...valid.headers, 'x-access-signature': '!!' }, 'INVALID_SIGNATURE'],
    ]) {
      assert.equal((await caught(() => core.verifyCallbackAsync(body, headers, key))).code, code);
    }
    assert.equal(checks, 0);
  });

  test('HMAC and the wasm backend are checked in the wasm call: no pending callback, results as before', async () => {
    const { glue: g, calls } = recordingGlue();
    const core = coreWith(() => assert.fail('no native check'), g);
    // An HmacKey is the core's own (a key of another core's registry is not recognised).
    const secret = core.HmacKey.fromSecret('s3cret-for-the-async-tests');
    const hmacSigned = core.signRequest(valid.body, secret, { merchantId: 'merchant-1', timestamp: TS });
    const expected = core.verifyCallback(hmacSigned.body, hmacSigned.headers, secret);
    calls.length = 0;
    assert.equal(held(), 0);
    const hmac = await core.verifyCallbackAsync(hmacSigned.body, hmacSigned.headers, secret);
    assert.deepEqual(hmac, expected);
    assert.equal(hmac.verification.keyIndex, 0);
    const wasm = await core.verifyCallbackAsync(valid.body, valid.headers, key, { backend: 'wasm' });
    assert.deepEqual(wasm, api.verifyCallback(valid.body, valid.headers, key));
    const forged = await caught(() => core.verifyCallbackAsync(hmacSigned.body, forgedHeaders(hmacSigned.headers), secret));
    assert.equal(forged.code, 'INVALID_SIGNATURE');
    // Three answers, none pending: the forged HMAC was refused inside the wasm call.
    assert.deepEqual(calls.map((c) => [c.name, c.pending, c.out.ok]), [['prepare', undefined, true], ['prepare', undefined, true], ['prepare', undefined, false]]);
    assert.equal(held(), 0);
    secret.free();
  });

  test('verifyCallbackRequest: the same, and its pending callback freed', async () => {
    assert.equal(held(), 0);
    const request = (body, headers) => new Request('https://example.test/cb', { method: 'POST', body, headers });
    const verified = await api.verifyCallbackRequest(request(valid.body, valid.headers), key);
    assert.deepEqual(verified, api.verifyCallback(valid.body, valid.headers, key));
    const forged = await caught(() => api.verifyCallbackRequest(request(valid.body, forgedHeaders(valid.headers)), key));
    assert.equal(forged.code, 'INVALID_SIGNATURE');
    const odd = await caught(() => api.verifyCallbackRequest(request(oddBody, signed(oddBody)), key));
    assert.equal(odd.code, 'INVALID_CALLBACK');
    assert.equal(held(), 0);
  });
});
