//! Bindings for the native RSA backends: everything of `signRequest` and
//! `verifyCallback` but the RSA operation, so that the JS wrappers
//! (`pkg-template/`) add only `crypto.sign`/`crypto.verify` (node:crypto or
//! WebCrypto) and throw the same errors; and the `backend` option, which the
//! wasm reads (the wrappers pass the options through untouched).

use js_sys::{Array, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{
    body_to_sign, fail, raw_body_text, received_headers, sign_in_wasm, sign_inputs, sign_options, verified_json,
    verify_options_and_backend, JsResult, SignInputs, SigningKey,
};
use crate::callback;
use crate::canonical::text::message_from_text;
use crate::error::Error;
use crate::json::Limits;
use crate::request::signing;
use crate::rsa::pkcs1v15;
use crate::wasm::convert::text_from_js;
use crate::wasm::convert::{js_error, to_js, verifying_keys_from_js};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
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

/// The `backend` option: `Ok(true)` to use the caller's native RSA. Without the
/// option, native when the caller has one; `'wasm'` always runs here; `'native'`
/// without a native RSA to offer is refused.
pub(super) fn check_backend(backend: Option<&str>, native_available: bool) -> Result<bool, Error> {
    match backend {
        None => Ok(native_available),
        Some("wasm") => Ok(false),
        Some("native") if native_available => Ok(true),
        Some("native") => Err(Error::InvalidOption {
            name: "backend".into(),
            reason: "is 'native', which is not available here: browsers and edge runtimes have it in \
                     signRequestAsync and verifyCallbackAsync (WebCrypto, in a secure context); \
                     or use backend 'wasm'"
                .into(),
        }),
        Some(other) => Err(Error::InvalidOption {
            name: "backend".into(),
            reason: format!("cannot be '{other}'; use one of native, wasm"),
        }),
    }
}

#[derive(Serialize)]
struct PreparedHeaders<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-token")]
    token: &'a str,
}

#[derive(Serialize)]
struct PreparedOut<'a> {
    body: &'a str,
    message: &'a str,
    headers: PreparedHeaders<'a>,
    padding: bool,
}

/// Everything of `signRequest` but the RSA signature: the body text, the
/// canonical message to sign, and the other three headers. Same checks and
/// errors as `signRequest` (any `backend` is accepted: none runs here).
#[wasm_bindgen(js_name = prepareRequest, unchecked_return_type = "PreparedRequest")]
pub fn prepare_request(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    signing_key: &SigningKey,
    #[wasm_bindgen(unchecked_param_type = "SignOptions")] options: JsValue,
) -> JsResult<JsValue> {
    prepared_out(&sign_inputs(&body, options, true)?, signing_key)
}

fn prepared_out(input: &SignInputs, signing_key: &SigningKey) -> JsResult<JsValue> {
    let prepared = signing::prepare_request(
        &input.body.json,
        signing_key.0.verifying_key(),
        &input.merchant_id,
        &input.timestamp,
        &input.canonical,
    )
    .map_err(fail)?;
    prepared_js(&input.body.text, &prepared)
}

fn prepared_js(body: &str, prepared: &signing::PreparedRequest) -> JsResult<JsValue> {
    to_js(&PreparedOut {
        body,
        message: &prepared.message,
        headers: PreparedHeaders {
            timestamp: &prepared.timestamp,
            merchant_id: &prepared.merchant_id,
            token: &prepared.token,
        },
        padding: prepared.padding,
    })
}

/// For the wrappers' `signRequest`: `[signed, undefined]` when the `backend`
/// option chose the wasm (signed here), `[undefined, prepared]` when it chose
/// the caller's native RSA. The wrapper never reads the options itself.
#[wasm_bindgen(js_name = __signRequest, skip_typescript)]
pub fn sign_or_prepare(
    body: JsValue,
    signing_key: &SigningKey,
    options: JsValue,
    native_available: bool,
) -> JsResult<Array> {
    let opts = sign_options(options, native_available)?;
    if opts.native && !opts.strict {
        // JSON text goes the one-pass way when it can: the same message, and no tree.
        if let Ok(Some(text)) = text_from_js(&body, Limits::DEFAULT_MAX_BYTES) {
            if let Some(message) = message_from_text(&text, &opts.timestamp, &opts.canonical, &Limits::default()) {
                let key = signing_key.0.verifying_key();
                let prepared =
                    signing::prepared_with_message(message, key, &opts.merchant_id, &opts.timestamp, &opts.canonical)
                        .map_err(fail)?;
                return Ok(Array::of2(&JsValue::UNDEFINED, &prepared_js(&text, &prepared)?));
            }
        }
    }
    let body = body_to_sign(&body, opts.strict)?;
    let input = SignInputs {
        body,
        merchant_id: opts.merchant_id,
        timestamp: opts.timestamp,
        canonical: opts.canonical,
        native: opts.native,
    };
    if input.native {
        Ok(Array::of2(&JsValue::UNDEFINED, &prepared_out(&input, signing_key)?))
    } else {
        Ok(Array::of2(&sign_in_wasm(&input, signing_key)?, &JsValue::UNDEFINED))
    }
}

