// Who may call the sandbox: the merchant's signed requests, and the browser origins
// allowed to read its answers (CORS, for the debugger page).
//
// A request is checked with the package's own verifyCallbackAsync against the
// merchant's public key: the spec builds and signs the message the same way in both
// directions, and the verifier checks the headers, the merchant id, the token and the
// signature before it reads the body's shape. So once it gets that far, its
// INVALID_CALLBACK and AMBIGUOUS_CALLBACK say only that a request is not a callback:
// the signature was good.

import crypto from 'node:crypto';

/** Codes verifyCallback throws only after the signature checked (with `verified: true`). */
const SIGNED_BUT_NOT_A_CALLBACK = new Set(['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK']);
/** Codes of a body that cannot be read at all, thrown before any signature check. */
const UNREADABLE_BODY = new Set(['INVALID_JSON', 'BODY_NOT_OBJECT', 'BODY_TOO_DEEP', 'DUPLICATE_KEY', 'INVALID_NUMBER', 'INVALID_BODY']);
/** Requests may be larger than callbacks; the sandbox reads bodies up to this. */
export const MAX_BODY_BYTES = 1 << 20;
/** How far x-access-timestamp may be from the sandbox's clock, in seconds, unless told otherwise. */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/** `sha256:` and the hex SHA-256 of a public key's SPKI DER (what `openssl pkey -pubin -outform DER | sha256sum` prints). */
export function fingerprint(key) {
  return `sha256:${crypto.createHash('sha256').update(key.export({ type: 'spki', format: 'der' })).digest('hex')}`;
}

/** The fingerprint of the key an x-access-token carries (PEM or DER, SPKI or PKCS#1), or null. */
function tokenFingerprint(token) {
  if (typeof token !== 'string' || token === '') return null;
  const bytes = Buffer.from(token, 'base64url');
  const text = bytes.toString('latin1');
  const tries = text.includes('-----BEGIN') ? [text] : [{ key: bytes, format: 'der', type: 'spki' }, { key: bytes, format: 'der', type: 'pkcs1' }];
  for (const input of tries) {
    try {
      return fingerprint(crypto.createPublicKey(input));
    } catch {
      // Not this layout.
    }
  }
  return null;
}

/** At most 80 characters of a header the request sent, for a message. */
const shown = (value) => String(value ?? '').slice(0, 80);

/**
 * The verifier's error, worded for the request the sandbox refused: the verifier speaks
 * to a callback receiver ("this callback", "the merchant admin panel"), the sandbox to the
 * merchant who signed a request. `{ status, description, error }`.
 */
function refusal(error, { headers, merchantId, merchantKeyFingerprint, profile }) {
  const refuse = (description, message, hint) => ({ status: 401, description, error: { code: error.code, message, hint } });
  const startWith = "startSandbox({ merchantKey }) or 'payment-intake sandbox --merchant-key merchant-public.pem'";
  switch (error.code) {
    case 'MERCHANT_ID_MISMATCH': {
      const sent = shown(headers['x-access-merchant-id']);
      return refuse(
        `Invalid merchant id: this sandbox serves the merchant '${merchantId}', not '${sent}'`,
        `the request carries x-access-merchant-id '${sent}'; the merchant registered in this sandbox is '${merchantId}'`,
        `sign with { merchantId: '${merchantId}' }, or start the sandbox with your id: startSandbox({ merchantId }) or 'payment-intake sandbox --merchant-id ID'`,
      );
    }
    case 'INVALID_PUBLIC_KEY': {
      const carried = tokenFingerprint(headers['x-access-token']);
      const sent = carried ? `x-access-token carries the public key ${carried}` : 'x-access-token carries no public key the sandbox can read';
      return refuse(
        'Invalid public key',
        `${sent}; the public key registered for the merchant '${merchantId}' in this sandbox is ${merchantKeyFingerprint}`,
        `sign with the private key of that public key, or start the sandbox with your merchant's public key: ${startWith} (a key's fingerprint: openssl pkey -pubin -in merchant-public.pem -outform DER | sha256sum)`,
      );
    }
    case 'INVALID_SIGNATURE':
      return refuse(
        'Invalid signature',
        `the signature does not verify for this body and x-access-timestamp with the merchant's public key ${merchantKeyFingerprint} (profile '${profile}')`,
        'send the body byte for byte as it was signed (do not serialize it again after signRequest), with the x-access-timestamp signed with it',
      );
    case 'MISSING_HEADER':
      return refuse(
        /x-access-signature/.test(error.message) ? 'Invalid signature' : 'Invalid public key',
        `${error.message}: the sandbox, like the service, needs all four x-access-* headers`,
        `send every header signRequest(body, key, { merchantId: '${merchantId}' }) returns`,
      );
    default: {
      // INVALID_TIMESTAMP and the like: the verifier's words hold for a request; a hint
      // that speaks of callbacks or the admin panel does not.
      const hint = typeof error.hint === 'string' && !/callback|admin panel/i.test(error.hint) ? error.hint : null;
      return refuse(/x-access-signature/.test(error.message) ? 'Invalid signature' : 'Invalid public key', error.message, hint);
    }
  }
}

