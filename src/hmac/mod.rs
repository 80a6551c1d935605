//! HMAC-SHA512, the service's other signature scheme: the same canonical
//! message, signed with a shared secret instead of an RSA key. The secret
//! comes as a text file (one for requests, another for callbacks); the
//! signature is written as base64url (following `padding`, as the RSA
//! signature does) or as hex ([`SignatureEncoding`]).
//!
//! The secret lives in one zeroizing buffer and is wiped when the key is
//! dropped (in JS: freed). Verification compares in constant time
//! ([`constant_time_eq`], over `subtle`; the token check uses it too). The HMAC state made for each operation is
//! derived from the secret and is not wiped; SECURITY.md says the same of
//! the temporaries of an RSA signature.

use std::sync::Arc;

use ::hmac::{Hmac, Mac};
use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use sha2::Sha512;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::error::{Error, Result};
use crate::rsa::pkcs1v15::decode_base64url;

/// Fewest bytes a secret may have: 16 (128 bits). A shorter one is a
/// mistake (an empty file, a placeholder), not a secret.
pub const MIN_SECRET_BYTES: usize = 16;
/// Most bytes a secret may have (SHA-512 hashes a longer key down to 64 bytes
/// anyway; this only refuses what cannot be a secret file).
pub const MAX_SECRET_BYTES: usize = 4096;
/// Bytes of an HMAC-SHA512 signature.
pub const SIGNATURE_BYTES: usize = 64;
/// The `x-access-merchant-algorithm` value a request signed with HMAC carries
/// unless the caller names another: the spec does not document the value.
pub const DEFAULT_ALGORITHM_HEADER: &str = "HMAC-SHA512";

/// How an HMAC signature is written in `x-access-signature`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SignatureEncoding {
    /// URL-safe base64, with `=` padding when `padding` is on (the default).
    #[default]
    Base64Url,
    /// Lowercase hexadecimal, 128 characters.
    Hex,
}

/// A shared HMAC-SHA512 secret.
#[derive(Clone)]
pub struct HmacKey(Arc<Zeroizing<Vec<u8>>>);

impl std::fmt::Debug for HmacKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HmacKey({} bytes)", self.0.len())
    }
}

impl HmacKey {
    /// A key from the secret's text, as the service hands it out (its UTF-8
    /// bytes are the HMAC key). Text with whitespace at either end is refused:
    /// that is a file's newline, and signing with it would fail every time.
    pub fn from_text(secret: &str) -> Result<Self> {
        if secret.trim() != secret {
            return Err(invalid_secret(
                "has whitespace at the start or end (a file's newline?); pass the secret itself, e.g. text.trim()",
            ));
        }
        Self::from_bytes(secret.as_bytes())
    }

    /// A key from the secret's bytes.
    pub fn from_bytes(secret: &[u8]) -> Result<Self> {
        if secret.len() < MIN_SECRET_BYTES {
            return Err(invalid_secret(&format!(
                "is {} bytes; an HMAC secret has at least {MIN_SECRET_BYTES} (take it from the merchant admin panel)",
                secret.len()
            )));
        }
        if secret.len() > MAX_SECRET_BYTES {
            return Err(invalid_secret(&format!("is {} bytes; at most {MAX_SECRET_BYTES} are accepted", secret.len())));
        }
        let mut copy = Zeroizing::new(Vec::new());
        copy.try_reserve_exact(secret.len()).map_err(|_| invalid_secret("does not fit in memory"))?;
        copy.extend_from_slice(secret);
        Ok(HmacKey(Arc::new(copy)))
    }

    /// The MAC over `message` (HMAC takes a key of any length, so this does not fail in practice).
    fn mac(&self, message: &str) -> Result<Hmac<Sha512>> {
        let mut mac = <Hmac<Sha512> as Mac>::new_from_slice(&self.0)
            .map_err(|_| Error::CryptoFailure { reason: "HMAC refused the key".into() })?;
        mac.update(message.as_bytes());
        Ok(mac)
    }

    /// HMAC-SHA512 of the message's UTF-8 bytes.
    pub fn sign_bytes(&self, message: &str) -> Result<[u8; SIGNATURE_BYTES]> {
        Ok(self.mac(message)?.finalize().into_bytes().into())
    }

    /// The signature's text: base64url (padded when `padding`) or hex.
    pub fn sign(&self, message: &str, encoding: SignatureEncoding, padding: bool) -> Result<String> {
        Ok(encode_signature(&self.sign_bytes(message)?, encoding, padding))
    }

    /// Whether `signature` (bytes) is this key's HMAC of `message`, compared in constant time.
    pub fn verify_bytes(&self, message: &str, signature: &[u8]) -> Result<bool> {
        Ok(constant_time_eq(&self.sign_bytes(message)?, signature))
    }

    /// How many bytes the secret has.
    pub fn secret_len(&self) -> usize {
        self.0.len()
    }
}

fn invalid_secret(reason: &str) -> Error {
    Error::InvalidSecret { reason: format!("the secret {reason}") }
}

