//! The typed model of a callback body (spec, "Events"): status and whether it
//! is final, the idempotency key, payment info, requisites from either pair,
//! the payment instruction from `display_data`, and the decline reason.
//! `info` reads the P2P and widget info responses with the same parts:
//! `parts` (payment info, links, requisites) and `instruction` (from
//! `display_data`), each read through `reader` (which values are absent, and
//! the errors' code). The spec's states and decline reasons are tables of
//! `crate::spec`.

mod info;
mod instruction;
mod parts;
mod reader;

use serde::Serialize;

use crate::canonical::ambiguity::Segment;
use crate::canonical::CanonicalOptions;
use crate::error::Result;
use crate::json::Json;
use crate::spec::decline_reasons::DECLINE_REASONS;
use crate::spec::states::{is_final_status, is_known_state};
pub use info::{parse_info_response, InfoResponse};
pub use instruction::{DisplayItem, PaymentInstruction};
pub use parts::{IntegrationLinks, PaymentInfo, Requisites, SenderRequisites, CARD_HOLDER_PLACEHOLDER};
use reader::{Reader, Source};

/// The spec's recommended duplicate-detection key,
/// `{project_id}:{payment_id}:{status}:{sub_status}`, with `%`, `:` and `;`
/// percent-encoded in each part (`%25`, `%3A`, `%3B`), so that no text inside
/// a part can make two callbacks' keys alike or one callback's keys differ. A
/// null sub-status is written as the empty text: `prj:order-1:decline:`. The
/// parts are the model's, read from the signed entries, so every body with the
/// same signed message has the same key.
pub fn idempotency_key(project_id: &str, payment_id: &str, status: &str, sub_status: Option<&str>) -> String {
    let mut key = Vec::with_capacity(project_id.len() + payment_id.len() + status.len() + 8);
    for (i, part) in [project_id, payment_id, status, sub_status.unwrap_or("")].into_iter().enumerate() {
        if i > 0 {
            key.push(b':');
        }
        for &byte in part.as_bytes() {
            match byte {
                b'%' => key.extend_from_slice(b"%25"),
                b':' => key.extend_from_slice(b"%3A"),
                b';' => key.extend_from_slice(b"%3B"),
                other => key.push(other),
            }
        }
    }
    // Only ASCII bytes were replaced, by ASCII: still UTF-8.
    String::from_utf8(key).unwrap_or_default()
}

/// Every path the callback model reads (`#`: any array index). A leaf at an
/// object's path (`"recipient_requisites": null`) is read too, as absent. Entries
/// at other paths are kept out of the model, and one directly after a text value
/// makes a callback ambiguous (`crate::canonical::ambiguity::UNREAD_AFTER_TEXT`). The test
/// `every_listed_path_is_read` holds this list to [`parse_callback_with`].
// Outside the tests, the list is documentation: `reads_path` is its match.
#[cfg_attr(not(test), allow(dead_code))]
pub const CALLBACK_FIELDS: &[&str] = &[
    "project_id",
    "general",
    "general.payment_id",
    "general.request_id",
    "status",
    "status.status",
    "status.sub_status",
    "status.status_description",
    "payment_info",
    "payment_info.amount",
    "payment_info.old_amount",
    "payment_info.initial_amount",
    "payment_info.currency",
    "payment_info.lifetime",
    "payment_info.expiration_date",
    "payment_info.updated_date",
    "payment_info.created_date",
    "payment_info.method",
    "payment_info.widget_method",
    "payment_info.type",
    "payment_info.payment_system",
    "integration",
    "integration.form_url",
    "integration.redirect_url",
    "recipient_requisites",
    "recipient_requisites.pan",
    "recipient_requisites.card_holder",
    "recipient_requisites.pan_hidden",
    "recipient_requisites.card_holder_hidden",
    "recipient_requisites.bank_name",
    "recipient_requisites.bank_country",
    "recipient_requisites.currency",
    "additional_info",
    "additional_info.display_data",
    "additional_info.display_data.#",
    "additional_info.display_data.#.type",
    "additional_info.display_data.#.title",
    "additional_info.display_data.#.data",
];