/**
 * The x-access-timestamp rule: a request whose timestamp is more than `tolerance` seconds
 * from the sandbox's clock is refused (401, TIMESTAMP_OUT_OF_TOLERANCE), as the service
 * would; with `tolerance` Infinity it is served with a warning past the usual 300 seconds.
 * Resolves to `{ refused }`, `{ warning }` or `{}`.
 */
function checkTimestamp(headers, tolerance, nowSeconds) {
  const timestamp = Number(headers['x-access-timestamp']);
  const skew = timestamp - nowSeconds;
  const limit = Number.isFinite(tolerance) ? tolerance : TIMESTAMP_TOLERANCE_SECONDS;
  if (!(Math.abs(skew) > limit)) return {};
  const off = `${Math.abs(skew)} seconds ${skew < 0 ? 'behind' : 'ahead of'} the sandbox's clock`;
  const message = `x-access-timestamp ${timestamp} is ${off} (${new Date(nowSeconds * 1000).toISOString()}); the sandbox, like the service, refuses a request more than ${limit} seconds off`;
  if (!Number.isFinite(tolerance)) return { warning: { code: 'TIMESTAMP_SKEW', message: `${message}: served anyway (timestampToleranceSeconds is off)`, skewSeconds: skew } };
  return {
    refused: {
      status: 401,
      description: `Invalid timestamp: x-access-timestamp is ${off} (tolerance ${limit} seconds)`,
      error: {
        code: 'TIMESTAMP_OUT_OF_TOLERANCE',
        message,
        hint: "set the signing machine's clock right (NTP), and sign each request just before it is sent (signRequest takes the time of the call); startSandbox({ timestampToleranceSeconds: false }) serves it with a warning",
        skewSeconds: skew,
        toleranceSeconds: limit,
      },
    },
  };
}

/**
 * Checks a request's signature, then its timestamp. Resolves to `{ refused }` (`{ status,
 * description, error }`: 400 for a body that cannot be read, so cannot be checked;
 * otherwise 401 worded for the request) or `{ warnings }` (a list, usually empty).
 * `context`: `{ merchantId, merchantKey, merchantKeyFingerprint, profile, toleranceSeconds, now }`.
 */
export async function checkRequest(api, { rawBody, headers, ...context }) {
  try {
    await api.verifyCallbackAsync(rawBody, headers, context.merchantKey, {
      options: { profile: context.profile },
      maxBodyBytes: MAX_BODY_BYTES,
      expectedMerchantId: context.merchantId,
    });
  } catch (error) {
    if (typeof error.code !== 'string') throw error;
    if (!(SIGNED_BUT_NOT_A_CALLBACK.has(error.code) && error.verified === true)) {
      // A body that cannot be read has no message to check the signature against: it is
      // refused as it is (400, status "error"), and nothing is done with it.
      if (UNREADABLE_BODY.has(error.code)) {
        return { refused: { status: 400, description: `${error.code}: ${error.message}`, error: { code: error.code, message: error.message, hint: error.hint ?? null } } };
      }
      return { refused: refusal(error, { headers, ...context }) };
    }
  }
  const { refused, warning } = checkTimestamp(headers, context.toleranceSeconds, context.now());
  return refused ? { refused } : { warnings: warning ? [warning] : [] };
}

const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a browser page at `origin` may read the sandbox's answers: any loopback origin, or the configured one. */
export function originAllowed(origin, allowedOrigin) {
  if (typeof origin !== 'string') return false;
  if (allowedOrigin !== undefined && origin === allowedOrigin) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOST.test(url.hostname) && url.origin === origin;
  } catch {
    return false;
  }
}

/** CORS headers for a request from `origin` (none when it is not allowed). */
export function corsHeaders(origin, allowedOrigin) {
  if (!originAllowed(origin, allowedOrigin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers':
      'content-type, x-access-timestamp, x-access-merchant-id, x-access-signature, x-access-token, x-access-merchant-algorithm',
    'access-control-max-age': '600',
    vary: 'origin',
  };
}

/**
 * Why an unsigned /sandbox/ request must be refused, or null. Those endpoints move
 * payments without a signature, so a page on another site must not reach them: a
 * request whose `Origin` is not allowed (any loopback origin, or `allowedOrigin`), one
 * a browser marks `Sec-Fetch-Site: cross-site`, and one addressed to a host name that
 * is not loopback or the sandbox's own (a DNS-rebinding page) are refused. Tools
 * such as curl send neither header and are let through.
 */
export function crossSiteRefusal(headers, ownHost, allowedOrigin) {
  const hostName = hostNameOf(headers.host);
  if (hostName === null || !(LOOPBACK_HOST.test(hostName) || hostName.toLowerCase() === ownHost.toLowerCase())) {
    return `the Host header '${headers.host ?? ''}' is not the sandbox's own (a page that rebinds a name to loopback is refused)`;
  }
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${headers.host}` && !originAllowed(origin, allowedOrigin)) {
    return `a page at origin '${origin}' may not use the unsigned /sandbox/ endpoints (allowed: loopback origins and allowedOrigin)`;
  }
  if (origin === undefined && headers['sec-fetch-site'] === 'cross-site') {
    return 'a cross-site browser request may not use the unsigned /sandbox/ endpoints';
  }
  return null;
}

/** The host name of a Host header (brackets kept for IPv6), or null when it has none. */
function hostNameOf(host) {
  if (typeof host !== 'string' || host === '') return null;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}
