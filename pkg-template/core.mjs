// The package's JS core, written once for both entries (pkg-template/node.cjs,
// pkg-template/web.mjs): `createApi(glue, provider)` builds the whole API over a
// wasm-bindgen glue module, with the RSA provider injected (node:crypto from
// ./node-crypto.js, or WebCrypto from ./web-crypto.js). scripts/build.mjs copies
// this file to pkg/web/core.js as it is and to pkg/node/core.js as CommonJS.
//
// The package owns its key classes: a SigningKey or VerifyingKey holds the glue's
// object in a private field, so a freed key, or a value that is not a key of this
// API, throws INVALID_ARGUMENT here, before the wasm is entered (the glue's own
// errors have no `.code`, and one thrown from inside the wasm leaks that call's
// shadow-stack frame). Nothing of the glue is patched or read but its exports.
//
// The wasm reads every argument, builds every message and makes every check,
// the `backend` option included (the private `__` exports, with named results);
// this file adds the native RSA operation and key caches, and turns the results
// into what the API returns.

/** Why a freed key is refused (src/wasm/keys.rs says the same of a verifying key). */
const FREED = 'is a key that was freed (free() was called on it)';
/** Read once as this module loads: a caller's replacement must not run inside the package. */
const { getOwnPropertyDescriptor } = Object;
/** Most PEM texts whose native public key is kept. */
const PUBLIC_CACHE_SIZE = 16;

/**
 * The class of every error the package throws (`instanceof Error` too): `.code` (one of
 * `errorCodes()`), `.status` (the HTTP status a callback receiver answers), `.message`,
 * and where known `.hint`, `.path`, `.verified`, `.body`, `.verification`. The wasm
 * makes its errors with this class (`__setErrorClass`) and sets their members.
 */
class PaymentIntakeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PaymentIntakeError';
  }
}

/** Whether `value` is an error of this package (of this copy, or of another copy or realm). */
function isPaymentIntakeError(value) {
  if (value instanceof PaymentIntakeError) return true;
  try {
    return value instanceof Error && value.name === 'PaymentIntakeError' && typeof value.code === 'string';
  } catch {
    return false; // a Proxy whose traps throw
  }
}

/** The status of the errors made here, from the wasm's one table (both codes made here are 500s). */
let statusOf = () => 500;

/** An error shaped like the wasm's `Error::InvalidArgument`: `'name' reason`. */
function invalidArgument(name, reason) {
  const error = new PaymentIntakeError(`'${name}' ${reason}`);
  error.code = 'INVALID_ARGUMENT';
  error.status = statusOf(error.code);
  return error;
}

/** The error a failed RSA operation of the native provider surfaces as (the wasm's CRYPTO_FAILURE). */
function cryptoFailure(cause) {
  const error = new PaymentIntakeError(`RSA operation failed: ${cause?.message ?? cause}`);
  error.code = 'CRYPTO_FAILURE';
  error.status = statusOf(error.code);
  return error;
}

/**
 * The API over `glue` (the wasm-bindgen module) with `provider`'s RSA. A provider has:
 * `sync` (node:crypto: the sync functions use it), `available()` (a native RSA is there),
 * `privateKey(glueKey, sourcePem, publicJwk)` (`glueKey.privateKeyPem()`: the glue key's PKCS#8
 * PEM; `publicJwk()`: the key's JWK `n` and `e`, joined by `.`) and `publicKey(spkiPem)`
 * (native key handles),
 * `sign`/`verify` (sync, when `sync`) and `signAsync`/`verifyAsync`, `base64url(bytes, padding)`,
 * `bytes(body, maxLength)` (text the wasm reads faster as bytes), `ascii(bytes)` (or none:
 * then strings come from the wasm), optionally `fits(body, maxLength)`, `view(arrayBuffer)`,
 * `utf8Into(text, view, at, capacity)`, `wroteWellFormed(text, view, at, written)` and
 * `asciiAt(view, start, end)` (text written and read in wasm memory in place), and
 * `keepsSourcePem` (the private key is imported from the PEM it was read from).
 */
