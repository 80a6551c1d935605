//! Verifying the service's signed callbacks from the raw body and headers,
//! and diagnosing, when verification fails, which canonical variant the
//! sender used or whether the key or body is at fault.
//!
//! A verified callback's model is bound to what the signature covers: a body
//! the signed message does not determine is refused (`AMBIGUOUS_CALLBACK`, see
//! `crate::canonical::ambiguity`), and the model reads each field as the message writes it
//! (`crate::callback::model`).

pub(crate) mod model;

use subtle_compare::constant_time_eq;

use crate::canonical::ambiguity::{self, Ambiguity};
use crate::canonical::{canonical_message, check_callback_timestamp, encode_message, joined_entries, CanonicalOptions};
use crate::error::{Error, Result};
use crate::json::{parse_body, Json, Limits};
use crate::rsa::keys::VerifyingKey;
use crate::rsa::pkcs1v15::{decode_base64url, decode_signature, verify_message, verify_signature_bytes};
use crate::spec::headers::{HEADERS, HEADER_MERCHANT_ID};
use crate::spec::limits::RECEIVED_MERCHANT_ID_MAX_CHARS;
use model::{parse_callback_with, Callback};

/// The four `x-access-*` headers of a received callback, found by name in any letter case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReceivedHeaders {
    /// `x-access-timestamp`, trimmed.
    pub timestamp: String,
    /// `x-access-merchant-id`, trimmed.
    pub merchant_id: String,
    /// `x-access-signature`, trimmed.
    pub signature: String,
    /// `x-access-token`, trimmed.
    pub token: String,
}

impl ReceivedHeaders {
    /// Picks the four headers out of `(name, value)` pairs. Other headers are ignored;
    /// one of the four given twice (even in different case) is refused.
    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self> {
        let names = HEADERS;
        let mut found: [Option<&str>; 4] = [None; 4];
        for (name, value) in pairs {
            let Some(slot) = names.iter().position(|wanted| name.trim().eq_ignore_ascii_case(wanted)) else {
                continue;
            };
            if found[slot].is_some() {
                return Err(Error::InvalidHeader {
                    name: names[slot].into(),
                    reason: "is given more than once".into(),
                });
            }
            found[slot] = Some(value.trim());
        }
        let take = |slot: usize| found[slot].map(str::to_owned).ok_or(Error::MissingHeader { name: names[slot] });
        Ok(ReceivedHeaders { timestamp: take(0)?, merchant_id: take(1)?, signature: take(2)?, token: take(3)? })
    }
}

/// How a callback is checked. The default reads bodies of up to
/// [`Limits::CALLBACK_MAX_BYTES`] with the spec's default canonical options.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// The canonical variant the sender signs with.
    pub canonical: CanonicalOptions,
    /// Refuse timestamps further than this from `now`. Off by default: the spec
    /// does not say whether the service re-signs retried callbacks.
    pub tolerance_seconds: Option<u64>,
    /// The current Unix time; required when a tolerance is set.
    pub now: Option<u64>,
    /// Bounds on the body read.
    pub limits: Limits,
    /// Return the model of a body that its signed message does not determine
    /// (with its [`VerifiedCallback::ambiguities`]) instead of refusing it with
    /// `AMBIGUOUS_CALLBACK`. Off by default: another body, with another meaning,
    /// has the same signature, so such a model must not be acted on.
    pub allow_ambiguous: bool,
    /// Refuse a callback whose `x-access-merchant-id` is not this (`MERCHANT_ID_MISMATCH`).
    /// The header is not covered by the signature; this only catches misrouted callbacks.
    pub expected_merchant_id: Option<String>,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            canonical: CanonicalOptions::DEFAULT,
            tolerance_seconds: None,
            now: None,
            limits: Limits::callback(),
            allow_ambiguous: false,
            expected_merchant_id: None,
        }
    }
}

/// A callback that passed verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedCallback {
    /// The model, read from what the signature covers.
    pub callback: Callback,
    /// Where the signed message does not determine the body; empty unless
    /// [`VerifyOptions::allow_ambiguous`] let an ambiguous body through.
    pub ambiguities: Vec<Ambiguity>,
    /// `x-access-timestamp`, as Unix seconds.
    pub timestamp: u64,
    /// As received: this header is not covered by the signature.
    pub merchant_id: String,
    /// Which of the configured keys it was signed with.
    pub key_index: usize,
}

/// A callback with every check done but the RSA one: what a native RSA
/// implementation needs to finish [`verify_callback`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedCallback {
    /// The body, read.
    pub body: Json,
    /// `x-access-timestamp`, as Unix seconds.
    pub timestamp: u64,
    /// As received: this header is not covered by the signature.
    pub merchant_id: String,
    /// Which of the configured keys the token names: the one to verify with.
    pub key_index: usize,
    /// The canonical message whose SHA-256 was signed.
    pub message: String,
    /// The decoded signature, of the key's length.
    pub signature: Vec<u8>,
}

