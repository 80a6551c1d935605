//! Conversions at the JS boundary: JS bodies, headers, keys and option
//! objects into core types, and core results and errors back into JS.

use std::cell::RefCell;

use js_sys::{Array, ArrayBuffer, JsString, Reflect, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::canonical::number::python_float_repr;
use crate::canonical::{Booleans, CanonicalOptions, Falsy, Order};
use crate::error::Error;
use crate::json::{parse_body, Json, Limits, PathNode};
use crate::rsa::keys::VerifyingKey;
use crate::spec::headers::{HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};

// Every JS operation here that can run the caller's code (a getter, a Proxy trap, an
// iterator) goes through a `catch` import. A JS exception must never unwind through
// the wasm frames: their epilogues would not run, so each such call would leak its
// shadow-stack frame (and the JS values it holds) until the stack pointer wraps and
// every later call traps with "memory access out of bounds". `Array.isArray` throws
// on a revoked Proxy; `Object.entries` runs getters and `ownKeys` traps.
#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn js_is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn js_object_entries(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = getPrototypeOf)]
    fn js_prototype_of(value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = fromEntries)]
    fn js_object_from_entries(entries: &Array) -> Result<JsValue, JsValue>;
}

/// The caller's code threw (or a revoked Proxy was given) while a value was read.
struct Throws;

fn is_array(value: &JsValue) -> Result<bool, Throws> {
    js_is_array(value).map_err(|_| Throws)
}

/// Whether an object's prototype is `Object.prototype` or null, as for an object literal
/// or `JSON.parse` output (not a Date, Map, class instance…).
fn is_plain_prototype(value: &JsValue) -> Result<bool, Throws> {
    let prototype = js_prototype_of(value).map_err(|_| Throws)?;
    let plain = js_prototype_of(&js_sys::Object::new().into()).map_err(|_| Throws)?;
    Ok(prototype.is_null() || prototype == plain)
}

/// `[key, value]` pairs of an object's own enumerable string-keyed members, each read
/// once; the pairs are fresh arrays, so reading them runs no caller code.
fn object_entries(value: &JsValue) -> Result<Vec<(JsString, JsValue)>, Throws> {
    let entries = js_object_entries(value).map_err(|_| Throws)?;
    Ok(entries
        .iter()
        .map(|entry| {
            let entry: Array = entry.unchecked_into();
            (entry.get(0).unchecked_into(), entry.get(1))
        })
        .collect())
}

/// Why the items of an array-like could not be read.
enum ItemsError {
    Throws,
    /// Its `length`, larger than allowed.
    TooLong(f64),
}

/// The items of an array (or a Proxy of one), read one by one with `Reflect.get`; a
/// length over `max` is refused before anything is read or allocated.
fn array_items(value: &JsValue, max: usize) -> Result<Vec<JsValue>, ItemsError> {
    let length = Reflect::get(value, &"length".into()).map_err(|_| ItemsError::Throws)?;
    let length = length.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).ok_or(ItemsError::Throws)?;
    if length > max as f64 {
        return Err(ItemsError::TooLong(length));
    }
    (0..length as u32).map(|index| Reflect::get_u32(value, index).map_err(|_| ItemsError::Throws)).collect()
}

/// What a JS value is, from `typeof` alone (which runs no caller code), for messages.
pub fn type_name(value: &JsValue) -> &'static str {
    if value.is_null() {
        "null"
    } else if value.is_undefined() {
        "undefined"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.is_string() {
        "a string"
    } else if value.is_bigint() {
        "a BigInt"
    } else if value.is_symbol() {
        "a symbol"
    } else if value.is_function() {
        "a function"
    } else {
        "an object"
    }
}

/// A string argument. wasm-bindgen's own `&str` conversion traps inside the allocator
/// ("memory access out of bounds") when given a number or an object, so string
/// parameters are taken as `JsValue` and checked here.
pub fn string_arg(value: &JsValue, name: &str) -> Result<String, Error> {
    value.as_string().ok_or_else(|| Error::InvalidArgument {
        name: name.into(),
        reason: format!("must be a string, not {}", type_name(value)),
    })
}

/// Overwrites a string that held private key material before it is freed: wasm memory
/// is never returned to the system, and freed bytes stay readable until reused.
/// `black_box` keeps the writes from being removed as dead stores.
pub fn wipe(text: String) {
    let mut bytes = text.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&mut bytes);
}

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
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error(Error::CryptoFailure { reason: format!("result conversion failed: {e}") }))
}

