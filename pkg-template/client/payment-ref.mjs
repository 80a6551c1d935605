// An answer about the payment asked about: the StatusResponse of a create, an info, a confirm,
// a cancel or a 3-D Secure result carries the payment's `project_id` and `payment_id`, which
// must be the request's. An answer about another payment (another project's, another
// merchant's through a proxy or a cache, its `form_url` with it) is never taken as this one's.

/** The request's `general` (the signed text's), or an empty object when it has none. */
function generalOf(requestText) {
  try {
    const general = JSON.parse(requestText)?.general;
    return general !== null && typeof general === 'object' ? general : {};
  } catch {
    return {};
  }
}

/** Whether the request named `asked` (a string or a number) and the answer names another. */
const differs = (asked, answered) => (typeof asked === 'string' || typeof asked === 'number') && String(asked) !== answered;

/**
 * `model` when the answer is about the request's payment (or `operation` is about none: balance,
 * banks, `client.request`); else INVALID_RESPONSE from `make`, with `details` (statusCode, body, …).
 */
function samePayment(make, operation, requestText, model, details) {
  if (!operation.create && operation.takes !== 'ref') return model;
  const general = generalOf(requestText);
  if (!differs(general.project_id, model.projectId) && !differs(general.payment_id, model.paymentId)) return model;
  const hint = operation.create
    ? 'the answer is about another payment: whether this payment was made is unknown; repeating the same create with the same payment_id is safe (the service makes no second payment under it), and its info reads it'
    : `the answer is about another payment: ${operation.target ? "whether this call's action was done is unknown; " : ''}read the payment again with its info, and check that baseUrl is the service's own address (no proxy or cache between)`;
  const message = `${operation.path}: the answer is about another payment: payment_id '${model.paymentId}' of project '${model.projectId}', not the request's '${general.payment_id}' of '${general.project_id}'`;
  throw make('INVALID_RESPONSE', message, { ...details, hint });
}

export { samePayment };
