//! Verifying callbacks: the private `__verifyCallback` and `__finishCallback` (the first
//! and last of three plain steps, the native check between them in the JS core),
//! `__prepareCallback`, `__diagnoseCallback` and `__bodyUnreadable`, behind the JS core's
//! `verifyCallback`, `verifyCallbackAsync`, `verifyCallbackRequest`, `prepareCallback` and
//! `diagnoseCallback` (`pkg-template/callbacks.mjs`). Each takes one request object the
//! core makes and answers `{ ok: true, value }` or `{ ok: false, error }` ([`answer`]).

use std::cell::{Cell, RefCell};

use js_sys::Uint8Array;
use wasm_bindgen::prelude::*;

use super::super::gateway::{
    is_array, is_plain_prototype, members, nested_canonical_options, object_entries, text_from_js, type_name,
};
use super::super::headers::received_headers;
use super::super::js::{
    answer, answer_json, answer_json_kind, answer_kind, callback_error, js_error, now_seconds, object, to_js, Answer,
    Request,
};
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
/// answer is `{ ok, kind, value }`, `kind` naming the value's shape ([`Checked`]): its value
/// is the verified callback (what `verifyCallback` returns, the answer parsed
/// whole from JSON text: [`answer_json`]) when the signature was checked here (an HMAC one,
/// or the `backend` option chose the wasm), else what the core's check needs:
/// the handle, `key` (what the core finds the chosen key's native public key by, see
/// [`ReadKeys`]) and the bytes RSA-SHA256 verifies and the signature: either `{ key, at }`,
/// where `at` is where the handle, their lengths and they lie in wasm memory ([`in_place`],
/// read by `pkg-template/wasm-io.mjs` before any other wasm call can free them) or, when
/// awaited, `{ handle, key, data, signature, body }`, copies, with a copy of the body, which
/// the wasm does not keep during the await. Nothing of the model is made before the check: a forged body costs none. The
/// check's answer goes to [`finish_callback`] with the handle, whatever it was.
#[wasm_bindgen(js_name = __verifyCallback, skip_typescript)]
pub fn verify_callback(request: Request) -> Answer {
    match verify(&request) {
        Ok(Checked::Verified(json)) => answer_json_kind("verified", Ok(json)),
        Ok(Checked::InPlace(value)) => answer_kind("inPlace", &value),
        Ok(Checked::Awaited(value)) => answer_kind("awaited", &value),
        Err(error) => answer(Err(error)),
    }
}

/// What [`verify`] leaves, the answer's `kind`: the verified callback's JSON text
/// (`verified`), or what the native check needs, read in place (`inPlace`: `{ key, at }`) or
/// as copies while it is awaited (`awaited`: `{ handle, key, data, signature, body }`).
enum Checked {
    Verified(String),
    InPlace(JsValue),
    Awaited(JsValue),
}

fn verify(request: &Request) -> Result<Checked, JsValue> {
    let rsa = if request.native() { NativeRsa::Available } else { NativeRsa::Absent };
    let (options, native) = verify_options(&request.options(), rsa).map_err(js_error)?;
    let (keys, prepared, source) = prepare(request, &options)?;
    if !native && prepared.rsa_pending {
        // The wasm's RSA: checked here, before the model.
        let key = keys[prepared.key_index].rsa().ok_or(Error::NoVerifyingKey).map_err(js_error)?;
        pkcs1v15::verify_signature_bytes(&prepared.message, &prepared.signature, key, prepared.digest)
            .map_err(js_error)?;
    }
    if !(native && prepared.rsa_pending) {
        // The signature has checked: the verified callback is the whole value.
        return model_json(&prepared, &options).map(Checked::Verified).map_err(|error| callback_error(error, &options));
    }
    let data = pkcs1v15::native_input(&prepared.message, prepared.digest);
    if request.awaited() {
        // The check is awaited: copies of what it reads, and of the body, which the wasm does
        // not keep meanwhile (its memory never shrinks: many hostile bodies awaiting their
        // checks would grow it for good); the handle keeps the rest (see [`Pending`]).
        let data = JsValue::from(Uint8Array::from(data.as_ref()));
        let signature = JsValue::from(Uint8Array::from(prepared.signature.as_slice()));
        let (text, rest) = prepared.split_body();
        let body = JsValue::from(Uint8Array::from(text.as_bytes()));
        drop(text);
        let handle = next_handle();
        hold(handle, Pending::new(rest, options), Vec::new());
        let handle = JsValue::from(handle);
        return Ok(Checked::Awaited(object(&[
            ("handle", &handle),
            ("key", &source),
            ("data", &data),
            ("signature", &signature),
            ("body", &body),
        ])));
    }
    // The sync check reads, in place, the handle, the two lengths, the bytes RSA-SHA256
    // verifies and the signature ([`in_place`]); the handle keeps them (and the body) until
    // the check answered. Only where they lie crosses, with the key (each member is a crossing).
    let handle = next_handle();
    let bytes = in_place(handle, &data, &prepared.signature);
    let at = JsValue::from(bytes.as_ptr() as usize);
    hold(handle, Pending::new(prepared, options), bytes);
    Ok(Checked::InPlace(object(&[("key", &source), ("at", &at)])))
}