/// Whether any object in the tree has a member named `__proto__`.
fn has_proto_key(json: &Json) -> bool {
    match json {
        Json::Object(members) => members.iter().any(|(key, value)| key == "__proto__" || has_proto_key(value)),
        Json::Array(items) => items.iter().any(has_proto_key),
        _ => false,
    }
}

/// JSON as `JSON.parse` would give it, every object member an own data property.
fn json_to_js(json: &Json) -> Result<JsValue, JsValue> {
    match json {
        Json::Object(members) => {
            let entries = Array::new();
            for (key, value) in members {
                entries.push(&Array::of2(&JsValue::from_str(key), &json_to_js(value)?));
            }
            Ok(js_sys::Object::from_entries(&entries)?.into())
        }
        Json::Array(items) => {
            let array = Array::new();
            for item in items {
                array.push(&json_to_js(item)?);
            }
            Ok(array.into())
        }
        leaf => to_js(leaf),
    }
}

/// serde-wasm-bindgen builds objects by assignment, so a body member named `__proto__`
/// set the prototype of the returned object (to an object the sender chose) instead of
/// being an own member as with `JSON.parse`. When the body has such a member, `raw` of a
/// serialized info response is rebuilt with `Object.fromEntries`, which defines every
/// member as an own property. (A callback model carries no body-derived keys.)
pub fn restore_body_json(out: JsValue, raw: &Json) -> Result<JsValue, JsValue> {
    if has_proto_key(raw) {
        Reflect::set(&out, &"raw".into(), &json_to_js(raw)?)?;
    }
    Ok(out)
}

/// A body given as JSON text, bytes or a JS value, with the exact text that represents it.
pub struct BodyInput {
    pub json: Json,
    pub text: String,
}

/// Reads a body: text and bytes are parsed as they are; any other value must be
/// plain JSON data (no `undefined`, functions, `NaN`, cycles…) and is written compactly.
pub fn body_from_js(value: &JsValue, limits: &Limits) -> Result<BodyInput, Error> {
    if let Some(text) = text_from_js(value, limits.max_bytes)? {
        let json = parse_body(&text, limits)?;
        return Ok(BodyInput { json, text });
    }
    if !value.is_object() {
        return Err(Error::InvalidBody {
            path: String::new(),
            reason: "must be JSON text, bytes or a plain object".into(),
        });
    }
    let mut size = 0;
    let json = json_from_js(value, 0, &PathNode::Root, limits, &mut size)?;
    if !matches!(json, Json::Object(_)) {
        return Err(Error::BodyNotObject { found: json.kind() });
    }
    let text = json.to_json_text();
    if text.len() > limits.max_bytes {
        return Err(Error::BodyTooLarge { limit: limits.max_bytes, actual: text.len() });
    }
    Ok(BodyInput { json, text })
}

