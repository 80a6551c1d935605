//! Builders for payin create requests: a flat, friendly input (fed from a JS
//! object in camelCase) becomes the spec's nested body, with defaults, and
//! is validated. Inputs are not second-guessed: what is given is sent, what
//! is missing is omitted, and the report says what is wrong, by body path.
//! Where each input member goes is its row of the input-fields table
//! (`super::fields`); that file's tests hold the structs and this mapping to it.

use serde::Deserialize;

use super::fields::{is_camel_of, is_number_input, names_of, row_at, row_named, InputKind, INPUT_FIELDS};
pub(crate) use super::fields::{Builders, P2P, WIDGET};
use crate::closest::closest;
use crate::error::{Error, Result};
use crate::json::Json;
use crate::spec::currency::to_minor_units;
use crate::spec::operations::Operation;
use crate::validate::{validate_request, Issue, ValidationReport};

/// A builder's input struct (and, for the tests, its `Values`), from one list of its members. Each
/// member is a row of the input-fields table (`super::fields::INPUT_FIELDS`, by its
/// camelCase name), which the tests hold equal to these lists. The struct is the Rust API's
/// form of the input; the builder reads it as the table's [`InputValues`].
macro_rules! input_struct {
    ($(#[$meta:meta])* $name:ident ($builders:expr) { $($(#[doc = $doc:literal])* $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            $($(#[doc = $doc])* pub $field: Option<$ty>,)*
        }

        impl $name {
            /// The members as the table's values (each at its row, by its camelCase name).
            fn input_values(&self) -> InputValues {
                let mut values = InputValues::default();
                $(values.set_snake($builders, stringify!($field), self.$field.clone().map(FieldValue::from));)*
                values
            }
        }

        #[cfg(test)]
        impl Values for $name {
            fn values(&self) -> Vec<(&'static str, Option<InputValue<'_>>)> {
                vec![$((stringify!($field), self.$field.as_ref().map(InputValue::from)),)*]
            }
        }
    };
}

/// The value of an input member, of its row's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FieldValue {
    Text(String),
    Number(u64),
}

impl From<String> for FieldValue {
    fn from(text: String) -> Self {
        FieldValue::Text(text)
    }
}

impl From<u64> for FieldValue {
    fn from(number: u64) -> Self {
        FieldValue::Number(number)
    }
}

/// A builder's input as the table's values: one per row of `INPUT_FIELDS` (by index),
/// `None` where absent. Which rows a builder reads is its mask ([`P2P`], [`WIDGET`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InputValues([Option<FieldValue>; INPUT_FIELDS.len()]);

impl Default for InputValues {
    fn default() -> Self {
        InputValues(std::array::from_fn(|_| None))
    }
}

impl InputValues {
    /// Sets the value of the row at `at` (an index of `INPUT_FIELDS`).
    pub(crate) fn set(&mut self, at: usize, value: FieldValue) {
        if let Some(slot) = self.0.get_mut(at) {
            *slot = Some(value);
        }
    }

    /// Sets the value of `builders`' member whose Rust name is `snake`.
    fn set_snake(&mut self, builders: Builders, snake: &str, value: Option<FieldValue>) {
        let at = INPUT_FIELDS.iter().position(|row| row.builders & builders != 0 && is_camel_of(snake, row.name));
        if let (Some(at), Some(value)) = (at, value) {
            self.set(at, value);
        }
    }

    /// The value of `builders`' member `name`.
    fn get(&self, builders: Builders, name: &str) -> Option<&FieldValue> {
        row_named(builders, name).and_then(|at| self.0.get(at)).and_then(Option::as_ref)
    }

    fn text(&self, builders: Builders, name: &str) -> Option<&str> {
        match self.get(builders, name) {
            Some(FieldValue::Text(text)) => Some(text),
            _ => None,
        }
    }

    fn number(&self, builders: Builders, name: &str) -> Option<u64> {
        match self.get(builders, name) {
            Some(FieldValue::Number(number)) => Some(*number),
            _ => None,
        }
    }
}

/// A builder input's members by their Rust names, with their values (for the tests
/// that hold the structs equal to the input-fields table).
#[cfg(test)]
pub(crate) trait Values {
    fn values(&self) -> Vec<(&'static str, Option<InputValue<'_>>)>;
}

/// The value of an input member.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputValue<'a> {
    Text(&'a str),
    Number(u64),
}

#[cfg(test)]
impl<'a> From<&'a String> for InputValue<'a> {
    fn from(text: &'a String) -> Self {
        InputValue::Text(text)
    }
}

