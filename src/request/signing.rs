//! Signing requests: the checked merchant id and timestamp, the canonical
//! message, and the four `x-access-*` headers (names from
//! `crate::spec::headers`), for an RSA or an HMAC key. The signatures
//! themselves are `crate::rsa::pkcs1v15`'s and `crate::hmac`'s.

use crate::canonical::ambiguity::refuse_ambiguous_request;
use crate::canonical::{canonical_message, message_of_text, CanonicalOptions};
use crate::error::{Error, Result};
use crate::hmac::{HmacKey, SignatureEncoding, DEFAULT_ALGORITHM_HEADER};
use crate::json::{read_body, Json, Limits};
use crate::profile::Profile;
use crate::rsa::keys::{SigningKey, VerifyingKey};
use crate::rsa::pkcs1v15::{sign_message, Digest};
use crate::spec::headers::{HEADER_ALGORITHM, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};
use crate::spec::limits::{is_merchant_id, MERCHANT_ID_RULE};

/// The authentication headers of a signed message: the spec's four for an
/// RSA signature; for HMAC, `x-access-merchant-algorithm` in place of the
/// token (an HMAC key has no public half to send).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessHeaders {
    /// `x-access-timestamp`: Unix seconds, as signed.
    pub timestamp: String,
    /// `x-access-merchant-id`.
    pub merchant_id: String,
    /// `x-access-signature`: the signature's text.
    pub signature: String,
    /// `x-access-token` (RSA): base64url of the public key, PEM text or DER bytes.
    pub token: Option<String>,
    /// `x-access-merchant-algorithm` (HMAC).
    pub algorithm: Option<String>,
}

impl AccessHeaders {
    /// `(name, value)` pairs in the spec's order.
    pub fn pairs(&self) -> Vec<(&'static str, &str)> {
        let mut pairs = vec![
            (HEADER_TIMESTAMP, self.timestamp.as_str()),
            (HEADER_MERCHANT_ID, &self.merchant_id),
            (HEADER_SIGNATURE, &self.signature),
        ];
        if let Some(token) = &self.token {
            pairs.push((HEADER_TOKEN, token));
        }
        if let Some(algorithm) = &self.algorithm {
            pairs.push((HEADER_ALGORITHM, algorithm));
        }
        pairs
    }
}

/// The key a request is signed with.
#[derive(Debug, Clone, Copy)]
pub enum RequestKey<'a> {
    /// RSA PKCS#1 v1.5 with SHA-256 (the spec).
    Rsa(&'a SigningKey),
    /// HMAC-SHA512 with a shared secret, announced by `x-access-merchant-algorithm`
    /// with this value.
    Hmac(&'a HmacKey, &'a str),
}

/// What [`prepare_body`] needs of the key: the token of an RSA key, or the
/// algorithm header of an HMAC one.
#[derive(Debug, Clone, Copy)]
pub enum Signer<'a> {
    /// An RSA key, by its public half.
    Rsa(&'a VerifyingKey),
    /// An HMAC key, announced with this `x-access-merchant-algorithm` value.
    Hmac(&'a str),
}

impl<'a> From<&'a SigningKey> for RequestKey<'a> {
    fn from(key: &'a SigningKey) -> Self {
        RequestKey::Rsa(key)
    }
}

impl<'a> RequestKey<'a> {
    /// What [`prepare_body`] needs of this key.
    pub fn signer(&self) -> Signer<'a> {
        match *self {
            RequestKey::Rsa(key) => Signer::Rsa(key.verifying_key()),
            RequestKey::Hmac(_, algorithm) => Signer::Hmac(algorithm),
        }
    }
}

/// Everything of signing a body but the signature: the checked merchant id
/// and timestamp, the canonical message, and the headers as they will be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedRequest {
    /// The canonical message: the text that is signed.
    pub message: String,
    /// `x-access-timestamp`, as checked.
    pub timestamp: String,
    /// `x-access-merchant-id`, as checked.
    pub merchant_id: String,
    /// `x-access-token` (RSA), in the profile's encoding, with or without padding as `padding` says.
    pub token: Option<String>,
    /// `x-access-merchant-algorithm` (HMAC).
    pub algorithm: Option<String>,
    /// Whether the base64url of the signature keeps its `=` padding.
    pub padding: bool,
    /// What the RSA signature covers.
    pub digest: Digest,
    /// How an HMAC signature is written.
    pub signature_encoding: SignatureEncoding,
}

