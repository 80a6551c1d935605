//! Exact conversion between decimal amounts ("1500.50") and the integer minor
//! units the service expects (150050), by currency. Pure digit arithmetic:
//! no floats anywhere, so no amount is ever rounded.

use crate::error::{Error, Result};

/// Fraction digits the spec gives ("Amounts and currency codes").
#[rustfmt::skip]
const SPEC_DIGITS: &[(&str, u8)] = &[("ARS", 2), ("KZT", 2), ("RUB", 2), ("UZS", 2), ("KRW", 0)];

/// ISO 4217 currencies whose minor unit is not 2 digits. The spec is silent on
/// these (and on KES, NGN, ZAR), so ISO 4217's own digits apply.
#[rustfmt::skip]
const ISO_OTHER_DIGITS: &[(&str, u8)] = &[
    ("BIF", 0), ("CLP", 0), ("DJF", 0), ("GNF", 0), ("ISK", 0), ("JPY", 0), ("KMF", 0), ("KRW", 0),
    ("PYG", 0), ("RWF", 0), ("UGX", 0), ("UYI", 0), ("VND", 0), ("VUV", 0), ("XAF", 0), ("XOF", 0),
    ("XPF", 0), ("BHD", 3), ("IQD", 3), ("JOD", 3), ("KWD", 3), ("LYD", 3), ("OMR", 3), ("TND", 3),
    ("CLF", 4), ("UYW", 4),
];

/// ISO 4217 currencies with 2 fraction digits (the list in force in 2024, plus
/// codes withdrawn since that may still be in use). Fund and metal codes without
/// a minor unit (XAU, XDR, XXX…) are deliberately absent.
#[rustfmt::skip]
const ISO_TWO_DIGITS: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT", "BGN",
    "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF",
    "CHW", "CNY", "COP", "COU", "CRC", "CUC", "CUP", "CVE", "CZK", "DKK", "DOP", "DZD", "EGP", "ERN",
    "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GTQ", "GYD", "HKD", "HNL", "HTG",
    "HUF", "IDR", "ILS", "INR", "IRR", "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP",
    "LKR", "LRD", "LSL", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK",
    "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "PAB", "PEN", "PGK", "PHP",
    "PKR", "PLN", "QAR", "RON", "RSD", "RUB", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE",
    "SLL", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TOP", "TRY", "TTD",
    "TWD", "TZS", "UAH", "USD", "USN", "UYU", "UZS", "VED", "VES", "WST", "XCD", "XCG", "YER", "ZAR",
    "ZMW", "ZWG", "ZWL",
];

/// Number of fraction digits of `currency` (upper-case ISO 4217 alpha-3):
/// the spec's table first, then ISO 4217. `None` for an unknown code.
pub fn currency_digits(currency: &str) -> Option<u8> {
    let lookup = |table: &[(&str, u8)]| table.iter().find(|(code, _)| *code == currency).map(|(_, d)| *d);
    lookup(SPEC_DIGITS).or_else(|| lookup(ISO_OTHER_DIGITS)).or_else(|| ISO_TWO_DIGITS.contains(&currency).then_some(2))
}

fn digits_or_error(currency: &str) -> Result<u8> {
    currency_digits(currency).ok_or_else(|| Error::UnknownCurrency { code: currency.to_owned() })
}

/// Converts a decimal amount in major units to integer minor units:
/// `to_minor_units("1500.50", "RUB") == Ok(150050)`, `("1500", "KRW") == Ok(1500)`.
///
/// Accepted text: ASCII digits, optionally `.` and 1..=digits-of-currency
/// fraction digits. Refused: signs, spaces, exponents, separators, an empty
/// part, and more fraction digits than the currency has, even zeros ("1500.0"
/// for KRW): such text is most likely in the wrong unit. The result is not
/// range-checked; validation reports amounts outside 1..=10000000000000.
pub fn to_minor_units(decimal: &str, currency: &str) -> Result<u64> {
    let digits = digits_or_error(currency)?;
    let invalid = |reason: String| Error::InvalidAmount { value: decimal.to_owned(), reason };
    let (whole, fraction) = match decimal.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (decimal, None),
    };
    let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || fraction.is_some_and(|f| !all_digits(f)) {
        return Err(invalid("must be digits with an optional '.' and fraction, e.g. '1500.50'".into()));
    }
    let fraction = fraction.unwrap_or("");
    if fraction.len() > usize::from(digits) {
        return Err(invalid(format!("has {} fraction digits; {currency} has {digits}", fraction.len())));
    }
    let padded = format!("{whole}{fraction:0<width$}", width = usize::from(digits));
    padded.parse::<u64>().map_err(|_| invalid("is too large".into()))
}