#[cfg(test)]
impl From<&u64> for InputValue<'_> {
    fn from(number: &u64) -> Self {
        InputValue::Number(*number)
    }
}

input_struct! {
    /// Input of [`build_payin_request`] (P2P H2H payin create). Every field is
    /// optional here so a missing one shows in the report as `REQUIRED` at its
    /// body path (e.g. `general.project_id`) instead of failing deserialization.
    /// Where each goes is its row of the input-fields table (`src/request/fields.rs`).
    PayinInput(P2P) {
        /// `general.project_id`.
        project_id: String,
        /// `general.payment_id`: the merchant's payment identifier.
        payment_id: String,
        /// `general.merchant_callback_url`: where informative callbacks go.
        merchant_callback_url: String,
        /// `general.merchant_success_callback_url`: where the success callback goes.
        merchant_success_callback_url: String,
        /// `general.merchant_decline_callback_url`: where the decline callback goes.
        merchant_decline_callback_url: String,
        /// `general.redirect_url`: where the payment page sends the user back.
        redirect_url: String,
        /// A payment method code, e.g. `card-p2p`.
        method: String,
        /// Amount in minor units. Give this or `amount_major`, not both.
        amount: u64,
        /// Amount in major units as decimal text, e.g. "1500.50"; converted exactly by `currency`.
        amount_major: String,
        /// `payment.currency`: ISO 4217 alpha-3.
        currency: String,
        /// Seconds; 600 when absent (the spec's default, `spec::limits::LIFETIME_DEFAULT`).
        lifetime: u64,
        /// `payment.bank_symbol`: the bank the client would like to pay to.
        bank_symbol: String,
        /// `payment.description`.
        description: String,
        /// `payment.extra_param`.
        extra_param: String,
        /// `sender.pan`.
        sender_pan: String,
        /// `sender.phone`.
        sender_phone: String,
        /// `sender.bank_symbol`: the bank the client pays from.
        sender_bank_symbol: String,
        /// `sender.card_holder`.
        sender_card_holder: String,
        /// `customer.id`.
        customer_id: String,
        /// `customer.ip_address`.
        customer_ip: String,
        /// `customer.first_name`.
        first_name: String,
        /// `customer.last_name`.
        last_name: String,
        /// `ftd` or `trust`.
        customer_type: String,
        /// `customer.country`: ISO 3166-1 alpha-2.
        country: String,
        /// `customer.language`: ISO 639-1.
        language: String,
        /// `customer.email`.
        email: String,
        /// `customer.browser`.
        browser: String,
        /// `customer.device_type`.
        device_type: String,
        /// `customer.user_agent`.
        user_agent: String,
    }
}

input_struct! {
    /// Input of [`build_widget_payin_request`] (widget payin create). Where each
    /// field goes is its row of the input-fields table (`src/request/fields.rs`).
    WidgetPayinInput(WIDGET) {
        /// `general.project_id`.
        project_id: String,
        /// `general.payment_id`: the merchant's payment identifier.
        payment_id: String,
        /// `general.merchant_callback_url`: where informative callbacks go.
        merchant_callback_url: String,
        /// `general.merchant_success_callback_url`: where the success callback goes.
        merchant_success_callback_url: String,
        /// `general.merchant_decline_callback_url`: where the decline callback goes.
        merchant_decline_callback_url: String,
        /// `general.redirect_url`: where the payment page sends the user back.
        redirect_url: String,
        /// A widget method code, e.g. `payin-p2p-card`; required for KZ.
        widget_method: String,
        /// Amount in minor units. Give this or `amount_major`, not both.
        amount: u64,
        /// Amount in major units as decimal text, e.g. "1500.50"; converted exactly by `currency`.
        amount_major: String,
        /// `payment.currency`: ISO 4217 alpha-3.
        currency: String,
        /// Seconds; 600 when absent (the spec's default, `spec::limits::LIFETIME_DEFAULT`).
        lifetime: u64,
        /// `payment.description`.
        description: String,
        /// `payment.extra_param`.
        extra_param: String,
        /// `sender.bank_symbol`: the bank to pre-select (RU and KZ only).
        bank_symbol: String,
        /// `customer.id`.
        customer_id: String,
        /// `customer.ip_address`.
        customer_ip: String,
        /// `customer.country`: ISO 3166-1 alpha-2.
        country: String,
        /// `customer.language`: ISO 639-1.
        language: String,
        /// `ftd` or `trust`.
        customer_type: String,
        /// Required for KE, NG and ZA.
        email: String,
    }
}

