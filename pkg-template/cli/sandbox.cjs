// `payment-intake sandbox`: the local sandbox of the service (pkg/sandbox/), with a log line
// per payment move and callback attempt.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { PROG, UsageError } = require('./args.cjs');
const { api, canonicalOptions, portFlag, readPem, stopOnSignals } = require('./io.cjs');

/** One line per move and per callback attempt (or a JSON line each with --json). */
function logSandbox(box, json) {
  const line = (event, text) => process.stdout.write(json ? `${JSON.stringify(event)}\n` : `${text}\n`);
  box.events.on('move', ({ payment: p, move }) => {
    const state = move.subStatus ? `${move.status}:${move.subStatus}` : move.status;
    line({ event: 'move', requestId: p.requestId, projectId: p.projectId, paymentId: p.paymentId, ...move }, `payment ${p.paymentId} (${p.requestId}): ${state}${move.statusDescription ? ` '${move.statusDescription}'` : ''}`);
  });
  box.events.on('callback', (e) => {
    const { body, ...event } = e;
    if (e.lost) return line({ event: 'callback', ...event }, `callback ${e.kind} -> ${e.url}: lost (--lose-callbacks), never sent`);
    const outcome = e.status === null ? e.error : `HTTP ${e.status}${e.code ? ` ${e.code}` : ''}`;
    return line({ event: 'callback', ...event }, `callback ${e.kind}${e.duplicate ? ' (duplicate)' : ''} -> ${e.url}: ${outcome}, attempt ${e.attempt}${e.gaveUp ? ', given up' : ''}`);
  });
  // A client that closed the connection mid-request: its doing, one quiet line (no stack).
  box.events.on('client-gone', ({ method, path: target }) => line({ event: 'client-gone', method, path: target }, `client went away: ${method} ${target} (closed the connection before its request body ended)`));
  box.events.on('fault', ({ path: target, fault }) => line({ event: 'fault', path: target, ...fault }, `fault ${fault.type} -> ${target}`));
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

/**
 * --service-key FILE: the service's private key of an earlier run, or, when FILE does not
 * exist, a new one written there (only the owner may read it), so that the next run signs
 * with the same key and a receiver's service-public.pem stays right.
 */
function serviceSigningKey(file) {
  if (fs.existsSync(file)) return readPem(file, 'service-key', false);
  if (!fs.existsSync(path.dirname(path.resolve(file)))) throw new UsageError(`--service-key: ${path.dirname(file)} is not a directory`);
  const key = api().SigningKey.generate();
  try {
    fs.writeFileSync(file, key.privateKeyPem(), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    throw new UsageError(`--service-key: ${file} could not be written (${e.code ?? e.message})`);
  }
  process.stderr.write(`${PROG} sandbox: wrote a new service key to ${file} (the next run signs with it)\n`);
  return key;
}

/** --timestamp-tolerance: whole seconds, or 'off' (serve with a warning). */
function toleranceFlag(value) {
  if (value === undefined) return undefined;
  if (value === 'off') return false;
  if (!/^\d+$/.test(value)) throw new UsageError(`--timestamp-tolerance must be whole seconds or 'off', got '${value}'`);
  return Number(value);
}

/** --concurrent-callbacks N: a whole number from 1. */
function concurrencyFlag(value) {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) throw new UsageError(`--concurrent-callbacks must be a whole number from 1, got '${value}'`);
  return Number(value);
}

/** --lose-callbacks SHARE: a decimal share from 0 to 1 (0.3: about 3 payments in 10 lose every callback). */
function loseFlag(value) {
  if (value === undefined) return 0;
  if (!/^(0|1)?(\.\d+)?$/.test(value) || !/\d/.test(value) || !(Number(value) >= 0 && Number(value) <= 1)) {
    throw new UsageError(`--lose-callbacks must be a share from 0 to 1 (e.g. 0.3), got '${value}'`);
  }
  return Number(value);
}

/** The text banner's line on --lose-callbacks, when some are lost. */
const loseNote = (share) => (share > 0 ? `The callbacks of ${share === 1 ? 'every payment' : `about ${Math.round(share * 1000) / 10}% of the payments`} are lost (--lose-callbacks ${share}): find their state with the info operations.\n` : '');

/** --faults FILE: the JSON array startSandbox({ faults }) takes (checked there). */
function faultsFlag(file) {
  if (file === undefined) return undefined;
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--faults: cannot read ${file}: ${e.message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--faults: ${file} is not JSON: ${e.message}`);
  }
}

function sandbox({ values }) {
  if (values['merchant-key'] === undefined) throw new UsageError("--merchant-key FILE (the merchant's public key PEM) is required");
  const port = portFlag(values, '0');
  const scale = values['time-scale'] ?? '1';
  if (!/^\d+(\.\d+)?$/.test(scale) || !(Number(scale) > 0)) throw new UsageError(`--time-scale must be a number above 0, got '${scale}'`);
  const options = canonicalOptions({ profile: values.profile });
  const merchantKey = readPem(values['merchant-key'], 'merchant-key', true);
  if (!(merchantKey instanceof api().VerifyingKey)) throw new UsageError('--merchant-key: give the merchant\'s public key, not a private one');
  const serviceKey = values['service-key'] === undefined ? undefined : serviceSigningKey(values['service-key']);
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
    shuffleCallbacks: Boolean(values['shuffle-callbacks']),
    concurrentCallbacks: concurrencyFlag(values['concurrent-callbacks']),
    allowedOrigin: values['allowed-origin'],
    timestampToleranceSeconds: toleranceFlag(values['timestamp-tolerance']),
    faults: faultsFlag(values.faults),
    loseCallbacks: loseFlag(values['lose-callbacks']),
  };
  import('../sandbox/index.mjs')
    .then(({ startSandbox }) => startSandbox(settings))
    .then((box) => {
      if (out !== undefined) fs.writeFileSync(out, box.servicePublicKeyPem);
      const callbacks = { duplicate: settings.duplicateCallbacks, shuffle: settings.shuffleCallbacks, concurrent: settings.concurrentCallbacks, lose: settings.loseCallbacks };
      const about = { url: box.url, merchantId: box.merchantId, timeScale: settings.timeScale, callbacks, servicePublicKeyFile: out ?? null };
      const keyNote = out === undefined ? 'give --service-public-key-out FILE to save the key callbacks are signed with' : `callbacks are signed with the key in ${out}`;
      if (values.json) process.stdout.write(`${JSON.stringify({ event: 'ready', ...about, note: 'state in memory; not for production' })}\n`);
      else process.stdout.write(`${PROG} sandbox: ${box.url} (merchant id ${box.merchantId}; ${keyNote}; Ctrl-C stops it)\nState lives in memory and is lost on exit. Nothing here is for production.\n${loseNote(settings.loseCallbacks)}`);
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

module.exports = sandbox;
