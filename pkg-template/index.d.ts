// Types of the package's entries, one file for both (scripts/build.mjs writes it to
// pkg/node/index.d.ts and, with the `init` default export, to pkg/web/index.d.ts, `#glue`
// there the declarations of that build's wasm-bindgen glue, beside it): the wasm build's
// declarations, and the functions of the JS core (pkg-template/core.mjs) declared here in
// their place, with its classes (errors.d.ts, keys.d.ts), what a callback is read from
// (callbacks.d.ts), the client's and the receiver's types.
export * from '#glue';
export * from './client/index.js';
import type { Client, ClientConfig } from './client/index.js';
/** A client of the service: every operation of the spec's index, signed, sent, retried safely, read into types (client/index.d.ts). */
export function createClient(config: ClientConfig): Client;
export * from './receiver/index.js';
import type { CallbackHandler, CallbackHandlerConfig, MemoryStoreOptions, RecordingStore } from './receiver/index.js';
export { PaymentIntakeError, isPaymentIntakeError } from './errors.js';
// By name: the glue's declarations have key classes of these names too, which these replace.
export { HmacKey, SigningKey, VerifyingKey } from './keys.js';
export type { KeyInput, RequestKey } from './keys.js';
import type { KeyInput, RequestKey } from './keys.js';
export type { RawBody, RequestLike } from './callbacks.js';
import type { RawBody, RequestLike } from './callbacks.js';
/** A callback receiver: verify, deduplicate, order, then your onEvent (receiver/index.d.ts). */
export function createCallbackHandler<Tx = unknown>(config: CallbackHandlerConfig<Tx>): CallbackHandler<Tx>;
/** The callback store in this process's memory: at least once, deduplicated, one process only. */
export function memoryStore(options?: MemoryStoreOptions): RecordingStore<null>;
import type { OperationPath } from '#glue';
/** A row of the spec's operation index, as `operationTable()` gives it (the one table: src/spec/operations.rs). */
export interface OperationRow {
  path: OperationPath;
  /** Where the client hangs it: 'p2p.payin.create' is `client.p2p.payin.create`. */
  name: string;
  /** What it answers: a StatusResponse, an info response, the balance, the bank list. */
  model: 'status' | 'info' | 'balance' | 'banks';
  /** What its method takes: the body, `{ projectId, paymentId }`, or `{ projectId }`. */
  takes: 'body' | 'ref' | 'project';
  /** Whether it creates a payment. */
  create: boolean;
  /** The info operation of the same payments, for a create, a confirm or a cancel. */
  info: OperationPath | null;
  /** Where a confirm or a cancel leads. */
  target: 'confirm' | 'cancel' | null;
  /** How much of its body `validateRequest` checks: every field, only `general`, or only that it is an object. */
  schema: 'full' | 'generalOnly' | 'objectOnly';
}
/** Every operation of the spec's operation index, in its order. */
export function operationTable(): OperationRow[];
/**
 * A row of the builders' input-fields table, as `inputFieldTable()` gives it (the one table:
 * src/request/fields.rs): one member of `PayinInput` / `WidgetPayinInput`. A name has two rows
 * only where it lands at another path for another builder (`bankSymbol`).
 */
export interface InputFieldRow {
  /** The member of the builder's input, e.g. 'customerIp'. */
  name: string;
  /** Where its value lands in the body: 'object.member', e.g. 'customer.ip_address'. */
  path: string;
  /**
   * 'text': sent as given; 'choice': one of `choices`; 'count': a whole number, `default`
   * when absent; 'minorAmount': the amount in minor units; 'majorAmount': the amount in major
   * units as decimal text, converted by the currency into the same member (give one of the two).
   */
  type: 'text' | 'choice' | 'count' | 'minorAmount' | 'majorAmount';
  /** The values of a 'choice'; null otherwise. */
  choices: string[] | null;
  /** What the builder sends when a 'count' is absent; null otherwise, or when nothing is sent. */
  default: number | null;
  /** Which builders take it: 'p2p' `buildPayinRequest`, 'widget' `buildWidgetPayinRequest`. */
  builders: Array<'p2p' | 'widget'>;
}
/** Every input member of the builders, in the table's order (a fresh copy each call). */
export function inputFieldTable(): InputFieldRow[];
import type {
  Body, Diagnosis, HeadersInput, PreparedCallback, PreparedRequest, SignOptions, SignedRequest, VerifiedCallback, VerifyCallbackOptions,
} from '#glue';

/** Signs a request body; returns the exact body text to send and the four headers. */
export function signRequest(body: Body, signingKey: RequestKey, options: SignOptions): SignedRequest;
/** `signRequest` with the RSA operation off the main thread (node:crypto's thread pool, or WebCrypto). */
export function signRequestAsync(body: Body, signingKey: RequestKey, options: SignOptions): Promise<SignedRequest>;
/** Everything of `signRequest` but the RSA signature, with the same checks and errors. */
export function prepareRequest(body: Body, signingKey: RequestKey, options: SignOptions): PreparedRequest;
/**
 * Verifies a callback from its raw body and headers against the configured key(s).
 * Throws an `Error` with `.code` when it does not verify.
 */
export function verifyCallback(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): VerifiedCallback;
/** `verifyCallback` with the RSA check off the main thread (node:crypto's thread pool, or WebCrypto). */
export function verifyCallbackAsync(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
/**
 * `verifyCallbackAsync` of a Fetch `Request` (Next.js, Hono, Workers, Deno, Bun): its headers, and its
 * body's exact bytes from `arrayBuffer()`. A body already read is refused (INVALID_ARGUMENT).
 */
export function verifyCallbackRequest(
  request: RequestLike, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
/** Everything of `verifyCallback` but the RSA check, with the same checks and errors. */
export function prepareCallback(
  rawBody: RawBody, headers: HeadersInput, verifyingKeys: KeyInput, options?: VerifyCallbackOptions,
): PreparedCallback;
/**
 * For a callback that fails to verify: which rules the sender used (every combination of the
 * options, for each key), or why none matches: the key, else the body, else a rule we do not know.
 */
export function diagnoseCallback(rawBody: RawBody, headers: HeadersInput, keys: KeyInput): Diagnosis;