/// Minor units from either form of the amount.
fn minor_amount(amount: Option<u64>, amount_major: Option<&str>, currency: Option<&str>) -> Result<Option<u64>> {
    match (amount, amount_major) {
        (Some(_), Some(_)) => Err(Error::InvalidArgument {
            name: "amountMajor".into(),
            reason: "cannot be given together with amount".into(),
        }),
        (None, Some(major)) => match currency {
            Some(currency) => to_minor_units(major, currency).map(Some),
            None => Err(Error::InvalidArgument {
                name: "currency".into(),
                reason: "is required to convert amountMajor".into(),
            }),
        },
        (amount, None) => Ok(amount),
    }
}

/// Builds and validates a P2P (H2H) payin create body. Where each input member goes is
/// its row of the input-fields table (`super::fields`), which the tests hold this to
/// (`Operation::P2pPayinCreate`). Errors only when the input cannot be turned
/// into a body: both amounts given, or `amount_major` not convertible.
pub fn build_payin_request(input: &PayinInput) -> Result<(Json<'static>, ValidationReport)> {
    build(P2P, &input.input_values())
}

/// Builds and validates a widget payin create body (`Operation::WidgetPayinCreate`).
pub fn build_widget_payin_request(input: &WidgetPayinInput) -> Result<(Json<'static>, ValidationReport)> {
    build(WIDGET, &input.input_values())
}

/// Builds and validates the body of the builder `builders` ([`P2P`] or [`WIDGET`]) from its
/// input's values, by the input-fields table: the operation's schema gives the objects and
/// members in order, each member's row its value (absent ones and empty objects left out).
pub(crate) fn build(builders: Builders, values: &InputValues) -> Result<(Json<'static>, ValidationReport)> {
    let operation = if builders == WIDGET { Operation::WidgetPayinCreate } else { Operation::P2pPayinCreate };
    let amount = minor_amount(
        values.number(builders, "amount"),
        values.text(builders, "amountMajor"),
        values.text(builders, "currency"),
    )?;
    let mut body = Vec::new();
    for (object, members) in operation.schema_objects() {
        let mut out = Vec::new();
        for (member, _) in members {
            let Some(at) = row_at(builders, object, member) else { continue };
            let value = match (INPUT_FIELDS[at].kind, &values.0[at]) {
                (InputKind::MinorAmount, _) => amount.map(|amount| Json::Number(amount.to_string().into())),
                (InputKind::Count { default }, value) => {
                    let given = match value {
                        Some(FieldValue::Number(number)) => Some(*number),
                        _ => None,
                    };
                    given.or(default).map(|number| Json::Number(number.to_string().into()))
                }
                (_, Some(FieldValue::Text(text))) => Some(Json::String(text.clone().into())),
                _ => None,
            };
            if let Some(value) = value {
                out.push(((*member).into(), value));
            }
        }
        if !out.is_empty() {
            body.push(((*object).into(), Json::Object(out)));
        }
    }
    let body = Json::Object(body);
    let report = validate_request(operation.path(), &body);
    Ok((body, report))
}

