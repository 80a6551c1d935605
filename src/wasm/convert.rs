//! Conversions at the JS boundary: JS bodies, headers, keys and option
//! objects into core types, and core results and errors back into JS.

use std::cell::RefCell;

use js_sys::{Array, JsString, Object, Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::{JsCast, JsValue};

use crate::canonical::{Booleans, CanonicalOptions, Falsy, Order};
use crate::error::Error;
use crate::json::{parse_body, Json, Limits, PathNode};
use crate::keys::VerifyingKey;
use crate::number::python_float_repr;
use crate::signing::{HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};

/// A thrown JS `Error` with `.code`, `.hint` and, where known, `.path`.
pub fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    js.set_name("PaymentIntakeError");
    let object: &JsValue = js.as_ref();
    let _ = Reflect::set(object, &"code".into(), &error.code().into());
    if let Some(hint) = error.hint() {
        let _ = Reflect::set(object, &"hint".into(), &hint.into());
    }
    let path = match &error {
        Error::DuplicateKey { path } | Error::InvalidNumber { path, .. } | Error::InvalidBody { path, .. } => {
            Some(path)
        }
        _ => None,
    };
    if let Some(path) = path {
        let _ = Reflect::set(object, &"path".into(), &path.into());
    }
    js.into()
}

/// Serializes to plain JS objects (never `Map`), as `JSON.parse` would give.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(Error::CryptoFailure { reason: format!("result conversion failed: {e}") }))
}

/// A body given as JSON text, bytes or a JS value, with the exact text that represents it.
pub struct BodyInput {
    pub json: Json,
    pub text: String,
}

/// Reads a body: text and bytes are parsed as they are; any other value must be
/// plain JSON data (no `undefined`, functions, `NaN`, cycles…) and is written compactly.
pub fn body_from_js(value: &JsValue, limits: &Limits) -> Result<BodyInput, Error> {
    if let Some(text) = text_from_js(value)? {
        let json = parse_body(&text, limits)?;
        return Ok(BodyInput { json, text });
    }
    if !value.is_object() {
        return Err(Error::InvalidBody {
            path: String::new(),
            reason: "must be JSON text, bytes or a plain object".into(),
        });
    }
    let json = json_from_js(value, 0, &PathNode::Root, limits)?;
    if !matches!(json, Json::Object(_)) {
        return Err(Error::BodyNotObject { found: json.kind() });
    }
    let text = json.to_json_text();
    if text.len() > limits.max_bytes {
        return Err(Error::BodyTooLarge { limit: limits.max_bytes, actual: text.len() });
    }
    Ok(BodyInput { json, text })
}

/// Text from a JS string or UTF-8 bytes; `None` for other values.
pub fn text_from_js(value: &JsValue) -> Result<Option<String>, Error> {
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        if !js_string.is_valid_utf16() {
            return Err(Error::InvalidBody { path: String::new(), reason: "holds a lone UTF-16 surrogate".into() });
        }
        return Ok(Some(String::from(js_string)));
    }
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        return String::from_utf8(bytes.to_vec())
            .map(Some)
            .map_err(|_| Error::InvalidJson { message: "the bytes are not valid UTF-8".into() });
    }
    Ok(None)
}

fn invalid(path: &PathNode<'_>, reason: &str) -> Error {
    Error::InvalidBody { path: path.to_string(), reason: reason.into() }
}

/// Largest integer a JS number holds exactly.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

fn json_from_js(value: &JsValue, depth: usize, path: &PathNode<'_>, limits: &Limits) -> Result<Json, Error> {
    if value.is_null() {
        return Ok(Json::Null);
    }
    if value.is_undefined() {
        return Err(invalid(path, "is undefined, which JSON cannot carry"));
    }
    if let Some(b) = value.as_bool() {
        return Ok(Json::Bool(b));
    }
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        if !js_string.is_valid_utf16() {
            return Err(invalid(path, "holds a lone UTF-16 surrogate"));
        }
        return Ok(Json::String(String::from(js_string)));
    }
    if let Some(n) = value.as_f64() {
        if !n.is_finite() {
            return Err(invalid(path, "is NaN or Infinity, which JSON cannot carry"));
        }
        if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER {
            return Ok(Json::Number(format!("{}", n as i64)));
        }
        return Ok(Json::Number(python_float_repr(n)));
    }
    if let Some(big) = value.dyn_ref::<js_sys::BigInt>() {
        let text = big.to_string(10).map_err(|_| invalid(path, "is a BigInt that cannot be written"))?;
        return Ok(Json::Number(String::from(text)));
    }
    if value.is_function() || value.is_symbol() {
        return Err(invalid(path, "is a function or symbol, which JSON cannot carry"));
    }
    let depth = depth + 1;
    if depth > limits.max_depth {
        return Err(Error::BodyTooDeep { limit: limits.max_depth });
    }
    if Array::is_array(value) {
        let array: &Array = value.unchecked_ref();
        let mut items = Vec::with_capacity(array.length() as usize);
        for (index, item) in array.iter().enumerate() {
            items.push(json_from_js(&item, depth, &PathNode::Index(path, index), limits)?);
        }
        return Ok(Json::Array(items));
    }
    let object: &Object = value.unchecked_ref();
    let prototype = Object::get_prototype_of(value);
    if !(prototype.is_null() || prototype == Object::get_prototype_of(&Object::new())) {
        return Err(invalid(path, "is not a plain object or array (a Date, Map, class instance…)"));
    }
    let keys = Object::keys(object);
    let mut members = Vec::with_capacity(keys.length() as usize);
    for key in keys.iter() {
        let name = key.as_string().unwrap_or_default();
        let child = Reflect::get(object, &key).map_err(|_| invalid(path, "has a property that throws when read"))?;
        let json = json_from_js(&child, depth, &PathNode::Key(path, &name), limits)?;
        members.push((name, json));
    }
    Ok(Json::Object(members))
}

