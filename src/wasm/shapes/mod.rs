//! The shapes the JS API returns, as serde structs with JS's member names
//! (camelCase, the `x-access-*` header names). Plain Rust: built and tested
//! natively; the wasm build turns them into JS objects or JSON text.

pub(crate) mod input_fields;

use serde::Serialize;

use super::options::profile_spelling;
use crate::callback::diagnose::{Cause, Diagnosis};
use crate::callback::{VerifiedCallback, VerifyOptions};
use crate::canonical::ambiguity::Ambiguity;
use crate::canonical::CanonicalSteps;
use crate::error::Error;
use crate::profile::{Profile, PROFILES};
use crate::request::signing::{AccessHeaders, PreparedRequest};
use crate::spec::availability::{Integration, AVAILABILITY};
use crate::spec::limits::lifetime_max;
use crate::validate;

/// A profile as JS spells it: an option object every function takes as it is.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OptionsOut {
    falsy: &'static str,
    booleans: &'static str,
    padding: bool,
    order: &'static str,
    numbers: &'static str,
    digest: &'static str,
    /// Left out where it is not known (a verified callback: any token encoding is accepted).
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'static str>,
    signature_encoding: &'static str,
}

impl From<&Profile> for OptionsOut {
    fn from(profile: &Profile) -> Self {
        let s = profile_spelling(profile);
        OptionsOut {
            falsy: s.falsy,
            booleans: s.booleans,
            padding: s.padding,
            order: s.order,
            numbers: s.numbers,
            digest: s.digest,
            token: Some(s.token),
            signature_encoding: s.signature_encoding,
        }
    }
}

impl From<&VerifyOptions> for OptionsOut {
    fn from(options: &VerifyOptions) -> Self {
        let (canonical, digest, signature_encoding) = (options.canonical, options.digest, options.signature_encoding);
        OptionsOut {
            token: None,
            ..OptionsOut::from(&Profile { canonical, digest, signature_encoding, ..Profile::SPEC })
        }
    }
}

/// A row of `profiles()`.
#[derive(Serialize)]
pub(crate) struct ProfileOut {
    name: &'static str,
    description: &'static str,
    options: OptionsOut,
}

/// Every named profile.
pub(crate) fn profile_rows() -> Vec<ProfileOut> {
    PROFILES
        .iter()
        .map(|named| ProfileOut {
            name: named.name,
            description: named.description,
            options: OptionsOut::from(&named.profile),
        })
        .collect()
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

/// The headers of a signed request: the four of the spec (RSA), or the
/// algorithm in place of the token (HMAC).
#[derive(Serialize)]
struct HeadersOut<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-signature")]
    signature: &'a str,
    #[serde(rename = "x-access-token", skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
    #[serde(rename = "x-access-merchant-algorithm", skip_serializing_if = "Option::is_none")]
    algorithm: Option<&'a str>,
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
            token: h.token.as_deref(),
            algorithm: h.algorithm.as_deref(),
        };
        SignedOut { body, headers }
    }

    /// This result with its body left empty, and the body by member name: set on the parsed
    /// object as a string (`js::to_js_with`), not written into JSON and parsed again, where
    /// each of its quotes is escaped.
    pub(crate) fn split_texts(self) -> (Self, [(&'static str, &'a str); 1]) {
        let texts = [("body", self.body)];
        (SignedOut { body: "", ..self }, texts)
    }
}

/// The headers of a prepared request: all but `x-access-signature`.
#[derive(Serialize)]
struct PreparedHeaders<'a> {
    #[serde(rename = "x-access-timestamp")]
    timestamp: &'a str,
    #[serde(rename = "x-access-merchant-id")]
    merchant_id: &'a str,
    #[serde(rename = "x-access-token", skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
}

/// `prepareRequest`'s result: `digest` says what an RSA-SHA256 signs
/// (`'double'`: the SHA-256 digest of `message`, not `message` itself).
#[derive(Serialize)]
pub(crate) struct PreparedOut<'a> {
    body: &'a str,
    message: &'a str,
    headers: PreparedHeaders<'a>,
    padding: bool,
    digest: &'static str,
}

impl<'a> PreparedOut<'a> {
    pub(crate) fn new(body: &'a str, p: &'a PreparedRequest) -> Self {
        let headers =
            PreparedHeaders { timestamp: &p.timestamp, merchant_id: &p.merchant_id, token: p.token.as_deref() };
        let digest = profile_spelling(&Profile { digest: p.digest, ..Profile::SPEC }).digest;
        PreparedOut { body, message: &p.message, headers, padding: p.padding, digest }
    }

