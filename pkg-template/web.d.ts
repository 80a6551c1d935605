// Types of pkg/web/index.js (copied by scripts/build.mjs): the wasm build's
// exports and `init()`, plus the async variants over WebCrypto.
export * from './payment_intake.js';
export { default } from './payment_intake.js';
import type {
  Body, HeadersInput, PreparedCallback, SignOptions, SignedRequest, SigningKey, VerifiedCallback, VerifyCallbackOptions,
  VerifyingKeyInput,
} from './payment_intake.js';

/** Everything of `verifyCallback` but the RSA check, with the same checks and errors. */
export function prepareCallback(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): PreparedCallback;
/** `signRequest` with the RSA signature made by WebCrypto (the pure-wasm one where there is none). */
export function signRequestAsync(body: Body, signingKey: SigningKey, options: SignOptions): Promise<SignedRequest>;
/** `verifyCallback` with the RSA check made by WebCrypto (the pure-wasm one where there is none). */
export function verifyCallbackAsync(
  rawBody: string | Uint8Array, headers: HeadersInput, verifyingKeys: VerifyingKeyInput, options?: VerifyCallbackOptions,
): Promise<VerifiedCallback>;