impl PreparedCallback {
    /// What [`verify_callback`] returns once the signature over `message` has
    /// checked: the model bound to the signed entries, or `AMBIGUOUS_CALLBACK`
    /// (carrying `raw_body`) for a body the message does not determine, or
    /// `INVALID_CALLBACK` for one without the callback's shape.
    pub fn finish(&self, raw_body: &str, options: &VerifyOptions) -> Result<VerifiedCallback> {
        let mut ambiguities = ambiguity::ambiguities(&self.body);
        if ambiguities.is_empty() {
            ambiguities = ambiguity::unread_after_text(
                &self.body,
                &options.canonical,
                model::reads_path,
                model::identifies_payment,
            )?;
        }
        if !ambiguities.is_empty() && !options.allow_ambiguous {
            return Err(Error::AmbiguousCallback { ambiguities, raw_body: raw_body.to_owned() });
        }
        Ok(VerifiedCallback {
            callback: parse_callback_with(&self.body, &options.canonical)?,
            ambiguities,
            timestamp: self.timestamp,
            merchant_id: self.merchant_id.clone(),
            key_index: self.key_index,
        })
    }
}

/// A merchant id is 1 to 128 visible ASCII characters (no spaces, controls or
/// non-ASCII), and the expected one when the options name it.
fn check_merchant_id(merchant_id: &str, options: &VerifyOptions) -> Result<()> {
    let sane = (1..=RECEIVED_MERCHANT_ID_MAX_CHARS).contains(&merchant_id.len())
        && merchant_id.bytes().all(|b| b.is_ascii_graphic());
    if !sane {
        return Err(Error::InvalidHeader {
            name: HEADER_MERCHANT_ID.into(),
            reason: "must be 1 to 128 visible ASCII characters (no spaces)".into(),
        });
    }
    match &options.expected_merchant_id {
        Some(expected) if expected != merchant_id => {
            Err(Error::MerchantIdMismatch { expected: expected.clone(), actual: merchant_id.to_owned() })
        }
        _ => Ok(()),
    }
}

/// Every check of [`verify_callback`], in the same order and with the same
/// errors, except the RSA operation itself and [`PreparedCallback::finish`].
pub fn prepare_callback(
    raw_body: &str,
    headers: &ReceivedHeaders,
    keys: &[VerifyingKey],
    options: &VerifyOptions,
) -> Result<PreparedCallback> {
    let timestamp = check_callback_timestamp(&headers.timestamp)?;
    check_merchant_id(&headers.merchant_id, options)?;
    let body = parse_body(raw_body, &options.limits)?;
    let key_index = match_token(&headers.token, keys)?;
    check_tolerance(timestamp, options)?;
    let message = canonical_message(&body, &headers.timestamp, &options.canonical)?;
    let signature = decode_signature(&headers.signature, &keys[key_index])?;
    Ok(PreparedCallback { body, timestamp, merchant_id: headers.merchant_id.clone(), key_index, message, signature })
}

/// The model of a callback whose signature was checked elsewhere (a native RSA,
/// after [`prepare_callback`] of the same body, headers and options): the
/// body is read again and bound as in [`PreparedCallback::finish`]. For large
/// bodies, this keeps the model's cost off callbacks whose signature fails.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn read_verified(
    raw_body: &str,
    headers: &ReceivedHeaders,
    key_index: usize,
    options: &VerifyOptions,
) -> Result<VerifiedCallback> {
    let prepared = PreparedCallback {
        body: parse_body(raw_body, &options.limits)?,
        timestamp: check_callback_timestamp(&headers.timestamp)?,
        merchant_id: headers.merchant_id.clone(),
        key_index,
        message: String::new(),
        signature: Vec::new(),
    };
    prepared.finish(raw_body, options)
}

/// Verifies a callback against the configured key(s), then reads its model
/// from what the signature covers. The token only selects a configured key;
/// it is never itself trusted to verify.
pub fn verify_callback(
    raw_body: &str,
    headers: &ReceivedHeaders,
    keys: &[VerifyingKey],
    options: &VerifyOptions,
) -> Result<VerifiedCallback> {
    let prepared = prepare_callback(raw_body, headers, keys, options)?;
    verify_signature_bytes(&prepared.message, &prepared.signature, &keys[prepared.key_index])?;
    prepared.finish(raw_body, options)
}