    /// As [`SignedOut::split_texts`], for the body and the message.
    pub(crate) fn split_texts(self) -> (Self, [(&'static str, &'a str); 2]) {
        let texts = [("body", self.body), ("message", self.message)];
        (PreparedOut { body: "", message: "", ..self }, texts)
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

impl<'a> Verification<'a> {
    /// What verified a callback, under `options`; `ambiguous` says whether there are places.
    fn new(
        timestamp: u64,
        merchant_id: &'a str,
        key_index: usize,
        options: &VerifyOptions,
        ambiguities: &'a [Ambiguity],
    ) -> Self {
        let options = OptionsOut::from(options);
        Verification { timestamp, merchant_id, key_index, options, ambiguous: !ambiguities.is_empty(), ambiguities }
    }
}

/// What `verifyCallback` returns, as JSON text: every backend hands JS the same
/// text to `JSON.parse`, which is much faster than building the objects
/// property by property across the boundary, and makes every body member (even
/// one named `__proto__`) an own data property. The callback's members, then
/// `verification`: the text `#[serde(flatten)]` wrote, without its buffering of
/// every field (a fifth of the serialization).
pub(crate) fn verified_json(verified: &VerifiedCallback, options: &VerifyOptions) -> Result<String, Error> {
    let failed = |e: serde_json::Error| Error::CryptoFailure { reason: format!("result conversion failed: {e}") };
    let verification = Verification::new(
        verified.timestamp,
        &verified.merchant_id,
        verified.key_index,
        options,
        &verified.ambiguities,
    );
    let mut out = Vec::with_capacity(2048);
    serde_json::to_writer(&mut out, &verified.callback).map_err(failed)?;
    // The callback is a struct: written as `{...}`; its closing brace makes way for one more member.
    if out.pop() != Some(b'}') {
        return Err(Error::CryptoFailure { reason: "result conversion failed: the callback is not an object".into() });
    }
    if out.len() > 1 {
        out.push(b',');
    }
    out.extend_from_slice(b"\"verification\":");
    serde_json::to_writer(&mut out, &verification).map_err(failed)?;
    out.push(b'}');
    String::from_utf8(out).map_err(|e| Error::CryptoFailure { reason: format!("result conversion failed: {e}") })
}

/// The `verification` an `INVALID_CALLBACK` raised after the signature checked carries,
/// as JSON text: the same shape as a verified callback's (ambiguous only when the
/// caller allowed ambiguous callbacks: otherwise one is refused before its shape is read).
pub(crate) fn genuine_verification_json(
    genuine: &crate::error::GenuineCallback,
    options: &VerifyOptions,
) -> Result<String, Error> {
    let verification =
        Verification::new(genuine.timestamp, &genuine.merchant_id, genuine.key_index, options, &genuine.ambiguities);
    serde_json::to_string(&verification)
        .map_err(|e| Error::CryptoFailure { reason: format!("result conversion failed: {e}") })
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
    key_index: Option<usize>,
    signature_matched: bool,
    signature_options: Option<OptionsOut>,
    body_error: Option<ErrorOut>,
    field: Option<String>,
    algorithm: Option<&'static str>,
    token: Option<&'static str>,
    default_error: Option<ErrorOut>,
    token_matches_key: bool,
    messages_tried: usize,
    cause: Option<&'static str>,
    hint: String,
}

impl DiagnosisOut {
    /// The result, with `is_rsa` telling the algorithm of the configured key at an index.
    pub(crate) fn new(d: Diagnosis, is_rsa: impl Fn(usize) -> bool) -> Self {
        DiagnosisOut {
            matched: d.matched,
            options: d.options.as_ref().map(OptionsOut::from),
            matching: d.matching.iter().map(OptionsOut::from).collect(),
            key_index: d.key_index,
            signature_matched: d.signature_matched,
            signature_options: d.signature_options.as_ref().map(OptionsOut::from),
            body_error: d.body_error.map(|e| ErrorOut { code: e.code(), message: e.to_string() }),
            field: d.field,
            algorithm: d.key_index.map(|index| if is_rsa(index) { "rsa" } else { "hmac" }),
            token: d.token.map(|token| profile_spelling(&Profile { token, ..Profile::SPEC }).token),
            default_error: d.default_error.map(|e| ErrorOut { code: e.code(), message: e.to_string() }),
            token_matches_key: d.token_matches_key,
            messages_tried: d.messages_tried,
            cause: d.cause.map(Cause::as_str),
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
mod tests;
