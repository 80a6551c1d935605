//! The one table of the builders' input fields ([`INPUT_FIELDS`]): a row per flat
//! input member (its camelCase name, where it goes in the nested body, its type,
//! which builders take it, a few words on it). The tests (`fields_tests.rs`) hold
//! the builders' mapping to it (`super::builders`:
//! each row's member lands at its path, and nothing else is in the body), the input
//! structs, the TypeScript (`src/wasm/types.rs`) and the schema (`src/validate/`)
//! equal to it, so a row added in one place only fails them. The builders fill the
//! body from it at run time (`super::builders::build`: the operation's schema gives the
//! order, each member's row its value), and the wasm reads a builder's input by it
//! (each own member's row, by name and the builder's mask, gives its type). JS reads the
//! rows as `inputFieldTable()` (`src/wasm/shapes/input_fields.rs` writes them as JSON text), from
//! which the debugger page builds its builder form.

use crate::validate::CUSTOMER_TYPES;

/// Which builders take a field: a mask of these bits.
pub(crate) type Builders = u8;
/// `buildPayinRequest` (P2P H2H payin create).
pub(crate) const P2P: Builders = 1;
/// `buildWidgetPayinRequest` (widget payin create).
pub(crate) const WIDGET: Builders = 2;
const BOTH: Builders = P2P | WIDGET;

/// What a field's value is, and how it becomes its body member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputKind {
    /// Text, sent as given.
    Text,
    /// Text, one of these (checked by the validator, not refused by the builder).
    Choice(&'static [&'static str]),
    /// A whole number, sent as given; `default` when absent.
    Count { default: Option<u64> },
    /// The amount in minor units (a whole number).
    MinorAmount,
    /// The amount in major units as decimal text, converted exactly by `currency`
    /// into the same member as [`InputKind::MinorAmount`]; not both.
    MajorAmount,
}

impl InputKind {
    /// Whether the input member holds a whole number (else text).
    pub(crate) fn is_number(self) -> bool {
        matches!(self, InputKind::Count { .. } | InputKind::MinorAmount)
    }
}

/// A row of [`INPUT_FIELDS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct InputField {
    /// The flat input member, as JS and serde spell it (camelCase).
    pub(crate) name: &'static str,
    /// Where its value goes: `object.member` of the body.
    pub(crate) path: &'static str,
    pub(crate) kind: InputKind,
    /// Which builders take it ([`P2P`], [`WIDGET`]).
    pub(crate) builders: Builders,
    /// A line on it (the rows' documentation; compiled into the tests only, so that the
    /// `.wasm` does not carry it).
    #[cfg(test)]
    pub(crate) doc: &'static str,
}

const fn row(name: &'static str, path: &'static str, builders: Builders, doc: &'static str) -> InputField {
    typed(name, path, InputKind::Text, builders, doc)
}

const fn typed(
    name: &'static str,
    path: &'static str,
    kind: InputKind,
    builders: Builders,
    doc: &'static str,
) -> InputField {
    #[cfg(not(test))]
    let _ = doc;
    InputField {
        name,
        path,
        kind,
        builders,
        #[cfg(test)]
        doc,
    }
}

