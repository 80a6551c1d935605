// The package's key classes (their types: keys.d.ts). A SigningKey or VerifyingKey holds the
// glue's object in a private field of their one base, `RsaKey`, so a freed key, or a value
// that is not a key of this API, throws INVALID_ARGUMENT here, before the wasm is entered (the
// glue's own errors have no `.code`, and one thrown from inside the wasm leaks that call's
// shadow-stack frame). An HmacKey holds the number of its secret, which the wasm keeps.
// Nothing of the glue is patched or read but its exports.

const isObject = (value) => (typeof value === 'object' && value !== null) || typeof value === 'function';

/** Most PEM texts whose native public key is kept. */
const PUBLIC_CACHE_SIZE = 16;

/**
 * The key classes over `glue` with `provider`'s native keys and `errors`' errors:
 * `{ SigningKey, VerifyingKey, HmacKey, describe, signingKeyArg, keyPem, publicKey, nativeSigningKey }`.
 * The classes are made anew for each API (a key of one is no key of another: their private
 * fields are the brand); the functions are this module's, over one context (`ctx`).
 */
function createKeys(glue, provider, errors) {
  /** `making`: the one constructor argument that makes a key, set only while `make` makes one. */
  const ctx = { glue, provider, errors, making: undefined, publicKeys: new Map() };
  ctx.RsaKey = rsaKeyClass(ctx);
  ctx.VerifyingKey = verifyingKeyClass(ctx);
  ctx.SigningKey = signingKeyClass(ctx);
  ctx.HmacKey = hmacKeyClass(ctx);
  const { HmacKey, SigningKey, VerifyingKey } = ctx;
  for (const Class of [SigningKey, VerifyingKey, HmacKey]) guardMethods(errors.guard, Class);
  return {
    HmacKey,
    SigningKey,
    VerifyingKey,
    describe: (value) => describe(ctx, value),
    keyPem: (value) => keyPem(ctx, value),
    nativeSigningKey: SigningKey.native,
    publicKey: (source) => publicKey(ctx, source),
    signingKeyArg: (value) => signingKeyArg(ctx, value),
  };
}

/** A key of `Class`, made from `args` (the first the glue's key, or an HMAC secret's number): the one way a key is made. */
function make(ctx, Class, ...args) {
  ctx.errors.loaded();
  ctx.making = args[0];
  try {
    return new Class(...args);
  } finally {
    ctx.making = undefined;
  }
}

/** What a value is, for messages, from `typeof` and our own brands: runs no caller code. */
function describe(ctx, value) {
  if (value === null) return 'null';
  const type = typeof value;
  if (type === 'undefined') return 'undefined';
  if (type === 'bigint') return 'a BigInt';
  if (type === 'function') return 'a function';
  if (type !== 'object') return `a ${type}`;
  if (ctx.SigningKey.is(value)) return 'a SigningKey';
  if (ctx.VerifyingKey.is(value)) return 'a VerifyingKey';
  if (ctx.HmacKey.is(value)) return 'an HmacKey';
  try {
    if (Array.isArray(value)) return 'an array';
  } catch {
    // a revoked Proxy
  }
  return 'an object';
}

