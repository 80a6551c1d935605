//! The checks of one member of a request object against its schema's field
//! (`super::operations`): the walk over an object's members (`super::walk`)
//! meets them in order; the checks of each are these. A member the schema does
//! not list is warned about ([`warn_unknown`]) and held to the Limits table; each
//! field the schema lists is checked as it is met ([`check_field`]) or, when its
//! object ends without it, as missing ([`check_absent`]). The report gives an
//! object's unknown members first, in their order, then its fields in the
//! schema's order.

use super::operations::{Field, Kind};
use super::rules::{self, Value};
use super::{limits, Findings};
use crate::closest::closest;
use crate::json::Leaf;
use crate::spec::limits::field_limit;

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

/// What the members or items of a container are checked against.
#[derive(Clone, Copy)]
pub(super) enum Contents {
    /// The fields of an object's schema; the object's name (`None` for the body).
    Schema(&'static [Field], Option<&'static str>),
    /// The Limits table only; the name their rows are found under (`limits::parent_name`).
    Limits(Option<&'static str>),
    /// Nothing (the container is a field's value of the wrong type).
    Skip,
}

/// A field its object, at `prefix`, does not have.
pub(super) fn check_absent(field: &Field, prefix: &str, findings: &mut Findings) {
    if field.required {
        let path = join(prefix, field.name);
        findings.error(&path, "REQUIRED", format!("{path} is required"));
    }
}

/// Checks the value of `field`, a member of the object named `parent`, at
/// `path`: a leaf whole; of a container, what its contents are checked against.
pub(super) fn check_field(
    field: &'static Field,
    parent: Option<&'static str>,
    value: Value<'_>,
    path: &str,
    findings: &mut Findings,
) -> Contents {
    match (&field.kind, value) {
        (_, Value::Leaf(Leaf::Null)) if field.required => {
            findings.error(path, "REQUIRED", format!("{path} is required and cannot be null"));
        }
        (_, Value::Leaf(Leaf::Null)) => {
            // The spec gives request fields no null; the service may refuse one.
            findings.warning(path, "NULL_FIELD", format!("{path} is null; omit the field instead"));
        }
        (Kind::Limited { min, format, limit }, Value::Leaf(Leaf::String(text))) => {
            limits::check_text_within(*limit, text, *min, *format, path, findings);
        }
        (Kind::Text { min, max, format }, Value::Leaf(Leaf::String(text))) => {
            rules::check_text(findings, path, text, *min, *max, *format);
        }
        (Kind::Amount, _) => rules::check_amount(findings, path, value),
        (Kind::Lifetime, _) => {
            rules::check_integer(findings, path, value);
        }
        (Kind::Object(fields), Value::Container(false)) => return Contents::Schema(fields, Some(field.name)),
        (Kind::Unchecked, Value::Leaf(leaf)) => {
            limits::check_leaf(field_limit(parent, field.name), leaf, path, findings);
        }
        (Kind::Unchecked, Value::Container(_)) => return Contents::Limits(Some(field.name)),
        (kind, _) => {
            let expected = if let Kind::Object(_) = kind { "an object" } else { "a string" };
            findings.error(path, "WRONG_TYPE", format!("{path} must be {expected}, found {}", value.kind()));
        }
    }
    Contents::Skip
}

/// A member `key` of the object at `prefix` that its schema `fields` does not
/// list: a warning (its value is held to the Limits table).
pub(super) fn warn_unknown(fields: &[Field], key: &str, prefix: &str, findings: &mut Findings) {
    let path = join(prefix, key);
    let message = match closest(key, fields.iter().map(|field| field.name)) {
        Some(name) => format!("{path} is not a field of this request; did you mean {}?", join(prefix, name)),
        None => format!("{path} is not a field of this request and will likely be ignored or refused"),
    };
    findings.warning(&path, "UNKNOWN_FIELD", message);
}
