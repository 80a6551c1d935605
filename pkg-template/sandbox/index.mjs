// payment-intake/sandbox: a local stand-in for the Payment Intake Service, for testing
// a merchant's integration end to end on one machine. NOT FOR PRODUCTION: state lives
// in memory, and nothing here is hardened for exposure beyond loopback.
//
// startSandbox(options) starts a node:http server that serves every operation of the
// spec's index at its path, checks each request's signature with the merchant's public
// key and validates its body (validateRequest, loopback http:// callback URLs allowed
// with a warning), runs the states table on the payments it creates (payments.mjs),
// and sends their callbacks signed with the service's key (callbacks.mjs), keeping every
// delivery. Its own endpoints, /sandbox/ (scenarios.mjs), list payments, scenarios and
// deliveries, force moves, deliver a callback again and serve the form_url page (pages.mjs).
// The server and how it answers each request: server.mjs.
// Built on the package's own API: nothing of the service's rules is written here again.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';

import * as api from 'payment-intake';
import { TIMESTAMP_TOLERANCE_SECONDS, fingerprint } from './auth.mjs';
import { CallbackSender } from './callbacks.mjs';
import { optionError } from './errors.mjs';
import { FaultError, Faults } from './faults.mjs';
import { PaymentBook, callbackAddress, callbackBody, lossPicker, publicPayment, stateName } from './payments.mjs';
import { ROUTES } from './routes.mjs';
import { sandboxServer } from './server.mjs';

/** Every operation of the spec's index, served at its path. */
export const OPERATIONS = ROUTES.paths;

/** The merchant id when none is given. */
export const DEFAULT_MERCHANT_ID = 'sandbox-merchant';

/** A key option: a key object of the package, or PEM text read with `fromPem`. */
function keyOption(value, KeyClass, name) {
  if (value instanceof KeyClass) return value;
  if (typeof value === 'string') return KeyClass.fromPem(value);
  throw optionError(`'${name}' must be a ${KeyClass.name} or PEM text`);
}

/** The longest wait setTimeout keeps: a longer one (or Infinity) runs after 1 ms. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Timers in the service's seconds, run `timeScale` times faster; all stopped by stop().
 * A slow scale (below 1) can make a wait longer than setTimeout allows: it is made of
 * several, so a 300 s lifetime at 1/10000 does not end after 1 ms.
 */
function scaledClock(timeScale) {
  const timers = new Set();
  return {
    after(seconds, fn) {
      const handle = { timeout: null };
      const arm = (ms) => {
        handle.timeout = setTimeout(() => {
          if (ms > MAX_TIMEOUT_MS) return arm(ms - MAX_TIMEOUT_MS);
          timers.delete(handle);
          fn();
        }, Math.min(ms, MAX_TIMEOUT_MS));
      };
      arm((seconds * 1000) / timeScale);
      timers.add(handle);
      return handle;
    },
    /** Real milliseconds of `seconds` of the service's time. */
    msOf(seconds) {
      return (seconds * 1000) / timeScale;
    },
    cancel(handle) {
      clearTimeout(handle.timeout);
      timers.delete(handle);
    },
    stop() {
      for (const handle of timers) clearTimeout(handle.timeout);
      timers.clear();
    },
  };
}

/** `timestampToleranceSeconds`: a number of seconds from 0, or Infinity / false (never refused, only warned). */
function toleranceOption(value) {
  if (value === false || value === Infinity) return Infinity;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw optionError("'timestampToleranceSeconds' must be a number of seconds from 0, or Infinity or false (never refused, only warned)");
}

/**
 * Starts a sandbox. Options: `merchantKey` (required: the merchant's public key, PEM or
 * VerifyingKey), `merchantId` (default 'sandbox-merchant'), `serviceKey` (PEM or
 * SigningKey; generated when absent), `port` (0: any free one), `host` ('127.0.0.1'),
 * `timeScale` (1; 60 makes a 300 s lifetime last 5 s), `profile` ('spec': the rules
 * requests are checked and callbacks signed with), `duplicateCallbacks` (false),
 * `shuffleCallbacks` (false: a payment's callbacks may arrive out of order),
 * `concurrentCallbacks` (0; N: callbacks and their duplicates go out at once, at most N
 * attempts in flight; callbacks.mjs), `callbackAttempts` (6), `allowedOrigin` (a browser origin besides loopback ones),
 * `timestampToleranceSeconds` (300: a request whose x-access-timestamp is further from the
 * sandbox's clock is refused; Infinity or false: served, with a warning past 300),
 * `faults` (failures injected into the spec's operations: faults.mjs), `loseCallbacks` (0: a
 * share from 0 to 1 of the payments, picked at random as each is created, or a function of
 * the new payment answering whether, lose every callback: each recorded `lost`, never sent).
 */