/// What the sync check reads where its value's `at` points (`pkg-template/wasm-io.mjs`,
/// `checkInPlace`): the handle, the length of the bytes RSA-SHA256 verifies and the
/// signature's, as u32 little-endian, then those bytes, then the signature.
fn in_place(handle: u32, data: &[u8], signature: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(12 + data.len() + signature.len());
    for number in [handle, data.len() as u32, signature.len() as u32] {
        bytes.extend_from_slice(&number.to_le_bytes());
    }
    bytes.extend_from_slice(data);
    bytes.extend_from_slice(signature);
    bytes
}

/// Headers, keys and body of a request, read once in this order (after the options), and
/// the callback prepared from them; with the keys, and what the core finds the chosen key's
/// native key by.
fn prepare(
    request: &Request,
    options: &VerifyOptions,
) -> Result<(Vec<CallbackKey>, PreparedCallback, JsValue), JsValue> {
    let headers = received_headers(&request.headers()).map_err(js_error)?;
    let ReadKeys { keys, sources } = verifying_keys(&request.keys(), &request.key_pem()).map_err(js_error)?;
    let text = raw_body_text(&request.body(), &options.limits).map_err(js_error)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, options).map_err(js_error)?;
    let source = sources.get(prepared.key_index).cloned().unwrap_or(JsValue::UNDEFINED);
    Ok((keys, prepared, source))
}

/// The last step: `__finishCallback({ handle, verified, body })` once the core's native
/// check answered. `verified`: it answered `true` (anything else is the signature mismatch;
/// a check that threw is the core's CRYPTO_FAILURE, and it still finishes the handle);
/// `body`: the copy `__verifyCallback` gave when awaited. The value is the verified callback
/// `verifyCallback` returns ([`answer_json`]); the error, what it throws then (`AMBIGUOUS_CALLBACK`,
/// `INVALID_CALLBACK` with its verified details). The handle is freed whatever happens.
#[wasm_bindgen(js_name = __finishCallback, skip_typescript)]
pub fn finish_callback(request: Request) -> Answer {
    let handle = request.handle() as u32;
    let Some((mut pending, bytes)) = release(handle) else {
        return answer(Err(js_error(Error::InvalidArgument {
            name: "handle".into(),
            reason: "is not a pending callback".into(),
        })));
    };
    drop(bytes);
    if !request.verified() {
        return answer(Err(js_error(pkcs1v15::signature_mismatch())));
    }
    let body = request.body();
    let text =
        if body.is_undefined() { Ok(pending.take_body()) } else { raw_body_text(&body, &pending.options().limits) };
    let result = text.and_then(|text| pending.finish(text)).map_err(|error| callback_error(error, pending.options()));
    answer_json(result)
}

thread_local! {
    /// The callbacks whose native check is due, by handle, with the bytes it reads in place.
    static HELD: RefCell<Vec<(u32, Pending, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    /// The next handle; handles are never reused.
    static NEXT_HANDLE: Cell<u32> = const { Cell::new(1) };
}

fn next_handle() -> u32 {
    NEXT_HANDLE.with(|next| next.replace(next.get().wrapping_add(1).max(1)))
}

fn hold(handle: u32, pending: Pending, bytes: Vec<u8>) {
    HELD.with(|held| held.borrow_mut().push((handle, pending, bytes)));
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
pub fn prepare_callback(request: Request) -> Answer {
    answer(prepare_only(&request))
}

fn prepare_only(request: &Request) -> Result<JsValue, JsValue> {
    let (options, _) = verify_options(&request.options(), NativeRsa::Prepare).map_err(js_error)?;
    let (_, prepared, _) = prepare(request, &options)?;
    let key_index = JsValue::from(prepared.key_index as u32);
    let data = if prepared.rsa_pending {
        Uint8Array::from(pkcs1v15::native_input(&prepared.message, prepared.digest).as_ref()).into()
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
pub fn body_unreadable(request: Request) -> Answer {
    let reason = request.reason().as_string().unwrap_or_else(|| "the stream failed".into());
    answer(Err(js_error(Error::BodyUnreadable { reason })))
}

#[cfg(feature = "full-api")]
/// For a callback that fails to verify: which rules the sender used (against one key or
/// several), or why none matches (the key, else the body, else a rule we do not know).
/// `__diagnoseCallback({ body, headers, keys, keyPem })`.
#[wasm_bindgen(js_name = __diagnoseCallback, skip_typescript)]
pub fn diagnose_callback(request: Request) -> Answer {
    answer(diagnose(&request))
}

fn diagnose(request: &Request) -> Result<JsValue, JsValue> {
    let headers = received_headers(&request.headers()).map_err(js_error)?;
    let keys = verifying_keys(&request.keys(), &request.key_pem()).map_err(js_error)?.keys;
    let limits = Limits::callback();
    let text = raw_body_text(&request.body(), &limits).map_err(js_error)?;
    let diagnosis = diagnose::diagnose_callback(&text, &headers, &keys, &limits).map_err(js_error)?;
    to_js(&DiagnosisOut::new(diagnosis, |index| keys.get(index).is_some_and(|key| key.rsa().is_some())))
}

/// The options, and whether the `backend` option chose the caller's native RSA.
fn verify_options(options: &JsValue, rsa: NativeRsa) -> Result<(VerifyOptions, bool), Error> {
    if options.is_undefined() {
        // No options (the usual call): the defaults, which are what the reader below makes of
        // no member (`options/tests.rs`, `no_options_read_as_the_defaults`), without reading.
        return Ok((VerifyOptions::default(), native_chosen(None, rsa)?));
    }
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
