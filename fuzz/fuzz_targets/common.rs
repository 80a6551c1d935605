//! Helpers shared by the fuzz targets (included with `#[path]`, not a crate).

#![allow(dead_code)]

use payment_intake::{Json, Order};

/// The timestamp every target signs or canonicalizes with.
pub const TIMESTAMP: &str = "1700000000";

/// Bytes as text: UTF-8 when they are, otherwise the lossy reading, so no input is wasted.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Number of leaves (non-container values) in a tree.
pub fn leaves(value: &Json) -> usize {
    match value {
        Json::Object(members) => members.iter().map(|(_, v)| leaves(v)).sum(),
        Json::Array(items) => items.iter().map(leaves).sum(),
        _ => 1,
    }
}

/// Calls `check` on every number's text in the tree.
pub fn each_number(value: &Json, check: &mut dyn FnMut(&str)) {
    match value {
        Json::Object(members) => members.iter().for_each(|(_, v)| each_number(v, check)),
        Json::Array(items) => items.iter().for_each(|v| each_number(v, check)),
        Json::Number(text) => check(text),
        _ => {}
    }
}

/// JSON's number grammar, written independently of the library's.
pub fn is_json_number(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let digits = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(i),
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return false;
        }
        i = end;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return false;
        }
        i = end;
    }
    i == b.len()
}

/// Whether `entries` are in ascending order for `order`.
pub fn is_sorted(entries: &[String], order: Order) -> bool {
    entries.windows(2).all(|pair| match order {
        Order::CodePoint => pair[0] <= pair[1],
        Order::Utf16 => pair[0].encode_utf16().le(pair[1].encode_utf16()),
    })
}
