// Types of pkg/node/index.js (copied by scripts/build.mjs): the wasm build's
// exports, with RSA through node:crypto, plus the async variants.
export * from './payment_intake.js';
import type {
  Body, HeadersInput, SignOptions, SignedRequest, SigningKey, VerifiedCallback, VerifyCallbackOptions, VerifyingKeyInput,
} from './payment_intake.js';

/** What `prepareCallback` returns: all of `verifyCallback` but the RSA check. */
export interface PreparedCallback {
  /** The canonical message: the signature is RSA PKCS#1 v1.5 over the SHA-256 of its UTF-8 bytes. */
  message: string;
  /** The decoded `x-access-signature`, of the key's length. */
  signature: Uint8Array;
  /** Which of the given keys the token names: verify with this one. */
  keyIndex: number;
  /** What `verifyCallback` returns once the signature checks... */
  callback: VerifiedCallback | null;
  /** ...or the error it throws then (a body without the callback shape). */
  callbackError: Error | null;
}

/** Everything of `verifyCallback` but the RSA check, with the same checks and errors. */
export function prepareCallback(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): PreparedCallback;
/** `signRequest` with the RSA operation off the main thread (node:crypto's thread pool). */
export function signRequestAsync(body: Body, signingKey: SigningKey, options: SignOptions): Promise<SignedRequest>;
/** `verifyCallback` with the RSA check off the main thread (node:crypto's thread pool). */
export function verifyCallbackAsync(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