/// Index of the configured key whose public key the token carries.
pub fn match_token(token: &str, keys: &[VerifyingKey]) -> Result<usize> {
    if keys.is_empty() {
        return Err(Error::NoVerifyingKey);
    }
    // The usual case: the token is, as text, the configured key's own token.
    let unpadded = token.trim_end_matches('=');
    let mut same_text = None;
    for (index, key) in keys.iter().enumerate() {
        // Every key is compared, so timing does not reveal which one matched.
        if constant_time_eq(unpadded.as_bytes(), key.token().trim_end_matches('=').as_bytes()) && same_text.is_none() {
            same_text = Some(index);
        }
    }
    if let Some(index) = same_text {
        return Ok(index);
    }
    let Some(pem_bytes) = decode_base64url(token) else {
        return Err(Error::InvalidPublicKey { hint: "x-access-token is not URL-safe base64".into() });
    };
    let mut exact = None;
    for (index, key) in keys.iter().enumerate() {
        // Every key is compared, so timing does not reveal which one matched.
        if constant_time_eq(&pem_bytes, key.public_key_pem().as_bytes()) && exact.is_none() {
            exact = Some(index);
        }
    }
    if let Some(index) = exact {
        return Ok(index);
    }
    // The same key in another PEM layout (CRLF, PKCS#1) is still the same key.
    let carried = std::str::from_utf8(&pem_bytes).ok().and_then(VerifyingKey::parse_any_public);
    match carried {
        Some(public) => match keys.iter().position(|key| key.same_key(&public)) {
            Some(index) => Ok(index),
            None => Err(Error::InvalidPublicKey {
                hint: "x-access-token carries a different public key than the configured one; \
                       take the current key from the merchant admin panel"
                    .into(),
            }),
        },
        None => Err(Error::InvalidPublicKey { hint: "x-access-token does not hold a PEM public key".into() }),
    }
}

fn check_tolerance(timestamp: u64, options: &VerifyOptions) -> Result<()> {
    let Some(tolerance) = options.tolerance_seconds else {
        return Ok(());
    };
    let Some(now) = options.now else {
        return Err(Error::InvalidArgument { name: "now".into(), reason: "is required with a tolerance".into() });
    };
    let skew = i128::from(timestamp) - i128::from(now);
    if skew.unsigned_abs() > u128::from(tolerance) {
        return Err(Error::TimestampOutOfTolerance { skew_seconds: skew, tolerance_seconds: tolerance });
    }
    Ok(())
}

/// What [`diagnose_callback`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnosis {
    /// Some canonical variant verifies with the configured key.
    pub matched: bool,
    /// The first matching variant, the default preferred.
    pub options: Option<CanonicalOptions>,
    /// Every variant that verifies (several when the body has no leaf they treat differently).
    pub matching: Vec<CanonicalOptions>,
    /// What plain verification with default options reports, or `None` when it passes.
    pub default_error: Option<Error>,
    /// The token carries the configured key.
    pub token_matches_key: bool,
    /// How many distinct messages were checked.
    pub messages_tried: usize,
    /// What to do, in one sentence.
    pub hint: String,
}

/// Largest body [`diagnose_callback`] reads: it builds up to 24 messages, and a
/// callback is about 1 KB.
pub const DIAGNOSE_MAX_BYTES: usize = Limits::CALLBACK_MAX_BYTES;