/// Whether `path` is a field that identifies the payment (and makes the idempotency
/// key): `project_id`, `general.payment_id`, `general.request_id`. A text cut short
/// there would name another payment, so an unread member may not follow one in the
/// signed order (`crate::canonical::ambiguity::UNREAD_AFTER_TEXT`).
pub(crate) fn identifies_payment(path: &[Segment<'_>]) -> bool {
    use Segment::Key;
    matches!(path, [Key("project_id")] | [Key("general"), Key("payment_id" | "request_id")])
}

/// Whether the callback model reads the value at `path` (see [`CALLBACK_FIELDS`]).
/// This runs for every leaf of a verified body, so it is [`CALLBACK_FIELDS`] written
/// out as a match (the test `reads_path_is_the_listed_fields` holds the two equal):
/// the table walk, splitting each field at every leaf, was a tenth of a verification.
pub(crate) fn reads_path(path: &[Segment<'_>]) -> bool {
    use Segment::{Index, Key};
    // `#` in a listed field: any array index (or, as the table reads, a key that is `#`).
    let any_index = |segment: &Segment<'_>| matches!(segment, Index(_) | Key("#"));
    match path {
        [Key(first)] => matches!(
            *first,
            "project_id"
                | "general"
                | "status"
                | "payment_info"
                | "integration"
                | "recipient_requisites"
                | "additional_info"
        ),
        [Key(first), Key(second)] => match *first {
            "general" => matches!(*second, "payment_id" | "request_id"),
            "status" => matches!(*second, "status" | "sub_status" | "status_description"),
            "payment_info" => matches!(
                *second,
                "amount"
                    | "old_amount"
                    | "initial_amount"
                    | "currency"
                    | "lifetime"
                    | "expiration_date"
                    | "updated_date"
                    | "created_date"
                    | "method"
                    | "widget_method"
                    | "type"
                    | "payment_system"
            ),
            "integration" => matches!(*second, "form_url" | "redirect_url"),
            "recipient_requisites" => matches!(
                *second,
                "pan" | "card_holder" | "pan_hidden" | "card_holder_hidden" | "bank_name" | "bank_country" | "currency"
            ),
            "additional_info" => *second == "display_data",
            _ => false,
        },
        [Key("additional_info"), Key("display_data"), item] => any_index(item),
        [Key("additional_info"), Key("display_data"), item, Key(name)] => {
            any_index(item) && matches!(*name, "type" | "title" | "data")
        }
        _ => false,
    }
}

/// Code of a decline whose description is not one the spec lists (`spec::decline_reasons`; the text is kept).
pub const DECLINE_OTHER: &str = "OTHER";
/// Code of a decline without a description.
pub const DECLINE_UNSPECIFIED: &str = "UNSPECIFIED";

/// Why a payment was declined.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeclineReason {
    /// A code from [`DECLINE_REASONS`], or [`DECLINE_OTHER`] / [`DECLINE_UNSPECIFIED`].
    pub code: &'static str,
    /// The `status_description` as sent.
    pub description: Option<String>,
}

/// Maps a decline's `status_description` to a reason. Known texts match
/// ignoring ASCII case and surrounding spaces; new ones may be added by the
/// service ("additive"), so unknown texts are kept under [`DECLINE_OTHER`].
pub fn decline_reason(description: Option<&str>) -> DeclineReason {
    let code = match description {
        None => DECLINE_UNSPECIFIED,
        Some(text) => DECLINE_REASONS
            .iter()
            .find(|(known, _)| known.eq_ignore_ascii_case(text.trim()))
            .map_or(DECLINE_OTHER, |(_, code)| code),
    };
    DeclineReason { code, description: description.map(str::to_owned) }
}

/// A callback body, typed. Every key is always present in the serialized
/// form; absent values are `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Callback {
    /// `project_id`.
    pub project_id: String,
    /// `general.payment_id`: the merchant's payment identifier.
    pub payment_id: String,
    /// `general.request_id`: the service's identifier.
    pub request_id: Option<String>,
    /// `status.status`.
    pub status: String,
    /// `status.sub_status`.
    pub sub_status: Option<String>,
    /// `status.status_description`, e.g. a decline reason.
    pub status_description: Option<String>,
    /// `decline` or `success`.
    pub is_final: bool,
    /// The (status, sub_status) pair is a row of the spec's states table.
    pub is_known_state: bool,
    /// See [`idempotency_key`].
    pub idempotency_key: String,
    /// Set for `decline` only.
    pub decline_reason: Option<DeclineReason>,
    /// `payment_info`.
    pub payment_info: Option<PaymentInfo>,
    /// `integration` links.
    pub integration: Option<IntegrationLinks>,
    /// Present for `processing:awaiting_confirm` and `processing:paid`; never for KE.
    pub requisites: Option<Requisites>,
    /// From `additional_info.display_data` (H2H informative callbacks).
    pub instruction: Option<PaymentInstruction>,
}

