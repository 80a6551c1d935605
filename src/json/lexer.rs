//! The tokens of JSON text, read in place: the shared lexer of the one-pass
//! readers (`canonical_text`, `json_text`). Each read answers `None` on anything
//! but valid JSON (a lone surrogate escape included), and the caller then takes
//! the full serde_json path, which reports the exact error.

use std::borrow::Cow;

/// Deepest nesting a one-pass reader follows whatever the limits say (serde_json's
/// own recursion guard): the readers recurse, and deeper text goes to the full path.
pub(crate) const MAX_READER_DEPTH: usize = 128;

pub(crate) struct Lexer<'a> {
    pub(crate) b: &'a [u8],
    pub(crate) text: &'a str,
    /// The byte offset of the next token.
    pub(crate) i: usize,
}

impl<'a> Lexer<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Lexer { b: text.as_bytes(), text, i: 0 }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    pub(crate) fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    /// Skips whitespace, then `byte`.
    pub(crate) fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    pub(crate) fn keyword(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word.as_bytes()).then(|| self.i = end)
    }

    /// Just inside an opening bracket: whether the container ends at once (`close` read).
    pub(crate) fn closes_at_once(&mut self, close: u8) -> bool {
        self.skip_ws();
        let empty = self.peek() == Some(close);
        if empty {
            self.i += 1;
        }
        empty
    }

    /// After a member or item: `Some(true)` past a comma, `Some(false)` past `close`.
    pub(crate) fn another_follows(&mut self, close: u8) -> Option<bool> {
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
    pub(crate) fn member_name(&mut self) -> Option<Cow<'a, str>> {
        self.skip_ws();
        if self.peek() != Some(b'"') {
            return None;
        }
        let name = self.string()?;
        self.eat(b':')?;
        Some(name)
    }

    /// Whether only whitespace is left.
    pub(crate) fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.i == self.b.len()
    }

    /// A number token, checked against JSON's grammar, as written.
    pub(crate) fn number(&mut self) -> Option<&'a str> {
        let start = self.i;
        let digits = |s: &mut Self| {
            let from = s.i;
            while matches!(s.peek(), Some(b'0'..=b'9')) {
                s.i += 1;
            }
            s.i > from
        };
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        self.text.get(start..self.i)
    }

    /// A string token (at its opening quote), borrowed when it has no escape.
    pub(crate) fn string(&mut self) -> Option<Cow<'a, str>> {
        self.i += 1;
        let start = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => {
                    let plain = &self.text[start..self.i];
                    self.i += 1;
                    return Some(Cow::Borrowed(plain));
                }
                b'\\' => break,
                0..=0x1f => return None,
                _ => self.i += 1,
            }
        }
        let mut owned = String::from(&self.text[start..self.i]);
        loop {
            let run = self.i;
            while !matches!(*self.b.get(self.i)?, b'"' | b'\\' | 0..=0x1f) {
                self.i += 1;
            }
            owned.push_str(&self.text[run..self.i]);
            match self.b[self.i] {
                b'"' => {
                    self.i += 1;
                    return Some(Cow::Owned(owned));
                }
                b'\\' => {
                    self.i += 1;
                    let escaped = *self.b.get(self.i)?;
                    self.i += 1;
                    owned.push(match escaped {
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
                    });
                }
                _ => return None,
            }
        }
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
