//! The canonical form: entries, message, steps.

use std::cell::Cell;

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use super::super::body::body_from_js;
use super::super::gateway::{canonical_options, member, text_from_js, utf8_text};
use super::super::js::{answer, js_error, to_js, Answer, Request};
use super::super::options::{timestamp_text, Member};
use super::super::shapes::{profile_rows, StepsOut};
use super::super::JsResult;
use super::input;
use crate::canonical::entry::MAX_CANONICAL_BYTES;
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

thread_local! {
    /// The last message of `__canonicalMessageOfInput`, read in place by the Node entry:
    /// its length (4 bytes, little-endian), then its bytes.
    static OUTPUT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// The message of the first `len` bytes of the input (`__textInput`),
/// and the timestamp: the `stamp` bytes after them when `stamp` is not negative (the
/// string the entry wrote there, at most `input::ROOM_AFTER_TEXT`), else `timestamp`. Gives the address of the
/// message in wasm memory, after its length (4 bytes, little-endian), for the Node
/// entry to read as latin1 in place; valid until the next call.
#[wasm_bindgen(js_name = __canonicalMessageOfInput, skip_typescript)]
pub fn canonical_message_of_input(len: usize, stamp: i32, timestamp: JsValue, options: JsValue) -> JsResult<usize> {
    input::with_input(|input| message_of_input(input, len, stamp, timestamp, &options)).map_err(js_error)
}

fn message_of_input(
    input: &[u8],
    len: usize,
    stamp: i32,
    timestamp: JsValue,
    options: &JsValue,
) -> Result<usize, Error> {
    let written = usize::try_from(stamp)
        .ok()
        .filter(|&stamp| stamp <= input::ROOM_AFTER_TEXT)
        .and_then(|stamp| input.get(len..len.checked_add(stamp)?));
    // (Reading a JS value as a member runs no code of the caller's: before the options is as good as after.)
    let timestamp = match written.and_then(|bytes| std::str::from_utf8(bytes).ok()) {
        Some(text) => Member::Text(text.to_owned()),
        None => member(timestamp),
    };
    let (options, timestamp) = message_options(timestamp, options)?;
    let limits = Limits::default();
    let text = utf8_text(input::written(input, len)?, limits.max_bytes)?;
    let mut out = OUTPUT.take();
    out.clear();
    // The last message is read: a buffer made for a large one is not kept for every
    // later call (a 60 KB body's message is about 200 KB).
    if out.capacity() > OUTPUT_KEPT {
        out = Vec::new();
    }
    let written = out
        .try_reserve(HEADER)
        .map_err(|_| Error::CanonicalTooLarge { limit: MAX_CANONICAL_BYTES, actual: HEADER as u64 })
        .and_then(|()| {
            out.extend_from_slice(&[0; HEADER]);
            canonical::message_of_text_into(text, &timestamp, &options, &limits, &mut out)
        })
        .map(|()| {
            // At most the 16 MiB canonical bound, 4/3 over: a u32.
            let message_len = (out.len() - HEADER) as u32;
            if let Some(header) = out.get_mut(..HEADER) {
                header.copy_from_slice(&message_len.to_le_bytes());
            }
            out.as_ptr() as usize
        });
    OUTPUT.set(out);
    written
}

/// The most bytes of `OUTPUT`'s buffer kept from one message to the next.
const OUTPUT_KEPT: usize = 256 << 10;

/// The length before a message `__canonicalMessageOfInput` writes.
const HEADER: usize = 4;

/// The wasm's memory, for the Node entry to write and read `__textInput`'s and
/// `__canonicalMessageOfInput`'s bytes in place.
#[wasm_bindgen(js_name = __memory, skip_typescript)]
pub fn memory() -> JsValue {
    wasm_bindgen::memory()
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
