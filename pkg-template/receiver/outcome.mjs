// What the handler tells about each decision besides its HTTP answer: `onOutcome(outcome)`,
// once per delivery and per reconciled payment, and the amount check of an event.

/**
 * Whether what was paid differs from what was asked: `payment_info.amount` differs from
 * `initial_amount` (the create's amount, which never changes) or from `old_amount` (the amount
 * before an appeal), or no amount is said at all. A merchant credits `amount` only when false.
 */
function amountChanged(paymentInfo) {
  const amount = paymentInfo?.amount;
  if (typeof amount !== 'number') return true;
  const differs = (asked) => typeof asked === 'number' && asked !== amount;
  return differs(paymentInfo.initialAmount) || differs(paymentInfo.oldAmount);
}

/**
 * `report(out, { source, status, callback, started, projectId, paymentId })`: calls onOutcome
 * with `{ code, status, source, idempotencyKey, projectId, paymentId, state, ms }` (and
 * `reason` for a kept review). onOutcome is not awaited, and its failure changes nothing.
 */
function outcomeReporter(onOutcome) {
  return function report(out, { source, status = null, callback, started, projectId = null, paymentId = null }) {
    if (typeof onOutcome !== 'function') return;
    const outcome = {
      code: out.code,
      status,
      source,
      idempotencyKey: callback?.idempotencyKey ?? null,
      projectId: callback?.projectId ?? projectId,
      paymentId: callback?.paymentId ?? paymentId,
      state: callback ? `${callback.status}:${callback.subStatus ?? ''}` : null,
      ms: Date.now() - started,
    };
    if (out.reason) outcome.reason = out.reason;
    try {
      const pending = onOutcome(outcome);
      if (pending && typeof pending.catch === 'function') pending.catch(() => {});
    } catch {
      // an observer's failure is the observer's: the decision stands
    }
  };
}

export { amountChanged, outcomeReporter };
