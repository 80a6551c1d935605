// The command line's arguments: every command's flags, usage and help text, and the parsing.
// One table of flags per command; the rule flags' choices are the package's optionTable()'s,
// read at run time (the help prints them as `a|b|c`). Each command's work is in its own file, cli/<command>.cjs.
'use strict';

const { parseArgs } = require('node:util');

const PROG = 'payment-intake';

/** A bad argument: printed with the command's --help line, exit 2. */
class UsageError extends Error {}

// A flag with `option` takes the choices of that row of the package's optionTable() (read on
// first use), so a choice added there reaches the help and the checks; a help naming them is a function.
let optionRows;
const optionChoices = (name) => (optionRows ??= require('payment-intake').optionTable()).find((row) => row.name === name).choices.map((c) => c.value);
const choicesOf = (flag) => (flag.option ? optionChoices(flag.option) : undefined);
const helpOf = (flag) => (typeof flag.help === 'function' ? flag.help() : flag.help);
const profileNames = () => optionChoices('profile').join(', ');
/** The rule flags; each flag's choices are the option table's. */
const CANONICAL = {
  profile: { type: 'string', arg: 'NAME', help: () => `start from a named profile: ${profileNames()}` },
  falsy: { type: 'string', option: 'falsy', help: 'which leaves are written None' },
  booleans: { type: 'string', option: 'booleans', help: 'how true/false are written' },
  padding: { type: 'boolean', help: 'keep base64url "=" padding' },
  'no-padding': { type: 'boolean', help: 'drop base64url "=" padding' },
  order: { type: 'string', option: 'order', help: 'entry order' },
  numbers: { type: 'string', option: 'numbers', help: 'how numbers are written' },
  digest: { type: 'string', option: 'digest', help: 'what RSA-SHA256 signs' },
  token: { type: 'string', option: 'token', help: 'x-access-token encoding (RSA)' },
  'signature-encoding': { type: 'string', option: 'signatureEncoding', help: 'HMAC signature text' },
};
const HMAC_HELP = 'HMAC-SHA512 secret file instead of an RSA key (one trailing newline, \\n or \\r\\n, is removed; nothing else)';
const HEADERS_HELP = 'the headers: a JSON object, or "name: value" lines ("-": stdin, then give --body)';
const BODY = { body: { type: 'string', arg: 'FILE', help: 'read the body from FILE instead of stdin' } };
const JSON_FLAG = { json: { type: 'boolean', help: 'print JSON instead of text for people' } };
const HELP = { help: { type: 'boolean', short: 'h', help: 'show this help' } };

/** The key files, one set of names everywhere: keygen writes the first two, the sandbox the third. */
const KEY_FILES = { private: 'merchant-private.pem', public: 'merchant-public.pem', service: 'service-public.pem' };

