//! Rules that join fields of a payin create request: the availability table
//! (country × currency × integration × method), the lifetime bounds per
//! country, and the widget's KZ method, e-mail and bank pre-selection rules
//! (each table is `crate::spec`'s).
//! Each rule runs only on values that passed their own field checks, so one
//! mistake is reported once.

use super::rules::{integer_value, Value};
use super::{Findings, IssueValue};
use crate::json::Leaf;
use crate::spec::availability::{
    availability, is_listed_country, is_method_code, is_widget_method_code, Integration, BANK_PRESELECT_COUNTRIES,
    EMAIL_REQUIRED_COUNTRIES, KZ_WIDGET_METHOD, LANGUAGES,
};
use crate::spec::limits::{lifetime_max, LIFETIME_MIN};
use crate::spec::operations::Operation;

/// The members of the body the rules here read, by section: all a reading of
/// the body's text without a tree keeps for them (`walk`).
pub(crate) const READS: &[(&str, &[&str])] = &[
    ("payment", &["currency", "method", "widget_method", "lifetime"]),
    ("customer", &["country", "language", "email"]),
    ("sender", &["bank_symbol"]),
];

/// How many members [`READS`] names.
const READ: usize = 8;

/// The members of a body [`READS`] names, kept as the body is read (`walk`):
/// each at its place in that table (section by section), with the text of a
/// string or number in `text`.
#[derive(Default)]
pub(crate) struct Members {
    text: String,
    values: [Option<Kept>; READ],
}

/// A kept member: its type as the rules tell them apart, and the text of a
/// string or number, `text[start..end]`.
#[derive(Clone, Copy)]
struct Kept {
    kind: Kind,
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Null,
    Number,
    String,
    /// A boolean, object or array.
    Other,
}

impl Members {
    /// The section of [`READS`] named `name`: the place of its first member, and its members.
    pub(crate) fn section(name: &str) -> Option<(usize, &'static [&'static str])> {
        let mut first = 0;
        for &(section, members) in READS {
            if section == name {
                return Some((first, members));
            }
            first += members.len();
        }
        None
    }

    /// The place of the member `name` of a section (`section`'s answer).
    pub(crate) fn place((first, members): (usize, &[&str]), name: &str) -> Option<usize> {
        members.iter().position(|member| super::operations::same_name(member, name)).map(|at| first + at)
    }

    /// Members to keep, with room for their text when `keeping` (the rules read short codes).
    pub(crate) fn with_room(keeping: bool) -> Self {
        Members { text: String::with_capacity(if keeping { 64 } else { 0 }), ..Members::default() }
    }

    /// Keeps `value` as the member at `place`.
    pub(crate) fn keep(&mut self, place: usize, value: Value<'_>) {
        let (kind, text) = match value {
            Value::Leaf(Leaf::Null) => (Kind::Null, ""),
            Value::Leaf(Leaf::Number(text)) => (Kind::Number, text),
            Value::Leaf(Leaf::String(text)) => (Kind::String, text),
            Value::Leaf(Leaf::Bool(_)) | Value::Container(_) => (Kind::Other, ""),
        };
        let start = self.text.len();
        self.text.push_str(text);
        if let Some(slot) = self.values.get_mut(place) {
            *slot = Some(Kept { kind, start, end: self.text.len() });
        }
    }

    /// The member `section.name` (one of [`READS`]), if the body has it.
    fn kept(&self, section: &str, name: &str) -> Option<Kept> {
        *self.values.get(Members::place(Members::section(section)?, name)?)?
    }

    /// The text of `section.name` if it is of type `kind`.
    fn get(&self, section: &str, name: &str, kind: Kind) -> Option<&str> {
        self.kept(section, name).filter(|kept| kept.kind == kind).and_then(|kept| self.text.get(kept.start..kept.end))
    }

    /// Whether the body has `section.name`, and not null.
    fn present(&self, section: &str, name: &str) -> bool {
        self.kept(section, name).is_some_and(|kept| kept.kind != Kind::Null)
    }
}

/// The string at `section.name`, if it is one.
fn text<'a>(body: &'a Members, section: &str, name: &str) -> Option<&'a str> {
    body.get(section, name, Kind::String)
}

fn is_code(value: &str, len: usize) -> bool {
    value.len() == len && value.bytes().all(|b| b.is_ascii_uppercase())
}

pub(crate) fn check_payin(integration: Integration, body: &Members, findings: &mut Findings) {
    let country = text(body, "customer", "country").filter(|c| is_code(c, 2));
    let currency = text(body, "payment", "currency").filter(|c| is_code(c, 3));
    let (method_path, method) = match integration {
        Integration::H2h => ("payment.method", text(body, "payment", "method").filter(|m| is_method_code(m))),
        Integration::Widget => {
            ("payment.widget_method", text(body, "payment", "widget_method").filter(|m| is_widget_method_code(m)))
        }
    };

    check_lifetime(body, country, findings);
    let Some(country) = country else {
        return;
    };
    check_availability(integration, country, currency, method_path, method, findings);
    if let Some(language) = text(body, "customer", "language") {
        if language.len() == 2 && language.bytes().all(|b| b.is_ascii_lowercase()) && !LANGUAGES.contains(&language) {
            findings
                .warning(
                    "customer.language",
                    "LANGUAGE_NOT_SUPPORTED",
                    format!("customer.language '{language}' is not one of the supported {}", LANGUAGES.join(", ")),
                )
                .with_actual(IssueValue::text(language));
        }
    }
    if integration == Integration::Widget {
        check_widget_rules(body, country, findings);
    }
}

