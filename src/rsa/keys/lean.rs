//! The keys of a build without the `wasm-rsa` feature (the lean and receiver
//! `.wasm`): [`VerifyingKey`] and [`SigningKey`] with the API of `verifying.rs` and
//! `signing.rs` as far as it needs no arithmetic, read by the small DER reader of
//! `der.rs` instead of the `rsa` crate's stack. The same PEM mistakes, labels,
//! algorithms and policy (size, exponent, an even modulus) are refused, and the
//! same PEM, DER and tokens are made; what needs big integers is not here: a
//! private key's parts are not checked consistent (WebCrypto checks the key as it
//! imports it), and a key cannot be generated (`SYNC_RSA_UNAVAILABLE`).

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use std::sync::Arc;
use zeroize::{ZeroizeOnDrop, Zeroizing};

use super::der::{
    oid_text, pem_decode, pem_of, pkcs8, pkcs8_of, rsa_private, rsa_public, spki, spki_of, PublicNumbers,
};
use super::labels::{invalid, not_pem_text, require_rsa_oid, unsupported_label};
use super::policy::check_policy;
use super::token::TokenEncoding;
use crate::error::{Error, Result};

/// The label of a trimmed PEM text, after the mistakes `labels` names.
fn pem_label(pem: &str) -> Result<&str> {
    if let Some(reason) = not_pem_text(pem) {
        return Err(invalid(reason.into()));
    }
    let rest = pem.strip_prefix("-----BEGIN ").ok_or_else(|| invalid("not a PEM block (no -----BEGIN line)".into()))?;
    rest.split_once("-----").map(|(label, _)| label).ok_or_else(|| invalid("not a PEM block".into()))
}

/// A public key that verifies callbacks, with its PEM and tokens precomputed.
/// Shared: a clone copies a pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey(Arc<PublicParts>);

#[derive(Debug, PartialEq, Eq)]
struct PublicParts {
    numbers: PublicNumbers,
    pem: String,
    token: String,
    token_der: String,
    der: Vec<u8>,
}

impl VerifyingKey {
    /// Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let label = pem_label(pem)?;
        match label {
            "PUBLIC KEY" | "RSA PUBLIC KEY" => {}
            "PRIVATE KEY" | "RSA PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" => {
                return Err(invalid("this is a private key; configure the project's public key for verifying".into()))
            }
            other => return Err(unsupported_label(other)),
        }
        let (_, der) = pem_decode(pem)?;
        let numbers = if label == "PUBLIC KEY" {
            let (oid, key) = spki(&der)?;
            require_rsa_oid(oid, || oid_text(oid))?;
            rsa_public(key)?
        } else {
            rsa_public(&der)?
        };
        Self::from_numbers(numbers)
    }

    pub(super) fn from_numbers(numbers: PublicNumbers) -> Result<Self> {
        check_policy(&numbers.n, &numbers.e)?;
        let der = spki_of(&numbers);
        let pem = pem_of("PUBLIC KEY", &der).as_str().to_owned();
        let token = URL_SAFE.encode(pem.as_bytes());
        let token_der = URL_SAFE.encode(&der);
        if !numbers.n.last().is_some_and(|low| low & 1 == 1) {
            return Err(invalid("the modulus is even".into()));
        }
        Ok(VerifyingKey(Arc::new(PublicParts { numbers, pem, token, token_der, der })))
    }

    /// The `x-access-token` value: base64url of the SubjectPublicKeyInfo PEM bytes.
    pub fn token(&self) -> &str {
        &self.0.token
    }

    /// The `x-access-token` value in `encoding` (padded base64url).
    pub fn token_in(&self, encoding: TokenEncoding) -> &str {
        match encoding {
            TokenEncoding::Pem => &self.0.token,
            TokenEncoding::Der => &self.0.token_der,
        }
    }

    /// The SubjectPublicKeyInfo DER bytes.
    pub fn public_key_der(&self) -> &[u8] {
        &self.0.der
    }

    /// The SubjectPublicKeyInfo PEM, LF line endings.
    pub fn public_key_pem(&self) -> &str {
        &self.0.pem
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        let n = &self.0.numbers.n;
        n.first().map_or(0, |first| (n.len() - 1) * 8 + (8 - first.leading_zeros() as usize))
    }

    /// Modulus size in bytes: the length of every signature.
    pub fn signature_len(&self) -> usize {
        self.0.numbers.n.len()
    }

    /// The JWK members `n` and `e`: base64url (unpadded) of the big-endian modulus and exponent.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn jwk_members(&self) -> (String, String) {
        (URL_SAFE_NO_PAD.encode(&self.0.numbers.n), URL_SAFE_NO_PAD.encode(&self.0.numbers.e))
    }

    /// Same modulus and exponent.
    pub(crate) fn same_key(&self, other: &PublicNumbers) -> bool {
        self.0.numbers == *other
    }

    /// Reads a public key in either PEM form, without the size and exponent policy
    /// (used to describe a token that carries some other key).
    pub(crate) fn parse_any_public(pem: &str) -> Option<PublicNumbers> {
        let (label, der) = pem_decode(pem.trim()).ok()?;
        match label {
            "PUBLIC KEY" => Self::parse_spki(&der),
            "RSA PUBLIC KEY" => rsa_public(&der).ok(),
            _ => None,
        }
    }

    /// Reads a public key from DER bytes, SubjectPublicKeyInfo or PKCS#1, without the policy.
    pub(crate) fn parse_any_public_der(der: &[u8]) -> Option<PublicNumbers> {
        Self::parse_spki(der).or_else(|| rsa_public(der).ok())
    }

    fn parse_spki(der: &[u8]) -> Option<PublicNumbers> {
        let (oid, key) = spki(der).ok()?;
        require_rsa_oid(oid, || oid_text(oid)).ok()?;
        rsa_public(key).ok()
    }
}

