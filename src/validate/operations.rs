//! Each operation's request schema, as data (the operations and their paths
//! are the spec's table in `crate::spec::operations`). Where the spec says a
//! body is "not shown", only what it does show is checked (see [`Coverage`]),
//! and the Limits table, which applies wherever a field it names appears
//! (`super::limits`). The checks of a field are `super::fields`', the walk
//! that meets them `super::walk`, the driver `super::driver`.

use super::rules::Format;
use crate::spec::limits::{limit_in, FieldLimit};
use crate::spec::operations::Operation;

/// How much of a request body the spec shows, and so how much is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// Every field and the cross-field rules.
    Full,
    /// Only `general` is shown (P2P payout create); other members are checked
    /// only against the Limits table.
    GeneralOnly,
    /// The body is "not shown": only that it is a JSON object, and the Limits table.
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

    pub(super) fn schema(self) -> Option<&'static [Field]> {
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

impl Operation {
    /// The objects of this operation's body, in the schema's order, each with its members:
    /// their names and whether each takes a whole number (the amount, the lifetime). The
    /// input-fields table's tests (`crate::request::fields`) hold it equal to the table.
    pub(crate) fn schema_objects(
        self,
    ) -> impl Iterator<Item = (&'static str, impl Iterator<Item = (&'static str, bool)>)> {
        self.schema().unwrap_or_default().iter().filter_map(|field| match field.kind {
            Kind::Object(members) => Some((
                field.name,
                members.iter().map(|member| (member.name, matches!(member.kind, Kind::Amount | Kind::Lifetime))),
            )),
            _ => None,
        })
    }
}

/// One member of a request object.
pub(crate) struct Field {
    pub(super) name: &'static str,
    pub(super) required: bool,
    pub(super) kind: Kind,
}

pub(super) enum Kind {
    /// A string in a format, of at least `min` characters, within the Limits
    /// table's bound for it (the table names the field).
    Limited {
        min: usize,
        format: Format,
        /// The field's row, found when the schema is compiled (`limit_in`).
        limit: Option<&'static FieldLimit>,
    },
    /// A string of `min..=max` characters in a format, bounded by the
    /// Resources' field tables only (the Limits table does not name it).
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

/// The walk over an object's members (`walk`) meets them in order; the checks
/// of each are these. A member the schema does not list is warned about
/// ([`warn_unknown`]) and held to the Limits table; each field the schema lists
/// is checked as it is met ([`check_field`]) or, when its object ends without
/// it, as missing ([`check_absent`]). The report gives an object's unknown
/// members first, in their order, then its fields in the schema's order.
impl Field {
    /// The schema's index of the field named `key`, looked for first at `likely`
    /// (members mostly come in the schema's order).
    pub(super) fn find(fields: &[Field], key: &str, likely: usize) -> Option<usize> {
        if fields.get(likely).is_some_and(|field| same_name(field.name, key)) {
            return Some(likely);
        }
        fields.iter().position(|field| same_name(field.name, key))
    }
}

/// Whether two names are the same text, compared inline eight bytes at a time. The `==` of
/// two `str`s calls the wasm's `memcmp` (compiler-builtins: a call, then one byte at a
/// time), which was 4 % of a `validateRequest` in a profile, nearly all of it here and in
/// `Members::place`; this made that line about 2.5 % faster (BENCHMARKS.md).
#[inline(always)]
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let (x, y) = (a.chunks_exact(8), b.chunks_exact(8));
    let (rx, ry) = (x.remainder(), y.remainder());
    for (p, q) in x.zip(y) {
        let (Ok(p), Ok(q)) = (<[u8; 8]>::try_from(p), <[u8; 8]>::try_from(q)) else { return false };
        if u64::from_le_bytes(p) != u64::from_le_bytes(q) {
            return false;
        }
    }
    rx.iter().zip(ry).all(|(p, q)| p == q)
}

/// No length limit given (the pattern bounds the length instead).
const NO_MAX: usize = usize::MAX;

