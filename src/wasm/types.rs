//! The TypeScript declarations of the shapes the JS API takes and returns
//! (wasm-bindgen writes them into the glue's `.d.ts`; `pkg-template/index.d.ts`
//! declares the functions and classes of the package's own entries with them).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/**
 * A sender's rules: the canonical form, and how the message is signed. Every function that
 * takes options takes all of these (each uses what applies to it). Defaults: the 'spec' profile.
 */
export interface CanonicalOptions {
  /** Start from a named profile (see `profiles()`); the other members override it. */
  profile?: ProfileName | undefined;
  /** 'none': null, "", 0, 0.0 and false are written `None` (default). 'null': only null is. */
  falsy?: 'none' | 'null' | undefined;
  /** How true/false are written when not `None`: 'python' True/False (default), 'lower' true/false, 'digit' 1/0. */
  booleans?: 'python' | 'lower' | 'digit' | undefined;
  /** Keep base64url `=` padding (default true). */
  padding?: boolean | undefined;
  /** Entry order: 'codepoint' (default, as Python) or 'utf16' (as JS `Array.prototype.sort`). */
  order?: 'codepoint' | 'utf16' | undefined;
  /** Numbers: 'python' (default: integers exact, floats as `repr`) or 'js' (as `String(JSON.parse(text))`). */
  numbers?: 'python' | 'js' | undefined;
  /** What RSA-SHA256 signs: 'single' (default: the message) or 'double' (the message's SHA-256 digest). */
  digest?: 'single' | 'double' | undefined;
  /** `x-access-token` (RSA): base64url of the public key's 'pem' text (default) or 'der' bytes. Verifying accepts both. */
  token?: 'pem' | 'der' | undefined;
  /** An HMAC signature's text: 'base64url' (default; follows `padding`) or 'hex'. */
  signatureEncoding?: 'base64url' | 'hex' | undefined;
}
/** A row of `optionTable()`: one member of the option objects the functions take. */
export interface OptionRow {
  name: string;
  /** 'canonical': every `options` object; 'sign': SignOptions; 'verify': VerifyCallbackOptions; 'validate': ValidateOptions. */
  takenBy: Array<'canonical' | 'sign' | 'verify' | 'validate'>;
  type: 'choice' | 'boolean' | 'number' | 'string' | 'timestamp' | 'object';
  /** The values of a 'choice' option, the default first, each with a few words on it. */
  choices: Array<{ value: string; label: string }>;
  /** As JS spells it; null when there is none (a check that is off, a required member). */
  default: string | number | boolean | null;
  /** What is accepted and what is refused. */
  rule: string;
  doc: string;
}
/** The named profiles. */
export type ProfileName = 'spec' | 'public-js-client' | 'callback-docs';
/** Every rule of a profile, spelled out (each member present, never undefined). */
export type ProfileOptions = { [K in Exclude<keyof CanonicalOptions, 'profile'>]-?: NonNullable<CanonicalOptions[K]> };
/** The rules a callback was verified with (any token encoding is accepted, so none is named). */
export type VerifiedOptions = Omit<ProfileOptions, 'token'>;
/** A row of `profiles()`. */
export interface ProfileInfo { name: ProfileName; description: string; options: ProfileOptions; }
/** A request or callback body: exact JSON text (signed as is), UTF-8 bytes, or a plain object. */
export type Body = string | Uint8Array | object;
/** Unix seconds, as a number or a string of digits. */
export type Timestamp = number | string;
export interface CanonicalStepsResult { entries: string[]; joined: string; encoded: string; message: string; }
/**
 * The headers of a signed request: the spec's four (RSA), or the algorithm in place of the token (HMAC).
 * A type literal, not an interface, so that it is a `HeadersInit` (fetch) and an `OutgoingHttpHeaders` (node:http).
 */
