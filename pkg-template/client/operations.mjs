// The spec's operation index as the client's one table (pkg-template/client/): each
// operation's path, where it hangs on the client (`client.p2p.payin.create`), what it
// answers (`model`) and, for a create or an action on a payment, how an unknown outcome is
// settled through the info operation of the same kind of payment.

/** `model`: 'status' (a StatusResponse), 'info', 'balance', 'banks'. `takes`: 'body', 'ref' (project and payment), 'project'. */
const OPERATIONS = [
  { name: 'p2p.payin.create', path: '/api/v1/payment/p2p/payin', model: 'status', takes: 'body', create: true, info: '/api/v1/payment/p2p/payin/info' },
  { name: 'p2p.payin.info', path: '/api/v1/payment/p2p/payin/info', model: 'info', takes: 'ref' },
  { name: 'p2p.payin.confirm', path: '/api/v1/payment/p2p/payin/confirm', model: 'status', takes: 'ref', info: '/api/v1/payment/p2p/payin/info', target: 'confirm' },
  { name: 'p2p.payin.cancel', path: '/api/v1/payment/p2p/payin/cancel', model: 'status', takes: 'ref', info: '/api/v1/payment/p2p/payin/info', target: 'cancel' },
  { name: 'p2p.payout.create', path: '/api/v1/payment/p2p/payout', model: 'status', takes: 'body', create: true, info: '/api/v1/payment/p2p/payout/info' },
  { name: 'p2p.payout.info', path: '/api/v1/payment/p2p/payout/info', model: 'info', takes: 'ref' },
  { name: 'ecom.payin.create', path: '/api/v1/payment/ecom/payin', model: 'status', takes: 'body', create: true, info: '/api/v1/payment/ecom/payin/info' },
  { name: 'ecom.payin.info', path: '/api/v1/payment/ecom/payin/info', model: 'info', takes: 'ref' },
  { name: 'ecom.payin.confirm3dsResult', path: '/api/v1/payment/ecom/payin/confirm-3ds-result', model: 'status', takes: 'ref' },
  { name: 'ecom.payout.create', path: '/api/v1/payment/ecom/payout', model: 'status', takes: 'body', create: true, info: '/api/v1/payment/ecom/payout/info' },
  { name: 'ecom.payout.info', path: '/api/v1/payment/ecom/payout/info', model: 'info', takes: 'ref' },
  { name: 'widget.payin.create', path: '/api/v1/widget/payin', model: 'status', takes: 'body', create: true, info: '/api/v1/widget/payin/info' },
  { name: 'widget.payin.info', path: '/api/v1/widget/payin/info', model: 'info', takes: 'ref' },
  { name: 'widget.payin.confirm', path: '/api/v1/widget/payin/confirm', model: 'status', takes: 'ref', info: '/api/v1/widget/payin/info', target: 'confirm' },
  { name: 'widget.payin.cancel', path: '/api/v1/widget/payin/cancel', model: 'status', takes: 'ref', info: '/api/v1/widget/payin/info', target: 'cancel' },
  { name: 'balance', path: '/api/v1/balance/info', model: 'balance', takes: 'project' },
  { name: 'banks', path: '/api/v1/bank/all', model: 'banks', takes: 'project' },
];

/** Whether a payment in `state` ({ status, subStatus }) is where a confirm or a cancel leads. */
function reached(target, state) {
  if (target === 'cancel') return state.status === 'decline';
  return state.status === 'success' || (state.status === 'processing' && state.subStatus === 'paid');
}

/**
 * The body of an operation from what the caller gave: a body in the spec's shape as it is
 * (text or object), or `{ projectId, paymentId }` (`projectId` alone for balance and banks),
 * the config's `projectId` the default.
 */
function bodyOf(operation, input, defaultProjectId) {
  if (operation.takes === 'body') return input;
  if (typeof input === 'string') return input;
  const given = input ?? {};
  if (given.general !== undefined) return given;
  const projectId = given.projectId ?? defaultProjectId;
  const general = { project_id: projectId };
  if (operation.takes === 'ref') general.payment_id = given.paymentId;
  return { general };
}

export { OPERATIONS, bodyOf, reached };
