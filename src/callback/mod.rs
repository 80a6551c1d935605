//! Verifying the service's signed callbacks from the raw body and headers,
//! with the project's RSA key or HMAC secret (`keys`), and diagnosing, when
//! verification fails, which rules the sender used or whether the key or
//! the body is at fault (`diagnose`).
//!
//! A verified callback's model is bound to what the signature covers: a body
//! the signed message does not determine is refused (`AMBIGUOUS_CALLBACK`, see
//! `crate::canonical::ambiguity`), and the model reads each field as the message writes it
//! (`crate::callback::model`).

pub(crate) mod diagnose;
pub(crate) mod keys;
pub(crate) mod model;

use crate::canonical::ambiguity::{self, Ambiguity, Segment};
use crate::canonical::{check_callback_timestamp, CanonicalOptions, ReadText};
use crate::error::{Error, GenuineCallback, Result};
use crate::hmac::{self, SignatureEncoding};
use crate::json::{read_body, Json, Limits};
use crate::profile::Profile;
use crate::rsa::pkcs1v15::{decode_signature, signature_mismatch, verify_signature_bytes, Digest};
use crate::spec::headers::{HEADERS, HEADER_MERCHANT_ID};
use crate::spec::limits::{is_merchant_id, MERCHANT_ID_RULE};
use keys::{choose_key, Chosen, ConfiguredKey};
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
    /// `x-access-token`, trimmed: required to check an RSA signature; an HMAC
    /// callback may leave it out.
    pub token: Option<String>,
}

impl ReceivedHeaders {
    /// Picks the four headers out of `(name, value)` pairs. Other headers are ignored;
    /// one of the four given twice (even in different case) is refused. Only the
    /// token may be missing (it is needed for an RSA signature, and then required there).
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
        let token = found[3].map(str::to_owned);
        Ok(ReceivedHeaders { timestamp: take(0)?, merchant_id: take(1)?, signature: take(2)?, token })
    }
}

/// How a callback is checked. The default reads bodies of up to
/// [`Limits::CALLBACK_MAX_BYTES`] with the spec's default canonical options.
#[derive(Debug, Clone)]
pub struct VerifyOptions {
    /// The canonical variant the sender signs with.
    pub canonical: CanonicalOptions,
    /// What the sender's RSA signature covers.
    pub digest: Digest,
    /// How the sender writes an HMAC signature.
    pub signature_encoding: SignatureEncoding,
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

impl VerifyOptions {
    /// Refuses, as `INVALID_ARGUMENT`, the numbers `verifyCallback` refuses from JS (the
    /// option table's rules, `crate::options`): `limits.max_bytes` above 1 MiB,
    /// `tolerance_seconds` or `now` above 2^53 - 1. Every verification checks it first.
    pub fn check(&self) -> Result<()> {
        crate::options::check_verify_numbers(self.limits.max_bytes, self.tolerance_seconds, self.now)
    }

