// The client's operations, made from the package's operation table: each operation's path,
// where it hangs on the client (`client.p2p.payin.create`), what it answers (`model`) and,
// for a create or an action on a payment, how an unknown outcome is settled through the
// info operation of the same kind of payment.

/**
 * The client's operations from the package's operation table (`operationTable()`, the one
 * table: src/spec/operations.rs), built once per client factory: `list` in the spec's order,
 * `byPath` the Map every call looks its operation up in. Each operation is `{ name, path,
 * model, takes }`, with `create: true`, `info` (the info path) and `target` where the row has them.
 * `model`: 'status' (a StatusResponse), 'info', 'balance', 'banks'. `takes`: 'body', 'ref'
 * (project and payment), 'project'.
 */
function operationsOf(table) {
  const list = table.map(({ name, path, model, takes, create, info, target }) => {
    const operation = { name, path, model, takes };
    if (create) operation.create = true;
    if (info) operation.info = info;
    if (target) operation.target = target;
    return Object.freeze(operation);
  });
  return { list, byPath: new Map(list.map((operation) => [operation.path, operation])) };
}

/**
 * The client's methods: each operation hung at its name (`p2p.payin.create` is
 * `client.p2p.payin.create`), calling `perform(operation, input, callOptions)`.
 */
function clientMethodsOf(list, perform) {
  const client = {};
  for (const operation of list) {
    const names = operation.name.split('.');
    let node = client;
    for (const name of names.slice(0, -1)) node = node[name] ??= {};
    node[names.at(-1)] = (input, callOptions) => perform(operation, input, callOptions);
  }
  return client;
}

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

export { bodyOf, clientMethodsOf, operationsOf, reached };
