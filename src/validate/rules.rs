//! Checks of single values: JSON types, lengths in characters, the spec's
//! patterns as small character-class tests (no regex engine), integers and
//! amounts. The address formats (https URLs, IP and e-mail addresses) are
//! `addresses.rs`'s.

use super::addresses::{check_https_url, is_email, is_ip_address, loopback_http_url, UrlProblem};
use super::{Findings, IssueValue};
use crate::json::{Json, Leaf};
use crate::spec::availability::{is_method_code, is_widget_method_code};
use crate::spec::limits::{AMOUNT_MAX, AMOUNT_MIN};

/// `customer.customer_type`'s values: 'ftd' (primary) or 'trust' (secondary traffic).
pub(crate) const CUSTOMER_TYPES: &[&str] = &["ftd", "trust"];

/// What a string must look like besides its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Free,
    /// `^[A-Z]{3}$`
    Currency,
    /// `^[A-Z]{2}$`
    Country,
    /// `^[a-z]{2}$`
    Language,
    /// `^\+7\d{10}$`
    Phone,
    /// `^[A-Za-z0-9_-]{1,16}$` (the length is checked as a length).
    ExtraParam,
    /// Only `0-9` (the Limits table's `sbp_code`; the length is checked as a length).
    Digits,
    /// `^(ftd|trust)$`
    CustomerType,
    /// Latin, Cyrillic incl. Ukrainian letters, digits, whitespace, `-`, `.`, `'`
    /// (see [`is_card_holder`]).
    CardHolder,
    HttpsUrl,
    IpAddress,
    Email,
    /// A code of the spec's payment method table.
    Method,
    /// A code of the spec's widget method table.
    WidgetMethod,
}

impl Format {
    /// Whether the value may be copied into an issue. Personal data never is.
    fn echoes_value(self) -> bool {
        matches!(
            self,
            Format::Currency
                | Format::Country
                | Format::Language
                | Format::ExtraParam
                | Format::Digits
                | Format::CustomerType
                | Format::Method
                | Format::WidgetMethod
        )
    }
}

