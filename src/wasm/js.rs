//! Core results and errors as JS values: errors as plain data (the JS core makes
//! the one `PaymentIntakeError` of it), serialized shapes, objects with named
//! fields; the clock, and the wiping of key text.

use std::cell::RefCell;

use serde::Serialize;
use wasm_bindgen::{JsCast, JsValue};

use super::shapes::genuine_verification_json;
use crate::callback::VerifyOptions;
use crate::error::Error;

/// Overwrites a string that held private key material before it is freed: wasm memory
/// is never returned to the system, and freed bytes stay readable until reused.
/// `black_box` keeps the writes from being removed as dead stores.
pub(super) fn wipe(text: String) {
    let mut bytes = text.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&mut bytes);
}

fn set(object: &JsValue, name: &str, value: &JsValue) {
    object.unchecked_ref::<Fields>().js_store(&name.into(), value);
}

/// An object of an error's data (its `message` first), of [`object`]'s kind: the JS core
/// makes the one `PaymentIntakeError` of it (`pkg-template/errors.mjs`), with the same
/// members in the same order. The wasm makes no error object of its own.
fn new_error(message: &str) -> JsValue {
    object(&[("message", &message.into())])
}

/// The data of a `PaymentIntakeError` with `.code`, `.status`, `.hint` and, where known,
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
    let list = ambiguities.and_then(|list| serde_json::to_string(list).ok()).map(|text| json_parse(&text));
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
    if let Some(value) = verification.map(|text| json_parse(&text)) {
        set(&object, "verification", &value);
    }
    object
}

/// Serializes to plain JS objects (never `Map`): `JSON.parse` of its JSON text, so each
/// shape shares serde_json's serializer with the verified callback's text instead of
/// having a serde-wasm-bindgen one of its own (2.4 KB gzip of `.wasm` across the
/// shapes), and every object member is an own data property. Numbers are finite here
/// (a body's own numbers go through `body::json_to_js`).
pub(super) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|error| js_error(conversion_failed(&error)))?;
    Ok(json_parse(&text))
}

/// The error of a shape serde_json did not serialize (none fails: shapes hold no map of
/// non-string keys and no failing `Serialize`). Not generic: one copy for every shape.
#[inline(never)]
pub(super) fn conversion_failed(error: &serde_json::Error) -> Error {
    Error::CryptoFailure { reason: format!("result conversion failed: {error}") }
}

