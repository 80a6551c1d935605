// Who may call the sandbox: the merchant's signed requests, and the browser origins
// allowed to read its answers (CORS, for the debugger page).
//
// A request is checked with the package's own verifyCallbackAsync against the
// merchant's public key: the spec builds and signs the message the same way in both
// directions, and the verifier checks the headers, the merchant id, the token and the
// signature before it reads the body's shape. So once it gets that far, its
// INVALID_CALLBACK and AMBIGUOUS_CALLBACK say only that a request is not a callback:
// the signature was good.

/** Codes verifyCallback throws only after the signature checked (with `verified: true`). */
const SIGNED_BUT_NOT_A_CALLBACK = new Set(['INVALID_CALLBACK', 'AMBIGUOUS_CALLBACK']);
/** Codes of a body that cannot be read at all, thrown before any signature check. */
const UNREADABLE_BODY = new Set(['INVALID_JSON', 'BODY_NOT_OBJECT', 'BODY_TOO_DEEP', 'DUPLICATE_KEY', 'INVALID_NUMBER', 'INVALID_BODY']);
/** Requests may be larger than callbacks; the sandbox reads bodies up to this. */
export const MAX_BODY_BYTES = 1 << 20;

/**
 * Checks a request's signature. Resolves to null when it verifies, else to
 * `{ status, description, error }`: 400 for a body that cannot be read (so cannot be
 * checked), otherwise 401 with the spec's 'Invalid signature' or 'Invalid public key'.
 */
export async function checkRequest(api, { rawBody, headers, merchantId, merchantKey, profile }) {
  try {
    await api.verifyCallbackAsync(rawBody, headers, merchantKey, {
      options: { profile },
      maxBodyBytes: MAX_BODY_BYTES,
      expectedMerchantId: merchantId,
    });
    return null;
  } catch (error) {
    if (SIGNED_BUT_NOT_A_CALLBACK.has(error.code) && error.verified === true) return null;
    if (typeof error.code !== 'string') throw error;
    // A body that cannot be read has no message to check the signature against: it is
    // refused as it is (400, status "error"), and nothing is done with it.
    if (UNREADABLE_BODY.has(error.code)) {
      return { status: 400, description: `${error.code}: ${error.message}`, error: { code: error.code, message: error.message, hint: error.hint ?? null } };
    }
    const signature = error.code === 'INVALID_SIGNATURE' || /x-access-signature/.test(error.message);
    return {
      status: 401,
      description: signature ? 'Invalid signature' : 'Invalid public key',
      error: { code: error.code, message: error.message, hint: error.hint ?? null },
    };
  }
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
