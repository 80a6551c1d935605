// payment-intake for browsers and edge runtimes (copied by scripts/build.mjs to
// pkg/web/index.js): the WebAssembly build (./payment_intake.js, `init()` as
// default export) plus `signRequestAsync` / `verifyCallbackAsync`, whose RSA
// runs in WebCrypto with the imported CryptoKeys cached per key. The wasm
// builds every message and makes every check; the sync functions are the
// pure-WebAssembly path. `backend: 'wasm'` forces it in the async ones too.
import init, * as wasm from './payment_intake.js';

export * from './payment_intake.js';
export default init;

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const encoder = new TextEncoder();
/** SigningKey -> Promise<CryptoKey>; key object -> Promise<CryptoKey>; PEM text -> Promise<CryptoKey>. */
const privateKeys = new WeakMap();
const publicKeys = new WeakMap();
const pemKeys = new Map();
const PEM_CACHE_SIZE = 16;

const subtle = () => globalThis.crypto?.subtle;

function packageError(code, message) {
  const error = new Error(message);
  error.name = 'PaymentIntakeError';
  error.code = code;
  return error;
}

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

/** A key given as PEM may be PKCS#1, which WebCrypto does not read: the wasm rewrites it as SPKI. */
function spkiOf(pem) {
  const key = wasm.VerifyingKey.fromPem(pem);
  try {
    return key.publicKeyPem();
  } finally {
    key.free();
  }
}

function publicCryptoKey(input) {
  const importSpki = (pem) => subtle().importKey('spki', pemBody(pem), ALGORITHM, false, ['verify']);
  if (typeof input === 'string') {
    let key = pemKeys.get(input);
    if (key === undefined) {
      key = importSpki(spkiOf(input));
      if (pemKeys.size >= PEM_CACHE_SIZE) pemKeys.delete(pemKeys.keys().next().value);
      pemKeys.set(input, key);
    }
    return key;
  }
  let key = publicKeys.get(input);
  if (key === undefined) {
    key = importSpki(input.publicKeyPem());
    publicKeys.set(input, key);
  }
  return key;
}

/** `[backend, rest]`; unknown values go to the wasm as given, which names the problem. */
function splitBackend(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options) || !('backend' in options)) {
    return [undefined, options];
  }
  const { backend, ...rest } = options;
  if (backend === undefined) return [undefined, rest];
  if (backend !== 'native' && backend !== 'wasm') return ['wasm', options];
  return [backend, rest];
}

/** Whether to use WebCrypto: by default when it is there; 'native' insists on it. */
function useNative(backend) {
  if (backend === 'wasm') return false;
  if (subtle()) return true;
  if (backend === 'native') {
    throw packageError('INVALID_OPTION', "Option 'backend' is 'native', but this runtime has no WebCrypto (crypto.subtle needs a secure context)");
  }
  return false;
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
    throw packageError('CRYPTO_FAILURE', `RSA operation failed: ${cause?.message ?? cause}`);
  }
}

/** Everything of verifyCallback but the RSA check: `{ message, signature, keyIndex, callback, callbackError }`. */
export function prepareCallback(rawBody, headers, keys, options) {
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, splitBackend(options)[1]);
  const ok = typeof result === 'string';
  return { message, signature, keyIndex, callback: ok ? JSON.parse(result) : null, callbackError: ok ? null : result };
}

/** `signRequest` with the RSA signature made by WebCrypto (pure wasm where there is none). */
export async function signRequestAsync(body, signingKey, options) {
  const [backend, rest] = splitBackend(options);
  if (!useNative(backend)) return wasm.signRequest(body, signingKey, rest);
  const prepared = wasm.prepareRequest(body, signingKey, rest);
  const key = privateCryptoKey(signingKey);
  const signature = await rsa(async () =>
    new Uint8Array(await subtle().sign(ALGORITHM, await key, encoder.encode(prepared.message))),
  );
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

/** `verifyCallback` with the RSA check made by WebCrypto (pure wasm where there is none). */
export async function verifyCallbackAsync(rawBody, headers, keys, options) {
  const [backend, rest] = splitBackend(options);
  if (!useNative(backend)) return wasm.verifyCallback(rawBody, headers, keys, rest);
  const [message, signature, keyIndex, result] = wasm.__prepareCallback(rawBody, headers, keys, rest);
  const key = publicCryptoKey(Array.isArray(keys) ? keys[keyIndex] : keys);
  const ok = await rsa(async () => subtle().verify(ALGORITHM, await key, signature, encoder.encode(message)));
  if (!ok) throw wasm.__signatureMismatch();
  if (typeof result !== 'string') throw result;
  return JSON.parse(result);
}
