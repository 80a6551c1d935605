// A port of the signing rules of the service's public JavaScript client,
// written against node:crypto only (no code from this library), so tests can
// check that we accept what that client sends. Its rules ("public js client"
// in tests/vectors/dialects.json):
// - flatten to `path:value` with String(value) for every leaf; only null is
//   written 'None' (false, 0 and '' are written as String gives them);
// - Array.prototype.sort(), i.e. UTF-16 code unit order; join with ';';
// - UTF-8, base64url without '=' padding, then the timestamp;
// - signature: crypto.sign('RSA-SHA256', sha256(message), key), so the RSA
//   PKCS#1 v1.5 input is SHA-256 of the SHA-256 digest ("double" digest);
// - token: the SPKI DER bytes of the public key, base64url.
// Padding, as the shared vectors have it: neither the signature nor the token
// carries '='. For 2048-bit keys that is invisible in the token (SPKI DER is
// 294 bytes, a multiple of 3) but the signature (256 bytes) loses '==';
// 4096-bit keys lose '=' on the signature and '==' on the token (550 bytes).
// Node's 'base64url' encoding never pads, which is what we use.
import crypto from 'node:crypto';

function flatten(value, path, out) {
  if (value !== null && typeof value === 'object') {
    if (Array.isArray(value)) {
      // JSON.stringify writes undefined array items as null; follow the body sent.
      value.forEach((child, index) => flatten(child === undefined ? null : child, join(path, String(index)), out));
    } else {
      for (const [key, child] of Object.entries(value)) {
        if (child !== undefined) flatten(child, join(path, key), out);
      }
    }
    return;
  }
  out.push(`${path}:${value === null ? 'None' : String(value)}`);
}

function join(path, segment) {
  return path === '' ? segment : `${path}:${segment}`;
}

/** The sorted `path:value` entries the client signs. */
export function entriesLikeJsClient(bodyObject) {
  const entries = [];
  flatten(bodyObject ?? {}, '', entries);
  return entries.sort();
}

/** The signed message: base64url (no padding) of the joined entries, then the timestamp. */
export function messageLikeJsClient(bodyObject, timestamp) {
  const joined = entriesLikeJsClient(bodyObject).join(';');
  return Buffer.from(joined, 'utf8').toString('base64url') + String(timestamp);
}

/** The body text and the four headers the client sends. */
export function signLikeJsClient(bodyObject, privateKeyPem, merchantId, timestamp) {
  const privateKey = crypto.createPrivateKey(privateKeyPem);
  const message = messageLikeJsClient(bodyObject, timestamp);
  const digest = crypto.createHash('sha256').update(message, 'utf8').digest();
  const signature = crypto.sign('RSA-SHA256', digest, privateKey);
  const token = crypto.createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return {
    body: JSON.stringify(bodyObject),
    headers: {
      'x-access-timestamp': String(timestamp),
      'x-access-merchant-id': merchantId,
      'x-access-signature': signature.toString('base64url'),
      'x-access-token': token.toString('base64url'),
    },
  };
}