    /// The default options with the rules of `profile`.
    pub fn with_profile(profile: &Profile) -> Self {
        VerifyOptions {
            canonical: profile.canonical,
            digest: profile.digest,
            signature_encoding: profile.signature_encoding,
            ..VerifyOptions::default()
        }
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            canonical: CanonicalOptions::DEFAULT,
            digest: Digest::Single,
            signature_encoding: SignatureEncoding::Base64Url,
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
/// implementation needs to finish [`verify_callback`]. An HMAC signature is
/// checked while preparing (`rsa_pending` is then false).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedCallback {
    /// The body as received: the model is read from this text once the signature checks.
    pub raw_body: String,
    /// The body's tree, when preparing built one (the one-pass reader gave up on the
    /// text); else [`PreparedCallback::finish`] reads it from `raw_body`, so that a
    /// forged body costs no tree.
    pub body: Option<Json<'static>>,
    /// The bounds the body was read within.
    pub limits: Limits,
    /// `x-access-timestamp`, as Unix seconds.
    pub timestamp: u64,
    /// As received: this header is not covered by the signature.
    pub merchant_id: String,
    /// Which of the configured keys the token names (RSA: the one to verify
    /// with), or whose HMAC matched.
    pub key_index: usize,
    /// The canonical message that was signed.
    pub message: String,
    /// The decoded signature (RSA: of the key's length).
    pub signature: Vec<u8>,
    /// What the RSA signature covers.
    pub digest: Digest,
    /// The RSA check is still to do (with the key at `key_index`).
    pub rsa_pending: bool,
}

impl PreparedCallback {
    /// What [`verify_callback`] returns once the signature over `message` has
    /// checked: the model bound to the signed entries, or `AMBIGUOUS_CALLBACK`
    /// (carrying `raw_body`) for a body the message does not determine, or
    /// `INVALID_CALLBACK` for one without the callback's shape.
    pub fn finish(&self, options: &VerifyOptions) -> Result<VerifiedCallback> {
        let raw_body = self.raw_body.as_str();
        // The same text the entries were read from, owned here: it reads as it did then.
        let read;
        let body = match &self.body {
            Some(body) => body,
            None => {
                read = read_body(raw_body, &self.limits)?;
                &read
            }
        };
        let mut ambiguities = ambiguity::ambiguities(body);
        // An unread entry after a payment's text needs an unread leaf: when the model reads
        // every leaf (the usual callback), the second canonical pass and its sort are skipped.
        if ambiguities.is_empty() && !every_leaf_read(body, &mut Vec::new()) {
            ambiguities =
                ambiguity::unread_after_text(body, &options.canonical, model::reads_path, model::identifies_payment)?;
        }
        if !ambiguities.is_empty() && !options.allow_ambiguous {
            return Err(Error::AmbiguousCallback { ambiguities, raw_body: raw_body.to_owned() });
        }
        // Raised after the signature checked: the error keeps the genuine body and what verified it.
        let callback = parse_callback_with(body, &options.canonical).map_err(|error| match error {
            Error::InvalidCallback { path, reason, verified: None } => Error::InvalidCallback {
                path,
                reason,
                verified: Some(Box::new(GenuineCallback {
                    raw_body: raw_body.to_owned(),
                    timestamp: self.timestamp,
                    merchant_id: self.merchant_id.clone(),
                    key_index: self.key_index,
                    ambiguities: ambiguities.clone(),
                })),
            },
            other => other,
        })?;
        Ok(VerifiedCallback {
            callback,
            ambiguities,
            timestamp: self.timestamp,
            merchant_id: self.merchant_id.clone(),
            key_index: self.key_index,
        })
    }