impl PreparedRequest {
    /// The headers, given the padded base64url RSA signature (or the HMAC
    /// signature's text, which [`PreparedRequest::sign`] writes as it will be sent).
    pub fn into_headers(self, padded_signature: &str) -> AccessHeaders {
        let signature = if self.padding { padded_signature } else { padded_signature.trim_end_matches('=') };
        AccessHeaders {
            timestamp: self.timestamp,
            merchant_id: self.merchant_id,
            signature: signature.to_owned(),
            token: self.token,
            algorithm: self.algorithm,
        }
    }

    /// Signs the message with `key` (RSA in the wasm, or HMAC) and returns the headers.
    pub fn sign(self, key: RequestKey<'_>) -> Result<AccessHeaders> {
        let signature = match key {
            RequestKey::Rsa(key) => sign_message(&self.message, key, self.digest)?,
            RequestKey::Hmac(key, _) => key.sign(&self.message, self.signature_encoding, self.padding)?,
        };
        Ok(self.into_headers(&signature))
    }
}

/// The request of a message [`prepare_body`] built, for a merchant id it checked.
fn prepared_with_message(
    message: String,
    signer: Signer<'_>,
    merchant_id: &str,
    timestamp: &str,
    profile: &Profile,
) -> PreparedRequest {
    let padding = profile.canonical.padding;
    let (token, algorithm) = match signer {
        Signer::Rsa(key) => {
            let token = key.token_in(profile.token);
            // A sender that leaves out padding leaves it out of every base64url it writes.
            let token = if padding { token } else { token.trim_end_matches('=') };
            (Some(token.to_owned()), None)
        }
        Signer::Hmac(algorithm) => (None, Some(algorithm.to_owned())),
    };
    PreparedRequest {
        message,
        timestamp: timestamp.to_owned(),
        merchant_id: merchant_id.to_owned(),
        token,
        algorithm,
        padding,
        digest: profile.digest,
        signature_encoding: profile.signature_encoding,
    }
}

/// A request body to sign: JSON text as it will be sent, or a tree already read.
#[derive(Debug, Clone, Copy)]
pub enum RequestBody<'a> {
    /// JSON text, as it will be sent.
    Text(&'a str),
    /// A body already read into a tree.
    Tree(&'a Json<'a>),
}

/// Everything of signing a body but the RSA operation, in one order for every
/// caller: the merchant id, then the body (with `strict`, one that its signed
/// message would not determine is refused, `AMBIGUOUS_REQUEST`), then the
/// message. The message of JSON text comes from [`message_of_text`], which makes
/// the one-pass-or-tree choice.
pub fn prepare_body(
    body: RequestBody<'_>,
    signer: Signer<'_>,
    merchant_id: &str,
    timestamp: &str,
    profile: &Profile,
    strict: bool,
    limits: &Limits,
) -> Result<PreparedRequest> {
    check_merchant_id(merchant_id)?;
    if let Signer::Hmac(algorithm) = signer {
        check_algorithm(algorithm)?;
    }
    let options = &profile.canonical;
    let message = match body {
        RequestBody::Text(text) if !strict => message_of_text(text, timestamp, options, limits)?,
        RequestBody::Text(text) => strict_message(&read_body(text, limits)?, timestamp, options)?,
        RequestBody::Tree(json) if strict => strict_message(json, timestamp, options)?,
        RequestBody::Tree(json) => canonical_message(json, timestamp, options)?,
    };
    Ok(prepared_with_message(message, signer, merchant_id, timestamp, profile))
}

fn strict_message(json: &Json, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
    refuse_ambiguous_request(json)?;
    canonical_message(json, timestamp, options)
}

/// Signs `body` as of `timestamp` (Unix seconds) and returns the headers to send.
/// `padding` applies to the message, the signature and the token alike.
pub fn sign_body<'k>(
    body: &Json,
    key: impl Into<RequestKey<'k>>,
    merchant_id: &str,
    timestamp: &str,
    profile: impl Into<Profile>,
) -> Result<AccessHeaders> {
    let (key, profile) = (key.into(), profile.into());
    let limits = Limits::default();
    prepare_body(RequestBody::Tree(body), key.signer(), merchant_id, timestamp, &profile, false, &limits)?.sign(key)
}

