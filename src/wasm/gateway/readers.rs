//! The domain readers over the exception-safe reads and the copies: a value as a
//! [`Member`], the members of an option object, a builder's input (by the input-fields
//! table), the canonical options.

use js_sys::JsString;
use wasm_bindgen::{JsCast, JsValue};

use super::copy::{copy_string, string_from_js};
use super::{is_array, is_plain_prototype, object_entries, type_name};
use crate::error::Error;
use crate::json::MAX_SAFE_INTEGER;
use crate::profile::Profile;
use crate::request::builders::{Builders, FieldValue, InputProblem, InputValues};
use crate::request::fields::{names_of, row_named, INPUT_FIELDS};
use crate::wasm::options::{self, Member, ShapeError};

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

/// A builder's input (`buildPayinRequest`, …), read by the input-fields table: each own
/// member, read once, is the row of that name among `builders`' rows, and is kept when its
/// value is of the row's type (text: a string; a whole number: a safe non-negative integer,
/// or a BigInt within u64); `null` and `undefined` are absent. The problems of the others
/// (unknown names, values of the wrong type) the builder reports at their names instead of
/// throwing. A value that is not a plain object, or that throws when read, is still refused.
pub(in crate::wasm) fn builder_input(
    value: &JsValue,
    what: &str,
    builders: Builders,
) -> Result<(InputValues, Vec<InputProblem>), Error> {
    let known = || names_of(builders).collect::<Vec<_>>();
    let refused = |e: ShapeError| e.into_argument_error(what, &known());
    if value.is_undefined() || value.is_null() {
        return Err(refused(ShapeError::NotObject));
    }
    let entries = entries(value).map_err(refused)?;
    // Each unknown member becomes an issue with a "did you mean": an input of a million
    // members would be a report of a million issues. No input has near this many.
    if entries.len() > MAX_INPUT_MEMBERS {
        let known = known();
        let reason = format!(
            "has {} members; an input has at most {MAX_INPUT_MEMBERS} (it has {} of its own: {})",
            entries.len(),
            known.len(),
            known.join(", ")
        );
        return Err(Error::InvalidArgument { name: what.into(), reason });
    }
    let mut problems = Vec::new();
    let mut values = InputValues::default();
    for (key, value) in entries {
        let name = String::from(&key);
        let Some(at) = row_named(builders, &name) else {
            problems.push(InputProblem::Unknown { name, builders });
            continue;
        };
        if value.is_undefined() || value.is_null() {
            continue;
        }
        let read = if INPUT_FIELDS[at].kind.is_number() {
            whole_number(&value).map(FieldValue::Number).ok_or_else(|| found_in_input(&value))
        } else {
            match value.dyn_ref::<JsString>() {
                // A lone surrogate would otherwise become U+FFFD without a word.
                Some(text) => string_from_js(text, text.length())
                    .map(FieldValue::Text)
                    .ok_or("a string with a lone UTF-16 surrogate"),
                None => Err(found_in_input(&value)),
            }
        };
        match read {
            Ok(read) => values.set(at, read),
            Err(found) => problems.push(InputProblem::WrongType { name, found }),
        }
    }
    Ok((values, problems))
}

/// The most members a builder's input may have, unknown ones included.
const MAX_INPUT_MEMBERS: usize = 256;

/// A whole number of the input: a safe integer of 0 or more, as a number or a BigInt. A
/// larger BigInt is refused like a larger number: the built `body` is a JS object, where
/// it could not be the number `bodyText` writes.
fn whole_number(value: &JsValue) -> Option<u64> {
    match value.as_f64() {
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_SAFE_INTEGER as f64 => Some(n as u64),
        Some(_) => None,
        None if value.is_bigint() => u64::try_from(value.clone()).ok().filter(|&n| n <= MAX_SAFE_INTEGER as u64),
        None => None,
    }
}

/// What an input member not of its row's type holds, in messages.
fn found_in_input(value: &JsValue) -> &'static str {
    match value.as_f64() {
        Some(n) if !n.is_finite() => "a number that is not finite",
        Some(n) if n.fract() != 0.0 => "a number with a fraction",
        Some(n) if n < 0.0 => "a negative number",
        Some(n) if n > MAX_SAFE_INTEGER as f64 => "a number too large to be exact",
        Some(_) => "a number",
        None if value.is_bigint() => "a BigInt outside 0 to 2^53 - 1",
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
