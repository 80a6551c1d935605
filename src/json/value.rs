//! The JSON value itself: the [`Json`] tree, the [`Limits`] every body is
//! read within, the [`Leaf`] the readers and the canonical writer share, and
//! compact JSON text and serialization for JS.

use std::borrow::Cow;

/// A parsed JSON value. Its texts are borrowed from the JSON text it was read
/// from where they appear there as they are (a key or string without an escape,
/// a number), else owned; `Json<'static>` owns them all ([`Json::into_owned`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// The number exactly as written in the JSON text.
    Number(Cow<'a, str>),
    /// A string, unescaped.
    String(Cow<'a, str>),
    /// Items in order.
    Array(Vec<Json<'a>>),
    /// Members in source order.
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// Bounds applied to every body before and while it is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest body accepted, in UTF-8 bytes.
    pub max_bytes: usize,
    /// Deepest nesting of objects and arrays accepted.
    pub max_depth: usize,
}

impl Limits {
    /// 64 KiB for bodies to sign, validate or canonicalize: a request at every
    /// limit of the spec (four 2048-character URLs, a 1024-character user agent,
    /// 255-character names…) stays within about 20 KB even in 3-byte characters.
    pub const DEFAULT_MAX_BYTES: usize = 64 << 10;
    /// 16 KiB for a received callback (the default of `VerifyOptions`): the
    /// spec's callbacks are about 1 KB (1.2 KB with display data).
    pub const CALLBACK_MAX_BYTES: usize = 16 << 10;

    /// The limits a received callback is read with by default.
    pub const fn callback() -> Limits {
        Limits { max_bytes: Self::CALLBACK_MAX_BYTES, max_depth: Self::DEFAULT_MAX_DEPTH }
    }
    /// The service's bodies nest 4 levels; 64 leaves generous room.
    pub const DEFAULT_MAX_DEPTH: usize = 64;
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: Self::DEFAULT_MAX_BYTES, max_depth: Self::DEFAULT_MAX_DEPTH }
    }
}

impl<'a> Json<'a> {
    /// The same value with every text owned, free of the text it was read from.
    pub fn into_owned(self) -> Json<'static> {
        let owned = |text: Cow<'a, str>| Cow::Owned(text.into_owned());
        match self {
            Json::Null => Json::Null,
            Json::Bool(b) => Json::Bool(b),
            Json::Number(text) => Json::Number(owned(text)),
            Json::String(text) => Json::String(owned(text)),
            Json::Array(items) => Json::Array(items.into_iter().map(Json::into_owned).collect()),
            Json::Object(members) => {
                Json::Object(members.into_iter().map(|(key, value)| (owned(key), value.into_owned())).collect())
            }
        }
    }

    /// The JSON type name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Array(_) => Json::container_kind(true),
            Json::Object(_) => Json::container_kind(false),
            leaf => leaf.leaf().map_or("", Leaf::kind),
        }
    }

    /// The JSON type name of an array (`true`) or an object, for messages.
    pub(crate) fn container_kind(array: bool) -> &'static str {
        if array {
            "an array"
        } else {
            "an object"
        }
    }

    /// Member `key` of an object, if this is one and has it.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The text of a string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a [`Leaf`], or `None` for an object or array.
    pub(crate) fn leaf(&self) -> Option<Leaf<'_>> {
        match self {
            Json::Null => Some(Leaf::Null),
            Json::Bool(b) => Some(Leaf::Bool(*b)),
            Json::Number(text) => Some(Leaf::Number(text)),
            Json::String(text) => Some(Leaf::String(text)),
            Json::Object(_) | Json::Array(_) => None,
        }
    }

    /// Compact JSON text, as `JSON.stringify` writes it.
    pub fn to_json_text(&self) -> String {
        let mut out = String::new();
        write_json(self, &mut out);
        out
    }
}

/// A value that is not a container, borrowed: what the one-pass reader hands
/// its sink, and what a canonical entry writes after its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leaf<'a> {
    Null,
    Bool(bool),
    /// The number's JSON text.
    Number(&'a str),
    String(&'a str),
}

impl Leaf<'_> {
    /// The JSON type name, for messages.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Leaf::Null => "null",
            Leaf::Bool(_) => "a boolean",
            Leaf::Number(_) => "a number",
            Leaf::String(_) => "a string",
        }
    }
}

/// Largest integer a JS number holds exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// Serializes as the value a JS `JSON.parse` would give, except that an integer
/// beyond 2^53 becomes its exact decimal text rather than a rounded number.
impl serde::Serialize for Json<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(text) => match text.parse::<i64>() {
                Ok(i) if (-MAX_SAFE_INTEGER..=MAX_SAFE_INTEGER).contains(&i) => serializer.serialize_i64(i),
                Ok(_) => serializer.serialize_str(text),
                Err(_) if !text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => serializer.serialize_str(text),
                Err(_) => serializer.serialize_f64(text.parse::<f64>().unwrap_or(f64::NAN)),
            },
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

fn write_json(value: &Json<'_>, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(text) => out.push_str(text),
        Json::String(s) => write_json_string(s, out),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_string(key, out);
                out.push(':');
                write_json(item, out);
            }
            out.push('}');
        }
    }
}

fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
