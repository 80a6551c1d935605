//! JSON bodies: the tree canonical messages are built from, and its readers.
//! Numbers keep their exact source text, object keys keep their order,
//! duplicate keys are refused, and size and nesting depth are bounded before
//! anything recurses.
//!
//! - `value`: the [`Json`] tree, [`Limits`], the shared [`Leaf`], JSON text out;
//! - `rules`: the number grammar and the duplicate-key check every reader uses;
//! - `reader`: the one-pass event reader over a `Sink`, which gives up on
//!   anything unusual; `scan`: its search for a string's end, a block at a time;
//! - `tree`: the reader's sink that builds the tree;
//! - `full`: serde_json's path, which words every error exactly.
//!
//! [`parse_body`] makes the choice between the one-pass reader and serde_json.

pub(crate) mod full;
pub(crate) mod reader;
pub(crate) mod rules;
mod scan;
pub(crate) mod tree;
pub(crate) mod value;

pub use full::parse_value;
#[cfg(target_arch = "wasm32")]
pub(crate) use full::PathNode;
pub(crate) use value::Leaf;
pub use value::{Json, Limits, MAX_SAFE_INTEGER};

use crate::error::{Error, Result};

/// Parses a request or callback body. Empty text is the empty object (spec,
/// Authentication step 8); anything else must be a JSON object.
pub fn parse_body(text: &str, limits: &Limits) -> Result<Json<'static>> {
    read_body(text, limits).map(Json::into_owned)
}

/// [`parse_body`], with the tree borrowing from `text` every key, string and number
/// written there as it reads: what the package's own readings use (a callback's tree
/// then costs an allocation per container, not one per text).
pub(crate) fn read_body<'a>(text: &'a str, limits: &Limits) -> Result<Json<'a>> {
    if text.is_empty() {
        return Ok(Json::Object(Vec::new()));
    }
    // Plain valid JSON takes the one-pass reader; anything else serde_json, which reports it.
    if let Some(value @ Json::Object(_)) = tree::tree_from_text(text, limits) {
        return Ok(value);
    }
    full_body(text, limits)
}

/// The full path of [`parse_body`]: serde_json, which words every error.
fn full_body(text: &str, limits: &Limits) -> Result<Json<'static>> {
    let value = parse_value(text, limits)?;
    match value {
        Json::Object(_) => Ok(value),
        other => Err(Error::BodyNotObject { found: other.kind() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::full::NUMBER_TOKEN;
    use crate::json::rules::{is_json_number, SCAN_MEMBERS};

    fn parse(text: &str) -> Result<Json<'static>> {
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
        fn value_of(text: &str) -> Json<'static> {
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
