//! The canonical message straight from JSON text, in one pass and without
//! building the tree: entries are written into one buffer as they are read.
//! It is only a fast path: on anything but plain valid JSON within the limits
//! (a duplicate key, too deep, a bad escape, a number without canonical
//! text...) it gives up, and the caller takes the full path
//! (`parse_body` + `canonical_message`), which reports the exact error.

use std::borrow::Cow;

use crate::canonical::{
    check_timestamp, Booleans, CanonicalOptions, Falsy, Flat, CANONICAL_EXPANSION, CANONICAL_SLACK_BYTES,
};
use crate::json::Limits;
use crate::number;

/// The key under which serde_json (`arbitrary_precision`) passes numbers around.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// The message of a body given as text, or `None` to take the full path.
pub fn message_from_text(text: &str, timestamp: &str, options: &CanonicalOptions, limits: &Limits) -> Option<String> {
    if text.len() > limits.max_bytes || check_timestamp(timestamp).is_err() {
        return None;
    }
    let mut scanner = Scanner {
        b: text.as_bytes(),
        text,
        i: 0,
        depth: 0,
        max_depth: limits.max_depth,
        options,
        path: String::new(),
        flat: Flat { text: String::with_capacity(text.len()), spans: Vec::new() },
        own: 0,
        bound: 0,
        // Own bytes never exceed twice the text, so past this the full path refuses too.
        give_up_at: (2 * text.len() as u64 + 2)
            .saturating_mul(CANONICAL_EXPANSION)
            .saturating_add(CANONICAL_SLACK_BYTES),
    };
    if !text.is_empty() {
        scanner.skip_ws();
        if scanner.peek() != Some(b'{') {
            return None;
        }
        scanner.value()?;
        scanner.skip_ws();
        if scanner.i != scanner.b.len() {
            return None;
        }
    }
    // The full path's bound on quadratic expansion, computed the same way.
    let limit = scanner.own.saturating_mul(CANONICAL_EXPANSION).saturating_add(CANONICAL_SLACK_BYTES);
    if scanner.bound > limit {
        return None;
    }
    let mut flat = scanner.flat;
    flat.sort(options.order);
    Some(flat.message(timestamp, options))
}

