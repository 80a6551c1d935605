//! The spec's numeric limits ("Limits"; "Amounts and currency codes"): the
//! range of amounts, the request lifetime by country and its default, and the lengths of a
//! merchant id (which the spec does not bound: those two are ours).
//! The per-field string lengths of request bodies stay with their fields in
//! `validate/operations.rs`, where each is written once.

/// Smallest amount, in minor units ("Limits": amount fields, 1..10000000000000).
pub const AMOUNT_MIN: i128 = 1;
/// Largest amount, in minor units ("Limits": amount fields, 1..10000000000000).
pub const AMOUNT_MAX: i128 = 10_000_000_000_000;

/// Request lifetime bounds, seconds ("Limits", request lifetime): 300 everywhere;
/// up to 900 in KZ (H2H and widget) and 600 in every other listed row.
pub const LIFETIME_MIN: i128 = 300;
/// Upper lifetime bound of every row but KZ, seconds.
pub const LIFETIME_MAX: i128 = 600;
/// Upper lifetime bound in KZ, seconds.
pub const LIFETIME_MAX_KZ: i128 = 900;

/// Lifetime the builders send when none is given, seconds: the spec's
/// default of 10 minutes, within the bounds of every country.
pub const LIFETIME_DEFAULT: u64 = 600;

/// The upper lifetime bound for a country. When the country is missing or
/// malformed it cannot be known, so the largest bound (900) is used rather
/// than report a second error for one mistake. Countries the table does not
/// list get 600, the bound of every listed row but KZ.
pub fn lifetime_max(country: Option<&str>) -> i128 {
    match country {
        Some("KZ") | None => LIFETIME_MAX_KZ,
        Some(_) => LIFETIME_MAX,
    }
}

/// Longest merchant id a request is signed with, in characters. The spec does
/// not bound `x-access-merchant-id`; 255 is generous.
pub const MERCHANT_ID_MAX_CHARS: usize = 255;

/// Longest `x-access-merchant-id` a received callback may carry, in (visible
/// ASCII) characters; also not bounded by the spec.
pub const RECEIVED_MERCHANT_ID_MAX_CHARS: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn amount_range_is_the_spec_limit() {
        let Some(spec) = spec() else { return };
        let limits = table(&spec, "## Limits");
        let amount = limits.iter().find(|row| row[0] == "amount fields").map(|row| row[1].as_str());
        assert_eq!(amount, Some(format!("{AMOUNT_MIN}..{AMOUNT_MAX}").as_str()));
        assert!(spec.contains(&format!("Range of every amount field: {AMOUNT_MIN} <= X <= {AMOUNT_MAX}.")));
    }

    /// Every row of the lifetime table: its countries' bound is `lifetime_max`'s.
    #[test]
    fn lifetime_bounds_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        assert!(spec.contains(&format!("lower bound {LIFETIME_MIN} everywhere")));
        let rows = table(&spec, "Request lifetime (`lifetime`, seconds, lower bound 300 everywhere):");
        assert_eq!(rows.len(), 5);
        for row in rows {
            assert!(row[2].starts_with("10 minutes"), "{row:?}: the default is {LIFETIME_DEFAULT} s everywhere");
            let (_integration, countries) = row[0].split_once(", ").unwrap_or_default();
            for country in countries.split(", ") {
                assert_eq!(lifetime_max(Some(country)).to_string(), row[1], "{}", row[0]);
            }
        }
    }

    #[test]
    fn lifetime_of_unknown_countries() {
        assert_eq!(lifetime_max(None), LIFETIME_MAX_KZ);
        assert_eq!(lifetime_max(Some("UZ")), LIFETIME_MAX);
        const { assert!(LIFETIME_MIN < LIFETIME_MAX && LIFETIME_MAX < LIFETIME_MAX_KZ) };
        const { assert!(LIFETIME_DEFAULT == 10 * 60 && LIFETIME_DEFAULT as i128 <= LIFETIME_MAX) };
    }
}
