//! The typed model of a callback body (spec, "Events"): status and whether it
//! is final, the idempotency key, payment info, requisites from either pair,
//! the payment instruction from `display_data`, and the decline reason.
//! `info` reads the P2P and widget info responses with the same parts.

mod info;
mod parts;

use serde::Serialize;

use crate::error::Result;
use crate::json::Json;
pub use info::{parse_info_response, InfoResponse};
pub use parts::{
    DisplayItem, IntegrationLinks, PaymentInfo, PaymentInstruction, Requisites, SenderRequisites,
    CARD_HOLDER_PLACEHOLDER,
};
use parts::{Reader, Source};

/// The spec's states table: (status, sub_status, final). `None` is "none".
pub const STATES: &[(&str, Option<&str>, bool)] = &[
    ("error", None, false),
    ("processing", Some("new"), false),
    ("processing", Some("requisites"), false),
    ("processing", Some("awaiting_confirm"), false),
    ("processing", Some("paid"), false),
    ("dispute", Some("no_payment"), false),
    ("dispute", Some("different_amount"), false),
    ("dispute", Some("confirm_timeout"), false),
    ("decline", None, true),
    ("success", None, true),
];

/// Whether a status is final. Only `decline` and `success` are, whatever the sub-status.
pub fn is_final_status(status: &str) -> bool {
    STATES.iter().any(|(known, _, is_final)| *is_final && *known == status)
}

/// Whether the (status, sub_status) pair is a row of the states table.
pub fn is_known_state(status: &str, sub_status: Option<&str>) -> bool {
    STATES.iter().any(|(known, known_sub, _)| *known == status && *known_sub == sub_status)
}

/// The spec's recommended duplicate-detection key,
/// `{project_id}:{payment_id}:{status}:{sub_status}`. A null sub-status is
/// written as the empty text, so `prj:order-1:decline:`. Nothing is escaped:
/// a `payment_id` holding `:` can make two keys alike, as in the spec's format.
pub fn idempotency_key(project_id: &str, payment_id: &str, status: &str, sub_status: Option<&str>) -> String {
    format!("{project_id}:{payment_id}:{status}:{}", sub_status.unwrap_or(""))
}

/// `status_description` texts the spec lists for `decline`, with stable codes.
pub const DECLINE_REASONS: &[(&str, &str)] = &[
    ("Canceled by client", "CANCELED_BY_CLIENT"),
    ("Declined by anti-fraud", "DECLINED_BY_ANTI_FRAUD"),
    ("Requisites not found", "REQUISITES_NOT_FOUND"),
    ("Order cancelled by timeout", "CANCELLED_BY_TIMEOUT"),
];

/// Code of a decline whose description is not in [`DECLINE_REASONS`] (the text is kept).
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
    pub project_id: String,
    pub payment_id: String,
    pub request_id: Option<String>,
    pub status: String,
    pub sub_status: Option<String>,
    pub status_description: Option<String>,
    /// `decline` or `success`.
    pub is_final: bool,
    /// The (status, sub_status) pair is a row of the spec's states table.
    pub is_known_state: bool,
    /// See [`idempotency_key`].
    pub idempotency_key: String,
    /// Set for `decline` only.
    pub decline_reason: Option<DeclineReason>,
    pub payment_info: Option<PaymentInfo>,
    pub integration: Option<IntegrationLinks>,
    /// Present for `processing:awaiting_confirm` and `processing:paid`; never for KE.
    pub requisites: Option<Requisites>,
    /// From `additional_info.display_data` (H2H informative callbacks).
    pub instruction: Option<PaymentInstruction>,
    /// The body as received.
    pub raw: Json,
}

/// Reads a (verified) callback body. Refused with `INVALID_CALLBACK`: a body
/// that is not an object; a missing `status.status`, `project_id` or
/// `general.payment_id` (the idempotency key needs them); any present,
/// non-null field of the wrong JSON type. Unknown fields are ignored (kept in `raw`).
pub fn parse_callback(body: &Json) -> Result<Callback> {
    let source = Source::Callback;
    let Json::Object(_) = body else {
        return Err(source.error("", format!("must be a JSON object, found {}", body.kind())));
    };
    let root = Reader { source, object: body, prefix: "" };
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
        Some(info) => info.value("display_data").cloned().unwrap_or(Json::Null),
        None => Json::Null,
    };
    Ok(Callback {
        request_id: general.text("request_id")?,
        is_final: is_final_status(&status_text),
        is_known_state: is_known_state(&status_text, sub_status.as_deref()),
        idempotency_key: idempotency_key(&project_id, &payment_id, &status_text, sub_status.as_deref()),
        decline_reason: (status_text == "decline").then(|| decline_reason(status_description.as_deref())),
        payment_info: root.object("payment_info", "payment_info")?.map(parts::payment_info).transpose()?,
        integration: root.object("integration", "integration")?.map(parts::integration).transpose()?,
        requisites: match root.object("recipient_requisites", "recipient_requisites")? {
            Some(reader) => parts::requisites(reader)?,
            None => None,
        },
        instruction: parts::instruction(source, &display_data, "additional_info.display_data")?,
        project_id,
        payment_id,
        status: status_text,
        sub_status,
        status_description,
        raw: body.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states() {
        assert!(is_final_status("decline") && is_final_status("success"));
        assert!(!is_final_status("processing") && !is_final_status("dispute") && !is_final_status("error"));
        assert!(is_known_state("processing", Some("paid")));
        assert!(!is_known_state("processing", None));
        assert!(!is_known_state("decline", Some("paid")));
    }

    #[test]
    fn idempotency_key_writes_null_sub_status_as_empty() {
        assert_eq!(idempotency_key("p", "o", "decline", None), "p:o:decline:");
        assert_eq!(idempotency_key("p", "o", "processing", Some("paid")), "p:o:processing:paid");
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
