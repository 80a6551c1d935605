//! The one gateway for reading caller values: every JS operation that can run
//! the caller's code (a getter, a Proxy trap, an iterator) goes through a
//! `catch` import here. A JS exception must never unwind through the wasm
//! frames: their epilogues would not run, so each such call would leak its
//! shadow-stack frame (and the JS values it holds) until the stack pointer
//! wraps and every later call traps with "memory access out of bounds".
//! `Array.isArray` throws on a revoked Proxy; `Object.entries` runs getters
//! and `ownKeys` traps; `Object.getPrototypeOf` runs a trap too.
//!
//! Option objects come out of here as [`Member`]s, for the typed reader
//! (`options.rs`); text as `String`s; arrays as their items.

use js_sys::{Array, ArrayBuffer, Function, JsString, Reflect, Uint8Array};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::options::{self, Member, ShapeError};
use crate::error::Error;
use crate::json::MAX_SAFE_INTEGER;
use crate::profile::Profile;
use crate::request::builders::InputProblem;

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
    #[wasm_bindgen(catch, js_namespace = Object, js_name = hasOwn)]
    fn js_has_own(value: &JsValue, index: u32) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn js_object_keys(value: &JsValue) -> Result<Array, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["Array", "prototype", "join"], js_name = call)]
    fn js_join(array: &Array, separator: &JsString) -> Result<JsString, JsValue>;
    /// `Object.prototype`, read once.
    #[wasm_bindgen(thread_local_v2, js_namespace = Object, js_name = prototype)]
    static OBJECT_PROTOTYPE: JsValue;
}

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (every runtime we support has it; the glue uses it too).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(catch, constructor, js_class = TextEncoder)]
    fn new() -> Result<Utf8Encoder, JsValue>;
    /// `{ read, written }` from the platform's encoder; from a caller's replacement, anything
    /// (its `written` is read through `Reflect`, caught: a getter may throw).
    #[wasm_bindgen(catch, method, js_class = TextEncoder, js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, text: &JsString, into: &Uint8Array) -> Result<JsValue, JsValue>;
}

thread_local! {
    /// Made once; `None` where the platform has no `TextEncoder` (then the glue's copy).
    static UTF8_ENCODER: Option<Utf8Encoder> = Utf8Encoder::new().ok();
}

// Strings the glue makes once (rustfmt would drop their values: not Rust syntax).
#[rustfmt::skip]
#[wasm_bindgen]
extern "C" {
    /// What [`object_keys`] joins the names with.
    #[wasm_bindgen(thread_local_v2, static_string)]
    static NUL: JsString = "\0";
    /// The names of the methods that make a value map-like.
    #[wasm_bindgen(thread_local_v2, static_string)]
    static ENTRIES: JsString = "entries";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static GET: JsString = "get";
    /// The member of `encodeInto`'s result that [`copy_string`] reads.
    #[wasm_bindgen(thread_local_v2, static_string)]
    static WRITTEN: JsString = "written";
}

/// The caller's code threw (or a revoked Proxy was given) while a value was read.
pub(super) struct Throws;

pub(super) fn is_array(value: &JsValue) -> Result<bool, Throws> {
    js_is_array(value).map_err(|_| Throws)
}

/// Whether an object's prototype is `Object.prototype` or null, as for an object literal
/// or `JSON.parse` output (not a Date, Map, class instance…).
pub(super) fn is_plain_prototype(value: &JsValue) -> Result<bool, Throws> {
    let prototype = js_prototype_of(value).map_err(|_| Throws)?;
    Ok(prototype.is_null() || OBJECT_PROTOTYPE.with(|plain| prototype == *plain))
}

/// `[key, value]` pairs of an object's own enumerable string-keyed members, each read
/// once; the pairs are fresh arrays, so reading them runs no caller code.
pub(super) fn object_entries(value: &JsValue) -> Result<Vec<(JsString, JsValue)>, Throws> {
    let entries = js_object_entries(value).map_err(|_| Throws)?;
    Ok(entries
        .iter()
        .map(|entry| {
            let entry: Array = entry.unchecked_into();
            (entry.get(0).unchecked_into(), entry.get(1))
        })
        .collect())
}

