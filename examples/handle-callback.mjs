// What every receiver in this folder does, whatever the framework: one handler from
// createCallbackHandler, which verifies the raw body against the service's key(s), drops
// repeats, orders the payment's states, and calls your code once per new state. The
// framework examples only differ in how they mount it (see each file).
import { createCallbackHandler } from 'payment-intake';

/**
 * @typedef {import('payment-intake').KeyInput} KeyInput
 * @typedef {import('payment-intake').CallbackEvent} CallbackEvent
 * @typedef {import('payment-intake').ReviewRecord} ReviewRecord
 * @typedef {object} Handlers
 * @property {(event: CallbackEvent, context: { tx: unknown }) => void | Promise<void>} onEvent
 *   Your code for a new state of a payment (`event.callback` is the verified callback,
 *   `event.previous` the state recorded before). A repeat never reaches it; a throw answers
 *   500, so the service sends the callback again.
 * @property {(review: ReviewRecord) => void | Promise<void>} [onReview]
 *   Your code for a genuine callback that is not acted on as it is (ambiguous, not the spec's
 *   shape, another final state after a final one): it is kept in the store with its raw body.
 * @property {import('payment-intake').CallbackStore<any>} [store]
 *   Where handled keys and states are recorded: memoryStore() by default (one process);
 *   postgresStore(pool) for exactly once across machines (see postgres.mjs).
 */

/**
 * The callback handler of these examples.
 * @param {KeyInput} keys the service's public key(s) or HMAC secret; an array during a rotation
 * @param {Handlers} handlers
 */
export function createHandler(keys, { onEvent, onReview, store }) {
  return createCallbackHandler({
    keys,
    // Refuse replays older than 10 minutes. Add expectedMerchantId: x-access-merchant-id is not signed.
    verify: { toleranceSeconds: 600 },
    onEvent,
    ...(onReview ? { onReview } : {}),
    ...(store ? { store } : {}),
  });
}

/** What the examples do when run as they are: print what arrives. */
export const printing = {
  /** @param {CallbackEvent} event */
  onEvent: (event) => console.log('payment', event.callback.paymentId, 'is', event.state.status, event.state.subStatus ?? '', event.forward ? '(new)' : ''),
  /** @param {ReviewRecord} review */
  onReview: (review) => console.warn('kept a genuine callback to look up:', review.code, review.message),
};
