// The RSA provider of the web entry (web.mjs; bundled with it by scripts/build.mjs):
// WebCrypto, async only (the sync functions run the pure-wasm RSA), where `crypto.subtle`
// exists (a secure context). pkg-template/core.mjs says what a provider has.

// Without a prototype: WebCrypto reads its dictionaries' members through the prototype
// chain, so one inherited from a polluted `Object.prototype` must not be there to read.
const ALGORITHM = Object.freeze({ __proto__: null, name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' });
const subtle = () => globalThis.crypto?.subtle;

/** The DER bytes of a PEM block. */
function pemBody(pem) {
  const base64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

export default {
  sync: false,
  available: () => subtle() !== undefined,
  keepsSourcePem: false,
  privateKey: (signingKey) => subtle().importKey('pkcs8', pemBody(signingKey.privateKeyPem()), ALGORITHM, false, ['sign']),
  publicKey: (spkiPem) => subtle().importKey('spki', pemBody(spkiPem), ALGORITHM, false, ['verify']),
  // `data` is the bytes RSA-SHA256 signs, as the wasm gives them: the message, or its digest.
  async signAsync(data, key) {
    return new Uint8Array(await subtle().sign(ALGORITHM, await key, data));
  },
  async verifyAsync(data, signature, key) {
    return subtle().verify(ALGORITHM, await key, signature, data);
  },
  base64url(bytes, padding) {
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    const text = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
    return padding ? text : text.replace(/=+$/, '');
  },
  bytes: (body) => body,
  ascii: undefined,
};