/// The own enumerable string-keyed members of an object, by `Object.keys` (which runs
/// a Proxy's traps, never a getter): their names as text, and each value read only
/// when asked for ([`ObjectKeys::value`]).
pub(super) struct ObjectKeys {
    keys: Array,
    names: Vec<String>,
}

/// Why an object's member names could not be read.
pub(super) enum NamesError {
    Throws,
    /// More names, or more UTF-16 units in all, than allowed (nothing was copied).
    TooLarge,
}

/// The names of an object's own enumerable members, copied into wasm memory in one
/// crossing rather than one per name: joined with NUL in JS and split here. A name
/// holding NUL makes the count differ, and the names are then copied one by one.
/// More than `max_names` names, or more than `max_units` UTF-16 units in all, are
/// refused before any is copied. A lone surrogate in a name reads as U+FFFD.
pub(super) fn object_keys(value: &JsValue, max_names: usize, max_units: u32) -> Result<ObjectKeys, NamesError> {
    let keys = js_object_keys(value).map_err(|_| NamesError::Throws)?;
    let count = keys.length() as usize;
    if count > max_names {
        return Err(NamesError::TooLarge);
    }
    let joined = NUL.with(|nul| js_join(&keys, nul)).map_err(|_| NamesError::Throws)?;
    if joined.length() > max_units {
        return Err(NamesError::TooLarge);
    }
    let mut names: Vec<String> = Vec::with_capacity(count);
    if count > 0 {
        names.extend(String::from(joined).split('\0').map(str::to_owned));
    }
    if names.len() != count {
        names = keys.iter().map(|key| key.as_string().unwrap_or_default()).collect();
    }
    Ok(ObjectKeys { keys, names })
}

impl ObjectKeys {
    /// The names, in the object's own order.
    pub(super) fn names(&self) -> &[String] {
        &self.names
    }

    /// The value of the member at `index` of the names, read from `object` (the
    /// object they were read from) with `Reflect.get`: a getter runs now, caught.
    pub(super) fn value(&self, object: &JsValue, index: usize) -> Result<JsValue, Throws> {
        Reflect::get(object, &self.keys.get(index as u32)).map_err(|_| Throws)
    }
}

/// Why the items of an array-like (or the entries of a map-like) could not be read.
pub(super) enum ItemsError {
    Throws,
    /// Its `length`, larger than allowed.
    TooLong(f64),
    /// Its `entries()` gave something that is not iterable.
    NotIterable,
}

/// The items of an array (or a Proxy of one), read one by one with `Reflect.get`; a
/// length over `max` is refused before anything is read or allocated.
pub(super) fn array_items(value: &JsValue, max: usize) -> Result<Vec<JsValue>, ItemsError> {
    let length = Reflect::get(value, &"length".into()).map_err(|_| ItemsError::Throws)?;
    let length = length.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).ok_or(ItemsError::Throws)?;
    if length > max as f64 {
        return Err(ItemsError::TooLong(length));
    }
    (0..length as u32).map(|index| Reflect::get_u32(value, index).map_err(|_| ItemsError::Throws)).collect()
}

/// The items of an array (or a Proxy of one) as its own properties only, each read once:
/// a hole (an index the array does not have as its own) is [`OwnItemsError::Hole`], never
/// filled from `Array.prototype` or `Object.prototype` as `Reflect.get` would fill it. A
/// length over `max` is refused before anything is read.
pub(super) fn own_array_items(value: &JsValue, max: usize) -> Result<Vec<JsValue>, OwnItemsError> {
    let length = Reflect::get(value, &"length".into()).map_err(|_| OwnItemsError::Throws)?;
    let length = length.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).ok_or(OwnItemsError::Throws)?;
    if length > max as f64 {
        return Err(OwnItemsError::TooLong(length));
    }
    (0..length as u32)
        .map(|index| {
            if !js_has_own(value, index).map_err(|_| OwnItemsError::Throws)? {
                return Err(OwnItemsError::Hole(index));
            }
            Reflect::get_u32(value, index).map_err(|_| OwnItemsError::Throws)
        })
        .collect()
}