/// A private key that signs requests (by WebCrypto, in the JS core): its PKCS#1 DER,
/// wiped on drop, and its public half.
#[derive(Clone)]
pub struct SigningKey {
    pkcs1: Arc<Zeroizing<Vec<u8>>>,
    verifying: VerifyingKey,
}

/// Marker: every secret in a `SigningKey` is wiped when it is dropped.
impl ZeroizeOnDrop for SigningKey {}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey").field("bits", &self.bits()).finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let label = pem_label(pem)?;
        match label {
            "PRIVATE KEY" | "RSA PRIVATE KEY" => {}
            "ENCRYPTED PRIVATE KEY" => return Err(Error::KeyEncrypted),
            "PUBLIC KEY" | "RSA PUBLIC KEY" => {
                return Err(invalid("this is a public key; signing needs the private key".into()))
            }
            other => return Err(unsupported_label(other)),
        }
        let (_, der) = pem_decode(pem)?;
        let pkcs1_der = if label == "PRIVATE KEY" {
            let (oid, key) = pkcs8(&der)?;
            require_rsa_oid(oid, || oid_text(oid))?;
            key
        } else {
            der.as_slice()
        };
        let numbers = rsa_private(pkcs1_der)?;
        let verifying = VerifyingKey::from_numbers(numbers)?;
        Ok(SigningKey { pkcs1: Arc::new(Zeroizing::new(pkcs1_der.to_vec())), verifying })
    }

    /// Generating a key needs big integers, which this build leaves out.
    pub fn generate(_bits: usize) -> Result<Self> {
        Err(Error::SyncRsaUnavailable {
            operation: "SigningKey.generate()",
            instead: "generate keys with the full entry ('payment-intake', or `npx payment-intake keygen`) and read them with SigningKey.fromPem()",
        })
    }

    /// The matching public key.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.verifying
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.verifying.bits()
    }

    /// The private key as PKCS#8 PEM, wiped from memory when dropped.
    pub fn private_key_pem_zeroizing(&self) -> Result<Zeroizing<String>> {
        Ok(pem_of("PRIVATE KEY", &pkcs8_of(&self.pkcs1)))
    }

    /// The private key as PKCS#8 PEM (the caller's copy, not wiped on drop).
    pub fn private_key_pem(&self) -> Result<String> {
        self.private_key_pem_zeroizing().map(|pem| pem.as_str().to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(name: &str) -> String {
        std::fs::read_to_string(format!("{}/tests/vectors/keys/{name}.pem", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    #[test]
    fn vector_keys_give_the_same_pem_token_and_private_pem_in_every_form() {
        for name in ["rsa2048", "rsa3072", "rsa4096", "attacker2048"] {
            let pem = vector(&format!("{name}.public"));
            let public = VerifyingKey::from_pem(&pem).unwrap();
            assert_eq!(public.public_key_pem(), pem);
            assert_eq!(public.token(), URL_SAFE.encode(pem.as_bytes()));
            assert_eq!(VerifyingKey::from_pem(&vector(&format!("{name}.public.pkcs1"))).unwrap(), public);
            for form in ["pkcs1", "pkcs8"] {
                let key = SigningKey::from_pem(&vector(&format!("{name}.{form}"))).unwrap();
                assert_eq!(*key.verifying_key(), public);
                assert_eq!(key.private_key_pem().unwrap(), vector(&format!("{name}.pkcs8")));
                assert!(VerifyingKey::from_pem(&vector(&format!("{name}.{form}"))).is_err());
            }
        }
        assert_eq!(SigningKey::generate(2048).unwrap_err().code(), "SYNC_RSA_UNAVAILABLE");
    }

    #[test]
    fn the_policy_refuses_what_the_full_build_refuses() {
        let numbers = |bits: usize, e: &[u8], odd: bool| {
            let mut n = vec![0x55u8; bits.div_ceil(8)];
            n[0] = 1 << ((bits - 1) % 8);
            *n.last_mut().unwrap() = if odd { 1 } else { 2 };
            PublicNumbers { n, e: e.to_vec() }
        };
        let code = |n: PublicNumbers| VerifyingKey::from_numbers(n).unwrap_err().code();
        assert_eq!(code(numbers(2047, &[1, 0, 1], true)), "KEY_SIZE_UNSUPPORTED");
        assert_eq!(code(numbers(4097, &[1, 0, 1], true)), "KEY_SIZE_UNSUPPORTED");
        assert_eq!(code(numbers(2048, &[1], true)), "KEY_EXPONENT_UNSUPPORTED");
        assert_eq!(code(numbers(2048, &[1, 0, 0, 0, 1], true)), "KEY_EXPONENT_UNSUPPORTED");
        assert_eq!(code(numbers(2048, &[1, 0, 1], false)), "INVALID_KEY");
        assert!(VerifyingKey::from_numbers(numbers(2048, &[3], true)).is_ok());
        let reason = |text: &str| VerifyingKey::from_pem(text).unwrap_err().to_string();
        assert!(reason("./keys/service-public.pem").contains("file path"));
        assert!(reason("-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----").contains("certificate"));
        let encrypted = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAA==\n-----END ENCRYPTED PRIVATE KEY-----";
        assert_eq!(SigningKey::from_pem(encrypted).unwrap_err().code(), "KEY_ENCRYPTED");
    }
}
