#!/usr/bin/env node
// The payment-intake command line (Node only). scripts/build.mjs copies it to pkg/cli.js,
// the package's "bin". Exit codes: 0 ok, 1 verification failed / body not valid /
// nothing matched, 2 bad arguments (unknown flag, missing flag, unreadable file).
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { parseArgs } = require('node:util');

const PROG = 'payment-intake';
let loaded;
/** The package's Node build, loaded only when a command needs it (not for --help). */
const api = () => (loaded ??= require('./node/index.js'));

class UsageError extends Error {}

// ---- flags ---------------------------------------------------------------------------

const CANONICAL = {
  profile: { type: 'string', arg: 'NAME', help: 'start from a named profile: spec, public-js-client, callback-docs' },
  falsy: { type: 'string', arg: 'none|null', choices: ['none', 'null'], help: 'which leaves are written None' },
  booleans: { type: 'string', arg: 'python|lower|digit', choices: ['python', 'lower', 'digit'], help: 'how true/false are written' },
  padding: { type: 'boolean', help: 'keep base64url "=" padding' },
  'no-padding': { type: 'boolean', help: 'drop base64url "=" padding' },
  order: { type: 'string', arg: 'codepoint|utf16', choices: ['codepoint', 'utf16'], help: 'entry order' },
  numbers: { type: 'string', arg: 'python|js', choices: ['python', 'js'], help: 'how numbers are written' },
  digest: { type: 'string', arg: 'single|double', choices: ['single', 'double'], help: 'what RSA-SHA256 signs' },
  token: { type: 'string', arg: 'pem|der', choices: ['pem', 'der'], help: 'x-access-token encoding (RSA)' },
  'signature-encoding': { type: 'string', arg: 'base64url|hex', choices: ['base64url', 'hex'], help: 'HMAC signature text' },
};
const HMAC_HELP = 'HMAC-SHA512 secret file instead of an RSA key (one trailing newline, \\n or \\r\\n, is removed; nothing else)';
const BODY = { body: { type: 'string', arg: 'FILE', help: 'read the body from FILE instead of stdin' } };
const JSON_FLAG = { json: { type: 'boolean', help: 'print JSON instead of text for people' } };
const HELP = { help: { type: 'boolean', short: 'h', help: 'show this help' } };

