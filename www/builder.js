// Tool 1, "Build a payin": the P2P / widget payin create form. Choices follow
// the package's availability() table; the body comes from buildPayinRequest /
// buildWidgetPayinRequest and every validation issue is shown at its field.
import { availability, buildPayinRequest, buildWidgetPayinRequest, fromMinorUnits, operationTable, toMinorUnits } from '../pkg/web/index.js';
import { $, clearFieldMessages, debounce, describeError, el, setFieldMessage } from './dom.js';
import { fieldsOf, labelFields } from './builder-fields.js';

/** The operation each kind of the form builds, by its name in the package's operation table. */
export const OPERATION_NAMES = { p2p: 'p2p.payin.create', widget: 'widget.payin.create' };
let createPaths;
/** The path of the kind's operation, from the package's operation table (read once, after init). */
export function operationPath(kind) {
  createPaths ??= new Map(operationTable().map((row) => [row.name, row.path]));
  return createPaths.get(OPERATION_NAMES[kind]);
}

// Every function below takes `b`, the builder's state: `rows` (the availability() table),
// `form` (the form element) and `onBuilt`.

const kindOf = (b) => b.form.querySelector('input[name="b-kind"]:checked').value;
const integrationOf = (kind) => (kind === 'p2p' ? 'h2h' : 'widget');
const rowOf = (b) => b.rows.find((r) => r.integration === integrationOf(kindOf(b)) && r.country === $('b-country').value);

function fillCountries(b) {
  const integration = integrationOf(kindOf(b));
  const previous = $('b-country').value;
  const countries = b.rows.filter((r) => r.integration === integration);
  $('b-country').replaceChildren(...countries.map((r) => el('option', { value: r.country }, `${r.country} · ${r.currency}`)));
  if (countries.some((r) => r.country === previous)) $('b-country').value = previous;
  fillMethods(b);
}

function fillMethods(b) {
  const current = rowOf(b);
  const previous = $('b-method').value;
  // The widget method is optional in the body (the validator says where it is required).
  const none = kindOf(b) === 'widget' ? [el('option', { value: '' }, '(not sent: user chooses)')] : [];
  const methods = current?.payinMethods ?? [];
  $('b-method').replaceChildren(...none, ...methods.map((m) => el('option', { value: m }, m)));
  $('b-method').value = methods.includes(previous) ? previous : (methods[0] ?? '');
  $('b-currency').value = current?.currency ?? '';
  $('b-lifetime-note').textContent = current ? `300 to ${current.lifetimeMax}; 600 when empty` : '';
}

function applyKind(b) {
  const k = kindOf(b);
  $('b-path').textContent = operationPath(k);
  labelFields(k);
  for (const node of b.form.querySelectorAll('[data-kind]')) node.hidden = node.dataset.kind !== k;
  fillCountries(b);
}

/** The flat builder input from the form (its fields: www/builder-fields.js, from the input-field table); `localErrors` collects what cannot be sent. */
function readInput(k, localErrors) {
  const input = {};
  for (const field of fieldsOf(k)) {
    const value = $(field.id).value.trim();
    if (value === '') continue;
    if (field.number) {
      if (/^\d+$/.test(value) && Number.isSafeInteger(Number(value))) input[field.key] = Number(value);
      else localErrors.push({ id: field.id, text: `must be a whole number${field.unit ? ` of ${field.unit}` : ''}` });
    } else {
      input[field.key] = value;
    }
  }
  return input;
}

function showAmountInMinor(input) {
  const out = $('b-amount-minor');
  out.textContent = '';
  if (!input.amountMajor) return null;
  if (!input.currency) return new Error('needs a currency to convert it to minor units');
  try {
    const minor = toMinorUnits(input.amountMajor, input.currency);
    out.textContent = `= ${minor} minor units (${fromMinorUnits(minor, input.currency)} ${input.currency})`;
    return null;
  } catch (error) {
    return error;
  }
}

function build(b) {
  const k = kindOf(b);
  const localErrors = [];
  const input = readInput(k, localErrors);
  const amountError = showAmountInMinor(input);
  if (amountError) {
    localErrors.push({ id: 'b-amount', text: describeError(amountError) });
    delete input.amountMajor;
  }
  const builder = k === 'p2p' ? buildPayinRequest : buildWidgetPayinRequest;
  let built;
  try {
    built = builder(input);
  } catch (error) {
    built = { bodyText: '', body: null, report: { valid: false, errors: [{ path: '', code: error.code, message: error.message }], warnings: [] } };
  }
  render(b, k, built, localErrors);
  b.onBuilt({ kind: k, path: operationPath(k), bodyText: built.bodyText, report: built.report, localErrors });
}

function fieldForPath(path, k) {
  return fieldsOf(k).find((f) => f.path === path)?.id ?? null;
}

/** A message at field `id` (after any it has); an error opens the details it is in. */
function place(id, text, level) {
  const existing = $(`${id}-msg`).textContent;
  setFieldMessage(id, existing ? `${existing} · ${text}` : text, level);
  const details = $(id).closest('details');
  if (details && level === 'error') details.open = true;
}

/** Each issue at its field; the issues of no field, answered. */
function placeIssues(k, built, localErrors) {
  const unplaced = [];
  for (const { id, text } of localErrors) place(id, text, 'error');
  for (const [level, issues] of [['error', built.report.errors], ['warning', built.report.warnings]]) {
    for (const issue of issues) {
      const id = fieldForPath(issue.path, k);
      // A field left out because its value is unusable is not also "required".
      if (id && issue.code === 'REQUIRED' && localErrors.some((e) => e.id === id)) continue;
      if (id) place(id, `${issue.code}: ${issue.message}`, level);
      else unplaced.push({ ...issue, level });
    }
  }
  return unplaced;
}

function render(b, k, built, localErrors) {
  clearFieldMessages(b.form);
  const unplaced = placeIssues(k, built, localErrors);
  const badFields = [...b.form.querySelectorAll('.msg.error')].map((msg) => msg.closest('.field').querySelector('label').textContent);
  const errorCount = badFields.length + unplaced.filter((i) => i.level === 'error').length;
  const verdict = $('b-verdict');
  verdict.className = `verdict ${errorCount ? 'bad' : 'good'}`;
  verdict.textContent = errorCount
    ? `✗ Not valid for POST ${operationPath(k)}${badFields.length ? `: fix ${badFields.join(', ')}` : ''}`
    : `✓ Valid for POST ${operationPath(k)}`;
  $('b-issues').replaceChildren(
    ...unplaced.map((issue) => el('li', { class: issue.level }, `${issue.path || '(body)'}: ${issue.code}: ${issue.message}`)),
  );
  $('b-body').textContent = built.bodyText ? JSON.stringify(JSON.parse(built.bodyText), null, 2) : '';
}

/** The builder form. `onBuilt({ kind, path, bodyText, report })` runs after every change. */
export function createBuilder({ onBuilt }) {
  const b = { rows: availability(), form: $('build-form'), onBuilt };
  const rebuild = debounce(() => build(b), 120);
  b.form.addEventListener('input', (event) => {
    if (event.target.name === 'b-kind') applyKind(b);
    else if (event.target.id === 'b-country') fillMethods(b);
    rebuild();
  });
  b.form.addEventListener('submit', (event) => event.preventDefault());
  applyKind(b);
  build(b);
}
