//! Signing requests and checking signatures: RSA PKCS#1 v1.5 over SHA-256 of
//! the canonical message, with the four `x-access-*` headers.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use rsa::pkcs1v15::Pkcs1v15Sign;
use sha2::{Digest, Sha256};

use crate::canonical::{canonical_message, CanonicalOptions};
use crate::error::{Error, Result};
use crate::json::Json;
use crate::keys::{SigningKey, VerifyingKey};

/// Header names, lower case, as the spec writes them.
pub const HEADER_TIMESTAMP: &str = "x-access-timestamp";
pub const HEADER_MERCHANT_ID: &str = "x-access-merchant-id";
pub const HEADER_SIGNATURE: &str = "x-access-signature";
pub const HEADER_TOKEN: &str = "x-access-token";

/// The four authentication headers of a signed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccessHeaders {
    pub timestamp: String,
    pub merchant_id: String,
    pub signature: String,
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

/// Longest merchant id accepted; the spec does not bound it, 255 is generous.
pub const MAX_MERCHANT_ID_CHARS: usize = 255;

/// Everything of signing a body but the RSA operation: the checked merchant id
/// and timestamp, the canonical message, and the token as it will be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedRequest {
    /// The canonical message: the text whose SHA-256 is signed.
    pub message: String,
    pub timestamp: String,
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

/// Checks the arguments and builds the message that [`sign_body`] signs.
pub fn prepare_request(
    body: &Json,
    key: &VerifyingKey,
    merchant_id: &str,
    timestamp: &str,
    options: &CanonicalOptions,
) -> Result<PreparedRequest> {
    check_merchant_id(merchant_id)?;
    let message = canonical_message(body, timestamp, options)?;
    let token = key.token();
    // A sender that leaves out padding leaves it out of every base64url it writes.
    let token = if options.padding { token } else { token.trim_end_matches('=') };
    Ok(PreparedRequest {
        message,
        timestamp: timestamp.to_owned(),
        merchant_id: merchant_id.to_owned(),
        token: token.to_owned(),
        padding: options.padding,
    })
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
    let prepared = prepare_request(body, key.verifying_key(), merchant_id, timestamp, options)?;
    let signature = sign_message(&prepared.message, key)?;
    Ok(prepared.into_headers(&signature))
}

/// The base64url (padded) PKCS#1 v1.5 SHA-256 signature of a message.
/// Signing is blinded, so its timing does not depend on the private exponent.
pub fn sign_message(message: &str, key: &SigningKey) -> Result<String> {
    let digest = Sha256::digest(message.as_bytes());
    let signature = key
        .rsa()
        .sign_with_rng(&mut rand_core::OsRng, Pkcs1v15Sign::new::<Sha256>(), &digest)
        .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
    Ok(URL_SAFE.encode(signature))
}

/// The hint of an `INVALID_SIGNATURE` whose RSA check failed.
pub const SIGNATURE_MISMATCH_HINT: &str =
    "the body, the timestamp or the canonical variant differs from what was signed; \
     diagnoseCallback tells which variant the sender used";

/// The error of a well-formed signature that does not verify.
pub fn signature_mismatch() -> Error {
    Error::InvalidSignature { hint: SIGNATURE_MISMATCH_HINT.into() }
}

/// Checks a base64url signature (padded or not) of `message`.
pub fn verify_message(message: &str, signature: &str, key: &VerifyingKey) -> Result<()> {
    let bytes = decode_signature(signature, key)?;
    verify_signature_bytes(message, &bytes, key)
}

/// The signature's bytes, refused unless they are base64url of the key's length.
pub fn decode_signature(signature: &str, key: &VerifyingKey) -> Result<Vec<u8>> {
    let bytes = decode_base64url(signature)
        .ok_or_else(|| Error::InvalidSignature { hint: "x-access-signature is not URL-safe base64".into() })?;
    if bytes.len() != key.signature_len() {
        return Err(Error::InvalidSignature {
            hint: format!(
                "the signature is {} bytes, a {}-bit key makes {}-byte signatures",
                bytes.len(),
                key.bits(),
                key.signature_len()
            ),
        });
    }
    Ok(bytes)
}

/// The RSA check of signature bytes of the key's length.
pub fn verify_signature_bytes(message: &str, signature: &[u8], key: &VerifyingKey) -> Result<()> {
    let digest = Sha256::digest(message.as_bytes());
    key.rsa().verify(Pkcs1v15Sign::new::<Sha256>(), &digest, signature).map_err(|_| signature_mismatch())
}

/// URL-safe base64 with or without `=` padding.
pub fn decode_base64url(text: &str) -> Option<Vec<u8>> {
    let unpadded = text.strip_suffix("==").or_else(|| text.strip_suffix('=')).unwrap_or(text);
    URL_SAFE_NO_PAD.decode(unpadded).ok()
}

fn check_merchant_id(merchant_id: &str) -> Result<()> {
    let reason = if merchant_id.is_empty() {
        "is required"
    } else if merchant_id.chars().count() > MAX_MERCHANT_ID_CHARS {
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

    #[test]
    fn base64url_with_and_without_padding() {
        assert_eq!(decode_base64url("YTox"), Some(b"a:1".to_vec()));
        assert_eq!(decode_base64url("YToxMg=="), Some(b"a:12".to_vec()));
        assert_eq!(decode_base64url("YToxMg"), Some(b"a:12".to_vec()));
        assert_eq!(decode_base64url("YT+x"), None);
        assert_eq!(decode_base64url("YToxMg==="), None);
        assert_eq!(decode_base64url("not base64!"), None);
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