/// A required string the Limits table bounds by its name alone: at least one
/// character. The spec gives no minimum for required identifiers; an empty one
/// cannot identify anything.
const fn required(name: &'static str, format: Format) -> Field {
    Field { name, required: true, kind: Kind::Limited { min: 1, format, limit: limit_in(None, name) } }
}

/// An optional string the Limits table bounds by its name alone.
const fn optional(name: &'static str, format: Format) -> Field {
    Field { name, required: false, kind: Kind::Limited { min: 0, format, limit: limit_in(None, name) } }
}

/// A required string the Limits table bounds as a member of `parent` (`customer.id`).
const fn required_in(parent: &'static str, name: &'static str, format: Format) -> Field {
    Field { name, required: true, kind: Kind::Limited { min: 1, format, limit: limit_in(Some(parent), name) } }
}

/// An optional string the Limits table bounds as a member of `parent` (`sender.pan`).
const fn optional_in(parent: &'static str, name: &'static str, format: Format) -> Field {
    Field { name, required: false, kind: Kind::Limited { min: 0, format, limit: limit_in(Some(parent), name) } }
}

/// A string the Limits table does not name, with the bound of its field table.
const fn text(name: &'static str, required: bool, min: usize, max: usize, format: Format) -> Field {
    Field { name, required, kind: Kind::Text { min, max, format } }
}

const fn object(name: &'static str, required: bool, fields: &'static [Field]) -> Field {
    Field { name, required, kind: Kind::Object(fields) }
}

const fn unchecked(name: &'static str) -> Field {
    Field { name, required: false, kind: Kind::Unchecked }
}

/// `bank_symbol` of payment and sender ("string <=32" in the field tables; the
/// Limits table's "bank symbol <= 64" is the Bank record's `symbol`).
const BANK_SYMBOL_MAX: usize = 32;

const GENERAL_PAYIN: &[Field] = &[
    required("project_id", Format::Free),
    required("payment_id", Format::Free),
    optional("merchant_callback_url", Format::HttpsUrl),
    optional("merchant_success_callback_url", Format::HttpsUrl),
    optional("merchant_decline_callback_url", Format::HttpsUrl),
    optional("redirect_url", Format::HttpsUrl),
];

/// P2P payout create's `general`: as for payins, without `redirect_url`.
const GENERAL_PAYOUT: &[Field] = &[
    required("project_id", Format::Free),
    required("payment_id", Format::Free),
    optional("merchant_callback_url", Format::HttpsUrl),
    optional("merchant_success_callback_url", Format::HttpsUrl),
    optional("merchant_decline_callback_url", Format::HttpsUrl),
];

const GENERAL_SHARED: &[Field] = &[required("project_id", Format::Free), required("payment_id", Format::Free)];

/// Balance and bank list: the spec shows only `general.project_id`, without a
/// 'req' mark; it is required here, as the only way to name the project.
const GENERAL_PROJECT: &[Field] = &[required("project_id", Format::Free)];

/// Its length and characters are the Limits table's row.
const EXTRA_PARAM: Field = optional("extra_param", Format::Free);
const LIFETIME: Field = Field { name: "lifetime", required: false, kind: Kind::Lifetime };
const AMOUNT: Field = Field { name: "amount", required: true, kind: Kind::Amount };

const P2P_PAYMENT: &[Field] = &[
    required("method", Format::Method),
    AMOUNT,
    text("currency", true, 1, NO_MAX, Format::Currency),
    LIFETIME,
    text("bank_symbol", false, 0, BANK_SYMBOL_MAX, Format::Free),
    optional("description", Format::Free),
    EXTRA_PARAM,
];

const P2P_SENDER: &[Field] = &[
    optional_in("sender", "pan", Format::Free),
    optional_in("sender", "phone", Format::Phone),
    text("bank_symbol", false, 0, BANK_SYMBOL_MAX, Format::Free),
    text("card_holder", false, 1, 255, Format::CardHolder),
];