function createApi(glue, provider) {
  /** Whether the wasm makes its errors with PaymentIntakeError yet (the web build's wasm loads in `init()`). */
  let errorsReady = false;
  /** Gives the wasm the error class, once it is loaded; every function of the API calls this first. */
  function ready() {
    if (errorsReady) return;
    try {
      glue.__setErrorClass(PaymentIntakeError);
      errorsReady = true;
      const codes = glue.errorCodes();
      const statuses = glue.__errorStatuses();
      const table = new Map(codes.map((code, i) => [code, statuses[i]]));
      statusOf = (code) => table.get(code) ?? 500;
    } catch {
      // not loaded yet: the call that follows reports it
    }
  }
  ready();
  /** `fn` of the glue, with the error class given to the wasm first. */
  const withErrors =
    (fn) =>
    (...args) => {
      ready();
      return fn(...args);
    };

  let signingInternals;
  let verifyingInternals;
  let hmacInternals;

  /** What a value is, for messages, from `typeof` and our own brands: runs no caller code. */
  function describe(value) {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'undefined':
        return 'undefined';
      case 'boolean':
        return 'a boolean';
      case 'number':
        return 'a number';
      case 'string':
        return 'a string';
      case 'bigint':
        return 'a BigInt';
      case 'symbol':
        return 'a symbol';
      case 'function':
        return 'a function';
      default:
        break;
    }
    if (signingInternals.is(value)) return 'a SigningKey';
    if (verifyingInternals.is(value)) return 'a VerifyingKey';
    if (hmacInternals.is(value)) return 'an HmacKey';
    try {
      if (Array.isArray(value)) return 'an array';
    } catch {
      // a revoked Proxy
    }
    return 'an object';
  }

  const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

  /** The glue object of a live key of class `name`, or the INVALID_ARGUMENT for `label` called on `self`. */
  function liveGlue(internals, self, name, label) {
    if (!internals.is(self)) throw invalidArgument(label, `was called on ${describe(self)}, not on a ${name} made by this package`);
    const inner = internals.glue(self);
    if (inner === null) throw invalidArgument(label, 'was called on a key that was freed (free() was called on it)');
    return inner;
  }

  /** An RSA public key that verifies callbacks. */
  class VerifyingKey {
    #glue;
    #pem = undefined;
    #native = undefined;

    constructor(inner) {
      if (!(inner instanceof glue.VerifyingKey) || verifyingInternals.making !== inner) {
        throw invalidArgument('VerifyingKey', 'has no public constructor: use VerifyingKey.fromPem()');
      }
      this.#glue = inner;
    }

    /** Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM. */
    static fromPem(pem) {
      ready();
      return verifyingInternals.wrap(glue.VerifyingKey.fromPem(pem));
    }

    /** The `x-access-token` value the service sends with this key (`options.token`: 'pem' or 'der'). */
    token(options) {
      return liveGlue(verifyingInternals, this, 'VerifyingKey', 'VerifyingKey.token()').token(options);
    }

    /** The key as SubjectPublicKeyInfo PEM. */
    publicKeyPem() {
      liveGlue(verifyingInternals, this, 'VerifyingKey', 'VerifyingKey.publicKeyPem()');
      return verifyingInternals.pem(this);
    }

    /** Modulus size in bits. */
    get bits() {
      return liveGlue(verifyingInternals, this, 'VerifyingKey', 'VerifyingKey.bits').bits;
    }

    /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
    free() {
      if (!verifyingInternals.is(this) || this.#glue === null) return;
      const inner = this.#glue;
      this.#glue = null;
      this.#pem = undefined;
      this.#native = undefined;
      inner.free();
    }

    static {
      verifyingInternals = {
        making: undefined,
        is: (value) => isObject(value) && #glue in value,
        glue: (key) => key.#glue,
        /**
         * The PEM of a live key; `null` for a freed one. Read from the private fields, not
         * through `publicKeyPem()`: a caller's own or prototype `publicKeyPem` must not run
         * here, nor name another key.
         */
        pem: (key) => (key.#glue === null ? null : (key.#pem ??= key.#glue.publicKeyPem())),
        native: (key) => (key.#native ??= provider.publicKey(verifyingInternals.pem(key))),
        wrap(inner) {
          verifyingInternals.making = inner;
          try {
            return new VerifyingKey(inner);
          } finally {
            verifyingInternals.making = undefined;
          }
        },
      };
    }
  }

  /** An RSA private key that signs requests. */
  class SigningKey {
    #glue;
    #pem = undefined;
    #source;
    #native = undefined;

    constructor(inner, source) {
      if (!(inner instanceof glue.SigningKey) || signingInternals.making !== inner) {
        throw invalidArgument('SigningKey', 'has no public constructor: use SigningKey.fromPem() or SigningKey.generate()');
      }
      this.#glue = inner;
      this.#source = provider.keepsSourcePem ? source : undefined;
    }

    /** Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits. */
    static fromPem(pem) {
      ready();
      return signingInternals.wrap(glue.SigningKey.fromPem(pem), pem);
    }

    /** Generates a key pair (2048 bits unless told): for tests and debugging. */
    static generate(bits) {
      ready();
      return signingInternals.wrap(glue.SigningKey.generate(bits), undefined);
    }

    /** The `x-access-token` header value for this key (`options.token`: 'pem' or 'der'; `options.padding`). */
    token(options) {
      return liveGlue(signingInternals, this, 'SigningKey', 'SigningKey.token()').token(options);
    }

    /** The public key as SubjectPublicKeyInfo PEM. */
    publicKeyPem() {
      liveGlue(signingInternals, this, 'SigningKey', 'SigningKey.publicKeyPem()');
      return signingInternals.pem(this);
    }

    /** The private key as PKCS#8 PEM. */
    privateKeyPem() {
      return liveGlue(signingInternals, this, 'SigningKey', 'SigningKey.privateKeyPem()').privateKeyPem();
    }

    /** The matching public key. */
    verifyingKey() {
      return verifyingInternals.wrap(liveGlue(signingInternals, this, 'SigningKey', 'SigningKey.verifyingKey()').verifyingKey());
    }

    /** Modulus size in bits. */
    get bits() {
      return liveGlue(signingInternals, this, 'SigningKey', 'SigningKey.bits').bits;
    }

    /** Frees the key's wasm memory (and the native key kept for it); later uses throw. Does nothing on a freed key. */
    free() {
      if (!signingInternals.is(this) || this.#glue === null) return;
      const inner = this.#glue;
      this.#glue = null;
      this.#pem = undefined;
      this.#source = undefined;
      this.#native = undefined;
      inner.free();
    }

    static {
      signingInternals = {
        making: undefined,
        is: (value) => isObject(value) && #glue in value,
        glue: (key) => key.#glue,
        pem: (key) => (key.#glue === null ? null : (key.#pem ??= key.#glue.publicKeyPem())),
        native(key) {
          if (key.#native === undefined) {
            const inner = key.#glue;
            // The glue's key, not `key`: a caller's own or prototype privateKeyPem() must not
            // run here, nor name the key that signs.
            key.#native = provider.privateKey(inner, key.#source, () => glue.__publicJwk(inner));
            key.#source = undefined;
          }
          return key.#native;
        },
        wrap(inner, source) {
          signingInternals.making = inner;
          try {
            return new SigningKey(inner, source);
          } finally {
            signingInternals.making = undefined;
          }
        },
      };
    }
  }

  /** Frees the wasm copy of an HMAC secret whose key was collected without free(). */
  const hmacCleanup = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((id) => glue.__hmacKeyFree(id)) : undefined;

  /**
   * An HMAC-SHA512 secret, for requests or for callbacks (the service hands out one of
   * each). The secret is kept in wasm memory only, and wiped by free().
   */
  class HmacKey {
    #id;

    constructor(id) {
      // `making` is undefined outside fromSecret(): `new HmacKey()` must not match it.
      if (typeof id !== 'number' || hmacInternals.making !== id) {
        throw invalidArgument('HmacKey', 'has no public constructor: use HmacKey.fromSecret()');
      }
      this.#id = id;
      hmacCleanup?.register(this, id, this);
    }

    /**
     * Reads a secret: its text (as the service's secret file holds it, without the
     * file's newline) or its bytes. An empty or short (under 16 bytes) secret is refused.
     */
    static fromSecret(secret) {
      ready();
      const id = glue.__hmacKeyFromSecret(secret);
      hmacInternals.making = id;
      try {
        return new HmacKey(id);
      } finally {
        hmacInternals.making = undefined;
      }
    }

    /** Wipes the secret from wasm memory; later uses throw. Does nothing on a freed key. */
    free() {
      if (!hmacInternals.is(this) || this.#id === null) return;
      const id = this.#id;
      this.#id = null;
      hmacCleanup?.unregister(this);
      glue.__hmacKeyFree(id);
    }

    static {
      hmacInternals = {
        making: undefined,
        is: (value) => isObject(value) && #id in value,
        /** The number of a live key's secret in the wasm; `null` for a freed one. */
        id: (key) => key.#id,
      };
    }
  }

  if (Symbol.dispose) {
    SigningKey.prototype[Symbol.dispose] = SigningKey.prototype.free;
    VerifyingKey.prototype[Symbol.dispose] = VerifyingKey.prototype.free;
    HmacKey.prototype[Symbol.dispose] = HmacKey.prototype.free;
  }

  /**
   * The glue object of `value` if it is a live SigningKey of this API (or, for an
   * HmacKey, the number of its secret); otherwise throws INVALID_ARGUMENT: the first
   * step of every function that signs.
   */
  function signingKeyArg(value) {
    if (signingInternals.is(value)) {
      const inner = signingInternals.glue(value);
      if (inner !== null) return inner;
      throw invalidArgument('signingKey', FREED);
    }
    if (hmacInternals.is(value)) {
      const id = hmacInternals.id(value);
      if (id !== null) return id;
      throw invalidArgument('signingKey', FREED);
    }
    let inherits = false;
    try {
      inherits = value instanceof SigningKey;
    } catch {
      // a Proxy whose getPrototypeOf trap throws
    }
    throw invalidArgument(
      'signingKey',
      inherits
        ? 'is not a SigningKey made by this package (SigningKey.fromPem() or SigningKey.generate())'
        : `must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not ${describe(value)}`,
    );
  }

  /**
   * For the wasm's reading of verifying keys: the PEM of a live RSA key of this API, the
   * number of a live HmacKey's secret, `null` for a freed key, `undefined` for anything
   * else (which the wasm reads itself). Runs no caller code and never throws.
   */
  function keyPem(value) {
    if (verifyingInternals.is(value)) return verifyingInternals.pem(value);
    if (signingInternals.is(value)) return signingInternals.pem(value);
    if (hmacInternals.is(value)) return hmacInternals.id(value);
    return undefined;
  }

  /** Native public keys of PEM texts (most recent last). */
  const publicKeys = new Map();

  /**
   * The native public key of the configured key the wasm chose, by what the wasm read of it
   * (`source`, src/wasm/keys.rs ReadKeys): a key object of this API, or the PEM string given
   * or answered by a foreign object's one `publicKeyPem()` call. The caller's keys are never
   * read again here (a getter, a prototype or a second answer could name another key). A
   * VerifyingKey keeps its own; any other is kept per PEM text, read again by the wasm into
   * SubjectPublicKeyInfo.
   */
  function publicKey(source) {
    if (verifyingInternals.is(source)) return verifyingInternals.native(source);
    const pem = typeof source === 'string' ? source : signingInternals.pem(source);
    let key = publicKeys.get(pem);
    if (key === undefined) {
      const verifyingKey = glue.VerifyingKey.fromPem(pem);
      try {
        key = provider.publicKey(verifyingKey.publicKeyPem());
      } finally {
        verifyingKey.free();
      }
      if (publicKeys.size >= PUBLIC_CACHE_SIZE) publicKeys.delete(publicKeys.keys().next().value);
      publicKeys.set(pem, key);
    }
    return key;
  }

  /** `signRequest`'s result from a prepared request and the base64url signature. */
  function signedRequest(prepared, signatureBytes) {
    const h = prepared.headers;
    return {
      body: prepared.body,
      headers: {
        'x-access-timestamp': h['x-access-timestamp'],
        'x-access-merchant-id': h['x-access-merchant-id'],
        'x-access-signature': provider.base64url(signatureBytes, prepared.padding),
        'x-access-token': h['x-access-token'],
      },
    };
  }

  /**
   * What `verifyCallback` returns once the RSA check passed: the JSON text the wasm gave
   * with the message it checked (from the same one read of the body); an error in its
   * place is thrown.
   */
  function verified(result) {
    if (typeof result !== 'string') throw result;
    return JSON.parse(result);
  }

  /**
   * `verified` of `__prepareCallback`'s answer once the signature checked (in the wasm, or by
   * the check it called): the JSON text itself, or `{ result }` with the error to throw, or
   * `{ failure }`, what the native check threw.
   */
  function checkedAnswer(out) {
    if (typeof out === 'string') return JSON.parse(out);
    if ('failure' in out) throw cryptoFailure(out.failure);
    return verified(out.result);
  }

  const syncRsa = provider.sync ? 'available' : 'absent';
  const asyncRsa = () => (provider.available() ? 'available' : 'absent');

  /** The wasm's `{ signed }`, or `{ prepared, data }` for the native RSA; an HmacKey signs in the wasm. */
  function signInWasm(body, signingKey, options, rsa) {
    ready();
    const inner = signingKeyArg(signingKey);
    return typeof inner === 'number'
      ? glue.__signRequestHmac(body, inner, options, rsa === 'prepare' ? 'prepare' : 'available')
      : glue.__signRequest(body, inner, options, rsa);
  }

  function signRequest(body, signingKey, options) {
    const { signed, prepared, data } = signInWasm(body, signingKey, options, syncRsa);
    if (signed !== undefined) return signed;
    let signature;
    try {
      signature = provider.sign(data, signingInternals.native(signingKey));
    } catch (cause) {
      throw cryptoFailure(cause);
    }
    return signedRequest(prepared, signature);
  }

  /** `signRequest`, with the RSA operation off the main thread where the provider can. */
  async function signRequestAsync(body, signingKey, options) {
    const { signed, prepared, data } = signInWasm(body, signingKey, options, asyncRsa());
    if (signed !== undefined) return signed;
    let signature;
    try {
      signature = await provider.signAsync(data, signingInternals.native(signingKey));
    } catch (cause) {
      throw cryptoFailure(cause);
    }
    return signedRequest(prepared, signature);
  }

  /** Everything of `signRequest` but the signature (`digest: 'double'`: RSA-SHA256 signs the message's SHA-256). */
  function prepareRequest(body, signingKey, options) {
    return signInWasm(body, signingKey, options, 'prepare').prepared;
  }

  /**
   * `undefined` or `null` for the raw body, what a framework leaves when nothing read the
   * body: refused here, since the wasm reads it as an empty body (INVALID_SIGNATURE, hinting at
   * canonical variants). A parsed object is refused by the wasm with the same advice.
   */
  function requireBody(rawBody) {
    if (rawBody !== undefined && rawBody !== null) return;
    const error = invalidArgument('rawBody', `is ${rawBody}, not the raw body: nothing read the callback's body before verification, and the signature covers its exact bytes`);
    error.hint =
      "pass the raw bytes: Express: express.raw({ type: 'application/json' }) on the route; Fastify: addContentTypeParser('application/json', { parseAs: 'buffer' }, …); " +
      'Fetch (Next.js, Hono, Workers): await request.arrayBuffer(); or createCallbackHandler, whose adapters read the body themselves';
    throw error;
  }

  function verifyCallback(rawBody, headers, keys, options) {
    ready();
    requireBody(rawBody);
    const body = provider.bytes(rawBody, 4096);
    // The native check runs inside the wasm call, before the model is made (a forged body costs
    // no model). The wasm gives where its bytes lie: what RSA-SHA256 verifies, `length` bytes
    // from `at`, then the signature's. They are read in place, through a view made after the
    // key is found (finding it may call the wasm and grow its memory, which detaches older views).
    const check = (at, length, signatureLength, source) => {
      const key = publicKey(source);
      const view = memory();
      return provider.verify(view.subarray(at, at + length), view.subarray(at + length, at + length + signatureLength), key);
    };
    return checkedAnswer(glue.__prepareCallback(body, headers, keys, options, syncRsa, keyPem, check));
  }

  /**
   * `verifyCallback`, with the RSA check off the main thread where the provider can. The
   * check is awaited, so it cannot run inside the wasm call: for a native check the wasm
   * prepares the callback (every check but the RSA one, no tree and no model) and gives
   * `pending`, what the model needs but the body (the timestamp, merchant id, key index, the
   * options and limits as it read them once), and `checked`, a copy of the body bytes it read,
   * which only this function holds. Once the check passed, `__finishCallback` makes the model
   * from exactly those bytes (a forged body costs no tree and no model); the caller's body,
   * headers and options are never read again (a Buffer can change during the await, a getter
   * answer otherwise). The body stays out of wasm memory during the await (it never shrinks),
   * and `pending` is freed right after the check answered, whatever it answered.
   */
  async function verifyCallbackAsync(rawBody, headers, keys, options) {
    ready();
    requireBody(rawBody);
    const body = provider.bytes(rawBody, 4096);
    const prepared = glue.__prepareCallback(body, headers, keys, options, asyncRsa(), keyPem);
    // An HMAC signature, or the wasm's RSA (`backend: 'wasm'`): checked in the wasm call.
    if (typeof prepared === 'string' || prepared.pending === undefined) return checkedAnswer(prepared);
    const { pending } = prepared;
    const { message, signature, key, body: checked } = prepared;
    try {
      let ok;
      try {
        ok = await provider.verifyAsync(message, signature, publicKey(key));
      } catch (cause) {
        throw cryptoFailure(cause);
      }
      if (!ok) throw glue.__signatureMismatch();
      return JSON.parse(glue.__finishCallback(pending, checked));
    } finally {
      pending.free();
    }
  }

  /**
   * The body of a Fetch `Request`, read from its stream and no further than the limit: a
   * sender must not make us hold more than `maxBodyBytes` (when a number; else the largest
   * the options accept, src/wasm/options.rs MAX_BODY_BYTES_CEILING). What is read past the
   * limit is refused by the wasm as BODY_TOO_LARGE, with the exact limit. A stream that is
   * locked already is INVALID_ARGUMENT (`used`); one that gives something other than bytes,
   * INVALID_ARGUMENT; one that fails, a TypeError or the stream's own error (the caller turns
   * it into BODY_UNREADABLE).
   */
  async function requestBytes(request, options, used) {
    let limit = 1 << 20;
    try {
      // An own data member only, as the wasm reads the options: one inherited from
      // Object.prototype is none (the wasm would take the default, past what was read).
      const own = isObject(options) ? getOwnPropertyDescriptor(options, 'maxBodyBytes') : undefined;
      const given = own?.enumerable ? own.value : undefined;
      if (typeof given === 'number' && given >= 0 && given < limit) limit = given;
    } catch {
      // a Proxy whose trap throws: the wasm reports it when it reads the options
    }
    const stream = request.body;
    if (stream === null) return new Uint8Array(0);
    if (!isObject(stream) || typeof stream.getReader !== 'function') return request.arrayBuffer();
    let reader;
    try {
      reader = stream.getReader();
    } catch {
      throw invalidArgument('request', used); // locked: something else is reading it
    }
    const chunks = [];
    let length = 0;
    while (length <= limit) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!(value instanceof Uint8Array)) throw invalidArgument('request', 'has a body stream that gave something other than bytes');
      chunks.push(value);
      length += value.byteLength;
    }
    if (length > limit) await reader.cancel().catch(() => {});
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.byteLength;
    }
    return bytes;
  }

  /**
   * `verifyCallbackAsync` of a Fetch `Request` (Next.js, Hono, Workers, Deno, Bun): the
   * headers from `request.headers`, the exact body bytes from `request.arrayBuffer()`. A
   * body already read is refused (INVALID_ARGUMENT): verify first, or pass `request.clone()`.
   */
  async function verifyCallbackRequest(request, keys, options) {
    ready();
    // `headers` and `bodyUsed` are read once, here, where a getter or Proxy that throws
    // makes the value no Request (read again later, they could throw without a `.code`).
    let readable = false;
    let headers;
    let bodyUsed;
    try {
      headers = isObject(request) && typeof request.arrayBuffer === 'function' ? request.headers : undefined;
      readable = isObject(headers);
      bodyUsed = readable && request.bodyUsed;
    } catch {
      readable = false; // a getter or Proxy that throws: not a Request
    }
    if (!readable) {
      throw invalidArgument('request', `must be a Fetch Request (with headers and arrayBuffer()), not ${describe(request)}`);
    }
    const used = 'has a body that was already read (bodyUsed): verify before anything reads the body, or pass request.clone()';
    if (bodyUsed === true) throw invalidArgument('request', used);
    let body;
    try {
      body = await requestBytes(request, options, used);
    } catch (cause) {
      if (isPaymentIntakeError(cause)) throw cause;
      // The stream failed before its end (the sender's connection closed, most often).
      let reason;
      try {
        reason = String(cause?.message ?? cause);
      } catch {
        // an error whose message or toString throws: the wasm words it
      }
      throw glue.__bodyUnreadable(reason);
    }
    return verifyCallbackAsync(body, headers, keys, options);
  }

  /**
   * Everything of verifyCallback but the RSA check: `{ message, signature, data, keyIndex,
   * callback, callbackError }`, where `data` is what RSA-SHA256 verifies (the message, or its
   * SHA-256 under `digest: 'double'`), and `undefined` for an HMAC signature, which was
   * checked here (the `backend` option changes nothing).
   */
  function prepareCallback(rawBody, headers, keys, options) {
    ready();
    const { message, signature, data, keyIndex, result } = glue.__prepareCallback(rawBody, headers, keys, options, 'prepare', keyPem);
    const ok = typeof result === 'string';
    return { message, signature, data, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : result };
  }

  function diagnoseCallback(rawBody, headers, keys) {
    ready();
    return glue.__diagnoseCallback(rawBody, headers, keys, keyPem);
  }

  /** `provider.view` of the wasm's memory, made again once the memory grows (the old view is then empty). */
  let memoryView;
  const memory = () => (memoryView?.length ? memoryView : (memoryView = provider.view(glue.__memory().buffer)));

  /** Room after a body's text for a short timestamp (src/wasm/exports/input.rs ROOM_AFTER_TEXT, the same). */
  const STAMP_ROOM = 16;

  /**
   * Writes text of at most `maxLength` UTF-16 units that the provider encodes straight into
   * the wasm's input buffer as UTF-8, with `room` bytes after it (src/wasm/exports/input.rs):
   * `{ view, at, written }`, or undefined for the general path (no room, past any body the
   * wasm reads, or a lone surrogate: that path words the error). No wasm call may come
   * between this and the call that reads it.
   */
  function textInput(text, room, maxLength) {
    if (!provider.fits?.(text, maxLength)) return undefined;
    const capacity = 3 * text.length;
    const at = glue.__textInput(capacity + room);
    if (at === 0) return undefined;
    // (No wasm call until the text is read: the memory cannot grow, one view serves.)
    const view = memory();
    const written = provider.utf8Into(text, view, at, capacity);
    return provider.wroteWellFormed(text, view, at, written) ? { view, at, written } : undefined;
  }

  /** Writes `text` into `view` from `at` if it is ASCII: its length, else -1. */
  function asciiInto(text, view, at) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return -1;
      view[at + i] = code;
    }
    return text.length;
  }

  function canonicalMessage(body, timestamp, options) {
    ready();
    if (provider.ascii === undefined) return glue.canonicalMessage(body, timestamp, options);
    // Text the provider encodes is written straight into wasm memory (`textInput`), and the
    // message read where the wasm wrote it (after its length, 4 bytes little-endian): no buffer
    // in between. A timestamp of at most 16 ASCII characters goes in after the text, its length
    // passed (-1: the wasm reads `timestamp` itself).
    const input = textInput(body, STAMP_ROOM, 1 << 20);
    if (input !== undefined) {
      const { view: into, at, written } = input;
      const stamp = typeof timestamp === 'string' && timestamp.length <= STAMP_ROOM ? asciiInto(timestamp, into, at + written) : -1;
      const message = glue.__canonicalMessageOfInput(written, stamp, timestamp, options);
      const view = memory();
      const length = view[message] | (view[message + 1] << 8) | (view[message + 2] << 16) | (view[message + 3] << 24);
      return provider.asciiAt(view, message + 4, message + 4 + length);
    }
    const bytes = provider.bytes(body, 1 << 20);
    // Text the provider encoded goes in as it is; anything else is read by the wasm.
    const encoded = typeof body === 'string' && typeof bytes !== 'string';
    const message = encoded ? glue.__canonicalMessageOfUtf8(bytes, timestamp, options) : glue.__canonicalMessageBytes(body, timestamp, options);
    return provider.ascii(message);
  }

  // The index of each operation path the wasm knows (unknown paths are not kept).
  const operationIndexes = new Map();
  function operationIndex(operation) {
    let index = operationIndexes.get(operation);
    if (index === undefined) {
      index = glue.__operationIndex(operation);
      if (index >= 0) operationIndexes.set(operation, index);
    }
    return index;
  }

  function validateRequest(operation, body, options) {
    ready();
    // Text the provider encodes is written into wasm memory, for a known operation by its
    // index; a report without an issue comes back as undefined.
    const index = options === undefined && typeof operation === 'string' && typeof body === 'string' ? operationIndex(operation) : -1;
    const input = index >= 0 ? textInput(body, 0, 4096) : undefined;
    if (input !== undefined) return glue.__validateRequestOfInput(index, input.written) ?? { valid: true, errors: [], warnings: [] };
    return glue.validateRequest(operation, provider.bytes(body, 4096), options);
  }

  return {
    HmacKey,
    PaymentIntakeError,
    SigningKey,
    VerifyingKey,
    availability: withErrors(glue.availability),
    buildPayinRequest: withErrors(glue.buildPayinRequest),
    buildWidgetPayinRequest: withErrors(glue.buildWidgetPayinRequest),
    canonicalEntries: withErrors(glue.canonicalEntries),
    canonicalMessage,
    canonicalSteps: withErrors(glue.canonicalSteps),
    declineReasons: withErrors(glue.declineReasons),
    diagnoseCallback,
    errorCodes: withErrors(glue.errorCodes),
    fromMinorUnits: withErrors(glue.fromMinorUnits),
    isPaymentIntakeError,
    issueCodes: withErrors(glue.issueCodes),
    optionTable: withErrors(glue.optionTable),
    parseCallback: withErrors(glue.parseCallback),
    parseInfoResponse: withErrors(glue.parseInfoResponse),
    prepareCallback,
    prepareRequest,
    profiles: withErrors(glue.profiles),
    signRequest,
    signRequestAsync,
    specStates: withErrors(glue.specStates),
    toMinorUnits: withErrors(glue.toMinorUnits),
    validateRequest,
    verifyCallback,
    verifyCallbackAsync,
    verifyCallbackRequest,
  };
}

export { createApi };