/// Checks a string's length (in chars) and format, reporting every failure.
pub(crate) fn check_text(findings: &mut Findings, path: &str, text: &str, min: usize, max: usize, format: Format) {
    // A char is 1 to 4 bytes of UTF-8, so the chars are counted only when the byte
    // length leaves either bound in doubt.
    if text.len() > max || text.len().div_ceil(4) < min {
        let length = text.chars().count();
        if length > max {
            findings
                .error(path, "TOO_LONG", format!("{path} has {length} characters; at most {max} are allowed"))
                .with_limit(IssueValue::int(max as i128))
                .with_actual(IssueValue::int(length as i128));
        } else if length < min {
            let message = if min == 1 {
                format!("{path} must not be empty")
            } else {
                format!("{path} has {length} characters; at least {min} are required")
            };
            findings
                .error(path, "TOO_SHORT", message)
                .with_limit(IssueValue::int(min as i128))
                .with_actual(IssueValue::int(length as i128));
        }
    }
    if text.is_empty() && min > 0 {
        return; // "empty" already said it all
    }
    // No field's value can hold U+0000: PostgreSQL's text refuses it, so an id holding one
    // is taken by the service and then fails every store of its callbacks. Said instead of
    // the format it also breaks: that cannot be fixed before the NUL is gone.
    if text.contains('\0') {
        let message = format!("{path} must not hold the character U+0000 (NUL), which PostgreSQL text cannot store");
        findings.error(path, "PATTERN", message);
        return;
    }
    let problem = match format {
        Format::Free => None,
        Format::Currency => {
            (!is_upper_code(text, 3)).then_some(("PATTERN", "3 capital letters A-Z (ISO 4217), e.g. RUB"))
        }
        Format::Country => {
            (!is_upper_code(text, 2)).then_some(("PATTERN", "2 capital letters A-Z (ISO 3166-1), e.g. RU"))
        }
        Format::Language => (!(text.len() == 2 && text.bytes().all(|b| b.is_ascii_lowercase())))
            .then_some(("PATTERN", "2 small letters a-z (ISO 639-1), e.g. ru")),
        Format::Phone => (!is_ru_phone(text)).then_some(("PATTERN", "+7 followed by 10 digits, e.g. +79001234567")),
        Format::ExtraParam => (!text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .then_some(("PATTERN", "only the characters A-Z a-z 0-9 _ -")),
        Format::Digits => (!text.bytes().all(|b| b.is_ascii_digit())).then_some(("PATTERN", "only the digits 0-9")),
        Format::CustomerType => {
            (!CUSTOMER_TYPES.contains(&text)).then_some(("PATTERN", "'ftd' (primary) or 'trust' (secondary traffic)"))
        }
        Format::CardHolder => (!is_card_holder(text)).then_some((
            "PATTERN",
            "only Latin or Cyrillic (incl. Ukrainian) letters, digits, spaces, hyphens, periods and apostrophes",
        )),
        Format::HttpsUrl => match check_https_url(text) {
            Ok(()) => None,
            Err(UrlProblem::NotHttps) if findings.options.allow_loopback_http => match loopback_http_url(text) {
                Some(Ok(())) => {
                    let message = format!("{path} is an http:// URL to a loopback host: accepted by a local sandbox only; the service takes https:// only");
                    findings.warning(path, "LOOPBACK_HTTP", message);
                    return;
                }
                Some(Err(UrlProblem::Invalid(why))) => Some(("INVALID_URL", why)),
                _ => Some(("NOT_HTTPS", "an https:// URL (http:// only to a loopback host)")),
            },
            Err(UrlProblem::NotHttps) => Some(("NOT_HTTPS", "an https:// URL")),
            Err(UrlProblem::Invalid(why)) => Some(("INVALID_URL", why)),
        },
        Format::IpAddress => (!is_ip_address(text)).then_some(("INVALID_IP", "an IPv4 or IPv6 address")),
        Format::Email => (!is_email(text)).then_some(("INVALID_EMAIL", "an e-mail address like name@example.com")),
        Format::Method => (!is_method_code(text)).then_some(("UNKNOWN_METHOD", "a payment method code, e.g. card-p2p")),
        Format::WidgetMethod => {
            (!is_widget_method_code(text)).then_some(("UNKNOWN_METHOD", "a widget method code, e.g. payin-p2p-card"))
        }
    };
    if let Some((code, expected)) = problem {
        let message = match code {
            "INVALID_URL" => format!("{path} is not a valid URL: {expected}"),
            _ => format!("{path} must be {expected}"),
        };
        if format.echoes_value() {
            let shown: String = text.chars().take(40).collect();
            findings.error(path, code, format!("{message}, got '{shown}'")).with_actual(IssueValue::text(shown));
        } else {
            findings.error(path, code, message);
        }
    }
}

fn is_upper_code(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_uppercase())
}

fn is_ru_phone(text: &str) -> bool {
    text.strip_prefix("+7").is_some_and(|rest| rest.len() == 10 && rest.bytes().all(|b| b.is_ascii_digit()))
}

/// `sender.card_holder`: "Latin, Cyrillic (incl. Ukrainian letters), digits,
/// whitespace, hyphen, period, apostrophe". Read as:
/// - Latin: the ASCII letters (as before; `Jörg` is refused);
/// - Cyrillic: every letter of the Cyrillic and Cyrillic Supplement blocks,
///   U+0400..=U+052F, which hold the letters of the living languages written in
///   Cyrillic (Russian, Ukrainian, Belarusian Ў, Kazakh Ә Ғ Қ Ң Ө Ұ Ү Һ І,
///   Serbian Ђ Ј Љ Њ Ћ Џ, …), without the block's historic signs and combining
///   marks (U+0482..=U+0489). Cyrillic Extended-A, -B, -C and -D
///   (U+2DE0..=U+2DFF, U+A640..=U+A69F, U+1C80..=U+1C8F, U+1E030..=U+1E08F) are
///   refused: they hold Old Church Slavonic and other historic letters and
///   combining letters, which no name on a card is written in;
/// - a Cyrillic letter may be written decomposed: one combining mark of
///   [`CYRILLIC_COMBINING_MARKS`] directly after a Cyrillic letter (`И` + U+0306
///   for `Й`, `І` + U+0308 for `Ї`). A mark anywhere else (first, after a space,
///   a digit or a Latin letter, or a second mark) is refused;
/// - ASCII digits, whitespace, hyphen, period and the ASCII apostrophe. The spec
///   names no typographic apostrophe (’), so it is not accepted.
///
/// Lengths stay counted in characters (Unicode scalar values) like every other
/// length, so a decomposed `Й` counts as 2.
pub(crate) fn is_card_holder(text: &str) -> bool {
    let mut after_cyrillic_letter = false;
    text.chars().all(|c| {
        let ok = if CYRILLIC_COMBINING_MARKS.contains(&c) {
            after_cyrillic_letter
        } else {
            c.is_ascii_alphanumeric() || c.is_whitespace() || matches!(c, '-' | '.' | '\'') || is_cyrillic_letter(c)
        };
        after_cyrillic_letter = is_cyrillic_letter(c);
        ok
    })
}