const P2P_CUSTOMER: &[Field] = &[
    required_in("customer", "id", Format::Free),
    required("ip_address", Format::IpAddress),
    optional("first_name", Format::Free),
    optional("last_name", Format::Free),
    text("customer_type", false, 0, NO_MAX, Format::CustomerType),
    text("country", true, 1, NO_MAX, Format::Country),
    text("language", false, 0, NO_MAX, Format::Language),
    optional("email", Format::Email),
    optional("browser", Format::Free),
    optional("device_type", Format::Free),
    optional("user_agent", Format::Free),
];

const P2P_PAYIN: &[Field] = &[
    object("general", true, GENERAL_PAYIN),
    object("payment", true, P2P_PAYMENT),
    object("sender", false, P2P_SENDER),
    object("customer", true, P2P_CUSTOMER),
];

const WIDGET_PAYMENT: &[Field] = &[
    AMOUNT,
    text("currency", true, 1, NO_MAX, Format::Currency),
    LIFETIME,
    optional("description", Format::Free),
    EXTRA_PARAM,
    optional("widget_method", Format::WidgetMethod),
];

const WIDGET_CUSTOMER: &[Field] = &[
    required_in("customer", "id", Format::Free),
    required("ip_address", Format::IpAddress),
    text("country", true, 1, NO_MAX, Format::Country),
    text("language", false, 0, NO_MAX, Format::Language),
    text("customer_type", false, 0, NO_MAX, Format::CustomerType),
    // Required for KE, NG, ZA: a cross-field rule.
    optional("email", Format::Email),
];