/// Text from a JS string or UTF-8 bytes; `None` for other values. Input longer than
/// `max_bytes` is refused before it is copied into wasm memory, which never shrinks:
/// a string's UTF-8 length is at least its UTF-16 length.
pub fn text_from_js(value: &JsValue, max_bytes: usize) -> Result<Option<String>, Error> {
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        let units = js_string.length() as usize;
        if units > max_bytes {
            return Err(Error::BodyTooLarge { limit: max_bytes, actual: units });
        }
        return match string_from_js(js_string) {
            Some(text) => Ok(Some(text)),
            None => Err(Error::InvalidBody { path: String::new(), reason: "holds a lone UTF-16 surrogate".into() }),
        };
    }
    // `isView` is false for a Proxy, whose typed-array methods would throw.
    if let Some(bytes) = value.dyn_ref::<Uint8Array>().filter(|_| ArrayBuffer::is_view(value)) {
        let length = bytes.length() as usize;
        if length > max_bytes {
            return Err(Error::BodyTooLarge { limit: max_bytes, actual: length });
        }
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

const THROWS: &str = "throws when read (a getter, a Proxy or a revoked Proxy)";

/// Adds `bytes` to the running size of the body's JSON text (a lower bound of it),
/// refusing the body once that exceeds the limit, before more is copied.
fn count(size: &mut usize, bytes: usize, limits: &Limits) -> Result<(), Error> {
    *size = size.saturating_add(bytes);
    if *size > limits.max_bytes {
        return Err(Error::BodyTooLarge { limit: limits.max_bytes, actual: *size });
    }
    Ok(())
}

fn js_text(js_string: &JsString, path: &PathNode<'_>, limits: &Limits, size: &mut usize) -> Result<String, Error> {
    // Quotes included; UTF-16 length is at most the UTF-8 length.
    count(size, js_string.length() as usize + 2, limits)?;
    string_from_js(js_string).ok_or_else(|| invalid(path, "holds a lone UTF-16 surrogate"))
}

/// A JS string as UTF-8, or `None` when it holds a lone surrogate. The copy
/// writes a lone surrogate as U+FFFD; only text holding U+FFFD pays for the
/// exact check (one JS call per UTF-16 unit). U+FFFD is EF BF BD in UTF-8, and
/// a byte scan for its lead byte is far cheaper than a substring search.
fn string_from_js(js_string: &JsString) -> Option<String> {
    let text = String::from(js_string);
    if text.bytes().any(|b| b == 0xEF) && text.contains('\u{FFFD}') && !js_string.is_valid_utf16() {
        return None;
    }
    Some(text)
}

fn json_from_js(
    value: &JsValue,
    depth: usize,
    path: &PathNode<'_>,
    limits: &Limits,
    size: &mut usize,
) -> Result<Json, Error> {
    if value.is_null() {
        count(size, 4, limits)?;
        return Ok(Json::Null);
    }
    if value.is_undefined() {
        return Err(invalid(path, "is undefined, which JSON cannot carry"));
    }
    if let Some(b) = value.as_bool() {
        count(size, 4, limits)?;
        return Ok(Json::Bool(b));
    }
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        return js_text(js_string, path, limits, size).map(Json::String);
    }
    if let Some(n) = value.as_f64() {
        if !n.is_finite() {
            return Err(invalid(path, "is NaN or Infinity, which JSON cannot carry"));
        }
        let text = if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER {
            format!("{}", n as i64)
        } else {
            python_float_repr(n)
        };
        count(size, text.len(), limits)?;
        return Ok(Json::Number(text));
    }
    if let Some(big) = value.dyn_ref::<js_sys::BigInt>() {
        let text = big.to_string(10).map_err(|_| invalid(path, "is a BigInt that cannot be written"))?;
        let text = js_text(&text, path, limits, size)?;
        return Ok(Json::Number(text));
    }
    if value.is_function() || value.is_symbol() {
        return Err(invalid(path, "is a function or symbol, which JSON cannot carry"));
    }
    let depth = depth + 1;
    if depth > limits.max_depth {
        return Err(Error::BodyTooDeep { limit: limits.max_depth });
    }
    if is_array(value).map_err(|_| invalid(path, THROWS))? {
        // Each item takes at least one byte and a comma, so a longer array cannot fit;
        // checked before any item is read (a sparse `length` of 2^32 - 1 costs nothing in JS).
        let items = array_items(value, limits.max_bytes / 2).map_err(|e| match e {
            ItemsError::Throws => invalid(path, THROWS),
            ItemsError::TooLong(length) => Error::BodyTooLarge {
                limit: limits.max_bytes,
                actual: (2.0 * length + 1.0).min(usize::MAX as f64) as usize,
            },
        })?;
        count(size, 2 + items.len().saturating_sub(1), limits)?;
        let mut out = Vec::new();
        for (index, item) in items.iter().enumerate() {
            out.push(json_from_js(item, depth, &PathNode::Index(path, index), limits, size)?);
        }
        return Ok(Json::Array(out));
    }
    if !is_plain_prototype(value).map_err(|_| invalid(path, THROWS))? {
        return Err(invalid(path, "is not a plain object or array (a Date, Map, class instance…)"));
    }
    let entries = object_entries(value).map_err(|_| invalid(path, "has a property that throws when read"))?;
    count(size, 2 + entries.len().saturating_sub(1), limits)?;
    let mut members = Vec::new();
    for (key, child) in entries {
        // The colon, besides the quotes `js_text` counts; a key is refused like a value
        // when it holds a lone surrogate, rather than signed as U+FFFD.
        count(size, 1, limits)?;
        let name = js_text(&key, path, limits, size)?;
        let json = json_from_js(&child, depth, &PathNode::Key(path, &name), limits, size)?;
        members.push((name, json));
    }
    Ok(Json::Object(members))
}

