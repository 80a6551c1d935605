//! The canonical form: entries, message, steps.

use wasm_bindgen::prelude::*;

use super::super::body::body_from_js;
use super::super::gateway::{canonical_options, member, text_from_js, utf8_text};
use super::super::js::{js_error, to_js};
use super::super::options::timestamp_text;
use super::super::shapes::{profile_rows, StepsOut};
use super::super::JsResult;
use crate::canonical::{self, CanonicalOptions};
use crate::error::Error;
use crate::json::Limits;

/// The sorted canonical `path:value` entries of a body.
#[wasm_bindgen(js_name = canonicalEntries)]
pub fn canonical_entries(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<Vec<String>> {
    let options = canonical_options(&options.unwrap_or(JsValue::UNDEFINED)).map_err(js_error)?.canonical;
    let body = body_from_js(&body, &Limits::default()).map_err(js_error)?;
    canonical::canonical_entries(&body.json, &options).map_err(js_error)
}

/// The text that is signed: base64url of the joined entries, then the timestamp.
#[wasm_bindgen(js_name = canonicalMessage)]
pub fn canonical_message(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Timestamp")] timestamp: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<String> {
    message(&body, timestamp, &options.unwrap_or(JsValue::UNDEFINED)).map_err(js_error)
}

/// `canonicalMessage` as its ASCII bytes, for the Node entry: `Buffer`'s latin1
/// decoding makes the string faster than `TextDecoder` does.
#[wasm_bindgen(js_name = __canonicalMessageBytes, skip_typescript)]
pub fn canonical_message_bytes(body: JsValue, timestamp: JsValue, options: JsValue) -> JsResult<Vec<u8>> {
    message(&body, timestamp, &options).map(String::into_bytes).map_err(js_error)
}

/// `__canonicalMessageBytes` of JSON text the Node entry encoded itself (`Buffer`
/// encodes faster than the glue's string copy, and the bytes need no checks in JS).
#[wasm_bindgen(js_name = __canonicalMessageOfUtf8, skip_typescript)]
pub fn canonical_message_of_utf8(body: &[u8], timestamp: JsValue, options: JsValue) -> JsResult<Vec<u8>> {
    let (options, timestamp) = message_options(timestamp, &options).map_err(js_error)?;
    let limits = Limits::default();
    let text = utf8_text(body, limits.max_bytes).map_err(js_error)?;
    let message = canonical::message_of_text(text, &timestamp, &options, &limits).map_err(js_error)?;
    Ok(message.into_bytes())
}

/// The message of JSON text (`canonical::message_of_text` makes the one-pass-or-tree
/// choice) or of a JS object.
fn message(body: &JsValue, timestamp: JsValue, options: &JsValue) -> Result<String, Error> {
    let (options, timestamp) = message_options(timestamp, options)?;
    let limits = Limits::default();
    match text_from_js(body, limits.max_bytes)? {
        Some(text) => canonical::message_of_text(&text, &timestamp, &options, &limits),
        None => canonical::canonical_message(&body_from_js(body, &limits)?.json, &timestamp, &options),
    }
}

/// The canonical options, then the timestamp's text.
fn message_options(timestamp: JsValue, options: &JsValue) -> Result<(CanonicalOptions, String), Error> {
    let options = canonical_options(options)?.canonical;
    Ok((options, timestamp_text(&member(timestamp))?))
}

/// Every step of building the message: entries, joined text, base64url, message.
#[wasm_bindgen(js_name = canonicalSteps, unchecked_return_type = "CanonicalStepsResult")]
pub fn canonical_steps(
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Timestamp")] timestamp: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CanonicalOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = canonical_options(&options.unwrap_or(JsValue::UNDEFINED)).map_err(js_error)?.canonical;
    let timestamp = timestamp_text(&member(timestamp)).map_err(js_error)?;
    let body = body_from_js(&body, &Limits::default()).map_err(js_error)?;
    let steps = canonical::canonical_steps(&body.json, &timestamp, &options).map_err(js_error)?;
    to_js(&StepsOut::from(&steps))
}

/// The named profiles: `{ name, description, options }`, `spec` first. Pass
/// `{ profile: name }` (alone or with overrides) wherever options are taken.
#[wasm_bindgen(unchecked_return_type = "ProfileInfo[]")]
pub fn profiles() -> JsResult<JsValue> {
    to_js(&profile_rows())
}
