// payment-intake for Node (copied by scripts/build.mjs to pkg/node/index.js):
// the WebAssembly build (./payment_intake.js) with RSA done by node:crypto.
// The wasm still reads every argument, builds every message and makes every
// check (__signRequest, __prepareCallback), the `backend` option included;
// this file adds only crypto.sign / crypto.verify with KeyObjects cached per
// key, and throws the wasm path's own errors. It never reads the options.
// ./key-guard.js (pkg-template/key-guard.mjs) makes freed and wrong-type keys
// throw INVALID_ARGUMENT before the wasm is entered.
'use strict';

const crypto = require('node:crypto');
const wasm = require('./payment_intake.js');
const { cryptoFailure, installKeyGuards, signedRequest, verifiedCallback } = require('./key-guard.js');

/** SigningKey -> private KeyObject. */
const privateKeys = new WeakMap();
/** VerifyingKey -> public KeyObject; other keys' PEM text -> public KeyObject (most recent last). */
const publicKeysByObject = new WeakMap();
const publicKeys = new Map();
const PUBLIC_CACHE_SIZE = 16;

/** SigningKey -> the PEM it was read from: node:crypto reads it directly (no export from wasm). */
const sourcePems = new WeakMap();
const fromPem = wasm.SigningKey.fromPem;
wasm.SigningKey.fromPem = function fromPemRemembered(pem) {
  const key = fromPem.call(this, pem);
  sourcePems.set(key, pem);
  return key;
};

// free() (and `using`) also drops what this file keeps for the key.
const free = wasm.SigningKey.prototype.free;
wasm.SigningKey.prototype.free = function freeWithKeyObject() {
  privateKeys.delete(this);
  sourcePems.delete(this);
  return free.call(this);
};
if (Symbol.dispose) wasm.SigningKey.prototype[Symbol.dispose] = wasm.SigningKey.prototype.free;

// Freed and wrong-type keys throw INVALID_ARGUMENT before the wasm is entered (./key-guard.js);
// installed after the free() above, so that its free() of a freed key does nothing.
const { signingKeyArg } = installKeyGuards(wasm);

function privateKeyObject(signingKey) {
  let key = privateKeys.get(signingKey);
  if (key === undefined) {
    const pem = sourcePems.get(signingKey);
    try {
      // The wasm accepted this PEM (PKCS#8 or PKCS#1, unencrypted), so OpenSSL reads it
      // too; that it read the same key is checked on the public half.
      key = crypto.createPrivateKey({ key: pem, format: 'pem' });
      const spki = crypto.createPublicKey(key).export({ type: 'spki', format: 'pem' });
      if (spki !== signingKey.publicKeyPem()) key = undefined;
    } catch {
      key = undefined;
    }
    key ??= crypto.createPrivateKey({ key: signingKey.privateKeyPem(), format: 'pem' });
    privateKeys.set(signingKey, key);
  }
  return key;
}

/**
 * The KeyObject of the configured key the wasm chose (`keys` is one key or an
 * array, each a VerifyingKey, a PEM string or an object with publicKeyPem(), as
 * the wasm already accepted). A VerifyingKey's PEM never changes, so its KeyObject
 * is kept per key; any other is kept per PEM text (read again, as the wasm did).
 * OpenSSL reads the SubjectPublicKeyInfo PEM the wasm writes: both use the same key.
 */
function publicKeyObject(keys, keyIndex) {
  const chosen = Array.isArray(keys) ? keys[keyIndex] : keys;
  if (chosen instanceof wasm.VerifyingKey) {
    let key = publicKeysByObject.get(chosen);
    if (key === undefined) {
      key = crypto.createPublicKey({ key: chosen.publicKeyPem(), format: 'pem' });
      publicKeysByObject.set(chosen, key);
    }
    return key;
  }
  const pem = typeof chosen === 'string' ? chosen : chosen.publicKeyPem();
  let key = publicKeys.get(pem);
  if (key === undefined) {
    const verifyingKey = wasm.VerifyingKey.fromPem(pem);
    try {
      key = crypto.createPublicKey({ key: verifyingKey.publicKeyPem(), format: 'pem' });
    } finally {
      verifyingKey.free();
    }
    if (publicKeys.size >= PUBLIC_CACHE_SIZE) publicKeys.delete(publicKeys.keys().next().value);
    publicKeys.set(pem, key);
  }
  return key;
}

/**
 * Short JSON text as UTF-8 bytes: Buffer.from (pooled up to 4 KB) encodes in C++,
 * cheaper than the wasm-bindgen string copy. Text with a lone surrogate
 * stays a string, so the wasm reports it exactly as before.
 */
