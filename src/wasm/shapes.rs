//! The shapes the JS API returns, as serde structs with JS's member names
//! (camelCase, the `x-access-*` header names). Plain Rust: built and tested
//! natively; the wasm build turns them into JS objects or JSON text.

use serde::Serialize;

use super::options::canonical_spelling;
use crate::callback::model::Callback;
use crate::callback::{VerifiedCallback, VerifyOptions};
use crate::canonical::ambiguity::Ambiguity;
use crate::canonical::{CanonicalOptions, CanonicalSteps};
use crate::error::Error;
use crate::request::signing::{AccessHeaders, PreparedRequest};
use crate::spec::availability::{Integration, AVAILABILITY};
use crate::spec::limits::lifetime_max;
use crate::validate;

/// The canonical options as JS spells them.
#[derive(Serialize)]
pub(crate) struct OptionsOut {
    falsy: &'static str,
    booleans: &'static str,
    padding: bool,
    order: &'static str,
}

impl From<&CanonicalOptions> for OptionsOut {
    fn from(options: &CanonicalOptions) -> Self {
        let (falsy, booleans, padding, order) = canonical_spelling(options);
        OptionsOut { falsy, booleans, padding, order }
    }
}

/// `canonicalSteps`' result.
#[derive(Serialize)]
pub(crate) struct StepsOut<'a> {
    entries: &'a [String],
    joined: &'a str,
    encoded: &'a str,
    message: &'a str,
}

impl<'a> From<&'a CanonicalSteps> for StepsOut<'a> {
    fn from(s: &'a CanonicalSteps) -> Self {
        StepsOut { entries: &s.entries, joined: &s.joined, encoded: &s.encoded, message: &s.message }
    }
}

/// The four headers of a signed request.
#[derive(Serialize)]
struct HeadersOut<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-signature")]
    signature: &'a str,
    #[serde(rename = "x-access-token")]
    token: &'a str,
}

/// `signRequest`'s result: the exact body text to send and its headers.
#[derive(Serialize)]
pub(crate) struct SignedOut<'a> {
    body: &'a str,
    headers: HeadersOut<'a>,
}

impl<'a> SignedOut<'a> {
    pub(crate) fn new(body: &'a str, h: &'a AccessHeaders) -> Self {
        let headers = HeadersOut {
            timestamp: &h.timestamp,
            merchant_id: &h.merchant_id,
            signature: &h.signature,
            token: &h.token,
        };
        SignedOut { body, headers }
    }
}

/// The headers of a prepared request: all but `x-access-signature`.
#[derive(Serialize)]
struct PreparedHeaders<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-token")]
    token: &'a str,
}

/// `prepareRequest`'s result.
#[derive(Serialize)]
pub(crate) struct PreparedOut<'a> {
    body: &'a str,
    message: &'a str,
    headers: PreparedHeaders<'a>,
    padding: bool,
}

impl<'a> PreparedOut<'a> {
    pub(crate) fn new(body: &'a str, p: &'a PreparedRequest) -> Self {
        let headers = PreparedHeaders { timestamp: &p.timestamp, merchant_id: &p.merchant_id, token: &p.token };
        PreparedOut { body, message: &p.message, headers, padding: p.padding }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Verification<'a> {
    timestamp: u64,
    merchant_id: &'a str,
    key_index: usize,
    options: OptionsOut,
    ambiguous: bool,
    ambiguities: &'a [Ambiguity],
}

#[derive(Serialize)]
struct VerifiedOut<'a> {
    #[serde(flatten)]
    callback: &'a Callback,
    verification: Verification<'a>,
}

/// What `verifyCallback` returns, as JSON text: every backend hands JS the same
/// text to `JSON.parse`, which is much faster than building the objects
/// property by property across the boundary, and makes every body member (even
/// one named `__proto__`) an own data property.
pub(crate) fn verified_json(verified: &VerifiedCallback, options: &VerifyOptions) -> Result<String, Error> {
    let out = VerifiedOut {
        callback: &verified.callback,
        verification: Verification {
            timestamp: verified.timestamp,
            merchant_id: &verified.merchant_id,
            key_index: verified.key_index,
            options: OptionsOut::from(&options.canonical),
            ambiguous: !verified.ambiguities.is_empty(),
            ambiguities: &verified.ambiguities,
        },
    };
    serde_json::to_string(&out).map_err(|e| Error::CryptoFailure { reason: format!("result conversion failed: {e}") })
}

#[derive(Serialize)]
struct ErrorOut {
    code: &'static str,
    message: String,
}

