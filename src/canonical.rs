//! The canonical message of the spec (Authentication, steps 1 to 5): flatten
//! the body to `path:value` entries, sort, join with `;`, base64url the UTF-8
//! bytes and append the timestamp. The open points of the spec are named
//! options; the defaults follow its Python origin.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

use crate::error::{Error, Result};
use crate::json::Json;
use crate::number;

/// Which falsy leaves are written `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Falsy {
    /// null, "", 0, 0.0 and false all become `None` (Python truthiness; the default).
    #[default]
    None,
    /// Only null becomes `None`; the others are written as themselves.
    Null,
}

/// How a boolean leaf that is not written `None` is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Booleans {
    /// `True` / `False`, as Python's `str()` (the default).
    #[default]
    Python,
    /// `true` / `false`, as JSON and JavaScript.
    Lower,
    /// `1` / `0`.
    Digit,
}

/// How entries are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// By Unicode code point, as Python sorts `str` (the default).
    #[default]
    CodePoint,
    /// By UTF-16 code unit, as JavaScript's default `Array.prototype.sort`.
    Utf16,
}

/// The canonical-form variant to build or expect. `Default` is [`CanonicalOptions::DEFAULT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CanonicalOptions {
    pub falsy: Falsy,
    pub booleans: Booleans,
    /// Keep the `=` padding of base64url (the default).
    pub padding: bool,
    pub order: Order,
}

impl CanonicalOptions {
    /// The spec read with its Python origin.
    pub const DEFAULT: CanonicalOptions =
        CanonicalOptions { falsy: Falsy::None, booleans: Booleans::Python, padding: true, order: Order::CodePoint };

    /// Every variant, the default first; used to diagnose a sender.
    pub fn all_variants() -> Vec<CanonicalOptions> {
        let mut all = vec![Self::DEFAULT];
        for order in [Order::CodePoint, Order::Utf16] {
            for padding in [true, false] {
                for falsy in [Falsy::None, Falsy::Null] {
                    for booleans in [Booleans::Python, Booleans::Lower, Booleans::Digit] {
                        let variant = CanonicalOptions { falsy, booleans, padding, order };
                        if variant != Self::DEFAULT {
                            all.push(variant);
                        }
                    }
                }
            }
        }
        all
    }
}

impl Default for CanonicalOptions {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The intermediate results of building a message, for display and debugging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanonicalSteps {
    /// The sorted `path:value` entries.
    pub entries: Vec<String>,
    /// The entries joined with `;`.
    pub joined: String,
    /// The base64url of the joined text's UTF-8 bytes.
    pub encoded: String,
    /// `encoded` followed by the timestamp: the text that is signed.
    pub message: String,
}

/// The canonical entries may be at most this many times the size of the tree's
/// own keys and leaves, plus [`CANONICAL_SLACK_BYTES`].
pub const CANONICAL_EXPANSION: u64 = 32;
/// Room above the proportional bound, for small deeply nested bodies.
pub const CANONICAL_SLACK_BYTES: u64 = 1 << 20;

/// Every entry of a body written into one buffer, each a byte range of it:
/// one growing allocation instead of one per entry.
pub(crate) struct Flat {
    pub(crate) text: String,
    pub(crate) spans: Vec<(usize, usize)>,
}

impl Flat {
    fn of(body: &Json, options: &CanonicalOptions) -> Result<Flat> {
        check_expansion(body)?;
        let mut flat = Flat { text: String::new(), spans: Vec::new() };
        let mut path = String::new();
        flatten(body, &mut path, options, &mut flat)?;
        flat.sort(options.order);
        Ok(flat)
    }

    pub(crate) fn sort(&mut self, order: Order) {
        let text = &self.text;
        match order {
            // UTF-8 byte order is code point order.
            Order::CodePoint => crate::entry_sort::sort_spans(text.as_bytes(), &mut self.spans),
            Order::Utf16 => {
                self.spans.sort_unstable_by(|a, b| text[a.0..a.1].encode_utf16().cmp(text[b.0..b.1].encode_utf16()))
            }
        }
    }

    /// base64url of the joined entries, then the timestamp.
    pub(crate) fn message(&self, timestamp: &str, options: &CanonicalOptions) -> String {
        let joined = self.joined();
        let mut message = String::with_capacity(joined.len().div_ceil(3) * 4 + timestamp.len());
        encode_into(joined.as_bytes(), options.padding, &mut message);
        message.push_str(timestamp);
        message
    }