/// Why an options or input object was refused by [`plain_members`].
pub enum MembersError {
    NotObject,
    Throws,
    /// A member that is not one of the known names.
    Unknown(String),
    /// A member serde reads that holds an object, function or symbol.
    NotPrimitive(String, &'static str),
}

impl MembersError {
    /// As `INVALID_ARGUMENT` for the argument `what`.
    pub fn into_error(self, what: &str, known: &[&str]) -> Error {
        let reason = match self {
            MembersError::NotObject => "must be a plain object".to_owned(),
            MembersError::Throws => format!("has a member that {THROWS}"),
            MembersError::Unknown(name) => format!("has an unknown member '{name}'; known: {}", known.join(", ")),
            MembersError::NotPrimitive(name, found) => {
                format!("member '{name}' must be a string, number or boolean, not {found}")
            }
        };
        Error::InvalidArgument { name: what.into(), reason }
    }
}

/// A data-only copy of an options or input object for serde-wasm-bindgen, which reads
/// members with plain property gets (a throwing getter or Proxy trap would unwind
/// through wasm) and writes any object it does not expect into its error message with
/// code that reads the object again. So: each own enumerable member is read once under
/// `catch`; a member not in `known` is refused (serde would skip a typo in silence);
/// members other than `preserved` (which our own code reads) must be primitives.
/// `undefined` and `null` are returned as they are.
pub fn plain_members(value: &JsValue, known: &[&str], preserved: &[&str]) -> Result<JsValue, MembersError> {
    let Some(members) = checked_members(value, known, preserved)? else { return Ok(value.clone()) };
    let copy = Array::new();
    for (key, member) in members {
        copy.push(&Array::of2(&key, &member));
    }
    js_object_from_entries(&copy).map_err(|_| MembersError::Throws)
}

/// The members of a plain object, each read once and checked as for [`plain_members`],
/// for code that reads them itself; `None` for `undefined` and `null`.
pub fn checked_members(
    value: &JsValue,
    known: &[&str],
    preserved: &[&str],
) -> Result<Option<Vec<(JsString, JsValue)>>, MembersError> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if !value.is_object() || is_array(value).map_err(|_| MembersError::Throws)? {
        return Err(MembersError::NotObject);
    }
    // A Date, Map, Error or class instance has no own enumerable members and would
    // otherwise pass as `{}`.
    if !is_plain_prototype(value).map_err(|_| MembersError::Throws)? {
        return Err(MembersError::NotObject);
    }
    let entries = object_entries(value).map_err(|_| MembersError::Throws)?;
    for (key, member) in &entries {
        let name = String::from(key);
        if !known.contains(&name.as_str()) {
            return Err(MembersError::Unknown(name));
        }
        let reads_itself = preserved.contains(&name.as_str());
        if !reads_itself && (member.is_object() || member.is_function() || member.is_symbol()) {
            return Err(MembersError::NotPrimitive(name, type_name(member)));
        }
    }
    Ok(Some(entries))
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
    let known = struct_fields::<JsCanonicalOptions>();
    let plain = plain_members(value, known, &[]).map_err(|e| match e {
        MembersError::NotObject => Error::InvalidOption {
            name: "options".into(),
            reason: "must be a plain object such as { booleans: 'lower' }".into(),
        },
        MembersError::Throws => {
            Error::InvalidOption { name: "options".into(), reason: format!("have a member that {THROWS}") }
        }
        MembersError::Unknown(name) => {
            Error::InvalidOption { name, reason: format!("does not exist; the options are {}", known.join(", ")) }
        }
        MembersError::NotPrimitive(name, found) => {
            Error::InvalidOption { name, reason: format!("must be a string or boolean, not {found}") }
        }
    })?;
    let raw: JsCanonicalOptions = serde_wasm_bindgen::from_value(plain)
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
        return Err(Error::InvalidTimestamp { value: format!("{n}"), expected: crate::canonical::TIMESTAMP_RULE });
    }
    // Described by type only: formatting the value itself could run the caller's code.
    Err(Error::InvalidTimestamp {
        value: format!("({})", type_name(value)),
        expected: crate::canonical::TIMESTAMP_RULE,
    })
}

/// Current Unix time in whole seconds.
pub fn now_seconds() -> u64 {
    (js_sys::Date::now() / 1000.0).floor() as u64
}

/// Most header entries read: Node keeps at most 2000 headers by default.
const MAX_HEADER_ENTRIES: usize = 10_000;

