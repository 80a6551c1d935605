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
//! (`options/`); text as `String`s; arrays as their items.

//!
//! Files by concern: this one holds the exception-safe reads (every `catch`
//! import, and what reads through them); `copy.rs`, how text and bytes are
//! copied into wasm memory (the `encodeInto` tuning); `readers.rs`, the
//! domain readers over both (members, option objects, builder inputs).

mod copy;
mod readers;

use js_sys::{Array, Function, JsString, Reflect};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

pub(super) use copy::{bytes_arg, string_arg, string_from_js, text_from_js, utf8_text};
pub(super) use readers::{
    builder_input, canonical_options, long_text_member, member, members, nested_canonical_options,
};

#[wasm_bindgen]
extern "C" {
    // A `catch` import answers an object as an `Option`: wasm-bindgen then puts it in the
    // externref table from JS, inside the glue's try, so a throw puts nothing there. As a
    // plain externref, the wasm puts the glue's `undefined` for a throw in a slot and the
    // import's Rust code returns the exception before taking that slot back: one slot kept
    // per throwing read, for good (tests/js/attack-api-leaks.test.mjs).
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn js_is_array(value: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = entries)]
    fn js_object_entries(value: &JsValue) -> Result<Option<Array>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = getPrototypeOf)]
    fn js_prototype_of(value: &JsValue) -> Result<Option<js_sys::Object>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = hasOwn)]
    fn js_has_own(value: &JsValue, index: u32) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn js_object_keys(value: &JsValue) -> Result<Option<Array>, JsValue>;
    /// Of the fresh array of strings `Object.keys` answered: joining strings runs no caller code
    /// and throws nothing, so no `catch` (whose glue, `handleError` over `arguments`, cost more
    /// than the join).
    #[wasm_bindgen(js_namespace = ["Array", "prototype", "join"], js_name = call)]
    fn js_join(array: &Array, separator: &JsString) -> JsString;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn js_get(target: &JsValue, key: &JsValue) -> Result<Option<JsValue>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Reflect, js_name = get)]
    fn js_get_index(target: &JsValue, index: u32) -> Result<Option<JsValue>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = getOwnPropertyDescriptor)]
    fn js_own_descriptor(target: &JsValue, key: &JsValue) -> Result<Option<js_sys::Object>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["Function", "prototype", "call"], js_name = call)]
    fn js_call0(function: &Function, this: &JsValue) -> Result<Option<JsValue>, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["Function", "prototype", "call"], js_name = call)]
    fn js_call1(function: &Function, this: &JsValue, argument: &JsValue) -> Result<Option<JsValue>, JsValue>;
    /// `Object.prototype`, read once.
    #[wasm_bindgen(thread_local_v2, js_namespace = Object, js_name = prototype)]
    static OBJECT_PROTOTYPE: JsValue;
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
    #[wasm_bindgen(thread_local_v2, static_string)]
    static VALUE: JsString = "value";
    #[wasm_bindgen(thread_local_v2, static_string)]
    static LENGTH: JsString = "length";
}
/// The caller's code threw (or a revoked Proxy was given) while a value was read.
pub(super) struct Throws;

/// `target[key]` (`Reflect.get`: a getter or Proxy trap runs, caught), the one read of a
/// member by name for every reader. `null` and `undefined` cross as one `None` (see the
/// imports above): which it was is told by the own data property's descriptor, so a
/// getter's or an inherited `null` reads as `undefined`.
pub(super) fn get(target: &JsValue, key: &JsValue) -> Result<JsValue, Throws> {
    match js_get(target, key) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Ok(nullish(js_own_descriptor(target, key))),
        Err(_) => Err(Throws),
    }
}

/// `target[index]`, as [`get`].
pub(super) fn get_index(target: &JsValue, index: u32) -> Result<JsValue, Throws> {
    match js_get_index(target, index) {
        Ok(Some(value)) => Ok(value),
        Ok(None) => Ok(nullish(js_own_descriptor(target, &JsValue::from(index)))),
        Err(_) => Err(Throws),
    }
}

/// `null` when `descriptor` is of an own data property holding `null`, else `undefined`.
/// The descriptor is a fresh object (even a Proxy's trap answer is copied into one), so
/// reading its `value` runs no caller code.
fn nullish(descriptor: Result<Option<js_sys::Object>, JsValue>) -> JsValue {
    let Ok(Some(descriptor)) = descriptor else { return JsValue::UNDEFINED };
    // Never throws (an ordinary object's data property), so `Reflect.get` keeps no slot.
    if VALUE.with(|name| Reflect::get(&descriptor, name)).is_ok_and(|value| value.is_null()) {
        JsValue::NULL
    } else {
        JsValue::UNDEFINED
    }
}

/// `function.call(this)`, caught; `null` and `undefined` both read as `undefined`.
pub(super) fn call0(function: &Function, this: &JsValue) -> Result<JsValue, Throws> {
    js_call0(function, this).map(|value| value.unwrap_or(JsValue::UNDEFINED)).map_err(|_| Throws)
}

