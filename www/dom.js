// Small DOM helpers shared by the debugger's tools: element lookup and
// creation, per-field messages, copy buttons, debouncing and the canonical
// profile controls. No wasm here.

export const $ = (id) => document.getElementById(id);

/** Creates an element: `el('li', { class: 'x' }, 'text', child)`. */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Runs `fn` once input has been quiet for `ms`. */
export function debounce(fn, ms = 150) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

/** Links every input to its `<id>-msg` paragraph for assistive technology. */
export function describeFields(root) {
  for (const input of root.querySelectorAll('input, select, textarea')) {
    const ids = [`${input.id}-note`, `${input.id}-msg`].filter((id) => document.getElementById(id));
    if (ids.length) input.setAttribute('aria-describedby', ids.join(' '));
  }
}

/** Shows `text` (or nothing) under the field `id`; `kind` is 'error' or 'warning'. */
export function setFieldMessage(id, text, kind = 'error') {
  const input = $(id);
  const msg = $(`${id}-msg`);
  if (msg) {
    msg.textContent = text || '';
    msg.className = text ? `msg ${kind}` : 'msg';
  }
  if (input) {
    if (text && kind === 'error') input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }
}

/** Clears every field message inside `root`. */
export function clearFieldMessages(root) {
  for (const msg of root.querySelectorAll('.msg')) {
    msg.textContent = '';
    msg.className = 'msg';
  }
  for (const input of root.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
}

/** `1 message`, `2 messages`: a count with its noun, singular or plural (`many` for an irregular plural). */
export const plural = (count, noun, many = `${noun}s`) => `${count} ${count === 1 ? noun : many}`;

/** `CODE: message` of a thrown value (the package throws Errors with `.code`). */
export function describeError(error) {
  if (error && typeof error === 'object' && 'code' in error) return `${error.code}: ${error.message}`;
  return String(error?.message ?? error);
}

/** Wires every `button.copy[data-copy]` to copy the text of the element it names. */
export function wireCopyButtons(root = document) {
  root.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    const source = $(button.dataset.copy);
    const text = source ? (source.value ?? source.dataset.copyText ?? source.textContent) : '';
    const label = button.dataset.label ?? button.textContent;
    button.dataset.label = label;
    try {
      await copyText(text);
      button.textContent = 'Copied ✓';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
}

async function copyText(text) {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Permission refused (e.g. headless or an insecure context): fall back below.
    }
  }
  const area = el('textarea', { class: 'offscreen', 'aria-hidden': 'true', tabindex: '-1' });
  area.value = text;
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

/** The canonical options' rows of the package's optionTable() (but `profile`), set once by `wireOptionTable`. */
let canonicalRows = [];

/**
 * Takes the package's `optionTable()` (app.js, after init): the rule controls of every tool
 * (`<prefix>-booleans`, …) are built from it, each `<select>` with the row's choices
 * (`value (label)`), set to the row's default, as is the padding checkbox. A choice added to
 * the table is on the page with nothing written here.
 */
export function wireOptionTable(rows, prefixes = ['s', 'c']) {
  canonicalRows = rows.filter((row) => row.takenBy.includes('canonical') && row.name !== 'profile');
  for (const prefix of prefixes) {
    for (const row of canonicalRows) {
      const control = memberControl(prefix, row.name);
      if (!control) continue;
      if (control.tagName === 'SELECT') {
        control.replaceChildren(...row.choices.map((c) => el('option', { value: c.value }, `${c.value} (${c.label})`)));
        control.value = row.default;
      } else if (control.type === 'checkbox') {
        control.checked = row.default === true;
      }
    }
  }
}

/** The service's rules (each option's default: the 'spec' profile), the baseline a differing member is marked against. */
export const defaultProfile = () => Object.fromEntries(canonicalRows.map((row) => [row.name, row.default]));

/** Every rule a profile sets, in the order the page names them; `padding` is the checkbox. */
export const PROFILE_MEMBERS = Object.freeze(['booleans', 'falsy', 'order', 'padding', 'numbers', 'digest', 'token', 'signatureEncoding']);
/** Which rules apply to one algorithm only. */
const RSA_ONLY = new Set(['digest', 'token']);
const HMAC_ONLY = new Set(['signatureEncoding']);

/** The control of a member: `<prefix>-booleans`, …, `<prefix>-signature-encoding`; null when the tool has none. */
const memberControl = (prefix, name) => $(`${prefix}-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/**
 * Reads the canonical profile controls of a tool (`<prefix>-booleans` etc.): every rule
 * spelled out, so the options passed on say exactly what is shown. A tool without a
 * control for a member (checking has no token selector) leaves it out.
 */
export function readProfile(prefix) {
  const options = {};
  for (const name of PROFILE_MEMBERS) {
    const control = memberControl(prefix, name);
    if (control) options[name] = name === 'padding' ? control.checked : control.value;
  }
  return options;
}

/** Sets the controls to `profile` (members the tool has no control for are skipped), then the profile name. */
export function writeProfile(prefix, profile) {
  for (const name of PROFILE_MEMBERS) {
    const control = memberControl(prefix, name);
    if (!control || profile[name] === undefined || profile[name] === null) continue;
    if (name === 'padding') control.checked = Boolean(profile.padding);
    else control.value = profile[name];
  }
  showProfileName(prefix);
}

/** The profiles() rows, set once by `wireProfile`. */
let namedProfiles = [];

/** The name of the profile whose rules the controls show, or '' (custom). */
function matchingProfileName(prefix) {
  const shown = readProfile(prefix);
  const row = namedProfiles.find((p) => Object.keys(shown).every((name) => p.options[name] === shown[name]));
  return row ? row.name : '';
}

/** Shows in `<prefix>-profile-name` which named profile the controls match, or "custom". */
function showProfileName(prefix) {
  const select = $(`${prefix}-profile-name`);
  if (!select) return;
  const name = matchingProfileName(prefix);
  select.value = name;
  const row = namedProfiles.find((p) => p.name === name);
  const note = $(`${prefix}-profile-name-note`);
  if (note) note.textContent = row ? row.description : 'Custom: the rules below match no named profile.';
}

/**
 * Fills `<prefix>-profile-name` from `profiles()` (plus a "custom" state shown when
 * the controls match none), sets every control when a profile is chosen, and
 * follows the user's changes to the other controls.
 */
export function wireProfile(prefix, rows, onChange) {
  namedProfiles = rows;
  const select = $(`${prefix}-profile-name`);
  select.replaceChildren(
    ...rows.map((p) => el('option', { value: p.name }, p.name)),
    el('option', { value: '', disabled: true }, 'custom'),
  );
  select.addEventListener('change', () => {
    const row = rows.find((p) => p.name === select.value);
    if (row) writeProfile(prefix, row.options);
    onChange?.();
  });
  for (const name of PROFILE_MEMBERS) {
    memberControl(prefix, name)?.addEventListener('change', () => showProfileName(prefix));
  }
  showProfileName(prefix);
}

/**
 * `booleans: digit, falsy: none, …`; members differing from the service's rules are
 * marked. `algorithm` ('rsa' or 'hmac') leaves out the members of the other one.
 */
export function describeProfile(profile, algorithm) {
  const defaults = defaultProfile();
  const parts = [];
  for (const name of PROFILE_MEMBERS) {
    if (profile[name] === undefined || profile[name] === null) continue;
    if ((algorithm === 'hmac' && RSA_ONLY.has(name)) || (algorithm === 'rsa' && HMAC_ONLY.has(name))) continue;
    const value = name === 'padding' ? (profile.padding ? 'on' : 'off') : profile[name];
    const differs = profile[name] !== defaults[name];
    parts.push(el(differs ? 'strong' : 'span', { class: differs ? 'differs' : undefined, 'data-member': name }, `${name}: ${value}`));
  }
  const out = el('span', { class: 'profile-text' });
  parts.forEach((part, i) => out.append(...(i ? [', ', part] : [part])));
  return out;
}

/** `python/none/codepoint/padding on/…`: the rules in a line; `algorithm` as in describeProfile. */
export function profileLine(o, algorithm) {
  const parts = [o.booleans, o.falsy, o.order, `padding ${o.padding ? 'on' : 'off'}`, `numbers ${o.numbers}`];
  if (algorithm !== 'hmac') {
    parts.push(`digest ${o.digest}`);
    if (o.token) parts.push(`token ${o.token}`);
  }
  if (algorithm !== 'rsa') parts.push(`signature ${o.signatureEncoding}`);
  return parts.join('/');
}

/** Formats a Unix timestamp as `2023-11-14 22:13:20 UTC`, or '' when not one. */
export function formatUnix(seconds) {
  const n = Number(seconds);
  if (!Number.isFinite(n) || n <= 0 || n > 2 ** 32) return '';
  return `${new Date(n * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
}

/**
 * The key choice of a tool (radios `<prefix>-key-kind`, 'rsa' or 'hmac'): shows the
 * elements marked `data-key-kind` for the chosen one only, inside the tool's section.
 * Returns a function that reads the choice.
 */
export function wireKeyChoice(prefix, section, onChange) {
  const radios = [...document.querySelectorAll(`input[name="${prefix}-key-kind"]`)];
  const kind = () => radios.find((r) => r.checked)?.value ?? 'rsa';
  const show = () => {
    for (const node of $(section).querySelectorAll('[data-key-kind]')) node.hidden = node.dataset.keyKind !== kind();
  };
  for (const radio of radios) {
    radio.addEventListener('change', () => {
      show();
      onChange?.();
    });
  }
  show();
  const set = (value) => {
    for (const radio of radios) radio.checked = radio.value === value;
    show();
  };
  return { kind, set };
}