/// The `x-access-*` headers out of a plain object, `Headers`, `Map` or `[name, value]` pairs.
/// Other headers are ignored; one of ours must be a single string.
pub fn header_pairs_from_js(headers: &JsValue) -> Result<Vec<(String, String)>, Error> {
    let refused = |reason: String| Error::InvalidHeader { name: "headers".into(), reason };
    let not_readable = || refused("must be an object, Headers, Map or [name, value] pairs".into());
    let throws = || refused(THROWS.into());
    let too_many = || refused(format!("has more than {MAX_HEADER_ENTRIES} entries"));
    if !headers.is_object() {
        return Err(not_readable());
    }
    let ours = [HEADER_TIMESTAMP, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TOKEN];
    let mut pairs = Vec::new();
    // Keeps a header of ours, given its name and a way to read its value (read only then).
    let mut accept = |name: String, value: &dyn Fn() -> Result<JsValue, Error>| -> Result<(), Error> {
        let Some(canonical) = ours.iter().find(|wanted| name.trim().eq_ignore_ascii_case(wanted)) else {
            return Ok(());
        };
        let value = value()?;
        let reason = match value.as_string() {
            Some(text) => {
                pairs.push((name, text));
                return Ok(());
            }
            None if value.is_object() && is_array(&value).map_err(|_| throws())? => {
                "is an array (several values?), not a single string".to_owned()
            }
            None => format!("is {}, not a string", type_name(&value)),
        };
        Err(Error::InvalidHeader { name: (*canonical).into(), reason })
    };
    let entries: Vec<JsValue> = if is_array(headers).map_err(|_| throws())? {
        let items = array_items(headers, MAX_HEADER_ENTRIES).map_err(|e| match e {
            ItemsError::Throws => throws(),
            ItemsError::TooLong(_) => too_many(),
        })?;
        if items.first().is_some_and(JsValue::is_string) {
            return Err(refused(
                "must hold [name, value] pairs, not names and values in turn (for Node, pass req.headers, \
                 not req.rawHeaders)"
                    .into(),
            ));
        }
        items
    } else if is_iterable_map_like(headers) {
        let entries_fn = Reflect::get(headers, &"entries".into()).map_err(|_| throws())?;
        let iterator =
            entries_fn.dyn_ref::<js_sys::Function>().ok_or_else(not_readable)?.call0(headers).map_err(|_| throws())?;
        let mut entries = Vec::new();
        for entry in js_sys::try_iter(&iterator).map_err(|_| throws())?.ok_or_else(not_readable)? {
            if entries.len() == MAX_HEADER_ENTRIES {
                return Err(too_many());
            }
            entries.push(entry.map_err(|_| throws())?);
        }
        entries
    } else {
        // A plain object (as Node's req.headers): its entries are fresh pairs, read directly.
        for (name, value) in object_entries(headers).map_err(|_| throws())? {
            accept(String::from(name), &|| Ok(value.clone()))?;
        }
        return Ok(pairs);
    };
    for entry in entries {
        if !is_array(&entry).map_err(|_| throws())? {
            continue;
        }
        let Some(name) = Reflect::get_u32(&entry, 0).map_err(|_| throws())?.as_string() else { continue };
        accept(name, &|| Reflect::get_u32(&entry, 1).map_err(|_| throws()))?;
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
    let refused = |reason: String| Error::InvalidArgument { name: "verifyingKey".into(), reason };
    let throws = || refused(THROWS.into());
    let items: Vec<JsValue> = if is_array(value).map_err(|_| throws())? {
        array_items(value, MAX_VERIFYING_KEYS).map_err(|e| match e {
            ItemsError::Throws => throws(),
            ItemsError::TooLong(n) => refused(format!("is an array of {n} keys, more than {MAX_VERIFYING_KEYS}")),
        })?
    } else {
        vec![value.clone()]
    };
    items.iter().map(verifying_key_from_js).collect()
}

/// Why a key object that was freed is refused; the JS wrappers (`pkg-template/key-guard.mjs`)
/// say the same of a freed SigningKey.
const FREED_KEY: &str = "is a key that was freed (free() was called on it)";

/// Whether a key object is one the glue freed: `free()` sets the object's pointer
/// `__wbg_ptr` to 0. Checked before `publicKeyPem()` is called: on a freed key that
/// method throws (the wrappers' key guards make it), and a `catch` import that throws
/// leaks a slot of the externref table (wasm-bindgen 0.2.130; see SOAK.md), which
/// reading a property does not. A getter or a Proxy trap that throws is caught.
fn was_freed(value: &JsValue) -> bool {
    value.is_object() && Reflect::get(value, &"__wbg_ptr".into()).ok().and_then(|ptr| ptr.as_f64()) == Some(0.0)
}

/// Most verifying keys accepted at once (the current key and a few during rotation).
const MAX_VERIFYING_KEYS: usize = 64;

fn verifying_key_from_js(value: &JsValue) -> Result<VerifyingKey, Error> {
    let refused = |reason: &str| Error::InvalidArgument { name: "verifyingKey".into(), reason: reason.into() };
    let pem = match value.as_string() {
        Some(pem) => pem,
        None if was_freed(value) => return Err(refused(FREED_KEY)),
        None => Reflect::get(value, &"publicKeyPem".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(value).ok())
            .and_then(|pem| pem.as_string())
            .ok_or_else(|| refused("must be a VerifyingKey, a PEM string, or an array of them"))?,
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