/// A member of a builder's input that cannot be read. The builder leaves it out of
/// the body, and the report holds it as an error at the member's name, worded like
/// the validator's issues, instead of the call throwing.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // read by the wasm layer
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InputProblem {
    /// A name that is not a member of the input of `builders` (a mask of the table's).
    Unknown { name: String, builders: Builders },
    /// A member whose value has the wrong type; `found` names what was given
    /// ("a string", "a number", …).
    WrongType { name: String, found: &'static str },
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // read by the wasm layer
impl InputProblem {
    fn issue(&self, builder: &str) -> Issue {
        let (name, code, message) = match self {
            InputProblem::Unknown { name, builders } => {
                let message = match closest(name, names_of(*builders)) {
                    Some(meant) => format!("{name} is not a member of the {builder} input; did you mean {meant}?"),
                    None => format!("{name} is not a member of the {builder} input, so it is not in the body"),
                };
                (name, "UNKNOWN_INPUT", message)
            }
            InputProblem::WrongType { name, found } => {
                let expected = if is_number_input(name) { "a whole number (0 or more)" } else { "a string" };
                (name, "WRONG_TYPE", format!("{name} must be {expected}, found {found}; it is not in the body"))
            }
        };
        Issue { path: name.clone(), code, message, limit: None, actual: None }
    }
}

/// Adds the problems of a builder's input to its report, as errors; `builder` is the
/// function's name as the caller knows it (`buildPayinRequest`, …).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))] // read by the wasm layer
pub(crate) fn report_input_problems(report: &mut ValidationReport, builder: &str, problems: &[InputProblem]) {
    report.errors.extend(problems.iter().map(|problem| problem.issue(builder)));
    report.valid = report.errors.is_empty();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ru_payin() -> PayinInput {
        serde_json::from_str(
            r#"{"projectId":"prj_8f2c","paymentId":"order-1","method":"card-p2p","amountMajor":"1500.50",
                "currency":"RUB","customerId":"u-1","customerIp":"10.0.0.1","country":"RU"}"#,
        )
        .unwrap()
    }

    #[test]
    fn input_problems_are_errors_of_the_report_at_the_member() {
        let (_, mut report) = build_payin_request(&ru_payin()).unwrap();
        let problems = [
            InputProblem::WrongType { name: "amount".into(), found: "a string" },
            InputProblem::Unknown { name: "customerIP".into(), builders: P2P },
            InputProblem::Unknown { name: "zzz".into(), builders: P2P },
        ];
        report_input_problems(&mut report, "buildPayinRequest", &problems);
        assert!(!report.valid);
        let found: Vec<(&str, &str, &str)> =
            report.errors.iter().map(|issue| (issue.path.as_str(), issue.code, issue.message.as_str())).collect();
        assert_eq!(
            found,
            [
                (
                    "amount",
                    "WRONG_TYPE",
                    "amount must be a whole number (0 or more), found a string; it is not in the body"
                ),
                (
                    "customerIP",
                    "UNKNOWN_INPUT",
                    "customerIP is not a member of the buildPayinRequest input; did you mean customerIp?"
                ),
                (
                    "zzz",
                    "UNKNOWN_INPUT",
                    "zzz is not a member of the buildPayinRequest input, so it is not in the body"
                ),
            ]
        );
    }

    #[test]
    fn builds_the_nested_body_with_defaults() {
        let (body, report) = build_payin_request(&ru_payin()).unwrap();
        assert!(report.valid, "{report:?}");
        assert_eq!(
            body.to_json_text(),
            r#"{"general":{"project_id":"prj_8f2c","payment_id":"order-1"},"payment":{"method":"card-p2p","amount":150050,"currency":"RUB","lifetime":600},"customer":{"id":"u-1","ip_address":"10.0.0.1","country":"RU"}}"#
        );
    }

    #[test]
    fn missing_inputs_show_in_the_report_by_body_path() {
        let (body, report) = build_payin_request(&PayinInput::default()).unwrap();
        assert!(body.get("general").is_none());
        assert!(report.has_error("general", "REQUIRED"));
        assert!(report.has_error("customer", "REQUIRED"));
        assert!(report.has_error("payment.amount", "REQUIRED"));
    }

    #[test]
    fn amount_forms() {
        let mut input = ru_payin();
        input.amount = Some(1);
        assert_eq!(build_payin_request(&input).unwrap_err().code(), "INVALID_ARGUMENT");
        let mut input = ru_payin();
        input.currency = None;
        assert_eq!(build_payin_request(&input).unwrap_err().code(), "INVALID_ARGUMENT");
        let mut input = ru_payin();
        input.amount_major = Some("1.005".into());
        assert_eq!(build_payin_request(&input).unwrap_err().code(), "INVALID_AMOUNT");
        let mut input = ru_payin();
        input.amount_major = None;
        input.amount = Some(150_000);
        let (body, _) = build_payin_request(&input).unwrap();
        assert_eq!(body.get("payment").and_then(|p| p.get("amount")), Some(&Json::Number("150000".into())));
    }

    #[test]
    fn unknown_input_keys_are_refused() {
        assert!(serde_json::from_str::<PayinInput>(r#"{"projectID":"x"}"#).is_err());
        assert!(serde_json::from_str::<WidgetPayinInput>(r#"{"method":"card-p2p"}"#).is_err());
    }

    #[test]
    fn widget_body_puts_bank_symbol_under_sender() {
        let input: WidgetPayinInput = serde_json::from_str(
            r#"{"projectId":"p","paymentId":"o","amount":100000,"currency":"KZT","lifetime":900,
                "widgetMethod":"payin-p2p-card-international","bankSymbol":"halyk","customerId":"u",
                "customerIp":"::1","country":"KZ"}"#,
        )
        .unwrap();
        let (body, report) = build_widget_payin_request(&input).unwrap();
        assert!(report.valid, "{report:?}");
        assert_eq!(body.get("sender").and_then(|s| s.get("bank_symbol")), Some(&Json::String("halyk".into())));
        assert_eq!(body.get("payment").and_then(|p| p.get("lifetime")), Some(&Json::Number("900".into())));
    }
}
