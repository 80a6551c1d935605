// Types of the package's entries, one file for both (scripts/build.mjs copies it to
// pkg/node/index.d.ts and, with the `init` default export, to pkg/web/index.d.ts):
// the wasm build's declarations, and the key classes and functions of the JS core
// (pkg-template/core.mjs) declared here in their place.
export * from './payment_intake.js';
export * from './client/index.js';
import type { Client, ClientConfig, ClientErrorDetails } from './client/index.js';
/** A client of the service: every operation of the spec's index, signed, sent, retried safely, read into types (client/index.d.ts). */
export function createClient(config: ClientConfig): Client;
export * from './receiver/index.js';
import type { CallbackHandler, CallbackHandlerConfig, MemoryStoreOptions, RecordingStore } from './receiver/index.js';
/** A callback receiver: verify, deduplicate, order, then your onEvent (receiver/index.d.ts). */
export function createCallbackHandler<Tx = unknown>(config: CallbackHandlerConfig<Tx>): CallbackHandler<Tx>;
/** The callback store in this process's memory: at least once, deduplicated, one process only. */
export function memoryStore(options?: MemoryStoreOptions): RecordingStore<null>;
import type {
  Body, CanonicalOptions, Diagnosis, HeadersInput, PaymentIntakeErrorDetails, PreparedCallback, PreparedRequest,
  SignOptions, SignedRequest, VerifiedCallback, VerifyCallbackOptions,
} from './payment_intake.js';

// The keys' `[Symbol.dispose]()` (for `using`) needs `Symbol.dispose` declared. TypeScript
// declares it in lib `esnext.disposable` (or `es2025`+), @types/node in its globals; this
// declares the same, so a strict build with neither (lib es2022, `types: []`) compiles.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/**
 * The class of every error the package throws (also `instanceof Error`): `code` (stable),
 * `status` (the HTTP status a callback receiver answers), `message`, and where known
 * `hint`, `path`, `verified`, `body`, `verification`.
 */
export class PaymentIntakeError extends Error {
  private constructor();
  name: 'PaymentIntakeError';
}
/**
 * Every member an error of any code can carry, so that `isPaymentIntakeError(e)` is all it
 * takes to read them: the core's (`hint`, `path`, `verified`, `body`, …) and the client's
 * (`statusCode`, `retryable`, `attempts`, `existing`, …: always there on a client's error,
 * see ClientError).
 */
export interface PaymentIntakeError extends PaymentIntakeErrorDetails, Partial<Omit<ClientErrorDetails, 'body'>> {
  /** What failed beneath, when something did: always an Error (an abort's reason, the network's, the store's or a deadline's failure). */
  cause?: Error;
}
/** Whether `value` is an error thrown by this package (of any copy of it). */
export function isPaymentIntakeError(value: unknown): value is PaymentIntakeError;

/** A callback's raw body: its text, or its exact bytes (Buffer, Uint8Array, any typed array, DataView, ArrayBuffer). */
export type RawBody = string | ArrayBuffer | ArrayBufferView;
/** What `verifyCallbackRequest` reads: a Fetch `Request`, or anything with its `headers` and `arrayBuffer()`. */
export interface RequestLike {
  readonly headers: HeadersInput;
  readonly bodyUsed?: boolean;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** An RSA private key that signs requests. Freed keys throw INVALID_ARGUMENT. */
export class SigningKey {
  private constructor();
  /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits. */
  static fromPem(pem: string): SigningKey;
  /** Generates a key pair (2048 bits unless told): for tests and debugging. */
  static generate(bits?: number | null): SigningKey;
  /** The private key as PKCS#8 PEM. */
  privateKeyPem(): string;
  /** The public key as SubjectPublicKeyInfo PEM. */
  publicKeyPem(): string;
  /** The `x-access-token` header value for this key (`token`: 'pem' or 'der'; `padding`). */
  token(options?: CanonicalOptions): string;
  /** The matching public key. */
  verifyingKey(): VerifyingKey;
  /** Modulus size in bits. */
  readonly bits: number;
}

/** An RSA public key that verifies callbacks. Freed keys throw INVALID_ARGUMENT. */
export class VerifyingKey {
  private constructor();
  /** Frees the key's wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM. */
  static fromPem(pem: string): VerifyingKey;
  /** The key as SubjectPublicKeyInfo PEM. */
  publicKeyPem(): string;
  /** The `x-access-token` value the service sends with this key (`token`: 'pem' or 'der'; `padding`). */
  token(options?: CanonicalOptions): string;
  /** Modulus size in bits. */
  readonly bits: number;
}

/** An HMAC-SHA512 secret (requests or callbacks). Kept in wasm memory, wiped by free(). Freed keys throw INVALID_ARGUMENT. */
export class HmacKey {
  private constructor();
  /** Wipes the secret from wasm memory; later uses throw. Does nothing on a freed key. */
  free(): void;
  [Symbol.dispose](): void;
  /** The secret as text (without a file's trailing newline) or bytes; fewer than 16 bytes is refused (INVALID_KEY). */
  static fromSecret(secret: string | Uint8Array | ArrayBuffer): HmacKey;
}

/** A key that signs requests. */
export type RequestKey = SigningKey | HmacKey;
/** The configured key(s) that callbacks are checked against: RSA and HMAC, one or an array (rotation). */
export type KeyInput = VerifyingKey | SigningKey | HmacKey | string | Array<VerifyingKey | SigningKey | HmacKey | string>;

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
