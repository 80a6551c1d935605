//! Each operation's request schema (the operations and their paths are the
//! spec's table in `crate::spec::operations`), plus the walk that checks a
//! body against a schema. Where the spec says a body is "not shown", only
//! what it does show is checked (see [`Coverage`]).

use super::rules::{self, Format};
use super::{cross_field, Findings, IssueValue};
use crate::json::Json;
use crate::spec::availability::Integration;
use crate::spec::operations::Operation;

/// How much of a request body the spec shows, and so how much is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every field and the cross-field rules.
    Full,
    /// Only `general` is shown (P2P payout create); other members are accepted unchecked.
    GeneralOnly,
    /// The body is "not shown": only that it is a JSON object.
    ObjectOnly,
}

impl Operation {
    /// How much of this operation's request body is checked.
    pub fn coverage(self) -> Coverage {
        match self.schema() {
            Some(_) if self == Operation::P2pPayoutCreate => Coverage::GeneralOnly,
            Some(_) => Coverage::Full,
            None => Coverage::ObjectOnly,
        }
    }

    fn schema(self) -> Option<&'static [Field]> {
        match self {
            Operation::P2pPayinCreate => Some(P2P_PAYIN),
            Operation::P2pPayinInfo | Operation::P2pPayinConfirm | Operation::P2pPayinCancel => Some(SHARED),
            Operation::WidgetPayinInfo => Some(SHARED),
            Operation::WidgetPayinCreate => Some(WIDGET_PAYIN),
            Operation::P2pPayoutCreate => Some(P2P_PAYOUT),
            Operation::BalanceInfo | Operation::BankAll => Some(PROJECT_ONLY),
            // "not shown" in the spec: P2P payout info, all ECOM bodies, widget confirm and cancel.
            Operation::P2pPayoutInfo
            | Operation::EcomPayinCreate
            | Operation::EcomPayinInfo
            | Operation::EcomPayinConfirm3ds
            | Operation::EcomPayoutCreate
            | Operation::EcomPayoutInfo
            | Operation::WidgetPayinConfirm
            | Operation::WidgetPayinCancel => None,
        }
    }
}

/// One member of a request object.
pub(crate) struct Field {
    name: &'static str,
    required: bool,
    kind: Kind,
}

