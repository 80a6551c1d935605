//! How a JSON number is written in a canonical entry, under `numbers: 'python'`
//! (the default: integers exactly as Python's `int` prints them, other numbers
//! as Python's `repr(float)`) or `numbers: 'js'` (as JavaScript's
//! `String(JSON.parse(text))`: every number is the nearest double, written by
//! `Number::toString`). Both start from the same shortest round-trip digits.

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

/// The shortest decimal digits that read back as `|value|` (the one closest
/// to it when several do), and the decimal exponent of the first digit:
/// `1.2345e-7` is `("12345", -7)`. Python's `repr` and JavaScript's
/// `Number::toString` both start from these digits.
fn shortest_digits(value: f64) -> (String, i32) {
    // `{:e}` gives the shortest round-trip digits, e.g. "1.2345e-7" or "5e0".
    let scientific = format!("{:e}", value.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    (mantissa.chars().filter(char::is_ascii_digit).collect(), exponent)
}

/// `repr(x)` of a finite Python float: the shortest digits that round-trip,
/// in fixed notation for decimal exponents -4..16, otherwise scientific.
pub fn python_float_repr(value: f64) -> String {
    let (digits, exponent) = shortest_digits(value);
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

/// Canonical text of JSON number text under `numbers: 'js'`, or `None` for a
/// number beyond the `f64` range (JavaScript would write `Infinity`, which no
/// `JSON.stringify` ever sends).
pub fn js_number_text(json_text: &str) -> Option<NumberText<'static>> {
    let value: f64 = json_text.parse().ok()?;
    if !value.is_finite() {
        return None;
    }
    Some(NumberText { text: Cow::Owned(js_number_repr(value)), is_zero: value == 0.0 })
}

/// `Number::toString(x)` of a finite double (ECMAScript, Number::toString with
/// radix 10): with `k` shortest digits and the point after `n` of them, digits
/// and zeros when `k <= n <= 21`, a point inside when `0 < n <= 21`, `0.` and
/// zeros when `-6 < n <= 0`, otherwise `d.ddde+x`. `-0` is `0`.
pub fn js_number_repr(value: f64) -> String {
    if value == 0.0 {
        return "0".to_owned();
    }
    let (digits, exponent) = shortest_digits(value);
    let sign = if value < 0.0 { "-" } else { "" };
    let k = digits.len() as i32;
    let n = exponent + 1;
    if k <= n && n <= 21 {
        let zeros = "0".repeat((n - k) as usize);
        return format!("{sign}{digits}{zeros}");
    }
    if 0 < n && n <= 21 {
        let (integer, fraction) = digits.split_at(n as usize);
        return format!("{sign}{integer}.{fraction}");
    }
    if -6 < n && n <= 0 {
        let zeros = "0".repeat((-n) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let (first, rest) = digits.split_at(1);
    let fraction = if rest.is_empty() { String::new() } else { format!(".{rest}") };
    let exponent_sign = if n - 1 < 0 { '-' } else { '+' };
    format!("{sign}{first}{fraction}e{exponent_sign}{}", (n - 1).unsigned_abs())
}

/// The longest text [`js_number_repr`] writes: `-0.00000` and 17 digits.
pub(crate) const JS_NUMBER_MAX_CHARS: usize = 25;

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
    fn js_numbers_are_what_string_of_json_parse_writes() {
        // Each pair was checked with node: String(JSON.parse(text)).
        for (text, js) in [
            ("1.0", "1"),
            ("1e21", "1e+21"),
            ("1E21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("1e-7", "1e-7"),
            ("0.000001", "0.000001"),
            ("0.1", "0.1"),
            ("-0.0", "0"),
            ("-0", "0"),
            ("12345678901234567890", "12345678901234567000"),
            ("99999999999999999999", "100000000000000000000"),
            ("2.5e-5", "0.000025"),
            ("123e-20", "1.23e-18"),
            ("1.5e300", "1.5e+300"),
            ("-1e-7", "-1e-7"),
            ("5e-324", "5e-324"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("-0.0000012345678901234567", "-0.0000012345678901234567"),
            ("123456789012.5", "123456789012.5"),
            ("100", "100"),
        ] {
            assert_eq!(js_number_text(text).unwrap().text, js, "{text}");
        }
        assert!(js_number_text("1e400").is_none());
        assert!(js_number_text("-0.0").unwrap().is_zero);
        assert!(!js_number_text("5e-324").unwrap().is_zero);
        assert!(js_number_text("1e-400").unwrap().is_zero);
    }

    #[test]
    fn js_number_text_is_never_longer_than_its_bound() {
        for value in
            [-1.2345678901234567e-6, -1.2345678901234567e-300, -1.2345678901234567e20, -f64::MAX, -f64::MIN_POSITIVE]
        {
            assert!(js_number_repr(value).len() <= JS_NUMBER_MAX_CHARS, "{value}");
        }
        assert_eq!(js_number_repr(-1.2345678901234567e-6).len(), JS_NUMBER_MAX_CHARS);
    }

    #[test]
    fn zero_floats_are_falsy() {
        assert!(python_number_text("0.0").unwrap().is_zero);
        assert!(python_number_text("-0.0e5").unwrap().is_zero);
        assert_eq!(python_number_text("-0.0").unwrap().text, "-0.0");
    }
}
