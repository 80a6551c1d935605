// `createCallbackHandler(config)`: a callback receiver over the package's public API and a
// store (store.d.ts, the contract; memoryStore by default). handler.mjs makes the decisions,
// order.mjs orders the states by the spec's table, the adapters get the raw body of each
// framework. Each entry makes it, and `memoryStore`, with
// `receiverFactory(api, glue, sha256Hex, memoryStoreFactory)` (sha256Hex: node:crypto's on
// Node, else WebCrypto's).
import { answer, handlerOf } from './handler.mjs';
import { reconcilerOf } from './reconcile.mjs';
import { nodeAdapters } from './node-adapter.mjs';
import { fastifyPlugin } from './fastify-adapter.mjs';
import { fetchAdapter } from './fetch-adapter.mjs';
import { DEFAULTS, MAX_TIMER_MS } from './defaults.mjs';
import { storeRules } from './store-rules.mjs';
import { createErrors } from '../errors.mjs';

const defaultReport = (error) => console.error('payment-intake callback handler:', error);

/** SHA-256 of bytes as hex, by WebCrypto (browsers, Workers, Node 19+). */
async function webSha256Hex(bytes) {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function receiverFactory(api, glue, sha256Hex = webSha256Hex, memoryStoreFactory) {
  const errors = createErrors(glue);
  const make = (code, message, hint) => errors.make(code, message, { hint });
  const argument = (name, reason) => make('INVALID_ARGUMENT', `createCallbackHandler: '${name}' ${reason}`);
  const memoryStore = memoryStoreFactory(storeRules(errors, 'memoryStore'));
  const optionalFunction = (config, name) => {
    if (config[name] !== undefined && typeof config[name] !== 'function') throw argument(name, 'must be a function');
  };

  function createCallbackHandler(config) {
    if (config === null || typeof config !== 'object') throw argument('config', 'must be an object with keys and onEvent');
    if (config.keys === undefined || config.keys === null) throw argument('keys', "must be the service's key(s), as verifyCallback takes them");
    if (typeof config.onEvent !== 'function') throw argument('onEvent', 'must be a function (event, { tx }) => …: your code for each new state of a payment');
    optionalFunction(config, 'onReview');
    optionalFunction(config, 'onError');
    optionalFunction(config, 'onOutcome');
    const store = config.store ?? memoryStore();
    if (store === null || typeof store !== 'object' || typeof store.claim !== 'function' || typeof store.keep !== 'function') {
      throw argument('store', 'must be a store (memoryStore(), postgresStore(pool), redisStore(client)): an object with claim() and keep()');
    }
    const leaseMs = config.leaseMs ?? DEFAULTS.leaseMs;
    if (!(Number.isSafeInteger(leaseMs) && leaseMs > 0 && leaseMs <= MAX_TIMER_MS)) throw argument('leaseMs', `must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS} (2^31 - 1, the longest timer)`);
    if (config.verify !== undefined && (config.verify === null || typeof config.verify !== 'object')) throw argument('verify', "must be verifyCallback's options object");
    const verify = config.verify ?? {};
    let limitRead;
    /**
     * What the adapters read at most: verify.maxBodyBytes, else its default in the options
     * table, else the most it may be (the wasm's `__constants()`, src/options/mod.rs
     * MAX_BODY_BYTES_CEILING); read once the wasm is loaded.
     */
    const limit = () =>
      (limitRead ??= typeof verify.maxBodyBytes === 'number' && verify.maxBodyBytes >= 0
        ? verify.maxBodyBytes
        : (api.optionTable().find((row) => row.name === 'maxBodyBytes')?.default ?? errors.shared().maxBodyBytes));
    const onError = config.onError ?? defaultReport;
    const { handle, settle, report } = handlerOf(api, sha256Hex, {
      make, keys: config.keys, store, verify, onEvent: config.onEvent, onReview: config.onReview, onError, onOutcome: config.onOutcome, leaseMs,
    });
    const reconcile = reconcilerOf({
      store, settle, report, argument: (name, reason) => make('INVALID_ARGUMENT', `reconcile: '${name}' ${reason}`),
      invalidResponse: (message) => errors.make('INVALID_RESPONSE', `reconcile: ${message}`, { hint: 'nothing was recorded of this payment; the next run asks again' }),
      storeFailed: (cause) => errors.make('STORE_FAILED', 'reconcile: the store could not list the payments due a check; nothing was asked', { cause, hint: 'check the store (its database); the next run tries again' }),
    });

    /** The INVALID_ARGUMENT answer of a body some framework took before the handler. */
    async function refuse(message, hint) {
      const error = make('INVALID_ARGUMENT', message, hint);
      try {
        await onError(error);
      } catch {
        // the report failing changes nothing of the answer
      }
      return answer(error.status, { ok: false, code: error.code, message, hint });
    }
    const unreadable = () => answer(make('BODY_UNREADABLE', 'unreadable').status, { ok: false, code: 'BODY_UNREADABLE' });

    const { node, express } = nodeAdapters(handle, { limit, refuse, unreadable });
    return Object.freeze({
      handle: (rawBody, headers) => handle(rawBody, headers),
      node,
      express,
      fastify: fastifyPlugin(handle, limit),
      fetch: fetchAdapter(handle, { limit, refuse, unreadable }),
      reconcile: (options) => reconcile(options),
      store,
    });
  }
  // For the package's own Node modules that import it by name (stores/, sandbox/): the
  // stores' shared rules and the one error factory, so their errors are the package's.
  const internal = { storeRules: (store) => storeRules(errors, store), make: errors.make };
  return { createCallbackHandler, memoryStore, internal };
}

export { receiverFactory };
