//! How a JSON number is written in a canonical entry: integers exactly as
//! Python's `int` prints them, other numbers as Python's `repr(float)`.

use std::borrow::Cow;

/// A number's canonical text and whether Python would call it falsy. An
/// integer's text is borrowed from the JSON text (it is its own canonical text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberText<'a> {
    pub text: Cow<'a, str>,
    pub is_zero: bool,
}

/// Python (3.11+) refuses to convert longer integer text (`sys.int_info.default_max_str_digits`),
/// so no Python sender can sign one; we refuse it too rather than guess.
pub const MAX_INTEGER_DIGITS: usize = 4300;

/// Canonical text of JSON number text, or `None` when it has none: an integer
/// over [`MAX_INTEGER_DIGITS`], or a float beyond the `f64` range.
pub fn python_number_text(json_text: &str) -> Option<NumberText<'_>> {
    if is_integer_text(json_text) {
        let digits = json_text.strip_prefix('-').unwrap_or(json_text);
        if digits.is_empty() || digits.len() > MAX_INTEGER_DIGITS || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let is_zero = digits.bytes().all(|b| b == b'0');
        // JSON forbids leading zeros, so only "-0" needs normalising.
        let text = if is_zero { Cow::Borrowed("0") } else { Cow::Borrowed(json_text) };
        return Some(NumberText { text, is_zero });
    }
    let value: f64 = json_text.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    Some(NumberText { text: Cow::Owned(python_float_repr(value)), is_zero: value == 0.0 })
}

/// Whether JSON number text is an integer (no fraction, no exponent): Python
/// reads it as `int`, and anything else as `float`.
pub(crate) fn is_integer_text(json_text: &str) -> bool {
    !json_text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E'))
}

/// `repr(x)` of a finite Python float: the shortest digits that round-trip,
/// in fixed notation for decimal exponents -4..16, otherwise scientific.
pub fn python_float_repr(value: f64) -> String {
    // `{:e}` gives the shortest round-trip digits, e.g. "1.2345e-7" or "-5e0".
    let scientific = format!("{:e}", value.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if value.is_sign_negative() { "-" } else { "" };

    if !(-4..16).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{fraction}e{exponent_sign}{:02}", exponent.unsigned_abs());
    }
    if exponent < 0 {
        let zeros = "0".repeat((-exponent - 1) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let integer_len = exponent as usize + 1;
    if digits.len() <= integer_len {
        let zeros = "0".repeat(integer_len - digits.len());
        format!("{sign}{digits}{zeros}.0")
    } else {
        let (integer, fraction) = digits.split_at(integer_len);
        format!("{sign}{integer}.{fraction}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_exact_at_any_size() {
        let big = "-123456789012345678901234567890";
        assert_eq!(python_number_text(big).unwrap().text, big);
        assert_eq!(python_number_text("-0").unwrap(), NumberText { text: "0".into(), is_zero: true });
        assert!(python_number_text(&"9".repeat(MAX_INTEGER_DIGITS)).is_some());
        assert!(python_number_text(&"9".repeat(MAX_INTEGER_DIGITS + 1)).is_none());
    }

    #[test]
    fn floats_beyond_range_have_no_text() {
        assert!(python_number_text("1e400").is_none());
        assert!(python_number_text("-1e400").is_none());
        assert_eq!(python_number_text("1e-400").unwrap(), NumberText { text: "0.0".into(), is_zero: true });
    }

    #[test]
    fn zero_floats_are_falsy() {
        assert!(python_number_text("0.0").unwrap().is_zero);
        assert!(python_number_text("-0.0e5").unwrap().is_zero);
        assert_eq!(python_number_text("-0.0").unwrap().text, "-0.0");
    }
}