/// Why [`own_array_items`] could not read an array.
pub(super) enum OwnItemsError {
    Throws,
    /// Its `length`, larger than allowed.
    TooLong(f64),
    /// An index below its `length` that is not an own property of it.
    Hole(u32),
}

/// Item `index` of an array-like (`Reflect.get`, so a getter or Proxy trap is caught).
pub(super) fn item(value: &JsValue, index: u32) -> Result<JsValue, Throws> {
    Reflect::get_u32(value, index).map_err(|_| Throws)
}

/// The `entries` method of a map-like (`Headers`, `Map`: `entries()` and `get()` are
/// methods); `None` for anything else.
pub(super) fn map_like(value: &JsValue) -> Option<Function> {
    let method = |name: &JsString| Reflect::get(value, name).ok().and_then(|f| f.dyn_into::<Function>().ok());
    let (Some(entries), Some(_)) = (ENTRIES.with(method), GET.with(method)) else { return None };
    Some(entries)
}

/// The entries of a map-like, by its `entries` method ([`map_like`]), iterated, at most `max`.
pub(super) fn map_like_entries(value: &JsValue, entries: &Function, max: usize) -> Result<Vec<JsValue>, ItemsError> {
    let iterator = entries.call0(value).map_err(|_| ItemsError::Throws)?;
    let mut items = Vec::new();
    for entry in js_sys::try_iter(&iterator).map_err(|_| ItemsError::Throws)?.ok_or(ItemsError::NotIterable)? {
        if items.len() == max {
            return Err(ItemsError::TooLong(max as f64 + 1.0));
        }
        items.push(entry.map_err(|_| ItemsError::Throws)?);
    }
    Ok(items)
}

thread_local! {
    /// Fetch's `Headers.prototype` and its own `get`, when the platform has them
    /// (read once, through `Reflect.get`, so a missing global is only `None`).
    static FETCH_HEADERS: Option<(JsValue, Function)> = fetch_headers_class();
}

fn fetch_headers_class() -> Option<(JsValue, Function)> {
    let class = Reflect::get(&js_sys::global(), &JsValue::from_str("Headers")).ok()?;
    if !class.is_function() {
        return None;
    }
    let prototype = Reflect::get(&class, &JsValue::from_str("prototype")).ok()?;
    let get = Reflect::get(&prototype, &JsValue::from_str("get")).ok()?.dyn_into::<Function>().ok()?;
    Some((prototype, get))
}

/// For a Fetch `Headers` object (its prototype exactly `Headers.prototype`), the
/// values of `names` by the platform's `Headers.prototype.get`: a name in any case, a
/// name sent twice as one value joined with ", " (as iterating the object gives it),
/// `null` when absent. One call per name, where iterating costs several per header
/// of the request. `None` for any other value, and when a call throws (a Proxy of a
/// `Headers` fails its brand check): the caller then reads the value another way.
pub(super) fn fetch_headers_values<const N: usize>(value: &JsValue, names: &[JsValue; N]) -> Option<[JsValue; N]> {
    FETCH_HEADERS.with(|class| {
        let (prototype, get) = class.as_ref()?;
        if js_prototype_of(value).ok()? != *prototype {
            return None;
        }
        let mut values: [JsValue; N] = std::array::from_fn(|_| JsValue::NULL);
        for (slot, name) in values.iter_mut().zip(names) {
            *slot = get.call1(value, name).ok()?;
        }
        Some(values)
    })
}

