//! The canonical message of the spec (Authentication, steps 1 to 5): flatten
//! the body to `path:value` entries, sort, join with `;`, base64url the UTF-8
//! bytes and append the timestamp. The open points of the spec are named
//! options; the defaults follow its Python origin.

pub(crate) mod ambiguity;
pub(crate) mod number;
pub(crate) mod sort;
pub(crate) mod text;

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;

use crate::error::{Error, Result};
use crate::json::{parse_body, Json, Limits};

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
    /// How falsy leaves are written.
    pub falsy: Falsy,
    /// How `true` and `false` are written.
    pub booleans: Booleans,
    /// Keep the `=` padding of base64url (the default).
    pub padding: bool,
    /// How entries are sorted.
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
/// own keys and leaves, plus [`CANONICAL_SLACK_BYTES`], and never more than
/// [`MAX_CANONICAL_BYTES`]. The service's bodies stay within about twice their
/// size; a long array of tiny leaves a few levels down, the worst honest shape,
/// within about ten.
pub const CANONICAL_EXPANSION: u64 = 16;
/// Room above the proportional bound, for small deeply nested bodies: more than
/// any callback or request of the spec needs as a whole.
pub const CANONICAL_SLACK_BYTES: u64 = 64 << 10;
/// The absolute ceiling of the canonical entries, whatever the body limit.
pub const MAX_CANONICAL_BYTES: u64 = 16 << 20;

/// Largest canonical size accepted for a tree with `own` bytes of keys and leaves.
pub(crate) fn expansion_limit(own: u64) -> u64 {
    own.saturating_mul(CANONICAL_EXPANSION).saturating_add(CANONICAL_SLACK_BYTES).min(MAX_CANONICAL_BYTES)
}

/// Reserves room for `additional` more bytes or items, or reports the body as too
/// large: running out of memory must be an error, never a trap of the wasm instance.
pub(crate) fn try_room(buffer: &mut String, additional: usize) -> Result<()> {
    buffer.try_reserve(additional).map_err(|_| too_large(buffer.len().saturating_add(additional)))
}

fn too_large(actual: usize) -> Error {
    Error::CanonicalTooLarge { limit: MAX_CANONICAL_BYTES, actual: actual as u64 }
}

/// Every entry of a body written into one buffer, each a byte range of it:
/// one growing allocation instead of one per entry.
pub(crate) struct Flat {
    pub(crate) text: String,
    pub(crate) spans: Vec<(usize, usize)>,
}

impl Flat {
    fn of(body: &Json, options: &CanonicalOptions) -> Result<Flat> {
        let bound = check_expansion(body)?;
        let mut flat = Flat { text: String::new(), spans: Vec::new() };
        // The bound covers every entry, so the text never grows past this one reservation.
        // (The spans, one per leaf, are bounded by the body's own size.)
        try_room(&mut flat.text, usize::try_from(bound).unwrap_or(usize::MAX))?;
        let mut path = String::new();
        flatten(body, &mut path, options, &mut flat)?;
        flat.sort(options.order);
        Ok(flat)
    }

    pub(crate) fn sort(&mut self, order: Order) {
        let text = self.text.as_bytes();
        match order {
            // UTF-8 byte order is code point order.
            Order::CodePoint => {
                crate::canonical::sort::sort_spans(text, &mut self.spans, crate::canonical::sort::Key::CodePoint)
            }
            Order::Utf16 => {
                crate::canonical::sort::sort_spans(text, &mut self.spans, crate::canonical::sort::Key::Utf16)
            }
        }
    }

    /// base64url of the joined entries, then the timestamp.
    pub(crate) fn message(&self, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
        let joined = self.joined()?;
        encode_message(&joined, timestamp, options.padding)
    }

    fn entries(&self) -> impl Iterator<Item = &str> {
        self.spans.iter().map(|&(start, end)| &self.text[start..end])
    }

    /// The sorted entries joined with `;`.
    fn joined(&self) -> Result<String> {
        let mut joined = String::new();
        try_room(&mut joined, self.text.len() + self.spans.len())?;
        for (i, entry) in self.entries().enumerate() {
            if i > 0 {
                joined.push(';');
            }
            joined.push_str(entry);
        }
        Ok(joined)
    }
}

