//! The text of each leaf's entry, and the parts of its path: `None` for null and,
//! under `falsy: 'none'`, for `false`, `""` and any zero; `True`/`False`,
//! `true`/`false` or `1`/`0` for booleans; numbers as Python or JavaScript writes
//! them (`canonical::number`); the array index digits ([`push_index`]).

use std::borrow::Cow;

use crate::canonical::number;
use crate::canonical::{Booleans, CanonicalOptions, Falsy, Numbers};
use crate::error::{Error, Result};
use crate::json::{Json, Leaf};

/// The text of a falsy leaf (Python's `str(None)`).
pub(crate) const NONE: &str = "None";

/// A leaf's canonical text, or `None` for a number that has none (an integer
/// of more than 4300 digits, a float beyond the `f64` range).
#[inline]
pub(crate) fn text_of<'t>(leaf: Leaf<'t>, options: &CanonicalOptions) -> Option<Cow<'t, str>> {
    // A false, empty or zero leaf is written `None` only under `falsy: 'none'`; null always.
    let falsy_is_none = options.falsy == Falsy::None;
    Some(Cow::Borrowed(match leaf {
        Leaf::Null => NONE,
        Leaf::Bool(false) if falsy_is_none => NONE,
        Leaf::Bool(value) => match (options.booleans, value) {
            (Booleans::Python, true) => "True",
            (Booleans::Python, false) => "False",
            (Booleans::Lower, true) => "true",
            (Booleans::Lower, false) => "false",
            (Booleans::Digit, true) => "1",
            (Booleans::Digit, false) => "0",
        },
        Leaf::String("") if falsy_is_none => NONE,
        Leaf::String(text) => text,
        Leaf::Number(text) => return number_text(text, options),
    }))
}

/// A number leaf's canonical text: kept out of [`text_of`] so that the common
/// leaves (text, null, booleans) stay small enough to inline.
#[inline(never)]
fn number_text<'t>(text: &'t str, options: &CanonicalOptions) -> Option<Cow<'t, str>> {
    let number = match options.numbers {
        Numbers::Python => number::python_number_text(text)?,
        Numbers::Js => number::js_number_text(text)?,
    };
    if number.is_zero && options.falsy == Falsy::None {
        Some(Cow::Borrowed(NONE))
    } else {
        Some(number.text)
    }
}

/// The error of a number leaf without canonical text at `path` (segments joined
/// with `:`, as the entries write it; the error names it with `.`).
pub(crate) fn invalid_number(path: &str, leaf: Leaf<'_>) -> Error {
    let text = match leaf {
        Leaf::Number(text) => text,
        _ => "",
    };
    Error::InvalidNumber { path: path.replace(':', "."), text: text.to_owned() }
}

/// Whether the message writes this leaf as the text `None`: a falsy leaf, or the string "None".
pub(crate) fn writes_none(leaf: &Json, falsy: Falsy) -> bool {
    let options = CanonicalOptions { falsy, ..CanonicalOptions::DEFAULT };
    leaf.leaf().and_then(|leaf| text_of(leaf, &options)).is_some_and(|text| text == NONE)
}

/// A leaf's canonical text on its own (for the callback model's free-form
/// values); a container has none.
pub(crate) fn leaf_text(value: &Json, options: &CanonicalOptions) -> Result<String> {
    match value.leaf() {
        None => Ok(String::new()),
        Some(leaf) => text_of(leaf, options).map(Cow::into_owned).ok_or_else(|| invalid_number("", leaf)),
    }
}

/// Appends the decimal digits of an array index, without allocating.
pub(crate) fn push_index(out: &mut String, mut index: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (index % 10) as u8;
        index /= 10;
        if index == 0 {
            break;
        }
    }
    for &digit in &digits[at..] {
        out.push(char::from(digit));
    }
}

/// How many digits [`push_index`] writes.
#[inline]
pub(super) fn index_len(mut index: usize) -> usize {
    let mut len = 1;
    while index >= 10 {
        index /= 10;
        len += 1;
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_digits() {
        for index in [0, 7, 9, 10, 99, 100, 123_456, usize::MAX] {
            let mut out = String::from("x");
            push_index(&mut out, index);
            assert_eq!(out, format!("x{index}"));
            assert_eq!(index_len(index), out.len() - 1);
        }
    }

    #[test]
    fn leaf_text_in_every_variant() {
        for options in CanonicalOptions::all_variants() {
            let none = options.falsy == Falsy::None;
            let text = |leaf| text_of(leaf, &options).map(Cow::into_owned);
            assert_eq!(text(Leaf::Null).as_deref(), Some(NONE));
            assert_eq!(text(Leaf::String("")).as_deref(), Some(if none { NONE } else { "" }));
            assert_eq!(text(Leaf::Number("-0")).as_deref(), Some(if none { NONE } else { "0" }));
            let js = options.numbers == Numbers::Js;
            assert_eq!(
                text(Leaf::Number("0.0")).as_deref(),
                Some(if none {
                    NONE
                } else if js {
                    "0"
                } else {
                    "0.0"
                })
            );
            assert_eq!(text(Leaf::Number("1.0")).as_deref(), Some(if js { "1" } else { "1.0" }));
            assert_eq!(text(Leaf::Number("1e21")).as_deref(), Some("1e+21"));
            assert_eq!(text(Leaf::Number("1e16")).as_deref(), Some(if js { "10000000000000000" } else { "1e+16" }));
            assert_eq!(text(Leaf::Number("1e400")), None);
            let (t, f) = match options.booleans {
                Booleans::Python => ("True", "False"),
                Booleans::Lower => ("true", "false"),
                Booleans::Digit => ("1", "0"),
            };
            assert_eq!(text(Leaf::Bool(true)).as_deref(), Some(t));
            assert_eq!(text(Leaf::Bool(false)).as_deref(), Some(if none { NONE } else { f }));
        }
    }

    #[test]
    fn writes_none_for_falsy_leaves_and_the_text_none() {
        let none =
            |text: &str, falsy| writes_none(&crate::json::parse_value(text, &Default::default()).unwrap(), falsy);
        for text in ["null", "\"None\"", "\"\"", "0", "-0.0", "false"] {
            assert!(none(text, Falsy::None), "{text}");
        }
        for text in ["\"\"", "0", "false", "true", "1", "\"x\"", "1e400", "{}", "[]"] {
            assert!(!none(text, Falsy::Null), "{text}");
        }
        assert!(none("null", Falsy::Null) && none("\"None\"", Falsy::Null));
    }
}
