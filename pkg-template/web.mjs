// payment-intake for browsers and edge runtimes (copied by scripts/build.mjs to
// pkg/web/index.js): the WebAssembly build (./payment_intake.js, `init()` as
// default export) plus `signRequestAsync` / `verifyCallbackAsync`, whose RSA
// runs in WebCrypto with the imported CryptoKeys cached per key. The wasm
// reads every argument (the `backend` option too), builds every message and
// makes every check; the sync functions are the pure-WebAssembly path.
// ./key-guard.js (pkg-template/key-guard.mjs) makes freed and wrong-type keys
// throw INVALID_ARGUMENT before the wasm is entered (signRequest and
// prepareRequest are re-exported here with that check).
import init, * as wasm from './payment_intake.js';
import { cryptoFailure, installKeyGuards, signedRequest, verifiedCallback } from './key-guard.js';

export * from './payment_intake.js';
export default init;

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const encoder = new TextEncoder();
/** SigningKey -> Promise<CryptoKey>; VerifyingKey -> Promise<CryptoKey>; other keys' PEM text -> Promise<CryptoKey> (most recent last). */
const privateKeys = new WeakMap();
const publicKeysByObject = new WeakMap();
const publicKeys = new Map();
const PUBLIC_CACHE_SIZE = 16;

const subtle = () => globalThis.crypto?.subtle;

// Freed and wrong-type keys throw INVALID_ARGUMENT before the wasm is entered (./key-guard.js).
const { signingKeyArg } = installKeyGuards(wasm);

/** The DER bytes of a PEM block. */
function pemBody(pem) {
  const base64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function privateCryptoKey(signingKey) {
  let key = privateKeys.get(signingKey);
  if (key === undefined) {
    key = subtle().importKey('pkcs8', pemBody(signingKey.privateKeyPem()), ALGORITHM, false, ['sign']);
    privateKeys.set(signingKey, key);
  }
  return key;
}

/**
 * The CryptoKey of the configured key the wasm chose (`keys` is one key or an
 * array, each a VerifyingKey, a PEM string or an object with publicKeyPem(), as
 * the wasm already accepted), imported from the SubjectPublicKeyInfo the wasm
 * writes. Kept per VerifyingKey (its PEM never changes), otherwise per PEM text.
 */
function publicCryptoKey(keys, keyIndex) {
  const chosen = Array.isArray(keys) ? keys[keyIndex] : keys;
  const byObject = chosen instanceof wasm.VerifyingKey;
  const cacheKey = byObject || typeof chosen === 'string' ? chosen : chosen.publicKeyPem();
  const cache = byObject ? publicKeysByObject : publicKeys;
  let key = cache.get(cacheKey);
  if (key === undefined) {
    let spkiPem;
    if (byObject) {
      spkiPem = chosen.publicKeyPem();
    } else {
      const verifyingKey = wasm.VerifyingKey.fromPem(cacheKey);
      try {
        spkiPem = verifyingKey.publicKeyPem();
      } finally {
        verifyingKey.free();
      }
      if (publicKeys.size >= PUBLIC_CACHE_SIZE) publicKeys.delete(publicKeys.keys().next().value);
    }
    key = subtle().importKey('spki', pemBody(spkiPem), ALGORITHM, false, ['verify']);
    cache.set(cacheKey, key);
  }
  return key;
}

function base64url(bytes, padding) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const text = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
  return padding ? text : text.replace(/=+$/, '');
}

async function rsa(operation) {
  try {
    return await operation();
  } catch (cause) {
    throw cryptoFailure(cause);
  }
}

/**
 * Everything of verifyCallback but the RSA check: `{ message, signature, keyIndex,
 * callback, callbackError }` (the `backend` option changes nothing here).
 */
export function prepareCallback(rawBody, headers, keys, options) {
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, options, 2);
  const ok = typeof result === 'string';
  return { message, signature, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : result };
}

/**
 * `signRequest` with the RSA signature made by WebCrypto; the pure-wasm one where
 * there is no WebCrypto or with `backend: 'wasm'`. The wasm reads the options.
 */
export async function signRequestAsync(body, signingKey, options) {
  signingKeyArg(signingKey);
  const [signed, prepared] = wasm.__signRequest(body, signingKey, options, subtle() !== undefined);
  if (signed !== undefined) return signed;
  const key = privateCryptoKey(signingKey);
  const signature = await rsa(async () =>
    new Uint8Array(await subtle().sign(ALGORITHM, await key, encoder.encode(prepared.message))),
  );
  return signedRequest(prepared, base64url(signature, prepared.padding));
}

/** `verifyCallback` with the RSA check made by WebCrypto (pure wasm where there is none, or with `backend: 'wasm'`). */
export async function verifyCallbackAsync(rawBody, headers, keys, options) {
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, options, subtle() === undefined ? 0 : 1);
  if (message !== undefined) {
    const key = publicCryptoKey(keys, keyIndex);
    const ok = await rsa(async () => subtle().verify(ALGORITHM, await key, signature, message));
    if (!ok) throw wasm.__signatureMismatch();
  }
  return verifiedCallback(wasm, result, rawBody, headers, keyIndex, options);
}

// The sync functions that take a SigningKey, as the wasm exports them but with the key
// checked first (these names shadow the `export *` above).

/** `signRequest` in pure WebAssembly (the wasm's own), its key checked first. */
export function signRequest(body, signingKey, options) {
  signingKeyArg(signingKey);
  return wasm.signRequest(body, signingKey, options);
}

/** `prepareRequest` (the wasm's own), its key checked first. */
export function prepareRequest(body, signingKey, options) {
  signingKeyArg(signingKey);
  return wasm.prepareRequest(body, signingKey, options);
}