struct Scanner<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
    max_depth: usize,
    options: &'a CanonicalOptions,
    path: String,
    flat: Flat,
    /// Bytes of the body's own keys and leaves, and the bound of its entries'
    /// bytes, as `canonical::check_expansion` counts them.
    own: u64,
    bound: u64,
    /// Stop writing entries once the bound passes this (checked as it grows).
    give_up_at: u64,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        self.skip_ws();
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    fn value(&mut self) -> Option<()> {
        self.skip_ws();
        match self.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let value = self.string()?;
                self.count(value.len(), value.len().max(4))?;
                let falsy = value.is_empty() && self.options.falsy == Falsy::None;
                self.leaf(if falsy { "None" } else { &value });
                Some(())
            }
            b't' => self.literal("true", true),
            b'f' => self.literal("false", false),
            b'n' => {
                self.keyword("null")?;
                self.count(5, 5)?;
                self.leaf("None");
                Some(())
            }
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// A leaf of `raw` bytes whose canonical text is at most `longest` bytes.
    fn count(&mut self, raw: usize, longest: usize) -> Option<()> {
        self.own = self.own.saturating_add(raw as u64 + 1);
        self.bound = self.bound.saturating_add(self.path.len() as u64 + longest as u64 + 2);
        (self.bound <= self.give_up_at).then_some(())
    }

    fn leaf(&mut self, value: &str) {
        let out = &mut self.flat.text;
        let start = out.len();
        out.push_str(&self.path);
        out.push(':');
        out.push_str(value);
        self.flat.spans.push((start, out.len()));
    }

    fn keyword(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        (self.b.get(self.i..end)? == word.as_bytes()).then(|| self.i = end)
    }

    fn literal(&mut self, word: &str, value: bool) -> Option<()> {
        self.keyword(word)?;
        self.count(5, 5)?;
        let text = match (value, self.options.falsy, self.options.booleans) {
            (false, Falsy::None, _) => "None",
            (true, _, Booleans::Python) => "True",
            (false, _, Booleans::Python) => "False",
            (true, _, Booleans::Lower) => "true",
            (false, _, Booleans::Lower) => "false",
            (true, _, Booleans::Digit) => "1",
            (false, _, Booleans::Digit) => "0",
        };
        self.leaf(text);
        Some(())
    }

    /// JSON's number grammar, then its canonical text.
    fn number(&mut self) -> Option<()> {
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
        let text = &self.text[start..self.i];
        let is_float = text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
        self.count(text.len(), text.len().max(if is_float { 24 } else { 4 }))?;
        let number = number::python_number_text(text)?;
        if number.is_zero && self.options.falsy == Falsy::None {
            self.leaf("None");
        } else {
            self.leaf(&number.text);
        }
        Some(())
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= self.max_depth).then_some(())
    }

    fn object(&mut self) -> Option<()> {
        self.i += 1;
        self.enter()?;
        let mut keys: Vec<Cow<'a, str>> = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
        } else {
            loop {
                self.skip_ws();
                if self.peek() != Some(b'"') {
                    return None;
                }
                let key = self.string()?;
                self.own = self.own.saturating_add(key.len() as u64 + 1);
                // serde_json's private number marker: the full path reads such an
                // object as a number; leave that case to it.
                if key == NUMBER_TOKEN {
                    return None;
                }
                self.eat(b':')?;
                let restore = self.path.len();
                if restore > 0 {
                    self.path.push(':');
                }
                self.path.push_str(&key);
                keys.push(key);
                self.value()?;
                self.path.truncate(restore);
                self.skip_ws();
                match self.peek()? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        unique(&mut keys).then_some(())
    }

    fn array(&mut self) -> Option<()> {
        self.i += 1;
        self.enter()?;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
        } else {
            let mut index = 0usize;
            loop {
                let restore = self.path.len();
                if restore > 0 {
                    self.path.push(':');
                }
                push_decimal(&mut self.path, index);
                self.value()?;
                self.path.truncate(restore);
                index += 1;
                self.skip_ws();
                match self.peek()? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// A string token (at its opening quote), borrowed when it has no escape.
    fn string(&mut self) -> Option<Cow<'a, str>> {
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

fn push_decimal(out: &mut String, mut value: usize) {
    let mut buffer = [0u8; 20];
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for &digit in &buffer[at..] {
        out.push(char::from(digit));
    }
}

/// No key twice (a small object is compared pairwise, a large one sorted).
fn unique(keys: &mut [Cow<'_, str>]) -> bool {
    if keys.len() <= 16 {
        return keys.iter().enumerate().all(|(i, key)| !keys[..i].contains(key));
    }
    keys.sort_unstable();
    keys.windows(2).all(|pair| pair[0] != pair[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{canonical_message, Order};
    use crate::json::parse_body;

    /// The fast path equals the full path whenever it answers, and gives up exactly where the full path fails.
    fn check(text: &str, options: &CanonicalOptions) {
        let limits = Limits::default();
        let full = parse_body(text, &limits).and_then(|body| canonical_message(&body, "17", options));
        let fast = message_from_text(text, "17", options, &limits);
        match (&full, &fast) {
            (Ok(a), Some(b)) => assert_eq!(a, b, "{text}"),
            (Err(_), None) => {}
            // Only the serde_json number marker is left to the full path while valid.
            (Ok(_), None) if text.contains(NUMBER_TOKEN) => {}
            _ => panic!("{text}: full {full:?}, fast {fast:?}"),
        }
    }

    #[test]
    fn agrees_with_the_full_path() {
        let all = CanonicalOptions::all_variants();
        let bodies = [
            "",
            "{}",
            " {\"a\" : [1, 2.50, -0, 0.0, 1E+2, 1e400, 123456789012345678901234567890, true, false, null, \"\", {}, []]} ",
            r#"{"s":"q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00 é😀","😀":"1","～":"2","k\u0041":{"x":[[{"y":0}]]}}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":{"b":1,"b":2}}"#,
            r#"{"a":"\ud83d"}"#,
            r#"{"a":"\ude00"}"#,
            r#"{"a":"\x"}"#,
            "{\"a\":\"tab\there\"}",
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":-}"#,
            r#"{"a":.5}"#,
            r#"{"a":1e}"#,
            r#"{"a":tru}"#,
            r#"{"a":1,}"#,
            r#"{"a":1} x"#,
            "[]",
            "  ",
            r#"{"a" 1}"#,
            r#"{"a":{"$serde_json::private::Number":"2"}}"#,
            r#"{"$serde_json::private::Number":"2"}"#,
        ];
        for body in bodies {
            for options in &all {
                check(body, options);
            }
        }
        let wide: String = format!("{{{}}}", (0..40).map(|i| format!("\"k{i}\":{i}")).collect::<Vec<_>>().join(","));
        check(&wide, &CanonicalOptions::DEFAULT);
        check(&wide.replace("\"k39\"", "\"k3\""), &CanonicalOptions::DEFAULT);
        let utf16 = CanonicalOptions { order: Order::Utf16, ..CanonicalOptions::DEFAULT };
        check(r#"{"😀":"1","～":"2"}"#, &utf16);
    }

    #[test]
    fn quadratic_expansion_goes_to_the_full_path() {
        let long_key = "k".repeat(500_000);
        let text = format!(r#"{{"{long_key}":[{}0]}}"#, "0,".repeat(260_000));
        assert_eq!(message_from_text(&text, "1", &CanonicalOptions::DEFAULT, &Limits::default()), None);
        check(&format!(r#"{{"k":[{}0]}}"#, "0,".repeat(2_000)), &CanonicalOptions::DEFAULT);
        check(&format!(r#"{{"{}":[{}0]}}"#, "k".repeat(40_000), "0,".repeat(30)), &CanonicalOptions::DEFAULT);
    }

    #[test]
    fn limits_send_it_to_the_full_path() {
        let deep = format!("{}{}", "{\"a\":".repeat(70), "}".repeat(70));
        assert_eq!(message_from_text(&deep, "1", &CanonicalOptions::DEFAULT, &Limits::default()), None);
        let small = Limits { max_bytes: 4, max_depth: 64 };
        assert_eq!(message_from_text("{\"a\":1}", "1", &CanonicalOptions::DEFAULT, &small), None);
        assert_eq!(message_from_text("{}", "x", &CanonicalOptions::DEFAULT, &Limits::default()), None);
        for levels in [63, 64] {
            let nested = format!("{}{{}}{}", "{\"a\":".repeat(levels), "}".repeat(levels));
            check(&nested, &CanonicalOptions::DEFAULT);
        }
    }
}
