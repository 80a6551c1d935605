//! The canonical message of the spec (Authentication, steps 1 to 5): flatten
//! the body to `path:value` entries, sort, join with `;`, base64url the UTF-8
//! bytes and append the timestamp. The open points of the spec are named
//! options; the defaults follow its Python origin.
//!
//! - `entry`: the one writer of entries, which owns every rule of their text
//!   and the bound on their size; fed by the tree walk (here) and by
//! - `text`: the one-pass path from JSON text, without the tree;
//! - `number`: numbers as Python writes them; `sort`: the entries' order;
//! - `ambiguity`: where the signed message does not determine the body.
//!
//! [`message_of_text`] makes the choice between the one-pass path and the tree.

pub(crate) mod ambiguity;
pub(crate) mod ambiguity_rules;
mod base64url;
pub(crate) mod entry;
pub(crate) mod number;
pub(crate) mod sort;
pub(crate) mod text;

pub(crate) use entry::{leaf_text, writes_none};
use entry::{measure, EntryWriter, Flat, MAX_CANONICAL_BYTES};

use crate::error::{Error, Result};
use crate::json::{read_body, Json, Limits};

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

/// How numbers are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Numbers {
    /// Integers exactly, other numbers as Python's `repr(float)` (the default).
    #[default]
    Python,
    /// As JavaScript's `String(JSON.parse(text))`: the nearest double, shortest
    /// round-trip digits, `1e+21`, `1e-7`, `0.000001`, `-0` as `0`.
    Js,
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
    /// How numbers are written.
    pub numbers: Numbers,
}

impl CanonicalOptions {
    /// The spec read with its Python origin.
    pub const DEFAULT: CanonicalOptions = CanonicalOptions {
        falsy: Falsy::None,
        booleans: Booleans::Python,
        padding: true,
        order: Order::CodePoint,
        numbers: Numbers::Python,
    };