const COMMANDS = {
  keygen: {
    usage: 'keygen [--bits 2048] [--out-dir DIR] [--force] [--json]',
    about: `Generates the merchant's RSA key pair: DIR/${KEY_FILES.private} (PKCS#8, mode 600) and DIR/${KEY_FILES.public} (SPKI); makes DIR when missing.`,
    flags: {
      bits: { type: 'string', arg: 'N', help: 'modulus size, 2048 to 4096 (default 2048)' },
      'out-dir': { type: 'string', arg: 'DIR', help: 'where to write the files, made when missing (default: the current directory)' },
      force: { type: 'boolean', help: 'overwrite existing files' },
      ...JSON_FLAG,
    },
  },
  sign: {
    usage: `sign (--key ${KEY_FILES.private} | --hmac-secret FILE) --merchant-id ID [--timestamp T] [options] [--curl URL] < body.json`,
    about: 'Signs a request body; prints the headers (and with --curl a ready curl command).',
    flags: {
      key: { type: 'string', arg: 'FILE', help: `RSA private key PEM (PKCS#8 or PKCS#1), e.g. ${KEY_FILES.private}` },
      'hmac-secret': { type: 'string', arg: 'FILE', help: HMAC_HELP },
      'merchant-id': { type: 'string', arg: 'ID', help: 'x-access-merchant-id (required)' },
      timestamp: { type: 'string', arg: 'T', help: 'Unix seconds (default: now)' },
      curl: { type: 'string', arg: 'URL', help: 'also print a curl command that POSTs the body to URL' },
      ...CANONICAL,
      ...BODY,
      ...JSON_FLAG,
    },
  },
  verify: {
    usage: `verify (--key ${KEY_FILES.service}[,FILE…] | --hmac-secret FILE[,FILE…]) --headers FILE|- [options] < body`,
    about: 'Verifies a callback; prints its model, or the error code and hint (exit 1).',
    flags: {
      key: { type: 'string', arg: 'FILE[,FILE…]', help: `the service's public key PEM(s), e.g. ${KEY_FILES.service} (a private key PEM works too)` },
      'hmac-secret': { type: 'string', arg: 'FILE[,FILE…]', help: HMAC_HELP },
      headers: { type: 'string', arg: 'FILE|-', help: HEADERS_HELP },
      tolerance: { type: 'string', arg: 'SECONDS', help: 'refuse a timestamp further than this from now' },
      ...CANONICAL,
      ...BODY,
      ...JSON_FLAG,
    },
  },
  diagnose: {
    usage: `diagnose (--key ${KEY_FILES.service}[,FILE…] | --hmac-secret FILE[,FILE…]) --headers FILE|- < body`,
    about: 'Finds the rules (dialect) a callback was signed with, or why none matches (exit 1).',
    flags: {
      key: { type: 'string', arg: 'FILE[,FILE…]', help: `public (or private) key PEM(s), e.g. ${KEY_FILES.service}` },
      'hmac-secret': { type: 'string', arg: 'FILE[,FILE…]', help: HMAC_HELP },
      headers: { type: 'string', arg: 'FILE|-', help: HEADERS_HELP },
      ...BODY,
      ...JSON_FLAG,
    },
  },
  validate: {
    usage: 'validate OPERATION [--allow-loopback-http] [--json] < body.json',
    about: 'Validates a request body for an operation path (one of the operations below); exit 1 when not valid.',
    flags: {
      'allow-loopback-http': { type: 'boolean', help: 'an http:// URL to a loopback host is a warning, not an error (for a local sandbox)' },
      ...BODY,
      ...JSON_FLAG,
    },
    positional: 'OPERATION',
  },
  sandbox: {
    usage: `sandbox --merchant-key ${KEY_FILES.public} [--merchant-id ID] [--port 0] [--host 127.0.0.1] [--time-scale N] [options]`,
    about: 'Runs a local sandbox of the service until Ctrl-C (state in memory; not for production). See README, "Local sandbox".',
    flags: {
      'merchant-key': { type: 'string', arg: 'FILE', help: `the merchant's public key PEM, e.g. ${KEY_FILES.public} (required): requests must be signed with its private key` },
      'merchant-id': { type: 'string', arg: 'ID', help: 'the x-access-merchant-id requests must carry (default sandbox-merchant)' },
      'service-key': { type: 'string', arg: 'FILE', help: "the service's private key PEM that signs callbacks; a new one is written there when FILE does not exist (default: a new one each run)" },
      'service-public-key-out': { type: 'string', arg: 'FILE', help: `write the service public key (SPKI PEM) here, e.g. ${KEY_FILES.service}, for your receiver` },
      port: { type: 'string', arg: 'P', help: 'TCP port, 0 to 65535; 0 picks a free one (default 0)' },
      host: { type: 'string', arg: 'H', help: 'address to listen on (default 127.0.0.1)' },
      'time-scale': { type: 'string', arg: 'N', help: 'run N times faster than the service: 60 makes a 300 s lifetime last 5 s (default 1)' },
      'duplicate-callbacks': { type: 'boolean', help: 'send every delivered callback twice' },
      'shuffle-callbacks': { type: 'boolean', help: "a payment's callbacks may arrive out of order (each held a random 0 to 3 s of service time)" },
      'lose-callbacks': { type: 'string', arg: 'SHARE', help: 'a share from 0 to 1 of the payments, picked at random as each is created, never get a callback (each recorded as lost): try reconciliation through the info operations' },
      'concurrent-callbacks': { type: 'string', arg: 'N', help: 'deliver callbacks and their duplicates at once, at most N attempts in flight (default: one after the other per payment)' },
      profile: { type: 'string', arg: 'NAME', help: () => `signing rules for requests and callbacks: ${profileNames().replace(/^[^,]+/, '$& (default)')}` },
      'allowed-origin': { type: 'string', arg: 'ORIGIN', help: 'a browser origin allowed besides loopback ones (CORS)' },
      'timestamp-tolerance': { type: 'string', arg: 'S', help: "refuse a request whose x-access-timestamp is more than S seconds from the sandbox's clock (default 300); 'off' serves it with a TIMESTAMP_SKEW warning" },
      faults: { type: 'string', arg: 'FILE', help: 'inject failures into the operations: a JSON array of faults (README, "Faults")' },
      ...JSON_FLAG,
    },
  },
  call: {
    usage: `call OPERATION --base-url URL --merchant-id ID (--key ${KEY_FILES.private} | --hmac-secret-file FILE) [--body FILE|-] [--project-id ID] [--timeout MS] [--retries N] [options] [--json]`,
    about: "Calls an operation of the service (one of the operations below, by path) through the package's client: validated, signed, sent, retried; prints the answer's model (exit 1 with the error code).",
    flags: {
      'base-url': { type: 'string', arg: 'URL', help: "the service's base URL, e.g. a sandbox's http://127.0.0.1:PORT (required)" },
      'merchant-id': { type: 'string', arg: 'ID', help: 'x-access-merchant-id (required)' },
      key: { type: 'string', arg: 'FILE', help: `RSA private key PEM (PKCS#8 or PKCS#1), e.g. ${KEY_FILES.private}` },
      'hmac-secret-file': { type: 'string', arg: 'FILE', help: HMAC_HELP },
      'project-id': { type: 'string', arg: 'ID', help: 'the project of a body-less info, confirm, cancel, balance or bank list' },
      'payment-id': { type: 'string', arg: 'ID', help: 'the payment of a body-less info, confirm or cancel' },
      timeout: { type: 'string', arg: 'MS', help: 'the whole call, across attempts (default 30000)' },
      retries: { type: 'string', arg: 'N', help: 'retries after the first attempt (default 2)' },
      'no-validate': { type: 'boolean', help: 'send the body without validating it first' },
      ...CANONICAL,
      body: { type: 'string', arg: 'FILE|-', help: 'the request body (a file, or - for stdin); without it, --project-id and --payment-id make the body' },
      ...JSON_FLAG,
    },
    positional: 'OPERATION',
  },
  debugger: {
    usage: 'debugger [--port 8080] [--host 127.0.0.1]',
    about: 'Serves the integration debugger page of the installed package at http://HOST:PORT/www/ until Ctrl-C.',
    flags: {
      port: { type: 'string', arg: 'P', help: 'TCP port, 0 to 65535; 0 picks a free one (default 8080)' },
      host: { type: 'string', arg: 'H', help: 'address to listen on (default 127.0.0.1; the page holds keys, keep it local)' },
    },
  },
};

