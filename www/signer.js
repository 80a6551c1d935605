// Tool 2, "Sign it": signs the body with a pasted or page-generated RSA private
// key, or an HMAC secret (signRequest), and shows the headers it returns, a ready
// curl command and each canonical step (canonicalSteps) for the chosen profile;
// and sends the signed request to a local sandbox (`payment-intake sandbox`) to show its answer.
import { HmacKey, SigningKey, canonicalSteps, operationTable, profiles, signRequest, validateRequest } from '../pkg/web/index.js';
import { fingerprintText, keyFingerprint } from './fingerprint.js';
import { $, debounce, describeError, el, formatUnix, profileLine, readProfile, setFieldMessage, wireKeyChoice, wireProfile } from './dom.js';

// The headers a request gets before it is signed (shown empty); once signed, the table and curl follow signRequest's headers.
const HEADER_NAMES = {
  rsa: ['x-access-timestamp', 'x-access-merchant-id', 'x-access-signature', 'x-access-token'],
  hmac: ['x-access-timestamp', 'x-access-merchant-id', 'x-access-signature', 'x-access-merchant-algorithm'],
};

/** A shell word in single quotes. */
const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

export function curlCommand(baseUrl, path, headers, body) {
  const base = baseUrl.trim().replace(/\/+$/, '');
  const url = base ? shellQuote(base + path) : `"\${BASE_URL}${path}"`;
  const lines = [`curl -X POST ${url}`, `-H ${shellQuote('content-type: application/json')}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  lines.push(`--data-raw ${shellQuote(body)}`);
  return lines.join(' \\\n  ');
}

/** The sandbox address in the Base URL field, or null: only loopback http(s), which the page's CSP allows too. */
export function sandboxBase(baseUrl) {
  let url;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return null;
  }
  const loopback = url.hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(url.hostname);
  return loopback && (url.protocol === 'http:' || url.protocol === 'https:') ? url.origin + url.pathname.replace(/\/+$/, '') : null;
}

/** POSTs a signed request to the sandbox; `{ status, text }`, the text pretty-printed when it is JSON. */
async function sendToSandbox(base, signed) {
  const res = await fetch(base + signed.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signed.headers },
    body: signed.body,
  });
  const text = await res.text();
  try {
    return { status: res.status, text: JSON.stringify(JSON.parse(text), null, 2) };
  } catch {
    return { status: res.status, text };
  }
}

/** PKCS#8 PEM of a fresh RSA 2048 key from WebCrypto (fast), else from the wasm generator. */
async function generateTestKeyPem() {
  if (globalThis.crypto?.subtle) {
    const pair = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    );
    const der = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
    let binary = '';
    for (const byte of der) binary += String.fromCharCode(byte);
    const base64 = btoa(binary).replace(/.{64}/g, '$&\n').replace(/\n$/, '');
    return `-----BEGIN PRIVATE KEY-----\n${base64}\n-----END PRIVATE KEY-----\n`;
  }
  return SigningKey.generate().privateKeyPem();
}

// Every function below takes `st`, the signer's state: `following` (the body follows step 1),
// `built` (step 1's last `{ path, bodyText }`), the live keys and the texts they were read
// from (`signingKey`/`keyText`, `hmacKey`/`secretText`), `lastSigned` (the request as last
// signed, `{ path, body, headers }`, for Send; null when not signed) and `keyChoice`.

function showSource(st) {
  $('s-body-source').textContent = st.following ? 'Follows the body built in step 1.' : 'Edited here; step 1 no longer updates it.';
  $('s-use-built').hidden = st.following;
}

/** Shows the public half of the key read from `text` (its PEM, then its fingerprint). */
function showPublicKey(st, text) {
  $('s-key-info').textContent = `${st.signingKey.bits}-bit RSA key loaded`;
  const publicPem = st.signingKey.publicKeyPem();
  $('s-public-pem').textContent = publicPem;
  keyFingerprint(publicPem).then((hex) => {
    if (st.keyText !== text || !hex) return;
    $('s-public-fingerprint').dataset.fingerprint = hex;
    $('s-public-fingerprint').textContent = `Fingerprint: ${fingerprintText(hex)} (of the SubjectPublicKeyInfo DER)`;
  });
}

/** Parses the key textarea when it changed; keeps one live SigningKey. */
function currentKey(st) {
  const text = $('s-key').value.trim();
  if (text === st.keyText) return st.signingKey;
  st.keyText = text;
  st.signingKey?.free();
  st.signingKey = null;
  setFieldMessage('s-key', '');
  $('s-key-info').textContent = '';
  $('s-public-pem').textContent = '';
  $('s-public-fingerprint').textContent = '';
  delete $('s-public-fingerprint').dataset.fingerprint;
  if (!text) return null;
  try {
    st.signingKey = SigningKey.fromPem(text);
    showPublicKey(st, text);
  } catch (error) {
    setFieldMessage('s-key', `${describeError(error)}${error.hint ? ` (${error.hint})` : ''}`);
  }
  return st.signingKey;
}

/** Reads the secret field as typed (no trimming: the library refuses whitespace at the ends); keeps one live HmacKey. */
function currentSecret(st) {
  const text = $('s-secret').value;
  if (text === st.secretText) return st.hmacKey;
  st.secretText = text;
  st.hmacKey?.free();
  st.hmacKey = null;
  setFieldMessage('s-secret', '');
  if (!text) return null;
  try {
    st.hmacKey = HmacKey.fromSecret(text);
    setFieldMessage('s-secret', `✓ HMAC-SHA512 secret of ${new TextEncoder().encode(text).length} bytes`, 'ok');
  } catch (error) {
    setFieldMessage('s-secret', `${describeError(error)}${error.hint ? ` (${error.hint})` : ''}`);
  }
  return st.hmacKey;
}

/** What step 4's message is signed with, in words. */
function showHow(kind, options) {
  let how;
  if (kind === 'hmac') how = `what is signed: HMAC-SHA512 of the message, written as ${options.signatureEncoding}`;
  else if (options.digest === 'double') how = 'what is signed: RSA PKCS#1 v1.5 over SHA-256 of the message’s SHA-256 digest (digest double)';
  else how = 'what is signed, SHA-256 + RSA PKCS#1 v1.5';
  $('s-message-how').textContent = `(${how})`;
}

function showValidation(path, bodyText) {
  const report = validateRequest(path, bodyText.trim() === '' ? '{}' : bodyText);
  if (report.valid && !report.warnings.length) {
    setFieldMessage('s-body', `✓ valid for ${path}`, 'ok');
    return;
  }
  const issues = [...report.errors, ...report.warnings].map((i) => `${i.path || '(body)'}: ${i.code}`);
  const shown = issues.slice(0, 4).join('; ') + (issues.length > 4 ? `; and ${issues.length - 4} more` : '');
  // Shown as a warning: an invalid body can still be signed, which is what this tool checks.
  setFieldMessage('s-body', `${report.valid ? 'Warnings' : 'Not valid'} for ${path}: ${shown}`, 'warning');
}

/** Shows the four steps; the message needs a valid timestamp (null: shown as missing). */
function showSteps(bodyText, timestamp, options) {
  try {
    const steps = canonicalSteps(bodyText, timestamp ?? '0', options);
    $('s-entries').textContent = steps.entries.join('\n') || '(no entries: empty body)';
    $('s-joined').textContent = steps.joined;
    $('s-encoded').textContent = steps.encoded;
    if (timestamp === null) {
      $('s-message').replaceChildren(steps.encoded, el('mark', {}, '(timestamp?)'));
    } else if (steps.message.startsWith(steps.encoded)) {
      const stamp = steps.message.slice(steps.encoded.length);
      $('s-message').replaceChildren(steps.encoded, el('mark', { title: 'x-access-timestamp' }, stamp));
    } else {
      $('s-message').textContent = steps.message;
    }
    return true;
  } catch (error) {
    for (const id of ['s-joined', 's-encoded', 's-message']) $(id).textContent = '';
    $('s-entries').textContent = describeError(error);
    return false;
  }
}

/** The headers signRequest returned (in its order), or the names the chosen key would get, empty. */
function showHeaders(headers, kind) {
  const rows = headers ? Object.entries(headers) : HEADER_NAMES[kind].map((name) => [name, '—']);
  $('s-headers').tBodies[0].replaceChildren(
    ...rows.map(([name, value]) =>
      el('tr', { 'data-header': name }, el('th', { scope: 'row' }, name), el('td', {}, el('code', {}, value))),
    ),
  );
}

/** The form's fields, checked and their notes shown: `{ bodyText, path, merchantId, timestamp, options, kind, key, problems }`. */
function readForm(st) {
  const form = { bodyText: $('s-body').value, path: $('s-path').value, merchantId: $('s-merchant').value.trim(), timestamp: $('s-timestamp').value.trim(), options: readProfile('s') };
  const problems = [];
  showValidation(form.path, form.bodyText);
  setFieldMessage('s-merchant', form.merchantId ? '' : 'required: the x-access-merchant-id header');
  if (!form.merchantId) problems.push('merchant id');
  const timestampOk = /^\d{1,10}$/.test(form.timestamp);
  setFieldMessage('s-timestamp', timestampOk ? '' : 'must be Unix seconds (digits)');
  $('s-timestamp-note').textContent = timestampOk ? formatUnix(form.timestamp) : '';
  if (!timestampOk) problems.push('timestamp');
  if (!showSteps(form.bodyText, timestampOk ? form.timestamp : null, form.options)) problems.push('a readable body');
  const kind = st.keyChoice.kind();
  showHow(kind, form.options);
  let key;
  if (kind === 'hmac') {
    key = currentSecret(st);
    if (!key) problems.push($('s-secret').value ? 'a usable HMAC secret' : 'an HMAC secret');
  } else {
    key = currentKey(st);
    if (!key) problems.push($('s-key').value.trim() ? 'a readable private key' : 'a private key (paste one or generate a test pair)');
  }
  return { ...form, kind, key, problems };
}

/** No signature to show: the empty headers, no curl, and `text` as the verdict. */
function showUnsigned(kind, text) {
  showHeaders(null, kind);
  $('s-curl').textContent = '';
  $('s-verdict').className = 'verdict bad';
  $('s-verdict').textContent = text;
}

function render(st) {
  const { bodyText, path, merchantId, timestamp, options, kind, key, problems } = readForm(st);
  st.lastSigned = null;
  if (problems.length) return showUnsigned(kind, `Not signed yet: needs ${problems.join(', ')}.`);
  try {
    const signed = signRequest(bodyText, key, { merchantId, timestamp, options });
    showHeaders(signed.headers, kind);
    $('s-curl').textContent = curlCommand($('s-base-url').value, path, signed.headers, signed.body);
    st.lastSigned = { path, body: signed.body, headers: signed.headers };
    const verdict = $('s-verdict');
    verdict.className = 'verdict good';
    const signer = kind === 'hmac' ? 'the HMAC-SHA512 secret' : `a ${key.bits}-bit RSA key`;
    const named = $('s-profile-name').value;
    verdict.textContent = `✓ Signed with ${signer}, profile ${named || 'custom'}: ${profileLine(options, kind)}.`;
  } catch (error) {
    showUnsigned(kind, `✗ ${describeError(error)}`);
  }
  return undefined;
}

/** The Generate button: a test key pair made in the page, put in the key field. */
async function generateKey(st) {
  const button = $('s-generate');
  button.disabled = true;
  $('s-key-info').textContent = 'Generating a 2048-bit key pair…';
  try {
    $('s-key').value = await generateTestKeyPem();
    render(st);
    $('s-key-info').textContent = `${st.signingKey?.bits ?? 2048}-bit test key pair generated in this page (it never leaves it)`;
  } catch (error) {
    setFieldMessage('s-key', `Could not generate a key: ${describeError(error)}`);
  } finally {
    button.disabled = false;
  }
}

/** The Send button: the request as last signed, sent to the local sandbox in the Base URL field. */
async function sendSigned(st) {
  const status = $('s-send-status');
  const base = sandboxBase($('s-base-url').value);
  const { lastSigned } = st;
  if (!lastSigned) {
    status.textContent = 'Nothing to send: the request is not signed yet.';
    return;
  }
  if (!base) {
    status.textContent = 'Give a local sandbox as Base URL: http://127.0.0.1:PORT or http://localhost:PORT.';
    return;
  }
  const button = $('s-send');
  button.disabled = true;
  status.textContent = `Sending to ${base}${lastSigned.path}…`;
  try {
    const { status: code, text } = await sendToSandbox(base, lastSigned);
    status.textContent = `HTTP ${code} from ${base}${lastSigned.path}`;
    $('s-response').textContent = text;
  } catch (error) {
    status.textContent = `Could not reach ${base}: is the sandbox running? (${describeError(error)})`;
    $('s-response').textContent = '';
  } finally {
    button.disabled = false;
  }
}

/** The form's listeners: typing re-signs (after a pause), the buttons do what they say. */
function wireSignForm(st) {
  const rerender = debounce(() => render(st), 150);
  $('sign-form').addEventListener('input', (event) => {
    if (event.target.id === 's-body') {
      st.following = false;
      showSource(st);
    }
    rerender();
  });
  $('sign-form').addEventListener('submit', (event) => event.preventDefault());
  $('s-use-built').addEventListener('click', () => {
    st.following = true;
    $('s-body').value = st.built.bodyText;
    $('s-path').value = st.built.path;
    showSource(st);
    render(st);
  });
  $('s-now').addEventListener('click', () => {
    $('s-timestamp').value = String(Math.floor(Date.now() / 1000));
    render(st);
  });
  $('s-generate').addEventListener('click', () => generateKey(st));
  $('s-send').addEventListener('click', () => sendSigned(st));
}

/**
 * The key step 2 signs with, for tool 3's sample: `{ kind: 'rsa', key, verifyText: public PEM }`,
 * `{ kind: 'hmac', key, verifyText: the secret }`, or null.
 */
function currentSigner(st) {
  if (st.keyChoice.kind() === 'hmac') {
    const key = currentSecret(st);
    return key && { kind: 'hmac', key, verifyText: $('s-secret').value };
  }
  const key = currentKey(st);
  return key && { kind: 'rsa', key, verifyText: key.publicKeyPem() };
}

export function createSigner() {
  // The operation index of the spec, from the package's operation table.
  const OPERATIONS = operationTable().map((row) => row.path);
  const st = {
    following: true, built: { path: OPERATIONS[0], bodyText: '' }, signingKey: null, keyText: null, hmacKey: null, secretText: null, lastSigned: null, keyChoice: null,
  };
  $('s-path').replaceChildren(...OPERATIONS.map((p) => el('option', { value: p }, p)));
  $('s-timestamp').value = String(Math.floor(Date.now() / 1000));
  st.keyChoice = wireKeyChoice('s', 'sign', () => render(st));
  wireProfile('s', profiles(), () => render(st));
  wireSignForm(st);
  showSource(st);
  return {
    /** Called by the builder: the body to sign while the user has not edited it. */
    setBuilt(next) {
      st.built = next;
      if (!st.following) return;
      $('s-body').value = next.bodyText;
      $('s-path').value = next.path;
      render(st);
    },
    currentSigner: () => currentSigner(st),
  };
}
