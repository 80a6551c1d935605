//! The keys a callback is checked against, and how its headers pick one. The
//! token only selects a configured RSA key, in either encoding (base64url of
//! the PEM text or of the DER bytes, padded or not); it is never itself used
//! to verify. A callback whose token names no configured RSA key is checked
//! against the configured HMAC secrets, all of them, each in constant time.

use crate::error::{Error, Result};
use crate::hmac::{constant_time_eq, HmacKey};
use crate::rsa::keys::{TokenEncoding, VerifyingKey};
use crate::rsa::pkcs1v15::decode_base64url;
use crate::spec::headers::HEADER_TOKEN;

/// A key a callback may be signed with: the project's RSA public key, or the
/// shared HMAC-SHA512 secret for callbacks.
#[derive(Debug, Clone)]
pub enum CallbackKey {
    /// An RSA public key (PKCS#1 v1.5 with SHA-256).
    Rsa(VerifyingKey),
    /// An HMAC-SHA512 secret.
    Hmac(HmacKey),
}

impl From<VerifyingKey> for CallbackKey {
    fn from(key: VerifyingKey) -> Self {
        CallbackKey::Rsa(key)
    }
}

impl From<HmacKey> for CallbackKey {
    fn from(key: HmacKey) -> Self {
        CallbackKey::Hmac(key)
    }
}

/// What the verifying functions take as configured keys: [`CallbackKey`]s (RSA
/// and HMAC mixed), or only [`VerifyingKey`]s, or only [`HmacKey`]s.
pub trait ConfiguredKey {
    /// The RSA key, if this is one.
    fn rsa(&self) -> Option<&VerifyingKey>;
    /// The HMAC key, if this is one.
    fn hmac(&self) -> Option<&HmacKey>;
}

impl ConfiguredKey for CallbackKey {
    fn rsa(&self) -> Option<&VerifyingKey> {
        match self {
            CallbackKey::Rsa(key) => Some(key),
            CallbackKey::Hmac(_) => None,
        }
    }

    fn hmac(&self) -> Option<&HmacKey> {
        match self {
            CallbackKey::Hmac(key) => Some(key),
            CallbackKey::Rsa(_) => None,
        }
    }
}

impl ConfiguredKey for VerifyingKey {
    fn rsa(&self) -> Option<&VerifyingKey> {
        Some(self)
    }

    fn hmac(&self) -> Option<&HmacKey> {
        None
    }
}

impl ConfiguredKey for HmacKey {
    fn rsa(&self) -> Option<&VerifyingKey> {
        None
    }

    fn hmac(&self) -> Option<&HmacKey> {
        Some(self)
    }
}

/// Which configured key(s) a callback is checked with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// The RSA key at this index, named by the token.
    Rsa(usize),
    /// Every configured HMAC key.
    Hmac,
}

/// Picks the key(s) to check a callback with, from its token (if it has one).
pub(crate) fn choose_key<K: ConfiguredKey>(token: Option<&str>, keys: &[K]) -> Result<Chosen> {
    if keys.is_empty() {
        return Err(Error::NoVerifyingKey);
    }
    let has_rsa = keys.iter().any(|key| key.rsa().is_some());
    let has_hmac = keys.iter().any(|key| key.hmac().is_some());
    match token {
        Some(token) if has_rsa => match match_token(token, keys) {
            Ok(index) => Ok(Chosen::Rsa(index)),
            Err(_) if has_hmac => Ok(Chosen::Hmac),
            Err(error) => Err(error),
        },
        _ if has_hmac => Ok(Chosen::Hmac),
        _ => Err(Error::MissingHeader { name: HEADER_TOKEN }),
    }
}

/// Index (among all `keys`) of the configured RSA key whose public key the token carries.
pub fn match_token<K: ConfiguredKey>(token: &str, keys: &[K]) -> Result<usize> {
    let rsa: Vec<(usize, &VerifyingKey)> =
        keys.iter().enumerate().filter_map(|(index, key)| key.rsa().map(|key| (index, key))).collect();
    if rsa.is_empty() {
        return Err(Error::NoVerifyingKey);
    }
    // The usual case: the token is, as text, a configured key's own token in either encoding.
    let unpadded = token.trim_end_matches('=');
    let mut same_text = None;
    for &(index, key) in &rsa {
        // Every key is compared, so timing does not reveal which one matched.
        for encoding in [TokenEncoding::Pem, TokenEncoding::Der] {
            let own = key.token_in(encoding).trim_end_matches('=');
            if constant_time_eq(unpadded.as_bytes(), own.as_bytes()) && same_text.is_none() {
                same_text = Some(index);
            }
        }
    }
    if let Some(index) = same_text {
        return Ok(index);
    }
    let Some(bytes) = decode_base64url(token) else {
        return Err(Error::InvalidPublicKey { hint: "x-access-token is not URL-safe base64".into() });
    };
    // The same key in another layout (CRLF, PKCS#1, DER of PKCS#1) is still the same key.
    let carried = match std::str::from_utf8(&bytes) {
        Ok(pem) if pem.contains("-----BEGIN") => VerifyingKey::parse_any_public(pem),
        _ => VerifyingKey::parse_any_public_der(&bytes),
    };
    match carried {
        Some(public) => match rsa.iter().find(|(_, key)| key.same_key(&public)) {
            Some(&(index, _)) => Ok(index),
            None => Err(Error::InvalidPublicKey {
                hint: "x-access-token carries a different public key than the configured one; \
                       take the current key from the merchant admin panel"
                    .into(),
            }),
        },
        None => Err(Error::InvalidPublicKey {
            hint: "x-access-token holds no public key (neither PEM text nor DER bytes)".into(),
        }),
    }
}

