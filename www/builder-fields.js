// Tool 1's form fields, built from the package's input-field table (`inputFieldTable()`, the
// one table: src/request/fields.rs). Which fields there are, which builder takes each, where
// each lands in the body, its type, its choices and its default all come from the table at
// run time (`wireInputFieldTable`, called by app.js after init); a row added to the table is
// on the page with nothing written here. www/builder.js reads the form through `fieldsOf`.
import { $, el } from './dom.js';

// ---- Page presentation: what the table cannot say --------------------------------------
// Per row name: the field's id (default `b-<kebab name>`), its label (per kind where one
// field serves two rows), where it stands (`main` grid, `more`: "Optional fields", `p2p`:
// "P2P only"), and its sample value and input hints. The order here is the display order.
// Rows named nowhere here get a field of their own, labelled by their name, after these:
// in "P2P only" when only the P2P builder takes them, else in "Optional fields".
// Two rows share one field where the page shows them as one: `method` and `widgetMethod`
// (one select of the country's methods), `bankSymbol`'s two rows (a path per builder).
const PRESENTATION = {
  country: { place: 'main', label: 'Country', select: true },
  method: { place: 'main', id: 'b-method', label: 'Method', select: true },
  widgetMethod: { place: 'main', id: 'b-method', label: 'Widget method', select: true },
  amountMajor: {
    place: 'main', id: 'b-amount', label: 'Amount (major units)', attrs: { inputmode: 'decimal', value: '1500.50' },
    after: () => el('output', { id: 'b-amount-minor', for: 'b-amount b-currency', class: 'note' }),
  },
  currency: { place: 'main', label: 'Currency', attrs: { maxlength: 3, autocapitalize: 'characters' } },
  lifetime: { place: 'main', label: 'Lifetime, seconds', unit: 'seconds', attrs: { inputmode: 'numeric' }, after: () => el('p', { class: 'note', id: 'b-lifetime-note' }) },
  projectId: { place: 'main', label: 'Project id', attrs: { value: 'prj_8f2c' } },
  paymentId: { place: 'main', label: 'Payment id', attrs: { value: 'order-10045' } },
  customerId: { place: 'main', label: 'Customer id', attrs: { value: 'u-1' } },
  customerIp: { place: 'main', label: 'Customer IP', attrs: { value: '203.0.113.7' } },
  email: { place: 'main', label: 'Customer e-mail', attrs: { type: 'email' } },
  language: { place: 'main', label: 'Page language', attrs: { maxlength: 2, placeholder: 'country default' } },
  customerType: { place: 'main', label: 'Customer type' },
  description: { place: 'more', label: 'Description', wide: true, prose: true },
  extraParam: { place: 'more', label: 'Extra param (routing)' },
  bankSymbol: { place: 'more', label: { p2p: 'Bank to pay to (payment.bank_symbol)', widget: 'Bank to pre-select (sender.bank_symbol)' } },
  merchantCallbackUrl: { place: 'more', id: 'b-callback-url', label: 'Callback URL (informative)', wide: true, attrs: { type: 'url', placeholder: 'https://' } },
  merchantSuccessCallbackUrl: { place: 'more', id: 'b-success-url', label: 'Success callback URL', wide: true, attrs: { type: 'url', placeholder: 'https://' } },
  merchantDeclineCallbackUrl: { place: 'more', id: 'b-decline-url', label: 'Decline callback URL', wide: true, attrs: { type: 'url', placeholder: 'https://' } },
  redirectUrl: { place: 'more', label: 'Redirect URL', wide: true, attrs: { type: 'url', placeholder: 'https://' } },
  senderCardHolder: { place: 'p2p', id: 'b-sender-holder', label: 'Sender card holder', prose: true },
  senderPan: { place: 'p2p', label: 'Sender card number', attrs: { inputmode: 'numeric' } },
  senderPhone: { place: 'p2p', label: 'Sender phone', attrs: { type: 'tel', placeholder: '+7XXXXXXXXXX' } },
  senderBankSymbol: { place: 'p2p', id: 'b-sender-bank', label: 'Sender bank symbol' },
  firstName: { place: 'p2p', label: 'First name', prose: true },
  lastName: { place: 'p2p', label: 'Last name', prose: true },
  browser: { place: 'p2p', label: 'Browser' },
  deviceType: { place: 'p2p', label: 'Device type' },
  userAgent: { place: 'p2p', label: 'User agent', wide: true },
};
/** The page takes the amount in major units (`majorAmount`), so it shows no field for the one in minor units. */
const NOT_ON_PAGE = new Set(['minorAmount']);
/** The page's kinds (its radio buttons), by the table's builder names. */
const KINDS = ['p2p', 'widget'];
/** Where each place's fields go in www/index.html. */
const CONTAINERS = { main: 'b-fields-main', more: 'b-fields-more', p2p: 'b-fields-p2p' };
// ------------------------------------------------------------------------------------------

