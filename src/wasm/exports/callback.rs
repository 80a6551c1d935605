//! Verifying callbacks: the private `__verifyCallback` and `__finishCallback` (the first
//! and last of three plain steps, the native check between them in the JS core),
//! `__prepareCallback`, `__diagnoseCallback` and `__bodyUnreadable`, behind the JS core's
//! `verifyCallback`, `verifyCallbackAsync`, `verifyCallbackRequest`, `prepareCallback` and
//! `diagnoseCallback` (`pkg-template/callbacks.mjs`). Each takes one request object the
//! core makes and answers `{ ok: true, value }` or `{ ok: false, error }` ([`answer`]).

use std::cell::{Cell, RefCell};

use js_sys::{Function, JsString, Uint8Array};
use wasm_bindgen::prelude::*;

use super::super::gateway::{
    is_array, is_plain_prototype, members, nested_canonical_options, object_entries, text_from_js, type_name,
};
use super::super::headers::received_headers;
use super::super::js::{answer, callback_error, js_error, now_seconds, object, request_member, to_js, Answer};
use super::super::keys::{verifying_keys, ReadKeys};
use super::super::options::{native_chosen, verify_fields, NativeRsa};
use super::super::pending::{model_json, Pending};
use super::super::shapes::DiagnosisOut;
use crate::callback::keys::{CallbackKey, ConfiguredKey};
use crate::callback::{self, diagnose, PreparedCallback, VerifyOptions};
use crate::error::Error;
use crate::json::Limits;
use crate::rsa::pkcs1v15;

/// `verifyCallback` in three plain steps, the first here: `__verifyCallback({ body,
/// headers, keys, options, keyPem, native, awaited })`, in the order of checks and with the
/// errors of `verifyCallback`. `native`: the core offers a native RSA (the `backend` option
/// decides whether it runs); `awaited`: its check is awaited (`verifyCallbackAsync`). The
/// answer's value is the verified callback's JSON text when the signature was checked here
/// (an HMAC one, or the `backend` option chose the wasm), else what the core's check needs:
/// `{ handle, key }` (`key`: what the core finds the chosen key's native public key by, see
/// [`ReadKeys`]) and the bytes RSA-SHA256 verifies and the signature, either where they lie
/// in wasm memory (`at`, `length`, `signatureLength`: read by `pkg-template/wasm-io.mjs`
/// before any other wasm call can free them) or, when awaited, as copies (`data`,
/// `signature`), with a copy of the body (`body`), which the wasm does not keep during the
/// await. Nothing of the model is made before the check: a forged body costs none. The
/// check's answer goes to [`finish_callback`] with the handle, whatever it was.
#[wasm_bindgen(js_name = __verifyCallback, skip_typescript)]
pub fn verify_callback(request: JsValue) -> Answer {
    answer(verify(&request))
}

fn verify(request: &JsValue) -> Result<JsValue, JsValue> {
    let native = request_member(request, &NATIVE).is_truthy();
    let rsa = if native { NativeRsa::Available } else { NativeRsa::Absent };
    let options = request_member(request, &OPTIONS);
    let (options, native) = verify_options(&options, rsa).map_err(js_error)?;
    let (keys, prepared, source) = prepare(request, &options)?;
    if !native && prepared.rsa_pending {
        // The wasm's RSA: checked here, before the model.
        let key = keys[prepared.key_index].rsa().ok_or(Error::NoVerifyingKey).map_err(js_error)?;
        pkcs1v15::verify_signature_bytes(&prepared.message, &prepared.signature, key, prepared.digest)
            .map_err(js_error)?;
    }
    if !(native && prepared.rsa_pending) {
        // The signature has checked: the callback's JSON text is the whole value.
        return model_json(&prepared, &options).map(JsValue::from).map_err(|error| callback_error(error, &options));
    }
    let awaited = request_member(request, &AWAITED).is_truthy();
    let mut bytes = pkcs1v15::native_input(&prepared.message, prepared.digest);
    if awaited {
        // The check is awaited: copies of what it reads, and of the body, which the wasm does
        // not keep meanwhile (its memory never shrinks: many hostile bodies awaiting their
        // checks would grow it for good); the handle keeps the rest (see [`Pending`]).
        let data = JsValue::from(Uint8Array::from(bytes.as_slice()));
        let signature = JsValue::from(Uint8Array::from(prepared.signature.as_slice()));
        let (text, rest) = prepared.split_body();
        let body = JsValue::from(Uint8Array::from(text.as_bytes()));
        drop(text);
        let handle = hold(Pending::new(rest, options), Vec::new());
        return Ok(object(&[
            ("handle", &handle),
            ("key", &source),
            ("data", &data),
            ("signature", &signature),
            ("body", &body),
        ]));
    }
    // The sync check reads the bytes RSA-SHA256 verifies, then the signature, in place: the
    // handle keeps them (and the body) until the check answered.
    let length = bytes.len();
    bytes.extend_from_slice(&prepared.signature);
    let (at, signature_length) = (JsValue::from(bytes.as_ptr() as usize), JsValue::from(prepared.signature.len()));
    let handle = hold(Pending::new(prepared, options), bytes);
    Ok(object(&[
        ("handle", &handle),
        ("key", &source),
        ("at", &at),
        ("length", &JsValue::from(length)),
        ("signatureLength", &signature_length),
    ]))
}