/// The joined entries of a body: what is base64url-encoded.
pub(crate) fn joined_entries(body: &Json, options: &CanonicalOptions) -> Result<String> {
    Flat::of(body, options)?.joined()
}

/// base64url of `joined` (with or without `=` padding), then the timestamp.
pub(crate) fn encode_message(joined: &str, timestamp: &str, padding: bool) -> Result<String> {
    let mut message = String::new();
    try_room(&mut message, joined.len().div_ceil(3) * 4 + timestamp.len())?;
    encode_into(joined.as_bytes(), padding, &mut message);
    message.push_str(timestamp);
    Ok(message)
}

/// The sorted canonical entries of a body.
pub fn canonical_entries(body: &Json, options: &CanonicalOptions) -> Result<Vec<String>> {
    Ok(Flat::of(body, options)?.entries().map(str::to_owned).collect())
}

/// The message that is signed: base64url of the joined entries, then the timestamp.
pub fn canonical_message(body: &Json, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
    check_timestamp(timestamp)?;
    Flat::of(body, options)?.message(timestamp, options)
}

/// The canonical message of a body given as JSON text. The one place the
/// choice between the one-pass text reader and the tree is made: the reader
/// answers when it can; anything it gives up on goes through the tree, which
/// words the error.
pub fn message_of_text(text: &str, timestamp: &str, options: &CanonicalOptions, limits: &Limits) -> Result<String> {
    if let Some(message) = text::message_from_text(text, timestamp, options, limits) {
        return Ok(message);
    }
    canonical_message(&parse_body(text, limits)?, timestamp, options)
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
    let joined = flat.joined()?;
    let message = encode_message(&joined, timestamp, options.padding)?;
    let encoded = message[..message.len() - timestamp.len()].to_owned();
    Ok(CanonicalSteps { entries: flat.entries().map(str::to_owned).collect(), joined, encoded, message })
}

/// Longest timestamp accepted, in digits: Unix seconds until the year 2286.
/// (A millisecond `Date.now()` has 13.)
pub const MAX_TIMESTAMP_DIGITS: usize = 10;

/// A timestamp is Unix seconds written in at most 10 ASCII digits, with no
/// sign, space or leading zero: exactly one text for each number.
pub fn check_timestamp(timestamp: &str) -> Result<u64> {
    parse_timestamp(timestamp, 1, TIMESTAMP_RULE)
}

/// What [`check_timestamp`] accepts, in words.
pub(crate) const TIMESTAMP_RULE: &str = "Unix seconds written as 1 to 10 digits without a leading zero";

/// A received callback's timestamp: exactly 10 digits, the first not zero
/// (2001-09-09 to 2286-11-20). The message is the base64 text followed by the
/// timestamp with no separator; with every timestamp 10 digits long, no digit
/// can move between the two and leave a message that still verifies.
pub fn check_callback_timestamp(timestamp: &str) -> Result<u64> {
    parse_timestamp(timestamp, MAX_TIMESTAMP_DIGITS, "Unix seconds written as exactly 10 digits, the first not 0")
}

fn parse_timestamp(timestamp: &str, min_digits: usize, expected: &'static str) -> Result<u64> {
    let bytes = timestamp.as_bytes();
    let valid = (min_digits..=MAX_TIMESTAMP_DIGITS).contains(&bytes.len())
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes[0] != b'0' || bytes.len() == 1);
    match timestamp.parse::<u64>() {
        Ok(seconds) if valid => Ok(seconds),
        _ => Err(Error::InvalidTimestamp { value: timestamp.to_owned(), expected }),
    }
}

