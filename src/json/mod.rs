//! The JSON tree that canonical messages are built from. Numbers keep their
//! exact source text, object keys keep their order, duplicate keys are
//! refused, and size and nesting depth are bounded before anything recurses.

pub(crate) mod lexer;
pub(crate) mod text;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::error::{Error, Result};

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// The number exactly as written in the JSON text.
    Number(String),
    /// A string, unescaped.
    String(String),
    /// Items in order.
    Array(Vec<Json>),
    /// Members in source order.
    Object(Vec<(String, Json)>),
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

impl Json {
    /// The JSON type name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// Member `key` of an object, if this is one and has it.
    pub fn get(&self, key: &str) -> Option<&Json> {
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

    /// Compact JSON text, as `JSON.stringify` writes it.
    pub fn to_json_text(&self) -> String {
        let mut out = String::new();
        write_json(self, &mut out);
        out
    }
}

/// Largest integer a JS number holds exactly (2^53 - 1).
pub const MAX_SAFE_INTEGER: i64 = 9_007_199_254_740_991;

/// Serializes as the value a JS `JSON.parse` would give, except that an integer
/// beyond 2^53 becomes its exact decimal text rather than a rounded number.
impl serde::Serialize for Json {
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

/// Parses a request or callback body. Empty text is the empty object (spec,
/// Authentication step 8); anything else must be a JSON object.
pub fn parse_body(text: &str, limits: &Limits) -> Result<Json> {
    if text.is_empty() {
        return Ok(Json::Object(Vec::new()));
    }
    // Plain valid JSON takes the one-pass reader; anything else serde_json, which reports it.
    if let Some(value @ Json::Object(_)) = crate::json::text::tree_from_text(text, limits) {
        return Ok(value);
    }
    let value = parse_value(text, limits)?;
    match value {
        Json::Object(_) => Ok(value),
        other => Err(Error::BodyNotObject { found: other.kind() }),
    }
}

/// Parses any JSON value within the limits.
pub fn parse_value(text: &str, limits: &Limits) -> Result<Json> {
    if text.len() > limits.max_bytes {
        return Err(Error::BodyTooLarge { limit: limits.max_bytes, actual: text.len() });
    }
    let failure = RefCell::new(None);
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let seed = NodeSeed { depth: 0, limits, path: &PathNode::Root, failure: &failure };
    let parsed = seed.deserialize(&mut deserializer).and_then(|v| deserializer.end().map(|_| v));
    match parsed {
        Ok(value) => Ok(value),
        Err(json_error) => {
            Err(failure.into_inner().unwrap_or_else(|| Error::InvalidJson { message: json_error.to_string() }))
        }
    }
}

/// A position in the tree, kept on the stack while parsing and rendered only
/// when an error needs it.
pub(crate) enum PathNode<'a> {
    Root,
    Key(&'a PathNode<'a>, &'a str),
    Index(&'a PathNode<'a>, usize),
}

impl fmt::Display for PathNode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathNode::Root => Ok(()),
            PathNode::Key(parent, key) => write_segment(f, parent, key),
            PathNode::Index(parent, index) => write_segment(f, parent, index),
        }
    }
}

fn write_segment(f: &mut fmt::Formatter<'_>, parent: &PathNode<'_>, segment: &dyn fmt::Display) -> fmt::Result {
    if matches!(parent, PathNode::Root) {
        write!(f, "{segment}")
    } else {
        write!(f, "{parent}.{segment}")
    }
}

/// serde_json's `arbitrary_precision` feature hands numbers to visitors as a
/// one-member map under this key; `serde_json::Value` relies on the same.
pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

struct NodeSeed<'a> {
    depth: usize,
    limits: &'a Limits,
    path: &'a PathNode<'a>,
    failure: &'a RefCell<Option<Error>>,
}

