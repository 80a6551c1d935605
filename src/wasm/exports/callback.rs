//! Verifying callbacks: the private `__prepareCallback`, `__finishCallback`,
//! `__diagnoseCallback` and `__signatureMismatch` behind the JS core's
//! `verifyCallback`, `verifyCallbackAsync`, `prepareCallback` and `diagnoseCallback`.

use js_sys::{Function, Uint8Array};
use wasm_bindgen::prelude::*;

use super::super::gateway::{
    is_array, is_plain_prototype, members, nested_canonical_options, object_entries, text_from_js, type_name,
};
use super::super::headers::received_headers;
use super::super::js::{callback_error, js_error, now_seconds, object, to_js};
use super::super::keys::{verifying_keys, ReadKeys};
use super::super::options::{native_chosen, verify_fields, NativeRsa};
use super::super::pending::Pending;
use super::super::shapes::{verified_json, DiagnosisOut};
use super::super::JsResult;
use super::Rsa;
use crate::callback::keys::ConfiguredKey;
use crate::callback::{self, diagnose, PreparedCallback, VerifyOptions};
use crate::error::Error;
use crate::json::Limits;
use crate::rsa::pkcs1v15;

/// Everything of `verifyCallback` but (with a native RSA) the RSA check, in the same
/// order with the same errors. Once the signature has checked, returns the JSON text
/// `verifyCallback` returns, as it is; otherwise `{ message, signature, data, keyIndex,
/// result, failure }`: `result` is that JSON text for `prepareCallback`, or the `Error`
/// `verifyCallback` would throw then (a verified body without the callback shape);
/// `keyIndex` picks the configured key to verify with. For the native check,
/// `message` is the bytes RSA-SHA256 verifies (the message's, or its SHA-256 under
/// `digest: 'double'`); for 'prepare', the message's text, with those bytes in `data`.
/// Both are `undefined` when the check was made here: the `backend` option chose the
/// wasm, the signature is an HMAC, or `check` made it. `check`, when a function, is the
/// caller's synchronous native check, `check(at, length, signatureLength, key)` →
/// `true` when the signature verifies (`key`: what the core finds the chosen key's native
/// public key by, see [`ReadKeys`]), where the `length` bytes RSA-SHA256 verifies lie in
/// wasm memory from address `at`, the signature's right after them, valid until it
/// returns: called here, before the model is made, so that a body whose signature fails
/// costs no model; what it throws comes back as `failure`.
/// Otherwise (`verifyCallbackAsync`, whose check is awaited) a native check still to come
/// returns `{ message, signature, key, pending, body }` instead, nothing of the model
/// made: `pending`, a [`PendingCallback`], and `body`, the bytes of the body read here, go
/// to [`finish_callback`] once the check passed. `keyPem` resolves the JS core's key objects.
#[wasm_bindgen(js_name = __prepareCallback, skip_typescript)]
pub fn prepare_callback(
    raw_body: JsValue,
    headers: JsValue,
    keys: JsValue,
    options: JsValue,
    rsa: Rsa,
    key_pem: &Function,
    check: JsValue,
) -> JsResult<JsValue> {
    let rsa = NativeRsa::from(rsa);
    let (options, native) = verify_options(&options, rsa).map_err(js_error)?;
    let headers = received_headers(&headers).map_err(js_error)?;
    let ReadKeys { keys, sources } = verifying_keys(&keys, key_pem).map_err(js_error)?;
    let text = raw_body_text(&raw_body, &options.limits).map_err(js_error)?;
    let prepared = callback::prepare_callback(&text, &headers, &keys, &options).map_err(js_error)?;
    // What the core finds the chosen key's native public key by, as read here (never read again).
    let source = sources.get(prepared.key_index).cloned().unwrap_or(JsValue::UNDEFINED);
    let data = || Uint8Array::from(pkcs1v15::native_input(&prepared.message, prepared.digest).as_slice());
    let key_index = JsValue::from(prepared.key_index as u32);
    // The caller's native RSA check is still to come (an HMAC signature was checked while preparing).
    let mut pending = native && prepared.rsa_pending;
    if !native && prepared.rsa_pending {
        let key = keys[prepared.key_index].rsa().ok_or(Error::NoVerifyingKey).map_err(js_error)?;
        pkcs1v15::verify_signature_bytes(&prepared.message, &prepared.signature, key, prepared.digest)
            .map_err(js_error)?;
    }
    if let (true, Some(check)) = (pending && rsa != NativeRsa::Prepare, check.dyn_ref::<Function>()) {
        // The bytes RSA-SHA256 verifies, then the signature, read by the check in place: their
        // address and lengths, no copies. Nothing here touches them until the check returns
        // (wasm memory may grow meanwhile, while the core finds the key, but never moves).
        let mut bytes = pkcs1v15::native_input(&prepared.message, prepared.digest);
        let length = bytes.len();
        bytes.extend_from_slice(&prepared.signature);
        let (at, length, signature_length) =
            (JsValue::from(bytes.as_ptr() as usize), JsValue::from(length), JsValue::from(prepared.signature.len()));
        let answer = check.call4(&JsValue::UNDEFINED, &at, &length, &signature_length, &source);
        drop(bytes);
        match answer {
            Ok(verified) if verified.as_bool() == Some(true) => pending = false,
            Ok(_) => return Err(js_error(pkcs1v15::signature_mismatch())),
            Err(failure) => return Ok(object(&[("failure", &failure)])),
        }
    }
    if pending && rsa != NativeRsa::Prepare && !check.is_function() {
        // verifyCallbackAsync's native check, awaited: nothing of the model before it. For
        // that check, the bytes RSA-SHA256 verifies: the message's (ASCII) bytes, no string
        // to decode and encode again; or its digest under 'double'.
        let message = data().into();
        return Ok(deferred(prepared, options, message, source));
    }
    // The model, bound to the signed entries, made from this one read of the body, the
    // headers and the options: once the signature has checked (in the wasm, or by `check`
    // above), or for prepareCallback, whose caller checks it. (It is never made from a
    // second read: a caller's buffer or getter could give other bytes after the check.)
    let result = match prepared.finish(&options).and_then(|verified| verified_json(&verified, &options)) {
        // The signature has checked (here, or by `check`): the callback's JSON text is the
        // whole answer, given as it is (no object around it).
        Ok(json) if rsa != NativeRsa::Prepare => return Ok(JsValue::from(json)),
        Ok(json) => JsValue::from(json),
        // prepareCallback leaves the RSA check to its caller: not verified yet.
        Err(error) if rsa == NativeRsa::Prepare && prepared.rsa_pending => js_error(unverified(error)),
        Err(error) if native => callback_error(error, &options),
        Err(error) => return Err(callback_error(error, &options)),
    };
    let (message, signature, data) = if rsa == NativeRsa::Prepare {
        // prepareCallback: the message and signature always; the bytes RSA-SHA256
        // verifies when the RSA check is the caller's (not for HMAC, checked here).
        let data = if prepared.rsa_pending { data().into() } else { JsValue::UNDEFINED };
        (JsValue::from(&prepared.message), signature_bytes(&prepared.signature), data)
    } else {
        // The signature has checked: the model (or its error) is the whole answer.
        (JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED)
    };
    Ok(object(&[
        ("message", &message),
        ("signature", &signature),
        ("data", &data),
        ("keyIndex", &key_index),
        ("result", &result),
    ]))
}