/// [`to_js`] of a shape whose long texts were left empty ([`SignedOut::split_texts`]), with
/// `texts` set on it by name: each crosses as a string, where in the JSON text it would be
/// escaped and parsed again. Its members keep their order (an own member is overwritten).
///
/// [`SignedOut::split_texts`]: super::shapes::SignedOut::split_texts
pub(super) fn to_js_with<T: Serialize + ?Sized>(value: &T, texts: &[(&'static str, &str)]) -> Result<JsValue, JsValue> {
    let object = to_js(value)?;
    for (name, text) in texts {
        set(&object, name, &JsValue::from_str(text));
    }
    Ok(object)
}

/// `JSON.parse` of JSON text made by serde_json (non-generic: one copy). No `catch`: the text is
/// the wasm's own, which parses (its strings are Rust's, its numbers finite, and V8's parser
/// keeps no recursion to overflow), so it throws nothing and runs no caller code; a `catch`
/// import's glue, `handleError` over `arguments`, cost about 0.5 µs a call.
#[inline(never)]
fn json_parse(text: &str) -> JsValue {
    js_parse(text)
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn js_parse(text: &str) -> JsValue;
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// An object [`object`] makes.
    type Fields;
    /// `Object.create(prototype)`.
    #[wasm_bindgen(js_namespace = Object, js_name = create)]
    fn js_create(prototype: &JsValue) -> Fields;
    /// `Object.freeze(object)`.
    #[wasm_bindgen(js_namespace = Object, js_name = freeze)]
    fn js_freeze(object: &Fields) -> JsValue;
    /// `target[key] = value`, a plain store of the glue (no `Reflect.set`, whose builtin cost
    /// about 150 ns a member, the objects' making the most of an answer's cost), on an object
    /// of [`object`]: its prototype chain holds no member and no setter, so the store makes an
    /// own data property, runs no caller code and cannot throw (it needs no `catch`, whose glue,
    /// `handleError` over `arguments`, cost more than the store).
    #[wasm_bindgen(method, structural, indexing_setter)]
    fn js_store(target: &Fields, key: &JsValue, value: &JsValue);
}

thread_local! {
    /// The field names of [`object`], made into JS strings once.
    static NAMES: RefCell<Vec<(&'static str, JsValue)>> = const { RefCell::new(Vec::new()) };
    /// The prototype of [`object`]'s objects: an empty object of no prototype, frozen, made
    /// once. Its objects are out of reach of any setter of `Object.prototype` (as one of no
    /// prototype is) yet ordinary fast objects to V8 (`Object.create(null)` gives a dictionary
    /// one, slow to fill and to read).
    static PROTOTYPE: JsValue = js_freeze(&js_create(&JsValue::NULL));
}

/// An object of named fields whose prototype chain holds nothing ([`PROTOTYPE`]), for the
/// private protocol to the JS core (which only reads its members).
pub(super) fn object(fields: &[(&'static str, &JsValue)]) -> JsValue {
    let object = PROTOTYPE.with(js_create);
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
            object.js_store(&names[at].1, value);
        }
    });
    object.into()
}

/// Current Unix time in whole seconds.
pub(super) fn now_seconds() -> u64 {
    (js_sys::Date::now() / 1000.0).floor() as u64
}

/// What every private export answers: `{ ok: true, value }`, or `{ ok: false, error }` with
/// the error's data ([`js_error`]), which the JS core makes its one error of.
///
/// Always `Ok`, and a `Result` on purpose: wasm-bindgen then gives the wasm function three
/// results (value, error, is-error), and V8 11 (Node 20) never inlines a wasm function of
/// more than one result into optimized JS. One of a single `externref` result it does inline,
/// and its deoptimizer cannot resume such a call (no frame for a reference result: V8 Fatal
/// "unreachable code" in `Deoptimizer::DoComputeBuiltinContinuation`, the process aborts)
/// when the JS caller is deoptimized during it, which an import the wasm calls can cause
/// (setting this answer's members changes the maps that caller's code depends on).
/// `tests/js/wasm-exports.test.mjs` refuses such an export; `tests/js/hostile-jit.test.mjs`
/// runs the bench that aborted.
pub(super) type Answer = Result<JsValue, JsValue>;

/// The [`Answer`] of `result`.
#[allow(clippy::unnecessary_wraps)]
pub(super) fn answer(result: Result<JsValue, JsValue>) -> Answer {
    Ok(match result {
        Ok(value) => object(&[("ok", &JsValue::TRUE), ("value", &value)]),
        Err(error) => object(&[("ok", &JsValue::FALSE), ("error", &error)]),
    })
}

/// The [`Answer`] `{ ok: true, value }` of a value given as JSON text (the verified
/// callback's), made in one crossing: `JSON.parse` of the whole answer's text, where the
/// answer object and its members were three crossings and the core's `JSON.parse` of the
/// value a fourth.
pub(super) fn answer_json(value: Result<String, JsValue>) -> Answer {
    answer_json_after(&["{\"ok\":true,\"value\":"], value)
}

/// The [`Answer`] `{ ok: true, kind, value }` of an export whose value takes several shapes,
/// `kind` naming which (a word JSON writes as it is).
pub(super) fn answer_kind(kind: &'static str, value: &JsValue) -> Answer {
    Ok(object(&[("ok", &JsValue::TRUE), ("kind", &JsValue::from_str(kind)), ("value", value)]))
}

/// [`answer_json`] with a `kind`, as [`answer_kind`].
pub(super) fn answer_json_kind(kind: &'static str, value: Result<String, JsValue>) -> Answer {
    answer_json_after(&["{\"ok\":true,\"kind\":\"", kind, "\",\"value\":"], value)
}

fn answer_json_after(opening: &[&str], value: Result<String, JsValue>) -> Answer {
    let mut whole = match value {
        Ok(text) => text,
        Err(error) => return answer(Err(error)),
    };
    let opening = opening.concat();
    // In place: the text was written into 2 KiB of room (`shapes::verified_json`), so for a
    // usual callback this moves it rather than copying it into a second buffer.
    whole.insert_str(0, &opening);
    whole.push('}');
    Ok(json_parse(&whole))
}

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// A request object the JS core made for a private export: an object literal of own
    /// data members, so reading one is a plain property load that runs no caller code and
    /// cannot throw. Its members are read by these getters, without a `catch` import (whose
    /// glue, `handleError` over `arguments`, cost more than the read); a member the request
    /// does not have reads as `undefined` (`false` and `NaN` for the flags and numbers).
    pub type Request;
    #[wasm_bindgen(method, getter)]
    pub(super) fn body(this: &Request) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub(super) fn headers(this: &Request) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub(super) fn keys(this: &Request) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub(super) fn options(this: &Request) -> JsValue;
    /// The core's resolver of its own key objects (`pkg-template/keys.mjs`, `keyPem`).
    #[wasm_bindgen(method, getter, js_name = keyPem)]
    pub(super) fn key_pem(this: &Request) -> js_sys::Function;
    #[wasm_bindgen(method, getter)]
    pub(super) fn native(this: &Request) -> bool;
    #[wasm_bindgen(method, getter)]
    pub(super) fn awaited(this: &Request) -> bool;
    #[wasm_bindgen(method, getter)]
    pub(super) fn handle(this: &Request) -> f64;
    #[wasm_bindgen(method, getter)]
    pub(super) fn verified(this: &Request) -> bool;
    #[wasm_bindgen(method, getter)]
    pub(super) fn reason(this: &Request) -> JsValue;
    /// Sign nothing, give what a signature covers (`prepareRequest`).
    #[wasm_bindgen(method, getter)]
    pub(super) fn prepare(this: &Request) -> bool;
    /// An `HmacKey`'s number in the wasm's table of secrets.
    #[wasm_bindgen(method, getter)]
    pub(super) fn key(this: &Request) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub(super) fn timestamp(this: &Request) -> JsValue;
    #[wasm_bindgen(method, getter)]
    pub(super) fn secret(this: &Request) -> JsValue;
    /// An operation's path (`/api/v1/…`).
    #[wasm_bindgen(method, getter)]
    pub(super) fn operation(this: &Request) -> JsValue;
}
