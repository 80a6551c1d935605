//! The spec's limits ("Limits"; "Amounts and currency codes"): the Limits
//! table as data ([`FIELD_LIMITS`], which applies wherever a field it names
//! appears, in every request body, shown or not), the range of amounts, the
//! request lifetime by country and its default, and the lengths of a merchant
//! id (which the spec does not bound: those two are ours).
//! The lengths that only the Resources' field tables give (`bank_symbol`,
//! `card_holder`) stay with their fields in `validate/operations.rs`.

/// Which members a row of the Limits table names. The table writes some items
/// as a bare field name (`payment_id`, `first_name`, `user_agent`): those apply
/// to a member of that name in any object. Others it qualifies by their object
/// (`customer.id`, `sender.pan`, "recipient pan", "bank id; name; symbol"):
/// those apply only to a member of that name of an object that is itself the
/// member `parent` (or an element of the array `parent`), wherever it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A member of this name in any object.
    Name(&'static str),
    /// The member `name` of an object named `parent`.
    Member {
        /// The name of the object that holds the member.
        parent: &'static str,
        /// The member's name.
        name: &'static str,
    },
}

/// The characters a limited string may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// Any characters.
    Any,
    /// `A-Z a-z 0-9 _ -` (`extra_param`).
    ExtraParam,
    /// `0-9` (`sbp_code`).
    Digits,
}

/// What a row of the Limits table bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// A string of `min..=max` characters (Unicode scalar values, as every
    /// length in this crate is counted) from `charset`. Applies to strings only.
    Chars {
        /// Fewest characters.
        min: usize,
        /// Most characters.
        max: usize,
        /// The characters allowed.
        charset: Charset,
    },
    /// A number within `min..=max` (`None`: no lower bound). Applies to numbers only.
    Integer {
        /// Smallest value, if the spec gives one.
        min: Option<i128>,
        /// Largest value.
        max: i128,
    },
    /// The request lifetime in seconds: [`LIFETIME_MIN`]`..=`[`lifetime_max`] of the
    /// country. Applies to numbers only.
    Lifetime,
}

/// One field of a row of the Limits table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldLimit {
    /// The row's "Item" cell, as the spec writes it.
    pub item: &'static str,
    /// The member it names.
    pub target: Target,
    /// Its limit.
    pub bound: Bound,
}

const fn chars(item: &'static str, target: Target, max: usize) -> FieldLimit {
    FieldLimit { item, target, bound: Bound::Chars { min: 0, max, charset: Charset::Any } }
}

const fn name(name: &'static str) -> Target {
    Target::Name(name)
}

const fn member(parent: &'static str, name: &'static str) -> Target {
    Target::Member { parent, name }
}

const SHORT_CODES: &str = "status, sub_status, method, widget_method, type";
const CUSTOMER: &str = "customer.id, first_name, last_name, email, ip_address";
const URLS: &str = "callback URLs and redirect_url";
const BANK: &str = "bank id";
const AMOUNTS: &str = "amount fields";
const AMOUNT_RANGE: Bound = Bound::Integer { min: Some(AMOUNT_MIN), max: AMOUNT_MAX };

