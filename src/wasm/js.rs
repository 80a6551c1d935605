//! Core results and errors as JS values: thrown `Error`s with `.code`,
//! serialized shapes, objects with named fields; and the two services the
//! wasm takes from JS (the clock, the wiping of key text).

use std::cell::RefCell;

use js_sys::{Array, Function, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::JsValue;

use super::shapes::genuine_verification_json;
use crate::callback::VerifyOptions;
use crate::error::{Error, ErrorCode};

/// Overwrites a string that held private key material before it is freed: wasm memory
/// is never returned to the system, and freed bytes stay readable until reused.
/// `black_box` keeps the writes from being removed as dead stores.
pub(super) fn wipe(text: String) {
    let mut bytes = text.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&mut bytes);
}

thread_local! {
    /// The package's `PaymentIntakeError` class, given by the JS core (`__setErrorClass`):
    /// every error is made with it, so that `instanceof` holds. Until it is given (the glue
    /// used without the core), errors are plain `Error`s with the same members.
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Makes every later error an instance of `class` (the JS core's `PaymentIntakeError`,
/// whose constructor takes the message and runs no caller code).
#[wasm_bindgen(js_name = __setErrorClass, skip_typescript)]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|slot| *slot.borrow_mut() = Some(class));
}

/// The HTTP status of every code, in the order of `errorCodes()` (`ErrorCode::http_status`):
/// the JS core's table for the errors it makes itself.
#[wasm_bindgen(js_name = __errorStatuses, skip_typescript)]
pub fn error_statuses() -> Vec<u16> {
    ErrorCode::ALL.iter().map(|code| code.http_status()).collect()
}

fn set(object: &JsValue, name: &str, value: &JsValue) {
    let _ = Reflect::set(object, &name.into(), value);
}

/// A new error object of the registered class (a plain `Error` without one).
fn new_error(message: &str) -> JsValue {
    let class = ERROR_CLASS.with(|slot| slot.borrow().clone());
    let made = class.and_then(|class| Reflect::construct(&class, &Array::of1(&message.into())).ok());
    made.unwrap_or_else(|| {
        let js = js_sys::Error::new(message);
        js.set_name("PaymentIntakeError");
        js.into()
    })
}

/// A thrown JS `PaymentIntakeError` with `.code`, `.status`, `.hint` and, where known,
/// `.path`; after a genuine signature, `.verified`, `.body` (and `.rawBody`) too.
pub(super) fn js_error(error: Error) -> JsValue {
    let object = new_error(&error.to_string());
    set(&object, "code", &error.code().into());
    set(&object, "status", &error.status().into());
    if let Some(hint) = error.hint() {
        set(&object, "hint", &hint.into());
    }
    let path = match &error {
        Error::DuplicateKey { path }
        | Error::InvalidNumber { path, .. }
        | Error::InvalidBody { path, .. }
        | Error::InvalidCallback { path, .. }
        | Error::InvalidResponse { path, .. } => Some(path),
        _ => None,
    };
    if let Some(path) = path {
        set(&object, "path", &path.into());
    }
    let genuine_body = match &error {
        Error::AmbiguousCallback { raw_body, .. } => Some(raw_body.as_str()),
        Error::InvalidCallback { verified: Some(genuine), .. } => Some(genuine.raw_body.as_str()),
        _ => None,
    };
    if let Some(body) = genuine_body {
        // The signature checked: what a handler needs to keep the event and look the payment up.
        let body = JsValue::from(body);
        set(&object, "verified", &JsValue::TRUE);
        set(&object, "body", &body);
        set(&object, "rawBody", &body);
    }
    let ambiguities = match &error {
        Error::AmbiguousCallback { ambiguities, .. } | Error::AmbiguousRequest { ambiguities } => Some(ambiguities),
        _ => None,
    };
    // Through serde_json and JSON.parse, as the verified result goes: no second serializer in the .wasm.
    let list =
        ambiguities.and_then(|list| serde_json::to_string(list).ok()).and_then(|text| js_sys::JSON::parse(&text).ok());
    if let Some(list) = list {
        set(&object, "ambiguities", &list);
    }
    object
}

/// [`js_error`] of an error raised while verifying a callback with `options`: an
/// `INVALID_CALLBACK` after a genuine signature also carries `.verification`, as a
/// verified callback would.
pub(super) fn callback_error(error: Error, options: &VerifyOptions) -> JsValue {
    let verification = match &error {
        Error::InvalidCallback { verified: Some(genuine), .. } => genuine_verification_json(genuine, options).ok(),
        _ => None,
    };
    let object = js_error(error);
    if let Some(value) = verification.and_then(|text| js_sys::JSON::parse(&text).ok()) {
        set(&object, "verification", &value);
    }
    object
}

/// Serializes to plain JS objects (never `Map`), as `JSON.parse` would give.
pub(super) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(Error::CryptoFailure { reason: format!("result conversion failed: {e}") }))
}

thread_local! {
    /// The field names of [`object`], made into JS strings once.
    static NAMES: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// A plain object of named fields, for the private protocol to the JS core.
pub(super) fn object(fields: &[(&'static str, &JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        for (name, value) in fields {
            let at = match names.iter().position(|(known, _)| known == name) {
                Some(at) => at,
                None => {
                    names.push((name, JsValue::from_str(name)));
                    names.len() - 1
                }
            };
            let _ = Reflect::set(&object, &names[at].1, value);
        }
    });
    object.into()
}

/// Current Unix time in whole seconds.
pub(super) fn now_seconds() -> u64 {
    (js_sys::Date::now() / 1000.0).floor() as u64
}
