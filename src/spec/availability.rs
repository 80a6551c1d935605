//! The spec's "Availability by country" table (country × currency ×
//! integration × payin and payout methods; "What the service does"), its two
//! method tables ("Resources and their fields", "Payment (request) record":
//! payment method codes and widget method codes, with their geos), its
//! supported languages ("Amounts and currency codes"), and the per-country
//! rules of the widget payin ("Create widget payin"), as data.

/// The two integrations that create payins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Integration {
    /// H2H: the merchant's own form (P2P payin create, `payment.method`).
    H2h,
    /// H2C: the service's widget (widget payin create, `payment.widget_method`).
    Widget,
}

impl Integration {
    /// The integration's name as messages write it.
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
    /// ISO 3166-1 alpha-2 country code.
    pub country: &'static str,
    /// The one currency the country is served in.
    pub currency: &'static str,
    /// The integration of this row.
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

/// Whether `code` is a payment method code (`payment.method`).
pub fn is_method_code(code: &str) -> bool {
    METHODS.iter().any(|(known, _)| *known == code)
}

/// Whether `code` is a widget method code (`payment.widget_method`).
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
    use crate::spec::spec_text::{code_spans, spec, table};

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
    /// "Availability by country", row by row: country, currency, integration,
    /// and the method codes of each cell in order ("unavailable": none).
    #[test]
    fn availability_is_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "Availability by country:");
        assert_eq!(rows.len(), AVAILABILITY.len());
        for (row, ours) in rows.iter().zip(AVAILABILITY) {
            let integration = match ours.integration {
                Integration::H2h => "H2H",
                Integration::Widget => "H2C",
            };
            assert_eq!([row[0].as_str(), row[1].as_str(), row[2].as_str()], [ours.country, ours.currency, integration]);
            assert_eq!(code_spans(&row[3]), ours.payin_methods, "{} {integration} payin", ours.country);
            assert_eq!(code_spans(&row[4]), ours.payout_methods, "{} {integration} payout", ours.country);
            if ours.payout_methods.is_empty() {
                assert_eq!(row[4], "unavailable");
            }
        }
    }

    /// The two method tables: every code with its geos, in the spec's order.
    #[test]
    fn method_tables_are_the_spec_tables() {
        let Some(spec) = spec() else { return };
        let geos = |cell: &str| cell.split(',').map(|geo| geo.trim().to_owned()).collect::<Vec<_>>();
        let methods = table(&spec, "Payment method codes (field `payment.method`, H2H):");
        let listed: Vec<(String, Vec<String>)> = methods.iter().map(|row| (row[0].clone(), geos(&row[2]))).collect();
        let ours: Vec<(String, Vec<String>)> = METHODS
            .iter()
            .map(|(code, geos)| ((*code).to_owned(), geos.iter().map(|g| (*g).to_owned()).collect()))
            .collect();
        assert_eq!(ours, listed);
        let widget = table(
            &spec,
            "Widget method codes (field `payment.widget_method`, H2C; the method pre-selected on the payment page):",
        );
        let listed: Vec<(String, Vec<String>)> = widget.iter().map(|row| (row[0].clone(), geos(&row[1]))).collect();
        let ours: Vec<(String, Vec<String>)> = WIDGET_METHODS
            .iter()
            .map(|(code, geos)| ((*code).to_owned(), geos.iter().map(|g| (*g).to_owned()).collect()))
            .collect();
        assert_eq!(ours, listed);
    }

    #[test]
    fn languages_and_widget_rules_are_the_spec_text() {
        let Some(spec) = spec() else { return };
        let languages = format!("Supported: {}.", LANGUAGES.join(", "));
        assert!(spec.lines().any(|line| line.contains("Language codes") && line.ends_with(&languages)), "{languages}");
        let kz = format!("for KZ it is required and must equal `{KZ_WIDGET_METHOD}`");
        assert!(spec.contains(&kz), "{kz}");
        let email = format!("yes for {} |", EMAIL_REQUIRED_COUNTRIES.join(", "));
        assert!(spec.lines().any(|line| line.starts_with("| customer.email") && line.contains(&email)), "{email}");
        let bank = format!("{} only", BANK_PRESELECT_COUNTRIES.join(" and "));
        assert!(spec.lines().any(|line| line.starts_with("| sender.bank_symbol") && line.contains(&bank)), "{bank}");
    }
}
