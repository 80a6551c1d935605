// A call its caller aborted (the AbortSignal of the call's options): a PaymentIntakeError with
// code ABORTED, the signal's reason as its `cause` (always an Error), never the bare reason.

/**
 * `error` as the call should throw it: ABORTED when the caller's `signal` aborted and `error` is
 * not one of the package's own (a TIMEOUT met first stays a TIMEOUT). `create`: whether the call
 * was a create, whose payment may have been made by an attempt sent before the abort.
 */
function abortedError(make, where, signal, error, create = false) {
  if (!signal?.aborted) return error;
  if (error instanceof Error && error.name === 'PaymentIntakeError' && typeof error.code === 'string') return error;
  const reason = signal.reason;
  const cause = reason instanceof Error ? reason : new Error(`aborted: ${String(reason)}`);
  const hint = create
    ? 'an attempt sent before the abort may have made the payment: calling the same create again is safe (it resolves as that payment, response.replayed)'
    : 'the abort came from your AbortSignal (its reason is in .cause); call again when you want the answer';
  return make('ABORTED', `${where}: aborted by the caller's signal (${cause.name}: ${cause.message})`, { cause, hint });
}

export { abortedError };