/// Reads a callback body signed with the default canonical options; see [`parse_callback_with`].
pub fn parse_callback(body: &Json) -> Result<Callback> {
    parse_callback_with(body, &CanonicalOptions::DEFAULT)
}

/// Reads a callback body as the message of `options` writes it. Refused with
/// `INVALID_CALLBACK`: a body that is not an object; a missing `status.status`,
/// `project_id` or `general.payment_id` (the idempotency key needs them); any
/// field of the wrong JSON type. A leaf the message writes `None` (`null`,
/// `""`, `0`, `false`, `"None"`) reads as absent whatever its type, and so does
/// an object or array with no leaf below it. Unknown fields are not read: the
/// model holds nothing that its fields do not name.
pub fn parse_callback_with(body: &Json, options: &CanonicalOptions) -> Result<Callback> {
    let source = Source::Callback(*options);
    let Json::Object(_) = body else {
        return Err(source.error("", format!("must be a JSON object, found {}", body.kind())));
    };
    let root = Reader::new(source, body, "");
    let status = root
        .object("status", "status")?
        .ok_or_else(|| source.error("status", "is required: an object with status, sub_status, status_description"))?;
    let general = root.object("general", "general")?.ok_or_else(|| source.error("general", "is required"))?;
    let project_id = root.required_text("project_id")?;
    let payment_id = general.required_text("payment_id")?;
    let status_text = status.required_text("status")?;
    let sub_status = status.text("sub_status")?;
    let status_description = status.text("status_description")?;
    let display_data = match root.object("additional_info", "additional_info")? {
        Some(info) => info.value("display_data").unwrap_or(&Json::Null),
        None => &Json::Null,
    };
    let payment_info = root.object("payment_info", "payment_info")?.map(parts::payment_info).transpose()?;
    let requisites = match root.object("recipient_requisites", "recipient_requisites")? {
        Some(reader) => parts::requisites(reader)?,
        None => None,
    };
    // Each country of the spec is served in one currency. The check also keeps a
    // rewrite that cuts a card holder's text from adding another requisites currency.
    let currencies = (
        requisites.as_ref().and_then(|r| r.currency.as_deref()),
        payment_info.as_ref().and_then(|p| p.currency.as_deref()),
    );
    if let (Some(requisites_currency), Some(payment_currency)) = currencies {
        if requisites_currency != payment_currency {
            return Err(source.error("recipient_requisites.currency", "differs from payment_info.currency"));
        }
    }
    Ok(Callback {
        request_id: general.text("request_id")?,
        is_final: is_final_status(&status_text),
        is_known_state: is_known_state(&status_text, sub_status.as_deref()),
        idempotency_key: idempotency_key(&project_id, &payment_id, &status_text, sub_status.as_deref()),
        decline_reason: (status_text == "decline").then(|| decline_reason(status_description.as_deref())),
        payment_info,
        integration: root.object("integration", "integration")?.map(parts::integration).transpose()?,
        requisites,
        instruction: instruction::instruction(source, display_data, "additional_info.display_data")?,
        project_id,
        payment_id,
        status: status_text,
        sub_status,
        status_description,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idempotency_key_writes_null_sub_status_as_empty() {
        assert_eq!(idempotency_key("p", "o", "decline", None), "p:o:decline:");
        assert_eq!(idempotency_key("p", "o", "processing", Some("paid")), "p:o:processing:paid");
    }

    #[test]
    fn idempotency_key_parts_cannot_run_into_each_other() {
        // Unescaped, both would be "a:b:c:d:".
        let one = idempotency_key("a:b", "c", "d", None);
        let two = idempotency_key("a", "b:c", "d", None);
        assert_ne!(one, two);
        assert_eq!(one, "a%3Ab:c:d:");
        assert_eq!(idempotency_key("p%3A", "o;x", "s", Some("t")), "p%253A:o%3Bx:s:t");
    }

    fn parsed(text: &str) -> Result<Callback> {
        parse_callback(&crate::json::parse_body(text, &crate::json::Limits::default()).unwrap())
    }

    const BASE: &str = r#""project_id":"prj","general":{"payment_id":"o-1"},"status":{"status":"decline""#;

    /// Every leaf path of [`CALLBACK_FIELDS`] changes the model of some full callback when removed.
    #[test]
    fn every_listed_path_is_read() {
        let plain = r#"{"project_id":"p","general":{"payment_id":"o","request_id":"r"},
            "status":{"status":"processing","sub_status":"paid","status_description":"d"},
            "payment_info":{"amount":1,"old_amount":2,"initial_amount":3,"currency":"RUB","lifetime":4,
              "expiration_date":5,"updated_date":6,"created_date":7,"method":"m","widget_method":"w","type":"t",
              "payment_system":"s"},
            "integration":{"form_url":"f","redirect_url":"u"},
            "recipient_requisites":{"pan":"1","card_holder":"h","bank_name":"b","bank_country":"c","currency":"RUB"},
            "additional_info":{"display_data":[{"type":"x","title":"note","data":"y"}]}}"#;
        let masked = plain.replace(r#""pan":"1","card_holder":"h""#, r#""pan_hidden":"1","card_holder_hidden":"h""#);
        let bodies: Vec<Json> = [plain, masked.as_str()]
            .iter()
            .map(|text| crate::json::parse_body(text, &crate::json::Limits::default()).unwrap())
            .collect();
        let leaves =
            CALLBACK_FIELDS.iter().filter(|f| !CALLBACK_FIELDS.iter().any(|g| g.starts_with(&format!("{f}."))));
        for field in leaves {
            let names: Vec<&str> = field.split('.').map(|n| if n == "#" { "0" } else { n }).collect();
            let changed = bodies.iter().any(|body| {
                let mut without = body.clone();
                remove(&mut without, &names) && parse_callback(&without) != parse_callback(body)
            });
            assert!(changed, "{field} is listed but not read");
        }
        // And an unlisted member anywhere changes nothing.
        let mut extra = bodies[0].clone();
        if let Json::Object(members) = &mut extra {
            members.push(("unlisted".into(), Json::String("z".into())));
        }
        assert_eq!(parse_callback(&extra), parse_callback(&bodies[0]));
    }

    fn remove(value: &mut Json, names: &[&str]) -> bool {
        match (value, names) {
            (Json::Object(members), [last]) => {
                let before = members.len();
                members.retain(|(key, _)| key != last);
                members.len() < before
            }
            (Json::Array(items), [index]) if index.parse::<usize>().is_ok_and(|i| i < items.len()) => {
                items.remove(index.parse::<usize>().unwrap_or(0));
                true
            }
            (Json::Object(members), [first, rest @ ..]) => {
                members.iter_mut().find(|(key, _)| key == first).is_some_and(|(_, child)| remove(child, rest))
            }
            (Json::Array(items), [first, rest @ ..]) => {
                first.parse::<usize>().ok().and_then(|i| items.get_mut(i)).is_some_and(|child| remove(child, rest))
            }
            _ => false,
        }
    }

    /// [`reads_path`] as the table says: a path is read when a listed field has its
    /// segments (`#` for an index).
    fn reads_path_by_table(path: &[Segment<'_>]) -> bool {
        CALLBACK_FIELDS.iter().any(|field| {
            let mut names = field.split('.');
            let same = path.iter().all(|segment| match (names.next(), segment) {
                (Some("#"), Segment::Index(_)) => true,
                (Some(name), Segment::Key(key)) => name == *key,
                _ => false,
            });
            same && names.next().is_none()
        })
    }

    /// The match in [`reads_path`] is [`CALLBACK_FIELDS`]: every path of up to five
    /// segments made of the fields' names, `#`, an index and other keys.
    #[test]
    fn reads_path_is_the_listed_fields() {
        use Segment::{Index, Key};
        let mut names: Vec<&str> = CALLBACK_FIELDS.iter().flat_map(|field| field.split('.')).collect();
        names.extend(["", "x", "general.payment_id", "0", "payment", "Status"]);
        names.sort_unstable();
        names.dedup();
        let segments: Vec<Segment<'_>> = names.iter().map(|name| Key(name)).chain([Index(0), Index(7)]).collect();
        let mut paths: Vec<Vec<Segment<'_>>> = vec![Vec::new()];
        let mut checked = 0;
        for _ in 0..4 {
            let mut longer = Vec::new();
            for path in &paths {
                for segment in &segments {
                    let mut next = path.clone();
                    next.push(*segment);
                    assert_eq!(reads_path(&next), reads_path_by_table(&next), "{next:?}");
                    checked += 1;
                    // Every path of up to three segments; longer ones under a listed field.
                    if next.len() < 3 || reads_path_by_table(&next) {
                        longer.push(next);
                    }
                }
            }
            paths = longer;
        }
        assert!(checked > 50_000, "{checked}");
        for path in [&[Key("x"), Key("y"), Key("z"), Key("w"), Key("v")][..], &[Index(0)][..], &[][..]] {
            assert_eq!(reads_path(path), reads_path_by_table(path));
        }
    }

    #[test]
    fn reads_path_matches_listed_paths_only() {
        use Segment::{Index, Key};
        assert!(reads_path(&[Key("general"), Key("payment_id")]));
        assert!(reads_path(&[Key("additional_info"), Key("display_data"), Index(3), Key("title")]));
        assert!(!reads_path(&[Key("additional_info"), Key("display_data"), Key("3"), Key("title")]));
        assert!(!reads_path(&[Key("general"), Key("q")]));
        assert!(!reads_path(&[Key("general"), Key("payment_id"), Key("x")]));
        assert!(identifies_payment(&[Key("project_id")]) && identifies_payment(&[Key("general"), Key("request_id")]));
        assert!(
            !identifies_payment(&[Key("general")]) && !identifies_payment(&[Key("integration"), Key("redirect_url")])
        );
    }

    #[test]
    fn values_written_none_read_as_null_whatever_their_type() {
        let mut keys = Vec::new();
        for sub in ["null", r#""""#, "0", "false", r#""None""#, "0.0", "{}", "[]", "[{}]"] {
            let callback = parsed(&format!(r#"{{{BASE},"sub_status":{sub}}},"payment_info":{{"amount":{sub}}}}}"#))
                .unwrap_or_else(|e| panic!("{sub}: {e}"));
            assert_eq!(callback.sub_status, None, "{sub}");
            assert_eq!(callback.payment_info.and_then(|p| p.amount), None, "{sub}");
            keys.push(callback.idempotency_key);
        }
        keys.dedup();
        assert_eq!(keys, ["prj:o-1:decline:"]);
    }

    #[test]
    fn empty_containers_read_as_absent() {
        let absent = parsed(&format!("{{{BASE}}}}}")).unwrap();
        for extra in [r#""payment_info":{}"#, r#""integration":{"x":{}}"#, r#""recipient_requisites":[]"#] {
            let with = parsed(&format!("{{{BASE}}},{extra}}}")).unwrap();
            assert_eq!(with, absent, "{extra}");
        }
    }

    #[test]
    fn wrong_types_are_errors_not_nulls() {
        for (member, path) in [
            (r#""payment_info":{"amount":"5000"}"#, "payment_info.amount"),
            (r#""payment_info":{"amount":50.5}"#, "payment_info.amount"),
            (r#""payment_info":{"amount":9007199254740992}"#, "payment_info.amount"),
            (r#""payment_info":{"amount":-9223372036854775808}"#, "payment_info.amount"),
            (r#""payment_info":{"currency":{"x":"RUB"}}"#, "payment_info.currency"),
            (r#""integration":"redirect_url:https://x""#, "integration"),
            (r#""additional_info":{"display_data":{"0":{"title":"amount","data":1}}}"#, "additional_info.display_data"),
            (
                r#""additional_info":{"display_data":[{"title":"x","data":{"a":"b"}}]}"#,
                "additional_info.display_data.0.data",
            ),
            (r#""additional_info":{"display_data":[{"title":"x","data":"y"},"z"]}"#, "additional_info.display_data.1"),
            (r#""additional_info":{"display_data":[{"data":"y"}]}"#, "additional_info.display_data.0.title"),
            (
                r#""additional_info":{"display_data":[{"title":"x"},{"title":"note","type":5}]}"#,
                "additional_info.display_data.1.type",
            ),
            (
                r#""additional_info":{"display_data":[{"title":"x"},{"title":"amount","data":"1.5"}]}"#,
                "additional_info.display_data.1.data",
            ),
            (r#""recipient_requisites":{"pan":"1","pan_hidden":"2"}"#, "recipient_requisites"),
            (
                r#""payment_info":{"currency":"RUB"},"recipient_requisites":{"pan":"1","currency":"USD"}"#,
                "recipient_requisites.currency",
            ),
        ] {
            let error = parsed(&format!("{{{BASE}}},{member}}}")).unwrap_err();
            assert!(
                matches!(&error, crate::Error::InvalidCallback { path: p, .. } if p == path),
                "{member}: {error:?}"
            );
        }
    }

    #[test]
    fn decline_reasons() {
        assert_eq!(decline_reason(Some("Canceled by client")).code, "CANCELED_BY_CLIENT");
        assert_eq!(decline_reason(Some(" requisites NOT found ")).code, "REQUISITES_NOT_FOUND");
        let other = decline_reason(Some("Bank is down"));
        assert_eq!((other.code, other.description.as_deref()), (DECLINE_OTHER, Some("Bank is down")));
        assert_eq!(decline_reason(None).code, DECLINE_UNSPECIFIED);
    }
}