export type AccessHeaders = {
  'x-access-timestamp': string;
  'x-access-merchant-id': string;
  'x-access-signature': string;
  /** RSA: base64url of the public key (the `token` option). */
  'x-access-token'?: string;
  /** HMAC: the `algorithmHeader` option ('HMAC-SHA512' unless told). */
  'x-access-merchant-algorithm'?: string;
};
/**
 * Which RSA implementation runs. 'native': node:crypto in Node (sync), WebCrypto in the
 * async variants; 'wasm': the package's own WebAssembly. Default: native where it exists.
 */
export type Backend = 'native' | 'wasm';
export interface SignOptions {
  /** Sent as `x-access-merchant-id`: 1 to 128 visible ASCII characters (no spaces), as a callback's is checked. */
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
  /**
   * The `x-access-merchant-algorithm` value of a request signed with an HmacKey. The spec does not
   * document it; default 'HMAC-SHA512'.
   */
  algorithmHeader?: string | undefined;
}
export interface SignedRequest { body: string; headers: AccessHeaders; }
/** Header names in any letter case. */
export type HeadersInput = Record<string, string | string[] | undefined> | Headers | Map<string, string> | Array<[string, string]>;
export type VerifyingKeyInput = VerifyingKey | string | Array<VerifyingKey | string>;
export interface VerifyCallbackOptions {
  options?: CanonicalOptions | undefined;
  /** Refuse callbacks whose timestamp is further than this from `now` (e.g. 300). Off when absent. */
  toleranceSeconds?: number | undefined;
  /** Unix seconds; defaults to the current time. */
  now?: number | undefined;
  /** Largest raw body accepted, in bytes (default 16 KiB, at most 1 MiB). */
  maxBodyBytes?: number | undefined;
  backend?: Backend | undefined;
  /**
   * Return the model of a body that its signed message does not determine, flagged in
   * `verification.ambiguous`, instead of throwing AMBIGUOUS_CALLBACK. Off by default: another
   * body, with another meaning, carries the same signature; never act on such a model.
   */
  allowAmbiguous?: boolean | undefined;
  /** Refuse (MERCHANT_ID_MISMATCH) a callback whose x-access-merchant-id is not this. */
  expectedMerchantId?: string | undefined;
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
/** How a callback was verified. */
export interface CallbackVerification {
  timestamp: number;
  /** As received: x-access-merchant-id is not covered by the signature. */
  merchantId: string;
  keyIndex: number;
  options: VerifiedOptions;
  /** True only with `allowAmbiguous`, for a body its signed message does not determine. */
  ambiguous: boolean;
  ambiguities: Ambiguity[];
}
/** A verified callback: the callback model plus how it was verified. */
export interface VerifiedCallback extends Callback {
  verification: CallbackVerification;
}
/** What `diagnoseCallback` found. */
export interface Diagnosis {
  /** `verifyCallback` with `options` returns a model: the signature matches under them and the body reads under them. */
  matched: boolean;
  /** The sender's rules: pass them to `verifyCallback` as `{ options }` as they are. A named profile when one matches. Null unless `matched`. */
  options: ProfileOptions | null;
  /** Every combination the signature matches under (several when the body has no leaf they treat differently); the body need not read under each. */
  matching: ProfileOptions[];
  /** Which of the given keys verifies; when the signature matches but the body does not read (`signatureOptions`), the key that made the signature. */
  keyIndex: number | null;
  /** A given key's signature matches under some combination (`matching` is not empty), whether or not the body reads under it. */
  signatureMatched: boolean;
  /** When the signature matches but the body reads under none of those combinations: the one it matches under. Do not pass it to `verifyCallback`: the body was changed after signing, or is not a callback. */
  signatureOptions: ProfileOptions | null;
  /** What `verifyCallback` with `signatureOptions` reports. */
  bodyError: { code: ErrorCode; message: string } | null;
  /** The body path `bodyError` names, e.g. 'payment_info.amount' ('' for the whole body). */
  field: string | null;
  /** That key's algorithm. */
  algorithm: 'rsa' | 'hmac' | null;
  /** The encoding of the token the sender sent, when it carries an RSA key. */
  token: 'pem' | 'der' | null;
  defaultError: { code: ErrorCode; message: string } | null;
  tokenMatchesKey: boolean;
  /** Distinct messages built and checked. */
  messagesTried: number;
  /** When nothing matched, the first cause the evidence leaves: the key, else the body, else a rule we do not know. */
  cause: 'key' | 'body' | 'rule' | null;
  hint: string;
}
export type ErrorCode =
  | 'INVALID_JSON' | 'BODY_NOT_OBJECT' | 'BODY_TOO_LARGE' | 'BODY_TOO_DEEP' | 'BODY_UNREADABLE' | 'DUPLICATE_KEY'
  | 'INVALID_NUMBER' | 'INVALID_BODY' | 'INVALID_TIMESTAMP' | 'INVALID_OPTION' | 'INVALID_ARGUMENT'
  | 'INVALID_KEY' | 'KEY_ENCRYPTED' | 'KEY_TYPE_UNSUPPORTED' | 'KEY_SIZE_UNSUPPORTED' | 'KEY_EXPONENT_UNSUPPORTED'
  | 'MISSING_HEADER' | 'INVALID_HEADER' | 'INVALID_PUBLIC_KEY' | 'INVALID_SIGNATURE'
  | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'NO_VERIFYING_KEY' | 'CRYPTO_FAILURE' | 'SYNC_RSA_UNAVAILABLE'
  | 'INVALID_AMOUNT' | 'UNKNOWN_CURRENCY' | 'INVALID_CALLBACK' | 'INVALID_RESPONSE'
  | 'AMBIGUOUS_CALLBACK' | 'AMBIGUOUS_REQUEST' | 'MERCHANT_ID_MISMATCH'
  | 'REQUEST_INVALID' | 'REQUEST_REJECTED' | 'AUTH_REFUSED' | 'PAYMENT_EXISTS' | 'SERVICE_UNAVAILABLE' | 'NETWORK_ERROR' | 'TIMEOUT' | 'STORE_FAILED' | 'ABORTED';
/** The members of every thrown `PaymentIntakeError`, besides `message` and `name`. */
export interface PaymentIntakeErrorDetails {
  code: ErrorCode;
  /**
   * The HTTP status a callback receiver answers: 4xx for what the sender caused, 5xx for
   * the receiver's own failures (keys, options, arguments), 200 for INVALID_CALLBACK and
   * AMBIGUOUS_CALLBACK after a genuine signature (acknowledge, keep `body`).
   */
  status: number;
  /** What to do next, where there is a suggestion; never repeated in `message`. */
  hint?: string | undefined;
  /** Where the first problem is, e.g. `payment.amount`. */
  path?: string | undefined;
  /** INVALID_CALLBACK and AMBIGUOUS_CALLBACK from verifyCallback: true, the signature is genuine. */
  verified?: boolean | undefined;
  /** With `verified`: the body as received, so nothing is lost. */
  body?: string | undefined;
  /** With `verified` (the same text as `body`). */
  rawBody?: string | undefined;
  /** INVALID_CALLBACK with `verified`: how it was verified, as a verified callback carries it. */
  verification?: CallbackVerification | undefined;
  /** AMBIGUOUS_CALLBACK and AMBIGUOUS_REQUEST: where the signed message does not determine the body. */
  ambiguities?: Ambiguity[] | undefined;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TS_NATIVE_TYPES: &'static str = r#"
/** What `prepareRequest` returns: all of a signed request but the signature. */
export interface PreparedRequest {
  /** The exact body text to send. */
  body: string;
  /** The canonical message: RSA PKCS#1 v1.5 signs the SHA-256 of its UTF-8 bytes (see `digest`). */
  message: string;
  /** The headers but `x-access-signature`. */
  headers: { 'x-access-timestamp': string; 'x-access-merchant-id': string; 'x-access-token'?: string };
  /** Whether `x-access-signature` keeps its base64url `=` padding (the `padding` option). */
  padding: boolean;
  /** 'double': RSA-SHA256 signs the SHA-256 digest of `message`, not `message` itself. */
  digest: 'single' | 'double';
}
/** What the wrappers' `prepareCallback` returns: all of `verifyCallback` but the RSA check. */
export interface PreparedCallback {
  /** The canonical message: the signature is RSA PKCS#1 v1.5 over the SHA-256 of its UTF-8 bytes. */
  message: string;
  /** The decoded `x-access-signature`, of the key's length. */
  signature: Uint8Array;
  /** What RSA-SHA256 verifies (the message, or its SHA-256 under `digest: 'double'`); undefined for HMAC, checked already. */
  data: Uint8Array | undefined;
  /** Which of the given keys the token names: verify with this one. */
  keyIndex: number;
  /** What `verifyCallback` returns once the signature checks... */
  callback: VerifiedCallback | null;
  /** ...or the error it throws then (a body without the callback shape). */
  callbackError: Error | null;
}
"#;

#[wasm_bindgen(typescript_custom_section)]
const TS_MODEL_TYPES: &'static str = r#"
/** An operation path from the spec's operation index. */
export type OperationPath = string; // the build writes operationTable()'s paths here (scripts/build/operation-types.mjs)
export type IssueCode =
  | 'UNKNOWN_OPERATION' | 'REQUIRED' | 'WRONG_TYPE' | 'TOO_LONG' | 'TOO_SHORT' | 'PATTERN' | 'OUT_OF_RANGE'
  | 'NOT_HTTPS' | 'LOOPBACK_HTTP' | 'INVALID_URL' | 'INVALID_IP' | 'INVALID_EMAIL' | 'UNKNOWN_METHOD' | 'METHOD_NOT_AVAILABLE'
  | 'COUNTRY_NOT_AVAILABLE' | 'CURRENCY_MISMATCH' | 'WIDGET_METHOD_REQUIRED' | 'EMAIL_REQUIRED'
  | 'BANK_SYMBOL_NOT_ALLOWED' | 'LIFETIME_OUT_OF_RANGE' | 'UNKNOWN_INPUT' | 'UNKNOWN_FIELD' | 'NULL_FIELD' | 'COUNTRY_NOT_LISTED'
  | 'LANGUAGE_NOT_SUPPORTED' | 'AMBIGUOUS_KEY' | 'AMBIGUOUS_TEXT' | ErrorCode;
export interface Issue {
  /** Dotted field path, e.g. `payment.amount`; empty for the whole body. */
  path: string;
  code: IssueCode;
  message: string;
  limit?: number | string;
  actual?: number | string;
}
/** A row of the spec's availability table; `payinMethods` are widget method codes for 'widget'. */
export interface AvailabilityRow {
  country: string; currency: string; integration: 'h2h' | 'widget';
  payinMethods: string[]; payoutMethods: string[];
  /** Upper bound of `payment.lifetime` in seconds (lower bound 300). */
  lifetimeMax: number;
}
export interface ValidationReport { valid: boolean; errors: Issue[]; warnings: Issue[]; }
/** `validateRequest`'s options; absent, the spec's rules. */
export interface ValidateOptions {
  /**
   * An http:// URL to a loopback host (127.0.0.0/8, ::1, localhost) is the warning LOOPBACK_HTTP
   * instead of the error NOT_HTTPS: for a local sandbox only (the service takes https only).
   */
  allowLoopbackHttp?: boolean;
}
/** The body a builder makes (snake_case, as the spec's request body); members left out are absent. */
export type BuiltRequestBody = {
  general?: {
    project_id?: string; payment_id?: string; merchant_callback_url?: string;
    merchant_success_callback_url?: string; merchant_decline_callback_url?: string; redirect_url?: string;
  };
  payment: {
    method?: string; widget_method?: string; bank_symbol?: string; amount?: number; currency?: string;
    lifetime?: number; description?: string; extra_param?: string;
  };
  sender?: { pan?: string; phone?: string; bank_symbol?: string; card_holder?: string };
  customer?: {
    id?: string; ip_address?: string; first_name?: string; last_name?: string; customer_type?: 'ftd' | 'trust';
    country?: string; language?: string; email?: string; browser?: string; device_type?: string; user_agent?: string;
  };
};
export interface BuiltRequest { body: BuiltRequestBody; bodyText: string; report: ValidationReport; }
interface PayinCommonInput {
  projectId?: string | undefined; paymentId?: string | undefined;
  merchantCallbackUrl?: string | undefined; merchantSuccessCallbackUrl?: string | undefined; merchantDeclineCallbackUrl?: string | undefined; redirectUrl?: string | undefined;
  /** Minor units; or give `amountMajor` as decimal text, converted exactly by `currency`. */
  amount?: number | undefined; amountMajor?: string | undefined; currency?: string | undefined;
  /** Seconds; 600 when absent. */
  lifetime?: number | undefined; description?: string | undefined; extraParam?: string | undefined;
  customerId?: string | undefined; customerIp?: string | undefined; country?: string | undefined; language?: string | undefined; customerType?: 'ftd' | 'trust' | undefined; email?: string | undefined;
}
export interface PayinInput extends PayinCommonInput {
  method?: string | undefined; bankSymbol?: string | undefined;
  senderPan?: string | undefined; senderPhone?: string | undefined; senderBankSymbol?: string | undefined; senderCardHolder?: string | undefined;
  firstName?: string | undefined; lastName?: string | undefined; browser?: string | undefined; deviceType?: string | undefined; userAgent?: string | undefined;
}
export interface WidgetPayinInput extends PayinCommonInput { widgetMethod?: string | undefined; bankSymbol?: string | undefined; }
export interface PaymentInfo {
  amount: number | null; oldAmount: number | null; initialAmount: number | null; currency: string | null;
  lifetime: number | null; expirationDate: number | null; updatedDate: number | null; createdDate: number | null;
  method: string | null; widgetMethod: string | null; type: string | null; paymentSystem: string | null;
}
export interface Requisites {
  pan: string | null; cardHolder: string | null; masked: boolean;
  bankName: string | null; bankCountry: string | null; currency: string | null;
}
export interface PaymentInstruction {
  pan: string | null; cardHolder: string | null; phone: string | null; amount: number | null; currency: string | null;
  validUntil: number | null; lifetime: number | null; bankName: string | null; bankCountry: string | null;
  confirmUrl: string | null; rejectUrl: string | null;
  /** Items of titles the spec does not list; `data` as the signed message writes it (an integer as its digits). */
  other: Array<{ type: string | null; title: string; data: string | null }>;
}
export interface DeclineReason {
  code: 'CANCELED_BY_CLIENT' | 'DECLINED_BY_ANTI_FRAUD' | 'REQUISITES_NOT_FOUND' | 'CANCELLED_BY_TIMEOUT' | 'OTHER' | 'UNSPECIFIED';
  /** The `status_description` as sent. */
  description: string | null;
}
export interface Callback {
  projectId: string; paymentId: string; requestId: string | null;
  status: string; subStatus: string | null; statusDescription: string | null;
  isFinal: boolean; isKnownState: boolean;
  /**
   * `{project_id}:{payment_id}:{status}:{sub_status}`, each part with `%`, `:` and `;` percent-encoded
   * and a null sub_status written empty: every body with the same signed message has the same key,
   * and no text in one part can run into another.
   */
  idempotencyKey: string;
  declineReason: DeclineReason | null;
  paymentInfo: PaymentInfo | null;
  integration: { formUrl: string | null; redirectUrl: string | null } | null;
  requisites: Requisites | null;
  instruction: PaymentInstruction | null;
}
export interface InfoResponse {
  projectId: string; paymentId: string; requestId: string;
  status: string; subStatus: string | null; statusDescription: string | null;
  isFinal: boolean; isKnownState: boolean;
  /** The key the callback of this state carries: a handler's `reconcile` acts on it once. */
  idempotencyKey: string;
  declineReason: DeclineReason | null;
  variant: 'RU' | 'KZ' | string | null;
  paymentInfo: PaymentInfo | null; requisites: Requisites | null;
  sender: { panHidden: string | null; cardHolderHidden: string | null } | null;
  integration: { formUrl: string | null; redirectUrl: string | null } | null;
  instruction: PaymentInstruction | null;
  warnings: Issue[];
  raw: Record<string, unknown>;
}
"#;
