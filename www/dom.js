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

export const DEFAULT_PROFILE = Object.freeze({ booleans: 'python', falsy: 'none', order: 'codepoint', padding: true });

/** Reads the canonical profile controls named `<prefix>-booleans` etc. */
export function readProfile(prefix) {
  return {
    booleans: $(`${prefix}-booleans`).value,
    falsy: $(`${prefix}-falsy`).value,
    order: $(`${prefix}-order`).value,
    padding: $(`${prefix}-padding`).checked,
  };
}

export function writeProfile(prefix, profile) {
  $(`${prefix}-booleans`).value = profile.booleans;
  $(`${prefix}-falsy`).value = profile.falsy;
  $(`${prefix}-order`).value = profile.order;
  $(`${prefix}-padding`).checked = profile.padding;
}

/** `booleans: digit, falsy: none, …`; members differing from the default are marked. */
export function describeProfile(profile) {
  const parts = [];
  for (const name of ['booleans', 'falsy', 'order', 'padding']) {
    const value = name === 'padding' ? (profile.padding ? 'on' : 'off') : profile[name];
    const differs = profile[name] !== DEFAULT_PROFILE[name];
    parts.push(el(differs ? 'strong' : 'span', { class: differs ? 'differs' : undefined }, `${name}: ${value}`));
  }
  const out = el('span', { class: 'profile-text' });
  parts.forEach((part, i) => out.append(...(i ? [', ', part] : [part])));
  return out;
}

/** Formats a Unix timestamp as `2023-11-14 22:13:20 UTC`, or '' when not one. */
export function formatUnix(seconds) {
  const n = Number(seconds);
  if (!Number.isFinite(n) || n <= 0 || n > 2 ** 32) return '';
  return `${new Date(n * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
}
