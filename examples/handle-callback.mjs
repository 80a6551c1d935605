// What every receiver in this folder does with a callback, whatever the framework: verify
// the raw body against the service's key(s), hand a genuine callback to your code, keep a
// genuine one that cannot be acted on as it is, and answer the service with an HTTP status.
// The framework examples only differ in how they get the raw body (see each file).
import { verifyCallback } from 'payment-intake';

/**
 * @typedef {import('payment-intake').VerifiedCallback} VerifiedCallback
 * @typedef {import('payment-intake').KeyInput} KeyInput
 * @typedef {import('payment-intake').HeadersInput} HeadersInput
 * @typedef {object} Handlers
 * @property {(callback: VerifiedCallback) => void | Promise<void>} onCallback
 *   Your code for a verified callback. The service may send a callback again: skip an
 *   `idempotencyKey` already handled, and act only on a change of the payment's state.
 * @property {(rawBody: Uint8Array | string, error: Error) => void | Promise<void>} keep
 *   Your code for a callback whose signature is genuine but which is not to be acted on as
 *   it is: store the raw body, and ask the service for the payment's state.
 * @property {number} [toleranceSeconds] How old a callback may be (default 10 minutes).
 */

/**
 * Verifies one callback and says what to answer.
 * @param {Uint8Array | string} rawBody the bytes as received, never a re-serialized object
 * @param {HeadersInput} headers
 * @param {KeyInput} keys the service's public key(s) or HMAC secret; an array during a rotation
 * @param {Handlers} handlers
 * @returns {Promise<{ status: number, body: string }>}
 */
export async function handleCallback(rawBody, headers, keys, { onCallback, keep, toleranceSeconds = 600 }) {
  /** @type {VerifiedCallback} */
  let callback;
  try {
    callback = verifyCallback(rawBody, headers, keys, { toleranceSeconds });
  } catch (caught) {
    const error = /** @type {Error & { code?: string, status?: number, verified?: boolean }} */ (caught);
    if (error.verified === true) {
      // Signed by the service, but its body is not one to act on (say, ambiguous): nothing
      // is lost if it is kept, and 200 stops the service from sending it again and again.
      await keep(rawBody, error);
      return { status: 200, body: 'OK' };
    }
    // Not from the service, too old, or unreadable: refused, with the error's `status` (the
    // HTTP status the package suggests) where it has one, else 400 for an error of the
    // package (it has a `code`); anything else is a failure of ours: 500, the service retries.
    return { status: error.status ?? (error.code ? 400 : 500), body: error.code ?? 'ERROR' };
  }
  await onCallback(callback);
  return { status: 200, body: 'OK' };
}