/// The combining marks of the canonical decompositions of the letters
/// U+0400..=U+052F: grave (Ѐ Ѝ), acute (Ѓ Ќ), macron (Ӣ Ӯ), breve (Й Ў Ӑ Ӗ Ӂ),
/// diaeresis (Ё Ї Ӓ Ӧ Ӱ …), double acute (Ӳ), double grave (Ѷ).
pub(crate) const CYRILLIC_COMBINING_MARKS: [char; 7] =
    ['\u{0300}', '\u{0301}', '\u{0304}', '\u{0306}', '\u{0308}', '\u{030B}', '\u{030F}'];

/// A letter of the Cyrillic (U+0400..=U+04FF) or Cyrillic Supplement
/// (U+0500..=U+052F) block: all but U+0482..=U+0489 (a sign and combining marks).
fn is_cyrillic_letter(c: char) -> bool {
    matches!(c, '\u{0400}'..='\u{0481}' | '\u{048A}'..='\u{052F}')
}

/// The integer a JSON number stands for: `None` for a fraction or exponent
/// form (`15.5`, `1.0`, `1e3`); a value beyond i128 saturates at its sign.
pub(crate) fn integer_value(text: &str) -> Option<i128> {
    if text.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return None;
    }
    // Up to 18 characters fit an i64: read without 128-bit arithmetic.
    if text.len() <= 18 {
        if let Ok(value) = text.parse::<i64>() {
            return Some(value.into());
        }
    }
    match text.parse::<i128>() {
        Ok(value) => Some(value),
        Err(_) if text.starts_with('-') => Some(i128::MIN),
        Err(_) => Some(i128::MAX),
    }
}

/// A value as the checks meet it: a leaf, or a container (its subtree is not
/// the check's). The same whether read from a tree or from text.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    Leaf(Leaf<'a>),
    /// An object (`false`) or array (`true`).
    Container(bool),
}

impl Value<'_> {
    /// The JSON type name, for messages (as [`Json::kind`] names it).
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Value::Leaf(leaf) => leaf.kind(),
            Value::Container(array) => Json::container_kind(array),
        }
    }
}

impl<'a> From<&'a Json<'_>> for Value<'a> {
    fn from(value: &'a Json) -> Self {
        match value {
            Json::Object(_) => Value::Container(false),
            Json::Array(_) => Value::Container(true),
            leaf => leaf.leaf().map_or(Value::Container(false), Value::Leaf),
        }
    }
}

/// Checks that a value is a JSON integer (never a string, never `1.0`), and
/// returns it.
pub(crate) fn check_integer<'a>(findings: &mut Findings, path: &str, value: impl Into<Value<'a>>) -> Option<i128> {
    let found = match value.into() {
        Value::Leaf(Leaf::Number(text)) => match integer_value(text) {
            Some(number) => return Some(number),
            None => format!("the number {}", text.chars().take(40).collect::<String>()),
        },
        Value::Leaf(Leaf::String(_)) => "a string; write the number without quotes".to_owned(),
        other => other.kind().to_owned(),
    };
    findings.error(path, "WRONG_TYPE", format!("{path} must be an integer, found {found}"));
    None
}

