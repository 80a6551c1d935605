// Guards on the key objects of the wasm-bindgen glue, and the few other pieces
// (errors, the signed request) shared by the Node wrapper
// (pkg-template/node.cjs) and the web wrapper (pkg-template/web.mjs): scripts/build.mjs
// copies this file to pkg/web/key-guard.js as it is and to pkg/node/key-guard.js as
// CommonJS. Why: the glue throws a plain Error without `.code` ('expected instance of
// SigningKey', 'null pointer passed to rust') for a key that is freed or of the wrong
// type, and the second one is thrown from inside the wasm call, through its frames:
// each such call leaks that frame of the 1 MiB shadow stack, and about 13,000 of them
// kill the instance. Here every such use throws the package's own INVALID_ARGUMENT
// error in JS, before the wasm is entered.
//
// A key is genuine when the glue made it (`__wrap`, which every SigningKey and
// VerifyingKey the wasm hands out goes through), and live until `free()` sets its
// pointer `__wbg_ptr` to 0. The wasm reads verifying keys (VerifyingKey objects,
// anything with `publicKeyPem()`, PEM strings, arrays of them) itself, in its own
// order of checks, and calls `publicKeyPem()`: on a freed key that method now throws
// here, and the wasm reports INVALID_ARGUMENT for it (src/wasm/convert.rs).

/** Why a freed key is refused (src/wasm/convert.rs says the same of a verifying key). */
const FREED = 'is a key that was freed (free() was called on it)';

/** An error shaped like the wasm's `Error::InvalidArgument`: `'name' reason`. */
function invalidArgument(name, reason) {
  const error = new Error(`'${name}' ${reason}`);
  error.name = 'PaymentIntakeError';
  error.code = 'INVALID_ARGUMENT';
  return error;
}

/** The error a failed RSA operation of node:crypto or WebCrypto surfaces as (the wasm's CRYPTO_FAILURE). */
function cryptoFailure(cause) {
  const error = new Error(`RSA operation failed: ${cause?.message ?? cause}`);
  error.name = 'PaymentIntakeError';
  error.code = 'CRYPTO_FAILURE';
  return error;
}

/** `signRequest`'s result from what `__signRequest` prepared and the base64url signature. */
function signedRequest(prepared, signature) {
  const h = prepared.headers;
  return {
    body: prepared.body,
    headers: {
      'x-access-timestamp': h['x-access-timestamp'],
      'x-access-merchant-id': h['x-access-merchant-id'],
      'x-access-signature': signature,
      'x-access-token': h['x-access-token'],
    },
  };
}

/**
 * What `verifyCallback` returns once the wrapper's own RSA check passed: the JSON
 * text `__prepareCallback` gave, or, for a large body (`null` there), the text
 * `__finishCallback` gives now; an error in its place is thrown.
 */
function verifiedCallback(glue, result, rawBody, headers, keyIndex, options) {
  const text = result === null ? glue.__finishCallback(rawBody, headers, keyIndex, options) : result;
  if (typeof text !== 'string') throw text;
  return JSON.parse(text);
}

/**
 * Installs the guards on the glue's two classes (once per module instance) and returns
 * `signingKeyArg(value)`, which throws unless `value` is a live SigningKey of this
 * module: the first line of every function that hands a SigningKey to the wasm.
 */
function installKeyGuards(glue) {
  const classes = [
    ['SigningKey', glue.SigningKey],
    ['VerifyingKey', glue.VerifyingKey],
  ];
  /** Class name -> WeakSet of the objects the glue made. */
  const made = new Map();

  /** What a value is, for messages, from `typeof` and our own records: runs no caller code. */
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
    for (const [name, objects] of made) if (objects.has(value)) return `a ${name}`;
    try {
      if (Array.isArray(value)) return 'an array';
    } catch {
      // a revoked Proxy
    }
    return 'an object';
  }

  for (const [name, cls] of classes) {
    const proto = cls?.prototype;
    if (typeof cls?.__wrap !== 'function' || typeof proto?.free !== 'function') {
      throw new Error(`payment-intake: the wasm-bindgen glue has no ${name}.__wrap or ${name}.prototype.free`);
    }
    const objects = new WeakSet();
    made.set(name, objects);
    const wrap = cls.__wrap;
    cls.__wrap = function wrapGenuine(ptr) {
      const key = wrap.call(this, ptr);
      objects.add(key);
      return key;
    };

    const check = (key, label) => {
      if (objects.has(key)) {
        if (key.__wbg_ptr !== 0) return;
        throw invalidArgument(label, 'was called on a key that was freed (free() was called on it)');
      }
      throw invalidArgument(label, `was called on ${describe(key)}, not on a ${name} made by this package`);
    };

    for (const member of Reflect.ownKeys(proto)) {
      if (member === 'constructor' || member === 'free' || member === '__destroy_into_raw' || member === Symbol.dispose) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, member);
      const label = `${name}.${String(member)}`;
      if (typeof descriptor.value === 'function') {
        const method = descriptor.value;
        descriptor.value = {
          [member](...args) {
            check(this, `${label}()`);
            return method.apply(this, args);
          },
        }[member];
      } else if (typeof descriptor.get === 'function') {
        const get = descriptor.get;
        descriptor.get = function guardedGetter() {
          check(this, label);
          return get.call(this);
        };
      } else {
        continue;
      }
      Object.defineProperty(proto, member, descriptor);
    }

    // free() of a key already freed (or of an object the glue did not make) does
    // nothing: the glue would pass pointer 0 to the wasm, which throws through its
    // frames. `using` calls it once more after an explicit free().
    const free = proto.free;
    proto.free = {
      free() {
        if (objects.has(this) && this.__wbg_ptr !== 0) free.call(this);
      },
    }.free;
    if (Symbol.dispose) proto[Symbol.dispose] = proto.free;
  }

  const signingKeys = made.get('SigningKey');
  const { SigningKey } = glue;
  function signingKeyArg(value) {
    if (signingKeys.has(value)) {
      if (value.__wbg_ptr !== 0) return;
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
        : `must be a SigningKey (SigningKey.fromPem()), not ${describe(value)}`,
    );
  }

  return { signingKeyArg };
}

export { cryptoFailure, installKeyGuards, signedRequest, verifiedCallback };
