//! Bindings for the native RSA backends: everything of `signRequest` and
//! `verifyCallback` but the RSA operation, so that the JS wrappers
//! (`pkg-template/`) add only `crypto.sign`/`crypto.verify` (node:crypto or
//! WebCrypto) and throw the same errors; and the `backend` option's check.

use js_sys::{Array, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::{fail, raw_body_text, received_headers, verified_json, verify_options_from_js, JsResult, SigningKey};
use crate::callback::{self, VerifiedCallback};
use crate::error::Error;
use crate::signing;
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
"#;

/// The `backend` option as the WebAssembly module sees it: `'wasm'` runs here,
/// `'native'` needs a wrapper that has node:crypto or WebCrypto.
pub(super) fn check_backend(backend: Option<&str>) -> Result<(), Error> {
    match backend {
        None | Some("wasm") => Ok(()),
        Some("native") => Err(Error::InvalidOption {
            name: "backend".into(),
            reason: "is 'native', which has no synchronous implementation here: use signRequestAsync or \
                     verifyCallbackAsync (WebCrypto), or backend 'wasm'"
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
/// errors as `signRequest`.
#[wasm_bindgen(js_name = prepareRequest, unchecked_return_type = "PreparedRequest")]
pub fn prepare_request(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    signing_key: &SigningKey,
    #[wasm_bindgen(unchecked_param_type = "SignOptions")] options: JsValue,
) -> JsResult<JsValue> {
    let input = super::sign_inputs(&body, options)?;
    let prepared = signing::prepare_request(
        &input.body.json,
        signing_key.0.verifying_key(),
        &input.merchant_id,
        &input.timestamp,
        &input.canonical,
    )
    .map_err(fail)?;
    to_js(&PreparedOut {
        body: &input.body.text,
        message: &prepared.message,
        headers: PreparedHeaders {
            timestamp: &prepared.timestamp,
            merchant_id: &prepared.merchant_id,
            token: &prepared.token,
        },
        padding: prepared.padding,
    })
}

/// Everything of `verifyCallback` but the RSA check, in the same order with the
/// same errors. Returns `[message, signature bytes, keyIndex, result]`, where
/// `result` is the JSON text `verifyCallback` returns once the signature checks,
/// or the `Error` it would throw then (a verified body without the callback shape).
/// For the package's wrappers; `prepareCallback` there is the public form.
#[wasm_bindgen(js_name = __prepareCallback, skip_typescript)]
pub fn prepare_callback(
    raw_body: JsValue,
    headers: JsValue,
    verifying_keys: JsValue,
    options: JsValue,
) -> JsResult<Array> {
    let options = verify_options_from_js(options)?;
    let headers = received_headers(&headers)?;
    let keys = verifying_keys_from_js(&verifying_keys).map_err(fail)?;
    let text = raw_body_text(&raw_body)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, &options).map_err(fail)?;
    let verified = VerifiedCallback {
        body: prepared.body,
        timestamp: prepared.timestamp,
        merchant_id: prepared.merchant_id,
        key_index: prepared.key_index,
    };
    let result = match verified_json(&verified, &options) {
        Ok(json) => JsValue::from(json),
        Err(error) => js_error(error),
    };
    let signature = Uint8Array::from(prepared.signature.as_slice());
    Ok(Array::of4(&prepared.message.into(), &signature, &(prepared.key_index as u32).into(), &result))
}

/// The error `verifyCallback` throws when the RSA check fails.
#[wasm_bindgen(js_name = __signatureMismatch, skip_typescript)]
pub fn signature_mismatch() -> JsValue {
    js_error(signing::signature_mismatch())
}
