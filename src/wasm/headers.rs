//! The `x-access-*` headers of a received callback, out of whatever the
//! caller's framework gives: a plain object, `Headers`, a `Map`, or
//! `[name, value]` pairs. The rules (which names are ours, what a value must
//! be) are plain Rust, tested natively; the reading goes through the gateway.

use super::options::Member;
use crate::error::Error;
use crate::spec::headers::{HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};

/// Most header entries read: Node keeps at most 2000 headers by default.
const MAX_HEADER_ENTRIES: usize = 10_000;
/// Most UTF-16 units in the names of a plain object of headers, in all: Node refuses
/// more than 16 KiB of headers by default.
const MAX_HEADER_NAME_UNITS: u32 = 1 << 20;

/// The spec's name of a header of ours, given in any letter case with spaces around.
fn our_header(name: &str) -> Option<&'static str> {
    [HEADER_TIMESTAMP, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TOKEN]
        .into_iter()
        .find(|wanted| name.trim().eq_ignore_ascii_case(wanted))
}

/// The value of header `name` (one of ours): a single string; `is_array` says an object
/// value is an array (several values sent under one name).
fn header_value<O>(name: &'static str, value: Member<O>, is_array: bool) -> Result<String, Error> {
    let reason = match value {
        Member::Text(text) => return Ok(text),
        Member::Other(..) if is_array => "is an array (several values?), not a single string".to_owned(),
        other => format!("is {}, not a string", other.type_name()),
    };
    Err(Error::InvalidHeader { name: name.into(), reason })
}

fn refused(reason: String) -> Error {
    Error::InvalidHeader { name: "headers".into(), reason }
}

/// Node's `req.rawHeaders` (names and values in turn) given for `req.headers`.
fn raw_headers() -> Error {
    refused(
        "must hold [name, value] pairs, not names and values in turn (for Node, pass req.headers, not req.rawHeaders)"
            .into(),
    )
}

#[cfg(target_arch = "wasm32")]
pub(super) use reading::received_headers;

#[cfg(target_arch = "wasm32")]
mod reading {
    use wasm_bindgen::JsValue;

    use super::super::gateway::{
        array_items, fetch_headers_values, is_array, item, long_text_member, map_like, map_like_entries, object_keys,
        ItemsError, NamesError,
    };
    use super::super::options::THROWS;
    use super::{header_value, our_header, raw_headers, refused, MAX_HEADER_ENTRIES, MAX_HEADER_NAME_UNITS};
    use crate::callback::ReceivedHeaders;
    use crate::error::Error;
    use crate::spec::headers::HEADERS;

    thread_local! {
        /// Our four header names as JS strings, made once.
        static OUR_NAMES: [JsValue; 4] = HEADERS.map(JsValue::from_str);
    }

    /// The received headers, checked by the core.
    pub(in super::super) fn received_headers(headers: &JsValue) -> Result<ReceivedHeaders, Error> {
        let pairs = header_pairs(headers)?;
        ReceivedHeaders::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    }

    /// The headers of ours, out of any of the forms; other headers are ignored.
    fn header_pairs(headers: &JsValue) -> Result<Vec<(String, String)>, Error> {
        let not_readable = || refused("must be an object, Headers, Map or [name, value] pairs".into());
        let throws = || refused(THROWS.into());
        let items_error = |e: ItemsError| match e {
            ItemsError::Throws => throws(),
            ItemsError::TooLong(_) => refused(format!("has more than {MAX_HEADER_ENTRIES} entries")),
            ItemsError::NotIterable => not_readable(),
        };
        if !headers.is_object() {
            return Err(not_readable());
        }
        let mut pairs = Vec::new();
        // Keeps a header of ours, given its name and a way to read its value (read only then).
        let mut accept = |name: &str, value: &dyn Fn() -> Result<JsValue, Error>| -> Result<(), Error> {
            let Some(ours) = our_header(name) else { return Ok(()) };
            let value = value()?;
            let array = value.is_object() && is_array(&value).map_err(|_| throws())?;
            pairs.push((name.to_owned(), header_value(ours, long_text_member(value), array)?));
            Ok(())
        };
        let entries = if is_array(headers).map_err(|_| throws())? {
            let items = array_items(headers, MAX_HEADER_ENTRIES).map_err(items_error)?;
            if items.first().is_some_and(JsValue::is_string) {
                return Err(raw_headers());
            }
            items
        } else if let Some(entries) = map_like(headers) {
            // A Fetch `Headers`: our four names asked of it, not every header iterated.
            if let Some(values) = OUR_NAMES.with(|names| fetch_headers_values(headers, names)) {
                for (name, value) in HEADERS.into_iter().zip(values) {
                    if !value.is_null() {
                        accept(name, &|| Ok(value.clone()))?;
                    }
                }
                return Ok(pairs);
            }
            map_like_entries(headers, &entries, MAX_HEADER_ENTRIES).map_err(items_error)?
        } else {
            // A plain object (as Node's req.headers): its names in one crossing, and only
            // the values of ours read.
            let keys = object_keys(headers, MAX_HEADER_ENTRIES, MAX_HEADER_NAME_UNITS).map_err(|e| match e {
                NamesError::Throws => throws(),
                NamesError::TooLarge => refused(format!(
                    "has more than {MAX_HEADER_ENTRIES} entries, or names of more than {MAX_HEADER_NAME_UNITS} characters in all"
                )),
            })?;
            for (index, name) in keys.names().iter().enumerate() {
                accept(name, &|| keys.value(headers, index).map_err(|_| throws()))?;
            }
            return Ok(pairs);
        };
        for entry in entries {
            if !is_array(&entry).map_err(|_| throws())? {
                continue;
            }
            let Some(name) = item(&entry, 0).map_err(|_| throws())?.as_string() else { continue };
            accept(&name, &|| item(&entry, 1).map_err(|_| throws()))?;
        }
        Ok(pairs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_headers_in_any_case_and_with_spaces() {
        assert_eq!(our_header("X-Access-Signature"), Some(HEADER_SIGNATURE));
        assert_eq!(our_header(" x-access-token "), Some(HEADER_TOKEN));
        assert_eq!(our_header("X-ACCESS-TIMESTAMP"), Some(HEADER_TIMESTAMP));
        assert_eq!(our_header("x-access-merchant-id"), Some(HEADER_MERCHANT_ID));
        assert_eq!(our_header("x-access-tokens"), None);
        assert_eq!(our_header("content-type"), None);
    }

    #[test]
    fn a_value_of_ours_is_one_string() {
        let value = header_value::<()>(HEADER_TOKEN, Member::Text("abc".into()), false);
        assert_eq!(value.ok().as_deref(), Some("abc"));
        let array = header_value(HEADER_TOKEN, Member::Other("an object", ()), true).err().map(|e| e.to_string());
        assert!(array.unwrap_or_default().contains("is an array (several values?)"));
        let number = header_value::<()>(HEADER_TIMESTAMP, Member::Number(1.0), false).err();
        assert!(number.map(|e| e.to_string()).unwrap_or_default().contains("is a number, not a string"));
        assert!(raw_headers().to_string().contains("req.rawHeaders"));
    }
}