/// Writes integer minor units as a decimal amount in major units, with exactly
/// the currency's fraction digits: `from_minor_units(150050, "RUB") == Ok("1500.50")`.
pub fn from_minor_units(minor: u64, currency: &str) -> Result<String> {
    let digits = usize::from(digits_or_error(currency)?);
    if digits == 0 {
        return Ok(minor.to_string());
    }
    let text = format!("{minor:0>width$}", width = digits + 1);
    let (whole, fraction) = text.split_at(text.len() - digits);
    Ok(format!("{whole}.{fraction}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_examples() {
        assert_eq!(to_minor_units("1500.50", "RUB").unwrap(), 150050);
        assert_eq!(to_minor_units("1500", "KRW").unwrap(), 1500);
        assert_eq!(to_minor_units("1500.5", "KRW").unwrap_err().code(), "INVALID_AMOUNT");
        assert_eq!(from_minor_units(150050, "RUB").unwrap(), "1500.50");
        assert_eq!(from_minor_units(1500, "KRW").unwrap(), "1500");
    }

    #[test]
    fn short_fractions_are_padded_and_long_ones_refused() {
        assert_eq!(to_minor_units("1500.5", "RUB").unwrap(), 150050);
        assert_eq!(to_minor_units("0.01", "KZT").unwrap(), 1);
        assert_eq!(to_minor_units("1.234", "KWD").unwrap(), 1234);
        assert_eq!(to_minor_units("1500.505", "RUB").unwrap_err().code(), "INVALID_AMOUNT");
        assert_eq!(to_minor_units("1500.0", "KRW").unwrap_err().code(), "INVALID_AMOUNT");
    }

    #[test]
    fn malformed_text_is_refused() {
        for bad in ["", ".", "1.", ".5", "-1", "+1", "1e3", "1 500", "1,500.00", "１５", " 1", "1.2.3", "NaN"] {
            assert_eq!(to_minor_units(bad, "RUB").unwrap_err().code(), "INVALID_AMOUNT", "{bad:?}");
        }
        assert_eq!(to_minor_units("18446744073709551616", "KRW").unwrap_err().code(), "INVALID_AMOUNT");
        assert_eq!(to_minor_units("184467440737095516.16", "RUB").unwrap_err().code(), "INVALID_AMOUNT");
        assert_eq!(to_minor_units("184467440737095516.15", "RUB").unwrap(), u64::MAX);
    }

    #[test]
    fn currencies_known_and_unknown() {
        for (code, digits) in [("KES", 2), ("NGN", 2), ("ZAR", 2), ("JPY", 0), ("BHD", 3), ("UZS", 2), ("ARS", 2)] {
            assert_eq!(currency_digits(code), Some(digits), "{code}");
        }
        for unknown in ["XXX", "XAU", "rub", "RU", ""] {
            assert_eq!(to_minor_units("1", unknown).unwrap_err().code(), "UNKNOWN_CURRENCY", "{unknown}");
            assert_eq!(from_minor_units(1, unknown).unwrap_err().code(), "UNKNOWN_CURRENCY", "{unknown}");
        }
    }

    #[test]
    fn small_values_get_leading_zeros_and_round_trip() {
        assert_eq!(from_minor_units(5, "RUB").unwrap(), "0.05");
        assert_eq!(from_minor_units(0, "RUB").unwrap(), "0.00");
        assert_eq!(from_minor_units(7, "BHD").unwrap(), "0.007");
        for minor in [1, 99, 100, 150050, 10_000_000_000_000, u64::MAX] {
            for currency in ["RUB", "KRW", "KWD", "CLF"] {
                let text = from_minor_units(minor, currency).unwrap();
                assert_eq!(to_minor_units(&text, currency).unwrap(), minor, "{text} {currency}");
            }
        }
    }

    #[test]
    fn tables_do_not_contradict() {
        for (code, _) in ISO_OTHER_DIGITS {
            assert!(!ISO_TWO_DIGITS.contains(code), "{code}");
        }
        for (code, digits) in SPEC_DIGITS {
            assert_eq!(currency_digits(code), Some(*digits));
            assert!(ISO_TWO_DIGITS.contains(code) || ISO_OTHER_DIGITS.contains(&(code, *digits)), "{code}");
        }
    }
}