/// The `x-access-merchant-algorithm` value: 1 to 64 visible ASCII characters.
fn check_algorithm(algorithm: &str) -> Result<()> {
    if (1..=64).contains(&algorithm.len()) && algorithm.bytes().all(|b| b.is_ascii_graphic()) {
        return Ok(());
    }
    Err(Error::InvalidArgument {
        name: "algorithmHeader".into(),
        reason: format!("must be 1 to 64 visible ASCII characters (the default is {DEFAULT_ALGORITHM_HEADER})"),
    })
}

fn check_merchant_id(merchant_id: &str) -> Result<()> {
    let reason = if merchant_id.is_empty() {
        "is required".to_owned()
    } else if !is_merchant_id(merchant_id) {
        format!("must be {MERCHANT_ID_RULE}: it is sent as the x-access-merchant-id header")
    } else {
        return Ok(());
    };
    Err(Error::InvalidArgument { name: "merchantId".into(), reason })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_body;

    fn vector_key(name: &str) -> SigningKey {
        let path = format!("{}/tests/vectors/keys/{name}.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn prepare_body_gives_one_message_for_text_and_tree_and_refuses_ambiguity_when_strict() {
        let key = vector_key("rsa2048");
        let limits = Limits::default();
        let options = CanonicalOptions::DEFAULT;
        let profile = Profile::SPEC;
        let signer = Signer::Rsa(key.verifying_key());
        let text = r#"{"b":"x","a":[1,true,null]}"#;
        let tree = parse_body(text, &limits).unwrap();
        let prepare = |body, strict| prepare_body(body, signer, "m", "1700000000", &profile, strict, &limits);
        let from_text = prepare(RequestBody::Text(text), false).unwrap();
        assert_eq!(from_text.message, canonical_message(&tree, "1700000000", &options).unwrap());
        assert_eq!(prepare(RequestBody::Tree(&tree), false).unwrap(), from_text);
        assert_eq!(prepare(RequestBody::Text(text), true).unwrap(), from_text);
        let ambiguous = r#"{"a:b":"1"}"#;
        assert!(prepare(RequestBody::Text(ambiguous), false).is_ok());
        assert_eq!(prepare(RequestBody::Text(ambiguous), true).unwrap_err().code(), "AMBIGUOUS_REQUEST");
        let tree = parse_body(ambiguous, &limits).unwrap();
        assert_eq!(prepare(RequestBody::Tree(&tree), true).unwrap_err().code(), "AMBIGUOUS_REQUEST");
        // The merchant id is checked first, then the body.
        let bad = prepare_body(RequestBody::Text("[1"), signer, "", "1", &profile, false, &limits);
        assert_eq!(bad.unwrap_err().code(), "INVALID_ARGUMENT");
        assert_eq!(prepare(RequestBody::Text("[1"), false).unwrap_err().code(), "INVALID_JSON");
    }

    #[test]
    fn hmac_requests_carry_the_algorithm_header_instead_of_a_token() {
        let key = HmacKey::from_text("test-only-hmac-secret-0123456789abcdef").unwrap();
        let body = parse_body(r#"{"a":1}"#, &Limits::default()).unwrap();
        let hex = Profile { signature_encoding: SignatureEncoding::Hex, ..Profile::SPEC };
        let headers = sign_body(&body, RequestKey::Hmac(&key, "HMAC-SHA512"), "m", "1700000000", hex).unwrap();
        assert_eq!(headers.token, None);
        assert_eq!(headers.algorithm.as_deref(), Some("HMAC-SHA512"));
        let message = canonical_message(&body, "1700000000", &CanonicalOptions::DEFAULT).unwrap();
        assert_eq!(headers.signature, key.sign(&message, SignatureEncoding::Hex, true).unwrap());
        let names: Vec<&str> = headers.pairs().iter().map(|(name, _)| *name).collect();
        assert_eq!(names, [HEADER_TIMESTAMP, HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_ALGORITHM]);
        let bad = sign_body(&body, RequestKey::Hmac(&key, "HMAC SHA512"), "m", "1700000000", hex);
        assert_eq!(bad.unwrap_err().code(), "INVALID_ARGUMENT");
    }

    #[test]
    fn merchant_id_rules() {
        assert!(check_merchant_id("merchant-1").is_ok());
        assert!(check_merchant_id(&format!("~!{}", "m".repeat(126))).is_ok());
        let long = "x".repeat(129);
        for bad in ["", "a\nb", "tab\there", "my shop", " m", "marchand-é", "ид-магазина", "shop-😀", &long]
        {
            assert_eq!(check_merchant_id(bad).unwrap_err().code(), "INVALID_ARGUMENT", "{bad}");
        }
    }
}
