//! Verifying callbacks: the private `__prepareCallback`, `__finishCallback`,
//! `__diagnoseCallback` and `__signatureMismatch` behind the JS core's
//! `verifyCallback`, `verifyCallbackAsync`, `prepareCallback` and `diagnoseCallback`.

use js_sys::{Function, Uint8Array};
use wasm_bindgen::prelude::*;

use super::super::gateway::{members, nested_canonical_options, text_from_js};
use super::super::headers::received_headers;
use super::super::js::{js_error, now_seconds, object, to_js};
use super::super::keys::verifying_keys;
use super::super::options::{native_chosen, verify_fields, NativeRsa};
use super::super::shapes::{verified_json, DiagnosisOut};
use super::super::JsResult;
use super::Rsa;
use crate::callback::{self, VerifyOptions};
use crate::error::Error;
use crate::json::Limits;
use crate::rsa::pkcs1v15;

/// Bodies up to this size get their model with `__prepareCallback` (a callback is about 1 KB).
const INLINE_MODEL_MAX_BYTES: usize = 8 << 10;

/// Everything of `verifyCallback` but (with a native RSA) the RSA check, in the same
/// order with the same errors. Returns `{ message, signature, keyIndex, result }`:
/// `result` is the JSON text `verifyCallback` returns once the signature checks, the
/// `Error` it would throw then (a verified body without the callback shape), or `null`
/// for a large body (`__finishCallback` gives it after the check); `keyIndex` picks the
/// configured key to verify with. `message` (ASCII bytes; a string for 'prepare') and
/// `signature` are `undefined` when the `backend` option chose the wasm, which then
/// checked the signature here. `keyPem` resolves the JS core's key objects.
#[wasm_bindgen(js_name = __prepareCallback, skip_typescript)]
pub fn prepare_callback(
    raw_body: JsValue,
    headers: JsValue,
    keys: JsValue,
    options: JsValue,
    rsa: Rsa,
    key_pem: &Function,
) -> JsResult<JsValue> {
    let rsa = NativeRsa::from(rsa);
    let (options, native) = verify_options(&options, rsa).map_err(js_error)?;
    let headers = received_headers(&headers).map_err(js_error)?;
    let keys = verifying_keys(&keys, key_pem).map_err(js_error)?;
    let text = raw_body_text(&raw_body, &options.limits).map_err(js_error)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, &options).map_err(js_error)?;
    if !native {
        let key = &keys[prepared.key_index];
        pkcs1v15::verify_signature_bytes(&prepared.message, &prepared.signature, key).map_err(js_error)?;
    }
    // The model, bound to the signed entries; for a native check it is thrown or
    // returned by the JS core only after the signature has checked, and above
    // INLINE_MODEL_MAX_BYTES made only then, so a large forged body never costs a model.
    let deferred = native && rsa == NativeRsa::Available && text.len() > INLINE_MODEL_MAX_BYTES;
    let result = if deferred {
        JsValue::NULL
    } else {
        match prepared.finish(&text, &options).and_then(|verified| verified_json(&verified, &options)) {
            Ok(json) => JsValue::from(json),
            Err(error) if native => js_error(error),
            Err(error) => return Err(js_error(error)),
        }
    };
    let (message, signature) = match (native, rsa) {
        (false, _) => (JsValue::UNDEFINED, JsValue::UNDEFINED),
        (true, NativeRsa::Prepare) => (JsValue::from(prepared.message), signature_bytes(&prepared.signature)),
        // For the native check, the message as its (ASCII) bytes: no string to decode and encode again.
        (true, _) => (Uint8Array::from(prepared.message.as_bytes()).into(), signature_bytes(&prepared.signature)),
    };
    let key_index = JsValue::from(prepared.key_index as u32);
    Ok(object(&[("message", &message), ("signature", &signature), ("keyIndex", &key_index), ("result", &result)]))
}

fn signature_bytes(signature: &[u8]) -> JsValue {
    Uint8Array::from(signature).into()
}

/// After the JS core's own RSA check of what `__prepareCallback` returned with a
/// `null` result: the JSON text `verifyCallback` returns, or the error it throws
/// (AMBIGUOUS_CALLBACK, INVALID_CALLBACK).
#[wasm_bindgen(js_name = __finishCallback, skip_typescript)]
pub fn finish_callback(raw_body: JsValue, headers: JsValue, key_index: u32, options: JsValue) -> JsResult<String> {
    let (options, _) = verify_options(&options, NativeRsa::Available).map_err(js_error)?;
    let headers = received_headers(&headers).map_err(js_error)?;
    let text = raw_body_text(&raw_body, &options.limits).map_err(js_error)?;
    let verified = callback::read_verified(&text, &headers, key_index as usize, &options).map_err(js_error)?;
    verified_json(&verified, &options).map_err(js_error)
}

/// The error `verifyCallback` throws when the RSA check fails.
#[wasm_bindgen(js_name = __signatureMismatch, skip_typescript)]
pub fn signature_mismatch() -> JsValue {
    js_error(pkcs1v15::signature_mismatch())
}

/// For a callback that fails to verify: which canonical variant the sender used,
/// or that none matches (then the key, the timestamp or the body is wrong).
#[wasm_bindgen(js_name = __diagnoseCallback, skip_typescript)]
pub fn diagnose_callback(raw_body: JsValue, headers: JsValue, key: JsValue, key_pem: &Function) -> JsResult<JsValue> {
    let headers = received_headers(&headers).map_err(js_error)?;
    let keys = verifying_keys(&key, key_pem).map_err(js_error)?;
    let [key] = keys.as_slice() else {
        let reason = "must be exactly one key".into();
        return Err(js_error(Error::InvalidArgument { name: "verifyingKey".into(), reason }));
    };
    let limits = Limits::callback();
    let text = raw_body_text(&raw_body, &limits).map_err(js_error)?;
    let diagnosis = callback::diagnose_callback(&text, &headers, key, &limits).map_err(js_error)?;
    to_js(&DiagnosisOut::from(diagnosis))
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn verify_options(options: &JsValue, rsa: NativeRsa) -> Result<(VerifyOptions, bool), Error> {
    let fields = verify_fields(members(options))?;
    let native = native_chosen(fields.backend.as_deref(), rsa)?;
    let canonical = nested_canonical_options(&fields.options)?;
    Ok((fields.into_options(canonical, now_seconds), native))
}

/// The raw body as text: a string or UTF-8 bytes (nothing is the empty body).
fn raw_body_text(raw_body: &JsValue, limits: &Limits) -> Result<String, Error> {
    match text_from_js(raw_body, limits.max_bytes)? {
        Some(text) => Ok(text),
        None if raw_body.is_undefined() || raw_body.is_null() => Ok(String::new()),
        None => Err(Error::InvalidArgument {
            name: "rawBody".into(),
            reason: "must be the raw body as a string or bytes, not a parsed object".into(),
        }),
    }
}