    /// Every variant, the default first; used to diagnose a sender. The
    /// variants that differ only in `padding` are next to each other.
    pub fn all_variants() -> Vec<CanonicalOptions> {
        let mut all = vec![Self::DEFAULT];
        for numbers in [Numbers::Python, Numbers::Js] {
            for order in [Order::CodePoint, Order::Utf16] {
                for falsy in [Falsy::None, Falsy::Null] {
                    for booleans in [Booleans::Python, Booleans::Lower, Booleans::Digit] {
                        for padding in [true, false] {
                            let variant = CanonicalOptions { falsy, booleans, padding, order, numbers };
                            if variant != Self::DEFAULT {
                                all.push(variant);
                            }
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

impl Flat {
    /// The sorted entries of a tree. The tree is measured first (nothing is
    /// built for a body whose entries would be too large), then written into
    /// one reservation of the measured size.
    fn of(body: &Json, options: &CanonicalOptions) -> Result<Flat> {
        let bound = measure(body)?;
        let mut writer = EntryWriter::new(options, u64::MAX);
        // The bound covers every entry, so the text never grows past this one reservation.
        // (The spans, one per leaf, are bounded by the body's own size.)
        writer.reserve(usize::try_from(bound).unwrap_or(usize::MAX), 0)?;
        writer.write_tree(body)?;
        let mut flat = writer.into_flat();
        flat.sort(options.order);
        Ok(flat)
    }

    /// base64url of the joined entries, then the timestamp.
    pub(crate) fn message(&self, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
        let mut message = Vec::new();
        self.message_into(timestamp, options, &mut message)?;
        ascii_message(message)
    }

    /// [`Flat::message`] appended to `out` as bytes.
    pub(crate) fn message_into(&self, timestamp: &str, options: &CanonicalOptions, out: &mut Vec<u8>) -> Result<()> {
        let joined = self.joined()?;
        encode_message_into(joined.as_bytes(), timestamp, options.padding, out)
    }
}

/// The joined entries of a body: what is base64url-encoded.
pub(crate) fn joined_entries(body: &Json, options: &CanonicalOptions) -> Result<String> {
    Flat::of(body, options)?.joined()
}

/// base64url of `joined` (with or without `=` padding), then the timestamp.
pub(crate) fn encode_message(joined: &str, timestamp: &str, padding: bool) -> Result<String> {
    let mut message = Vec::new();
    encode_message_into(joined.as_bytes(), timestamp, padding, &mut message)?;
    ascii_message(message)
}

/// [`encode_message`] appended to `out` as bytes.
fn encode_message_into(joined: &[u8], timestamp: &str, padding: bool, out: &mut Vec<u8>) -> Result<()> {
    let len = base64url::encoded_len(joined.len(), padding) + timestamp.len();
    out.try_reserve_exact(len).map_err(|_| too_large(len))?;
    base64url::encode_into(joined, padding, out);
    out.extend_from_slice(timestamp.as_bytes());
    Ok(())
}

/// The message's bytes as text: base64url and a timestamp checked to be digits, ASCII.
fn ascii_message(message: Vec<u8>) -> Result<String> {
    let len = message.len();
    String::from_utf8(message).map_err(|_| too_large(len))
}

fn too_large(len: usize) -> Error {
    Error::CanonicalTooLarge { limit: MAX_CANONICAL_BYTES, actual: len as u64 }
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
    let mut message = Vec::new();
    message_of_text_into(text, timestamp, options, limits, &mut message)?;
    ascii_message(message)
}

/// [`message_of_text`] appended to `out` as bytes (the wasm's buffer, read in place by JS).
pub(crate) fn message_of_text_into(
    text: &str,
    timestamp: &str,
    options: &CanonicalOptions,
    limits: &Limits,
    out: &mut Vec<u8>,
) -> Result<()> {
    flat_of_text(text, timestamp, options, limits)?.message_into(timestamp, options, out)
}

/// The sorted entries of a body given as text; the errors of [`canonical_message`]
/// of the parsed body (the body's first, then the timestamp's).
fn flat_of_text(text: &str, timestamp: &str, options: &CanonicalOptions, limits: &Limits) -> Result<Flat> {
    let read = ReadText::of(text, options, limits)?;
    check_timestamp(timestamp)?;
    Ok(read.into_parts(options)?.0)
}

/// A body's text read for its entries: by the one-pass reader when it can, else into
/// the tree, which words the error. The text's own errors (JSON, limits) are raised by
/// [`ReadText::of`]; the entries' (their size) by [`ReadText::into_parts`], so that a
/// caller keeps the order of [`parse_body`](crate::json::parse_body), its own checks, then [`canonical_message`].
pub(crate) enum ReadText<'a> {
    /// The sorted entries, from the one-pass reader (no tree was built).
    Entries(Flat),
    /// The tree, for the entries to be written from.
    Tree(Json<'a>),
}

impl<'a> ReadText<'a> {
    pub(crate) fn of(text: &'a str, options: &CanonicalOptions, limits: &Limits) -> Result<ReadText<'a>> {
        match text::flat_from_text(text, options, limits) {
            Some(flat) => Ok(ReadText::Entries(flat)),
            None => Ok(ReadText::Tree(read_body(text, limits)?)),
        }
    }

    /// The sorted entries, and the tree when one was built.
    pub(crate) fn into_parts(self, options: &CanonicalOptions) -> Result<(Flat, Option<Json<'a>>)> {
        match self {
            ReadText::Entries(flat) => Ok((flat, None)),
            ReadText::Tree(body) => Ok((Flat::of(&body, options)?, Some(body))),
        }
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
    // Digits worth more than 2^32 seconds (up to 16 of them, a millisecond or microsecond
    // clock): most likely `Date.now()`, said so.
    let digits = timestamp.len() <= 16 && !timestamp.is_empty() && timestamp.bytes().all(|b| b.is_ascii_digit());
    if digits && !timestamp.starts_with('0') && timestamp.parse::<u64>().is_ok_and(|n| n > 1 << 32) {
        return Err(Error::TimestampInMilliseconds { value: timestamp.to_owned() });
    }
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
        assert_eq!(all.len(), 48);
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
            let bound = measure(&body).unwrap();
            for options in CanonicalOptions::all_variants() {
                let joined = canonical_entries(&body, &options).unwrap().join(";");
                assert!(joined.len() as u64 <= bound, "{text}: {} > {bound}", joined.len());
            }
        }
    }

    #[test]
    fn over_long_integers_are_refused() {
        let body = parse_body(&format!(r#"{{"n":{}}}"#, "9".repeat(5000)), &Limits::default()).unwrap();
        let err = canonical_entries(&body, &CanonicalOptions::DEFAULT).unwrap_err();
        assert_eq!(err.code(), "INVALID_NUMBER");
    }
}