/// Every entry repeats the path above its leaf, so the canonical form can grow
/// quadratically: `{"<500 KB key>":[0,0,…]}` (1 MiB) would expand to about
/// 130 GB. Refuse, before building anything, a body whose entries would exceed
/// [`CANONICAL_EXPANSION`] times its own size plus [`CANONICAL_SLACK_BYTES`].
/// The service's bodies stay within about twice their size; a long array of
/// tiny leaves a few levels down, the worst honest shape, within about ten.
/// Returns the bound of the entries' bytes.
fn check_expansion(body: &Json) -> Result<u64> {
    let (own, canonical) = sizes(body, 0);
    let limit = expansion_limit(own);
    if canonical > limit {
        return Err(Error::CanonicalTooLarge { limit, actual: canonical });
    }
    Ok(canonical)
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

/// Whether the message writes this leaf as `None` because it is falsy: null always;
/// `""`, `0` (any zero) and `false` too under `falsy: 'none'`.
pub(crate) fn is_written_falsy(leaf: &Json, falsy: Falsy) -> bool {
    match leaf {
        Json::Null => true,
        Json::Bool(b) => falsy_when(!b, falsy),
        Json::String(s) => falsy_when(s.is_empty(), falsy),
        Json::Number(text) => number::python_number_text(text).is_some_and(|n| falsy_when(n.is_zero, falsy)),
        Json::Object(_) | Json::Array(_) => false,
    }
}

/// A false, empty or zero leaf is written `None` only under `falsy: 'none'`.
fn falsy_when(false_empty_or_zero: bool, falsy: Falsy) -> bool {
    false_empty_or_zero && falsy == Falsy::None
}

/// Whether the message writes this leaf as the text `None`: a falsy leaf, or the string "None".
pub(crate) fn writes_none(leaf: &Json, falsy: Falsy) -> bool {
    leaf.as_str() == Some(NONE) || is_written_falsy(leaf, falsy)
}

/// Appends a leaf's canonical text.
pub(crate) fn write_leaf(leaf: &Json, path: &str, options: &CanonicalOptions, out: &mut String) -> Result<()> {
    match leaf {
        // A number's text is computed once, for its falsiness and its entry.
        Json::Number(text) => {
            let number = number::python_number_text(text)
                .ok_or_else(|| Error::InvalidNumber { path: path.replace(':', "."), text: text.clone() })?;
            out.push_str(if falsy_when(number.is_zero, options.falsy) { NONE } else { &number.text });
        }
        other if is_written_falsy(other, options.falsy) => out.push_str(NONE),
        Json::Bool(b) => out.push_str(match (options.booleans, b) {
            (Booleans::Python, true) => "True",
            (Booleans::Python, false) => "False",
            (Booleans::Lower, true) => "true",
            (Booleans::Lower, false) => "false",
            (Booleans::Digit, true) => "1",
            (Booleans::Digit, false) => "0",
        }),
        Json::String(s) => out.push_str(s),
        Json::Null | Json::Object(_) | Json::Array(_) => {}
    }
    Ok(())
}

/// A leaf's canonical text on its own (for the callback model's free-form values).
pub(crate) fn leaf_text(leaf: &Json, options: &CanonicalOptions) -> Result<String> {
    let mut out = String::new();
    write_leaf(leaf, "", options, &mut out)?;
    Ok(out)
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
        // Read under the largest limit the JS options allow (1 MiB).
        let roomy = Limits { max_bytes: 1 << 20, ..Limits::default() };
        let body = parse_body(&text, &roomy).unwrap();
        let err = canonical_entries(&body, &CanonicalOptions::DEFAULT).unwrap_err();
        assert_eq!(err.code(), "BODY_TOO_LARGE");
        assert!(matches!(err, Error::CanonicalTooLarge { actual, .. } if actual > 100_000_000_000));
        assert_eq!(canonical_message(&body, "1", &CanonicalOptions::DEFAULT).unwrap_err(), err);
        // The same leaves under a short key are fine, and so is the long key over few leaves.
        let short = parse_body(&format!(r#"{{"k":[{}0]}}"#, "0,".repeat(260_000)), &roomy).unwrap();
        assert_eq!(canonical_entries(&short, &CanonicalOptions::DEFAULT).unwrap().len(), 260_001);
        let few = parse_body(&format!(r#"{{"{long_key}":[0,1,2]}}"#), &roomy).unwrap();
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