    /// Splits off the body text, for a check that is awaited: the text, and what
    /// [`PreparedCallback::finish`] needs but the text (the timestamp, merchant id, key
    /// index and limits), without the tree, the message or the signature. Join them
    /// again (`PreparedCallback { raw_body, ..rest }`) once the signature checks: the
    /// model is read from the text the entries were read from, as `finish` always does.
    pub fn split_body(self) -> (String, PreparedCallback) {
        let rest = PreparedCallback {
            raw_body: String::new(),
            body: None,
            message: String::new(),
            signature: Vec::new(),
            ..self
        };
        (self.raw_body, rest)
    }
}

/// Whether the callback model reads every leaf of `value` (at `path`): then no entry
/// is unread, and [`ambiguity::unread_after_text`] finds nothing (it writes the entries
/// [`canonical_message`] already wrote without error, so it raises none either). Any
/// value that is not an object or array counts as a leaf.
fn every_leaf_read<'a>(value: &'a Json, path: &mut Vec<Segment<'a>>) -> bool {
    let mut descend = |segment, child| {
        path.push(segment);
        let read = every_leaf_read(child, path);
        path.pop();
        read
    };
    match value {
        Json::Object(members) => members.iter().all(|(key, child)| descend(Segment::Key(key), child)),
        Json::Array(items) => items.iter().enumerate().all(|(index, child)| descend(Segment::Index(index), child)),
        _ => model::reads_path(path),
    }
}

/// A merchant id is what [`is_merchant_id`] says (the rule signing uses too), and
/// the expected one when the options name it.
fn check_merchant_id(merchant_id: &str, options: &VerifyOptions) -> Result<()> {
    if !is_merchant_id(merchant_id) {
        return Err(Error::InvalidHeader {
            name: HEADER_MERCHANT_ID.into(),
            reason: format!("must be {MERCHANT_ID_RULE}"),
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
/// An HMAC signature is checked here, against every configured secret.
pub fn prepare_callback<K: ConfiguredKey>(
    raw_body: &str,
    headers: &ReceivedHeaders,
    keys: &[K],
    options: &VerifyOptions,
) -> Result<PreparedCallback> {
    options.check()?;
    let timestamp = check_callback_timestamp(&headers.timestamp)?;
    check_merchant_id(&headers.merchant_id, options)?;
    // The entries straight from the text when the one-pass reader can: the tree, for the
    // model, is read after the signature checks. The errors keep their order: the body's,
    // the key's and the timestamp's, then the entries'.
    let read = ReadText::of(raw_body, &options.canonical, &options.limits)?;
    let chosen = choose_key(headers.token.as_deref(), keys)?;
    check_tolerance(timestamp, options)?;
    let (flat, body) = read.into_parts(&options.canonical)?;
    let message = flat.message(&headers.timestamp, &options.canonical)?;
    drop(flat);
    let (key_index, signature, rsa_pending) = match chosen {
        Chosen::Rsa(index) => {
            let key = keys[index].rsa().ok_or(Error::NoVerifyingKey)?;
            (index, decode_signature(&headers.signature, key)?, true)
        }
        Chosen::Hmac => {
            let signature = decode_hmac_signature(&headers.signature, options.signature_encoding)?;
            (hmac_key_index(&message, &signature, keys)?, signature, false)
        }
    };
    let merchant_id = headers.merchant_id.clone();
    Ok(PreparedCallback {
        raw_body: raw_body.to_owned(),
        body: body.map(Json::into_owned),
        limits: options.limits,
        timestamp,
        merchant_id,
        key_index,
        message,
        signature,
        digest: options.digest,
        rsa_pending,
    })
}

/// The bytes of an HMAC signature's text in `encoding`, or `INVALID_SIGNATURE`.
fn decode_hmac_signature(text: &str, encoding: SignatureEncoding) -> Result<Vec<u8>> {
    match hmac::decode_signature(text, encoding) {
        Some(bytes) if bytes.len() == hmac::SIGNATURE_BYTES => Ok(bytes),
        _ => {
            let (wanted, other) = match encoding {
                SignatureEncoding::Base64Url => ("base64url", "hex"),
                SignatureEncoding::Hex => ("hex", "base64url"),
            };
            let hint = if hmac::encoding_of(text).is_some_and(|found| found != encoding) {
                format!("x-access-signature is an HMAC-SHA512 signature in {other}: pass signatureEncoding: '{other}'")
            } else {
                format!(
                    "x-access-signature is not an HMAC-SHA512 signature in {wanted} ({} bytes, 64 expected); \
                     a token naming no configured RSA key sent the callback to the HMAC secrets",
                    hmac::decode_signature(text, encoding).map_or(0, |b| b.len())
                )
            };
            Err(Error::InvalidSignature { hint })
        }
    }
}

/// The index of the configured HMAC key whose signature of `message` this is.
/// Every secret is tried, each comparison in constant time, so the time taken
/// does not tell which one matched.
fn hmac_key_index<K: ConfiguredKey>(message: &str, signature: &[u8], keys: &[K]) -> Result<usize> {
    let mut found = None;
    for (index, key) in keys.iter().enumerate() {
        if let Some(key) = key.hmac() {
            if key.verify_bytes(message, signature)? && found.is_none() {
                found = Some(index);
            }
        }
    }
    found.ok_or_else(signature_mismatch)
}

/// Verifies a callback against the configured key(s), then reads its model
/// from what the signature covers. The token only selects a configured RSA
/// key; it is never itself trusted to verify.
pub fn verify_callback<K: ConfiguredKey>(
    raw_body: &str,
    headers: &ReceivedHeaders,
    keys: &[K],
    options: &VerifyOptions,
) -> Result<VerifiedCallback> {
    let prepared = prepare_callback(raw_body, headers, keys, options)?;
    if prepared.rsa_pending {
        let key = keys[prepared.key_index].rsa().ok_or(Error::NoVerifyingKey)?;
        verify_signature_bytes(&prepared.message, &prepared.signature, key, prepared.digest)?;
    }
    prepared.finish(options)
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

/// Test fixtures shared by the callback tests here and in `crate::wasm`.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::ReceivedHeaders;
    use crate::json::{parse_body, Limits};
    use crate::profile::Profile;
    use crate::request::signing::sign_body;
    use crate::rsa::keys::{SigningKey, VerifyingKey};

    /// A small callback body of the model's shape.
    pub(crate) const PLAIN: &str = r#"{"project_id":"p","general":{"request_id":"r","payment_id":"o"},"status":{"status":"success","sub_status":null},"payment_info":{"amount":150050,"currency":"RUB"}}"#;

    /// [`PLAIN`] with serde_json's private number marker as a key, which the one-pass
    /// reader leaves to the tree (the marker holds `:`: the body is ambiguous).
    pub(crate) fn with_marker() -> String {
        PLAIN.replacen('{', r#"{"x":{"$serde_json::private::Number":"2"},"#, 1)
    }

    /// The vectors' 2048-bit key, and its public half as the one configured key.
    pub(crate) fn vector_key() -> (SigningKey, [VerifyingKey; 1]) {
        let path = format!("{}/tests/vectors/keys/rsa2048.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        let key = SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap();
        let keys = [key.verifying_key().clone()];
        (key, keys)
    }

    /// The headers of `text` signed by `key` with the spec's rules (merchant `m`, timestamp 1700000000).
    pub(crate) fn signed_headers(text: &str, key: &SigningKey) -> ReceivedHeaders {
        let body = parse_body(text, &Limits::default()).unwrap();
        let signed = sign_body(&body, key, "m", "1700000000", Profile::SPEC).unwrap();
        ReceivedHeaders::from_pairs(signed.pairs()).unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::canonical_message;
    use crate::json::parse_body;

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
        assert_eq!((headers.timestamp.as_str(), headers.token.as_deref()), ("1", Some("t")));
        let no_token = ReceivedHeaders::from_pairs(pairs[..3].iter().copied()).unwrap();
        assert_eq!(no_token.token, None);
        let missing = ReceivedHeaders::from_pairs(pairs[1..].iter().copied()).unwrap_err();
        assert_eq!(missing, Error::MissingHeader { name: HEADERS[0] });
        let mut doubled = pairs.to_vec();
        doubled.push(("x-access-token", "t2"));
        assert_eq!(ReceivedHeaders::from_pairs(doubled).unwrap_err().code(), "INVALID_HEADER");
    }

    /// Under `numbers: 'js'` more texts share a message (`1` and `1.0`; integers past 2^53
    /// that round to one double). The model reads numbers only as exact integers within
    /// ±(2^53-1), so a rewrite into another text of the same message gives no other model.
    #[test]
    fn js_numbers_share_messages_but_never_give_two_models() {
        use crate::canonical::Numbers;
        use crate::request::signing::sign_body;
        use crate::rsa::keys::SigningKey;
        let path = format!("{}/tests/vectors/keys/rsa2048.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        let key = SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap();
        let js = Profile {
            canonical: CanonicalOptions { numbers: Numbers::Js, ..CanonicalOptions::DEFAULT },
            ..Profile::SPEC
        };
        let options = VerifyOptions::with_profile(&js);
        let keys = [key.verifying_key().clone()];
        let callback = |amount: &str| {
            format!(
                r#"{{"project_id":"p","general":{{"request_id":"r","payment_id":"o"}},"status":{{"status":"success","sub_status":null,"status_description":null}},"payment_info":{{"amount":{amount},"currency":"RUB"}}}}"#
            )
        };
        let genuine = callback("150050");
        let body = parse_body(&genuine, &Limits::default()).unwrap();
        let headers =
            ReceivedHeaders::from_pairs(sign_body(&body, &key, "m", "1700000000", js).unwrap().pairs()).unwrap();
        let verified = verify_callback(&genuine, &headers, &keys, &options).unwrap();
        assert_eq!(verified.callback.payment_info.and_then(|info| info.amount), Some(150050));
        for rewrite in ["150050.0", "1.5005e5", "150050.00000000001"] {
            let text = callback(rewrite);
            let same = canonical_message(&parse_body(&text, &Limits::default()).unwrap(), "1700000000", &js.canonical);
            assert_eq!(same.unwrap(), canonical_message(&body, "1700000000", &js.canonical).unwrap(), "{rewrite}");
            let error = verify_callback(&text, &headers, &keys, &options).unwrap_err();
            assert_eq!(error.code(), "INVALID_CALLBACK", "{rewrite}");
        }
        // Past 2^53 two integers round to one double: both are refused, whichever was signed.
        let big = callback("9007199254740993");
        let body = parse_body(&big, &Limits::default()).unwrap();
        let headers =
            ReceivedHeaders::from_pairs(sign_body(&body, &key, "m", "1700000000", js).unwrap().pairs()).unwrap();
        for text in [big.clone(), callback("9007199254740992")] {
            assert_eq!(verify_callback(&text, &headers, &keys, &options).unwrap_err().code(), "INVALID_CALLBACK");
        }
    }

    /// The entries are read straight from the text and the tree only after the signature
    /// checks, unless the one-pass reader gave up on the text (here: serde_json's private
    /// number marker as a key, which it leaves to the tree); either way the model is the same.
    #[test]
    fn the_tree_is_read_after_the_check_unless_preparing_needed_it() {
        let (key, keys) = fixtures::vector_key();
        // The marker holds `:`: the body is ambiguous, and let through to compare models.
        let options = VerifyOptions { allow_ambiguous: true, ..VerifyOptions::default() };
        for (text, tree_while_preparing) in [(fixtures::PLAIN.to_owned(), false), (fixtures::with_marker(), true)] {
            let body = parse_body(&text, &Limits::default()).unwrap();
            let headers = fixtures::signed_headers(&text, &key);
            let prepared = prepare_callback(&text, &headers, &keys, &options).unwrap();
            assert_eq!(prepared.body.is_some(), tree_while_preparing, "{text}");
            assert_eq!(prepared.raw_body, text);
            assert_eq!(prepared.message, canonical_message(&body, "1700000000", &options.canonical).unwrap());
            let verified = prepared.finish(&options).unwrap();
            assert_eq!(verified.callback, parse_callback_with(&body, &options.canonical).unwrap());
            assert_eq!(verified, verify_callback(&text, &headers, &keys, &options).unwrap());
            let forged = text.replace("150050", "150051");
            let error = verify_callback(&forged, &headers, &keys, &options).unwrap_err();
            assert_eq!(error.code(), "INVALID_SIGNATURE", "{forged}");
        }
    }

    /// A prepared callback split for an awaited check keeps nothing big but the text it
    /// hands back, and joined again it finishes as the whole one does (with or without
    /// the tree preparing built).
    #[test]
    fn split_body_keeps_what_finish_needs() {
        let (key, keys) = fixtures::vector_key();
        let options = VerifyOptions { allow_ambiguous: true, ..VerifyOptions::default() };
        for text in [fixtures::PLAIN.to_owned(), fixtures::with_marker(), r#"{"project_id":1}"#.to_owned()] {
            let headers = fixtures::signed_headers(&text, &key);
            let prepared = prepare_callback(&text, &headers, &keys, &options).unwrap();
            let whole = prepared.finish(&options);
            let (raw_body, rest) = prepared.clone().split_body();
            assert_eq!(raw_body, text);
            assert!(
                rest.raw_body.is_empty() && rest.body.is_none() && rest.message.is_empty() && rest.signature.is_empty()
            );
            assert_eq!(
                (rest.timestamp, &rest.merchant_id, rest.key_index, rest.limits, rest.rsa_pending),
                (prepared.timestamp, &prepared.merchant_id, prepared.key_index, prepared.limits, true)
            );
            assert_eq!(PreparedCallback { raw_body, ..rest }.finish(&options), whole, "{text}");
        }
    }

    /// The shortcut of `finish`: a body whose every leaf the model reads has no unread
    /// entry after a text; one unlisted leaf sends it through the full check.
    #[test]
    fn every_leaf_read_only_when_no_leaf_is_unread() {
        let read = |text: &str| every_leaf_read(&parse_body(text, &Limits::default()).unwrap(), &mut Vec::new());
        let listed = r#"{"project_id":"p","general":{"payment_id":"o","request_id":"r"},"status":{"status":"x","sub_status":null},
            "payment_info":{"amount":1},"recipient_requisites":null,"integration":{},"additional_info":{"display_data":[{"type":"t","data":2},[]]}}"#;
        assert!(read(listed));
        assert!(read("{}"));
        for unread in [
            r#"{"project_id":"p","zz":1}"#,
            r#"{"general":{"payment_id":"o","x":null}}"#,
            r#"{"additional_info":{"display_data":[{"other":"t"}]}}"#,
            r#"{"additional_info":{"display_data":[[1]]}}"#,
            r#"{"payment_info":{"amount":{"value":1}}}"#,
        ] {
            assert!(!read(unread), "{unread}");
            let body = parse_body(unread, &Limits::default()).unwrap();
            let options = CanonicalOptions::DEFAULT;
            assert!(ambiguity::unread_after_text(&body, &options, model::reads_path, model::identifies_payment).is_ok());
        }
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
        let hint = check_tolerance(1601, &options).unwrap_err().hint().map(str::to_owned).unwrap_or_default();
        assert!(hint.contains("clock") && hint.contains("NTP") && hint.contains("replay"), "{hint}");
    }
}
