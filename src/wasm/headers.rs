//! The `x-access-*` headers of a received callback, out of whatever the
//! caller's framework gives: a plain object, `Headers`, a `Map`, or
//! `[name, value]` pairs.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};

use super::gateway::{array_items, is_array, object_entries, type_name, ItemsError};
use super::options::THROWS;
use crate::callback::ReceivedHeaders;
use crate::error::Error;
use crate::request::signing::{HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};

/// Most header entries read: Node keeps at most 2000 headers by default.
const MAX_HEADER_ENTRIES: usize = 10_000;

/// The `x-access-*` headers out of a plain object, `Headers`, `Map` or `[name, value]` pairs.
/// Other headers are ignored; one of ours must be a single string.
fn header_pairs_from_js(headers: &JsValue) -> Result<Vec<(String, String)>, Error> {
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

/// The received headers, checked by the core.
pub(super) fn received_headers(headers: &JsValue) -> Result<ReceivedHeaders, Error> {
    let pairs = header_pairs_from_js(headers)?;
    ReceivedHeaders::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())))
}
