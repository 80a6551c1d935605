//! Signing requests: the checked merchant id and timestamp, the canonical
//! message, and the four `x-access-*` headers (names from
//! `crate::spec::headers`). The RSA signature itself is
//! `crate::rsa::pkcs1v15`'s.

use crate::canonical::ambiguity::refuse_ambiguous_request;
use crate::canonical::{canonical_message, message_of_text, CanonicalOptions};
use crate::error::{Error, Result};
use crate::json::{parse_body, Json, Limits};
use crate::rsa::keys::{SigningKey, VerifyingKey};
use crate::rsa::pkcs1v15::sign_message;
use crate::spec::headers::{HEADER_MERCHANT_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, HEADER_TOKEN};
use crate::spec::limits::MERCHANT_ID_MAX_CHARS;

/// The four authentication headers of a signed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessHeaders {
    /// `x-access-timestamp`: Unix seconds, as signed.
    pub timestamp: String,
    /// `x-access-merchant-id`.
    pub merchant_id: String,
    /// `x-access-signature`: base64url of the signature.
    pub signature: String,
    /// `x-access-token`: base64url of the public key's PEM.
    pub token: String,
}

impl AccessHeaders {
    /// `(name, value)` pairs in the spec's order.
    pub fn pairs(&self) -> [(&'static str, &str); 4] {
        [
            (HEADER_TIMESTAMP, &self.timestamp),
            (HEADER_MERCHANT_ID, &self.merchant_id),
            (HEADER_SIGNATURE, &self.signature),
            (HEADER_TOKEN, &self.token),
        ]
    }
}

/// Everything of signing a body but the RSA operation: the checked merchant id
/// and timestamp, the canonical message, and the token as it will be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedRequest {
    /// The canonical message: the text whose SHA-256 is signed.
    pub message: String,
    /// `x-access-timestamp`, as checked.
    pub timestamp: String,
    /// `x-access-merchant-id`, as checked.
    pub merchant_id: String,
    /// `x-access-token`, with or without padding as `padding` says.
    pub token: String,
    /// Whether the base64url of the signature keeps its `=` padding.
    pub padding: bool,
}

impl PreparedRequest {
    /// The headers, given the padded base64url signature.
    pub fn into_headers(self, padded_signature: &str) -> AccessHeaders {
        let signature = if self.padding { padded_signature } else { padded_signature.trim_end_matches('=') };
        AccessHeaders {
            timestamp: self.timestamp,
            merchant_id: self.merchant_id,
            signature: signature.to_owned(),
            token: self.token,
        }
    }
}

/// The request of a message [`prepare_body`] built, for a merchant id it checked.
fn prepared_with_message(
    message: String,
    key: &VerifyingKey,
    merchant_id: &str,
    timestamp: &str,
    options: &CanonicalOptions,
) -> PreparedRequest {
    let token = key.token();
    // A sender that leaves out padding leaves it out of every base64url it writes.
    let token = if options.padding { token } else { token.trim_end_matches('=') };
    PreparedRequest {
        message,
        timestamp: timestamp.to_owned(),
        merchant_id: merchant_id.to_owned(),
        token: token.to_owned(),
        padding: options.padding,
    }
}

/// A request body to sign: JSON text as it will be sent, or a tree already read.
#[derive(Debug, Clone, Copy)]
pub enum RequestBody<'a> {
    /// JSON text, as it will be sent.
    Text(&'a str),
    /// A body already read into a tree.
    Tree(&'a Json),
}

/// Everything of signing a body but the RSA operation, in one order for every
/// caller: the merchant id, then the body (with `strict`, one that its signed
/// message would not determine is refused, `AMBIGUOUS_REQUEST`), then the
/// message. The message of JSON text comes from [`message_of_text`], which makes
/// the one-pass-or-tree choice.
pub fn prepare_body(
    body: RequestBody<'_>,
    key: &VerifyingKey,
    merchant_id: &str,
    timestamp: &str,
    options: &CanonicalOptions,
    strict: bool,
    limits: &Limits,
) -> Result<PreparedRequest> {
    check_merchant_id(merchant_id)?;
    let message = match body {
        RequestBody::Text(text) if !strict => message_of_text(text, timestamp, options, limits)?,
        RequestBody::Text(text) => strict_message(&parse_body(text, limits)?, timestamp, options)?,
        RequestBody::Tree(json) if strict => strict_message(json, timestamp, options)?,
        RequestBody::Tree(json) => canonical_message(json, timestamp, options)?,
    };
    Ok(prepared_with_message(message, key, merchant_id, timestamp, options))
}

fn strict_message(json: &Json, timestamp: &str, options: &CanonicalOptions) -> Result<String> {
    refuse_ambiguous_request(json)?;
    canonical_message(json, timestamp, options)
}

/// Signs `body` as of `timestamp` (Unix seconds) and returns the headers to send.
/// `options.padding` applies to the message, the signature and the token alike.
pub fn sign_body(
    body: &Json,
    key: &SigningKey,
    merchant_id: &str,
    timestamp: &str,
    options: &CanonicalOptions,
) -> Result<AccessHeaders> {
    let limits = Limits::default();
    let prepared =
        prepare_body(RequestBody::Tree(body), key.verifying_key(), merchant_id, timestamp, options, false, &limits)?;
    let signature = sign_message(&prepared.message, key)?;
    Ok(prepared.into_headers(&signature))
}

fn check_merchant_id(merchant_id: &str) -> Result<()> {
    let reason = if merchant_id.is_empty() {
        "is required"
    } else if merchant_id.chars().count() > MERCHANT_ID_MAX_CHARS {
        "is longer than 255 characters"
    } else if merchant_id.chars().any(|c| c.is_control()) {
        "cannot hold control characters (it is sent as an HTTP header)"
    } else {
        return Ok(());
    };
    Err(Error::InvalidArgument { name: "merchantId".into(), reason: reason.into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector_key(name: &str) -> SigningKey {
        let path = format!("{}/tests/vectors/keys/{name}.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn prepare_body_gives_one_message_for_text_and_tree_and_refuses_ambiguity_when_strict() {
        let key = vector_key("rsa2048");
        let limits = Limits::default();
        let options = CanonicalOptions::DEFAULT;
        let text = r#"{"b":"x","a":[1,true,null]}"#;
        let tree = parse_body(text, &limits).unwrap();
        let prepare =
            |body, strict| prepare_body(body, key.verifying_key(), "m", "1700000000", &options, strict, &limits);
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
        let bad = prepare_body(RequestBody::Text("[1"), key.verifying_key(), "", "1", &options, false, &limits);
        assert_eq!(bad.unwrap_err().code(), "INVALID_ARGUMENT");
        assert_eq!(prepare(RequestBody::Text("[1"), false).unwrap_err().code(), "INVALID_JSON");
    }

    #[test]
    fn merchant_id_rules() {
        assert!(check_merchant_id("merchant-1").is_ok());
        for bad in ["", "a\nb"] {
            assert_eq!(check_merchant_id(bad).unwrap_err().code(), "INVALID_ARGUMENT");
        }
        assert!(check_merchant_id(&"x".repeat(256)).is_err());
    }
}