/** startSandbox's options, checked, with their defaults. */
function sandboxOptions(options) {
  const {
    merchantId = DEFAULT_MERCHANT_ID,
    port = 0,
    host = '127.0.0.1',
    timeScale = 1,
    profile = 'spec',
    duplicateCallbacks = false,
    shuffleCallbacks = false,
    concurrentCallbacks = 0,
    callbackAttempts = 6,
    allowedOrigin,
  } = options;
  if (options.merchantKey === undefined) throw optionError("'merchantKey' (the merchant's public key) is required");
  if (typeof merchantId !== 'string' || merchantId === '') throw optionError("'merchantId' must be a non-empty string");
  if (!(Number.isFinite(timeScale) && timeScale > 0)) throw optionError("'timeScale' must be a number above 0");
  if (!api.profiles().some((p) => p.name === profile)) throw optionError(`'profile' must be one of ${api.profiles().map((p) => p.name).join(', ')}`);
  if (!(Number.isSafeInteger(callbackAttempts) && callbackAttempts >= 1)) throw optionError("'callbackAttempts' must be a whole number from 1");
  if (typeof shuffleCallbacks !== 'boolean') throw optionError("'shuffleCallbacks' must be true or false");
  if (!(Number.isSafeInteger(concurrentCallbacks) && concurrentCallbacks >= 0)) throw optionError("'concurrentCallbacks' must be a whole number from 0 (0: a payment's callbacks one after the other)");
  const toleranceSeconds = toleranceOption(options.timestampToleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS);
  const loses = lossPicker(options.loseCallbacks === undefined ? 0 : options.loseCallbacks);
  if (!loses) throw optionError("'loseCallbacks' must be a number from 0 to 1 (the share of payments whose callbacks are lost), or a function of a new payment answering whether its callbacks are lost");
  return {
    merchantId, port, host, timeScale, profile, duplicateCallbacks, shuffleCallbacks, concurrentCallbacks, callbackAttempts, allowedOrigin,
    toleranceSeconds, loses, faults: faultsOption(options.faults),
  };
}

/** The `faults` option as the sandbox's Faults. */
function faultsOption(given) {
  try {
    return new Faults(given ?? []);
  } catch (e) {
    throw e instanceof FaultError ? optionError(e.message, e) : e;
  }
}

/**
 * The merchant's and the service's keys, `{ merchantKey, serviceKey, freeOwned }`. Keys made
 * here from PEM text (or generated) are freed by `freeOwned` (close(), or a server that
 * cannot start); the caller's own key objects are not.
 */
function sandboxKeys(options, merchantId) {
  const owned = [];
  const own = (key, given) => (key !== given && owned.push(key), key);
  const freeOwned = () => owned.splice(0).forEach((key) => key.free());
  const merchantKey = own(keyOption(options.merchantKey, api.VerifyingKey, 'merchantKey'), options.merchantKey);
  let serviceKey;
  try {
    serviceKey = own(options.serviceKey === undefined ? api.SigningKey.generate() : keyOption(options.serviceKey, api.SigningKey, 'serviceKey'), options.serviceKey);
  } catch (e) {
    freeOwned();
    throw e;
  }
  // Requests must carry the merchant id as x-access-merchant-id, and so must callbacks:
  // an id the package would not sign with (its one rule, src/spec/limits.rs: a space, a
  // control or non-ASCII character, over 128 characters) would make a sandbox that refuses
  // every request, and whose callbacks it cannot sign. Refused here, in the package's words.
  try {
    api.prepareRequest('{}', serviceKey, { merchantId, timestamp: '1700000000' });
  } catch (e) {
    freeOwned();
    throw optionError(e.message, e);
  }
  return { merchantKey, serviceKey, freeOwned };
}

/** A move of a payment: emitted, and its callback sent (when the payment has a callback address). */
function notify(sb, payment, move) {
  sb.emit({ type: 'move', payment: publicPayment(payment), move: { ...move } });
  const { kind, url } = callbackAddress(payment);
  if (!url) return;
  payment.callbacks += 1;
  payment.lastCallback = { seq: payment.callbacks, kind, url, body: callbackBody(payment, sb.baseUrl), state: stateName(move), lost: payment.callbacksLost };
  sb.sender.send(payment.requestId, payment.lastCallback);
}