/** What RSA keys share: the glue's key, its public PEM and its native key, all private. */
function rsaKeyClass(ctx) {
  const { invalidArgument } = ctx.errors;
  return class RsaKey {
    #glue;
    #pem = undefined;
    #native = undefined;

    constructor(inner, GlueClass, name, how) {
      if (!(inner instanceof GlueClass) || ctx.making !== inner) throw invalidArgument(name, `has no public constructor: use ${how}`);
      this.#glue = inner;
    }

    /** The glue's key of a live key of the class `Class`, or the INVALID_ARGUMENT for `label` called on `self`. */
    static live(Class, self, label) {
      if (!Class.is(self)) throw invalidArgument(label, `was called on ${describe(ctx, self)}, not on a ${Class.name} made by this package`);
      const inner = self.#glue;
      if (inner === null) throw invalidArgument(label, `was called on ${ctx.errors.shared().freedKey.replace(/^is /, '')}`);
      return inner;
    }

    /** The glue's key, `null` once freed. */
    static glueOf = (key) => key.#glue;

    /**
     * The PEM of a live key; `null` for a freed one. Read from the private fields, not
     * through `publicKeyPem()`: a caller's own or prototype `publicKeyPem` must not run
     * here, nor name another key.
     */
    static pemOf = (key) => (key.#glue === null ? null : (key.#pem ??= key.#glue.publicKeyPem()));

    /** The native key of `key`, made by `create(glueKey)` once. */
    static nativeOf = (key, create) => (key.#native ??= create(key.#glue));

    /** Frees the key's wasm memory (and the native key kept for it); later uses throw. Does nothing on a freed key. */
    static free(key) {
      if (key.#glue === null) return;
      const inner = key.#glue;
      key.#glue = null;
      key.#pem = undefined;
      key.#native = undefined;
      inner.free();
    }
  };
}

/** An RSA public key that verifies callbacks. */
function verifyingKeyClass(ctx) {
  const { RsaKey, glue } = ctx;
  return class VerifyingKey extends RsaKey {
    #verifying = true;

    constructor(inner) {
      super(inner, glue.VerifyingKey, 'VerifyingKey', 'VerifyingKey.fromPem()');
    }

    static is = (value) => isObject(value) && #verifying in value;

    /** Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM. */
    static fromPem(pem) {
      return make(ctx, VerifyingKey, glue.VerifyingKey.fromPem(pem));
    }

    /** The `x-access-token` value the service sends with this key (`options.token`: 'pem' or 'der'). */
    token(options) {
      return RsaKey.live(VerifyingKey, this, 'VerifyingKey.token()').token(options);
    }

    /** The key as SubjectPublicKeyInfo PEM. */
    publicKeyPem() {
      RsaKey.live(VerifyingKey, this, 'VerifyingKey.publicKeyPem()');
      return RsaKey.pemOf(this);
    }

    /** Modulus size in bits. */
    get bits() {
      return RsaKey.live(VerifyingKey, this, 'VerifyingKey.bits').bits;
    }

    /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
    free() {
      if (VerifyingKey.is(this)) RsaKey.free(this);
    }
  };
}

/** An RSA private key that signs requests. */
function signingKeyClass(ctx) {
  const { RsaKey, glue, provider } = ctx;
  return class SigningKey extends RsaKey {
    #source;

    constructor(inner, source) {
      super(inner, glue.SigningKey, 'SigningKey', 'SigningKey.fromPem() or SigningKey.generate()');
      this.#source = provider.keepsSourcePem ? source : undefined;
    }

    static is = (value) => isObject(value) && #source in value;

    /** Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits. */
    static fromPem(pem) {
      return make(ctx, SigningKey, glue.SigningKey.fromPem(pem), pem);
    }

    /** Generates a key pair (2048 bits unless told): for tests and debugging. */
    static generate(bits) {
      return make(ctx, SigningKey, glue.SigningKey.generate(bits), undefined);
    }

    /**
     * The native private key, made once. The glue's key, not `key`, is handed on: a caller's
     * own or prototype privateKeyPem() must not run here, nor name the key that signs.
     */
    static native(key) {
      return RsaKey.nativeOf(key, (inner) => {
        const native = provider.privateKey(inner, key.#source, () => ctx.errors.unwrap(inner.__publicJwk()));
        key.#source = undefined;
        return native;
      });
    }

    /** The `x-access-token` header value for this key (`options.token`: 'pem' or 'der'; `options.padding`). */
    token(options) {
      return RsaKey.live(SigningKey, this, 'SigningKey.token()').token(options);
    }

    /** The public key as SubjectPublicKeyInfo PEM. */
    publicKeyPem() {
      RsaKey.live(SigningKey, this, 'SigningKey.publicKeyPem()');
      return RsaKey.pemOf(this);
    }

    /** The private key as PKCS#8 PEM. */
    privateKeyPem() {
      return RsaKey.live(SigningKey, this, 'SigningKey.privateKeyPem()').privateKeyPem();
    }

    /** The matching public key. */
    verifyingKey() {
      return make(ctx, ctx.VerifyingKey, RsaKey.live(SigningKey, this, 'SigningKey.verifyingKey()').verifyingKey());
    }

    /** Modulus size in bits. */
    get bits() {
      return RsaKey.live(SigningKey, this, 'SigningKey.bits').bits;
    }

    /** Frees the key's wasm memory (and the native key kept for it); later uses throw. Does nothing on a freed key. */
    free() {
      if (!SigningKey.is(this)) return;
      this.#source = undefined;
      RsaKey.free(this);
    }
  };
}

/**
 * An HMAC-SHA512 secret, for requests or for callbacks (the service hands out one of
 * each). The secret is kept in wasm memory only (once for keys of the same secret), and
 * wiped once every key of it was freed.
 */
function hmacKeyClass(ctx) {
  const { glue } = ctx;
  /** Lets the wasm copy of an HMAC secret go once its key was collected without free(). */
  const hmacCleanup = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((key) => glue.__hmacKeyFree({ key })) : undefined;

  return class HmacKey {
    #id;

    constructor(id) {
      // `making` is undefined outside fromSecret(): `new HmacKey()` must not match it.
      if (typeof id !== 'number' || ctx.making !== id) throw ctx.errors.invalidArgument('HmacKey', 'has no public constructor: use HmacKey.fromSecret()');
      this.#id = id;
      hmacCleanup?.register(this, id, this);
    }

    static is = (value) => isObject(value) && #id in value;

    /** The number of a live key's secret in the wasm; `null` for a freed one. */
    static idOf = (key) => key.#id;

    /**
     * Reads a secret: its text (as the service's secret file holds it, without the
     * file's newline) or its bytes. An empty or short (under 16 bytes) secret is refused.
     */
    static fromSecret(secret) {
      return make(ctx, HmacKey, ctx.errors.unwrap(glue.__hmacKeyFromSecret({ secret })));
    }

    /** Lets the secret go (wiped from wasm memory once no other key of it is live); later uses throw. Does nothing on a freed key. */
    free() {
      if (!HmacKey.is(this) || this.#id === null) return;
      const id = this.#id;
      this.#id = null;
      hmacCleanup?.unregister(this);
      glue.__hmacKeyFree({ key: id });
    }
  };
}

/** What of `Class` calls the glue throws the package's errors (the wasm's data made into one): its methods and getters through `guard`. */
function guardMethods(guard, Class) {
  for (const target of [Class, Class.prototype]) {
    for (const name of Object.getOwnPropertyNames(target)) {
      const descriptor = Object.getOwnPropertyDescriptor(target, name);
      if (name === 'constructor' || name === 'is' || name === 'idOf' || name === 'native') continue;
      if (typeof descriptor.value === 'function') descriptor.value = guard(descriptor.value);
      else if (typeof descriptor.get === 'function') descriptor.get = guard(descriptor.get);
      else continue;
      Object.defineProperty(target, name, descriptor);
    }
  }
  if (Symbol.dispose) Class.prototype[Symbol.dispose] = Class.prototype.free;
}

/**
 * The glue object of `value` if it is a live SigningKey of this API (or, for an
 * HmacKey, the number of its secret); otherwise throws INVALID_ARGUMENT: the first
 * step of every function that signs.
 */
function signingKeyArg(ctx, value) {
  const { HmacKey, RsaKey, SigningKey } = ctx;
  const inner = SigningKey.is(value) ? RsaKey.glueOf(value) : HmacKey.is(value) ? HmacKey.idOf(value) : undefined;
  if (inner === null) throw ctx.errors.invalidArgument('signingKey', ctx.errors.shared().freedKey);
  if (inner !== undefined) return inner;
  let inherits = false;
  try {
    inherits = value instanceof SigningKey;
  } catch {
    // a Proxy whose getPrototypeOf trap throws
  }
  throw ctx.errors.invalidArgument(
    'signingKey',
    inherits
      ? 'is not a SigningKey made by this package (SigningKey.fromPem() or SigningKey.generate())'
      : `must be a SigningKey (SigningKey.fromPem()) or an HmacKey (HmacKey.fromSecret()), not ${describe(ctx, value)}`,
  );
}

/**
 * For the wasm's reading of verifying keys: the PEM of a live RSA key of this API, the
 * number of a live HmacKey's secret, `null` for a freed key, `undefined` for anything
 * else (which the wasm reads itself). Runs no caller code and never throws.
 */
function keyPem(ctx, value) {
  if (ctx.VerifyingKey.is(value) || ctx.SigningKey.is(value)) return ctx.RsaKey.pemOf(value);
  if (ctx.HmacKey.is(value)) return ctx.HmacKey.idOf(value);
  return undefined;
}

/**
 * The native public key of the configured key the wasm chose, by what the wasm read of it
 * (`source`, src/wasm/keys.rs ReadKeys): a key object of this API, or the PEM string given
 * or answered by a foreign object's one `publicKeyPem()` call. The caller's keys are never
 * read again here (a getter, a prototype or a second answer could name another key). A
 * VerifyingKey keeps its own; any other is kept per PEM text (`ctx.publicKeys`, most recent
 * last), read again by the wasm into SubjectPublicKeyInfo.
 */
function publicKey(ctx, source) {
  const { RsaKey, provider, publicKeys } = ctx;
  if (ctx.VerifyingKey.is(source)) return RsaKey.nativeOf(source, () => provider.publicKey(RsaKey.pemOf(source)));
  const pem = typeof source === 'string' ? source : RsaKey.pemOf(source);
  let key = publicKeys.get(pem);
  if (key === undefined) {
    const verifyingKey = ctx.glue.VerifyingKey.fromPem(pem);
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

export { createKeys };
