// The RSA provider of the Node entries (node.cjs, node.mjs; bundled with them by
// scripts/build.mjs): node:crypto, sync and on libuv's thread pool, with Buffer doing the text
// conversions it does faster than the wasm-bindgen glue. pkg-template/core.mjs says what a
// provider has.
import crypto from 'node:crypto';

/**
 * The platform's `String.prototype.isWellFormed` (Node 20 and later), read once as this module
 * loads: a caller's replacement, run between `utf8Into` and the wasm call that reads the text,
 * could call the package again and have its own text written over ours (or declare text with a
 * lone surrogate well-formed).
 */
const isWellFormedOf = String.prototype.isWellFormed;
const { apply } = Reflect;
const wellFormed = (text) => apply(isWellFormedOf, text, []);

/** Text up to `maxLength` UTF-16 units without a lone surrogate (see `bytes`). */
function encodes(body, maxLength) {
  return fits(body, maxLength) && wellFormed(body);
}

/** Text of 129 to `maxLength` UTF-16 units, where `isWellFormed` can tell a lone surrogate. */
function fits(body, maxLength) {
  return typeof body === 'string' && body.length > 128 && body.length <= maxLength && typeof isWellFormedOf === 'function';
}

/**
 * Option objects for node:crypto without a prototype: node:crypto reads options by plain
 * property access, so a member inherited from `Object.prototype` (`padding`, `saltLength`,
 * `dsaEncoding`, `passphrase`, `encoding`…, set by a polluted dependency) would change or
 * fail every operation. A key is passed inside such an object, never alone: node:crypto
 * reads `key.padding` of a bare KeyObject through its prototype chain too. The native key
 * this provider gives the core is that object, made once per key and frozen (made per call,
 * it cost about 1 % of a callback's verification).
 */
const PKCS1 = crypto.constants.RSA_PKCS1_PADDING;
const nativeKey = (key) => Object.freeze({ __proto__: null, key, padding: PKCS1 });
const pem = (key) => ({ __proto__: null, key, format: 'pem' });
const JWK = Object.freeze({ __proto__: null, format: 'jwk' });

export default {
  sync: true,
  available: () => true,
  // node:crypto reads the private key from the PEM it was read from (no export from the wasm).
  keepsSourcePem: true,

  privateKey(signingKey, sourcePem, publicJwk) {
    if (sourcePem !== undefined) {
      try {
        // The wasm accepted this PEM (PKCS#8 or PKCS#1, unencrypted), so OpenSSL reads it
        // too; that it read the same key is checked on the public half, its modulus and
        // exponent as JWK members (`publicJwk()`: the wasm's, `n.e`). A JWK export is
        // cheaper than OpenSSL's SubjectPublicKeyInfo encoder on a cold start.
        const key = crypto.createPrivateKey(pem(sourcePem));
        const { n, e } = crypto.createPublicKey(pem(key)).export(JWK);
        if (typeof n === 'string' && typeof e === 'string' && `${n}.${e}` === publicJwk()) return nativeKey(key);
      } catch {
        // read again from the wasm's own export below
      }
    }
    return nativeKey(crypto.createPrivateKey(pem(signingKey.privateKeyPem())));
  },

  /** OpenSSL reads the SubjectPublicKeyInfo PEM the wasm writes: both use the same key. */
  publicKey: (spkiPem) => nativeKey(crypto.createPublicKey(pem(spkiPem))),

  // `data` is the bytes RSA-SHA256 signs, as the wasm gives them: the message, or its digest.
  sign: (data, key) => crypto.sign('sha256', data, key),
  verify: (data, signature, key) => crypto.verify('sha256', data, key, signature),

  signAsync: (data, key) =>
    new Promise((resolve, reject) => {
      crypto.sign('sha256', data, key, (error, bytes) => (error ? reject(error) : resolve(bytes)));
    }),
  verifyAsync: (data, signature, key) =>
    new Promise((resolve, reject) => {
      crypto.verify('sha256', data, key, signature, (error, ok) => (error ? reject(error) : resolve(ok)));
    }),

  base64url(bytes, padding) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
    return padding ? text + '='.repeat((4 - (text.length % 4)) % 4) : text;
  },

  /**
   * JSON text up to `maxLength` UTF-16 units as UTF-8 bytes: Buffer.from encodes in C++,
   * cheaper than the wasm-bindgen string copy. Text with a lone surrogate stays a string,
   * so the wasm reports it exactly as before.
   */
  bytes: (body, maxLength) => (encodes(body, maxLength) ? Buffer.from(body, 'utf8') : body),

  /** Whether `body` is text `utf8Into` may write (then `wroteWellFormed` says if it is to be read). */
  fits,

  /** The message's ASCII bytes as a string: latin1 decoding is cheaper than TextDecoder. */
  ascii: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'),

  /** A view of the wasm's memory (an `ArrayBuffer`), for `utf8Into` and `asciiAt`. */
  view: (buffer) => Buffer.from(buffer),

  /** Writes `text` as UTF-8 into `view` from `at`, at most `capacity` bytes: how many it wrote. */
  utf8Into: (text, view, at, capacity) => view.write(text, at, capacity, 'utf8'),

  /**
   * Whether `text`, which `utf8Into` wrote as `view`'s `written` bytes from `at`, holds no lone
   * surrogate: those are written as U+FFFD (EF BF BD), so bytes without an EF came from
   * well-formed text. Long text is checked that way (a memchr: 3 µs for a 60 KB body where
   * `isWellFormed` of a two-byte string takes 18); short text, or bytes with an EF, by `isWellFormed`.
   */
  wroteWellFormed: (text, view, at, written) => (written >= 4096 && view.subarray(at, at + written).indexOf(0xef) === -1) || wellFormed(text),

  /** `ascii` of `view`'s bytes from `start` to `end`, read in place. */
  asciiAt: (view, start, end) => view.toString('latin1', start, end),
};
