//! The one-pass JSON reader: text in place, token by token, handed to a
//! [`Sink`] as events (a container opens, a member or item begins and ends, a
//! leaf). It takes only plain valid JSON within the limits and gives up
//! (`None`) on anything else (a duplicate key, too deep, a lone surrogate
//! escape, serde_json's number marker as a key...): the caller then takes the
//! full serde_json path (`json::full`), which words the exact error. The sinks
//! are the tree (`json::tree`), the canonical entry writer
//! (`canonical::entry`) and validation's walk (`validate::walk`, with the
//! check-only entry writer); the first two readings are compared with the full
//! path on every vector and reference body, and by the `canonical` fuzz target;
//! the walk's reports from text are compared with its reports from the tree.
//!
//! A string's text is scanned for its end a block at a time (`json::scan`); the
//! tests compare the reader with serde_json, with a string's end at every offset
//! of the first blocks.

use std::borrow::Cow;

use crate::json::full::NUMBER_TOKEN;
use crate::json::rules::{all_unique, number_len};
use crate::json::scan::plain_run;
use crate::json::value::{Leaf, Limits};

/// Deepest nesting the reader follows whatever the limits say (serde_json's own
/// recursion guard): it recurses, and deeper text goes to the full path.
pub(crate) const MAX_READER_DEPTH: usize = 128;

/// Where a value sits in its container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Segment<'k> {
    /// A member's key.
    Key(&'k str),
    /// An item's index.
    Index(usize),
}

/// What the reader's events go to. Each answers `None` to stop the reading
/// (the reader then gives up too).
pub(crate) trait Sink {
    /// What [`Sink::enter`] gives back for [`Sink::leave`] of the same member or item.
    type Mark;
    /// An object (`array` false) or array opens.
    fn open(&mut self, array: bool) -> Option<()>;
    /// A member or item begins; its value follows.
    fn enter(&mut self, segment: Segment<'_>) -> Option<Self::Mark>;
    /// The member or item entered with `mark` has ended.
    fn leave(&mut self, mark: Self::Mark);
    /// The innermost open object or array closes.
    fn close(&mut self) -> Option<()>;
    /// A leaf value.
    fn leaf(&mut self, leaf: Leaf<'_>) -> Option<()>;
}

/// Two sinks fed by one reading (validation's walk and the check-only entry
/// writer of `validateRequest`): each event goes to the first, then the second.
pub(crate) struct Tee<'s, A, B>(pub(crate) &'s mut A, pub(crate) &'s mut B);

impl<A: Sink, B: Sink> Sink for Tee<'_, A, B> {
    type Mark = (A::Mark, B::Mark);

    #[inline]
    fn open(&mut self, array: bool) -> Option<()> {
        self.0.open(array)?;
        self.1.open(array)
    }

    #[inline]
    fn enter(&mut self, segment: Segment<'_>) -> Option<Self::Mark> {
        Some((self.0.enter(segment)?, self.1.enter(segment)?))
    }

    #[inline]
    fn leave(&mut self, (a, b): Self::Mark) {
        self.0.leave(a);
        self.1.leave(b);
    }

    #[inline]
    fn close(&mut self) -> Option<()> {
        self.0.close()?;
        self.1.close()
    }

    #[inline]
    fn leaf(&mut self, leaf: Leaf<'_>) -> Option<()> {
        self.0.leaf(leaf)?;
        self.1.leaf(leaf)
    }
}

/// Reads JSON text within `limits` into `sink`, or gives up (`None`).
pub(crate) fn read(text: &str, limits: &Limits, sink: &mut impl Sink) -> Option<()> {
    if text.len() > limits.max_bytes {
        return None;
    }
    let mut reader = Reader {
        lex: Lexer::new(text),
        keys: Vec::with_capacity(32),
        depth: 0,
        max_depth: limits.max_depth.min(MAX_READER_DEPTH),
    };
    reader.value(sink)?;
    reader.lex.at_end().then_some(())
}

/// Whether the first token of the text (after whitespace) opens an object.
pub(crate) fn starts_object(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{')
}

struct Reader<'a> {
    lex: Lexer<'a>,
    /// The keys of the objects being read, innermost last: one stack shared by
    /// every object, for the duplicate check.
    keys: Vec<Cow<'a, str>>,
    depth: usize,
    max_depth: usize,
}

impl Reader<'_> {
    fn value(&mut self, sink: &mut impl Sink) -> Option<()> {
        self.lex.skip_ws();
        match self.lex.peek()? {
            b'{' => self.object(sink),
            b'[' => self.array(sink),
            b'"' => sink.leaf(Leaf::String(&self.lex.string()?)),
            b't' => self.lex.keyword("true").and_then(|()| sink.leaf(Leaf::Bool(true))),
            b'f' => self.lex.keyword("false").and_then(|()| sink.leaf(Leaf::Bool(false))),
            b'n' => self.lex.keyword("null").and_then(|()| sink.leaf(Leaf::Null)),
            b'-' | b'0'..=b'9' => sink.leaf(Leaf::Number(self.lex.number()?)),
            _ => None,
        }
    }

