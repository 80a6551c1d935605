// The sandbox's errors, made by the package's one error factory (errors.mjs) over the glue
// the Node entry loads: a refused option is a PaymentIntakeError (`instanceof` the class
// `payment-intake` exports) with its code and the status of the wasm's table, as every error
// of the package. The paths are those of the built package (scripts/build.mjs).
import { createErrors } from '../node/errors.js';
import glue from '../web/payment_intake_node.cjs';

const { make } = createErrors(glue);

/** An option startSandbox refuses: INVALID_OPTION, `startSandbox: ${message}`, with what caused it. */
const optionError = (message, cause = undefined) => make('INVALID_OPTION', `startSandbox: ${message}`, { cause });

export { make, optionError };