/// The Limits table, one entry per field it names; the one home of these
/// values (the request schemas in `validate/operations.rs` take theirs from here).
/// Readings of items that do not name fields exactly:
/// - "callback URLs": the three `merchant_*callback_url` fields of `general`;
/// - "recipient pan": `pan` of `recipient` (a payout body) and of
///   `recipient_requisites` (the "Recipient requisites" resource);
/// - "amount fields": the fields the Resources tables give as amounts:
///   `amount`, `old_amount`, `initial_amount`, `locked_amount`;
/// - the request lifetime table: any `lifetime`, with the lower bound
///   "everywhere" and the upper bound of the country when it can be known.
pub const FIELD_LIMITS: &[FieldLimit] = &[
    chars("project_id", name("project_id"), 32),
    chars("payment_id", name("payment_id"), 255),
    chars("request_id", name("request_id"), 32),
    chars(SHORT_CODES, name("status"), 32),
    chars(SHORT_CODES, name("sub_status"), 32),
    chars(SHORT_CODES, name("method"), 32),
    chars(SHORT_CODES, name("widget_method"), 32),
    chars(SHORT_CODES, name("type"), 32),
    chars("status_description", name("status_description"), 1024),
    chars("description", name("description"), 255),
    FieldLimit {
        item: "extra_param",
        target: name("extra_param"),
        bound: Bound::Chars { min: 1, max: 16, charset: Charset::ExtraParam },
    },
    chars(URLS, name("merchant_callback_url"), 2048),
    chars(URLS, name("merchant_success_callback_url"), 2048),
    chars(URLS, name("merchant_decline_callback_url"), 2048),
    chars(URLS, name("redirect_url"), 2048),
    chars("form_url", name("form_url"), 255),
    chars(CUSTOMER, member("customer", "id"), 255),
    chars(CUSTOMER, name("first_name"), 255),
    chars(CUSTOMER, name("last_name"), 255),
    chars(CUSTOMER, name("email"), 255),
    chars(CUSTOMER, name("ip_address"), 255),
    chars("browser, device_type", name("browser"), 512),
    chars("browser, device_type", name("device_type"), 512),
    chars("user_agent", name("user_agent"), 1024),
    chars("sender.pan", member("sender", "pan"), 32),
    chars("sender.phone", member("sender", "phone"), 24),
    chars("recipient pan", member("recipient", "pan"), 4096),
    chars("recipient pan", member("recipient_requisites", "pan"), 4096),
    chars(BANK, member("bank", "id"), 32),
    chars(BANK, member("bank", "name"), 64),
    chars(BANK, member("bank", "symbol"), 64),
    FieldLimit {
        item: BANK,
        target: member("bank", "sbp_code"),
        bound: Bound::Chars { min: 12, max: 12, charset: Charset::Digits },
    },
    FieldLimit { item: AMOUNTS, target: name("amount"), bound: AMOUNT_RANGE },
    FieldLimit { item: AMOUNTS, target: name("old_amount"), bound: AMOUNT_RANGE },
    FieldLimit { item: AMOUNTS, target: name("initial_amount"), bound: AMOUNT_RANGE },
    FieldLimit { item: AMOUNTS, target: name("locked_amount"), bound: AMOUNT_RANGE },
    FieldLimit {
        item: "expiration_date",
        target: name("expiration_date"),
        bound: Bound::Integer { min: None, max: EXPIRATION_DATE_MAX },
    },
    FieldLimit { item: "lifetime", target: name("lifetime"), bound: Bound::Lifetime },
];

/// Largest `expiration_date` ("Limits": `<= 2^32`).
pub const EXPIRATION_DATE_MAX: i128 = 1 << 32;

/// The limit of the member `name` of an object that is the member `parent`
/// (`None` at the top level). A row qualified by its object wins over a bare name.
pub fn field_limit(parent: Option<&str>, name: &str) -> Option<&'static FieldLimit> {
    limit_in(parent, name)
}

/// [`field_limit`] as a `const fn`: the request schemas (`validate/operations.rs`)
/// resolve their fields' rows when they are compiled, not on every check.
pub const fn limit_in(parent: Option<&str>, name: &str) -> Option<&'static FieldLimit> {
    let mut bare = None;
    let mut at = 0;
    while at < FIELD_LIMITS.len() {
        let limit = &FIELD_LIMITS[at];
        match limit.target {
            Target::Member { parent: wanted, name: field } => {
                if let Some(parent) = parent {
                    if same_text(field, name) && same_text(parent, wanted) {
                        return Some(limit);
                    }
                }
            }
            Target::Name(field) => {
                if bare.is_none() && same_text(field, name) {
                    bare = Some(limit);
                }
            }
        }
        at += 1;
    }
    bare
}

/// Equal text, in a `const fn`.
const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut at = 0;
    while at < a.len() {
        if a[at] != b[at] {
            return false;
        }
        at += 1;
    }
    true
}

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

/// What `x-access-merchant-id` may be, signed or received, in words ([`is_merchant_id`]).
pub const MERCHANT_ID_RULE: &str = "1 to 128 visible ASCII characters (no spaces)";

