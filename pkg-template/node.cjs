// payment-intake for Node (copied by scripts/build.mjs to pkg/node/index.js):
// the WebAssembly build (./payment_intake.js) with RSA done by node:crypto.
// The wasm still builds every message and makes every check (prepareRequest,
// __prepareCallback); this file adds only crypto.sign / crypto.verify with
// KeyObjects cached per key, and throws the wasm path's own errors.
// `backend: 'wasm'` runs the pure-WebAssembly RSA instead.
'use strict';

const crypto = require('node:crypto');
const wasm = require('./payment_intake.js');

/** SigningKey -> private KeyObject; VerifyingKey (or any key object) -> public KeyObject. */
const privateKeys = new WeakMap();
const publicKeys = new WeakMap();
/** PEM text -> public KeyObject, for keys given as strings (most recent last). */
const pemKeys = new Map();
const PEM_CACHE_SIZE = 16;

/** SigningKey -> the PEM it was read from: node:crypto reads it directly (no export from wasm). */
const sourcePems = new WeakMap();
const fromPem = wasm.SigningKey.fromPem;
wasm.SigningKey.fromPem = function fromPemRemembered(pem) {
  const key = fromPem.call(this, pem);
  sourcePems.set(key, pem);
  return key;
};

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

function publicKeyObject(input) {
  if (typeof input === 'string') {
    let key = pemKeys.get(input);
    if (key === undefined) {
      key = crypto.createPublicKey({ key: input, format: 'pem' });
      if (pemKeys.size >= PEM_CACHE_SIZE) pemKeys.delete(pemKeys.keys().next().value);
      pemKeys.set(input, key);
    }
    return key;
  }
  let key = publicKeys.get(input);
  if (key === undefined) {
    key = crypto.createPublicKey({ key: input.publicKeyPem(), format: 'pem' });
    publicKeys.set(input, key);
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

/** An error shaped like the ones the wasm throws. */
function packageError(code, message) {
  const error = new Error(message);
  error.name = 'PaymentIntakeError';
  error.code = code;
  return error;
}

/**
 * Splits `backend` off an options object: `[backend, rest]`. Anything that is not a
 * plain options object, or a backend value we do not know, goes to the wasm as
 * given, so that it reports the problem exactly as the wasm path does.
 */
function splitBackend(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options) || !('backend' in options)) {
    return [undefined, options];
  }
  const { backend, ...rest } = options;
  if (backend === undefined) return [undefined, rest];
  if (backend !== 'native' && backend !== 'wasm') return ['wasm', options];
  return [backend, rest];
}

function base64url(bytes, padding) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
  return padding ? text + '='.repeat((4 - (text.length % 4)) % 4) : text;
}

function signedRequest(prepared, signature) {
  const h = prepared.headers;
  return {
    body: prepared.body,
    headers: {
      'x-access-timestamp': h['x-access-timestamp'],
      'x-access-merchant-id': h['x-access-merchant-id'],
      'x-access-signature': base64url(signature, prepared.padding),
      'x-access-token': h['x-access-token'],
    },
  };
}

function signRequest(body, signingKey, options) {
  const [backend, rest] = splitBackend(options);
  if (backend === 'wasm') return wasm.signRequest(body, signingKey, rest);
  const prepared = wasm.prepareRequest(body, signingKey, rest);
  let signature;
  try {
    signature = crypto.sign('sha256', Buffer.from(prepared.message, 'utf8'), privateKeyObject(signingKey));
  } catch (cause) {
    throw packageError('CRYPTO_FAILURE', `RSA operation failed: ${cause.message}`);
  }
  return signedRequest(prepared, signature);
}

/** Everything of verifyCallback but the RSA check: `{ message, signature, keyIndex, callback, callbackError }`. */
function prepareCallback(rawBody, headers, keys, options) {
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, splitBackend(options)[1]);
  const ok = typeof result === 'string';
  return { message, signature, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : result };
}

function keyAt(keys, index) {
  return Array.isArray(keys) ? keys[index] : keys;
}

function verifyCallback(rawBody, headers, keys, options) {
  const [backend, rest] = splitBackend(options);
  if (backend === 'wasm') return wasm.verifyCallback(rawBody, headers, keys, rest);
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, rest);
  const key = publicKeyObject(keyAt(keys, keyIndex));
  if (!crypto.verify('sha256', Buffer.from(message, 'utf8'), key, signature)) throw wasm.__signatureMismatch();
  if (typeof result !== 'string') throw result;
  return JSON.parse(result);
}

/** `signRequest`, with the RSA operation on libuv's thread pool (node:crypto's callback form). */
async function signRequestAsync(body, signingKey, options) {
  const [backend, rest] = splitBackend(options);
  if (backend === 'wasm') return wasm.signRequest(body, signingKey, rest);
  const prepared = wasm.prepareRequest(body, signingKey, rest);
  const key = privateKeyObject(signingKey);
  const signature = await new Promise((resolve, reject) => {
    crypto.sign('sha256', Buffer.from(prepared.message, 'utf8'), key, (error, bytes) =>
      error ? reject(packageError('CRYPTO_FAILURE', `RSA operation failed: ${error.message}`)) : resolve(bytes),
    );
  });
  return signedRequest(prepared, signature);
}

/** `verifyCallback`, with the RSA check on libuv's thread pool. */
async function verifyCallbackAsync(rawBody, headers, keys, options) {
  const [backend, rest] = splitBackend(options);
  if (backend === 'wasm') return wasm.verifyCallback(rawBody, headers, keys, rest);
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, rest);
  const key = publicKeyObject(keyAt(keys, keyIndex));
  const ok = await new Promise((resolve, reject) => {
    crypto.verify('sha256', Buffer.from(message, 'utf8'), key, signature, (error, verified) =>
      error ? reject(packageError('CRYPTO_FAILURE', `RSA operation failed: ${error.message}`)) : resolve(verified),
    );
  });
  if (!ok) throw wasm.__signatureMismatch();
  if (typeof result !== 'string') throw result;
  return JSON.parse(result);
}

const publicWasm = Object.fromEntries(Object.entries(wasm).filter(([name]) => !name.startsWith('__')));

function canonicalMessage(body, timestamp, options) {
  return wasm.canonicalMessage(asBytes(body), timestamp, options);
}

module.exports = {
  ...publicWasm,
  canonicalMessage,
  signRequest,
  verifyCallback,
  signRequestAsync,
  verifyCallbackAsync,
  prepareCallback,
};