/// Headers, keys and body of a request, read once in this order (after the options), and
/// the callback prepared from them; with the keys, and what the core finds the chosen key's
/// native key by.
fn prepare(
    request: &JsValue,
    options: &VerifyOptions,
) -> Result<(Vec<CallbackKey>, PreparedCallback, JsValue), JsValue> {
    let headers = received_headers(&request_member(request, &HEADERS)).map_err(js_error)?;
    let key_pem = request_member(request, &KEY_PEM).unchecked_into::<Function>();
    let ReadKeys { keys, sources } = verifying_keys(&request_member(request, &KEYS), &key_pem).map_err(js_error)?;
    let text = raw_body_text(&request_member(request, &BODY), &options.limits).map_err(js_error)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, options).map_err(js_error)?;
    let source = sources.get(prepared.key_index).cloned().unwrap_or(JsValue::UNDEFINED);
    Ok((keys, prepared, source))
}

/// The last step: `__finishCallback({ handle, verified, body })` once the core's native
/// check answered. `verified`: it answered `true` (anything else is the signature mismatch;
/// a check that threw is the core's CRYPTO_FAILURE, and it still finishes the handle);
/// `body`: the copy `__verifyCallback` gave when awaited. The value is the JSON text
/// `verifyCallback` returns; the error, what it throws then (`AMBIGUOUS_CALLBACK`,
/// `INVALID_CALLBACK` with its verified details). The handle is freed whatever happens.
#[wasm_bindgen(js_name = __finishCallback, skip_typescript)]
pub fn finish_callback(request: JsValue) -> Answer {
    let handle = request_member(&request, &HANDLE).as_f64().map_or(0, |handle| handle as u32);
    let Some((mut pending, bytes)) = release(handle) else {
        return answer(Err(js_error(Error::InvalidArgument {
            name: "handle".into(),
            reason: "is not a pending callback".into(),
        })));
    };
    drop(bytes);
    if request_member(&request, &VERIFIED).as_bool() != Some(true) {
        return answer(Err(js_error(pkcs1v15::signature_mismatch())));
    }
    let body = request_member(&request, &BODY);
    let text =
        if body.is_undefined() { Ok(pending.take_body()) } else { raw_body_text(&body, &pending.options().limits) };
    let result = text.and_then(|text| pending.finish(text)).map_err(|error| callback_error(error, pending.options()));
    answer(result.map(JsValue::from))
}