/// `diagnoseCallback`'s result.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DiagnosisOut {
    matched: bool,
    options: Option<OptionsOut>,
    matching: Vec<OptionsOut>,
    default_error: Option<ErrorOut>,
    token_matches_key: bool,
    messages_tried: usize,
    hint: String,
}

impl From<crate::callback::Diagnosis> for DiagnosisOut {
    fn from(d: crate::callback::Diagnosis) -> Self {
        DiagnosisOut {
            matched: d.matched,
            options: d.options.as_ref().map(OptionsOut::from),
            matching: d.matching.iter().map(OptionsOut::from).collect(),
            default_error: d.default_error.map(|e| ErrorOut { code: e.code(), message: e.to_string() }),
            token_matches_key: d.token_matches_key,
            messages_tried: d.messages_tried,
            hint: d.hint,
        }
    }
}

/// A row of the spec's availability table, as `availability()` returns it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AvailabilityRowOut {
    country: &'static str,
    currency: &'static str,
    integration: &'static str,
    payin_methods: &'static [&'static str],
    payout_methods: &'static [&'static str],
    lifetime_max: i64,
}

/// The availability table, every row.
pub(crate) fn availability_rows() -> Vec<AvailabilityRowOut> {
    AVAILABILITY
        .iter()
        .map(|row| AvailabilityRowOut {
            country: row.country,
            currency: row.currency,
            integration: match row.integration {
                Integration::H2h => "h2h",
                Integration::Widget => "widget",
            },
            payin_methods: row.payin_methods,
            payout_methods: row.payout_methods,
            lifetime_max: i64::try_from(lifetime_max(Some(row.country))).unwrap_or(600),
        })
        .collect()
}

/// An issue code with its meaning, as `issueCodes()` returns it.
#[derive(Serialize)]
pub(crate) struct IssueCodeOut {
    code: &'static str,
    description: &'static str,
}

/// Every validation issue code.
pub(crate) fn issue_code_rows() -> Vec<IssueCodeOut> {
    validate::ISSUE_CODES.iter().map(|&(code, description)| IssueCodeOut { code, description }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_and_prepared_requests_use_the_header_names() {
        let headers = AccessHeaders {
            timestamp: "1700000000".into(),
            merchant_id: "m".into(),
            signature: "c2ln".into(),
            token: "dG9r".into(),
        };
        let text = serde_json::to_string(&SignedOut::new("{}", &headers)).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"body":"{}","headers":{"x-access-timestamp":"1700000000","x-access-merchant-id":"m","x-access-signature":"c2ln","x-access-token":"dG9r"}}"#
        );
        let prepared = PreparedRequest {
            message: "e30=1".into(),
            timestamp: "1".into(),
            merchant_id: "m".into(),
            token: "dG9r".into(),
            padding: false,
        };
        let text = serde_json::to_string(&PreparedOut::new("{}", &prepared)).unwrap_or_default();
        assert_eq!(
            text,
            r#"{"body":"{}","message":"e30=1","headers":{"x-access-timestamp":"1","x-access-merchant-id":"m","x-access-token":"dG9r"},"padding":false}"#
        );
    }

    #[test]
    fn options_and_steps_as_js_spells_them() {
        let text = serde_json::to_string(&OptionsOut::from(&CanonicalOptions::DEFAULT)).unwrap_or_default();
        assert_eq!(text, r#"{"falsy":"none","booleans":"python","padding":true,"order":"codepoint"}"#);
        let steps =
            crate::canonical::canonical_steps(&crate::json::Json::Object(vec![]), "1", &CanonicalOptions::DEFAULT);
        let Ok(steps) = steps else { panic!("no steps") };
        let text = serde_json::to_string(&StepsOut::from(&steps)).unwrap_or_default();
        assert!(text.starts_with(r#"{"entries":[],"joined":"","encoded":"#), "{text}");
    }

    #[test]
    fn the_spec_tables_as_js_reads_them() {
        let rows = availability_rows();
        assert_eq!(rows.len(), AVAILABILITY.len());
        let text = serde_json::to_string(&rows[0]).unwrap_or_default();
        for member in
            ["\"country\":", "\"integration\":", "\"payinMethods\":", "\"payoutMethods\":", "\"lifetimeMax\":"]
        {
            assert!(text.contains(member), "{text}");
        }
        assert!(rows.iter().all(|row| row.integration == "h2h" || row.integration == "widget"));
        let codes = issue_code_rows();
        assert_eq!(codes.len(), validate::ISSUE_CODES.len());
        let text = serde_json::to_string(&codes[0]).unwrap_or_default();
        assert!(text.starts_with("{\"code\":") && text.contains("\"description\":"), "{text}");
    }
}