    fn entries(&self) -> impl Iterator<Item = &str> {
        self.spans.iter().map(|&(start, end)| &self.text[start..end])
    }

    /// The sorted entries joined with `;`.
    fn joined(&self) -> String {
        let mut joined = String::with_capacity(self.text.len() + self.spans.len());
        for (i, entry) in self.entries().enumerate() {
            if i > 0 {
                joined.push(';');
            }
            joined.push_str(entry);
        }
        joined
    }
}

/// The sorted canonical entries of a body.
pub fn canonical_entries(body: &Json, options: &CanonicalOptions) -> Result<Vec<String>> {
    Ok(Flat::of(body, options)?.entries().map(str::to_owned).collect())
}

/// The message that is signed: base64url of the joined entries, then the timestamp.
pub fn canonical_message(body: &Json, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
    check_timestamp(timestamp)?;
    Ok(Flat::of(body, options)?.message(timestamp, options))
}

fn encode_into(bytes: &[u8], padding: bool, out: &mut String) {
    if padding {
        URL_SAFE.encode_string(bytes, out);
    } else {
        URL_SAFE_NO_PAD.encode_string(bytes, out);
    }
}

/// Every step of the message construction.
pub fn canonical_steps(body: &Json, timestamp: &str, options: &CanonicalOptions) -> Result<CanonicalSteps> {
    check_timestamp(timestamp)?;
    let flat = Flat::of(body, options)?;
    let joined = flat.joined();
    let mut encoded = String::new();
    encode_into(joined.as_bytes(), options.padding, &mut encoded);
    let message = format!("{encoded}{timestamp}");
    Ok(CanonicalSteps { entries: flat.entries().map(str::to_owned).collect(), joined, encoded, message })
}

/// Longest timestamp accepted, in digits: any `u64`.
const MAX_TIMESTAMP_DIGITS: usize = 19;

/// A timestamp is whole Unix seconds written in ASCII digits.
pub fn check_timestamp(timestamp: &str) -> Result<u64> {
    let valid = !timestamp.is_empty()
        && timestamp.len() <= MAX_TIMESTAMP_DIGITS
        && timestamp.bytes().all(|b| b.is_ascii_digit());
    match timestamp.parse::<u64>() {
        Ok(seconds) if valid => Ok(seconds),
        _ => Err(Error::InvalidTimestamp { value: timestamp.to_owned() }),
    }
}

/// Every entry repeats the path above its leaf, so the canonical form can grow
/// quadratically: `{"<500 KB key>":[0,0,…]}` (1 MiB) would expand to about
/// 130 GB. Refuse, before building anything, a body whose entries would exceed
/// [`CANONICAL_EXPANSION`] times its own size plus [`CANONICAL_SLACK_BYTES`].
/// The service's bodies stay within about twice their size; a long array of
/// tiny leaves a few levels down, the worst honest shape, within about ten.
fn check_expansion(body: &Json) -> Result<()> {
    let (own, canonical) = sizes(body, 0);
    let limit = own.saturating_mul(CANONICAL_EXPANSION).saturating_add(CANONICAL_SLACK_BYTES);
    if canonical > limit {
        return Err(Error::CanonicalTooLarge { limit, actual: canonical });
    }
    Ok(())
}

/// (bytes of the tree's own keys and leaves, an upper bound of its entries' bytes
/// including separators), for a value whose path is `path_len` bytes long.
fn sizes(value: &Json, path_len: u64) -> (u64, u64) {
    let below = |segment_len: usize| path_len + u64::from(path_len > 0) + segment_len as u64;
    let add = |(own, canonical): (u64, u64), (own2, canonical2): (u64, u64)| {
        (own.saturating_add(own2), canonical.saturating_add(canonical2))
    };
    match value {
        Json::Object(members) => members.iter().fold((0, 0), |total, (key, child)| {
            let (own, canonical) = sizes(child, below(key.len()));
            add(total, (own.saturating_add(key.len() as u64 + 1), canonical))
        }),
        Json::Array(items) => items
            .iter()
            .enumerate()
            .fold((0, 0), |total, (index, child)| add(total, sizes(child, below(decimal_len(index))))),
        leaf => {
            let (raw, longest_text) = match leaf {
                Json::String(s) => (s.len(), s.len().max(NONE.len())),
                // An integer keeps its digits; a float's Python repr is at most 24 characters.
                Json::Number(text) if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) => {
                    (text.len(), text.len().max(24))
                }
                Json::Number(text) => (text.len(), text.len().max(NONE.len())),
                _ => (5, 5),
            };
            (raw as u64 + 1, path_len.saturating_add(longest_text as u64 + 2))
        }
    }
}