/// An amount: a JSON integer in 1..=10000000000000 minor units.
pub(crate) fn check_amount<'a>(findings: &mut Findings, path: &str, value: impl Into<Value<'a>>) {
    let value = value.into();
    if let Value::Leaf(Leaf::Number(text)) = value {
        if let (None, Ok(major)) = (integer_value(text), text.parse::<f64>()) {
            if major.is_finite() && major.abs() < 1e15 {
                // A decimal amount: the caller wrote major units. Say what the field takes.
                let shown: String = text.chars().take(40).collect();
                findings.error(
                    path,
                    "WRONG_TYPE",
                    format!(
                        "{path} must be an integer, found the number {shown}: amounts are integers in minor units \
                         (e.g. {:.0} for {major:.2})",
                        (major * 100.0).round()
                    ),
                );
                return;
            }
        }
    }
    let (Some(_), Value::Leaf(Leaf::Number(text))) = (check_integer(findings, path, value), value) else {
        return;
    };
    check_range(findings, path, text, Some(AMOUNT_MIN), AMOUNT_MAX, "OUT_OF_RANGE", " minor units");
}

/// Reports a JSON number outside `min..=max` (no lower bound for `None`) with
/// `code`; `unit` follows the range in the message (" seconds"). A number with a fraction or an exponent is compared by its value;
/// whether it had to be an integer is the caller's check.
pub(crate) fn check_range(
    findings: &mut Findings,
    path: &str,
    text: &str,
    min: Option<i128>,
    max: i128,
    code: &'static str,
    unit: &str,
) {
    let (below, above) = match integer_value(text) {
        Some(value) => (min.is_some_and(|min| value < min), value > max),
        None => match text.parse::<f64>() {
            #[allow(clippy::cast_precision_loss)] // bounds of at most 2^44, exact in f64
            Ok(value) => (min.is_some_and(|min| value < min as f64), value > max as f64),
            Err(_) => (false, false),
        },
    };
    if !(below || above) {
        return;
    }
    let bound = match min {
        Some(min) if below => min,
        _ => max,
    };
    let range = min.map_or(format!("at most {max}"), |min| format!("from {min} to {max}"));
    let actual = match text.parse::<i128>() {
        Ok(value) => IssueValue::int(value),
        Err(_) => IssueValue::text(text),
    };
    findings
        .error(path, code, format!("{path} must be {range}{unit}"))
        .with_limit(IssueValue::int(bound))
        .with_actual(actual);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(path: &str, text: &str, min: usize, max: usize, format: Format) -> Vec<&'static str> {
        let mut findings = Findings::default();
        check_text(&mut findings, path, text, min, max, format);
        findings.into_report().error_codes()
    }

    /// A decimal amount (major units written where minor units go) is told what amounts are,
    /// with the example computed from its own value; the code stays WRONG_TYPE.
    #[test]
    fn a_decimal_amount_says_amounts_are_integers_in_minor_units() {
        let report = |text: &str| {
            let mut findings = Findings::default();
            check_amount(&mut findings, "payment.amount", Value::Leaf(Leaf::Number(text)));
            findings.into_report()
        };
        let decimal = report("1500.5");
        assert_eq!(decimal.error_codes(), ["WRONG_TYPE"]);
        assert_eq!(
            decimal.errors[0].message,
            "payment.amount must be an integer, found the number 1500.5: amounts are integers in minor units \
             (e.g. 150050 for 1500.50)"
        );
        assert!(report("99.99").errors[0].message.ends_with("(e.g. 9999 for 99.99)"));
        assert!(report("150050").valid);
        assert_eq!(report("0").error_codes(), ["OUT_OF_RANGE"]);
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        let cyrillic = "Ж".repeat(255);
        assert_eq!(cyrillic.len(), 510);
        assert!(codes("p", &cyrillic, 1, 255, Format::Free).is_empty());
        assert_eq!(codes("p", &format!("{cyrillic}Ж"), 1, 255, Format::Free), ["TOO_LONG"]);
        assert_eq!(codes("p", "", 1, 255, Format::Free), ["TOO_SHORT"]);
        assert!(codes("p", "", 0, 255, Format::Free).is_empty());
    }

    #[test]
    fn lengths_at_the_bounds_whatever_the_bytes_per_char() {
        // Chars of 1 to 4 bytes, at, under and over each bound: the byte length
        // alone must never decide.
        for unit in ["a", "é", "Ж", "€", "😀"] {
            for (min, max) in [(1, 1), (2, 3), (3, 3), (4, 8), (5, 16)] {
                for count in 0..=max + 1 {
                    let text = unit.repeat(count);
                    let expected: &[&str] = if count > max {
                        &["TOO_LONG"]
                    } else if count < min {
                        &["TOO_SHORT"]
                    } else {
                        &[]
                    };
                    assert_eq!(codes("p", &text, min, max, Format::Free), expected, "{unit} x{count}, {min}..={max}");
                }
            }
        }
    }

    #[test]
    fn patterns() {
        assert!(codes("c", "RUB", 1, usize::MAX, Format::Currency).is_empty());
        for bad in ["rub", "RU", "RUBL", "RÜB", "R1B"] {
            assert_eq!(codes("c", bad, 1, usize::MAX, Format::Currency), ["PATTERN"], "{bad}");
        }
        assert!(codes("p", "+79001234567", 0, 24, Format::Phone).is_empty());
        for bad in ["79001234567", "+7900123456", "+790012345678", "+89001234567", "+7900123456a", "+7９００1234567"]
        {
            assert_eq!(codes("p", bad, 0, 24, Format::Phone), ["PATTERN"], "{bad}");
        }
        assert!(codes("e", "A-z_09", 1, 16, Format::ExtraParam).is_empty());
        assert_eq!(codes("e", "a b", 1, 16, Format::ExtraParam), ["PATTERN"]);
        assert_eq!(codes("t", "FTD", 0, usize::MAX, Format::CustomerType), ["PATTERN"]);
    }

    /// U+0000 is PATTERN in a string of every format, once, without echoing the value; the
    /// other control characters and U+FFFF are a string's like any character.
    #[test]
    fn nul_is_refused_in_every_format() {
        let formats = [
            Format::Free,
            Format::Currency,
            Format::Country,
            Format::Language,
            Format::Phone,
            Format::ExtraParam,
            Format::Digits,
            Format::CustomerType,
            Format::CardHolder,
            Format::HttpsUrl,
            Format::IpAddress,
            Format::Email,
            Format::Method,
            Format::WidgetMethod,
        ];
        for format in formats {
            for text in ["\0", "a\0b", "RUB\0", "\0https://example.com"] {
                assert_eq!(codes("p", text, 1, 255, format), ["PATTERN"], "{format:?} {text:?}");
            }
        }
        let mut findings = Findings::default();
        check_text(&mut findings, "general.payment_id", "secret\0", 1, 255, Format::Free);
        let report = findings.into_report();
        assert_eq!(
            report.errors[0].message,
            "general.payment_id must not hold the character U+0000 (NUL), which PostgreSQL text cannot store"
        );
        assert_eq!(report.errors[0].actual, None);
        // Too long and holding NUL: both said.
        assert_eq!(codes("p", &"\0".repeat(256), 1, 255, Format::Free), ["TOO_LONG", "PATTERN"]);
        for ok in ["a\u{1}b", "a\u{1f}b", "a\tb", "a\u{7f}b", "a\u{85}b", "a\u{ffff}b", "a\u{fffe}b", "a\u{10ffff}"] {
            assert!(codes("p", ok, 1, 255, Format::Free).is_empty(), "{ok:?}");
        }
    }

    #[test]
    fn card_holder_charset() {
        for ok in ["IVAN IVANOV", "Іван Ґонта-Їжак", "Євгенія О'Ніл", "Пётр Ёлкин", "J. R. R. Tolkien 3rd"]
        {
            assert!(codes("h", ok, 1, 255, Format::CardHolder).is_empty(), "{ok}");
        }
        for bad in ["Ivan_Ivanov", "Jörg", "O’Neil", "A@B"] {
            assert_eq!(codes("h", bad, 1, 255, Format::CardHolder), ["PATTERN"], "{bad}");
        }
    }

    /// The whole Cyrillic script of living languages, and its letters written decomposed.
    #[test]
    fn card_holder_cyrillic_letters_of_every_served_language() {
        let kazakh = ["Ә", "ә", "Ғ", "ғ", "Қ", "қ", "Ң", "ң", "Ө", "ө", "Ұ", "ұ", "Ү", "ү", "Һ", "һ", "І", "і"];
        let belarusian = ["Ў", "ў"];
        let serbian = ["Ђ", "ђ", "Ј", "ј", "Љ", "љ", "Њ", "њ", "Ћ", "ћ", "Џ", "џ"];
        for letter in kazakh.iter().chain(&belarusian).chain(&serbian) {
            let name = format!("Олжас {letter}лиев");
            assert!(codes("h", &name, 1, 255, Format::CardHolder).is_empty(), "{letter}");
        }
        for ok in ["Олжас Әлиев", "Ҳ Ӣ Ӯ Ԁ ԯ", "Ђорђе Јовановић", "Ўладзімір"] {
            assert!(codes("h", ok, 1, 255, Format::CardHolder).is_empty(), "{ok}");
        }
        let decomposed_short_i = "Андри\u{0306}"; // Й as И + combining breve
        let decomposed_yi = "\u{0406}\u{0308}жак"; // Ї as І + combining diaeresis
        let decomposed_yo = "Пе\u{0308}тр"; // ё as е + combining diaeresis
        for ok in [decomposed_short_i, decomposed_yi, decomposed_yo, "У\u{0306}"] {
            assert!(codes("h", ok, 1, 255, Format::CardHolder).is_empty(), "{ok:?}");
        }
        // Counted in characters like every length: a decomposed Й counts 2.
        assert!(codes("h", &"И\u{0306}".repeat(127), 1, 255, Format::CardHolder).is_empty());
        assert_eq!(codes("h", &"И\u{0306}".repeat(128), 1, 255, Format::CardHolder), ["TOO_LONG"]);
        for bad in [
            "Αλέξανδρος",        // Greek
            "李小龍",            // CJK
            "\u{0306}Иван",      // a lone mark at the start
            "Иван \u{0306}",     // a mark after a space
            "Jo\u{0308}rg",      // a mark after a Latin letter
            "И\u{0306}\u{0306}", // two marks
            "И\u{0307}",         // a mark no Cyrillic letter decomposes into
            "И\u{0483}",         // a Cyrillic combining mark (titlo)
            "Ivan 😀",
            "\u{0482}", // Cyrillic thousands sign
            "\u{A640}", // Cyrillic Extended-B (historic)
            "\u{2DE0}", // Cyrillic Extended-A (combining letter)
            "\u{1C80}", // Cyrillic Extended-C
        ] {
            assert_eq!(codes("h", bad, 1, 255, Format::CardHolder), ["PATTERN"], "{bad:?}");
        }
    }

    #[test]
    fn integers_and_amounts() {
        assert_eq!(integer_value("150000"), Some(150000));
        assert_eq!(integer_value("1.0"), None);
        assert_eq!(integer_value("1e3"), None);
        assert_eq!(integer_value(&"9".repeat(50)), Some(i128::MAX));
        let check = |value: Json| {
            let mut findings = Findings::default();
            check_amount(&mut findings, "a", &value);
            findings.into_report().error_codes()
        };
        let number = |text: &'static str| Json::Number(text.into());
        assert!(check(number("1")).is_empty());
        assert!(check(number("10000000000000")).is_empty());
        assert_eq!(check(number("0")), ["OUT_OF_RANGE"]);
        assert_eq!(check(number("-5")), ["OUT_OF_RANGE"]);
        assert_eq!(check(number("10000000000001")), ["OUT_OF_RANGE"]);
        assert_eq!(check(number("15.5")), ["WRONG_TYPE"]);
        assert_eq!(check(Json::String("150000".into())), ["WRONG_TYPE"]);
        assert_eq!(check(Json::Bool(true)), ["WRONG_TYPE"]);
    }

    #[test]
    fn personal_values_are_not_echoed() {
        let mut findings = Findings::default();
        check_text(&mut findings, "customer.email", "secret-person", 0, 255, Format::Email);
        check_text(&mut findings, "payment.currency", "rub", 1, usize::MAX, Format::Currency);
        let report = findings.into_report();
        assert!(!report.errors[0].message.contains("secret-person"));
        assert_eq!(report.errors[0].actual, None);
        assert!(report.errors[1].message.contains("'rub'"));
    }
}
