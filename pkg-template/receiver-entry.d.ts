// Types of payment-intake/receiver (pkg-template/receiver-entry.mjs; scripts/build.mjs writes
// them to pkg/web/receiver.d.ts, with web-init.d.ts's `init` and `initSync`): what a callback
// receiver in a browser or an edge runtime needs, and nothing else.
export type {
  Body, Callback, CallbackVerification, DeclineReason, ErrorCode, HeadersInput, PaymentInfo, PaymentInstruction, PaymentIntakeErrorDetails,
  PreparedCallback, Requisites, SpecState, VerifiedCallback, VerifyCallbackOptions, VerifyingKeyInput,
} from '#glue';
import type { Body, Callback, ErrorCode, HeadersInput, PreparedCallback, SpecState, VerifiedCallback, VerifyCallbackOptions } from '#glue';
export * from './receiver/index.js';
import type { CallbackHandler, CallbackHandlerConfig, MemoryStoreOptions, RecordingStore } from './receiver/index.js';
export { PaymentIntakeError, isPaymentIntakeError } from './errors.js';
export { HmacKey, VerifyingKey } from './keys.js';
export type { KeyInput } from './keys.js';
import type { KeyInput } from './keys.js';
export type { RawBody, RequestLike } from './callbacks.js';
import type { RawBody, RequestLike } from './callbacks.js';

/** A callback receiver: verify (RSA by WebCrypto), deduplicate, order, then your onEvent (receiver/index.d.ts). */
export function createCallbackHandler<Tx = unknown>(config: CallbackHandlerConfig<Tx>): CallbackHandler<Tx>;
/** The callback store in this process's memory: at least once, deduplicated, one process only. */
export function memoryStore(options?: MemoryStoreOptions): RecordingStore<null>;
/** Verifies a callback, the RSA check by WebCrypto. Throws a `PaymentIntakeError` when it does not verify. */
export function verifyCallbackAsync(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
/** `verifyCallbackAsync` of a Fetch `Request`: its headers, and its body's exact bytes. */
export function verifyCallbackRequest(
  request: RequestLike, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
/**
 * Verifies a callback synchronously: HMAC keys only in this entry. An RSA signature throws
 * SYNC_RSA_UNAVAILABLE (this .wasm has no RSA): call verifyCallbackAsync.
 */
export function verifyCallback(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): VerifiedCallback;
/** Everything of `verifyCallback` but the RSA check, with the same checks and errors. */
export function prepareCallback(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): PreparedCallback;
/** Reads a callback body (already verified) into its typed model. */
export function parseCallback(body: Body): Callback;
/** The spec's payment states, in its order. */
export function specStates(): SpecState[];
/** Every error code. */
export function errorCodes(): ErrorCode[];