/// Refuses an options or input object with a member not in `known`: serde-wasm-bindgen
/// reads only the fields it knows, so a typo would otherwise pass in silence.
pub fn check_known_keys(value: &JsValue, what: &str, known: &[&str]) -> Result<(), Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(());
    }
    if !value.is_object() || Array::is_array(value) {
        return Err(Error::InvalidArgument { name: what.into(), reason: "must be an object".into() });
    }
    match unknown_key(value, known) {
        Some(name) => Err(Error::InvalidArgument {
            name: what.into(),
            reason: format!("has an unknown member '{name}'; known: {}", known.join(", ")),
        }),
        None => Ok(()),
    }
}

fn unknown_key(value: &JsValue, known: &[&str]) -> Option<String> {
    Object::keys(value.unchecked_ref::<Object>())
        .iter()
        .map(|key| key.as_string().unwrap_or_default())
        .find(|name| !known.contains(&name.as_str()))
}

/// The member names serde expects for a struct, as renamed (e.g. camelCase): read
/// from the struct's own `Deserialize` impl, so the list never drifts from it.
pub fn struct_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldCapture(&mut fields));
    fields
}

struct FieldCapture<'a>(&'a mut &'static [&'static str]);

/// Ends the capture as soon as the fields are known.
#[derive(Debug)]
struct CaptureDone;

impl std::fmt::Display for CaptureDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field capture")
    }
}

impl std::error::Error for CaptureDone {}

impl serde::de::Error for CaptureDone {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        CaptureDone
    }
}

impl<'de> serde::Deserializer<'de> for FieldCapture<'_> {
    type Error = CaptureDone;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, CaptureDone> {
        Err(CaptureDone)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, CaptureDone> {
        *self.0 = fields;
        Err(CaptureDone)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// `{ falsy, booleans, padding, order }`, every member optional; unknown names are refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsCanonicalOptions {
    falsy: Option<String>,
    booleans: Option<String>,
    padding: Option<bool>,
    order: Option<String>,
}

pub fn canonical_options_from_js(value: &JsValue) -> Result<CanonicalOptions, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(CanonicalOptions::DEFAULT);
    }
    if !value.is_object() || Array::is_array(value) {
        let reason = "must be an object such as { booleans: 'lower' }".into();
        return Err(Error::InvalidOption { name: "options".into(), reason });
    }
    let known = struct_fields::<JsCanonicalOptions>();
    check_known_keys(value, "options", known).map_err(|_| Error::InvalidOption {
        name: unknown_key(value, known).unwrap_or_default(),
        reason: format!("does not exist; the options are {}", known.join(", ")),
    })?;
    let raw: JsCanonicalOptions = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| Error::InvalidOption { name: "options".into(), reason: format!("are not valid: {e}") })?;
    let bad = |name: &str, value: &str, allowed: &str| Error::InvalidOption {
        name: name.into(),
        reason: format!("cannot be '{value}'; use one of {allowed}"),
    };
    let mut options = CanonicalOptions::DEFAULT;
    if let Some(falsy) = raw.falsy {
        options.falsy = match falsy.as_str() {
            "none" => Falsy::None,
            "null" => Falsy::Null,
            other => return Err(bad("falsy", other, "none, null")),
        };
    }
    if let Some(booleans) = raw.booleans {
        options.booleans = match booleans.as_str() {
            "python" => Booleans::Python,
            "lower" => Booleans::Lower,
            "digit" => Booleans::Digit,
            other => return Err(bad("booleans", other, "python, lower, digit")),
        };
    }
    if let Some(order) = raw.order {
        options.order = match order.as_str() {
            "codepoint" => Order::CodePoint,
            "utf16" => Order::Utf16,
            other => return Err(bad("order", other, "codepoint, utf16")),
        };
    }
    if let Some(padding) = raw.padding {
        options.padding = padding;
    }
    Ok(options)
}

/// The options as JS spells them.
#[derive(Serialize)]
pub struct JsOptionsOut {
    falsy: &'static str,
    booleans: &'static str,
    padding: bool,
    order: &'static str,
}

