// Tool 3's view of what a callback's signature covers: the canonical entries and the message
// built from the received body and x-access-timestamp with the selected rules (canonicalSteps).
// When a diagnosis puts the fault on the body, the entries the named profiles write otherwise
// are marked, each with what those profiles would sign instead. Text only, never HTML.
import { canonicalSteps } from '../pkg/web/index.js';
import { $, describeError, el } from './dom.js';

/** The entries of `bodyText` under `options`, or null when the body has none to give. */
function entriesOf(bodyText, options) {
  try {
    return canonicalSteps(bodyText, '0', options).entries;
  } catch {
    return null;
  }
}

const commonPrefix = (a, b) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/**
 * For each entry of `entries` that a named profile writes otherwise: the profiles' versions,
 * `Map(entry -> [{ name, instead }])` (`instead`: that profile's entry sharing the longest start).
 */
function differences(bodyText, entries, named) {
  const found = new Map();
  const own = new Set(entries);
  for (const { name, options } of named) {
    const theirs = entriesOf(bodyText, options);
    if (!theirs) continue;
    const set = new Set(theirs);
    const only = theirs.filter((e) => !own.has(e));
    for (const entry of entries) {
      if (set.has(entry)) continue;
      const instead = only.reduce((best, e) => (best === null || commonPrefix(e, entry) > commonPrefix(best, entry) ? e : best), null);
      found.set(entry, [...(found.get(entry) ?? []), { name, instead }]);
    }
  }
  return found;
}

/**
 * Fills `#c-received`: the entries and the message of `bodyText` at `timestamp` (null when the
 * headers have none) under `options`. With `highlight` (a diagnosis blamed the body), the
 * entries that differ from what the `named` profiles would sign are marked.
 */
export function renderReceived({ bodyText, timestamp, options, named, highlight }) {
  const box = $('c-received');
  if (!bodyText.trim()) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  let steps;
  try {
    steps = canonicalSteps(bodyText, timestamp ?? '0', options);
  } catch (error) {
    $('c-entries').textContent = describeError(error);
    $('c-message').textContent = '';
    $('c-received-note').textContent = '';
    return;
  }
  const marks = highlight ? differences(bodyText, steps.entries, named) : new Map();
  $('c-entries').replaceChildren(
    ...steps.entries.map((entry) => {
      const other = marks.get(entry);
      if (!other) return el('span', { class: 'entry' }, `${entry}\n`);
      const title = other.map(({ name, instead }) => `${name} signs ${instead ?? 'no such entry'}`).join('; ');
      return el('mark', { class: 'entry differs-entry', 'data-differs': other.map((o) => o.name).join(' '), title }, `${entry}\n`);
    }),
  );
  if (!steps.entries.length) $('c-entries').textContent = '(no entries: empty body)';
  if (timestamp === null) $('c-message').replaceChildren(steps.encoded, el('mark', {}, '(no x-access-timestamp)'));
  else $('c-message').replaceChildren(steps.encoded, el('mark', { title: 'x-access-timestamp' }, steps.message.slice(steps.encoded.length)));
  const note = $('c-received-note');
  if (!highlight) {
    note.textContent = '';
  } else if (marks.size === 0) {
    note.textContent = 'Every named profile writes these entries the same way: the rules are not what differs, the body or timestamp changed after signing.';
  } else {
    const lines = [...marks].flatMap(([entry, other]) => other.map(({ name, instead }) => `${entry} → ${name}: ${instead ?? '(none)'}`));
    note.replaceChildren(
      `Marked: ${marks.size} ${marks.size === 1 ? 'entry' : 'entries'} the named profiles would sign otherwise (a sender with other rules changes exactly these):`,
      el('pre', { class: 'code', 'data-field': 'differs-list' }, lines.join('\n')),
    );
  }
}