/// A signature's text in `encoding`.
pub(crate) fn encode_signature(bytes: &[u8], encoding: SignatureEncoding, padding: bool) -> String {
    match encoding {
        SignatureEncoding::Base64Url if padding => URL_SAFE.encode(bytes),
        SignatureEncoding::Base64Url => URL_SAFE_NO_PAD.encode(bytes),
        SignatureEncoding::Hex => {
            const DIGITS: &[u8; 16] = b"0123456789abcdef";
            let mut text = String::with_capacity(bytes.len() * 2);
            for byte in bytes {
                text.push(char::from(DIGITS[usize::from(byte >> 4)]));
                text.push(char::from(DIGITS[usize::from(byte & 15)]));
            }
            text
        }
    }
}

/// The bytes of an HMAC signature's text in `encoding` (base64url padded or
/// not; hex in either case), or `None` when the text is not that encoding.
pub(crate) fn decode_signature(text: &str, encoding: SignatureEncoding) -> Option<Vec<u8>> {
    match encoding {
        SignatureEncoding::Base64Url => decode_base64url(text),
        SignatureEncoding::Hex => {
            if text.len() % 2 != 0 {
                return None;
            }
            let nibble = |b: u8| (b as char).to_digit(16);
            text.as_bytes().chunks_exact(2).map(|pair| Some((nibble(pair[0])? * 16 + nibble(pair[1])?) as u8)).collect()
        }
    }
}

/// Which encoding a received signature's text is in, when it is one of an
/// HMAC-SHA512 signature: 128 hex digits, or base64url of 64 bytes.
pub(crate) fn encoding_of(text: &str) -> Option<SignatureEncoding> {
    if text.len() == 2 * SIGNATURE_BYTES && text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(SignatureEncoding::Hex);
    }
    match decode_base64url(text) {
        Some(bytes) if bytes.len() == SIGNATURE_BYTES => Some(SignatureEncoding::Base64Url),
        _ => None,
    }
}

/// Equal contents; the time taken depends on the lengths only. The bytes are
/// folded eight at a time with no branch on them, and `subtle` makes the one
/// final test (its per-byte `ct_eq` on slices was 6 % of a verification).
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "test-only-hmac-secret-0123456789abcdef";

    #[test]
    fn rfc_4231_case_2_with_a_longer_secret_rule_aside() {
        // RFC 4231, test case 2 ("Jefe", "what do ya want for nothing?"), HMAC-SHA-512; the
        // secret is below our minimum, so the MAC is checked directly.
        let mut mac = <Hmac<Sha512> as Mac>::new_from_slice(b"Jefe").unwrap();
        mac.update(b"what do ya want for nothing?");
        let hex = encode_signature(&mac.finalize().into_bytes(), SignatureEncoding::Hex, true);
        assert_eq!(
            hex,
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        );
    }

    #[test]
    fn signs_and_verifies_in_both_encodings() {
        let key = HmacKey::from_text(SECRET).unwrap();
        let bytes = key.sign_bytes("YTox1700000000").unwrap();
        assert!(key.verify_bytes("YTox1700000000", &bytes).unwrap());
        assert!(!key.verify_bytes("YToy1700000000", &bytes).unwrap());
        let mut flipped = bytes;
        flipped[63] ^= 1;
        assert!(!key.verify_bytes("YTox1700000000", &flipped).unwrap());
        for (encoding, padding) in [
            (SignatureEncoding::Base64Url, true),
            (SignatureEncoding::Base64Url, false),
            (SignatureEncoding::Hex, true),
        ] {
            let text = key.sign("YTox1700000000", encoding, padding).unwrap();
            assert_eq!(encoding_of(&text), Some(encoding), "{text}");
            assert_eq!(decode_signature(&text, encoding).as_deref(), Some(&bytes[..]));
        }
        assert_eq!(key.sign("m", SignatureEncoding::Base64Url, true).unwrap().len(), 88);
        assert_eq!(key.sign("m", SignatureEncoding::Base64Url, false).unwrap().len(), 86);
        assert_eq!(decode_signature(&"AB".repeat(64), SignatureEncoding::Hex).map(|b| b.len()), Some(64));
        assert_eq!(decode_signature("abc", SignatureEncoding::Hex), None);
        assert_eq!(decode_signature("zz", SignatureEncoding::Hex), None);
    }

    #[test]
    fn short_empty_or_padded_secrets_are_refused() {
        for secret in
            ["", "short", "fifteen-bytes!!", " test-only-hmac-secret-0123456789", "test-only-hmac-secret-0123456789\n"]
        {
            let error = HmacKey::from_text(secret).unwrap_err();
            assert_eq!(error.code(), "INVALID_KEY", "{secret:?}");
        }
        assert!(HmacKey::from_text("sixteen-bytes-ok").is_ok());
        assert!(HmacKey::from_bytes(&[0x0a; 16]).is_ok(), "bytes are taken as they are");
        assert_eq!(HmacKey::from_bytes(&[1; MAX_SECRET_BYTES + 1]).unwrap_err().code(), "INVALID_KEY");
        assert_eq!(HmacKey::from_text(SECRET).unwrap().secret_len(), SECRET.len());
    }

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        let long = [7u8; 41];
        for at in 0..long.len() {
            let mut other = long;
            other[at] ^= 0x80;
            assert!(!constant_time_eq(&long, &other), "a difference at byte {at}");
        }
        assert!(constant_time_eq(&long, &long.clone()));
    }
}