impl NodeSeed<'_> {
    fn fail<E: de::Error>(&self, error: Error) -> E {
        let message = error.to_string();
        *self.failure.borrow_mut() = Some(error);
        E::custom(message)
    }

    fn nested<E: de::Error>(&self) -> std::result::Result<usize, E> {
        let depth = self.depth + 1;
        if depth > self.limits.max_depth {
            Err(self.fail(Error::BodyTooDeep { limit: self.limits.max_depth }))
        } else {
            Ok(depth)
        }
    }
}

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Json;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Json, E> {
        Ok(Json::String(v))
    }

    // Only reached without `arbitrary_precision`; kept exact all the same.
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v.to_string()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Json, E> {
        Ok(Json::Number(v.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Json, A::Error> {
        let depth = self.nested()?;
        let mut items = Vec::new();
        loop {
            let path = PathNode::Index(self.path, items.len());
            let seed = NodeSeed { depth, limits: self.limits, path: &path, failure: self.failure };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => return Ok(Json::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        // Small objects (nearly all) scan their few members; past SCAN_MEMBERS, an
        // ordered set, so an object of 100,000 members costs n·log n comparisons,
        // not n², and no hash an attacker could collide.
        let mut seen: Option<BTreeSet<String>> = None;
        while let Some(key) = map.next_key_seed(KeySeed)? {
            let key = match key {
                Key::Member(key) => key,
                Key::NumberMarker => {
                    let text: String = map.next_value()?;
                    if !members.is_empty() || !is_json_number(&text) {
                        return Err(de::Error::custom("malformed number from the JSON reader"));
                    }
                    return Ok(Json::Number(text));
                }
            };
            let depth = self.nested()?;
            let path = PathNode::Key(self.path, &key);
            let duplicate = match &mut seen {
                Some(seen) => !seen.insert(key.clone()),
                None => {
                    let duplicate = members.iter().any(|(member, _)| *member == key);
                    if members.len() >= SCAN_MEMBERS {
                        let mut set: BTreeSet<String> = members.iter().map(|(member, _)| member.clone()).collect();
                        set.insert(key.clone());
                        seen = Some(set);
                    }
                    duplicate
                }
            };
            if duplicate {
                return Err(self.fail(Error::DuplicateKey { path: path.to_string() }));
            }
            let value =
                map.next_value_seed(NodeSeed { depth, limits: self.limits, path: &path, failure: self.failure })?;
            members.push((key, value));
        }
        // An empty object still counts as a level.
        self.nested()?;
        Ok(Json::Object(members))
    }
}

/// Members an object's duplicate check scans before it switches to a set.
const SCAN_MEMBERS: usize = 16;

/// An object key as serde_json hands it over: a member name, or the marker of a number.
enum Key {
    Member(String),
    NumberMarker,
}

/// Tells a real member key from the number marker, even when the JSON text
/// has a member spelled like the marker: serde_json answers `deserialize_option`
/// on a real key with `visit_some`, but on the marker with the bare string.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Key, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_some<D: de::Deserializer<'de>>(self, deserializer: D) -> std::result::Result<Key, D::Error> {
        <String as de::Deserialize>::deserialize(deserializer).map(Key::Member)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Key, E> {
        if v == NUMBER_TOKEN {
            Ok(Key::NumberMarker)
        } else {
            Err(E::custom("unexpected object key form"))
        }
    }
}

/// True for text in JSON's number grammar: `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`.
pub(crate) fn is_json_number(text: &str) -> bool {
    fn digits(b: &[u8], mut i: usize) -> usize {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    }
    let b = text.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    match b.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => i = digits(b, i),
        _ => return false,
    }
    if b.get(i) == Some(&b'.') {
        let end = digits(b, i + 1);
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
        let end = digits(b, i);
        if end == i {
            return false;
        }
        i = end;
    }
    i == b.len()
}

fn write_json(value: &Json, out: &mut String) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Json> {
        parse_body(text, &Limits::default())
    }

    #[test]
    fn numbers_keep_their_text() {
        let big = "123456789012345678901234567890";
        let body = parse(&format!(r#"{{"a":{big},"b":1.0,"c":-0,"d":1E+2}}"#)).unwrap();
        assert_eq!(body.get("a"), Some(&Json::Number(big.into())));
        assert_eq!(body.get("b"), Some(&Json::Number("1.0".into())));
        assert_eq!(body.get("c"), Some(&Json::Number("-0".into())));
        // serde_json writes the exponent marker in lower case; the value is unchanged.
        assert_eq!(body.get("d"), Some(&Json::Number("1e+2".into())));
    }

    #[test]
    fn empty_text_is_empty_object_and_top_level_must_be_object() {
        assert_eq!(parse("").unwrap(), Json::Object(vec![]));
        assert_eq!(parse("[]").unwrap_err().code(), "BODY_NOT_OBJECT");
        assert_eq!(parse("  ").unwrap_err().code(), "INVALID_JSON");
        assert_eq!(parse("{} x").unwrap_err().code(), "INVALID_JSON");
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_path() {
        let err = parse(r#"{"a":{"b":[{"c":1,"c":2}]}}"#).unwrap_err();
        assert_eq!(err, Error::DuplicateKey { path: "a.b.0.c".into() });
    }

    #[test]
    fn duplicates_are_found_before_and_after_the_switch_to_a_set() {
        for members in [2, SCAN_MEMBERS, SCAN_MEMBERS + 1, SCAN_MEMBERS + 2, 3 * SCAN_MEMBERS] {
            for repeated in [0, members / 2, members - 1] {
                let mut keys: Vec<String> = (0..members).map(|i| format!(r#""k{i}":0"#)).collect();
                keys.push(format!(r#""k{repeated}":1"#));
                let err = parse(&format!("{{{}}}", keys.join(","))).unwrap_err();
                assert_eq!(err, Error::DuplicateKey { path: format!("k{repeated}") }, "{members} members");
            }
            let unique: Vec<String> = (0..members + 1).map(|i| format!(r#""k{i}":0"#)).collect();
            assert!(parse(&format!("{{{}}}", unique.join(","))).is_ok(), "{members} members");
        }
    }

    /// Regression: duplicate keys were found by scanning every earlier member,
    /// so one object of n members took n²/2 key comparisons: a 1 MiB body of
    /// ~100,000 members kept a core busy for many seconds before any signature
    /// check. The count here would take minutes that way.
    #[test]
    fn many_members_parse_in_n_log_n() {
        let n = 200_000;
        let members: Vec<String> = (0..n).map(|i| format!(r#""k{i}":0"#)).collect();
        let text = format!("{{{}}}", members.join(","));
        let limits = Limits { max_bytes: 8 << 20, ..Limits::default() };
        let started = std::time::Instant::now();
        let Json::Object(parsed) = parse_body(&text, &limits).unwrap() else { panic!("an object") };
        assert_eq!(parsed.len(), n);
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "took {:?}", started.elapsed());
        let repeated = format!("{{{},\"k7\":1}}", members.join(","));
        assert_eq!(parse_body(&repeated, &limits).unwrap_err(), Error::DuplicateKey { path: "k7".into() });
    }

    #[test]
    fn depth_and_size_limits() {
        let limits = Limits { max_bytes: 100, max_depth: 3 };
        assert!(parse_body(r#"{"a":{"b":{}}}"#, &limits).is_ok());
        assert_eq!(parse_body(r#"{"a":{"b":{"c":{}}}}"#, &limits).unwrap_err().code(), "BODY_TOO_DEEP");
        assert_eq!(parse_body(r#"{"a":[[[1]]]}"#, &limits).unwrap_err().code(), "BODY_TOO_DEEP");
        let long = format!(r#"{{"a":"{}"}}"#, "x".repeat(100));
        assert_eq!(parse_body(&long, &limits).unwrap_err(), Error::BodyTooLarge { limit: 100, actual: long.len() });
        // 200,000 bytes of nesting: over the default size too, so read with 1 MiB.
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let roomy = Limits { max_bytes: 1 << 20, ..Limits::default() };
        assert_eq!(parse_body(&deep, &roomy).unwrap_err().code(), "BODY_TOO_DEEP");
        assert_eq!(parse(&deep).unwrap_err().code(), "BODY_TOO_LARGE");
    }

    #[test]
    fn number_grammar() {
        for ok in ["0", "-0", "12", "1.5", "1e5", "1E+5", "-2.5e-3"] {
            assert!(is_json_number(ok), "{ok}");
        }
        for bad in ["", "-", "01", "1.", ".5", "1e", "+1", "1x", "abc", "NaN"] {
            assert!(!is_json_number(bad), "{bad}");
        }
    }

    #[test]
    fn lone_surrogates_are_invalid_json() {
        assert_eq!(parse(r#"{"a":"\ud800"}"#).unwrap_err().code(), "INVALID_JSON");
    }

    #[test]
    fn a_member_named_like_the_number_token_is_only_special_first() {
        let body = parse(r#"{"x":1,"$serde_json::private::Number":"2"}"#).unwrap();
        assert_eq!(body.get(NUMBER_TOKEN), Some(&Json::String("2".into())));
    }

    /// Regression: serde_json's arbitrary_precision hands numbers over as a map
    /// under this marker key, and a body whose own object began with a member so
    /// named was read as a number (`{"a":{"$serde_json::private::Number":"5"}}`
    /// became `{"a":5}`), or refused, where `JSON.parse` sees an object.
    #[test]
    fn a_member_named_like_the_number_token_is_an_ordinary_key() {
        let member = |value: &str| Json::Object(vec![(NUMBER_TOKEN.into(), value_of(value))]);
        fn value_of(text: &str) -> Json {
            parse(&format!(r#"{{"v":{text}}}"#)).unwrap().get("v").cloned().unwrap()
        }
        for value in [r#""5""#, "5", r#""x""#, "null", "{}", "[1]"] {
            let text = format!(r#"{{"a":{{"{NUMBER_TOKEN}":{value}}}}}"#);
            assert_eq!(parse(&text).unwrap(), Json::Object(vec![("a".into(), member(value))]), "{text}");
        }
        let top = parse(&format!(r#"{{"{NUMBER_TOKEN}":"1"}}"#)).unwrap();
        assert_eq!(top, member(r#""1""#));
        // Escapes in the key change nothing.
        let escaped = parse(r#"{"\u0024serde_json::private::Number":"1"}"#).unwrap();
        assert_eq!(escaped, top);
        // Real numbers still arrive exactly.
        assert_eq!(value_of("1.50"), Json::Number("1.50".into()));
    }

    #[test]
    fn writes_compact_json_that_parses_back() {
        let text = r#"{"a":"q\"\\\n\u0001é😀","b":[1,2.50,null,true,false,{}],"c":{}}"#;
        let body = parse(text).unwrap();
        let written = body.to_json_text();
        assert_eq!(written, "{\"a\":\"q\\\"\\\\\\n\\u0001é😀\",\"b\":[1,2.50,null,true,false,{}],\"c\":{}}");
        assert_eq!(parse(&written).unwrap(), body);
    }
}