const WIDGET_PAYIN: &[Field] = &[
    object("general", true, GENERAL_PAYIN),
    object("payment", true, WIDGET_PAYMENT),
    object("sender", false, &[text("bank_symbol", false, 0, BANK_SYMBOL_MAX, Format::Free)]),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::validate_request;
    use crate::validate::{cross_field, IssueValue};

    /// `same_name` is `==` of the two texts, at every length around its eight-byte words,
    /// with the one differing byte anywhere (in a word, or in what is left after them).
    #[test]
    fn same_name_is_text_equality() {
        for length in 0..=26 {
            let a: String = (0..length).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            assert!(same_name(&a, &a.clone()), "{a}");
            for at in 0..length {
                let mut b = a.clone().into_bytes();
                b[at] = b'_';
                let b = String::from_utf8(b).unwrap();
                assert!(!same_name(&a, &b) && !same_name(&b, &a), "{a} {b}");
            }
            let longer = format!("{a}x");
            assert!(!same_name(&a, &longer) && !same_name(&longer, &a));
        }
        assert!(same_name("проверка", "проверка") && !same_name("проверка", "проверкa"));
    }

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

    /// Every string a schema bounds by the Limits table has a row there, and
    /// no string the table names carries a bound of its own: each limit is
    /// written once.
    #[test]
    fn schema_limits_come_from_the_limits_table() {
        use crate::spec::limits::{field_limit, Bound};
        fn walk(fields: &[Field], parent: Option<&str>, seen: &mut usize) {
            for field in fields {
                let row = field_limit(parent, field.name);
                let limit = row.map(|limit| limit.bound);
                match &field.kind {
                    Kind::Limited { limit: resolved, .. } => {
                        assert!(matches!(limit, Some(Bound::Chars { .. })), "{parent:?}.{} has no row", field.name);
                        // The row found when the schema was compiled is the one its object gives.
                        assert_eq!(*resolved, row, "{parent:?}.{}: required_in/optional_in?", field.name);
                        *seen += 1;
                    }
                    Kind::Text { .. } => assert_eq!(limit, None, "{parent:?}.{} has a row", field.name),
                    Kind::Amount => assert!(matches!(limit, Some(Bound::Integer { .. })), "{}", field.name),
                    Kind::Lifetime => assert_eq!(limit, Some(Bound::Lifetime)),
                    Kind::Object(inner) => walk(inner, Some(field.name), seen),
                    Kind::Unchecked => {}
                }
            }
        }
        let mut seen = 0;
        for operation in Operation::ALL {
            walk(operation.schema().unwrap_or_default(), None, &mut seen);
        }
        assert!(seen > 40, "{seen}");
    }

    #[test]
    fn limits_apply_in_bodies_the_spec_does_not_show_and_in_unlisted_members() {
        let parse = |text: &str| crate::json::parse_body(text, &Default::default()).unwrap();
        let body = |id: &str| parse(&format!(r#"{{"general":{{"project_id":"p","payment_id":"{id}"}}}}"#));
        for operation in [Operation::WidgetPayinConfirm, Operation::WidgetPayinCancel, Operation::EcomPayinCreate] {
            let report = validate_request(operation.path(), &body(&"x".repeat(256)));
            assert_eq!(report.error_codes(), ["TOO_LONG"], "{operation:?}");
            let issue = &report.errors[0];
            assert_eq!(issue.path, "general.payment_id");
            assert_eq!(
                (issue.limit.clone(), issue.actual.clone()),
                (Some(IssueValue::Int(255)), Some(IssueValue::Int(256)))
            );
            assert!(validate_request(operation.path(), &body(&"x".repeat(255))).valid, "{operation:?}");
        }
        // P2P payout create: its unshown members, and a member of general it does not list.
        let payout = parse(&format!(
            r#"{{"general":{{"project_id":"p","payment_id":"o","redirect_url":"{}"}},
                "payment":{{"amount":0,"description":"{}"}},"sender":{{"pan":"{}"}}}}"#,
            "x".repeat(2049),
            "d".repeat(256),
            "4".repeat(33)
        ));
        let report = validate_request(Operation::P2pPayoutCreate.path(), &payout);
        let found: Vec<(&str, &str)> = report.errors.iter().map(|i| (i.path.as_str(), i.code)).collect();
        assert_eq!(
            found,
            [
                ("general.redirect_url", "TOO_LONG"),
                ("payment.amount", "OUT_OF_RANGE"),
                ("payment.description", "TOO_LONG"),
                ("sender.pan", "TOO_LONG")
            ]
        );
        assert!(report.has_warning("general.redirect_url", "UNKNOWN_FIELD"));
        // A shown body: an unlisted member is still held to its limit, once.
        let unlisted_member = parse(&format!(
            r#"{{"general":{{"project_id":"p","payment_id":"o","description":"{}"}}}}"#,
            "d".repeat(256)
        ));
        let report = validate_request(Operation::P2pPayinInfo.path(), &unlisted_member);
        assert_eq!(report.error_codes(), ["TOO_LONG"]);
        let report = validate_request(Operation::P2pPayinInfo.path(), &body(&"x".repeat(256)));
        assert_eq!(report.error_codes(), ["TOO_LONG"], "a listed field is checked once");
    }

    /// What the one walk (`walk`) counts on: a schema object is the body or an
    /// object field of it (its order keys have two levels), a schema lists fewer
    /// than 64 fields (one bit each), and the sections the cross-field rules
    /// read are object fields of the body's schema (the walk keeps their members there).
    #[test]
    fn schemas_fit_the_walk() {
        for operation in Operation::ALL {
            let Some(fields) = operation.schema() else { continue };
            assert!(fields.len() < 64, "{operation:?}");
            for field in fields {
                if let Kind::Object(inner) = field.kind {
                    assert!(inner.len() < 64, "{operation:?}");
                    assert!(inner.iter().all(|field| !matches!(field.kind, Kind::Object(_))), "{operation:?}");
                }
            }
            if cross_field::has_rules(operation) {
                for (section, _) in cross_field::READS {
                    let field = fields.iter().find(|field| field.name == *section);
                    assert!(
                        field.is_some_and(|field| matches!(field.kind, Kind::Object(_))),
                        "{operation:?} {section}"
                    );
                }
            }
        }
    }
}
