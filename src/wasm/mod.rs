//! The JS API: every export of the npm package, with camelCase names. Only
//! this module (and `convert`) knows about `JsValue`; the work is done by
//! the core modules.

mod convert;
mod model;
mod prepare;

use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::callback::model::Callback;
use crate::callback::{self, ReceivedHeaders, VerifyOptions};
use crate::canonical;
use crate::canonical::ambiguity::{self, Ambiguity};
use crate::error::Error;
use crate::json::Limits;
use crate::request::signing::{self, AccessHeaders};
use crate::rsa::keys;
use convert::{
    body_from_js, canonical_options_from_js, header_pairs_from_js, js_error, now_seconds, plain_members, string_arg,
    struct_fields, text_from_js, timestamp_from_js, to_js, type_name, verifying_keys_from_js, wipe, JsOptionsOut,
};

type JsResult<T> = Result<T, JsValue>;

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

fn fail(error: Error) -> JsValue {
    js_error(error)
}

/// The sorted canonical `path:value` entries of a body.
#[wasm_bindgen(js_name = canonicalEntries)]
pub fn canonical_entries(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<Vec<String>> {
    let options = canonical_options_from_js(&options.unwrap_or(JsValue::UNDEFINED)).map_err(fail)?;
    let body = body_from_js(&body, &Limits::default()).map_err(fail)?;
    canonical::canonical_entries(&body.json, &options).map_err(fail)
}

/// The text that is signed: base64url of the joined entries, then the timestamp.
#[wasm_bindgen(js_name = canonicalMessage)]
pub fn canonical_message(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Timestamp")] timestamp: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<String> {
    canonical_message_text(body, timestamp, options.unwrap_or(JsValue::UNDEFINED))
}

/// `canonicalMessage` as its ASCII bytes, for the Node wrapper: `Buffer`'s latin1
/// decoding makes the string faster than `TextDecoder` does.
#[wasm_bindgen(js_name = __canonicalMessageBytes, skip_typescript)]
pub fn canonical_message_bytes(body: JsValue, timestamp: JsValue, options: JsValue) -> JsResult<Vec<u8>> {
    canonical_message_text(body, timestamp, options).map(String::into_bytes)
}

/// The Node wrapper's fast path of `canonicalMessage`, for JSON text (its UTF-8 bytes:
/// `Buffer` encodes faster than wasm-bindgen's string copy) with a string timestamp and
/// the default options: the message's bytes, or none when the full path must answer
/// (and report any error).
#[wasm_bindgen(js_name = __canonicalMessageOfText, skip_typescript)]
pub fn canonical_message_of_text(body: &[u8], timestamp: &str) -> Vec<u8> {
    let Ok(body) = std::str::from_utf8(body) else { return Vec::new() };
    let options = canonical::CanonicalOptions::DEFAULT;
    let message = crate::canonical::text::message_from_text(body, timestamp, &options, &Limits::default());
    message.map(String::into_bytes).unwrap_or_default()
}

fn canonical_message_text(body: JsValue, timestamp: JsValue, options: JsValue) -> JsResult<String> {
    // JSON text takes the one-pass path; anything it does not take, the full one.
    if let (Ok(Some(text)), Ok(canonical), Ok(stamp)) = (
        text_from_js(&body, Limits::DEFAULT_MAX_BYTES),
        canonical_options_from_js(&options),
        timestamp_from_js(&timestamp),
    ) {
        if let Some(message) = crate::canonical::text::message_from_text(&text, &stamp, &canonical, &Limits::default())
        {
            return Ok(message);
        }
    }
    Ok(steps(&body, &timestamp, &options)?.message)
}

/// Every step of building the message: entries, joined text, base64url, message.
#[wasm_bindgen(js_name = canonicalSteps, unchecked_return_type = "CanonicalStepsResult")]
pub fn canonical_steps(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Timestamp")] timestamp: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    #[derive(Serialize)]
    struct StepsOut<'a> {
        entries: &'a [String],
        joined: &'a str,
        encoded: &'a str,
        message: &'a str,
    }
    let s = steps(&body, &timestamp, &options.unwrap_or(JsValue::UNDEFINED))?;
    to_js(&StepsOut { entries: &s.entries, joined: &s.joined, encoded: &s.encoded, message: &s.message })
}