/// Every input member of the builders. A name appears twice only with disjoint builders
/// (`bankSymbol`: `payment.bank_symbol` for P2P, `sender.bank_symbol` for the widget).
pub(crate) const INPUT_FIELDS: &[InputField] = &[
    row("projectId", "general.project_id", BOTH, "The project's identifier."),
    row("paymentId", "general.payment_id", BOTH, "The merchant's payment identifier."),
    row("merchantCallbackUrl", "general.merchant_callback_url", BOTH, "Where informative callbacks go."),
    row(
        "merchantSuccessCallbackUrl",
        "general.merchant_success_callback_url",
        BOTH,
        "Where the success callback goes.",
    ),
    row(
        "merchantDeclineCallbackUrl",
        "general.merchant_decline_callback_url",
        BOTH,
        "Where the decline callback goes.",
    ),
    row("redirectUrl", "general.redirect_url", BOTH, "Where the payment page sends the user back."),
    row("method", "payment.method", P2P, "A payment method code, e.g. `card-p2p`."),
    row(
        "widgetMethod",
        "payment.widget_method",
        WIDGET,
        "A widget method code, e.g. `payin-p2p-card`; required for KZ.",
    ),
    typed("amount", "payment.amount", InputKind::MinorAmount, BOTH, "Minor units; or give `amountMajor`, not both."),
    typed(
        "amountMajor",
        "payment.amount",
        InputKind::MajorAmount,
        BOTH,
        "Major units as decimal text, e.g. \"1500.50\"; converted exactly by `currency`.",
    ),
    row("currency", "payment.currency", BOTH, "ISO 4217 alpha-3."),
    typed(
        "lifetime",
        "payment.lifetime",
        InputKind::Count { default: Some(crate::spec::limits::LIFETIME_DEFAULT) },
        BOTH,
        "Seconds; 600 when absent (the spec's default).",
    ),
    row("bankSymbol", "payment.bank_symbol", P2P, "The bank the client would like to pay to."),
    row("description", "payment.description", BOTH, "The payment's description."),
    row("extraParam", "payment.extra_param", BOTH, "The merchant's extra parameter."),
    row("senderPan", "sender.pan", P2P, "The card number the client pays from."),
    row("senderPhone", "sender.phone", P2P, "The client's phone."),
    row("senderBankSymbol", "sender.bank_symbol", P2P, "The bank the client pays from."),
    row("bankSymbol", "sender.bank_symbol", WIDGET, "The bank to pre-select (RU and KZ only)."),
    row("senderCardHolder", "sender.card_holder", P2P, "The card holder's name."),
    row("customerId", "customer.id", BOTH, "The client's identifier at the merchant."),
    row("customerIp", "customer.ip_address", BOTH, "The client's IP address."),
    row("firstName", "customer.first_name", P2P, "The client's first name."),
    row("lastName", "customer.last_name", P2P, "The client's last name."),
    typed(
        "customerType",
        "customer.customer_type",
        InputKind::Choice(CUSTOMER_TYPES),
        BOTH,
        "The client's traffic: `ftd` (primary) or `trust` (secondary).",
    ),
    row("country", "customer.country", BOTH, "ISO 3166-1 alpha-2."),
    row("language", "customer.language", BOTH, "ISO 639-1."),
    row("email", "customer.email", BOTH, "The client's email; required for widget payins in KE, NG and ZA."),
    row("browser", "customer.browser", P2P, "The client's browser."),
    row("deviceType", "customer.device_type", P2P, "The client's device type."),
    row("userAgent", "customer.user_agent", P2P, "The client's user agent."),
];

#[cfg(test)]
/// The row of `builders`' input that goes to `object.member`, but the amount in
/// major units (which goes to the same member as the one in minor units).
pub(crate) fn field_at(builders: Builders, object: &str, member: &str) -> Option<&'static InputField> {
    row_at(builders, object, member).map(|at| &INPUT_FIELDS[at])
}

/// The index in [`INPUT_FIELDS`] of [`field_at`]'s row.
pub(crate) fn row_at(builders: Builders, object: &str, member: &str) -> Option<usize> {
    INPUT_FIELDS.iter().position(|row| {
        row.builders & builders != 0
            && row.kind != InputKind::MajorAmount
            && row.path.strip_prefix(object).and_then(|rest| rest.strip_prefix('.')) == Some(member)
    })
}

/// The index in [`INPUT_FIELDS`] of the row of `builders`' input named `name` (camelCase).
pub(crate) fn row_named(builders: Builders, name: &str) -> Option<usize> {
    INPUT_FIELDS.iter().position(|row| row.builders & builders != 0 && row.name == name)
}

/// The names of `builders`' input members, in the table's order.
pub(crate) fn names_of(builders: Builders) -> impl Iterator<Item = &'static str> + Clone {
    INPUT_FIELDS.iter().filter(move |row| row.builders & builders != 0).map(|row| row.name)
}

/// Whether the input member `name` of any builder holds a whole number.
pub(crate) fn is_number_input(name: &str) -> bool {
    INPUT_FIELDS.iter().any(|row| row.name == name && row.kind.is_number())
}

/// Whether `camel` is `snake` in camelCase (`customer_ip` and `customerIp`), as
/// serde's `rename_all = "camelCase"` spells a Rust field.
pub(crate) fn is_camel_of(snake: &str, camel: &str) -> bool {
    let mut camel = camel.chars();
    let mut upper = false;
    for c in snake.chars() {
        if c == '_' {
            upper = true;
            continue;
        }
        let expected = if upper { c.to_ascii_uppercase() } else { c };
        upper = false;
        if camel.next() != Some(expected) {
            return false;
        }
    }
    camel.next().is_none()
}

#[cfg(test)]
#[path = "fields_tests.rs"]
mod tests;