/// Everything of `verifyCallback` but the RSA check, in the same order with the
/// same errors. Returns `[message, signature bytes, keyIndex, result]`, where
/// `result` is the JSON text `verifyCallback` returns once the signature checks,
/// or the `Error` it would throw then (a verified body without the callback shape),
/// and `keyIndex` picks the configured key to verify with. The message is a string
/// when `native` is 2 (prepare only, whatever the option says), its ASCII bytes when
/// it is 1. When the `backend` option chose the wasm, the check is done here too and
/// the message and signature are `undefined`. For the package's wrappers
/// (`prepareCallback` there is the public form); they never read the options.
#[wasm_bindgen(js_name = __prepareCallback, skip_typescript)]
pub fn prepare_callback(
    raw_body: JsValue,
    headers: JsValue,
    verifying_keys: JsValue,
    options: JsValue,
    native: u32,
) -> JsResult<Array> {
    // 0: no native RSA, 1: a native RSA, 2: only prepare (the public prepareCallback).
    let native_mode = native;
    let (options, chosen) = verify_options_and_backend(options, native_mode > 0)?;
    let native = chosen || native_mode == 2;
    let headers = received_headers(&headers)?;
    let keys = verifying_keys_from_js(&verifying_keys).map_err(fail)?;
    let text = raw_body_text(&raw_body, &options.limits)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, &options).map_err(fail)?;
    if !native {
        pkcs1v15::verify_signature_bytes(&prepared.message, &prepared.signature, &keys[prepared.key_index])
            .map_err(fail)?;
    }
    // The model, bound to the signed entries; for a native check it is thrown or
    // returned by the wrapper only after the signature has checked. Above
    // INLINE_MODEL_MAX_BYTES the wrapper asks for it (`__finishCallback`) only then,
    // so a large body with a wrong signature never costs a model.
    let deferred = native && native_mode == 1 && text.len() > INLINE_MODEL_MAX_BYTES;
    let result = if deferred {
        JsValue::NULL
    } else {
        match prepared.finish(&text, &options).and_then(|verified| verified_json(&verified, &options)) {
            Ok(json) => JsValue::from(json),
            Err(error) if native => js_error(error),
            Err(error) => return Err(fail(error)),
        }
    };
    let key_index = JsValue::from(prepared.key_index as u32);
    if !native {
        return Ok(Array::of4(&JsValue::UNDEFINED, &JsValue::UNDEFINED, &key_index, &result));
    }
    let signature = Uint8Array::from(prepared.signature.as_slice());
    // For the wrappers' own check, the message as its (ASCII) bytes: no string to decode and encode again.
    let message = if native_mode == 2 {
        JsValue::from(prepared.message)
    } else {
        Uint8Array::from(prepared.message.as_bytes()).into()
    };
    Ok(Array::of4(&message, &signature, &key_index, &result))
}

/// Bodies up to this size get their model with `__prepareCallback` (a callback is about 1 KB).
const INLINE_MODEL_MAX_BYTES: usize = 8 << 10;

/// For the wrappers, after their own RSA check of what `__prepareCallback`
/// returned with a `null` result: the JSON text `verifyCallback` returns, or
/// the error it throws (AMBIGUOUS_CALLBACK, INVALID_CALLBACK).
#[wasm_bindgen(js_name = __finishCallback, skip_typescript)]
pub fn finish_callback(raw_body: JsValue, headers: JsValue, key_index: u32, options: JsValue) -> JsResult<String> {
    let (options, _) = verify_options_and_backend(options, true)?;
    let headers = received_headers(&headers)?;
    let text = raw_body_text(&raw_body, &options.limits)?;
    let verified = callback::read_verified(&text, &headers, key_index as usize, &options).map_err(fail)?;
    verified_json(&verified, &options).map_err(fail)
}

/// The error `verifyCallback` throws when the RSA check fails.
#[wasm_bindgen(js_name = __signatureMismatch, skip_typescript)]
pub fn signature_mismatch() -> JsValue {
    js_error(pkcs1v15::signature_mismatch())
}