fn decimal_len(mut n: usize) -> usize {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

fn flatten(value: &Json, path: &mut String, options: &CanonicalOptions, out: &mut Flat) -> Result<()> {
    let mut descend = |segment: &str, child: &Json, path: &mut String| {
        let restore = path.len();
        if !path.is_empty() {
            path.push(':');
        }
        path.push_str(segment);
        let result = flatten(child, path, options, out);
        path.truncate(restore);
        result
    };
    match value {
        Json::Object(members) => {
            for (key, child) in members {
                descend(key, child, path)?;
            }
            Ok(())
        }
        Json::Array(items) => {
            let mut digits = itoa_buffer();
            for (index, child) in items.iter().enumerate() {
                descend(write_index(&mut digits, index), child, path)?;
            }
            Ok(())
        }
        leaf => {
            let start = out.text.len();
            out.text.push_str(path);
            out.text.push(':');
            write_leaf(leaf, path, options, &mut out.text)?;
            out.spans.push((start, out.text.len()));
            Ok(())
        }
    }
}

fn itoa_buffer() -> [u8; 20] {
    [0u8; 20]
}

/// The decimal text of an array index, without allocating.
fn write_index(buffer: &mut [u8; 20], mut index: usize) -> &str {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&buffer[at..]).unwrap_or("0")
}

const NONE: &str = "None";

