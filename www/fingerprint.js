// Key fingerprints: SHA-256 of the key's SubjectPublicKeyInfo DER, as lowercase hex (the
// `openssl pkey -pubin -outform DER | sha256sum` of the PEM). The package reads the key,
// so a PKCS#1 PEM gets the fingerprint of the same key as SPKI; WebCrypto hashes.
import { VerifyingKey } from '../pkg/web/index.js';

const base64Bytes = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Hex SHA-256 of the SPKI DER of an SPKI PEM. */
async function spkiFingerprint(spkiPem) {
  const der = base64Bytes(spkiPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', der));
  return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The fingerprint of a public key PEM (SPKI or PKCS#1), or null when it is no key. */
export async function keyFingerprint(pem) {
  let key;
  try {
    key = VerifyingKey.fromPem(pem);
    return await spkiFingerprint(key.publicKeyPem());
  } catch {
    return null;
  } finally {
    key?.free();
  }
}

/**
 * The fingerprint of the key an `x-access-token` carries (base64url of the PEM text, or of
 * the DER with the `der` token rule), or null when it carries no key the package reads.
 */
export async function tokenFingerprint(token) {
  let bytes;
  try {
    bytes = base64Bytes(token.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
  } catch {
    return null;
  }
  const text = new TextDecoder().decode(bytes);
  if (text.startsWith('-----BEGIN')) return keyFingerprint(text);
  const base64 = btoa(String.fromCharCode(...bytes)).replace(/.{64}/g, '$&\n');
  return keyFingerprint(`-----BEGIN PUBLIC KEY-----\n${base64}\n-----END PUBLIC KEY-----\n`);
}

/** A fingerprint grouped for reading: `SHA-256 ab12cd34 …`. */
export const fingerprintText = (hex) => `SHA-256 ${hex.match(/.{8}/g).join(' ')}`;
