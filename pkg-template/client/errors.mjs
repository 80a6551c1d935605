// The client's errors: made by the package's one factory (pkg-template/errors.mjs), with the
// codes and `.status` of the one table (src/error.rs), and what the service answered:
// `.statusCode` (its HTTP status), `.retryable`, `.body` (the text it sent) and
// `.response` (that text parsed, when it was JSON). No message or hint the client makes
// holds a card number (the service's words echoing one, a payment_id that is one): masked.
import { maskCards } from './cards.mjs';

/**
 * `make(code, message, details)`: the one factory's error (errors.mjs), with what the service
 * answered always present: `statusCode` (null when it answered nothing) and `retryable`; card
 * numbers in the message and the hint masked ('***'). `.body` and `.response` stay what the
 * service sent.
 */
function errorMaker(errors) {
  return (code, message, details = {}) => {
    const hint = details.hint === undefined ? undefined : maskCards(details.hint);
    return errors.make(code, maskCards(message), { statusCode: null, retryable: false, ...details, hint });
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

/** The first member of `json` that reads as an error's own words: `message`, `error` (text or `{ message }`), the sandbox's `sandbox_error.message`. */
function errorWords(json) {
  for (const value of [json.message, json.error?.message ?? json.error, json.sandbox_error?.message, json.error_description]) {
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/**
 * Why the service rejected a request, for REQUEST_REJECTED's message: a `status: "error"`
 * answer's `status_description`; else the error body's own words, with the state of the payment
 * it is about when it carries one (a refused confirm answers the payment's StatusResponse,
 * whose `status_description` is the payment's, not the refusal's); else the HTTP status.
 */
function rejectionReason(json, statusCode) {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return `HTTP ${statusCode}`;
  const words = errorWords(json);
  if (json.status === 'error') return json.status_description ?? words ?? `HTTP ${statusCode}`;
  const state = typeof json.status === 'string' ? `${json.status}${json.sub_status ? `:${json.sub_status}` : ''}` : null;
  const about = state ? ` (the payment is ${state}${json.status_description ? `, '${json.status_description}'` : ''})` : '';
  return `${words ?? `HTTP ${statusCode}`}${about}`;
}

export { authHint, errorMaker, rejectionReason };