/// What `value.<name>()` returns when it is a method that returns a string (the JS string
/// itself); `None` when there is no such method, it returns something else, or it (or a
/// getter) throws.
pub(super) fn method_text(value: &JsValue, name: &str) -> Option<JsString> {
    let method = Reflect::get(value, &name.into()).ok()?.dyn_into::<Function>().ok()?;
    method.call0(value).ok()?.dyn_into::<JsString>().ok()
}

/// What a JS value is, from `typeof` alone (which runs no caller code), for messages.
pub(super) fn type_name(value: &JsValue) -> &'static str {
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

/// A value as a [`Member`], where its text may be long (a header's token or
/// signature): a string is copied by [`copy_string`].
pub(super) fn long_text_member(value: JsValue) -> Member<JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(text) => Member::Text(copy_string(text, text.length())),
        None => member(value),
    }
}

/// A value as a [`Member`]: primitives copied, anything else kept. Text, the most
/// common member, is tried first: one call across the boundary.
pub(super) fn member(value: JsValue) -> Member<JsValue> {
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

/// A string argument. wasm-bindgen's own `&str` conversion traps inside the allocator
/// ("memory access out of bounds") when given a number or an object, so string
/// parameters are taken as `JsValue` and checked here.
pub(super) fn string_arg(value: &JsValue, name: &str) -> Result<String, Error> {
    value.as_string().ok_or_else(|| Error::InvalidArgument {
        name: name.into(),
        reason: format!("must be a string, not {}", type_name(value)),
    })
}

/// Text from a JS string or UTF-8 bytes; `None` for other values. Input longer than
/// `max_bytes` is refused before it is copied into wasm memory, which never shrinks:
/// a string's UTF-8 length is at least its UTF-16 length.
pub(super) fn text_from_js(value: &JsValue, max_bytes: usize) -> Result<Option<String>, Error> {
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        let units = js_string.length();
        if units as usize > max_bytes {
            return Err(Error::BodyTooLarge { limit: max_bytes, actual: units as usize });
        }
        return match string_from_js(js_string, units) {
            Some(text) => Ok(Some(text)),
            None => Err(Error::InvalidBody { path: String::new(), reason: "holds a lone UTF-16 surrogate".into() }),
        };
    }
    match view_bytes(value, max_bytes)? {
        Some(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| not_utf8()),
        None => Ok(None),
    }
}

/// The exact bytes of an `ArrayBuffer`, a `DataView` or any typed array (a `Buffer`
/// included), copied once into wasm memory; `None` for anything else. More than
/// `max_bytes` is refused before anything is copied.
pub(super) fn view_bytes(value: &JsValue, max_bytes: usize) -> Result<Option<Vec<u8>>, Error> {
    let Some(bytes) = byte_view(value) else { return Ok(None) };
    let length = bytes.length() as usize;
    if length > max_bytes {
        return Err(Error::BodyTooLarge { limit: max_bytes, actual: length });
    }
    Ok(Some(bytes.to_vec()))
}

/// A `Uint8Array` over the bytes of a buffer or view, sharing its memory (no copy).
fn byte_view(value: &JsValue) -> Option<Uint8Array> {
    if let Some(buffer) = value.dyn_ref::<ArrayBuffer>() {
        // A detached buffer has no bytes, and a view of it could not be made (TypeError).
        if buffer.byte_length() == 0 {
            return Some(Uint8Array::new_with_length(0));
        }
        return Some(Uint8Array::new(buffer));
    }
    // `isView` is false for a Proxy, whose typed-array getters would throw.
    if !ArrayBuffer::is_view(value) {
        return None;
    }
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        return Some(bytes.clone());
    }
    // A DataView or another typed array: its window onto its buffer, in bytes. The
    // getters are read through `Reflect` (caught), as a caller may have replaced them.
    let number = |name: &str| Reflect::get(value, &name.into()).ok().and_then(|n| n.as_f64());
    let buffer = Reflect::get(value, &"buffer".into()).ok()?.dyn_into::<ArrayBuffer>().ok()?;
    let (offset, length) = (number("byteOffset")?, number("byteLength")?);
    let fits = offset >= 0.0 && length >= 0.0 && offset + length <= f64::from(buffer.byte_length());
    // A view of a detached buffer, or past the end of a shrunk resizable one, has no
    // bytes (its byteLength is 0), and a view of it could not be made (TypeError).
    if fits && length == 0.0 {
        return Some(Uint8Array::new_with_length(0));
    }
    fits.then(|| Uint8Array::new_with_byte_offset_and_length(&buffer, offset as u32, length as u32))
}

