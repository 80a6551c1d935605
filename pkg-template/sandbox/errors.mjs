// The sandbox's errors, made by the package's one error factory (the package's Node entry's
// `__internal.make`, imported by the package's name as the rest of the sandbox does): a
// refused option is a PaymentIntakeError (`instanceof` the class `payment-intake` exports)
// with its code and the status of the wasm's table, as every error of the package.
import { __internal } from 'payment-intake';

const { make } = __internal;

/** An option startSandbox refuses: INVALID_OPTION, `startSandbox: ${message}`, with what caused it. */
const optionError = (message, cause = undefined) => make('INVALID_OPTION', `startSandbox: ${message}`, { cause });

export { make, optionError };
