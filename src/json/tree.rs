//! The tree and the reader's events, both ways: [`tree_from_text`] builds the
//! [`Json`] tree from JSON text without serde (the fast path of
//! [`parse_body`](crate::json::parse_body), a [`Sink`] of the one-pass reader;
//! whatever the reader gives up on goes to the full path, `json::full`), and
//! [`replay`] walks a tree as the same events, so that every sink reads a tree
//! as it reads text.

use std::borrow::Cow;

use crate::json::reader::{read, Segment, Sink};
use crate::json::value::{Json, Leaf, Limits};

/// The tree of JSON text within `limits`, or `None` to take the full path. Keys,
/// strings and numbers written in the text as they read are borrowed from it.
pub(crate) fn tree_from_text<'a>(text: &'a str, limits: &Limits) -> Option<Json<'a>> {
    let mut tree = TreeSink { text, open: Vec::with_capacity(8), done: None };
    read(text, limits, &mut tree)?;
    tree.done
}

/// Builds the tree from the reader's events: the containers still open,
/// innermost last, and the value read last, which goes into its container
/// when its member or item ends (or is the result).
struct TreeSink<'a> {
    /// The text read: a key or leaf the reader hands over from inside it is borrowed.
    text: &'a str,
    open: Vec<Json<'a>>,
    done: Option<Json<'a>>,
}

impl<'a> TreeSink<'a> {
    /// `part` as a slice of the text when it is one (the reader hands over a key,
    /// string or number without an escape in place), else owned: a text the reader
    /// unescaped lies in memory of its own, never inside the text.
    #[inline]
    fn text_of(&self, part: &str) -> Cow<'a, str> {
        let start = (part.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize);
        match start
            .checked_add(part.len())
            .filter(|&end| end <= self.text.len())
            .and_then(|end| self.text.get(start..end))
        {
            Some(borrowed) => Cow::Borrowed(borrowed),
            None => Cow::Owned(part.to_owned()),
        }
    }
}

impl<'a> Sink for TreeSink<'a> {
    /// The member's key, or none for an item.
    type Mark = Option<Cow<'a, str>>;

    #[inline]
    fn open(&mut self, array: bool) -> Option<()> {
        self.open.push(if array { Json::Array(Vec::new()) } else { Json::Object(Vec::new()) });
        Some(())
    }

    #[inline]
    fn enter(&mut self, segment: Segment<'_>) -> Option<Option<Cow<'a, str>>> {
        Some(match segment {
            Segment::Key(key) => Some(self.text_of(key)),
            Segment::Index(_) => None,
        })
    }

    #[inline]
    fn leave(&mut self, key: Option<Cow<'a, str>>) {
        let Some(value) = self.done.take() else { return };
        match (self.open.last_mut(), key) {
            (Some(Json::Object(members)), Some(key)) => members.push((key, value)),
            (Some(Json::Array(items)), None) => items.push(value),
            _ => {}
        }
    }

    #[inline]
    fn close(&mut self) -> Option<()> {
        self.done = Some(self.open.pop()?);
        Some(())
    }

    #[inline]
    fn leaf(&mut self, leaf: Leaf<'_>) -> Option<()> {
        self.done = Some(match leaf {
            Leaf::Null => Json::Null,
            Leaf::Bool(b) => Json::Bool(b),
            Leaf::Number(text) => Json::Number(match number_as_serde_writes_it(text) {
                Cow::Borrowed(_) => self.text_of(text),
                rewritten => Cow::Owned(rewritten.into_owned()),
            }),
            Leaf::String(text) => Json::String(self.text_of(text)),
        });
        Some(())
    }
}

/// The tree walk: hands `sink` the events the reader would for the tree's JSON
/// text, in order, and stops when the sink does (`None`).
pub(crate) fn replay(value: &Json<'_>, sink: &mut impl Sink) -> Option<()> {
    match value {
        Json::Object(members) => {
            sink.open(false)?;
            for (key, child) in members {
                let mark = sink.enter(Segment::Key(key))?;
                replay(child, sink)?;
                sink.leave(mark);
            }
            sink.close()
        }
        Json::Array(items) => {
            sink.open(true)?;
            for (index, child) in items.iter().enumerate() {
                let mark = sink.enter(Segment::Index(index))?;
                replay(child, sink)?;
                sink.leave(mark);
            }
            sink.close()
        }
        _ => value.leaf().map_or(Some(()), |leaf| sink.leaf(leaf)),
    }
}

/// A number's text as serde_json (`arbitrary_precision`) keeps it: as written,
/// but for its exponent, written `e` with an explicit sign (`1E2` is `1e+2`).
pub(crate) fn number_as_serde_writes_it(text: &str) -> Cow<'_, str> {
    let Some(at) = text.bytes().position(|b| b == b'e' || b == b'E') else { return Cow::Borrowed(text) };
    let (mantissa, exponent) = (&text[..at], &text[at + 1..]);
    let sign = if exponent.starts_with(['+', '-']) { "" } else { "+" };
    let mut written = String::with_capacity(text.len() + 1);
    written.push_str(mantissa);
    written.push('e');
    written.push_str(sign);
    written.push_str(exponent);
    Cow::Owned(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::full::{parse_value, NUMBER_TOKEN};

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

    /// Keys, strings and numbers written in the text as they read are borrowed from it; an
    /// escaped text, and a number serde_json writes otherwise (`1E2`), are owned.
    #[test]
    fn texts_are_borrowed_from_the_text_where_written_as_they_read() {
        let text = r#"{"plain":"x","esc\u0061ped":"a\nb","n":[150000,1E2,-0.5],"":""}"#;
        let tree = tree_from_text(text, &Limits::default()).unwrap();
        let Json::Object(members) = &tree else { panic!("an object") };
        let borrowed = |cow: &Cow<'_, str>| matches!(cow, Cow::Borrowed(_));
        let kinds: Vec<(bool, bool)> = members
            .iter()
            .map(|(key, value)| {
                let value_borrowed = match value {
                    Json::String(text) | Json::Number(text) => borrowed(text),
                    _ => true,
                };
                (borrowed(key), value_borrowed)
            })
            .collect();
        assert_eq!(kinds, [(true, true), (false, false), (true, true), (true, true)]);
        let Some(Json::Array(numbers)) = tree.get("n") else { panic!("an array") };
        let numbers: Vec<(&str, bool)> = numbers
            .iter()
            .map(|n| match n {
                Json::Number(text) => (text.as_ref(), borrowed(text)),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(numbers, [("150000", true), ("1e+2", false), ("-0.5", true)]);
        // Borrowed or not, the tree is the full path's, and owned equals it too.
        let full = parse_value(text, &Limits::default()).unwrap();
        assert_eq!(tree, full);
        assert_eq!(tree.into_owned(), full);
    }

    #[test]
    fn replaying_a_tree_builds_the_same_tree() {
        for text in [r#"{"a":[1,2.5e+3,"x\n",null,true,false,{},[]],"b":{"c":{"d":"e"}},"":0}"#, "{}", "[[]]", "\"s\""]
        {
            let tree = parse_value(text, &Limits::default()).unwrap();
            let mut sink = TreeSink { text: "", open: Vec::new(), done: None };
            replay(&tree, &mut sink).unwrap();
            assert_eq!(sink.done.as_ref(), Some(&tree), "{text}");
        }
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