/// Tries every canonical variant to tell the merchant which one the sender used,
/// or that none matches, so the key, the timestamp or the body is at fault.
/// Bodies over [`DIAGNOSE_MAX_BYTES`] (or `limits`, if smaller) are refused; each
/// distinct message is built and checked once.
pub fn diagnose_callback(
    raw_body: &str,
    headers: &ReceivedHeaders,
    key: &VerifyingKey,
    limits: &Limits,
) -> Result<Diagnosis> {
    check_callback_timestamp(&headers.timestamp)?;
    let limits = Limits { max_bytes: limits.max_bytes.min(DIAGNOSE_MAX_BYTES), ..*limits };
    let body = parse_body(raw_body, &limits)?;
    let keys = std::slice::from_ref(key);
    let default_options = VerifyOptions { limits, ..VerifyOptions::default() };
    let default_error = verify_callback(raw_body, headers, keys, &default_options).err();
    let token_matches_key = match_token(&headers.token, keys).is_ok();

    // Padding only changes the encoding: the entries are joined once per the other three options.
    let mut joined: Vec<(CanonicalOptions, String)> = Vec::new();
    let mut tried: Vec<(String, bool)> = Vec::new();
    let mut matching = Vec::new();
    for variant in CanonicalOptions::all_variants() {
        let entries_of = CanonicalOptions { padding: true, ..variant };
        let text = match joined.iter().find(|(options, _)| *options == entries_of) {
            Some((_, text)) => text,
            None => {
                joined.push((entries_of, joined_entries(&body, &entries_of)?));
                &joined[joined.len() - 1].1
            }
        };
        let message = encode_message(text, &headers.timestamp, variant.padding)?;
        let verified = match tried.iter().find(|(tried_message, _)| *tried_message == message) {
            Some((_, verified)) => *verified,
            None => {
                let verified = verify_message(&message, &headers.signature, key).is_ok();
                tried.push((message, verified));
                verified
            }
        };
        if verified {
            matching.push(variant);
        }
    }
    let options = matching.first().copied();
    let hint = match (options, token_matches_key) {
        (Some(found), _) if found == CanonicalOptions::DEFAULT && token_matches_key => {
            "the callback verifies with the default options".to_owned()
        }
        (Some(_), true) => "the sender used the variant in `options`; pass it to verifyCallback".to_owned(),
        (Some(_), false) => {
            "the signature is good for the configured key, but x-access-token carries another key".to_owned()
        }
        (None, true) => "no variant verifies: the body or the timestamp was changed after signing, \
                         or the signature was made with another key"
            .to_owned(),
        (None, false) => "no variant verifies and x-access-token is not the configured key: \
                          the sender signs with a key you have not configured"
            .to_owned(),
    };
    Ok(Diagnosis {
        matched: options.is_some(),
        options,
        matching,
        default_error,
        token_matches_key,
        messages_tried: tried.len(),
        hint,
    })
}

/// Constant-time byte comparison. `subtle` is already compiled in for `rsa`,
/// so using it directly adds no crate and next to nothing to the wasm.
mod subtle_compare {
    use subtle::ConstantTimeEq;

    /// Equal contents; the time taken depends on the lengths only. The bytes are
    /// folded eight at a time with no branch on them, and `subtle` makes the one
    /// final test (its per-byte `ct_eq` on slices was 6 % of a verification).
    pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
        if a.len() != b.len() {
            return false;
        }
        let word = |w: &[u8]| u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        let mut difference = 0u64;
        let (a_words, b_words) = (a.chunks_exact(8), b.chunks_exact(8));
        for (x, y) in a_words.clone().zip(b_words.clone()) {
            difference |= word(x) ^ word(y);
        }
        for (x, y) in a_words.remainder().iter().zip(b_words.remainder()) {
            difference |= u64::from(x ^ y);
        }
        bool::from(difference.ct_eq(&0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::headers::HEADER_TOKEN;

    #[test]
    fn header_names_in_any_case_and_duplicates_refused() {
        let pairs = [
            ("X-Access-Timestamp", "1"),
            ("X-ACCESS-MERCHANT-ID", "m"),
            ("x-access-signature", "s"),
            ("X-Access-Token", "t"),
            ("content-type", "application/json"),
        ];
        let headers = ReceivedHeaders::from_pairs(pairs).unwrap();
        assert_eq!((headers.timestamp.as_str(), headers.token.as_str()), ("1", "t"));
        let missing = ReceivedHeaders::from_pairs(pairs[..3].iter().copied()).unwrap_err();
        assert_eq!(missing, Error::MissingHeader { name: HEADER_TOKEN });
        let mut doubled = pairs.to_vec();
        doubled.push(("x-access-token", "t2"));
        assert_eq!(ReceivedHeaders::from_pairs(doubled).unwrap_err().code(), "INVALID_HEADER");
    }

    #[test]
    fn tolerance_needs_now_and_bounds_skew() {
        let mut options = VerifyOptions { tolerance_seconds: Some(300), ..VerifyOptions::default() };
        assert_eq!(check_tolerance(1000, &options).unwrap_err().code(), "INVALID_ARGUMENT");
        options.now = Some(1300);
        assert!(check_tolerance(1000, &options).is_ok());
        assert!(check_tolerance(1600, &options).is_ok());
        assert_eq!(check_tolerance(999, &options).unwrap_err().code(), "TIMESTAMP_OUT_OF_TOLERANCE");
        assert_eq!(check_tolerance(1601, &options).unwrap_err().code(), "TIMESTAMP_OUT_OF_TOLERANCE");
    }

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(subtle_compare::constant_time_eq(b"abc", b"abc"));
        assert!(!subtle_compare::constant_time_eq(b"abc", b"abd"));
        assert!(!subtle_compare::constant_time_eq(b"abc", b"ab"));
        let long = [7u8; 41];
        for at in 0..long.len() {
            let mut other = long;
            other[at] ^= 0x80;
            assert!(!subtle_compare::constant_time_eq(&long, &other), "a difference at byte {at}");
        }
        assert!(subtle_compare::constant_time_eq(&long, &long.clone()));
    }
}
