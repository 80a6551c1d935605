//! Core results and errors as JS values: thrown `Error`s with `.code`,
//! serialized shapes, objects with named fields; and the two services the
//! wasm takes from JS (the clock, the wiping of key text).

use std::cell::RefCell;

use js_sys::Reflect;
use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::error::Error;

/// Overwrites a string that held private key material before it is freed: wasm memory
/// is never returned to the system, and freed bytes stay readable until reused.
/// `black_box` keeps the writes from being removed as dead stores.
pub(super) fn wipe(text: String) {
    let mut bytes = text.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&mut bytes);
}

/// A thrown JS `Error` with `.code`, `.hint` and, where known, `.path`.
pub(super) fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    js.set_name("PaymentIntakeError");
    let object: &JsValue = js.as_ref();
    let _ = Reflect::set(object, &"code".into(), &error.code().into());
    if let Some(hint) = error.hint() {
        let _ = Reflect::set(object, &"hint".into(), &hint.into());
    }
    let path = match &error {
        Error::DuplicateKey { path }
        | Error::InvalidNumber { path, .. }
        | Error::InvalidBody { path, .. }
        | Error::InvalidCallback { path, .. } => Some(path),
        _ => None,
    };
    if let Some(path) = path {
        let _ = Reflect::set(object, &"path".into(), &path.into());
    }
    let ambiguities = match &error {
        Error::AmbiguousCallback { ambiguities, raw_body } => {
            // The signature checked: what a handler needs to keep the event and look the payment up.
            let _ = Reflect::set(object, &"verified".into(), &JsValue::TRUE);
            let _ = Reflect::set(object, &"rawBody".into(), &raw_body.into());
            Some(ambiguities)
        }
        Error::AmbiguousRequest { ambiguities } => Some(ambiguities),
        _ => None,
    };
    // Through serde_json and JSON.parse, as the verified result goes: no second serializer in the .wasm.
    let list =
        ambiguities.and_then(|list| serde_json::to_string(list).ok()).and_then(|text| js_sys::JSON::parse(&text).ok());
    if let Some(list) = list {
        let _ = Reflect::set(object, &"ambiguities".into(), &list);
    }
    js.into()
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
