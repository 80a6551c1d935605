// The package's one error class and the one factory of its errors (one module of every build:
// scripts/build.mjs bundles it once into each, the core's, the client's and the receiver's).
// The wasm makes no error object: it gives an error's data (`{ message, code, status, hint,
// … }`, src/wasm/js.rs), thrown by the glue or returned, and `fromWasm` makes the error of it
// here; the few errors the JS makes itself (a key that is not the package's, a failed native
// RSA operation, a wasm not loaded yet) are made here too, with the statuses of the wasm's one
// table (`__constants().statuses`).

/**
 * The class of every error the package throws (`instanceof Error` too): `.code` (one of
 * `errorCodes()`), `.status` (the HTTP status a callback receiver answers), `.message`,
 * and where known `.hint`, `.path`, `.verified`, `.body`, `.verification`.
 */
class PaymentIntakeError extends Error {
  constructor(message) {
    super(message);
    this.name = 'PaymentIntakeError';
  }
}

/** Whether `value` is an error of this package (of this copy, or of another copy or realm). */
function isPaymentIntakeError(value) {
  if (value instanceof PaymentIntakeError) return true;
  try {
    return value instanceof Error && value.name === 'PaymentIntakeError' && typeof value.code === 'string';
  } catch {
    return false; // a Proxy whose traps throw
  }
}

/** Read once as this module loads: a caller's replacement must not run inside the package. */
const { hasOwn } = Object;

/** The members of an error's data after its message, in the order they are set. */
const MEMBERS = ['code', 'status', 'hint', 'path', 'verified', 'body', 'rawBody', 'ambiguities', 'verification'];

/**
 * The errors of the API over `glue` (one set for the core, the client and the receiver over
 * the same glue): `make(code, message, details)`, every error the JS makes;
 * `fromWasm(data)`, the error of the wasm's data;
 * `fromThrown(value)`, what a call into the glue threw, as the package's error (the wasm's
 * data, or a glue not loaded yet); `invalidArgument(name, reason)`, `cryptoFailure(cause)`;
 * `unwrap(answer)`, the value of a private export's `{ ok, value | error }`; and
 * `guard(fn)`, `fn` with what it throws (or its promise rejects with) made so.
 */
function createErrors(glue) {
  let errors = made.get(glue);
  if (errors === undefined) made.set(glue, (errors = errorsOver(glue)));
  return errors;
}

/** The errors of each glue, made once: the core, the client and the receiver share them. */
const made = new WeakMap();

function errorsOver(glue) {
  let constants;
  /** The wasm's `__constants()`, read once (the web build's wasm loads in `init()`). */
  const shared = () => (constants ??= JSON.parse(glue.__constants()));
  /** Whether the wasm is loaded: the web build's glue throws a TypeError before `init()`. */
  function loaded() {
    try {
      shared();
      return true;
    } catch {
      return false;
    }
  }

  // Read now where the wasm is loaded (Node), else once a key is made (keys.mjs): an error
  // made later, of a freed key say, enters the wasm no more.
  loaded();

  function fromWasm(data) {
    const error = new PaymentIntakeError(data.message);
    for (const name of MEMBERS) if (hasOwn(data, name)) error[name] = data[name];
    return error;
  }

  /**
   * An error the JS makes (the core, the client, the receiver): `code`, its `status` from the
   * wasm's table (500 before the web build's `init()`), then each member of `details` that is
   * not undefined (`hint`, and the client's `statusCode`, `retryable`, `body`, …).
   */
  function make(code, message, details = {}) {
    const error = new PaymentIntakeError(message);
    error.code = code;
    error.status = (loaded() ? shared().statuses[code] : undefined) ?? 500;
    for (const name of Object.keys(details)) if (details[name] !== undefined) error[name] = details[name];
    return error;
  }
  const made = (code, message, hint) => make(code, message, { hint });

  /** An error shaped like the wasm's `Error::InvalidArgument`: `'name' reason`. */
  const invalidArgument = (name, reason) => made('INVALID_ARGUMENT', `'${name}' ${reason}`);

  /** The error a failed RSA operation of the native provider surfaces as (the wasm's CRYPTO_FAILURE). */
  const cryptoFailure = (cause) => made('CRYPTO_FAILURE', `RSA operation failed: ${cause?.message ?? cause}`);

  /** A function of the web build called before its wasm was loaded. */
  const notLoaded = () =>
    made(
      'INVALID_ARGUMENT',
      "'init' was not awaited: the WebAssembly module of payment-intake is not loaded yet",
      'await init() (or call initSync()) once, before any other function of the web build',
    );

  /** What a call into the glue threw, as this package's error where it is the wasm's or the glue's. */
  function fromThrown(value) {
    if (isPaymentIntakeError(value)) return value;
    // The wasm's error data: a plain object (caller code never throws through the wasm).
    if (typeof value === 'object' && value !== null && !(value instanceof Error) && hasOwn(value, 'code')) return fromWasm(value);
    if (value instanceof TypeError && !loaded()) return notLoaded();
    return value;
  }

  /** The value of a private export's answer (`{ ok: true, value }`), or its error thrown. */
  function unwrap(answer) {
    if (answer.ok) return answer.value;
    throw fromWasm(answer.error);
  }

  function guard(fn) {
    return function guarded(...args) {
      try {
        const out = fn.apply(this, args);
        return out instanceof Promise
          ? out.catch((thrown) => {
              throw fromThrown(thrown);
            })
          : out;
      } catch (thrown) {
        throw fromThrown(thrown);
      }
    };
  }

  return { cryptoFailure, fromThrown, fromWasm, guard, invalidArgument, isPaymentIntakeError, loaded, make, shared, unwrap };
}

export { PaymentIntakeError, createErrors, isPaymentIntakeError };