enum Kind {
    /// A string of `min..=max` characters in a format.
    Text {
        min: usize,
        max: usize,
        format: Format,
    },
    /// An amount in minor units, 1..=10000000000000.
    Amount,
    /// A whole number of seconds; its range depends on the country (cross-field).
    Lifetime,
    Object(&'static [Field]),
    /// Shown in the spec only by name: any JSON value is accepted.
    Unchecked,
}

/// No length limit given (the pattern bounds the length instead).
const NO_MAX: usize = usize::MAX;

/// A required string: at least one character. The spec gives no minimum for
/// required identifiers; an empty one cannot identify anything.
const fn required(name: &'static str, max: usize, format: Format) -> Field {
    Field { name, required: true, kind: Kind::Text { min: 1, max, format } }
}

const fn optional(name: &'static str, max: usize, format: Format) -> Field {
    Field { name, required: false, kind: Kind::Text { min: 0, max, format } }
}

const fn object(name: &'static str, required: bool, fields: &'static [Field]) -> Field {
    Field { name, required, kind: Kind::Object(fields) }
}

const fn unchecked(name: &'static str) -> Field {
    Field { name, required: false, kind: Kind::Unchecked }
}

const URL_MAX: usize = 2048;

const GENERAL_PAYIN: &[Field] = &[
    required("project_id", 32, Format::Free),
    required("payment_id", 255, Format::Free),
    optional("merchant_callback_url", URL_MAX, Format::HttpsUrl),
    optional("merchant_success_callback_url", URL_MAX, Format::HttpsUrl),
    optional("merchant_decline_callback_url", URL_MAX, Format::HttpsUrl),
    optional("redirect_url", URL_MAX, Format::HttpsUrl),
];

/// P2P payout create's `general`: as for payins, without `redirect_url`.
const GENERAL_PAYOUT: &[Field] = &[
    required("project_id", 32, Format::Free),
    required("payment_id", 255, Format::Free),
    optional("merchant_callback_url", URL_MAX, Format::HttpsUrl),
    optional("merchant_success_callback_url", URL_MAX, Format::HttpsUrl),
    optional("merchant_decline_callback_url", URL_MAX, Format::HttpsUrl),
];

const GENERAL_SHARED: &[Field] = &[required("project_id", 32, Format::Free), required("payment_id", 255, Format::Free)];

/// Balance and bank list: the spec shows only `general.project_id`, without a
/// 'req' mark; it is required here, as the only way to name the project.
const GENERAL_PROJECT: &[Field] = &[required("project_id", 32, Format::Free)];

const EXTRA_PARAM: Field =
    Field { name: "extra_param", required: false, kind: Kind::Text { min: 1, max: 16, format: Format::ExtraParam } };
const LIFETIME: Field = Field { name: "lifetime", required: false, kind: Kind::Lifetime };
const AMOUNT: Field = Field { name: "amount", required: true, kind: Kind::Amount };

const P2P_PAYMENT: &[Field] = &[
    required("method", 32, Format::Method),
    AMOUNT,
    required("currency", NO_MAX, Format::Currency),
    LIFETIME,
    optional("bank_symbol", 32, Format::Free),
    optional("description", 255, Format::Free),
    EXTRA_PARAM,
];

const P2P_SENDER: &[Field] = &[
    optional("pan", 32, Format::Free),
    optional("phone", 24, Format::Phone),
    optional("bank_symbol", 32, Format::Free),
    Field { name: "card_holder", required: false, kind: Kind::Text { min: 1, max: 255, format: Format::CardHolder } },
];

const P2P_CUSTOMER: &[Field] = &[
    required("id", 255, Format::Free),
    required("ip_address", 255, Format::IpAddress),
    optional("first_name", 255, Format::Free),
    optional("last_name", 255, Format::Free),
    optional("customer_type", NO_MAX, Format::CustomerType),
    required("country", NO_MAX, Format::Country),
    optional("language", NO_MAX, Format::Language),
    optional("email", 255, Format::Email),
    optional("browser", 512, Format::Free),
    optional("device_type", 512, Format::Free),
    optional("user_agent", 1024, Format::Free),
];

const P2P_PAYIN: &[Field] = &[
    object("general", true, GENERAL_PAYIN),
    object("payment", true, P2P_PAYMENT),
    object("sender", false, P2P_SENDER),
    object("customer", true, P2P_CUSTOMER),
];

const WIDGET_PAYMENT: &[Field] = &[
    AMOUNT,
    required("currency", NO_MAX, Format::Currency),
    LIFETIME,
    optional("description", 255, Format::Free),
    EXTRA_PARAM,
    optional("widget_method", 32, Format::WidgetMethod),
];

const WIDGET_CUSTOMER: &[Field] = &[
    required("id", 255, Format::Free),
    required("ip_address", 255, Format::IpAddress),
    required("country", NO_MAX, Format::Country),
    optional("language", NO_MAX, Format::Language),
    optional("customer_type", NO_MAX, Format::CustomerType),
    // Required for KE, NG, ZA: a cross-field rule.
    optional("email", 255, Format::Email),
];

const WIDGET_PAYIN: &[Field] = &[
    object("general", true, GENERAL_PAYIN),
    object("payment", true, WIDGET_PAYMENT),
    object("sender", false, &[optional("bank_symbol", 32, Format::Free)]),
    object("customer", true, WIDGET_CUSTOMER),
];

const SHARED: &[Field] = &[object("general", true, GENERAL_SHARED)];

const PROJECT_ONLY: &[Field] = &[object("general", true, GENERAL_PROJECT)];

const P2P_PAYOUT: &[Field] = &[
    object("general", true, GENERAL_PAYOUT),
    unchecked("payment"),
    unchecked("sender"),
    unchecked("recipient"),
    unchecked("customer"),
];

/// Runs the field checks, then the operation's cross-field rules.
pub(crate) fn check(operation: Operation, body: &Json, findings: &mut Findings) {
    let Json::Object(_) = body else {
        findings
            .error("", "WRONG_TYPE", format!("The request body must be a JSON object, found {}", body.kind()))
            .with_actual(IssueValue::text(body.kind()));
        return;
    };
    let Some(schema) = operation.schema() else {
        return;
    };
    check_object(schema, body, &mut String::with_capacity(64), findings);
    match operation {
        Operation::P2pPayinCreate => cross_field::check_payin(Integration::H2h, body, findings),
        Operation::WidgetPayinCreate => cross_field::check_payin(Integration::Widget, body, findings),
        _ => {}
    }
}

/// `prefix.name`.
fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        return name.to_owned();
    }
    let mut path = String::with_capacity(prefix.len() + 1 + name.len());
    path.push_str(prefix);
    path.push('.');
    path.push_str(name);
    path
}