/** The running sandbox's state (server.mjs reads it): its options, keys, events, clock, callback sender and payment book. */
function sandboxState(o, keys) {
  const events = new EventEmitter();
  const sb = {
    ...o, ...keys, events, emit: (event) => events.emit(event.type, event), clock: scaledClock(o.timeScale), baseUrl: undefined, closing: undefined,
  };
  const record = (requestId, delivery) => {
    const payment = sb.book.byRequestId(requestId);
    if (payment) sb.book.record(payment, delivery);
  };
  sb.sender = new CallbackSender({
    api, key: keys.serviceKey, merchantId: o.merchantId, profile: o.profile, clock: sb.clock, attempts: o.callbackAttempts, duplicates: o.duplicateCallbacks,
    shuffle: o.shuffleCallbacks, concurrent: o.concurrentCallbacks, emit: sb.emit, record,
  });
  sb.book = new PaymentBook({ clock: sb.clock, loses: o.loses, baseUrl: () => sb.baseUrl, notify: (payment, move) => notify(sb, payment, move) });
  sb.merchantKeyFingerprint = fingerprint(crypto.createPublicKey(keys.merchantKey.publicKeyPem()));
  sb.requestRules = {
    merchantId: o.merchantId, merchantKey: keys.merchantKey, merchantKeyFingerprint: sb.merchantKeyFingerprint, profile: o.profile, toleranceSeconds: o.toleranceSeconds,
    now: () => Math.floor(Date.now() / 1000),
  };
  return sb;
}

/** `server` listening on the sandbox's port and host; the keys it owns freed when it cannot. */
function listen(sb, server) {
  return new Promise((resolve, reject) => {
    server.once('error', (e) => {
      sb.freeOwned();
      reject(e);
    });
    server.listen(sb.port, sb.host, () => {
      server.removeAllListeners('error');
      resolve();
    });
  });
}

/** Stops the payments' timers and callbacks and the server; frees the keys the sandbox owns. Once. */
function closeSandbox(sb, server) {
  sb.closing ??= new Promise((resolve) => {
    sb.book.stop();
    sb.clock.stop();
    sb.sender.close();
    server.close(() => {
      sb.freeOwned();
      resolve();
    });
    server.closeAllConnections();
  });
  return sb.closing;
}

/**
 * Starts a sandbox. Options: `merchantKey` (required: the merchant's public key, PEM or
 * VerifyingKey), `merchantId` (default 'sandbox-merchant'), `serviceKey` (PEM or
 * SigningKey; generated when absent), `port` (0: any free one), `host` ('127.0.0.1'),
 * `timeScale` (1; 60 makes a 300 s lifetime last 5 s), `profile` ('spec': the rules
 * requests are checked and callbacks signed with), `duplicateCallbacks` (false),
 * `shuffleCallbacks` (false: a payment's callbacks may arrive out of order),
 * `concurrentCallbacks` (0; N: callbacks and their duplicates go out at once, at most N
 * attempts in flight; callbacks.mjs), `callbackAttempts` (6), `allowedOrigin` (a browser origin besides loopback ones),
 * `timestampToleranceSeconds` (300: a request whose x-access-timestamp is further from the
 * sandbox's clock is refused; Infinity or false: served, with a warning past 300),
 * `faults` (failures injected into the spec's operations: faults.mjs), `loseCallbacks` (0: a
 * share from 0 to 1 of the payments, picked at random as each is created, or a function of
 * the new payment answering whether, lose every callback: each recorded `lost`, never sent).
 */
export async function startSandbox(options = {}) {
  const o = sandboxOptions(options);
  const sb = sandboxState(o, sandboxKeys(options, o.merchantId));
  const server = sandboxServer(sb);
  await listen(sb, server);
  const shownHost = sb.host.includes(':') ? `[${sb.host}]` : sb.host;
  sb.baseUrl = `http://${shownHost}:${server.address().port}`;
  return {
    url: sb.baseUrl,
    merchantId: sb.merchantId,
    servicePublicKeyPem: sb.serviceKey.publicKeyPem(),
    events: sb.events,
    /** A copy of every payment, with its history of states. */
    payments: () => sb.book.all().map(publicPayment),
    /** Resolves when every callback queued so far is delivered or given up. */
    callbacksIdle: () => sb.sender.idle(),
    close: () => closeSandbox(sb, server),
  };
}