fn steps(body: &JsValue, timestamp: &JsValue, options: &JsValue) -> JsResult<canonical::CanonicalSteps> {
    let options = canonical_options_from_js(options).map_err(fail)?;
    let timestamp = timestamp_from_js(timestamp).map_err(fail)?;
    let body = body_from_js(body, &Limits::default()).map_err(fail)?;
    canonical::canonical_steps(&body.json, &timestamp, &options).map_err(fail)
}

/// An RSA private key that signs requests.
#[wasm_bindgen]
pub struct SigningKey(keys::SigningKey);

#[wasm_bindgen]
impl SigningKey {
    /// Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM of 2048 to 4096 bits.
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(#[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue) -> JsResult<SigningKey> {
        let pem = string_arg(&pem, "pem").map_err(fail)?;
        let key = keys::SigningKey::from_pem(&pem);
        // Our copy of the PEM is wiped, key or not; the key itself is zeroized on drop by `rsa`.
        wipe(pem);
        key.map(SigningKey).map_err(fail)
    }

    /// Generates a key pair (2048 bits unless told): for tests and debugging.
    pub fn generate(
        #[wasm_bindgen(unchecked_optional_param_type = "number | null")] bits: JsValue,
    ) -> JsResult<SigningKey> {
        let bits = if bits.is_null() || bits.is_undefined() {
            2048
        } else {
            whole_number_arg("bits", &bits, u32::MAX.into())? as usize
        };
        keys::SigningKey::generate(bits).map(SigningKey).map_err(fail)
    }

    /// The `x-access-token` header value for this key.
    pub fn token(&self) -> String {
        self.0.verifying_key().token().to_owned()
    }

    /// The public key as SubjectPublicKeyInfo PEM.
    #[wasm_bindgen(js_name = publicKeyPem)]
    pub fn public_key_pem(&self) -> String {
        self.0.verifying_key().public_key_pem().to_owned()
    }

    /// The private key as PKCS#8 PEM.
    #[wasm_bindgen(js_name = privateKeyPem, unchecked_return_type = "string")]
    pub fn private_key_pem(&self) -> JsResult<JsValue> {
        // Made into a JS string here so that the wasm copy can be wiped (a `String`
        // return would be copied out by the glue and freed as it is).
        let pem = self.0.private_key_pem().map_err(fail)?;
        let js = JsValue::from_str(&pem);
        wipe(pem);
        Ok(js)
    }

    /// The matching public key.
    #[wasm_bindgen(js_name = verifyingKey)]
    pub fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey(self.0.verifying_key().clone())
    }

    /// Modulus size in bits.
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.0.bits() as u32
    }
}

/// An RSA public key that verifies callbacks.
#[wasm_bindgen]
pub struct VerifyingKey(keys::VerifyingKey);

#[wasm_bindgen]
impl VerifyingKey {
    /// Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM.
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(#[wasm_bindgen(unchecked_param_type = "string")] pem: JsValue) -> JsResult<VerifyingKey> {
        let pem = string_arg(&pem, "pem").map_err(fail)?;
        keys::VerifyingKey::from_pem(&pem).map(VerifyingKey).map_err(fail)
    }

    /// The `x-access-token` value the service sends with this key.
    pub fn token(&self) -> String {
        self.0.token().to_owned()
    }

    /// The key as SubjectPublicKeyInfo PEM.
    #[wasm_bindgen(js_name = publicKeyPem)]
    pub fn public_key_pem(&self) -> String {
        self.0.public_key_pem().to_owned()
    }

    /// Modulus size in bits.
    #[wasm_bindgen(getter)]
    pub fn bits(&self) -> u32 {
        self.0.bits() as u32
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SignRequestOptions {
    merchant_id: String,
    backend: Option<String>,
    strict: Option<bool>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    timestamp: JsValue,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    options: JsValue,
}

#[derive(Serialize)]
struct HeadersOut<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-signature")]
    signature: &'a str,
    #[serde(rename = "x-access-token")]
    token: &'a str,
}

impl<'a> From<&'a AccessHeaders> for HeadersOut<'a> {
    fn from(h: &'a AccessHeaders) -> Self {
        HeadersOut { timestamp: &h.timestamp, merchant_id: &h.merchant_id, signature: &h.signature, token: &h.token }
    }
}

fn argument_error(name: &str, error: impl std::fmt::Display) -> JsValue {
    fail(Error::InvalidArgument { name: name.into(), reason: format!("is not valid: {error}") })
}