/// Bytes from an `ArrayBuffer`, a `DataView` or any typed array (a `Buffer` included),
/// up to 64 KiB (more is refused as `None` before it is copied); `None` for anything else.
pub(super) fn bytes_arg(value: &JsValue) -> Option<Vec<u8>> {
    const MAX_BYTES: usize = 64 << 10;
    view_bytes(value, MAX_BYTES).ok().flatten()
}

/// UTF-8 bytes already in wasm memory as text, refused as [`text_from_js`] refuses bytes.
pub(super) fn utf8_text(bytes: &[u8], max_bytes: usize) -> Result<&str, Error> {
    if bytes.len() > max_bytes {
        return Err(Error::BodyTooLarge { limit: max_bytes, actual: bytes.len() });
    }
    std::str::from_utf8(bytes).map_err(|_| not_utf8())
}

fn not_utf8() -> Error {
    Error::InvalidJson { message: "the bytes are not valid UTF-8".into() }
}

/// A JS string as UTF-8, or `None` when it holds a lone surrogate. The copy
/// writes a lone surrogate as U+FFFD; only text holding U+FFFD pays for the
/// exact check (one JS call per UTF-16 unit). U+FFFD is EF BF BD in UTF-8, and
/// a byte scan for its lead byte is far cheaper than a substring search.
/// `units` is the string's `length`, which every caller has read already.
pub(super) fn string_from_js(js_string: &JsString, units: u32) -> Option<String> {
    let text = copy_string(js_string, units);
    if text.bytes().any(|b| b == 0xEF) && text.contains('\u{FFFD}') && !js_string.is_valid_utf16() {
        return None;
    }
    Some(text)
}

/// Strings of at least this many UTF-16 units are copied by [`copy_string`]'s
/// `encodeInto`: wasm-bindgen's copy loops over ASCII in JS (870 ns for a
/// 600-character token in Node 20, where `encodeInto` takes about 100 ns and the
/// three crossings around it as much again). `canonicalEntries` of a string body,
/// against the glue's copy: 1.08× at 150 characters, 1.25× at 300, 1.5× at 600.
const ENCODE_INTO_FROM_UNITS: u32 = 128;

/// Strings of more UTF-16 units than this take the glue's copy: `encodeInto` needs room for
/// three bytes a unit, and wasm memory never shrinks (a 50-million-character header value,
/// ASCII, grew it by 200 MB for good, where the glue's copy takes 50). As many as a body may
/// have at most (`maxBodyBytes`' ceiling), so every body still takes `encodeInto`.
const ENCODE_INTO_TO_UNITS: u32 = 1 << 20;

/// A JS string's text, as wasm-bindgen's `String::from` gives it (a lone surrogate
/// as U+FFFD), but a long one written straight into wasm memory by the platform's
/// `TextEncoder.encodeInto`, which is native code. Falls back to the glue's copy
/// when the room cannot be had. `units` is the string's `length`.
pub(super) fn copy_string(js_string: &JsString, units: u32) -> String {
    if (ENCODE_INTO_FROM_UNITS..=ENCODE_INTO_TO_UNITS).contains(&units) {
        if let Some(text) = encode_into_wasm_memory(js_string, units) {
            return text;
        }
    }
    String::from(js_string)
}