/// Checks an object's fields; `path` is its own path, extended in place for each
/// field and restored (one buffer for the whole body, no string per field).
fn check_object(fields: &[Field], object: &Json, path: &mut String, findings: &mut Findings) {
    let Json::Object(members) = object else {
        return;
    };
    for (key, _) in members {
        if !fields.iter().any(|field| field.name == key) {
            warn_unknown(fields, key, path, findings);
        }
    }
    for field in fields {
        let restore = path.len();
        if restore > 0 {
            path.push('.');
        }
        path.push_str(field.name);
        match object.get(field.name) {
            None if field.required => {
                findings.error(path, "REQUIRED", format!("{path} is required"));
            }
            Some(Json::Null) if field.required => {
                findings.error(path, "REQUIRED", format!("{path} is required and cannot be null"));
            }
            Some(Json::Null) => {
                // The spec gives request fields no null; the service may refuse one.
                findings.warning(path, "NULL_FIELD", format!("{path} is null; omit the field instead"));
            }
            None => {}
            Some(value) => check_value(&field.kind, value, path, findings),
        }
        path.truncate(restore);
    }
}

fn check_value(kind: &Kind, value: &Json, path: &mut String, findings: &mut Findings) {
    match (kind, value) {
        (Kind::Text { min, max, format }, Json::String(text)) => {
            rules::check_text(findings, path, text, *min, *max, *format);
        }
        (Kind::Amount, _) => rules::check_amount(findings, path, value),
        (Kind::Lifetime, _) => {
            rules::check_integer(findings, path, value);
        }
        (Kind::Object(fields), Json::Object(_)) => check_object(fields, value, path, findings),
        (Kind::Unchecked, _) => {}
        (Kind::Text { .. }, _) => {
            findings.error(path, "WRONG_TYPE", format!("{path} must be a string, found {}", value.kind()));
        }
        (Kind::Object(_), _) => {
            findings.error(path, "WRONG_TYPE", format!("{path} must be an object, found {}", value.kind()));
        }
    }
}

fn warn_unknown(fields: &[Field], key: &str, prefix: &str, findings: &mut Findings) {
    let path = join(prefix, key);
    let closest = fields.iter().map(|field| (edit_distance(key, field.name), field.name)).min();
    let message = match closest {
        Some((distance, name)) if distance <= 2 => {
            format!("{path} is not a field of this request; did you mean {}?", join(prefix, name))
        }
        _ => format!("{path} is not a field of this request and will likely be ignored or refused"),
    };
    findings.warning(&path, "UNKNOWN_FIELD", message);
}

/// Levenshtein distance in characters, for "did you mean" hints.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_request;

    #[test]
    fn coverage_follows_what_the_spec_shows() {
        assert_eq!(Operation::P2pPayinCreate.coverage(), Coverage::Full);
        assert_eq!(Operation::P2pPayoutCreate.coverage(), Coverage::GeneralOnly);
        assert_eq!(Operation::WidgetPayinCancel.coverage(), Coverage::ObjectOnly);
        assert_eq!(Operation::EcomPayinCreate.coverage(), Coverage::ObjectOnly);
        assert_eq!(Operation::WidgetPayinInfo.coverage(), Coverage::Full);
    }

    #[test]
    fn unknown_fields_warn_with_a_suggestion() {
        let body = crate::json::parse_body(
            r#"{"general":{"project_id":"p","payment_id":"x","paymentid":"y"}}"#,
            &Default::default(),
        )
        .unwrap();
        let report = validate_request(Operation::P2pPayinInfo.path(), &body);
        assert!(report.valid);
        assert!(report.has_warning("general.paymentid", "UNKNOWN_FIELD"));
        assert!(report.warnings[0].message.contains("did you mean general.payment_id?"));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("amout", "amount"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