/// The checked inputs of `signRequest` and `prepareRequest`.
struct SignInputs {
    body: convert::BodyInput,
    merchant_id: String,
    timestamp: String,
    canonical: canonical::CanonicalOptions,
    /// The `backend` option's choice: true for the caller's native RSA.
    native: bool,
}

/// `native_available`: whether the caller (a JS wrapper) has a native RSA to offer.
fn sign_inputs(body: &JsValue, options: JsValue, native_available: bool) -> JsResult<SignInputs> {
    let options = sign_options(options, native_available)?;
    let body = body_to_sign(body, options.strict)?;
    Ok(SignInputs {
        body,
        merchant_id: options.merchant_id,
        timestamp: options.timestamp,
        canonical: options.canonical,
        native: options.native,
    })
}

/// The body to sign, read with the default limits; refused (AMBIGUOUS_REQUEST) when
/// `strict` and its signed message would not determine it.
fn body_to_sign(body: &JsValue, strict: bool) -> JsResult<convert::BodyInput> {
    let body = body_from_js(body, &Limits::default()).map_err(fail)?;
    if strict {
        ambiguity::refuse_ambiguous_request(&body.json).map_err(fail)?;
    }
    Ok(body)
}

/// The checked options of `signRequest` and `prepareRequest`.
struct SignOptionsIn {
    merchant_id: String,
    timestamp: String,
    canonical: canonical::CanonicalOptions,
    native: bool,
    /// The `strict` option: refuse an ambiguous body.
    strict: bool,
}

fn sign_options(options: JsValue, native_available: bool) -> JsResult<SignOptionsIn> {
    let known = struct_fields::<SignRequestOptions>();
    let members = convert::checked_members(&options, known, &["timestamp", "options"])
        .map_err(|e| fail(e.into_error("options", known)))?;
    let options = match members {
        // Read directly: a serde-wasm-bindgen pass over a copy was a third of the overhead of signing in Node.
        Some(members) => sign_request_options(members)?,
        None => serde_wasm_bindgen::from_value(options).map_err(|e| argument_error("options", e))?,
    };
    let native = prepare::check_backend(options.backend.as_deref(), native_available).map_err(fail)?;
    let canonical = canonical_options_from_js(&options.options).map_err(fail)?;
    let timestamp = if options.timestamp.is_undefined() {
        now_seconds().to_string()
    } else {
        timestamp_from_js(&options.timestamp).map_err(fail)?
    };
    Ok(SignOptionsIn {
        merchant_id: options.merchant_id,
        timestamp,
        canonical,
        native,
        strict: options.strict.unwrap_or(false),
    })
}

/// [`SignRequestOptions`] from checked members, as serde would read them.
fn sign_request_options(members: Vec<(js_sys::JsString, JsValue)>) -> JsResult<SignRequestOptions> {
    let mut options = SignRequestOptions::default();
    let mut merchant_id = None;
    let string_member = |name: &str, value: &JsValue| {
        value.as_string().ok_or_else(|| {
            argument_error("options", format!("member '{name}' must be a string, not {}", convert::type_name(value)))
        })
    };
    for (name, value) in members {
        match String::from(name).as_str() {
            "merchantId" => merchant_id = Some(string_member("merchantId", &value)?),
            "backend" if value.is_undefined() || value.is_null() => {}
            "backend" => options.backend = Some(string_member("backend", &value)?),
            "strict" if value.is_undefined() || value.is_null() => {}
            "strict" => {
                options.strict = Some(value.as_bool().ok_or_else(|| {
                    argument_error("options", format!("member 'strict' must be a boolean, not {}", type_name(&value)))
                })?)
            }
            "timestamp" => options.timestamp = value,
            "options" => options.options = value,
            _ => {}
        }
    }
    options.merchant_id = merchant_id.ok_or_else(|| argument_error("options", "missing member 'merchantId'"))?;
    Ok(options)
}

/// Signs a request body; returns the exact body text to send and the four headers.
#[wasm_bindgen(js_name = signRequest, unchecked_return_type = "SignedRequest")]
pub fn sign_request(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    signing_key: &SigningKey,
    #[wasm_bindgen(unchecked_param_type = "SignOptions")] options: JsValue,
) -> JsResult<JsValue> {
    sign_in_wasm(&sign_inputs(&body, options, false)?, signing_key)
}