fn check_lifetime(body: &Members, country: Option<&str>, findings: &mut Findings) {
    let Some(text) = body.get("payment", "lifetime", Kind::Number) else {
        return;
    };
    let Some(lifetime) = integer_value(text) else {
        return; // WRONG_TYPE already reported
    };
    let max = lifetime_max(country);
    if !(LIFETIME_MIN..=max).contains(&lifetime) {
        let scope = country.map_or(String::new(), |c| format!(" for {c}"));
        let bound = if lifetime < LIFETIME_MIN { LIFETIME_MIN } else { max };
        let actual = text.parse::<i128>().map_or_else(|_| IssueValue::text(text), IssueValue::int);
        findings
            .error(
                "payment.lifetime",
                "LIFETIME_OUT_OF_RANGE",
                format!("payment.lifetime must be from {LIFETIME_MIN} to {max} seconds{scope}"),
            )
            .with_limit(IssueValue::int(bound))
            .with_actual(actual);
    }
}

fn check_availability(
    integration: Integration,
    country: &str,
    currency: Option<&str>,
    method_path: &str,
    method: Option<&str>,
    findings: &mut Findings,
) {
    let Some(row) = availability(country, integration) else {
        if is_listed_country(country) {
            let other = match integration {
                Integration::H2h => Integration::Widget,
                Integration::Widget => Integration::H2h,
            };
            findings
                .error(
                    "customer.country",
                    "COUNTRY_NOT_AVAILABLE",
                    format!(
                        "{} payins are not available for {country}; it is served through {}",
                        integration.name(),
                        other.name()
                    ),
                )
                .with_actual(IssueValue::text(country));
        } else {
            findings
                .warning(
                    "customer.country",
                    "COUNTRY_NOT_LISTED",
                    format!("{country} is not in the spec's availability table (RU, KZ, KE, NG, ZA)"),
                )
                .with_actual(IssueValue::text(country));
        }
        return;
    };
    if let Some(currency) = currency.filter(|c| *c != row.currency) {
        findings
            .error(
                "payment.currency",
                "CURRENCY_MISMATCH",
                format!("{country} payins are in {}, not {currency}", row.currency),
            )
            .with_limit(IssueValue::text(row.currency))
            .with_actual(IssueValue::text(currency));
    }
    if let Some(method) = method.filter(|m| !row.payin_methods.contains(m)) {
        let offered = row.payin_methods.join(", ");
        findings
            .error(
                method_path,
                "METHOD_NOT_AVAILABLE",
                format!("{method} is not available for {country} {} payins; use one of: {offered}", integration.name()),
            )
            .with_limit(IssueValue::text(offered))
            .with_actual(IssueValue::text(method));
    }
}

fn check_widget_rules(body: &Members, country: &str, findings: &mut Findings) {
    let present = |section: &str, name: &str| body.present(section, name);
    if country == "KZ" && !present("payment", "widget_method") {
        findings
            .error(
                "payment.widget_method",
                "WIDGET_METHOD_REQUIRED",
                format!("payment.widget_method is required for KZ and must be {KZ_WIDGET_METHOD}"),
            )
            .with_limit(IssueValue::text(KZ_WIDGET_METHOD));
    }
    if EMAIL_REQUIRED_COUNTRIES.contains(&country) && !present("customer", "email") {
        findings.error(
            "customer.email",
            "EMAIL_REQUIRED",
            format!("customer.email is required for widget payins in {country}"),
        );
    }
    // "may be left empty": an empty symbol pre-selects nothing, so it is allowed anywhere.
    let symbol = text(body, "sender", "bank_symbol").unwrap_or("");
    if !symbol.is_empty() && !BANK_PRESELECT_COUNTRIES.contains(&country) {
        findings
            .error(
                "sender.bank_symbol",
                "BANK_SYMBOL_NOT_ALLOWED",
                format!("sender.bank_symbol pre-selects a bank in RU and KZ only, not {country}"),
            )
            .with_limit(IssueValue::text(BANK_PRESELECT_COUNTRIES.join(", ")));
    }
}

/// Whether the operation has cross-field rules.
pub(super) fn has_rules(operation: Operation) -> bool {
    matches!(operation, Operation::P2pPayinCreate | Operation::WidgetPayinCreate)
}

/// The operation's cross-field rules, on the body or on the members of it they
/// read ([`READS`]).
pub(super) fn check_operation(operation: Operation, body: &Members, findings: &mut Findings) {
    // After the field checks' issues, whatever order those were found in.
    findings.after_all();
    match operation {
        Operation::P2pPayinCreate => check_payin(Integration::H2h, body, findings),
        Operation::WidgetPayinCreate => check_payin(Integration::Widget, body, findings),
        _ => {}
    }
}