fn encode_into_wasm_memory(js_string: &JsString, units: u32) -> Option<String> {
    // At most 3 UTF-8 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    let room = (units as usize).checked_mul(3)?;
    let mut bytes: Vec<u8> = Vec::new();
    bytes.try_reserve_exact(room).ok()?;
    bytes.resize(room, 0);
    // The encoder is made (on first use) before the view, which nothing may outlive.
    let result = UTF8_ENCODER.with(|encoder| {
        let encoder = encoder.as_ref()?;
        // SAFETY: the view covers `bytes` and is used only by `encodeInto` right here.
        // Wasm memory that grew in between (nothing here allocates, but the glue's
        // externref table might) would detach it: `encodeInto` then writes nothing,
        // which the length check below turns into the glue's copy.
        let view = unsafe { Uint8Array::view_mut_raw(bytes.as_mut_ptr(), room) };
        encoder.encode_into(js_string, &view).ok()
    })?;
    // A `TextEncoder` the caller put in the platform's place may answer anything: its
    // `written` is read caught (a getter that threw would unwind through the wasm frames),
    // and must be a number in range.
    let written = WRITTEN.with(|name| Reflect::get(&result, name)).ok()?.as_f64()?;
    // Every UTF-16 unit is at least one byte of UTF-8.
    if !(f64::from(units)..=room as f64).contains(&written) {
        return None;
    }
    bytes.truncate(written as usize);
    String::from_utf8(bytes).ok()
}

/// The own members of a plain object, each read once (`undefined` and `null`: none).
pub(super) fn members(value: &JsValue) -> Result<Vec<(String, Member<JsValue>)>, ShapeError> {
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
pub(super) fn builder_input<T: DeserializeOwned>(value: &JsValue, what: &str) -> Result<(T, Vec<InputProblem>), Error> {
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
    let object = js_object_from_entries(&kept).map_err(|_| refused(ShapeError::Throws))?;
    Ok((object, problems))
}

/// Whether `T` reads an object of the one member `pair`.
fn reads_as<T: DeserializeOwned>(pair: &Array) -> bool {
    js_object_from_entries(&Array::of1(pair)).is_ok_and(|object| serde_wasm_bindgen::from_value::<T>(object).is_ok())
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
pub(super) fn canonical_options(value: &JsValue) -> Result<Profile, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(Profile::SPEC);
    }
    options::canonical_options(options::canonical_shape(members(value))?)
}

/// The canonical options held by a member of another option object.
pub(super) fn nested_canonical_options(member: &Member<JsValue>) -> Result<Profile, Error> {
    match member {
        Member::Other(_, value) => canonical_options(value),
        member if member.is_absent() => Ok(Profile::SPEC),
        _ => options::canonical_shape::<JsValue>(Err(ShapeError::NotObject)).map(|_| Profile::SPEC),
    }
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use js_sys::JsString;

    use super::{copy_string, ENCODE_INTO_FROM_UNITS};

    /// `copy_string` gives what wasm-bindgen's copy gives, on both sides of its
    /// threshold: ASCII, two- and three-byte UTF-8, surrogate pairs, and lone
    /// surrogates (U+FFFD in both), at the start, the end and across the threshold.
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn copy_string_is_the_glue_copy() {
        let at = ENCODE_INTO_FROM_UNITS as usize;
        let mut cases: Vec<Vec<u16>> = Vec::new();
        for length in [0, 1, at - 1, at, at + 1, 600, 5000] {
            for unit in [u16::from(b'a'), 0x00e9, 0x0416, 0x20ac, 0xd83d, 0xde00] {
                cases.push(vec![unit; length]);
            }
            let pairs: Vec<u16> = "😀é a".encode_utf16().cycle().take(length).collect();
            cases.push(pairs);
        }
        let mut lone_at_end: Vec<u16> = vec![u16::from(b'x'); at];
        lone_at_end.push(0xd800);
        cases.push(lone_at_end);
        for units in cases {
            let js = JsString::from_char_code(&units);
            let copied = copy_string(&js, js.length());
            assert_eq!(copied, String::from(&js), "{} units starting {:x?}", units.len(), units.first());
            assert_eq!(copied, String::from_utf16_lossy(&units));
        }
    }
}