/// The pure-wasm signature of checked inputs, as `signRequest` returns it.
fn sign_in_wasm(input: &SignInputs, signing_key: &SigningKey) -> JsResult<JsValue> {
    let headers =
        signing::sign_body(&input.body.json, &signing_key.0, &input.merchant_id, &input.timestamp, &input.canonical)
            .map_err(fail)?;
    #[derive(Serialize)]
    struct Signed<'a> {
        body: &'a str,
        headers: HeadersOut<'a>,
    }
    to_js(&Signed { body: &input.body.text, headers: HeadersOut::from(&headers) })
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct VerifyCallbackOptions {
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    options: JsValue,
    backend: Option<String>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    tolerance_seconds: JsValue,
    now: Option<f64>,
    max_body_bytes: Option<f64>,
    allow_ambiguous: Option<bool>,
    expected_merchant_id: Option<String>,
}

/// Largest `maxBodyBytes` accepted: 1 MiB (the default is 16 KiB; a callback is about 1 KB).
const MAX_BODY_BYTES_CEILING: f64 = (1u64 << 20) as f64;

/// A whole-number argument given as a JS value (no coercion of strings or objects).
fn whole_number_arg(name: &str, value: &JsValue, max: f64) -> JsResult<u64> {
    match value.as_f64() {
        Some(n) => whole_number(name, n, max),
        None => Err(fail(Error::InvalidArgument {
            name: name.into(),
            reason: format!("must be a number, not {}", type_name(value)),
        })),
    }
}

fn whole_number(name: &str, value: f64, max: f64) -> JsResult<u64> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= max {
        Ok(value as u64)
    } else {
        Err(fail(Error::InvalidArgument {
            name: name.into(),
            reason: format!("must be a whole number from 0 to {max}"),
        }))
    }
}

fn verify_options_from_js(value: JsValue) -> JsResult<VerifyOptions> {
    Ok(verify_options_and_backend(value, false)?.0)
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn verify_options_and_backend(value: JsValue, native_available: bool) -> JsResult<(VerifyOptions, bool)> {
    let known = struct_fields::<VerifyCallbackOptions>();
    let value = plain_members(&value, known, &["options"]).map_err(|e| fail(e.into_error("options", known)))?;
    let raw: VerifyCallbackOptions = if value.is_undefined() || value.is_null() {
        VerifyCallbackOptions::default()
    } else {
        serde_wasm_bindgen::from_value(value).map_err(|e| argument_error("options", e))?
    };
    let native = prepare::check_backend(raw.backend.as_deref(), native_available).map_err(fail)?;
    let mut limits = Limits::callback();
    if let Some(max) = raw.max_body_bytes {
        limits.max_bytes = whole_number("maxBodyBytes", max, MAX_BODY_BYTES_CEILING)? as usize;
    }
    // `toleranceSeconds: null` is not "off": a caller who wrote it meant some check.
    if raw.tolerance_seconds.is_null() {
        return Err(fail(Error::InvalidOption {
            name: "toleranceSeconds".into(),
            reason: "is null: give seconds (e.g. 300), or leave it out for no time window".into(),
        }));
    }
    let tolerance_seconds = if raw.tolerance_seconds.is_undefined() {
        None
    } else {
        Some(whole_number_arg("toleranceSeconds", &raw.tolerance_seconds, 9_007_199_254_740_991.0)?)
    };
    let now = match raw.now {
        Some(now) => Some(whole_number("now", now, 9_007_199_254_740_991.0)?),
        None => tolerance_seconds.map(|_| now_seconds()),
    };
    let options = VerifyOptions {
        canonical: canonical_options_from_js(&raw.options).map_err(fail)?,
        tolerance_seconds,
        now,
        limits,
        allow_ambiguous: raw.allow_ambiguous.unwrap_or(false),
        expected_merchant_id: raw.expected_merchant_id,
    };
    Ok((options, native))
}

fn received_headers(headers: &JsValue) -> JsResult<ReceivedHeaders> {
    let pairs = header_pairs_from_js(headers).map_err(fail)?;
    ReceivedHeaders::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))).map_err(fail)
}

fn raw_body_text(raw_body: &JsValue, limits: &Limits) -> JsResult<String> {
    match text_from_js(raw_body, limits.max_bytes).map_err(fail)? {
        Some(text) => Ok(text),
        None if raw_body.is_undefined() || raw_body.is_null() => Ok(String::new()),
        None => Err(fail(Error::InvalidArgument {
            name: "rawBody".into(),
            reason: "must be the raw body as a string or bytes, not a parsed object".into(),
        })),
    }
}

