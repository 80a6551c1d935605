// What the commands share: the package (loaded only when a command needs it), reading
// files, stdin, keys, headers and the rule flags, and writing results and failures.
'use strict';

const fs = require('node:fs');
const { PROG, UsageError } = require('./args.cjs');

let loaded;
/** The package's Node build (its public API), loaded only when a command needs it (not for --help). */
const api = () => (loaded ??= require('payment-intake'));

function readFile(file, flag) {
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(`--${flag}: cannot read ${file}: ${e.code ?? e.message}`);
  }
}

function readStdin(what) {
  if (process.stdin.isTTY) process.stderr.write(`(reading ${what} from stdin; end with Ctrl-D)\n`);
  try {
    return fs.readFileSync(0);
  } catch (e) {
    throw new UsageError(`cannot read ${what} from stdin: ${e.code ?? e.message}`);
  }
}

const readBody = (values) => (values.body !== undefined ? readFile(values.body, 'body') : readStdin('the body'));

/** The package's canonical options from the rule flags. */
function canonicalOptions(values) {
  const options = {};
  if (values.profile !== undefined) {
    const names = api().profiles().map((p) => p.name);
    if (!names.includes(values.profile)) throw new UsageError(`--profile must be one of ${names.join(', ')}, got '${values.profile}'`);
    options.profile = values.profile;
  }
  for (const n of ['falsy', 'booleans', 'order', 'numbers', 'digest', 'token']) if (values[n] !== undefined) options[n] = values[n];
  if (values['signature-encoding'] !== undefined) options.signatureEncoding = values['signature-encoding'];
  if (values.padding && values['no-padding']) throw new UsageError('give --padding or --no-padding, not both');
  if (values.padding) options.padding = true;
  if (values['no-padding']) options.padding = false;
  return options;
}

/** An HMAC secret file (given by --`flag`): its bytes, less one trailing "\n" or "\r\n". */
function readSecret(file, flag = 'hmac-secret') {
  const text = readFile(file, flag).toString('utf8').replace(/\r?\n$/, '');
  try {
    return api().HmacKey.fromSecret(text);
  } catch (e) {
    throw new UsageError(`--${flag}: ${file}: ${e.code}: ${e.message}`);
  }
}

function readPem(file, flag, allowPublic) {
  const pem = readFile(file, flag).toString('utf8');
  const { SigningKey, VerifyingKey } = api();
  try {
    return allowPublic && !/PRIVATE KEY-----/.test(pem) ? VerifyingKey.fromPem(pem) : SigningKey.fromPem(pem);
  } catch (e) {
    throw new UsageError(`--${flag}: ${file}: ${e.code}: ${e.message}`);
  }
}

/** The keys of verify and diagnose: --key and --hmac-secret, each a comma-separated list. */
function verifyingKeys(values) {
  const list = (v) => (v === undefined ? [] : v.split(',').filter(Boolean));
  const keys = [...list(values.key).map((f) => readPem(f, 'key', true)), ...list(values['hmac-secret']).map(readSecret)];
  if (keys.length === 0) throw new UsageError('give --key FILE or --hmac-secret FILE');
  return keys;
}

/** Headers as a JSON object, or `name: value` lines (an HTTP request line and blank lines are skipped). */
function parseHeaders(text, source) {
  if (text.trim().startsWith('{')) {
    let headers;
    try {
      headers = JSON.parse(text);
    } catch (e) {
      throw new UsageError(`--headers: ${source} is not valid JSON: ${e.message}`);
    }
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) throw new UsageError(`--headers: ${source} is not a JSON object`);
    return headers;
  }
  const headers = {};
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    if (line.trim() === '' || /^[A-Z]+ \S+ HTTP\/[\d.]+$/.test(line.trim())) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new UsageError(`--headers: ${source} line ${i + 1} is not "name: value"`);
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** The callback of verify and diagnose: `{ headers, body }`. */
function readCallback(values) {
  if (values.headers === undefined) throw new UsageError('--headers FILE|- is required');
  if (values.headers === '-' && values.body === undefined) {
    throw new UsageError('--headers - reads stdin, so the body cannot come from stdin too: give --body FILE');
  }
  const raw = values.headers === '-' ? readStdin('the headers') : readFile(values.headers, 'headers');
  const headers = parseHeaders(raw.toString('utf8'), values.headers === '-' ? 'stdin' : values.headers);
  return { headers, body: readBody(values) };
}

/** --port as a number (0 to 65535). */
function portFlag(values, fallback) {
  const port = values.port ?? fallback;
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be a number from 0 to 65535, got '${port}'`);
  return Number(port);
}

/** Stops `close()`-able work on Ctrl-C or SIGTERM, then exits 0. */
function stopOnSignals(close) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => Promise.resolve(close()).then(() => process.exit(0)));
}

// The package's hints name its functions; here the user is in the command line, so a hint
// that names a function names the command that does the same instead.
const HINT_WORDS = [
  [/\bdiagnoseCallback\b/g, `\`${PROG} diagnose\` (with the same --key and --headers)`],
  [/the rules in `options`; pass them to verifyCallback as they are/g, `these rules (\`options\` with --json); pass them to \`${PROG} verify\` as --profile NAME, or as the rule flags (--booleans, --digest, …)`],
  [/pass signatureEncoding: '(\w+)'/g, 'give --signature-encoding $1'],
];
/** The package's hint worded for the command line. */
const cliHint = (hint) => HINT_WORDS.reduce((text, [word, instead]) => text.replace(word, instead), hint);

const printJson = (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

/** A library error: code, message and hint, as JSON on stdout or as text on stderr; exit 1. */
function failure(values, e) {
  if (!e || typeof e.code !== 'string') throw e;
  if (['INVALID_OPTION', 'INVALID_ARGUMENT'].includes(e.code)) throw new UsageError(`${e.code}: ${e.message}`);
  const hint = e.hint ? cliHint(e.hint) : null;
  const message = e.hint && e.message.includes(e.hint) ? e.message.replace(e.hint, hint) : e.message;
  if (values.json) printJson({ ok: false, code: e.code, message, hint });
  else process.stderr.write(`${e.code}: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  return 1;
}

module.exports = {
  api, readFile, readBody, canonicalOptions, readSecret, readPem, verifyingKeys, readCallback,
  portFlag, stopOnSignals, cliHint, printJson, failure,
};
