//! The Limits table (`crate::spec::limits::FIELD_LIMITS`) applied wherever a
//! field it names appears ("Limits" is global): in the members a request schema
//! does not list (unknown fields, the members of P2P payout create the spec
//! does not show, the whole of the bodies it does not show), at any depth.
//! There only the limit is checked, a string against its length and
//! characters, a number against its range; a value of another type and every
//! other field are accepted as they are. The fields a schema lists take their
//! limit from the same table, through [`check_text_within`].

use super::rules::{self, Format};
use super::Findings;
use crate::json::Leaf;
#[cfg(doc)]
use crate::spec::limits::field_limit;
use crate::spec::limits::{lifetime_max, Bound, Charset, FieldLimit, Target, FIELD_LIMITS, LIFETIME_MIN};

/// Checks a leaf, the value of a member whose row of the table is `limit`
/// (`field_limit` of the member's name and its object's), against that row:
/// a string against its length and characters, a number against its range.
/// A value of another type, and a container, are accepted as they are.
pub(crate) fn check_leaf(limit: Option<&FieldLimit>, leaf: Leaf<'_>, path: &str, findings: &mut Findings) {
    let Some(limit) = limit else { return };
    match (limit.bound, leaf) {
        (Bound::Chars { .. }, Leaf::String(text)) => check_text(limit.bound, text, 0, Format::Free, path, findings),
        (Bound::Integer { min, max }, Leaf::Number(text)) => {
            rules::check_range(findings, path, text, min, max, "OUT_OF_RANGE", "");
        }
        (Bound::Lifetime, Leaf::Number(text)) => {
            // The integration and country of a body the spec does not show cannot be
            // known: the lower bound is "everywhere"'s, the upper the largest row's.
            let max = lifetime_max(None);
            rules::check_range(findings, path, text, Some(LIFETIME_MIN), max, "LIFETIME_OUT_OF_RANGE", " seconds");
        }
        _ => {}
    }
}

/// The name under which the members of an object named `name` find their
/// rows ([`field_limit`]`(parent, member)`): `name` itself when a row is
/// qualified by it, else `None`, which finds the same rows (a parent is only
/// ever compared with the rows' own). An array's items carry its name.
pub(crate) fn parent_name(name: &str) -> Option<&'static str> {
    FIELD_LIMITS.iter().find_map(|limit| match limit.target {
        Target::Member { parent, .. } if parent == name => Some(parent),
        _ => None,
    })
}

/// Checks a string a schema lists against its row of the Limits table (found
/// when the schema was compiled, `spec::limits::limit_in`): at least `min`
/// characters (a schema's own minimum, e.g. 1 for an identifier) and the row's,
/// at most the row's, in `format` or, when the row restricts the characters,
/// the row's. A field without a row is checked only for `min` and `format`;
/// the tests hold every schema field that asks for its limit to a row.
pub(crate) fn check_text_within(
    limit: Option<&FieldLimit>,
    text: &str,
    min: usize,
    format: Format,
    path: &str,
    findings: &mut Findings,
) {
    match limit {
        Some(limit) => check_text(limit.bound, text, min, format, path, findings),
        None => rules::check_text(findings, path, text, min, usize::MAX, format),
    }
}

fn check_text(bound: Bound, text: &str, min: usize, format: Format, path: &str, findings: &mut Findings) {
    let Bound::Chars { min: row_min, max, charset } = bound else {
        return rules::check_text(findings, path, text, min, usize::MAX, format);
    };
    let format = match charset {
        Charset::Any => format,
        Charset::ExtraParam => Format::ExtraParam,
        Charset::Digits => Format::Digits,
    };
    rules::check_text(findings, path, text, min.max(row_min), max, format);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issues(body: &str) -> Vec<(String, &'static str)> {
        let body = crate::json::parse_body(body, &Default::default()).unwrap();
        let mut findings = Findings::default();
        crate::validate::walk::check_limits_only(&body, &mut findings);
        findings.into_report().errors.into_iter().map(|issue| (issue.path, issue.code)).collect()
    }

    fn one(path: &str, code: &'static str) -> Vec<(String, &'static str)> {
        vec![(path.to_owned(), code)]
    }

    #[test]
    fn bare_names_apply_at_any_depth_and_in_arrays() {
        let long = "x".repeat(256);
        assert_eq!(
            issues(&format!(r#"{{"general":{{"payment_id":"{long}"}}}}"#)),
            one("general.payment_id", "TOO_LONG")
        );
        assert_eq!(issues(&format!(r#"{{"payment_id":"{long}"}}"#)), one("payment_id", "TOO_LONG"));
        assert_eq!(
            issues(&format!(r#"{{"a":[{{"b":{{"payment_id":"{long}"}}}}]}}"#)),
            one("a.0.b.payment_id", "TOO_LONG")
        );
        assert!(issues(&format!(r#"{{"general":{{"payment_id":"{}"}}}}"#, "x".repeat(255))).is_empty());
    }

    #[test]
    fn qualified_names_apply_only_in_their_object() {
        let pan33 = "4".repeat(33);
        assert_eq!(issues(&format!(r#"{{"sender":{{"pan":"{pan33}"}}}}"#)), one("sender.pan", "TOO_LONG"));
        assert!(issues(&format!(r#"{{"recipient":{{"pan":"{pan33}"}}}}"#)).is_empty());
        assert!(issues(&format!(r#"{{"card":{{"pan":"{}"}}}}"#, "4".repeat(5000))).is_empty());
        assert_eq!(
            issues(&format!(r#"{{"recipient":[{{"pan":"{}"}}]}}"#, "4".repeat(4097))),
            one("recipient.0.pan", "TOO_LONG")
        );
        assert_eq!(issues(r#"{"bank":{"sbp_code":"12345678901a"}}"#), one("bank.sbp_code", "PATTERN"));
        assert_eq!(issues(r#"{"bank":{"sbp_code":"1234"}}"#), one("bank.sbp_code", "TOO_SHORT"));
        assert!(issues(&format!(r#"{{"id":"{}","bank":{{"sbp_code":"123456789012"}}}}"#, "x".repeat(300))).is_empty());
    }

    #[test]
    fn numbers_against_ranges_and_other_types_unchecked() {
        assert_eq!(issues(r#"{"payment":{"amount":0}}"#), one("payment.amount", "OUT_OF_RANGE"));
        assert_eq!(issues(r#"{"amount":1e14}"#), one("amount", "OUT_OF_RANGE"));
        assert_eq!(issues(r#"{"x":{"locked_amount":10000000000001}}"#), one("x.locked_amount", "OUT_OF_RANGE"));
        assert!(
            issues(r#"{"amount":10000000000000,"old_amount":1,"initial_amount":"0","locked_amount":15.5}"#).is_empty()
        );
        assert_eq!(issues(r#"{"expiration_date":4294967297}"#), one("expiration_date", "OUT_OF_RANGE"));
        assert!(issues(r#"{"expiration_date":4294967296}"#).is_empty());
        assert_eq!(issues(r#"{"payment":{"lifetime":299}}"#), one("payment.lifetime", "LIFETIME_OUT_OF_RANGE"));
        assert_eq!(issues(r#"{"payment":{"lifetime":901}}"#), one("payment.lifetime", "LIFETIME_OUT_OF_RANGE"));
        assert!(issues(r#"{"payment":{"lifetime":900}}"#).is_empty());
        assert!(issues(r#"{"payment_id":12345,"description":null,"status":["x"],"method":{"a":1}}"#).is_empty());
        assert_eq!(issues(r#"{"payment":{"extra_param":"a b"}}"#), one("payment.extra_param", "PATTERN"));
    }
}