/// Which encoding a token is in, when it carries some RSA public key.
pub(crate) fn token_encoding(token: &str) -> Option<TokenEncoding> {
    let bytes = decode_base64url(token)?;
    match std::str::from_utf8(&bytes) {
        Ok(pem) if pem.contains("-----BEGIN") => VerifyingKey::parse_any_public(pem).map(|_| TokenEncoding::Pem),
        _ => VerifyingKey::parse_any_public_der(&bytes).map(|_| TokenEncoding::Der),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> VerifyingKey {
        let path = format!("{}/tests/vectors/keys/{name}.public.pem", env!("CARGO_MANIFEST_DIR"));
        VerifyingKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn a_token_in_either_encoding_padded_or_not_names_the_key() {
        let (a, b) = (key("rsa2048"), key("rsa4096"));
        let secret = HmacKey::from_text("test-only-hmac-secret-0123456789abcdef").unwrap();
        let keys = [CallbackKey::Hmac(secret), a.clone().into(), b.clone().into()];
        for encoding in [TokenEncoding::Pem, TokenEncoding::Der] {
            let token = b.token_in(encoding);
            assert_eq!(match_token(token, &keys).unwrap(), 2);
            assert_eq!(match_token(token.trim_end_matches('='), &keys).unwrap(), 2);
            assert_eq!(token_encoding(token), Some(encoding));
        }
        // DER of the PKCS#1 form, and PEM with CRLF, still name the key.
        use base64::Engine;
        let url = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let crlf = a.public_key_pem().replace('\n', "\r\n");
        assert_eq!(match_token(&url.encode(crlf), &keys).unwrap(), 1);
        let spki = a.public_key_der();
        let pkcs1 = &spki[spki.len() - 270..];
        assert_eq!(match_token(&url.encode(pkcs1), &keys).unwrap(), 1);
        assert_eq!(token_encoding(&url.encode(pkcs1)), Some(TokenEncoding::Der));
        // Another key, or no key, is refused.
        let other = key("attacker2048");
        for encoding in [TokenEncoding::Pem, TokenEncoding::Der] {
            assert_eq!(match_token(other.token_in(encoding), &keys).unwrap_err().code(), "INVALID_PUBLIC_KEY");
        }
        assert_eq!(match_token("bm90IGEga2V5", &keys).unwrap_err().code(), "INVALID_PUBLIC_KEY");
        assert_eq!(match_token("not base64!", &keys).unwrap_err().code(), "INVALID_PUBLIC_KEY");
    }

    #[test]
    fn the_token_picks_an_rsa_key_and_anything_else_goes_to_the_hmac_keys() {
        let rsa = key("rsa2048");
        let secret = HmacKey::from_text("test-only-hmac-secret-0123456789abcdef").unwrap();
        let mixed = [CallbackKey::from(secret.clone()), rsa.clone().into()];
        assert_eq!(choose_key(Some(rsa.token()), &mixed).unwrap(), Chosen::Rsa(1));
        assert_eq!(choose_key(Some("unknown"), &mixed).unwrap(), Chosen::Hmac);
        assert_eq!(choose_key(None, &mixed).unwrap(), Chosen::Hmac);
        let only_rsa = [CallbackKey::from(rsa)];
        assert_eq!(choose_key(None, &only_rsa).unwrap_err().code(), "MISSING_HEADER");
        assert_eq!(choose_key(Some("bm9wZQ"), &only_rsa).unwrap_err().code(), "INVALID_PUBLIC_KEY");
        assert_eq!(choose_key::<CallbackKey>(Some("x"), &[]).unwrap_err().code(), "NO_VERIFYING_KEY");
        assert_eq!(choose_key(Some("x"), &[CallbackKey::from(secret)]).unwrap(), Chosen::Hmac);
    }
}