/// Whether `id` is a merchant id this crate signs with or accepts in a callback:
/// [`MERCHANT_ID_RULE`]. The spec does not bound `x-access-merchant-id`; it is an
/// HTTP header value, which Node and Fetch refuse to send with a character above
/// U+00FF and send other non-ASCII text as Latin-1 bytes, and the one id of a
/// merchant goes both ways (its requests, the service's callbacks).
pub fn is_merchant_id(id: &str) -> bool {
    (1..=128).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_graphic())
}

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

    /// Every row of the spec's Limits table has entries in [`FIELD_LIMITS`], and
    /// each entry's bound is written in its row's "Limit" cell.
    #[test]
    fn field_limits_are_the_spec_table() {
        let Some(spec) = spec() else { return };
        let rows = table(&spec, "## Limits");
        for row in &rows {
            assert!(FIELD_LIMITS.iter().any(|limit| limit.item == row[0]), "{row:?} has no entry");
        }
        for limit in FIELD_LIMITS.iter().filter(|limit| limit.bound != Bound::Lifetime) {
            let row = rows.iter().find(|row| row[0] == limit.item);
            let Some([item, cell]) = row.map(Vec::as_slice) else { panic!("{limit:?}: no such row") };
            let (Target::Name(name) | Target::Member { name, .. }) = limit.target;
            let written = match limit.bound {
                Bound::Chars { min: 0, max, charset: Charset::Any } if item == BANK && name == "id" => {
                    format!("<= {max};")
                }
                Bound::Chars { min: 0, max, charset: Charset::Any } if item == BANK => format!("{name} <= {max}"),
                Bound::Chars { min: 0, max, charset: Charset::Any } => format!("<= {max} characters"),
                Bound::Chars { min, max, charset: Charset::ExtraParam } => {
                    format!("{min}..{max} characters of A-Z a-z 0-9 _ -")
                }
                Bound::Chars { min, max, charset: Charset::Digits } if min == max => format!("{name} {max} digits"),
                Bound::Integer { min: Some(min), max } => format!("{min}..{max}"),
                Bound::Integer { min: None, max } if max.count_ones() == 1 => format!("<= 2^{}", max.trailing_zeros()),
                other => panic!("{other:?} is not written in the spec's way"),
            };
            assert!(cell.contains(&written), "{item}: '{cell}' does not say '{written}'");
            let named = item.contains(name) || cell.contains(name) || [AMOUNTS, URLS].contains(&item.as_str());
            assert!(named, "{item} does not name {name}");
        }
    }

    #[test]
    fn qualified_rows_win_and_bare_names_apply_anywhere() {
        let max = |parent, name| match field_limit(parent, name).map(|limit| limit.bound) {
            Some(Bound::Chars { max, .. }) => Some(max),
            _ => None,
        };
        assert_eq!(max(Some("general"), "payment_id"), Some(255));
        assert_eq!(max(None, "payment_id"), Some(255));
        assert_eq!(max(Some("anything"), "payment_id"), Some(255));
        assert_eq!(max(Some("sender"), "pan"), Some(32));
        assert_eq!(max(Some("recipient"), "pan"), Some(4096));
        assert_eq!(max(Some("customer"), "pan"), None);
        assert_eq!(max(Some("customer"), "id"), Some(255));
        assert_eq!(max(Some("bank"), "id"), Some(32));
        assert_eq!(max(None, "id"), None);
        assert_eq!(max(Some("payment"), "bank_symbol"), None);
        assert_eq!(field_limit(None, "amount").map(|limit| limit.bound), Some(AMOUNT_RANGE));
        assert_eq!(field_limit(Some("payment"), "lifetime").map(|limit| limit.bound), Some(Bound::Lifetime));
        const { assert!(EXPIRATION_DATE_MAX == 4_294_967_296) };
    }

    #[test]
    fn lifetime_of_unknown_countries() {
        assert_eq!(lifetime_max(None), LIFETIME_MAX_KZ);
        assert_eq!(lifetime_max(Some("UZ")), LIFETIME_MAX);
        const { assert!(LIFETIME_MIN < LIFETIME_MAX && LIFETIME_MAX < LIFETIME_MAX_KZ) };
        const { assert!(LIFETIME_DEFAULT == 10 * 60 && LIFETIME_DEFAULT as i128 <= LIFETIME_MAX) };
    }
}
