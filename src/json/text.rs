//! JSON text straight into the [`Json`] tree, without serde: the fast path of
//! [`parse_body`](crate::json::parse_body). It takes only plain valid JSON
//! within the limits and gives up (`None`) on anything else (a duplicate key,
//! too deep, a lone surrogate, serde_json's number marker as a key...), so that
//! the serde_json path reports the exact error. Both paths are compared on every
//! vector and reference body, and by the `canonical` fuzz target.

use crate::json::lexer::{Lexer, MAX_READER_DEPTH};
use crate::json::{Json, Limits, NUMBER_TOKEN};

/// The tree of JSON text within `limits`, or `None` to take the full path.
pub(crate) fn tree_from_text(text: &str, limits: &Limits) -> Option<Json> {
    if text.len() > limits.max_bytes {
        return None;
    }
    let mut reader = TreeReader { lex: Lexer::new(text), depth: 0, max_depth: limits.max_depth.min(MAX_READER_DEPTH) };
    let value = reader.value()?;
    reader.lex.at_end().then_some(value)
}

struct TreeReader<'a> {
    lex: Lexer<'a>,
    depth: usize,
    max_depth: usize,
}

impl TreeReader<'_> {
    fn value(&mut self) -> Option<Json> {
        self.lex.skip_ws();
        match self.lex.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => Some(Json::String(self.lex.string()?.into_owned())),
            b't' => self.lex.keyword("true").map(|()| Json::Bool(true)),
            b'f' => self.lex.keyword("false").map(|()| Json::Bool(false)),
            b'n' => self.lex.keyword("null").map(|()| Json::Null),
            b'-' | b'0'..=b'9' => Some(Json::Number(number_as_serde_writes_it(self.lex.number()?))),
            _ => None,
        }
    }

    /// Counts a level as the full path does (an empty container is one too).
    fn enter(&mut self) -> Option<()> {
        self.lex.i += 1;
        self.depth += 1;
        (self.depth <= self.max_depth).then_some(())
    }

    fn object(&mut self) -> Option<Json> {
        self.enter()?;
        let mut members: Vec<(String, Json)> = Vec::new();
        if !self.lex.closes_at_once(b'}') {
            loop {
                let key = self.lex.member_name()?.into_owned();
                if key == NUMBER_TOKEN {
                    return None;
                }
                let value = self.value()?;
                members.push((key, value));
                if !self.lex.another_follows(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        unique_keys(&members).then_some(Json::Object(members))
    }

    fn array(&mut self) -> Option<Json> {
        self.enter()?;
        let mut items = Vec::new();
        if !self.lex.closes_at_once(b']') {
            loop {
                items.push(self.value()?);
                if !self.lex.another_follows(b']')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Some(Json::Array(items))
    }
}

/// A number's text as serde_json (`arbitrary_precision`) keeps it: as written,
/// but for its exponent, written `e` with an explicit sign (`1E2` is `1e+2`).
fn number_as_serde_writes_it(text: &str) -> String {
    let Some(at) = text.find(['e', 'E']) else { return text.to_owned() };
    let (mantissa, exponent) = (&text[..at], &text[at + 1..]);
    let sign = if exponent.starts_with(['+', '-']) { "" } else { "+" };
    let mut written = String::with_capacity(text.len() + 1);
    written.push_str(mantissa);
    written.push('e');
    written.push_str(sign);
    written.push_str(exponent);
    written
}

/// No key twice: a small object compared pairwise, a large one through sorted references.
fn unique_keys(members: &[(String, Json)]) -> bool {
    if members.len() <= 16 {
        return members.iter().enumerate().all(|(i, (key, _))| !members[..i].iter().any(|(other, _)| other == key));
    }
    let mut keys: Vec<&str> = members.iter().map(|(key, _)| key.as_str()).collect();
    keys.sort_unstable();
    keys.windows(2).all(|pair| pair[0] != pair[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_value;

    /// The fast path equals serde_json's whenever it answers, and gives up wherever serde_json fails.
    fn agrees(text: &str) {
        let limits = Limits::default();
        let full = parse_value(text, &limits);
        match (tree_from_text(text, &limits), &full) {
            (Some(fast), Ok(full)) => assert_eq!(&fast, full, "{text}"),
            (None, Err(_)) => {}
            (None, Ok(_)) if text.contains(NUMBER_TOKEN) => {}
            (fast, _) => panic!("{text}: fast {fast:?}, full {full:?}"),
        }
    }

    #[test]
    fn agrees_with_serde_json_on_every_reference_and_vector_body() {
        let reference: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/fixtures/python_reference.json")).unwrap();
        let vectors: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/vectors/canonical.json")).unwrap();
        let mut bodies = 0;
        for case in reference["canonical"].as_array().unwrap().iter().chain(vectors.as_array().unwrap()) {
            if let Some(body) = case["body"].as_str() {
                agrees(body);
                assert!(tree_from_text(body, &Limits::default()).is_some() || body.is_empty(), "{body}");
                bodies += 1;
            }
        }
        assert!(bodies >= 300, "only {bodies} bodies");
    }

    #[test]
    fn agrees_with_serde_json() {
        let deep_ok = format!("{}{}", "[".repeat(64), "]".repeat(64));
        let too_deep = format!("{}{}", "[".repeat(65), "]".repeat(65));
        for text in [
            r#"{"a":1,"b":[true,false,null,"x"],"c":{"d":-0,"e":1.50,"f":1E400,"g":-12e-3,"h":2e7,"i":3E+1}}"#,
            r#" { "k" : "\u00e9\ud83d\ude00\n\"\\\/" } "#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":"\ud800"}"#,
            r#"{"a":"\udc00x"}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":-}"#,
            r#"{"a":1e}"#,
            r#"{"a":tru}"#,
            r#"{"a":1,}"#,
            r#"[1,]"#,
            "{\"a\":\"tab\there\"}",
            r#"{"a":1} x"#,
            r#"{"$serde_json::private::Number":"1"}"#,
            "\"text\"",
            "123",
            "",
            "   ",
            &deep_ok,
            &too_deep,
        ] {
            agrees(text);
        }
        let wide: Vec<String> = (0..40).map(|i| format!(r#""k{i}":{i}"#)).collect();
        agrees(&format!("{{{}}}", wide.join(",")));
        agrees(&format!("{{{},\"k7\":0}}", wide.join(",")));
    }
}
