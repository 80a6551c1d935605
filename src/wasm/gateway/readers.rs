//! The domain readers over the exception-safe reads and the copies: a value as a
//! [`Member`], the members of an option object, a builder's input, the canonical options.

use js_sys::{Array, JsString};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::copy::{copy_string, string_from_js};
use super::{is_array, is_plain_prototype, object_entries, type_name};
use crate::error::Error;
use crate::json::MAX_SAFE_INTEGER;
use crate::profile::Profile;
use crate::request::builders::InputProblem;
use crate::wasm::options::{self, Member, ShapeError};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = Object, js_name = fromEntries)]
    fn js_object_from_entries(entries: &Array) -> Result<Option<js_sys::Object>, JsValue>;
}

/// A value as a [`Member`], where its text may be long (a header's token or
/// signature): a string is copied by [`copy_string`].
pub(in crate::wasm) fn long_text_member(value: JsValue) -> Member<JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(text) => Member::Text(copy_string(text, text.length())),
        None => member(value),
    }
}

/// A value as a [`Member`]: primitives copied, anything else kept. Text, the most
/// common member, is tried first: one call across the boundary.
pub(in crate::wasm) fn member(value: JsValue) -> Member<JsValue> {
    if let Some(text) = value.as_string() {
        Member::Text(text)
    } else if let Some(n) = value.as_f64() {
        Member::Number(n)
    } else if value.is_undefined() {
        Member::Undefined
    } else if value.is_null() {
        Member::Null
    } else if let Some(b) = value.as_bool() {
        Member::Bool(b)
    } else {
        Member::Other(type_name(&value), value)
    }
}

/// The own members of a plain object, each read once (`undefined` and `null`: none).
pub(in crate::wasm) fn members(value: &JsValue) -> Result<Vec<(String, Member<JsValue>)>, ShapeError> {
    Ok(entries(value)?.into_iter().map(|(key, value)| (String::from(key), member(value))).collect())
}

/// The `[key, value]` pairs of a plain object (`undefined` and `null`: none).
fn entries(value: &JsValue) -> Result<Vec<(JsString, JsValue)>, ShapeError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    if !value.is_object() || is_array(value).map_err(|_| ShapeError::Throws)? {
        return Err(ShapeError::NotObject);
    }
    // A Date, Map, Error or class instance has no own enumerable members and would
    // otherwise pass as `{}`.
    if !is_plain_prototype(value).map_err(|_| ShapeError::Throws)? {
        return Err(ShapeError::NotObject);
    }
    object_entries(value).map_err(|_| ShapeError::Throws)
}

/// A builder's input (`buildPayinRequest`, …): what `T` reads of the members it knows,
/// and the problems of the others (unknown names, values of the wrong type), which the
/// builder reports at their names instead of throwing. A value that is not a plain
/// object, or that throws when read, is still refused.
pub(in crate::wasm) fn builder_input<T: DeserializeOwned>(
    value: &JsValue,
    what: &str,
) -> Result<(T, Vec<InputProblem>), Error> {
    let (kept, problems) = input_members(value, what, options::struct_fields::<T>(), reads_as::<T>)?;
    // Every member kept was read alone, so this does not fail; if it did, no serde
    // wording reaches the caller.
    let input = serde_wasm_bindgen::from_value(kept)
        .map_err(|_| Error::InvalidArgument { name: what.into(), reason: "could not be read".into() })?;
    Ok((input, problems))
}

/// The most members a builder's input may have, unknown ones included.
const MAX_INPUT_MEMBERS: usize = 256;

/// The non-generic part of [`builder_input`]: the members `reads` accepts, as an
/// object, and the problems of the others.
fn input_members(
    value: &JsValue,
    what: &str,
    known: &'static [&'static str],
    reads: fn(&Array) -> bool,
) -> Result<(JsValue, Vec<InputProblem>), Error> {
    let refused = |e: ShapeError| e.into_argument_error(what, known);
    if value.is_undefined() || value.is_null() {
        return Err(refused(ShapeError::NotObject));
    }
    let entries = entries(value).map_err(refused)?;
    // Each unknown member becomes an issue with a "did you mean": an input of a million
    // members would be a report of a million issues. No input has near this many.
    if entries.len() > MAX_INPUT_MEMBERS {
        let reason = format!(
            "has {} members; an input has at most {MAX_INPUT_MEMBERS} (it has {} of its own: {})",
            entries.len(),
            known.len(),
            known.join(", ")
        );
        return Err(Error::InvalidArgument { name: what.into(), reason });
    }
    let mut problems = Vec::new();
    let kept = Array::new();
    for (key, value) in entries {
        let name = String::from(&key);
        let pair = Array::of2(&key, &value);
        // An object, function or symbol never reaches serde-wasm-bindgen, whose plain
        // property gets would let a throwing getter or Proxy trap unwind through wasm.
        let structured = member(value.clone()).is_structured();
        // serde-wasm-bindgen would turn a lone surrogate into U+FFFD without a word.
        let lone_surrogate =
            value.dyn_ref::<JsString>().is_some_and(|text| string_from_js(text, text.length()).is_none());
        if !known.contains(&name.as_str()) {
            problems.push(InputProblem::Unknown { name, known });
        } else if !structured && !lone_surrogate && reads(&pair) {
            kept.push(&pair);
        } else {
            let found = if lone_surrogate { "a string with a lone UTF-16 surrogate" } else { found_in_input(&value) };
            problems.push(InputProblem::WrongType { name, found });
        }
    }
    let object = js_object_from_entries(&kept).ok().flatten().ok_or_else(|| refused(ShapeError::Throws))?;
    Ok((object.into(), problems))
}

/// Whether `T` reads an object of the one member `pair`.
fn reads_as<T: DeserializeOwned>(pair: &Array) -> bool {
    js_object_from_entries(&Array::of1(pair))
        .ok()
        .flatten()
        .is_some_and(|object| serde_wasm_bindgen::from_value::<T>(object.into()).is_ok())
}

/// What an input member that `T` does not read holds, in messages.
fn found_in_input(value: &JsValue) -> &'static str {
    match value.as_f64() {
        Some(n) if !n.is_finite() => "a number that is not finite",
        Some(n) if n.fract() != 0.0 => "a number with a fraction",
        Some(n) if n < 0.0 => "a negative number",
        Some(n) if n > MAX_SAFE_INTEGER as f64 => "a number too large to be exact",
        Some(_) => "a number",
        None => type_name(value),
    }
}

/// The profile options (`{ profile, falsy, booleans, padding, order, numbers, digest,
/// token, signatureEncoding }`), from a JS value.
pub(in crate::wasm) fn canonical_options(value: &JsValue) -> Result<Profile, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(Profile::SPEC);
    }
    options::canonical_options(options::canonical_shape(members(value))?)
}

/// The canonical options held by a member of another option object.
pub(in crate::wasm) fn nested_canonical_options(member: &Member<JsValue>) -> Result<Profile, Error> {
    match member {
        Member::Other(_, value) => canonical_options(value),
        member if member.is_absent() => Ok(Profile::SPEC),
        _ => options::canonical_shape::<JsValue>(Err(ShapeError::NotObject)).map(|_| Profile::SPEC),
    }
}
