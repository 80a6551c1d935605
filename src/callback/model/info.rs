//! The P2P and widget payin info responses (spec, "P2P payin info" and
//! "Widget payin info"): the flat StatusResponse plus payment info,
//! requisites and links. The StatusResponse's required fields are enforced;
//! other fields the spec marks required, per country variant, are reported
//! as warnings so a deviating response is still readable.

use serde::Serialize;

use super::reader::{Reader, Source};
use super::{decline_reason, DeclineReason};
use super::{instruction, parts};
use super::{IntegrationLinks, PaymentInfo, PaymentInstruction, Requisites, SenderRequisites};
use crate::error::{Error, Result};
use crate::json::Json;
use crate::spec::availability::AVAILABILITY;
use crate::spec::operations::Operation;
use crate::spec::states::{is_final_status, is_known_state};
use crate::validate::Issue;

/// A typed info response. Absent values serialize as `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InfoResponse {
    /// `project_id`.
    pub project_id: String,
    /// `payment_id`: the merchant's payment identifier.
    pub payment_id: String,
    /// `request_id`: the service's identifier.
    pub request_id: String,
    /// `status`.
    pub status: String,
    /// `sub_status`.
    pub sub_status: Option<String>,
    /// `status_description`, e.g. a decline reason.
    pub status_description: Option<String>,
    /// `decline` or `success`.
    pub is_final: bool,
    /// The (status, sub_status) pair is a row of the spec's states table.
    pub is_known_state: bool,
    /// The key the callback of this state carries (`idempotency_key`): how a receiver that
    /// asks about a payment whose callbacks never came acts on its state exactly once.
    pub idempotency_key: String,
    /// Set for `decline` only.
    pub decline_reason: Option<DeclineReason>,
    /// The country whose variant applies, told by `payment_info.currency`
    /// (KZT → KZ, RUB → RU, KES → KE, NGN → NG, ZAR → ZA): the response itself names no country.
    pub variant: Option<&'static str>,
    /// `payment_info`.
    pub payment_info: Option<PaymentInfo>,
    /// Recipient requisites, from whichever pair the response carried.
    pub requisites: Option<Requisites>,
    /// P2P only: the masked sender card or phone.
    pub sender: Option<SenderRequisites>,
    /// `integration` links.
    pub integration: Option<IntegrationLinks>,
    /// From `additional_info.display_data`, or a top-level `display_data`:
    /// the spec says the instruction is in `display_data` but does not show where.
    pub instruction: Option<PaymentInstruction>,
    /// Fields the spec marks required (for this operation and variant) that are absent; code `REQUIRED`.
    pub warnings: Vec<Issue>,
    /// The body as received.
    pub raw: Json<'static>,
}

