// Types of pkg/node/index.js (copied by scripts/build.mjs): the wasm build's
// exports, with RSA through node:crypto, plus the async variants.
export * from './payment_intake.js';
import type {
  Body, HeadersInput, PreparedCallback, SignOptions, SignedRequest, SigningKey, VerifiedCallback, VerifyCallbackOptions,
  VerifyingKeyInput,
} from './payment_intake.js';

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
