//! The canonical form: entries, message, steps.

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use super::super::body::body_from_js;
use super::super::gateway::{canonical_options, member, text_from_js, utf8_text};
use super::super::js::{answer, js_error, to_js, Answer, Request};
use super::super::options::{timestamp_text, Member};
use super::super::shapes::{profile_rows, StepsOut};
use super::super::JsResult;
use super::input::{self, InPlaceCall, Kind};
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
/// `__canonicalMessageBytes({ body, timestamp, options })`, the body as the entry gives
/// it: text it encoded itself as UTF-8 bytes (`Buffer` encodes faster than the glue's
/// string copy), or as the caller gave it. The value is a `Uint8Array`.
#[wasm_bindgen(js_name = __canonicalMessageBytes, skip_typescript)]
pub fn canonical_message_bytes(request: Request) -> Answer {
    let body = request.body();
    let timestamp = request.timestamp();
    let options = request.options();
    let message = message(&body, timestamp, &options).map_err(js_error);
    answer(message.map(|message| Uint8Array::from(message.as_bytes()).into()))
}

/// `__canonicalMessageOfInput(call)` ([`input::InPlaceCall`]): the message of the text
/// written in the input, with the timestamp and options the call names. The value (kind
/// `message`) is the address of the message's length (4 bytes, little-endian), then its
/// bytes, for the Node entry to read as latin1 in place; valid until the next call.
#[wasm_bindgen(js_name = __canonicalMessageOfInput, skip_typescript)]
pub fn canonical_message_of_input(call: &mut InPlaceCall) {
    let timestamp = std::mem::replace(&mut call.timestamp, JsValue::UNDEFINED);
    let options = std::mem::replace(&mut call.options, JsValue::UNDEFINED);
    let stamp = if call.timestamp_written { Some(call.timestamp_length as usize) } else { None };
    // (A caller's getter of the options that calls in again cannot reach this call: the entry
    // takes its general path while one is under way.)
    let at = message_of_input(&call.input, call.length, stamp, timestamp, &options);
    call.answer(at.map(|at| (Kind::Message, at)));
}

fn message_of_input(
    input: &[u8],
    length: u32,
    stamp: Option<usize>,
    timestamp: JsValue,
    options: &JsValue,
) -> Result<usize, Error> {
    let start = length as usize;
    let written = stamp
        .filter(|&stamp| stamp <= input::ROOM_AFTER_TEXT)
        .and_then(|stamp| input.get(start..start.checked_add(stamp)?));
    // (Reading a JS value as a member runs no code of the caller's: before the options is as good as after.)
    let timestamp = match written.and_then(|bytes| std::str::from_utf8(bytes).ok()) {
        Some(text) => Member::Text(text.to_owned()),
        None => member(timestamp),
    };
    let (options, timestamp) = message_options(timestamp, options)?;
    let limits = Limits::default();
    let text = utf8_text(input::written(input, length)?, limits.max_bytes)?;
    input::output("message", &mut |out| canonical::message_of_text_into(text, &timestamp, &options, &limits, out))
}

/// The message of JSON text (`canonical::message_of_text` makes the one-pass-or-tree
/// choice) or of a JS object.
fn message(body: &JsValue, timestamp: JsValue, options: &JsValue) -> Result<String, Error> {
    let (options, timestamp) = message_options(member(timestamp), options)?;
    let limits = Limits::default();
    match text_from_js(body, limits.max_bytes)? {
        Some(text) => canonical::message_of_text(&text, &timestamp, &options, &limits),
        None => canonical::canonical_message(&body_from_js(body, &limits)?.json, &timestamp, &options),
    }
}

/// The canonical options, then the timestamp's text.
fn message_options(timestamp: Member<JsValue>, options: &JsValue) -> Result<(CanonicalOptions, String), Error> {
    let options = canonical_options(options)?.canonical;
    Ok((options, timestamp_text(&timestamp)?))
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