thread_local! {
    /// The callbacks whose native check is due, by handle, with the bytes it reads in place.
    static HELD: RefCell<Vec<(u32, Pending, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    /// The next handle; handles are never reused.
    static NEXT_HANDLE: Cell<u32> = const { Cell::new(1) };
}

fn hold(pending: Pending, bytes: Vec<u8>) -> JsValue {
    let handle = NEXT_HANDLE.with(|next| next.replace(next.get().wrapping_add(1).max(1)));
    HELD.with(|held| held.borrow_mut().push((handle, pending, bytes)));
    JsValue::from(handle)
}

fn release(handle: u32) -> Option<(Pending, Vec<u8>)> {
    HELD.with(|held| {
        let mut held = held.borrow_mut();
        let at = held.iter().position(|(known, ..)| *known == handle)?;
        let (_, pending, bytes) = held.swap_remove(at);
        Some((pending, bytes))
    })
}

/// Everything of verifyCallback but the RSA check, for `prepareCallback`:
/// `__prepareCallback({ body, headers, keys, options, keyPem })` → `{ message, signature,
/// data, keyIndex, result }`: `data`, the bytes RSA-SHA256 verifies (`undefined` for an HMAC
/// signature, checked here); `result`, the callback's JSON text or the error data
/// `verifyCallback` would throw after a check that passed.
#[wasm_bindgen(js_name = __prepareCallback, skip_typescript)]
pub fn prepare_callback(request: JsValue) -> Answer {
    answer(prepare_only(&request))
}

fn prepare_only(request: &JsValue) -> Result<JsValue, JsValue> {
    let options = request_member(request, &OPTIONS);
    let (options, _) = verify_options(&options, NativeRsa::Prepare).map_err(js_error)?;
    let (_, prepared, _) = prepare(request, &options)?;
    let key_index = JsValue::from(prepared.key_index as u32);
    let data = if prepared.rsa_pending {
        Uint8Array::from(pkcs1v15::native_input(&prepared.message, prepared.digest).as_slice()).into()
    } else {
        JsValue::UNDEFINED
    };
    let (message, signature) = (JsValue::from(&prepared.message), signature_bytes(&prepared.signature));
    let rsa_pending = prepared.rsa_pending;
    let result = match model_json(&prepared, &options) {
        Ok(json) => JsValue::from(json),
        // The RSA check is the caller's: not verified yet.
        Err(error) if rsa_pending => js_error(unverified(error)),
        Err(error) => callback_error(error, &options),
    };
    Ok(object(&[
        ("message", &message),
        ("signature", &signature),
        ("data", &data),
        ("keyIndex", &key_index),
        ("result", &result),
    ]))
}

/// How many pending callbacks are alive (not freed): for the tests.
#[wasm_bindgen(js_name = __pendingCallbacks, skip_typescript)]
pub fn pending_callbacks() -> u32 {
    Pending::alive()
}

/// An error raised before any RSA check, without the genuine body it would carry after one.
fn unverified(error: Error) -> Error {
    match error {
        Error::InvalidCallback { path, reason, .. } => Error::InvalidCallback { path, reason, verified: None },
        other => other,
    }
}

fn signature_bytes(signature: &[u8]) -> JsValue {
    Uint8Array::from(signature).into()
}

/// The error `verifyCallbackRequest` throws when the request's body stream fails before
/// its end: `__bodyUnreadable({ reason })`, the stream's message (a string, else left out).
#[wasm_bindgen(js_name = __bodyUnreadable, skip_typescript)]
pub fn body_unreadable(request: JsValue) -> Answer {
    let reason = request_member(&request, &REASON).as_string().unwrap_or_else(|| "the stream failed".into());
    answer(Err(js_error(Error::BodyUnreadable { reason })))
}

/// For a callback that fails to verify: which rules the sender used (against one key or
/// several), or why none matches (the key, else the body, else a rule we do not know).
/// `__diagnoseCallback({ body, headers, keys, keyPem })`.
#[wasm_bindgen(js_name = __diagnoseCallback, skip_typescript)]
pub fn diagnose_callback(request: JsValue) -> Answer {
    answer(diagnose(&request))
}

fn diagnose(request: &JsValue) -> Result<JsValue, JsValue> {
    let headers = received_headers(&request_member(request, &HEADERS)).map_err(js_error)?;
    let key_pem = request_member(request, &KEY_PEM).unchecked_into::<Function>();
    let keys = verifying_keys(&request_member(request, &KEYS), &key_pem).map_err(js_error)?.keys;
    let limits = Limits::callback();
    let text = raw_body_text(&request_member(request, &BODY), &limits).map_err(js_error)?;
    let diagnosis = diagnose::diagnose_callback(&text, &headers, &keys, &limits).map_err(js_error)?;
    to_js(&DiagnosisOut::new(diagnosis, |index| keys.get(index).is_some_and(|key| key.rsa().is_some())))
}

// The members of the requests (rustfmt would drop their values: not Rust syntax).
#[rustfmt::skip]
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(thread_local_v2, static_string)]
    static BODY: JsString = "body";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static HEADERS: JsString = "headers";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static KEYS: JsString = "keys";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static OPTIONS: JsString = "options";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static KEY_PEM: JsString = "keyPem";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static NATIVE: JsString = "native";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static AWAITED: JsString = "awaited";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static HANDLE: JsString = "handle";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static VERIFIED: JsString = "verified";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static REASON: JsString = "reason";
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn verify_options(options: &JsValue, rsa: NativeRsa) -> Result<(VerifyOptions, bool), Error> {
    let fields = verify_fields(members(options))?;
    let native = native_chosen(fields.backend.as_deref(), rsa)?;
    let profile = nested_canonical_options(&fields.options)?;
    Ok((fields.into_options(profile, now_seconds), native))
}

/// The raw body as text: a string or UTF-8 bytes (nothing is the empty body).
fn raw_body_text(raw_body: &JsValue, limits: &Limits) -> Result<String, Error> {
    match text_from_js(raw_body, limits.max_bytes)? {
        Some(text) => Ok(text),
        None if raw_body.is_undefined() || raw_body.is_null() => Ok(String::new()),
        // A plain object or array: a framework parsed the JSON (`{}`: its parser skipped it).
        None if is_parsed_json(raw_body) => {
            let empty = !is_array(raw_body).unwrap_or(false) && object_entries(raw_body).is_ok_and(|e| e.is_empty());
            Err(Error::RawBodyParsed { empty })
        }
        None => Err(Error::InvalidArgument {
            name: "rawBody".into(),
            reason: format!(
                "must be the raw body as a string or bytes (Buffer, Uint8Array, ArrayBuffer, DataView), not {}",
                type_name(raw_body)
            ),
        }),
    }
}

/// Whether a value looks like what a JSON body parser gives: an array or a plain object.
fn is_parsed_json(value: &JsValue) -> bool {
    value.is_object() && (is_array(value).unwrap_or(false) || is_plain_prototype(value).unwrap_or(false))
}
