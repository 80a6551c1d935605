//! The canonical message straight from JSON text, in one pass and without
//! building the tree: entries are written into one buffer as they are read.
//! It is only a fast path: on anything but plain valid JSON within the limits
//! (a duplicate key, too deep, a bad escape, a number without canonical
//! text...) it gives up, and the caller takes the full path
//! (`parse_body` + `canonical_message`), which reports the exact error.

use std::borrow::Cow;

use crate::canonical::number;
use crate::canonical::{check_timestamp, expansion_limit, Booleans, CanonicalOptions, Falsy, Flat};
use crate::json::lexer::{Lexer, MAX_READER_DEPTH};
use crate::json::{Limits, NUMBER_TOKEN};

/// The message of a body given as text, or `None` to take the full path.
pub fn message_from_text(text: &str, timestamp: &str, options: &CanonicalOptions, limits: &Limits) -> Option<String> {
    if text.len() > limits.max_bytes || check_timestamp(timestamp).is_err() {
        return None;
    }
    let mut scanner = Scanner {
        lex: Lexer::new(text),
        keys: Vec::with_capacity(32),
        depth: 0,
        max_depth: limits.max_depth.min(MAX_READER_DEPTH),
        options,
        path: String::with_capacity(64),
        // Entries repeat their paths: room for about twice the text, and a span per ~16 bytes.
        flat: Flat { text: String::with_capacity(2 * text.len() + 64), spans: Vec::with_capacity(text.len() / 16 + 4) },
        own: 0,
        bound: 0,
        // Own bytes never exceed twice the text, so past this the full path refuses too.
        give_up_at: expansion_limit(2 * text.len() as u64 + 2),
    };
    if !text.is_empty() {
        scanner.lex.skip_ws();
        if scanner.lex.peek() != Some(b'{') {
            return None;
        }
        scanner.value()?;
        if !scanner.lex.at_end() {
            return None;
        }
    }
    // The full path's bound on quadratic expansion, computed the same way.
    if scanner.bound > expansion_limit(scanner.own) {
        return None;
    }
    let mut flat = scanner.flat;
    flat.sort(options.order);
    flat.message(timestamp, options).ok()
}

struct Scanner<'a> {
    lex: Lexer<'a>,
    /// The keys of the objects being read, innermost last.
    keys: Vec<Cow<'a, str>>,
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
    fn value(&mut self) -> Option<()> {
        self.lex.skip_ws();
        match self.lex.peek()? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                let value = self.lex.string()?;
                self.count(value.len(), value.len().max(4))?;
                let falsy = value.is_empty() && self.options.falsy == Falsy::None;
                self.leaf(if falsy { "None" } else { &value });
                Some(())
            }
            b't' => self.literal("true", true),
            b'f' => self.literal("false", false),
            b'n' => {
                self.lex.keyword("null")?;
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

    fn literal(&mut self, word: &str, value: bool) -> Option<()> {
        self.lex.keyword(word)?;
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

    /// A number token, then its canonical text.
    fn number(&mut self) -> Option<()> {
        let text = self.lex.number()?;
        let is_float = text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'));
        self.count(text.len(), text.len().max(if is_float { 24 } else { 4 }))?;
        if !is_float {
            // An integer (the grammar above checked its digits) is its own text; no allocation.
            let digits = text.strip_prefix('-').unwrap_or(text);
            if digits.len() > number::MAX_INTEGER_DIGITS {
                return None;
            }
            let is_zero = digits == "0";
            self.leaf(match (is_zero, self.options.falsy) {
                (true, Falsy::None) => "None",
                (true, _) => "0",
                (false, _) => text,
            });
            return Some(());
        }
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
        self.lex.i += 1;
        self.enter()?;
        // This object's keys: the tail of one stack shared by every object (no allocation each).
        let first_key = self.keys.len();
        if !self.lex.closes_at_once(b'}') {
            loop {
                let key = self.lex.member_name()?;
                self.own = self.own.saturating_add(key.len() as u64 + 1);
                // serde_json's private number marker: the full path reads such an
                // object as a number; leave that case to it.
                if key == NUMBER_TOKEN {
                    return None;
                }
                let restore = self.path.len();
                if restore > 0 {
                    self.path.push(':');
                }
                self.path.push_str(&key);
                self.keys.push(key);
                self.value()?;
                self.path.truncate(restore);
                if !self.lex.another_follows(b'}')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        let unique_keys = unique(&mut self.keys[first_key..]);
        self.keys.truncate(first_key);
        unique_keys.then_some(())
    }

    fn array(&mut self) -> Option<()> {
        self.lex.i += 1;
        self.enter()?;
        if !self.lex.closes_at_once(b']') {
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
                if !self.lex.another_follows(b']')? {
                    break;
                }
            }
        }
        self.depth -= 1;
        Some(())
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

    /// Random near-JSON text (valid, and broken in every small way): the fast
    /// path agrees with the full one or gives up exactly where it fails.
    #[test]
    fn agrees_on_random_text() {
        const PIECES: &[&str] = &[
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"a\"",
            "\"b\"",
            "\"\"",
            "\"\\u00e9\"",
            "\"\\ud83d\\ude00\"",
            "\"\\n\"",
            "\"é😀\"",
            "0",
            "-0",
            "1",
            "1.5",
            "-2e3",
            "1E+2",
            "0.0",
            "12345678901234567890",
            "true",
            "false",
            "null",
            " ",
            "\"",
            "\\",
            "01",
            "1.",
            "\"a",
            "tru",
            "\"\\ud800\"",
            "\"$serde_json::private::Number\"",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let variants = CanonicalOptions::all_variants();
        for _ in 0..20_000 {
            // Mostly well-formed: an object of a few members, with a random piece spliced in sometimes.
            let mut text = String::from("{");
            for member in 0..next(4) {
                if member > 0 {
                    text.push(',');
                }
                text.push_str(["\"a\"", "\"b\"", "\"c\"", "\"\\u0061\""][next(4)]);
                text.push(':');
                match next(3) {
                    0 => text.push_str(PIECES[next(PIECES.len())]),
                    1 => text.push_str(&format!("[{},{}]", PIECES[next(PIECES.len())], PIECES[next(PIECES.len())])),
                    _ => text.push_str(&format!("{{\"x\":{}}}", PIECES[next(PIECES.len())])),
                }
            }
            text.push('}');
            if next(4) == 0 {
                let at = next(text.len() + 1);
                if text.is_char_boundary(at) {
                    text.insert_str(at, PIECES[next(PIECES.len())]);
                }
            }
            check(&text, &variants[next(variants.len())]);
        }
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
