// Types of the package's one error class (pkg-template/errors.mjs), re-exported by index.d.ts.
import type { PaymentIntakeErrorDetails } from '#glue';

/**
 * The class of every error the package throws (also `instanceof Error`): `code` (stable),
 * `status` (the HTTP status a callback receiver answers), `message`, and where known
 * `hint`, `path`, `verified`, `body`, `verification`.
 */
export class PaymentIntakeError extends Error {
  private constructor();
  name: 'PaymentIntakeError';
}
export interface PaymentIntakeError extends PaymentIntakeErrorDetails {}
/** Whether `value` is an error thrown by this package (of any copy of it). */
export function isPaymentIntakeError(value: unknown): value is PaymentIntakeError;