function asBytes(body) {
  return typeof body === 'string' && body.length > 128 && body.length <= 4096 && typeof body.isWellFormed === 'function' && body.isWellFormed()
    ? Buffer.from(body, 'utf8')
    : body;
}


function base64url(bytes, padding) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
  return padding ? text + '='.repeat((4 - (text.length % 4)) % 4) : text;
}


// The canonical message is base64url and digits: ASCII, so latin1 gives its UTF-8
// bytes without a UTF-8 scan.

function signRequest(body, signingKey, options) {
  signingKeyArg(signingKey);
  const [signed, prepared] = wasm.__signRequest(body, signingKey, options, true);
  if (signed !== undefined) return signed;
  let signature;
  try {
    signature = crypto.sign('sha256', Buffer.from(prepared.message, 'latin1'), privateKeyObject(signingKey));
  } catch (cause) {
    throw cryptoFailure(cause);
  }
  return signedRequest(prepared, base64url(signature, prepared.padding));
}

/**
 * Everything of verifyCallback but the RSA check: `{ message, signature, keyIndex,
 * callback, callbackError }` (the `backend` option changes nothing here).
 */
function prepareCallback(rawBody, headers, keys, options) {
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, options, 2);
  const ok = typeof result === 'string';
  return { message, signature, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : result };
}

function verifyCallback(rawBody, headers, keys, options) {
  const body = asBytes(rawBody);
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(body, headers, keys, options, 1);
  if (message !== undefined) {
    let ok;
    try {
      ok = crypto.verify('sha256', message, publicKeyObject(keys, keyIndex), signature);
    } catch (cause) {
      throw cryptoFailure(cause);
    }
    if (!ok) throw wasm.__signatureMismatch();
  }
  return verifiedCallback(wasm, result, body, headers, keyIndex, options);
}

/** `signRequest`, with the RSA operation on libuv's thread pool (node:crypto's callback form). */
async function signRequestAsync(body, signingKey, options) {
  signingKeyArg(signingKey);
  const [signed, prepared] = wasm.__signRequest(body, signingKey, options, true);
  if (signed !== undefined) return signed;
  const key = privateKeyObject(signingKey);
  const signature = await new Promise((resolve, reject) => {
    crypto.sign('sha256', Buffer.from(prepared.message, 'latin1'), key, (error, bytes) =>
      error ? reject(cryptoFailure(error)) : resolve(bytes),
    );
  });
  return signedRequest(prepared, base64url(signature, prepared.padding));
}

/** `verifyCallback`, with the RSA check on libuv's thread pool. */
async function verifyCallbackAsync(rawBody, headers, keys, options) {
  const body = asBytes(rawBody);
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(body, headers, keys, options, 1);
  if (message !== undefined) {
    const key = publicKeyObject(keys, keyIndex);
    const ok = await new Promise((resolve, reject) => {
      crypto.verify('sha256', message, key, signature, (error, verified) =>
        error ? reject(cryptoFailure(error)) : resolve(verified),
      );
    });
    if (!ok) throw wasm.__signatureMismatch();
  }
  return verifiedCallback(wasm, result, body, headers, keyIndex, options);
}

/** The message's ASCII bytes as a string: latin1 decoding is cheaper than TextDecoder. */
function asciiText(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function canonicalMessage(body, timestamp, options) {
  // JSON text with default options goes straight to the one-pass reader (as UTF-8, which
  // would replace a lone surrogate: hence isWellFormed); an empty answer means the full
  // path decides, with its error if any.
  if (options === undefined && typeof body === 'string' && typeof timestamp === 'string' && body.length <= 1 << 20 && body.isWellFormed?.()) {
    const bytes = wasm.__canonicalMessageOfText(Buffer.from(body, 'utf8'), timestamp);
    if (bytes.length > 0) return asciiText(bytes);
  }
  return asciiText(wasm.__canonicalMessageBytes(asBytes(body), timestamp, options));
}

function validateRequest(operation, body) {
  return wasm.validateRequest(operation, asBytes(body));
}

/** The wasm's `prepareRequest`, its key checked first (see signingKeyArg). */
function prepareRequest(body, signingKey, options) {
  signingKeyArg(signingKey);
  return wasm.prepareRequest(body, signingKey, options);
}

const publicWasm = Object.fromEntries(Object.entries(wasm).filter(([name]) => !name.startsWith('__')));

module.exports = {
  ...publicWasm,
  canonicalMessage,
  validateRequest,
  signRequest,
  verifyCallback,
  signRequestAsync,
  verifyCallbackAsync,
  prepareCallback,
  prepareRequest,
};
