// The sandbox's routes, made from the package's operation table (`operationTable()`, the one
// table: src/spec/operations.rs): which paths create a payment and of what kind, which act on
// an existing payment and how, which answer for a project (the balance, the bank list).
import * as api from 'payment-intake';

/**
 * The sandbox's name for the payments of a name's group ('p2p.payin' of 'p2p.payin.create'),
 * as its payments and /sandbox/ pages show it; a group not listed is named as it is.
 */
const KINDS = Object.freeze({ 'p2p.payin': 'p2p', 'p2p.payout': 'payout', 'ecom.payin': 'ecom', 'ecom.payout': 'ecom-payout', 'widget.payin': 'widget' });

const groupOf = (name) => name.split('.').slice(0, -1).join('.');
const kindOf = (name) => KINDS[groupOf(name)] ?? groupOf(name);

/**
 * The routes of `table` (operationTable()'s rows):
 * - `create[path]`: `{ kind, type }` of the payment a create makes (`type` 'payin' or 'payout');
 * - `onPayment[path]`: `{ kind, action }`: the kind of payment it must find, and 'info', 'confirm',
 *   'cancel' (its row's target) or 'succeed' (an action with no target, e.g. the 3-D Secure result);
 * - `project[path]`: the model a project's operation answers ('balance' or 'banks');
 * - `targets[kind]`: `{ confirm, cancel }`, the paths a payment instruction links;
 * - `paths`: every path, sorted.
 */
export function sandboxRoutesOf(table) {
  const create = {};
  const onPayment = {};
  const project = {};
  const targets = {};
  for (const row of table) {
    const kind = kindOf(row.name);
    if (row.create) create[row.path] = Object.freeze({ kind, type: row.name.split('.').at(-2) === 'payout' ? 'payout' : 'payin' });
    else if (row.takes === 'project') project[row.path] = row.model;
    else onPayment[row.path] = Object.freeze({ kind, action: row.model === 'info' ? 'info' : (row.target ?? 'succeed') });
    if (row.target) (targets[kind] ??= {})[row.target] = row.path;
  }
  const paths = Object.freeze(table.map((row) => row.path).sort());
  return Object.freeze({ create: Object.freeze(create), onPayment: Object.freeze(onPayment), project: Object.freeze(project), targets: Object.freeze(targets), paths });
}

/** The sandbox's routes, from the package's table, made once. */
export const ROUTES = sandboxRoutesOf(api.operationTable());