const COMMANDS = {
  keygen: {
    usage: 'keygen [--bits 2048] [--out-dir DIR] [--force] [--json]',
    about: 'Generates an RSA key pair: DIR/private.pem (PKCS#8, mode 600) and DIR/public.pem (SPKI).',
    flags: {
      bits: { type: 'string', arg: 'N', help: 'modulus size, 2048 to 4096 (default 2048)' },
      'out-dir': { type: 'string', arg: 'DIR', help: 'where to write the files (default: the current directory)' },
      force: { type: 'boolean', help: 'overwrite existing files' },
      ...JSON_FLAG,
    },
    run: keygen,
  },
  sign: {
    usage: 'sign (--key FILE | --hmac-secret FILE) --merchant-id ID [--timestamp T] [options] [--curl URL] < body.json',
    about: 'Signs a request body; prints the headers (and with --curl a ready curl command).',
    flags: {
      key: { type: 'string', arg: 'FILE', help: 'RSA private key PEM (PKCS#8 or PKCS#1)' },
      'hmac-secret': { type: 'string', arg: 'FILE', help: HMAC_HELP },
      'merchant-id': { type: 'string', arg: 'ID', help: 'x-access-merchant-id (required)' },
      timestamp: { type: 'string', arg: 'T', help: 'Unix seconds (default: now)' },
      curl: { type: 'string', arg: 'URL', help: 'also print a curl command that POSTs the body to URL' },
      ...CANONICAL,
      ...BODY,
      ...JSON_FLAG,
    },
    run: sign,
  },
  verify: {
    usage: 'verify (--key FILE[,FILE…] | --hmac-secret FILE[,FILE…]) --headers FILE|- [options] < body',
    about: 'Verifies a callback; prints its model, or the error code and hint (exit 1).',
    flags: {
      key: { type: 'string', arg: 'FILE[,FILE…]', help: 'the service\'s public key PEM(s) (a private key PEM works too)' },
      'hmac-secret': { type: 'string', arg: 'FILE[,FILE…]', help: HMAC_HELP },
      headers: { type: 'string', arg: 'FILE|-', help: 'the headers: a JSON object, or "name: value" lines ("-": stdin, then give --body)' },
      tolerance: { type: 'string', arg: 'SECONDS', help: 'refuse a timestamp further than this from now' },
      ...CANONICAL,
      ...BODY,
      ...JSON_FLAG,
    },
    run: verify,
  },
  diagnose: {
    usage: 'diagnose (--key FILE[,FILE…] | --hmac-secret FILE[,FILE…]) --headers FILE|- < body',
    about: 'Finds the rules (dialect) a callback was signed with, or why none matches (exit 1).',
    flags: {
      key: { type: 'string', arg: 'FILE[,FILE…]', help: 'public (or private) key PEM(s)' },
      'hmac-secret': { type: 'string', arg: 'FILE[,FILE…]', help: HMAC_HELP },
      headers: { type: 'string', arg: 'FILE|-', help: 'the headers: a JSON object, or "name: value" lines ("-": stdin, then give --body)' },
      ...BODY,
      ...JSON_FLAG,
    },
    run: diagnose,
  },
  validate: {
    usage: 'validate OPERATION [--json] < body.json',
    about: 'Validates a request body for an operation path (e.g. /api/v1/payment/p2p/payin); exit 1 when not valid.',
    flags: { ...BODY, ...JSON_FLAG },
    positional: 'OPERATION',
    run: validate,
  },
  sandbox: {
    usage: 'sandbox --merchant-key FILE [--merchant-id ID] [--port 0] [--host 127.0.0.1] [--time-scale N] [options]',
    about: 'Runs a local sandbox of the service until Ctrl-C (state in memory; not for production). See README, "Local sandbox".',
    flags: {
      'merchant-key': { type: 'string', arg: 'FILE', help: "the merchant's public key PEM (required): requests must be signed with its private key" },
      'merchant-id': { type: 'string', arg: 'ID', help: 'the x-access-merchant-id requests must carry (default sandbox-merchant)' },
      'service-key': { type: 'string', arg: 'FILE', help: "the service's private key PEM that signs callbacks (default: a new one)" },
      'service-public-key-out': { type: 'string', arg: 'FILE', help: 'write the service public key (SPKI PEM) here, for your receiver' },
      port: { type: 'string', arg: 'P', help: 'TCP port, 0 to 65535; 0 picks a free one (default 0)' },
      host: { type: 'string', arg: 'H', help: 'address to listen on (default 127.0.0.1)' },
      'time-scale': { type: 'string', arg: 'N', help: 'run N times faster than the service: 60 makes a 300 s lifetime last 5 s (default 1)' },
      'duplicate-callbacks': { type: 'boolean', help: 'send every delivered callback twice' },
      profile: { type: 'string', arg: 'NAME', help: 'signing rules for requests and callbacks: spec (default), public-js-client, callback-docs' },
      'allowed-origin': { type: 'string', arg: 'ORIGIN', help: 'a browser origin allowed besides loopback ones (CORS)' },
      ...JSON_FLAG,
    },
    run: sandbox,
  },
  debugger: {
    usage: 'debugger [--port 8080] [--host 127.0.0.1]',
    about: 'Serves the integration debugger page of the installed package at http://HOST:PORT/www/ until Ctrl-C.',
    flags: {
      port: { type: 'string', arg: 'P', help: 'TCP port, 0 to 65535; 0 picks a free one (default 8080)' },
      host: { type: 'string', arg: 'H', help: 'address to listen on (default 127.0.0.1; the page holds keys, keep it local)' },
    },
    run: debuggerPage,
  },
};

function mainUsage() {
  const lines = Object.entries(COMMANDS).map(([, c]) => `  ${PROG} ${c.usage}\n      ${c.about}`);
  return `Usage:\n${lines.join('\n')}\n\nRun '${PROG} COMMAND --help' for a command's flags.\n` +
    'Exit codes: 0 ok, 1 verification failed / body not valid, 2 bad arguments.\n';
}

function commandUsage(name) {
  const c = COMMANDS[name];
  const flags = { ...c.flags, ...HELP };
  const left = (n, f) => `  ${f.short ? `-${f.short}, ` : ''}--${n}${f.arg ? ` ${f.arg}` : ''}`;
  const width = Math.max(...Object.entries(flags).map(([n, f]) => left(n, f).length)) + 2;
  const rows = Object.entries(flags).map(([n, f]) => `${left(n, f).padEnd(width)}${f.help}`);
  return `Usage: ${PROG} ${c.usage}\n\n${c.about}\n\nFlags:\n${rows.join('\n')}\n`;
}