    /// Steps into a container (at its opening bracket), counting a level as the
    /// full path does (an empty container is one too).
    fn enter(&mut self) -> Option<()> {
        self.lex.i += 1;
        self.depth += 1;
        (self.depth <= self.max_depth).then_some(())
    }

    fn object(&mut self, sink: &mut impl Sink) -> Option<()> {
        self.enter()?;
        sink.open(false)?;
        let first_key = self.keys.len();
        if !self.lex.closes_at_once(b'}') {
            loop {
                let key = self.lex.member_name()?;
                // serde_json's private number marker: the full path reads such an
                // object as a number; leave that case to it.
                if key == NUMBER_TOKEN {
                    return None;
                }
                let mark = sink.enter(Segment::Key(&key))?;
                self.keys.push(key);
                self.value(sink)?;
                sink.leave(mark);
                if !self.lex.another_follows(b'}')? {
                    break;
                }
            }
        }
        let unique = all_unique(&mut self.keys[first_key..]);
        self.keys.truncate(first_key);
        self.depth -= 1;
        unique.then_some(())?;
        sink.close()
    }

    fn array(&mut self, sink: &mut impl Sink) -> Option<()> {
        self.enter()?;
        sink.open(true)?;
        if !self.lex.closes_at_once(b']') {
            let mut index = 0usize;
            loop {
                let mark = sink.enter(Segment::Index(index))?;
                self.value(sink)?;
                sink.leave(mark);
                index += 1;
                if !self.lex.another_follows(b']')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        sink.close()
    }
}

struct Lexer<'a> {
    b: &'a [u8],
    text: &'a str,
    /// The byte offset of the next token.
    i: usize,
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Self {
        Lexer { b: text.as_bytes(), text, i: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Skips whitespace, then `byte`.
    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    fn keyword(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word.as_bytes()).then(|| self.i = end)
    }

    /// Just inside an opening bracket: whether the container ends at once (`close` read).
    fn closes_at_once(&mut self, close: u8) -> bool {
        self.skip_ws();
        let empty = self.peek() == Some(close);
        if empty {
            self.i += 1;
        }
        empty
    }

    /// After a member or item: `Some(true)` past a comma, `Some(false)` past `close`.
    fn another_follows(&mut self, close: u8) -> Option<bool> {
        self.skip_ws();
        let next = self.peek()?;
        self.i += 1;
        match next {
            b',' => Some(true),
            _ if next == close => Some(false),
            _ => None,
        }
    }

    /// An object member's name and the colon after it.
    fn member_name(&mut self) -> Option<Cow<'a, str>> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return None;
        }
        let name = self.string()?;
        self.eat(b':')?;
        Some(name)
    }