/// Appends a leaf's canonical text.
pub(crate) fn write_leaf(leaf: &Json, path: &str, options: &CanonicalOptions, out: &mut String) -> Result<()> {
    let all_falsy_none = options.falsy == Falsy::None;
    match leaf {
        Json::Null => out.push_str(NONE),
        Json::Bool(false) if all_falsy_none => out.push_str(NONE),
        Json::Bool(b) => out.push_str(match (options.booleans, b) {
            (Booleans::Python, true) => "True",
            (Booleans::Python, false) => "False",
            (Booleans::Lower, true) => "true",
            (Booleans::Lower, false) => "false",
            (Booleans::Digit, true) => "1",
            (Booleans::Digit, false) => "0",
        }),
        Json::String(s) if s.is_empty() && all_falsy_none => out.push_str(NONE),
        Json::String(s) => out.push_str(s),
        Json::Number(text) => {
            let number = number::python_number_text(text)
                .ok_or_else(|| Error::InvalidNumber { path: path.replace(':', "."), text: text.clone() })?;
            if number.is_zero && all_falsy_none {
                out.push_str(NONE);
            } else {
                out.push_str(&number.text);
            }
        }
        Json::Object(_) | Json::Array(_) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse_body, Limits};

    fn entries(text: &str, options: CanonicalOptions) -> Vec<String> {
        canonical_entries(&parse_body(text, &Limits::default()).unwrap(), &options).unwrap()
    }

    #[test]
    fn code_point_order_differs_from_utf16_order() {
        // U+FF5E is above the UTF-16 surrogate that starts U+1F600, but below its code point.
        let body = r#"{"😀":"1","～":"2"}"#;
        assert_eq!(entries(body, CanonicalOptions::DEFAULT), vec!["～:2", "😀:1"]);
        let utf16 = CanonicalOptions { order: Order::Utf16, ..CanonicalOptions::DEFAULT };
        assert_eq!(entries(body, utf16), vec!["😀:1", "～:2"]);
    }

    #[test]
    fn falsy_and_boolean_variants() {
        let body = r#"{"n":null,"s":"","z":0,"zf":0.0,"nz":-0.0,"f":false,"t":true}"#;
        assert_eq!(
            entries(body, CanonicalOptions::DEFAULT),
            vec!["f:None", "n:None", "nz:None", "s:None", "t:True", "z:None", "zf:None"]
        );
        let null_only = CanonicalOptions { falsy: Falsy::Null, booleans: Booleans::Digit, ..CanonicalOptions::DEFAULT };
        assert_eq!(entries(body, null_only), vec!["f:0", "n:None", "nz:-0.0", "s:", "t:1", "z:0", "zf:0.0"]);
    }

    #[test]
    fn empty_containers_vanish_but_their_siblings_stay() {
        assert_eq!(
            entries(r#"{"a":{},"b":[],"c":[{}],"d":{"e":[]}}"#, CanonicalOptions::DEFAULT),
            Vec::<String>::new()
        );
    }

    #[test]
    fn padding_option_and_timestamp_append() {
        let body = parse_body(r#"{"a":"1"}"#, &Limits::default()).unwrap();
        assert_eq!(canonical_message(&body, "17", &CanonicalOptions::DEFAULT).unwrap(), "YTox17");
        let body = parse_body(r#"{"a":"12"}"#, &Limits::default()).unwrap();
        assert_eq!(canonical_message(&body, "17", &CanonicalOptions::DEFAULT).unwrap(), "YToxMg==17");
        let unpadded = CanonicalOptions { padding: false, ..CanonicalOptions::DEFAULT };
        assert_eq!(canonical_message(&body, "17", &unpadded).unwrap(), "YToxMg17");
    }

    #[test]
    fn timestamps_are_digits_only() {
        assert_eq!(check_timestamp("1700000000").unwrap(), 1_700_000_000);
        for bad in ["", "-1", "1.5", "1e9", " 1", "abc", "99999999999999999999", "１"] {
            assert_eq!(check_timestamp(bad).unwrap_err().code(), "INVALID_TIMESTAMP", "{bad}");
        }
    }

    #[test]
    fn default_options_keep_padding() {
        assert_eq!(CanonicalOptions::default(), CanonicalOptions::DEFAULT);
        assert!(CanonicalOptions::default().padding);
    }

    #[test]
    fn every_variant_is_listed_once_default_first() {
        let all = CanonicalOptions::all_variants();
        assert_eq!(all.len(), 24);
        assert_eq!(all[0], CanonicalOptions::DEFAULT);
        for (i, a) in all.iter().enumerate() {
            assert!(!all[i + 1..].contains(a));
        }
    }

    /// Regression: a long key over many leaves made the entries quadratic in the
    /// body size; the 1 MiB body below would have asked for about 130 GB.
    #[test]
    fn quadratic_expansion_is_refused_before_building() {
        let long_key = "k".repeat(500_000);
        let text = format!(r#"{{"{long_key}":[{}0]}}"#, "0,".repeat(260_000));
        let body = parse_body(&text, &Limits::default()).unwrap();
        let err = canonical_entries(&body, &CanonicalOptions::DEFAULT).unwrap_err();
        assert_eq!(err.code(), "BODY_TOO_LARGE");
        assert!(matches!(err, Error::CanonicalTooLarge { actual, .. } if actual > 100_000_000_000));
        assert_eq!(canonical_message(&body, "1", &CanonicalOptions::DEFAULT).unwrap_err(), err);
        // The same leaves under a short key are fine, and so is the long key over few leaves.
        let short = parse_body(&format!(r#"{{"k":[{}0]}}"#, "0,".repeat(260_000)), &Limits::default()).unwrap();
        assert_eq!(canonical_entries(&short, &CanonicalOptions::DEFAULT).unwrap().len(), 260_001);
        let few = parse_body(&format!(r#"{{"{long_key}":[0,1,2]}}"#), &Limits::default()).unwrap();
        assert_eq!(canonical_entries(&few, &CanonicalOptions::DEFAULT).unwrap().len(), 3);
    }

    #[test]
    fn size_bound_covers_every_entry() {
        for text in [r#"{"a":{"b":[1,2.5e-300,"",null,true,false,{"c":"d"}]},"e":[]}"#, r#"{"x":[[[[[[1]]]]]]}"#, "{}"]
        {
            let body = parse_body(text, &Limits::default()).unwrap();
            let (_, bound) = sizes(&body, 0);
            for options in CanonicalOptions::all_variants() {
                let joined = canonical_entries(&body, &options).unwrap().join(";");
                assert!(joined.len() as u64 <= bound, "{text}: {} > {bound}", joined.len());
            }
        }
        assert_eq!((decimal_len(0), decimal_len(9), decimal_len(10), decimal_len(123_456)), (1, 1, 2, 6));
    }

    #[test]
    fn over_long_integers_are_refused() {
        let body = parse_body(&format!(r#"{{"n":{}}}"#, "9".repeat(5000)), &Limits::default()).unwrap();
        let err = canonical_entries(&body, &CanonicalOptions::DEFAULT).unwrap_err();
        assert_eq!(err.code(), "INVALID_NUMBER");
    }
}
