//! The spec's method tables and its "Availability by country" table
//! (country × currency × integration × methods), as data.

/// The two integrations that create payins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integration {
    /// H2H: the merchant's own form (P2P payin create, `payment.method`).
    H2h,
    /// H2C: the service's widget (widget payin create, `payment.widget_method`).
    Widget,
}

impl Integration {
    pub fn name(self) -> &'static str {
        match self {
            Integration::H2h => "H2H",
            Integration::Widget => "H2C (widget)",
        }
    }
}

/// One row of the availability table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Availability {
    pub country: &'static str,
    pub currency: &'static str,
    pub integration: Integration,
    /// Payin method codes (widget method codes for [`Integration::Widget`]).
    pub payin_methods: &'static [&'static str],
    /// Payout method codes; empty where payouts are unavailable.
    pub payout_methods: &'static [&'static str],
}

/// The spec's "Availability by country" table, row by row.
pub const AVAILABILITY: &[Availability] = &[
    Availability {
        country: "RU",
        currency: "RUB",
        integration: Integration::H2h,
        payin_methods: &[
            "card-p2p",
            "sbp-p2p",
            "international-p2p",
            "sbp-qr",
            "mobile-p2p",
            "international-card-p2p",
            "qr-link-p2p",
            "account-number",
        ],
        payout_methods: &["card-p2p", "sbp-p2p", "mobile-p2p"],
    },
    Availability {
        country: "RU",
        currency: "RUB",
        integration: Integration::Widget,
        payin_methods: &[
            "payin-p2p-card",
            "payin-p2p-sbp",
            "payin-1-click",
            "payin-p2p-international",
            "payin-qr-sbp",
            "payin-p2p-mobile",
            "payin-p2p-card-international",
            "payin-qr-link-p2p",
            "payin-account-number",
        ],
        payout_methods: &[],
    },
    Availability {
        country: "KZ",
        currency: "KZT",
        integration: Integration::H2h,
        payin_methods: &["international-card-p2p"],
        payout_methods: &["card-p2p"],
    },
    Availability {
        country: "KZ",
        currency: "KZT",
        integration: Integration::Widget,
        payin_methods: &["payin-p2p-card-international"],
        payout_methods: &[],
    },
    Availability {
        country: "KE",
        currency: "KES",
        integration: Integration::Widget,
        payin_methods: &["payin-mobile-money"],
        payout_methods: &[],
    },
    Availability {
        country: "NG",
        currency: "NGN",
        integration: Integration::Widget,
        payin_methods: &["payin-wallet-link", "payin-account-number", "payin-ussd"],
        payout_methods: &[],
    },
    Availability {
        country: "ZA",
        currency: "ZAR",
        integration: Integration::Widget,
        payin_methods: &["payin-eft-link"],
        payout_methods: &[],
    },
];

/// Payment method codes (`payment.method`, H2H) with their geos, as the spec lists them.
pub const METHODS: &[(&str, &[&str])] = &[
    ("card-p2p", &["ru", "uz", "az", "kg", "tj"]),
    ("sbp-p2p", &["ru"]),
    ("phone-p2p", &["kg"]),
    ("mobile-p2p", &["ru"]),
    ("international-p2p", &["ru"]),
    ("international-card-p2p", &["ru", "kz"]),
    ("qr-link-p2p", &["ru", "kg"]),
    ("account-number", &["ar", "kr", "ng", "ru"]),
    ("sbp-qr", &["ru"]),
    ("card-ecom", &["kz", "uz", "ru"]),
    ("mobile-money", &["ke"]),
    ("eft-link", &["za"]),
    ("ussd", &["ng"]),
    ("wallet-link", &["ng"]),
];

/// Widget method codes (`payment.widget_method`, H2C) with their geos.
pub const WIDGET_METHODS: &[(&str, &[&str])] = &[
    ("payin-p2p-card", &["ru", "uz", "az", "kg", "tj"]),
    ("payin-account-number", &["ng", "ru"]),
    ("payin-p2p-phone", &["kg"]),
    ("payin-p2p-sbp", &["ru"]),
    ("payin-1-click", &["ru"]),
    ("payin-p2p-international", &["ru"]),
    ("payin-p2p-card-international", &["ru", "kz"]),
    ("payin-p2p-mobile", &["ru"]),
    ("payin-qr-link-p2p", &["ru", "kg"]),
    ("payin-qr-sbp", &["ru"]),
    ("payin-ecom-card", &["kz", "uz", "ru"]),
    ("payin-mobile-money", &["ke"]),
    ("payin-eft-link", &["za"]),
    ("payin-ussd", &["ng"]),
    ("payin-wallet-link", &["ng"]),
];

/// Supported page languages (spec, "Amounts and currency codes").
pub const LANGUAGES: &[&str] = &["en", "es", "kk", "ru", "uz"];

/// The only widget method a KZ widget payin may (and must) use.
pub const KZ_WIDGET_METHOD: &str = "payin-p2p-card-international";

/// Countries whose widget payins must carry `customer.email`.
pub const EMAIL_REQUIRED_COUNTRIES: &[&str] = &["KE", "NG", "ZA"];

/// Countries whose widget payins may pre-select a bank with `sender.bank_symbol`.
pub const BANK_PRESELECT_COUNTRIES: &[&str] = &["RU", "KZ"];

pub fn is_method_code(code: &str) -> bool {
    METHODS.iter().any(|(known, _)| *known == code)
}

pub fn is_widget_method_code(code: &str) -> bool {
    WIDGET_METHODS.iter().any(|(known, _)| *known == code)
}

/// The row for a country and integration, if the table has one.
pub fn availability(country: &str, integration: Integration) -> Option<&'static Availability> {
    AVAILABILITY.iter().find(|row| row.country == country && row.integration == integration)
}

/// Whether the table lists the country under any integration.
pub fn is_listed_country(country: &str) -> bool {
    AVAILABILITY.iter().any(|row| row.country == country)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_method_is_a_known_code_of_its_integration() {
        for row in AVAILABILITY {
            for method in row.payin_methods {
                let known = match row.integration {
                    Integration::H2h => is_method_code(method),
                    Integration::Widget => is_widget_method_code(method),
                };
                assert!(known, "{} {method}", row.country);
            }
            for method in row.payout_methods {
                assert!(is_method_code(method), "{} {method}", row.country);
            }
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(availability("KZ", Integration::H2h).map(|r| r.currency), Some("KZT"));
        assert!(availability("KE", Integration::H2h).is_none());
        assert!(is_listed_country("KE"));
        assert!(!is_listed_country("UZ"));
        assert!(availability("KZ", Integration::Widget).is_some_and(|r| r.payin_methods == [KZ_WIDGET_METHOD]));
    }
}
