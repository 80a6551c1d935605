// The client's errors: PaymentIntakeErrors with the codes of the one table (src/error.rs),
// their `.status` read from it (the wasm's errorStatus), and what the service answered:
// `.statusCode` (its HTTP status), `.retryable`, `.body` (the text it sent) and
// `.response` (that text parsed, when it was JSON).

/** `make(code, message, details)`: a PaymentIntakeError of `code` with `details` as members. */
function errorMaker(PaymentIntakeError, errorStatus) {
  return function make(code, message, details = {}) {
    const error = new PaymentIntakeError(message);
    error.code = code;
    error.status = errorStatus(code) ?? 500;
    error.statusCode = details.statusCode ?? null;
    error.retryable = details.retryable ?? false;
    for (const [name, value] of Object.entries(details)) {
      if (value !== undefined && name !== 'statusCode' && name !== 'retryable') error[name] = value;
    }
    return error;
  };
}

/**
 * The hint of an AUTH_REFUSED: what to check for the service's words. 'Invalid public key':
 * the key or the merchant id; 'Invalid signature': the key signs, so the message differs: the
 * canonical variant (`options`), with the profile to try.
 */
function authHint(description, { merchantId, profile }) {
  const text = String(description ?? '');
  if (/merchant id/i.test(text)) {
    return `the service does not know the merchant id '${merchantId}' with this key: check merchantId in createClient's config`;
  }
  if (/timestamp/i.test(text)) {
    return "the service's clock and this machine's differ: set the clock right (NTP); the client signs each attempt with the time it is sent";
  }
  if (/public key/i.test(text)) {
    return `the service does not hold this key's public half for the merchant '${merchantId}': check that key is the merchant's private key (its public half registered in the admin panel) and that merchantId is right`;
  }
  const other = profile === 'public-js-client' ? 'spec' : 'public-js-client';
  return (
    `the key is known but the signed message differs from the service's: the canonical variant (options) is the likely cause; ` +
    `this client signs with ${profile ? `the profile '${profile}'` : "the spec's rules"}: try options: { profile: '${other}' } ` +
    '(profiles() lists them; payment-intake diagnose tells which rules a signed message used)'
  );
}

export { authHint, errorMaker };