/// `function.call(this, argument)`, caught; `None` for `null` and `undefined` alike.
pub(super) fn call1(function: &Function, this: &JsValue, argument: &JsValue) -> Result<Option<JsValue>, Throws> {
    js_call1(function, this, argument).map_err(|_| Throws)
}

pub(super) fn is_array(value: &JsValue) -> Result<bool, Throws> {
    js_is_array(value).map_err(|_| Throws)
}

/// Whether an object's prototype is `Object.prototype` or null, as for an object literal
/// or `JSON.parse` output (not a Date, Map, class instance…).
pub(super) fn is_plain_prototype(value: &JsValue) -> Result<bool, Throws> {
    // `None`: a null prototype.
    let prototype = js_prototype_of(value).map_err(|_| Throws)?;
    Ok(prototype.map_or(true, |prototype| OBJECT_PROTOTYPE.with(|plain| JsValue::from(prototype) == *plain)))
}

/// `[key, value]` pairs of an object's own enumerable string-keyed members, each read
/// once; the pairs are fresh arrays, so reading them runs no caller code.
pub(super) fn object_entries(value: &JsValue) -> Result<Vec<(JsString, JsValue)>, Throws> {
    let entries = js_object_entries(value).map_err(|_| Throws)?.ok_or(Throws)?;
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
    let keys = js_object_keys(value).map_err(|_| NamesError::Throws)?.ok_or(NamesError::Throws)?;
    let count = keys.length() as usize;
    if count > max_names {
        return Err(NamesError::TooLarge);
    }
    let joined = NUL.with(|nul| js_join(&keys, nul));
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
        get(object, &self.keys.get(index as u32))
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
    let length = LENGTH.with(|name| get(value, name)).map_err(|_| ItemsError::Throws)?;
    let length = length.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).ok_or(ItemsError::Throws)?;
    if length > max as f64 {
        return Err(ItemsError::TooLong(length));
    }
    (0..length as u32).map(|index| get_index(value, index).map_err(|_| ItemsError::Throws)).collect()
}

/// The items of an array (or a Proxy of one) as its own properties only, each read once:
/// a hole (an index the array does not have as its own) is [`OwnItemsError::Hole`], never
/// filled from `Array.prototype` or `Object.prototype` as `Reflect.get` would fill it. A
/// length over `max` is refused before anything is read.
pub(super) fn own_array_items(value: &JsValue, max: usize) -> Result<Vec<JsValue>, OwnItemsError> {
    let length = LENGTH.with(|name| get(value, name)).map_err(|_| OwnItemsError::Throws)?;
    let length = length.as_f64().filter(|n| *n >= 0.0 && n.fract() == 0.0).ok_or(OwnItemsError::Throws)?;
    if length > max as f64 {
        return Err(OwnItemsError::TooLong(length));
    }
    (0..length as u32)
        .map(|index| {
            if !js_has_own(value, index).map_err(|_| OwnItemsError::Throws)? {
                return Err(OwnItemsError::Hole(index));
            }
            get_index(value, index).map_err(|_| OwnItemsError::Throws)
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
    get_index(value, index)
}

/// The `entries` method of a map-like (`Headers`, `Map`: `entries()` and `get()` are
/// methods); `None` for anything else.
pub(super) fn map_like(value: &JsValue) -> Option<Function> {
    // Read as `js_get` answers: `null` and `undefined` are alike no method, so no descriptor is
    // asked for; and `get` only once `entries` is one (a plain object of headers, the usual
    // case, costs one caught read, not four).
    let method = |name: &JsString| js_get(value, name).ok().flatten().and_then(|f| f.dyn_into::<Function>().ok());
    let entries = ENTRIES.with(method)?;
    GET.with(method)?;
    Some(entries)
}

/// The entries of a map-like, by its `entries` method ([`map_like`]), iterated, at most `max`.
pub(super) fn map_like_entries(value: &JsValue, entries: &Function, max: usize) -> Result<Vec<JsValue>, ItemsError> {
    let iterator = call0(entries, value).map_err(|_| ItemsError::Throws)?;
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
        if JsValue::from(js_prototype_of(value).ok()??) != *prototype {
            return None;
        }
        let mut values: [JsValue; N] = std::array::from_fn(|_| JsValue::NULL);
        for (slot, name) in values.iter_mut().zip(names) {
            // `null`: the header is absent (`Headers.prototype.get` answers no `undefined`).
            *slot = call1(get, value, name).ok()?.unwrap_or(JsValue::NULL);
        }
        Some(values)
    })
}

/// What `value.<name>()` returns when it is a method that returns a string (the JS string
/// itself); `None` when there is no such method, it returns something else, or it (or a
/// getter) throws.
pub(super) fn method_text(value: &JsValue, name: &str) -> Option<JsString> {
    let method = get(value, &name.into()).ok()?.dyn_into::<Function>().ok()?;
    call0(&method, value).ok()?.dyn_into::<JsString>().ok()
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
