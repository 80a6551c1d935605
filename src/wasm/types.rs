//! The TypeScript declarations of the shapes the JS API takes and returns
//! (wasm-bindgen writes them into the glue's `.d.ts`; `pkg-template/index.d.ts`
//! declares the functions and classes of the package's own entries with them).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Canonical-form variant. Defaults: falsy 'none', booleans 'python', padding true, order 'codepoint'. */
export interface CanonicalOptions {
  /** 'none': null, "", 0, 0.0 and false are written `None` (default). 'null': only null is. */
  falsy?: 'none' | 'null';
  /** How true/false are written when not `None`: 'python' True/False (default), 'lower' true/false, 'digit' 1/0. */
  booleans?: 'python' | 'lower' | 'digit';
  /** Keep base64url `=` padding (default true). */
  padding?: boolean;
  /** Entry order: 'codepoint' (default, as Python) or 'utf16' (as JS `Array.prototype.sort`). */
  order?: 'codepoint' | 'utf16';
}
/** A request or callback body: exact JSON text (signed as is), UTF-8 bytes, or a plain object. */
export type Body = string | Uint8Array | object;
/** Unix seconds, as a number or a string of digits. */
export type Timestamp = number | string;
export interface CanonicalStepsResult { entries: string[]; joined: string; encoded: string; message: string; }
export interface AccessHeaders {
  'x-access-timestamp': string;
  'x-access-merchant-id': string;
  'x-access-signature': string;
  'x-access-token': string;
}
/**
 * Which RSA implementation runs. 'native': node:crypto in Node (sync), WebCrypto in the
 * async variants; 'wasm': the package's own WebAssembly. Default: native where it exists.
 */
export type Backend = 'native' | 'wasm';
export interface SignOptions {
  merchantId: string;
  /** Unix seconds (at most 10 digits); defaults to now. */
  timestamp?: Timestamp | undefined;
  options?: CanonicalOptions | undefined;
  backend?: Backend | undefined;
  /**
   * Refuse (AMBIGUOUS_REQUEST) a body whose signed message would not determine it: a key
   * holding ':' or ';', or text holding ';' followed by ':' text. Off by default.
   */
  strict?: boolean | undefined;
}
export interface SignedRequest { body: string; headers: AccessHeaders; }
/** Header names in any letter case. */
export type HeadersInput = Record<string, string | string[] | undefined> | Headers | Map<string, string> | Array<[string, string]>;
export type VerifyingKeyInput = VerifyingKey | string | Array<VerifyingKey | string>;
export interface VerifyCallbackOptions {
  options?: CanonicalOptions;
  /** Refuse callbacks whose timestamp is further than this from `now` (e.g. 300). Off when absent. */
  toleranceSeconds?: number;
  /** Unix seconds; defaults to the current time. */
  now?: number;
  /** Largest raw body accepted, in bytes (default 16 KiB, at most 1 MiB). */
  maxBodyBytes?: number;
  backend?: Backend | undefined;
  /**
   * Return the model of a body that its signed message does not determine, flagged in
   * `verification.ambiguous`, instead of throwing AMBIGUOUS_CALLBACK. Off by default: another
   * body, with another meaning, carries the same signature; never act on such a model.
   */
  allowAmbiguous?: boolean;
  /** Refuse (MERCHANT_ID_MISMATCH) a callback whose x-access-merchant-id is not this. */
  expectedMerchantId?: string;
}
/** A place where the signed message does not determine the body. */
export interface Ambiguity {
  /** Dotted path of the key or value. */
  path: string;
  /**
   * 'KEY_SEPARATOR': a key holds ':' or ';'. 'EMPTY_TOP_LEVEL_KEY': a top-level key is empty.
   * 'VALUE_ENTRY_TEXT': text holds ';' followed by ':' text. 'UNREAD_AFTER_TEXT' (callbacks): a
   * member the model does not read follows the text of project_id, payment_id or request_id.
   */
  rule: 'KEY_SEPARATOR' | 'EMPTY_TOP_LEVEL_KEY' | 'VALUE_ENTRY_TEXT' | 'UNREAD_AFTER_TEXT';
}
/** A verified callback: the callback model plus how it was verified. */
export interface VerifiedCallback extends Callback {
  verification: {
    timestamp: number;
    /** As received: x-access-merchant-id is not covered by the signature. */
    merchantId: string;
    keyIndex: number;
    options: Required<CanonicalOptions>;
    /** True only with `allowAmbiguous`, for a body its signed message does not determine. */
    ambiguous: boolean;
    ambiguities: Ambiguity[];
  };
}
export interface Diagnosis {
  matched: boolean;
  options: Required<CanonicalOptions> | null;
  matching: Array<Required<CanonicalOptions>>;
  defaultError: { code: ErrorCode; message: string } | null;
  tokenMatchesKey: boolean;
  messagesTried: number;
  hint: string;
}
export type ErrorCode =
  | 'INVALID_JSON' | 'BODY_NOT_OBJECT' | 'BODY_TOO_LARGE' | 'BODY_TOO_DEEP' | 'DUPLICATE_KEY'
  | 'INVALID_NUMBER' | 'INVALID_BODY' | 'INVALID_TIMESTAMP' | 'INVALID_OPTION' | 'INVALID_ARGUMENT'
  | 'INVALID_KEY' | 'KEY_ENCRYPTED' | 'KEY_TYPE_UNSUPPORTED' | 'KEY_SIZE_UNSUPPORTED' | 'KEY_EXPONENT_UNSUPPORTED'
  | 'MISSING_HEADER' | 'INVALID_HEADER' | 'INVALID_PUBLIC_KEY' | 'INVALID_SIGNATURE'
  | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'NO_VERIFYING_KEY' | 'CRYPTO_FAILURE'
  | 'INVALID_AMOUNT' | 'UNKNOWN_CURRENCY' | 'INVALID_CALLBACK' | 'INVALID_RESPONSE'
  | 'AMBIGUOUS_CALLBACK' | 'AMBIGUOUS_REQUEST' | 'MERCHANT_ID_MISMATCH';
/** Every thrown error is an `Error` with these members. */
export interface PaymentIntakeError extends Error {
  code: ErrorCode;
  hint?: string;
  path?: string;
  /** AMBIGUOUS_CALLBACK: true, the signature is genuine (the body is still not to be acted on). */
  verified?: boolean;
  /** AMBIGUOUS_CALLBACK: the body as received, so nothing is lost. */
  rawBody?: string;
  /** AMBIGUOUS_CALLBACK and AMBIGUOUS_REQUEST: where the signed message does not determine the body. */
  ambiguities?: Ambiguity[];
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TS_NATIVE_TYPES: &'static str = r#"
/** What `prepareRequest` returns: all of a signed request but the signature. */
export interface PreparedRequest {
  /** The exact body text to send. */
  body: string;
  /** The canonical message: sign the SHA-256 of its UTF-8 bytes (RSA PKCS#1 v1.5). */
  message: string;
  /** The headers but `x-access-signature`. */
  headers: { 'x-access-timestamp': string; 'x-access-merchant-id': string; 'x-access-token': string };
  /** Whether `x-access-signature` keeps its base64url `=` padding (the `padding` option). */
  padding: boolean;
}
/** What the wrappers' `prepareCallback` returns: all of `verifyCallback` but the RSA check. */
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
"#;