impl From<&CanonicalOptions> for JsOptionsOut {
    fn from(options: &CanonicalOptions) -> Self {
        JsOptionsOut {
            falsy: match options.falsy {
                Falsy::None => "none",
                Falsy::Null => "null",
            },
            booleans: match options.booleans {
                Booleans::Python => "python",
                Booleans::Lower => "lower",
                Booleans::Digit => "digit",
            },
            padding: options.padding,
            order: match options.order {
                Order::CodePoint => "codepoint",
                Order::Utf16 => "utf16",
            },
        }
    }
}

/// A timestamp given as whole seconds, in a number or in digits.
pub fn timestamp_from_js(value: &JsValue) -> Result<String, Error> {
    if let Some(text) = value.as_string() {
        return Ok(text);
    }
    if let Some(n) = value.as_f64() {
        if n.is_finite() && n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER {
            return Ok(format!("{}", n as u64));
        }
        return Err(Error::InvalidTimestamp { value: format!("{n}") });
    }
    Err(Error::InvalidTimestamp { value: format!("{value:?}") })
}

/// Current Unix time in whole seconds.
pub fn now_seconds() -> u64 {
    (js_sys::Date::now() / 1000.0).floor() as u64
}

/// The `x-access-*` headers out of a plain object, `Headers`, `Map` or `[name, value]` pairs.
/// Other headers are ignored; one of ours must be a single string.
pub fn header_pairs_from_js(headers: &JsValue) -> Result<Vec<(String, String)>, Error> {
    let not_readable = || Error::InvalidHeader {
        name: "headers".into(),
        reason: "must be an object, Headers, Map or [name, value] pairs".into(),
    };
    if !headers.is_object() {
        return Err(not_readable());
    }
    let entries: Vec<JsValue> = if Array::is_array(headers) {
        Array::from(headers).iter().collect()
    } else if is_iterable_map_like(headers) {
        let entries_fn = Reflect::get(headers, &"entries".into()).map_err(|_| not_readable())?;
        let iterator = entries_fn
            .dyn_ref::<js_sys::Function>()
            .ok_or_else(not_readable)?
            .call0(headers)
            .map_err(|_| not_readable())?;
        js_sys::try_iter(&iterator).ok().flatten().ok_or_else(not_readable)?.filter_map(Result::ok).collect()
    } else {
        Object::entries(headers.unchecked_ref()).iter().collect()
    };
    let ours = [HEADER_TIMESTAMP, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TOKEN];
    let mut pairs = Vec::new();
    for entry in entries {
        let entry = Array::from(&entry);
        let Some(name) = entry.get(0).as_string() else { continue };
        let Some(canonical) = ours.iter().find(|wanted| name.trim().eq_ignore_ascii_case(wanted)) else { continue };
        let value = entry.get(1);
        match value.as_string() {
            Some(text) => pairs.push((name, text)),
            None if Array::is_array(&value) => {
                return Err(Error::InvalidHeader { name: (*canonical).into(), reason: "has several values".into() })
            }
            None => return Err(Error::InvalidHeader { name: (*canonical).into(), reason: "is not a string".into() }),
        }
    }
    Ok(pairs)
}

fn is_iterable_map_like(value: &JsValue) -> bool {
    let has_fn = |name: &str| Reflect::get(value, &name.into()).map(|f| f.is_function()).unwrap_or(false);
    has_fn("entries") && has_fn("get")
}

thread_local! {
    /// Parsed verifying keys by PEM, so that repeated calls skip parsing.
    static KEY_CACHE: RefCell<Vec<(String, VerifyingKey)>> = const { RefCell::new(Vec::new()) };
}

const KEY_CACHE_SIZE: usize = 16;

/// Verifying keys from a `VerifyingKey` (or anything with `publicKeyPem()`), a PEM
/// string, or an array of those.
pub fn verifying_keys_from_js(value: &JsValue) -> Result<Vec<VerifyingKey>, Error> {
    let items: Vec<JsValue> =
        if Array::is_array(value) { Array::from(value).iter().collect() } else { vec![value.clone()] };
    items.iter().map(verifying_key_from_js).collect()
}

fn verifying_key_from_js(value: &JsValue) -> Result<VerifyingKey, Error> {
    let pem = match value.as_string() {
        Some(pem) => pem,
        None => Reflect::get(value, &"publicKeyPem".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(value).ok())
            .and_then(|pem| pem.as_string())
            .ok_or_else(|| Error::InvalidArgument {
                name: "verifyingKey".into(),
                reason: "must be a VerifyingKey, a PEM string, or an array of them".into(),
            })?,
    };
    if let Some(key) = KEY_CACHE.with(|cache| cache.borrow().iter().find(|(p, _)| *p == pem).map(|(_, k)| k.clone())) {
        return Ok(key);
    }
    let key = VerifyingKey::from_pem(&pem)?;
    KEY_CACHE.with(|cache| {
        let mut cache = cache.borrow_mut();
        if cache.len() >= KEY_CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((pem, key.clone()));
    });
    Ok(key)
}
