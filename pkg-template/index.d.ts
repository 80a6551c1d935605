// Types of the package's entries, one file for both (scripts/build.mjs copies it to
// pkg/node/index.d.ts and, with the `init` default export, to pkg/web/index.d.ts):
// the wasm build's declarations, and the key classes and functions of the JS core
// (pkg-template/core.mjs) declared here in their place.
export * from './payment_intake.js';
import type {
  Body, Diagnosis, HeadersInput, PreparedCallback, PreparedRequest, SignOptions, SignedRequest, VerifiedCallback,
  VerifyCallbackOptions, VerifyingKeyInput,
} from './payment_intake.js';

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
  /** The `x-access-token` header value for this key. */
  token(): string;
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
  /** The `x-access-token` value the service sends with this key. */
  token(): string;
  /** Modulus size in bits. */
  readonly bits: number;
}

/** Signs a request body; returns the exact body text to send and the four headers. */
export function signRequest(body: Body, signingKey: SigningKey, options: SignOptions): SignedRequest;
/** `signRequest` with the RSA operation off the main thread (node:crypto's thread pool, or WebCrypto). */
export function signRequestAsync(body: Body, signingKey: SigningKey, options: SignOptions): Promise<SignedRequest>;
/** Everything of `signRequest` but the RSA signature, with the same checks and errors. */
export function prepareRequest(body: Body, signingKey: SigningKey, options: SignOptions): PreparedRequest;
/**
 * Verifies a callback from its raw body and headers against the configured key(s).
 * Throws an `Error` with `.code` when it does not verify.
 */
export function verifyCallback(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): VerifiedCallback;
/** `verifyCallback` with the RSA check off the main thread (node:crypto's thread pool, or WebCrypto). */
export function verifyCallbackAsync(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
/** Everything of `verifyCallback` but the RSA check, with the same checks and errors. */
export function prepareCallback(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): PreparedCallback;
/**
 * For a callback that fails to verify: which canonical variant the sender used,
 * or that none matches (then the key, the timestamp or the body is wrong).
 */
export function diagnoseCallback(rawBody: string | Uint8Array, headers: HeadersInput, verifyingKey: VerifyingKey | string): Diagnosis;