const kebab = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const forKind = (value, kind) => (value !== null && typeof value === 'object' ? value[kind] : value);

/** The rows of the table the page shows, each with its field: `{ id, name, path, type, builders, … }`. */
let fields = [];

/** The page's fields of `kind`: `{ id, key, path, number, unit }` per row the builder of that kind takes. */
export const fieldsOf = (kind) =>
  fields.filter((f) => f.builders.includes(kind)).map((f) => ({ id: f.id, key: f.name, path: f.path, number: f.type === 'count', unit: f.unit }));

/** The field's control: a select for a choice (plus "not sent") or where the page fills it in, else an input. */
function control(id, rows, shown) {
  const row = rows[0];
  if (row.type === 'choice') {
    return el('select', { id }, el('option', { value: '' }, '(not sent)'), ...row.choices.map((c) => el('option', { value: c }, c)));
  }
  if (shown.select) return el('select', { id });
  const placeholder = row.type === 'count' && row.default !== null ? String(row.default) : undefined;
  return el('input', { id, spellcheck: shown.prose ? undefined : 'false', placeholder, ...shown.attrs });
}

/** One `.field` for the rows that share it (`rows`, one per kind at most), hidden on a kind none of them is of. */
function fieldElement(id, rows, shown) {
  const kinds = KINDS.filter((k) => rows.some((r) => r.builders.includes(k)));
  const label = forKind(shown.label, kinds[0]) ?? rows[0].name;
  return el(
    'div',
    { class: shown.wide ? 'field wide' : 'field', 'data-kind': kinds.length === 1 ? kinds[0] : undefined },
    el('label', { for: id, id: `${id}-label` }, label),
    control(id, rows, shown),
    shown.after?.(),
    el('p', { class: 'msg', id: `${id}-msg` }),
  );
}

/** The page's presentation of `row`: its PRESENTATION entry, or the one of a row it names nowhere. */
function presentationOf(row) {
  return PRESENTATION[row.name] ?? { place: row.builders.every((b) => b === 'p2p') ? 'p2p' : 'more', label: row.name };
}

/**
 * Builds tool 1's form fields from `rows` (the package's `inputFieldTable()`), replacing any
 * built before: one field per row the page shows, in PRESENTATION's order, then the rest in
 * the table's order. `www/builder.js` reads and labels them through `fieldsOf` and `labelFor`.
 */
export function wireInputFieldTable(rows) {
  const order = Object.keys(PRESENTATION);
  const rank = (row) => (order.includes(row.name) ? order.indexOf(row.name) : order.length);
  const shownRows = rows.filter((row) => !NOT_ON_PAGE.has(row.type)).map((row, at) => ({ row, at })).sort((a, b) => rank(a.row) - rank(b.row) || a.at - b.at);
  fields = shownRows.map(({ row }) => {
    const shown = presentationOf(row);
    return { ...row, id: shown.id ?? `b-${kebab(row.name)}`, shown, unit: shown.unit };
  });
  for (const id of Object.values(CONTAINERS)) $(id).replaceChildren();
  const byId = new Map();
  for (const f of fields) byId.set(f.id, [...(byId.get(f.id) ?? []), f]);
  for (const [id, sharing] of byId) $(CONTAINERS[sharing[0].shown.place]).append(fieldElement(id, sharing, sharing[0].shown));
}

/** Each field's label for `kind`, where one field serves rows of both kinds (the method, the bank symbol). */
export function labelFields(kind) {
  for (const f of fields) {
    const label = forKind(f.shown.label, kind);
    if (f.builders.includes(kind) && label) $(`${f.id}-label`).textContent = label;
  }
}