/// Verifies a callback from its raw body and headers against the configured key(s).
/// Throws an `Error` with `.code` when it does not verify.
#[wasm_bindgen(js_name = verifyCallback, unchecked_return_type = "VerifiedCallback")]
pub fn verify_callback(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] raw_body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "HeadersInput")] headers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "VerifyingKeyInput")] verifying_keys: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "VerifyCallbackOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = verify_options_from_js(options.unwrap_or(JsValue::UNDEFINED))?;
    let headers = received_headers(&headers)?;
    let keys = verifying_keys_from_js(&verifying_keys).map_err(fail)?;
    let text = raw_body_text(&raw_body, &options.limits)?;
    let verified = callback::verify_callback(&text, &headers, &keys, &options).map_err(fail)?;
    callback_out(&verified, &options)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Verification<'a> {
    timestamp: u64,
    merchant_id: &'a str,
    key_index: usize,
    options: JsOptionsOut,
    ambiguous: bool,
    ambiguities: &'a [Ambiguity],
}

#[derive(Serialize)]
struct VerifiedOut<'a> {
    #[serde(flatten)]
    callback: &'a Callback,
    verification: Verification<'a>,
}

/// What `verifyCallback` returns, as JSON text: every backend hands JS the same
/// text to `JSON.parse`, which is much faster than building the objects
/// property by property across the boundary, and makes every body member (even
/// one named `__proto__`) an own data property.
fn verified_json(verified: &callback::VerifiedCallback, options: &VerifyOptions) -> Result<String, Error> {
    let out = VerifiedOut {
        callback: &verified.callback,
        verification: Verification {
            timestamp: verified.timestamp,
            merchant_id: &verified.merchant_id,
            key_index: verified.key_index,
            options: JsOptionsOut::from(&options.canonical),
            ambiguous: !verified.ambiguities.is_empty(),
            ambiguities: &verified.ambiguities,
        },
    };
    serde_json::to_string(&out).map_err(|e| Error::CryptoFailure { reason: format!("result conversion failed: {e}") })
}

fn callback_out(verified: &callback::VerifiedCallback, options: &VerifyOptions) -> JsResult<JsValue> {
    let text = verified_json(verified, options).map_err(fail)?;
    js_sys::JSON::parse(&text)
        .map_err(|_| fail(Error::CryptoFailure { reason: "result conversion failed: JSON.parse refused it".into() }))
}

/// For a callback that fails to verify: which canonical variant the sender used,
/// or that none matches (then the key, the timestamp or the body is wrong).
#[wasm_bindgen(js_name = diagnoseCallback, unchecked_return_type = "Diagnosis")]
pub fn diagnose_callback(
    #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] raw_body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "HeadersInput")] headers: JsValue,
    #[wasm_bindgen(unchecked_param_type = "VerifyingKey | string")] verifying_key: JsValue,
) -> JsResult<JsValue> {
    let headers = received_headers(&headers)?;
    let keys = verifying_keys_from_js(&verifying_key).map_err(fail)?;
    let [key] = keys.as_slice() else {
        return Err(fail(Error::InvalidArgument {
            name: "verifyingKey".into(),
            reason: "must be exactly one key".into(),
        }));
    };
    let limits = Limits::callback();
    let text = raw_body_text(&raw_body, &limits)?;
    let diagnosis = callback::diagnose_callback(&text, &headers, key, &limits).map_err(fail)?;
    #[derive(Serialize)]
    struct ErrorOut {
        code: &'static str,
        message: String,
    }
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct DiagnosisOut {
        matched: bool,
        options: Option<JsOptionsOut>,
        matching: Vec<JsOptionsOut>,
        default_error: Option<ErrorOut>,
        token_matches_key: bool,
        messages_tried: usize,
        hint: String,
    }
    to_js(&DiagnosisOut {
        matched: diagnosis.matched,
        options: diagnosis.options.as_ref().map(JsOptionsOut::from),
        matching: diagnosis.matching.iter().map(JsOptionsOut::from).collect(),
        default_error: diagnosis.default_error.map(|e| ErrorOut { code: e.code(), message: e.to_string() }),
        token_matches_key: diagnosis.token_matches_key,
        messages_tried: diagnosis.messages_tried,
        hint: diagnosis.hint,
    })
}

/// Every error code the package can throw.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<String> {
    Error::ALL_CODES.iter().map(|c| (*c).to_owned()).collect()
}