/// Reads the response of the info operation `Operation::P2pPayinInfo` or
/// `Operation::WidgetPayinInfo` (their paths). Refused with `INVALID_RESPONSE`: a body that is
/// not an object, a missing `status`, `request_id`, `project_id` or
/// `payment_id`, or a present field of the wrong type. Another operation
/// path is an `INVALID_ARGUMENT`.
pub fn parse_info_response(operation_path: &str, body: &Json) -> Result<InfoResponse> {
    let operation = match Operation::from_path(operation_path) {
        Some(operation @ (Operation::P2pPayinInfo | Operation::WidgetPayinInfo)) => operation,
        _ => {
            return Err(Error::InvalidArgument {
                name: "operation".into(),
                reason: format!(
                    "has no info response model; use {} or {}",
                    Operation::P2pPayinInfo.path(),
                    Operation::WidgetPayinInfo.path()
                ),
            })
        }
    };
    let source = Source::Response;
    let Json::Object(_) = body else {
        return Err(source.error("", format!("must be a JSON object, found {}", body.kind())));
    };
    let root = Reader::new(source, body, "");
    let status = root.required_text("status")?;
    let sub_status = root.text("sub_status")?;
    let status_description = root.text("status_description")?;
    let payment_info = root.object("payment_info", "payment_info")?.map(parts::payment_info).transpose()?;
    let variant = payment_info
        .as_ref()
        .and_then(|info| info.currency.as_deref())
        .and_then(|currency| AVAILABILITY.iter().find(|row| row.currency == currency))
        .map(|row| row.country);
    // README: both places are read. `additional_info.display_data` when it holds something;
    // else the top-level one (an `additional_info` without display_data, or with a null or
    // empty one, must not hide the instruction sent at the top level).
    let nested = root.object("additional_info", "additional_info")?.and_then(|info| info.value("display_data"));
    let display_data = match nested {
        Some(value) if !matches!(value, Json::Null) && !matches!(value, Json::Array(items) if items.is_empty()) => {
            (Some(value), "additional_info.display_data")
        }
        _ => match root.value("display_data") {
            Some(value) => (Some(value), "display_data"),
            None => (nested, "additional_info.display_data"),
        },
    };
    let sender = match operation {
        Operation::P2pPayinInfo => root.object("sender", "sender")?.map(parts::sender).transpose()?,
        _ => None,
    };
    let project_id = root.required_text("project_id")?;
    let payment_id = root.required_text("payment_id")?;
    let mut response = InfoResponse {
        idempotency_key: super::idempotency_key(&project_id, &payment_id, &status, sub_status.as_deref()),
        project_id,
        payment_id,
        request_id: root.required_text("request_id")?,
        is_final: is_final_status(&status),
        is_known_state: is_known_state(&status, sub_status.as_deref()),
        decline_reason: (status == "decline").then(|| decline_reason(status_description.as_deref())),
        variant,
        requisites: match root.object("recipient_requisites", "recipient_requisites")? {
            Some(reader) => parts::requisites(reader)?,
            None => None,
        },
        sender,
        integration: root.object("integration", "integration")?.map(parts::integration).transpose()?,
        instruction: instruction::instruction(source, display_data.0.unwrap_or(&Json::Null), display_data.1)?,
        payment_info,
        status,
        sub_status,
        status_description,
        warnings: Vec::new(),
        raw: body.clone().into_owned(),
    };
    response.warnings = required_warnings(operation, variant, body);
    Ok(response)
}

/// Whether any of `keys` is present and not null in `object`.
fn present(object: Option<&Json>, keys: &[&str]) -> bool {
    object.is_some_and(|object| keys.iter().any(|key| object.get(key).is_some_and(|v| *v != Json::Null)))
}

/// The spec's 'req' marks, per operation and variant, checked on the raw body.
fn required_warnings(operation: Operation, variant: Option<&str>, body: &Json) -> Vec<Issue> {
    let mut missing: Vec<Issue> = Vec::new();
    let mut need = |object: Option<&Json>, prefix: &str, keys: &[&str], why: &str| {
        if !present(object, keys) {
            let shown = keys.iter().map(|key| format!("{prefix}{key}")).collect::<Vec<_>>().join(" or ");
            let path = format!("{prefix}{}", keys.first().copied().unwrap_or_default());
            let message = format!("{shown} is required{why} but is absent");
            missing.push(Issue { path, code: "REQUIRED", message, limit: None, actual: None });
        }
    };
    let info = body.get("payment_info");
    let kz = variant == Some("KZ");
    need(Some(body), "", &["payment_info"], "");
    need(Some(body), "", &["integration"], "");
    if let Some(integration) = body.get("integration").filter(|v| **v != Json::Null) {
        need(Some(integration), "integration.", &["form_url"], "");
    }
    if info.is_some_and(|v| *v != Json::Null) {
        let always: &[&str] = match operation {
            Operation::WidgetPayinInfo => &["amount", "old_amount", "initial_amount", "currency"],
            _ => &["amount", "old_amount", "currency", "method"],
        };
        for key in always {
            need(info, "payment_info.", &[*key], "");
        }
        if kz {
            need(info, "payment_info.", &["lifetime"], " in the KZ variant");
            if operation == Operation::P2pPayinInfo {
                need(info, "payment_info.", &["expiration_date"], " in the KZ variant");
            }
        }
    }
    let requisites = body.get("recipient_requisites").filter(|r| matches!(r, Json::Object(m) if !m.is_empty()));
    if operation == Operation::P2pPayinInfo && requisites.is_some() {
        let prefix = "recipient_requisites.";
        match variant {
            Some("KZ") => {
                need(requisites, prefix, &["pan", "pan_hidden"], " in the KZ variant");
                need(requisites, prefix, &["bank_name"], " in the KZ variant");
            }
            Some("RU") => need(requisites, prefix, &["card_holder", "card_holder_hidden"], " in the RU variant"),
            _ => {}
        }
    }
    missing
}