    /// Whether only whitespace is left.
    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.i == self.b.len()
    }

    /// A number token, checked against JSON's grammar, as written.
    fn number(&mut self) -> Option<&'a str> {
        let start = self.i;
        self.i += number_len(self.b.get(start..)?)?;
        self.text.get(start..self.i)
    }

    /// A string token (at its opening quote), borrowed when it has no escape.
    #[inline(always)]
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.i + 1;
        let rest = self.text.get(start..)?;
        let (plain, after) = rest.split_at_checked(plain_run(rest.as_bytes()))?;
        self.i = start + plain.len();
        match after.as_bytes().first()? {
            b'"' => {
                self.i += 1;
                Some(Cow::Borrowed(plain))
            }
            b'\\' => self.escaped_string(start),
            _ => None,
        }
    }

    /// The rest of a string token from its first backslash (its text began at
    /// `start`), unescaped into an owned string.
    #[cold]
    #[inline(never)]
    fn escaped_string(&mut self, start: usize) -> Option<Cow<'a, str>> {
        let mut owned = String::from(self.text.get(start..self.i)?);
        loop {
            let run = self.i;
            self.i += plain_run(self.b.get(run..)?);
            owned.push_str(self.text.get(run..self.i)?);
            match self.peek()? {
                b'"' => {
                    self.i += 1;
                    return Some(Cow::Owned(owned));
                }
                b'\\' => {
                    self.i += 1;
                    owned.push(self.escape()?);
                }
                _ => return None,
            }
        }
    }

    /// The character of an escape, just after its backslash.
    fn escape(&mut self) -> Option<char> {
        let escaped = self.peek()?;
        self.i += 1;
        Some(match escaped {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{08}',
            b'f' => '\u{0c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => return None,
        })
    }

    /// The character of `\uXXXX` (just after the `u`), joining a surrogate pair;
    /// a lone surrogate gives up (serde_json refuses it too).
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        if (0xDC00..0xE000).contains(&first) {
            return None;
        }
        if (0xD800..0xDC00).contains(&first) {
            if self.b.get(self.i..self.i + 2)? != b"\\u" {
                return None;
            }
            self.i += 2;
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return None;
            }
            return char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00));
        }
        char::from_u32(first)
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.text.get(self.i..self.i + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.i += 4;
        u32::from_str_radix(digits, 16).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::full::parse_value;
    use crate::json::tree::tree_from_text;

    /// Text before a string's end: `len` bytes, ASCII or with multi-byte
    /// characters (of 2, 3 and 4 bytes) ending at and crossing block edges.
    fn text_of_length(len: usize, kind: usize) -> String {
        let wide = ["", "é", "€", "😀"][kind % 4];
        let mut text = String::new();
        while text.len() + wide.len() <= len {
            text.push_str(wide);
            if wide.is_empty() || text.len() % 5 == kind % 5 {
                text.push('a');
            }
        }
        while text.len() < len {
            text.push('a');
        }
        text.truncate(len);
        text
    }

    /// The one-pass tree of `text` is serde_json's, or both give up.
    fn agrees(text: &str) {
        let fast = tree_from_text(text, &Limits::default());
        match parse_value(text, &Limits::default()) {
            Ok(full) => assert_eq!(fast.as_ref(), Some(&full), "{text:?}"),
            Err(error) => assert_eq!(fast, None, "{text:?}: the full path says {error}"),
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn strings_agree_with_serde_json_wherever_their_ends_fall() {
        let ends = [
            "\"",
            "\\\"",
            "\\\\",
            "\\n",
            "\\/",
            "\\u00e9",
            "\\ud83d\\ude00",
            "\\ud800",
            "\\x",
            "\u{1}",
            "\u{1f}",
            "\t",
            "\u{7f}",
        ];
        for len in 0..40 {
            for kind in 0..8 {
                let before = text_of_length(len, kind);
                for end in ends {
                    let after = text_of_length(40 - len, kind + 1);
                    agrees(&format!(r#"{{"{before}{end}{after}":"{after}{end}{before}","k":["{before}{end}"]}}"#));
                    agrees(&format!(r#"{{"k":"{before}{end}"#));
                    agrees(&format!(r#"["{before}{end}{after}"]"#));
                }
            }
        }
    }
}
