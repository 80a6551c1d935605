//! The `status_description` values the spec lists for `decline` ("Errors"),
//! each with the stable code this library gives it. The spec calls them
//! additive: new texts may come, listed ones never change.

/// (`status_description` as the spec writes it, our code).
pub const DECLINE_REASONS: &[(&str, &str)] = &[
    ("Canceled by client", "CANCELED_BY_CLIENT"),
    ("Declined by anti-fraud", "DECLINED_BY_ANTI_FRAUD"),
    ("Requisites not found", "REQUISITES_NOT_FOUND"),
    ("Order cancelled by timeout", "CANCELLED_BY_TIMEOUT"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::spec_text::{spec, table};

    #[test]
    fn texts_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "## Errors");
        assert!(rows.iter().all(|row| row[0] == "decline"));
        let listed: Vec<&str> = rows.iter().map(|row| row[1].as_str()).collect();
        let ours: Vec<&str> = DECLINE_REASONS.iter().map(|(text, _)| *text).collect();
        assert_eq!(ours, listed);
    }

    #[test]
    fn codes_are_unique_and_shaped_like_codes() {
        let mut codes: Vec<&str> = DECLINE_REASONS.iter().map(|(_, code)| *code).collect();
        assert!(codes.iter().all(|code| code.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')));
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), DECLINE_REASONS.len());
    }
}
