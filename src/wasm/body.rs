//! Bodies given as JS values: JSON text, UTF-8 bytes, or plain JS data read
//! member by member (through the gateway) into the core's `Json` tree; and
//! the JSON of a body given back to JS with every member an own property.

use js_sys::{Array, JsString, Reflect};
use wasm_bindgen::{JsCast, JsValue};

use super::gateway::{
    array_items, is_array, is_plain_prototype, object_entries, string_from_js, text_from_js, ItemsError,
};
use super::options::THROWS;
use crate::canonical::number::python_float_repr;
use crate::error::Error;
use crate::json::{parse_body, Json, Limits, PathNode, MAX_SAFE_INTEGER};

/// Whether any number of the tree is beyond `f64` (`1e999`).
fn has_infinite_number(json: &Json) -> bool {
    match json {
        Json::Object(members) => members.iter().any(|(_, value)| has_infinite_number(value)),
        Json::Array(items) => items.iter().any(has_infinite_number),
        Json::Number(text) => text.parse::<f64>().is_ok_and(|n| !n.is_finite()),
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
        Json::Null => Ok(JsValue::NULL),
        Json::Bool(b) => Ok(JsValue::from_bool(*b)),
        Json::String(s) => Ok(JsValue::from_str(s)),
        // As the tree's `Serialize` writes a number: a safe integer or a number with a
        // fraction or exponent as a JS number (`1e999` as `Infinity`, as `JSON.parse` gives
        // it), any other integer as its exact text.
        Json::Number(text) => Ok(match text.parse::<i64>() {
            Ok(i) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) => JsValue::from_f64(i as f64),
            Ok(_) => JsValue::from_str(text),
            Err(_) if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => JsValue::from_str(text),
            Err(_) => JsValue::from_f64(text.parse::<f64>().unwrap_or(f64::NAN)),
        }),
    }
}

/// `raw` of a serialized info response, rebuilt from the tree when serde_json's text could
/// not carry it as `JSON.parse` of the body gives it: a number beyond `f64` (`1e999`,
/// `Infinity` in JS, which serde_json writes as `null`). Every member is an own property
/// either way (`Object.fromEntries` here, `JSON.parse` in `to_js`): a body member named
/// `__proto__` never sets a prototype. (A callback model carries no body-derived keys.)
pub(super) fn restore_body_json(out: JsValue, raw: &Json) -> Result<JsValue, JsValue> {
    if has_infinite_number(raw) {
        Reflect::set(&out, &"raw".into(), &json_to_js(raw)?)?;
    }
    Ok(out)
}

/// A body given as JSON text, bytes or a JS value, with the exact text that represents it.
pub(super) struct BodyInput {
    pub(super) json: Json<'static>,
    pub(super) text: String,
}

/// Reads a body: text and bytes are parsed as they are; any other value must be
/// plain JSON data (no `undefined`, functions, `NaN`, cycles…) and is written compactly.
pub(super) fn body_from_js(value: &JsValue, limits: &Limits) -> Result<BodyInput, Error> {
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

fn invalid(path: &PathNode<'_>, reason: &str) -> Error {
    Error::InvalidBody { path: path.to_string(), reason: reason.into() }
}

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
    let units = js_string.length();
    count(size, units as usize + 2, limits)?;
    string_from_js(js_string, units).ok_or_else(|| invalid(path, "holds a lone UTF-16 surrogate"))
}

fn json_from_js(
    value: &JsValue,
    depth: usize,
    path: &PathNode<'_>,
    limits: &Limits,
    size: &mut usize,
) -> Result<Json<'static>, Error> {
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
        return js_text(js_string, path, limits, size).map(|text| Json::String(text.into()));
    }
    if let Some(n) = value.as_f64() {
        if !n.is_finite() {
            return Err(invalid(path, "is NaN or Infinity, which JSON cannot carry"));
        }
        let text = if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER as f64 {
            format!("{}", n as i64)
        } else {
            python_float_repr(n)
        };
        count(size, text.len(), limits)?;
        return Ok(Json::Number(text.into()));
    }
    if let Some(big) = value.dyn_ref::<js_sys::BigInt>() {
        let text = big.to_string(10).map_err(|_| invalid(path, "is a BigInt that cannot be written"))?;
        let text = js_text(&text, path, limits, size)?;
        return Ok(Json::Number(text.into()));
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
            ItemsError::Throws | ItemsError::NotIterable => invalid(path, THROWS),
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
        members.push((name.into(), json));
    }
    Ok(Json::Object(members))
}