function mainUsage() {
  const lines = Object.values(COMMANDS).map((c) => `  ${PROG} ${c.usage}\n      ${c.about}`);
  return `Usage:\n${lines.join('\n')}\n\nRun '${PROG} COMMAND --help' for a command's flags.\n` +
    'Exit codes: 0 ok, 1 verification failed / body not valid, 2 bad arguments.\n';
}

function commandUsage(name) {
  const c = COMMANDS[name];
  const flags = { ...c.flags, ...HELP };
  const arg = (f) => f.arg ?? choicesOf(f)?.join('|');
  const left = (n, f) => `  ${f.short ? `-${f.short}, ` : ''}--${n}${arg(f) ? ` ${arg(f)}` : ''}`;
  const width = Math.max(...Object.entries(flags).map(([n, f]) => left(n, f).length)) + 2;
  const rows = Object.entries(flags).map(([n, f]) => `${left(n, f).padEnd(width)}${helpOf(f)}`);
  const operations = c.positional === 'OPERATION' ? `\n\nOperations:\n${operationsHelp()}` : '';
  return `Usage: ${PROG} ${c.usage}\n\n${c.about}${operations}\n\nFlags:\n${rows.join('\n')}\n`;
}

/** The operations `call` and `validate` take, a line each (path, the client's method), from the package's operation table. */
function operationsHelp(table = require('payment-intake').operationTable()) {
  const width = Math.max(...table.map((row) => row.path.length)) + 2;
  return table.map((row) => `  ${row.path.padEnd(width)}client.${row.name}${row.create ? ' (creates a payment)' : ''}`).join('\n');
}

/** `{ values, positionals }` of a command's arguments; UsageError for anything it does not take. */
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
    const choices = values[n] === undefined ? undefined : choicesOf(f);
    if (choices && !choices.includes(values[n])) {
      throw new UsageError(`--${n} must be one of ${choices.join(', ')}, got '${values[n]}'`);
    }
  }
  if (c.positional && !values.help && positionals.length !== 1) {
    throw new UsageError(`expected one ${c.positional}, got ${positionals.length}`);
  }
  return { values, positionals };
}

module.exports = { PROG, UsageError, COMMANDS, KEY_FILES, mainUsage, commandUsage, operationsHelp, parse };