/// A callback whose native check is awaited (see [`Pending`]): made by
/// `__prepareCallback`, and freed by the JS core right after the check answered.
#[wasm_bindgen(js_name = __PendingCallback, skip_typescript)]
pub struct PendingCallback(Pending);

/// `__prepareCallback`'s answer when the native check is awaited: the bytes RSA-SHA256
/// verifies and the signature, with the [`PendingCallback`] and a copy of the body.
fn deferred(prepared: PreparedCallback, options: VerifyOptions, message: JsValue, source: JsValue) -> JsValue {
    let signature = signature_bytes(&prepared.signature);
    let (text, rest) = prepared.split_body();
    let body = JsValue::from(Uint8Array::from(text.as_bytes()));
    drop(text);
    let pending = JsValue::from(PendingCallback(Pending::new(rest, options)));
    object(&[
        ("message", &message),
        ("signature", &signature),
        ("key", &source),
        ("pending", &pending),
        ("body", &body),
    ])
}

/// After the awaited native check passed: the JSON text `verifyCallback` returns, or the
/// error it throws then (`AMBIGUOUS_CALLBACK`, `INVALID_CALLBACK` with its verified details).
/// `body` is the copy `__prepareCallback` gave with `pending`.
#[wasm_bindgen(js_name = __finishCallback, skip_typescript)]
pub fn finish_callback(pending: &mut PendingCallback, body: JsValue) -> JsResult<String> {
    let pending = &mut pending.0;
    let text = raw_body_text(&body, &pending.options().limits).map_err(js_error)?;
    pending.finish(text).map_err(|error| callback_error(error, pending.options()))
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

/// The error `verifyCallback` throws when the RSA check fails.
#[wasm_bindgen(js_name = __signatureMismatch, skip_typescript)]
pub fn signature_mismatch() -> JsValue {
    js_error(pkcs1v15::signature_mismatch())
}

/// The error `verifyCallbackRequest` throws when the request's body stream fails
/// before its end; `reason` is the stream's message (a string, else left out).
#[wasm_bindgen(js_name = __bodyUnreadable, skip_typescript)]
pub fn body_unreadable(reason: JsValue) -> JsValue {
    let reason = reason.as_string().unwrap_or_else(|| "the stream failed".into());
    js_error(Error::BodyUnreadable { reason })
}

/// For a callback that fails to verify: which rules the sender used (against
/// one key or several), or why none matches (the key, else the body, else a rule
/// we do not know).
#[wasm_bindgen(js_name = __diagnoseCallback, skip_typescript)]
pub fn diagnose_callback(raw_body: JsValue, headers: JsValue, keys: JsValue, key_pem: &Function) -> JsResult<JsValue> {
    let headers = received_headers(&headers).map_err(js_error)?;
    let keys = verifying_keys(&keys, key_pem).map_err(js_error)?.keys;
    let limits = Limits::callback();
    let text = raw_body_text(&raw_body, &limits).map_err(js_error)?;
    let diagnosis = diagnose::diagnose_callback(&text, &headers, &keys, &limits).map_err(js_error)?;
    to_js(&DiagnosisOut::new(diagnosis, |index| keys.get(index).is_some_and(|key| key.rsa().is_some())))
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
