//! The canonical message straight from JSON text, in one pass and without
//! building the tree: the one-pass reader (`json::reader`) feeds the entry
//! writer (`canonical::entry`) directly, and entries are written into one
//! buffer as they are read. It is only a fast path: on anything but plain
//! valid JSON within the limits (a duplicate key, too deep, a bad escape, a
//! number without canonical text, entries past the size bound...) it gives up,
//! and [`message_of_text`](crate::canonical::message_of_text) takes the tree
//! path, which reports the exact error.

use crate::canonical::entry::{EntryWriter, Flat};
use crate::canonical::{check_timestamp, CanonicalOptions};
use crate::json::reader::{read, starts_object};
use crate::json::Limits;

/// The message of a body given as text, or `None` to take the full path.
pub fn message_from_text(text: &str, timestamp: &str, options: &CanonicalOptions, limits: &Limits) -> Option<String> {
    check_timestamp(timestamp).ok()?;
    flat_from_text(text, options, limits)?.message(timestamp, options).ok()
}

/// The sorted entries of a body given as text, or `None` to take the full path.
pub(crate) fn flat_from_text(text: &str, options: &CanonicalOptions, limits: &Limits) -> Option<Flat> {
    if text.len() > limits.max_bytes {
        return None;
    }
    let mut writer = EntryWriter::for_text(options, text.len());
    // Entries repeat their paths: room for about three times the text (a long array of
    // small objects a few levels down, the usual large body, takes about 2.4; room
    // reserved and not written costs nothing), and a span per ~16 bytes.
    writer.reserve(3 * text.len() + 64, text.len() / 16 + 4).ok()?;
    if !text.is_empty() {
        if !starts_object(text) {
            return None;
        }
        read(text, limits, &mut writer)?;
    }
    // The full path's bound on quadratic expansion, counted the same way.
    writer.checked_bound().ok()?;
    let mut flat = writer.into_flat();
    flat.sort(options.order);
    Some(flat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{canonical_message, Order};
    use crate::json::full::NUMBER_TOKEN;
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

    /// The entries' buffers are kept for the next body (up to a size): bodies of
    /// every size one after another, and a body read while another's entries are held.
    #[test]
    fn reused_buffers_hold_only_the_body_read() {
        let body =
            |n: usize| format!("{{{}}}", (0..n).map(|i| format!("\"k{i}\":[{i},\"v\"]")).collect::<Vec<_>>().join(","));
        for n in [300, 2, 0, 40, 3000, 1, 300] {
            check(&body(n), &CanonicalOptions::DEFAULT);
        }
        let limits = Limits::default();
        let held = flat_from_text(&body(50), &CanonicalOptions::DEFAULT, &limits).unwrap();
        check(&body(20), &CanonicalOptions::DEFAULT);
        let again = flat_from_text(&body(50), &CanonicalOptions::DEFAULT, &limits).unwrap();
        assert!(held.entries().eq(again.entries()));
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
