// Types of the package's one error class (pkg-template/errors.mjs), re-exported by index.d.ts.
import type { PaymentIntakeErrorDetails, ValidationReport } from '#glue';

/**
 * The class of every error the package throws (also `instanceof Error`): `code` (stable),
 * `status` (the HTTP status a callback receiver answers), `message`, and where known
 * `hint`, `path`, `verified`, `body`, `verification`.
 */
export class PaymentIntakeError extends Error {
  private constructor();
  name: 'PaymentIntakeError';
}
/**
 * Every member an error of any code can carry, so that `isPaymentIntakeError(e)` is all it
 * takes to read them: the core's (`hint`, `path`, `verified`, `body`, …) and the client's
 * (`statusCode`, `retryable`, `attempts`, `existing`, …: always there on a client's error,
 * see ClientError).
 */
export interface PaymentIntakeError extends PaymentIntakeErrorDetails, Partial<Omit<ClientErrorDetails, 'body'>> {
  /** What failed beneath, when something did: always an Error (an abort's reason, the network's, the store's or a deadline's failure). */
  cause?: Error;
}
/** Whether `value` is an error thrown by this package (of any copy of it). */
export function isPaymentIntakeError(value: unknown): value is PaymentIntakeError;

/** The members a client's errors carry besides `code`, `status`, `message`, `hint` (ClientError: always there). */
export interface ClientErrorDetails {
  /** The service's HTTP status, when it answered. */
  statusCode: number | null;
  /** Whether the same call may pass if made again later (TIMEOUT, NETWORK_ERROR, SERVICE_UNAVAILABLE). */
  retryable: boolean;
  /** The text the service sent. */
  body?: string;
  /** That text parsed, when it was JSON. */
  response?: unknown;
  attempts?: number;
  /** REQUEST_INVALID: the validation report. */
  report?: ValidationReport;
  /** PAYMENT_EXISTS: the stored payment (its info answer, an InfoResult; the store's CreateRecord when the service could not be asked). */
  existing?: object;
}