function parse(name, argv) {
  const c = COMMANDS[name];
  const options = {};
  for (const [n, f] of Object.entries({ ...c.flags, ...HELP })) options[n] = f.short ? { type: f.type, short: f.short } : { type: f.type };
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: Boolean(c.positional) });
  } catch (e) {
    throw new UsageError(e.message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const { values, positionals } = parsed;
  for (const [n, f] of Object.entries(c.flags)) {
    if (f.choices && values[n] !== undefined && !f.choices.includes(values[n])) {
      throw new UsageError(`--${n} must be one of ${f.choices.join(', ')}, got '${values[n]}'`);
    }
  }
  if (c.positional && !values.help && positionals.length !== 1) {
    throw new UsageError(`expected one ${c.positional}, got ${positionals.length}`);
  }
  return { values, positionals };
}

// ---- inputs --------------------------------------------------------------------------

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

/** An HMAC secret file: its bytes, less one trailing "\n" or "\r\n". */
function readSecret(file) {
  const text = readFile(file, 'hmac-secret').toString('utf8').replace(/\r?\n$/, '');
  try {
    return api().HmacKey.fromSecret(text);
  } catch (e) {
    throw new UsageError(`--hmac-secret: ${file}: ${e.code}: ${e.message}`);
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

function readCallback(values) {
  if (values.headers === undefined) throw new UsageError('--headers FILE|- is required');
  if (values.headers === '-' && values.body === undefined) {
    throw new UsageError('--headers - reads stdin, so the body cannot come from stdin too: give --body FILE');
  }
  const raw = values.headers === '-' ? readStdin('the headers') : readFile(values.headers, 'headers');
  const headers = parseHeaders(raw.toString('utf8'), values.headers === '-' ? 'stdin' : values.headers);
  return { headers, body: readBody(values) };
}

// ---- output --------------------------------------------------------------------------

const printJson = (value) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
const shellQuote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

/** A library error: code, message and hint, as JSON on stdout or as text on stderr; exit 1. */
function failure(values, e) {
  if (!e || typeof e.code !== 'string') throw e;
  if (['INVALID_OPTION', 'INVALID_ARGUMENT'].includes(e.code)) throw new UsageError(`${e.code}: ${e.message}`);
  if (values.json) printJson({ ok: false, code: e.code, message: e.message, hint: e.hint ?? null });
  else process.stderr.write(`${e.code}: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ''}`);
  return 1;
}

// ---- commands ------------------------------------------------------------------------

function keygen({ values }) {
  const bits = values.bits === undefined ? 2048 : Number(values.bits);
  if (!/^\d+$/.test(values.bits ?? '2048') || bits < 2048 || bits > 4096) {
    throw new UsageError(`--bits must be a whole number from 2048 to 4096, got '${values.bits}'`);
  }
  const dir = values['out-dir'] ?? '.';
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`--out-dir: ${dir} is not a directory`);
  const files = { private: path.join(dir, 'private.pem'), public: path.join(dir, 'public.pem') };
  // lstat, not exists: a symlink (even one to nothing) is there, and is never written through.
  const present = (f) => fs.lstatSync(f, { throwIfNoEntry: false }) !== undefined;
  for (const f of Object.values(files)) {
    if (present(f) && !values.force) throw new UsageError(`${f} exists; give --force to overwrite it`);
  }
  const key = api().SigningKey.generate(bits);
  // Each file is made anew ('wx': O_CREAT | O_EXCL, which also refuses a symlink): --force
  // removes what is there first (a symlink itself, not what it points to), so the private
  // key never goes into an older file with wider permissions, or outside DIR.
  const create = (f, text, mode) => {
    if (values.force && present(f)) fs.unlinkSync(f);
    fs.writeFileSync(f, text, { mode, flag: 'wx' });
  };
  try {
    create(files.private, key.privateKeyPem(), 0o600);
    fs.chmodSync(files.private, 0o600);
    create(files.public, key.publicKeyPem(), 0o644);
  } catch (e) {
    throw new UsageError(`--out-dir: cannot write to ${dir}: ${e.code ?? e.message}`);
  } finally {
    key.free();
  }
  if (values.json) printJson({ bits, private: files.private, public: files.public });
  else process.stdout.write(`wrote ${files.private} (private key, PKCS#8 PEM)\nwrote ${files.public} (public key, SPKI PEM)\n`);
  return 0;
}

function sign({ values }) {
  if ((values.key === undefined) === (values['hmac-secret'] === undefined)) throw new UsageError('give one of --key FILE or --hmac-secret FILE');
  if (values['merchant-id'] === undefined) throw new UsageError('--merchant-id ID is required');
  const options = canonicalOptions(values);
  const key = values.key !== undefined ? readPem(values.key, 'key', false) : readSecret(values['hmac-secret']);
  const body = readBody(values);
  let signed;
  try {
    signed = api().signRequest(body, key, { merchantId: values['merchant-id'], timestamp: values.timestamp, options });
  } catch (e) {
    // Only --timestamp gives signRequest a timestamp: the package's rule, worded as a bad argument.
    if (e?.code === 'INVALID_TIMESTAMP') throw new UsageError(`--timestamp: ${e.message}${e.hint ? ` (${e.hint})` : ''}`);
    return failure(values, e);
  } finally {
    key.free();
  }
  const curl = values.curl === undefined ? undefined : [
    `curl -sS -X POST ${shellQuote(values.curl)}`,
    `  -H ${shellQuote('content-type: application/json')}`,
    ...Object.entries(signed.headers).map(([n, v]) => `  -H ${shellQuote(`${n}: ${v}`)}`),
    `  --data-raw ${shellQuote(signed.body)}`,
  ].join(' \\\n');
  if (values.json) printJson(curl === undefined ? signed : { ...signed, curl });
  else process.stdout.write(`${curl ?? Object.entries(signed.headers).map(([n, v]) => `${n}: ${v}`).join('\n')}\n`);
  return 0;
}

function verify({ values }) {
  const options = canonicalOptions(values);
  const keys = verifyingKeys(values);
  const { headers, body } = readCallback(values);
  const verifyOptions = { options };
  if (values.tolerance !== undefined) {
    if (!/^\d+$/.test(values.tolerance)) throw new UsageError(`--tolerance must be whole seconds, got '${values.tolerance}'`);
    verifyOptions.toleranceSeconds = Number(values.tolerance);
  }
  let model;
  try {
    model = api().verifyCallback(body, headers, keys, verifyOptions);
  } catch (e) {
    return failure(values, e);
  } finally {
    keys.forEach((k) => k.free());
  }
  if (values.json) {
    printJson({ ok: true, model });
  } else {
    const v = model.verification;
    process.stdout.write(`verified with key ${v.keyIndex + 1} of ${keys.length}, timestamp ${v.timestamp}, merchant id ${v.merchantId} (not signed)\n`);
    process.stdout.write(`${JSON.stringify(model, null, 2)}\n`);
  }
  return 0;
}

function diagnose({ values }) {
  const keys = verifyingKeys(values);
  const { headers, body } = readCallback(values);
  let d;
  try {
    d = api().diagnoseCallback(body, headers, keys);
  } catch (e) {
    return failure(values, e);
  } finally {
    keys.forEach((k) => k.free());
  }
  const same = (a, b) => Object.keys(a).every((k) => a[k] === b[k]);
  const profile = d.options ? api().profiles().find((p) => same(p.options, d.options))?.name ?? null : null;
  if (values.json) {
    printJson({ ...d, profile });
  } else if (d.matched) {
    const rules = Object.entries(d.options).map(([n, v]) => `  ${n}: ${v}`).join('\n');
    process.stdout.write(`matched: ${profile ? `the profile ${profile}` : 'no named profile'}, key ${d.keyIndex + 1} (${d.algorithm}${d.token ? `, ${d.token} token` : ''})\n${rules}\n`);
    if (d.matching.length > 1) process.stdout.write(`(${d.matching.length} combinations verify: the body has no leaf they treat differently)\n`);
    process.stdout.write(`hint: ${d.hint}\n`);
  } else {
    process.stdout.write(`no match; cause: ${d.cause}\nhint: ${d.hint}\n`);
  }
  return d.matched ? 0 : 1;
}

function validate({ values, positionals }) {
  const report = api().validateRequest(positionals[0], readBody(values));
  if (values.json) {
    printJson(report);
  } else {
    process.stdout.write(`${report.valid ? 'valid' : 'not valid'}: ${report.errors.length} error(s), ${report.warnings.length} warning(s)\n`);
    for (const [kind, list] of [['error', report.errors], ['warning', report.warnings]]) {
      for (const i of list) process.stdout.write(`  ${kind} ${i.path || '(body)'}: ${i.code}: ${i.message}\n`);
    }
  }
  return report.valid ? 0 : 1;
}

// ---- debugger ------------------------------------------------------------------------

// The page (www/, copied into the package by scripts/build.mjs) imports the web build as
// `../pkg/web/index.js`, as in the repository. One rule makes that work from the package,
// without rewriting any of the page's files: `/www/…` is <package>/www/… and `/pkg/web/…`
// is <package>/web/…. Nothing else is served; dot-files and `.`/`..` segments get 404.
const MOUNTS = { '/www/': 'www', '/pkg/web/': 'web' };
const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** The package file a URL path names, or null. */
function pageFile(pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const prefix = Object.keys(MOUNTS).find((p) => decoded.startsWith(p));
  if (!prefix || /[\0\\]/.test(decoded)) return null;
  const segments = decoded.slice(prefix.length).split('/').filter(Boolean);
  if (segments.some((s) => s.startsWith('.'))) return null;
  if (decoded.endsWith('/')) segments.push('index.html');
  try {
    // Symlinks must not lead out of the folder either.
    const dir = fs.realpathSync(path.join(__dirname, MOUNTS[prefix]));
    const file = fs.realpathSync(path.join(dir, ...segments));
    return file.startsWith(dir + path.sep) && fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
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

function debuggerPage({ values }) {
  const port = portFlag(values, '8080');
  const host = values.host ?? '127.0.0.1';
  if (!fs.existsSync(path.join(__dirname, 'www', 'index.html'))) throw new UsageError(`the page is missing: ${path.join(__dirname, 'www')}`);
  const server = http.createServer((req, res) => {
    const send = (status, body, headers = {}) => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', { allow: 'GET, HEAD' });
    // A request target that is no URL at all (`GET http://[ HTTP/1.1`) would throw here,
    // outside any catch, and end the process.
    let pathname;
    try {
      ({ pathname } = new URL(req.url ?? '/', 'http://localhost'));
    } catch {
      return send(400, 'bad request target\n');
    }
    if (pathname === '/' || pathname === '/www') return send(302, 'see /www/\n', { location: '/www/' });
    const file = pageFile(pathname);
    if (!file) return send(404, 'not found\n');
    const headers = { 'content-length': fs.statSync(file).size, 'x-content-type-options': 'nosniff' };
    send(200, req.method === 'HEAD' ? undefined : fs.readFileSync(file), { ...headers, 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' });
  });
  server.on('error', (e) => {
    process.stderr.write(`${PROG} debugger: cannot listen on ${host}:${port}: ${e.code ?? e.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const shown = host.includes(':') ? `[${host}]` : host;
    process.stdout.write(`payment-intake debugger: http://${shown}:${server.address().port}/www/ (Ctrl-C stops it)\n`);
  });
  stopOnSignals(() => new Promise((resolve) => {
    server.close(resolve);
    server.closeAllConnections?.();
  }));
  return undefined; // the server keeps the process alive
}

// ---- sandbox -------------------------------------------------------------------------

/** One line per move and per callback attempt (or a JSON line each with --json). */
function logSandbox(box, json) {
  const line = (event, text) => process.stdout.write(json ? `${JSON.stringify(event)}\n` : `${text}\n`);
  box.events.on('move', ({ payment: p, move }) => {
    const state = move.subStatus ? `${move.status}:${move.subStatus}` : move.status;
    line({ event: 'move', requestId: p.requestId, projectId: p.projectId, paymentId: p.paymentId, ...move }, `payment ${p.paymentId} (${p.requestId}): ${state}${move.statusDescription ? ` '${move.statusDescription}'` : ''}`);
  });
  box.events.on('callback', (e) => {
    const outcome = e.status === null ? e.error : `HTTP ${e.status}`;
    const { body, ...event } = e;
    line({ event: 'callback', ...event }, `callback ${e.kind}${e.duplicate ? ' (duplicate)' : ''} -> ${e.url}: ${outcome}, attempt ${e.attempt}${e.gaveUp ? ', given up' : ''}`);
  });
  box.events.on('failure', ({ error }) => process.stderr.write(`${PROG} sandbox: ${error.stack ?? error}\n`));
}

/**
 * Checks FILE of --service-public-key-out before the sandbox starts: its folder exists, and
 * what is there already is the public key PEM of an earlier run (overwritten, the README's
 * usual restart), never a link or any other file (a private key given by mistake is kept).
 */
function serviceKeyFile(out) {
  if (!fs.existsSync(path.dirname(path.resolve(out)))) throw new UsageError(`--service-public-key-out: ${path.dirname(out)} is not a directory`);
  const there = fs.lstatSync(out, { throwIfNoEntry: false });
  if (there === undefined) return;
  const keep = (why) => new UsageError(`--service-public-key-out: ${out} ${why}; it is not overwritten (give another FILE, or remove it)`);
  if (!there.isFile()) throw keep(there.isSymbolicLink() ? 'is a symbolic link' : 'is not a file');
  const text = fs.readFileSync(out, 'utf8').trim();
  if (!/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+\n-----END PUBLIC KEY-----$/.test(text)) throw keep('exists and is not a public key PEM');
}

function sandbox({ values }) {
  if (values['merchant-key'] === undefined) throw new UsageError("--merchant-key FILE (the merchant's public key PEM) is required");
  const port = portFlag(values, '0');
  const scale = values['time-scale'] ?? '1';
  if (!/^\d+(\.\d+)?$/.test(scale) || !(Number(scale) > 0)) throw new UsageError(`--time-scale must be a number above 0, got '${scale}'`);
  const options = canonicalOptions({ profile: values.profile });
  const merchantKey = readPem(values['merchant-key'], 'merchant-key', true);
  if (!(merchantKey instanceof api().VerifyingKey)) throw new UsageError('--merchant-key: give the merchant\'s public key, not a private one');
  const serviceKey = values['service-key'] === undefined ? undefined : readPem(values['service-key'], 'service-key', false);
  const out = values['service-public-key-out'];
  if (out !== undefined) serviceKeyFile(out);
  const settings = {
    merchantKey,
    serviceKey,
    merchantId: values['merchant-id'],
    port,
    host: values.host ?? '127.0.0.1',
    timeScale: Number(scale),
    profile: options.profile,
    duplicateCallbacks: Boolean(values['duplicate-callbacks']),
    allowedOrigin: values['allowed-origin'],
  };
  import('./sandbox/index.mjs')
    .then(({ startSandbox }) => startSandbox(settings))
    .then((box) => {
      if (out !== undefined) fs.writeFileSync(out, box.servicePublicKeyPem);
      const about = { url: box.url, merchantId: box.merchantId, timeScale: settings.timeScale, servicePublicKeyFile: out ?? null };
      const keyNote = out === undefined ? 'give --service-public-key-out FILE to save the key callbacks are signed with' : `callbacks are signed with the key in ${out}`;
      if (values.json) process.stdout.write(`${JSON.stringify({ event: 'ready', ...about, note: 'state in memory; not for production' })}\n`);
      else process.stdout.write(`payment-intake sandbox: ${box.url} (merchant id ${box.merchantId}; ${keyNote}; Ctrl-C stops it)\nState lives in memory and is lost on exit. Nothing here is for production.\n`);
      logSandbox(box, values.json);
      stopOnSignals(() => box.close());
    })
    .catch((e) => {
      // INVALID_OPTION: a flag's value the sandbox refused (e.g. --merchant-id), a bad argument.
      const usage = e?.code === 'INVALID_OPTION';
      process.stderr.write(`${PROG} sandbox: cannot start: ${e.code ?? ''} ${e.message}\n${usage ? `Run '${PROG} sandbox --help' for its flags.\n` : ''}`);
      process.exit(usage ? 2 : 1);
    });
  return undefined; // the server keeps the process alive
}

// ---- main ----------------------------------------------------------------------------

function main(argv) {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    if (name === 'help' && Object.hasOwn(COMMANDS, rest[0] ?? '')) process.stdout.write(commandUsage(rest[0]));
    else process.stdout.write(mainUsage());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write(`${require('./package.json').version}\n`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    process.stderr.write(`${PROG}: unknown command '${name}'\n\n${mainUsage()}`);
    return 2;
  }
  try {
    const args = parse(name, rest);
    if (args.values.help) {
      process.stdout.write(commandUsage(name));
      return 0;
    }
    return COMMANDS[name].run(args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${PROG} ${name}: ${e.message}\nRun '${PROG} ${name} --help' for its flags.\n`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));
