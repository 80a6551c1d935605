//! The public key that verifies ([`VerifyingKey`]): read from
//! SubjectPublicKeyInfo or PKCS#1 PEM, with its PEM, DER and `x-access-token`
//! forms ([`TokenEncoding`]) made once, and the modulus for our arithmetic made
//! when first needed; shared, so a clone copies a pointer.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use rsa::pkcs1::DecodeRsaPublicKey;
use rsa::pkcs8::der::Document;
use rsa::pkcs8::{DecodePublicKey, EncodePublicKey, LineEnding, SubjectPublicKeyInfoRef};
use rsa::traits::PublicKeyParts;
use rsa::{BigUint, RsaPublicKey};
use std::sync::{Arc, OnceLock};

use super::encoding::{pem_label, require_rsa};
use super::labels::{invalid, unsupported_label};
use super::policy::check_policy;
use super::token::TokenEncoding;
use crate::error::{Error, Result};
use crate::rsa::hazmat::Modulus;

/// A public key that verifies callbacks, with its PEM and token precomputed.
/// Shared: a clone (as every verification takes from the key cache) copies a pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey(Arc<PublicParts>);

#[derive(Debug)]
struct PublicParts {
    public: RsaPublicKey,
    pem: String,
    /// base64url (padded) of the PEM text.
    token: String,
    /// base64url (padded) of the SubjectPublicKeyInfo DER bytes.
    token_der: String,
    /// The SubjectPublicKeyInfo DER bytes.
    der: Vec<u8>,
    /// The modulus with its Montgomery constants, computed when our arithmetic
    /// first needs them (a product and a division of 4096 bits that were most of
    /// a cold `fromPem`; node:crypto and WebCrypto never use them).
    modulus: OnceLock<Option<Modulus>>,
    /// The public exponent (the policy keeps it below 2^32).
    exponent: u32,
}

/// The same key: everything else in the parts follows from n and e.
impl PartialEq for PublicParts {
    fn eq(&self, other: &Self) -> bool {
        self.public == other.public
    }
}

impl Eq for PublicParts {}

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
        let (_, der) = Document::from_pem(pem).map_err(|e| invalid(e.to_string()))?;
        let pkcs1_der = if label == "PUBLIC KEY" {
            let info = SubjectPublicKeyInfoRef::try_from(der.as_bytes()).map_err(|e| invalid(e.to_string()))?;
            require_rsa(info.algorithm.oid)?;
            info.subject_public_key.raw_bytes()
        } else {
            der.as_bytes()
        };
        let fields = rsa::pkcs1::RsaPublicKey::try_from(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        check_policy(fields.modulus.as_bytes(), fields.public_exponent.as_bytes())?;
        let public = RsaPublicKey::from_pkcs1_der(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        Self::from_public(public)
    }

    pub(super) fn from_public(public: RsaPublicKey) -> Result<Self> {
        check_policy(&public.n().to_bytes_be(), &public.e().to_bytes_be())?;
        let pem =
            public.to_public_key_pem(LineEnding::LF).map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        let token = URL_SAFE.encode(pem.as_bytes());
        let der =
            public.to_public_key_der().map_err(|e| Error::CryptoFailure { reason: e.to_string() })?.as_bytes().to_vec();
        let token_der = URL_SAFE.encode(&der);
        if !public.n().to_bytes_le().first().is_some_and(|low| low & 1 == 1) {
            return Err(invalid("the modulus is even".into()));
        }
        let modulus = OnceLock::new();
        let e_bytes = public.e().to_bytes_be();
        let exponent = (e_bytes.len() <= 4)
            .then(|| e_bytes.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)))
            .ok_or_else(|| Error::KeyExponentUnsupported { exponent: public.e().to_string() })?;
        Ok(VerifyingKey(Arc::new(PublicParts { public, pem, token, token_der, der, modulus, exponent })))
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
        self.0.public.n().bits()
    }

    /// Modulus size in bytes: the length of every signature.
    pub fn signature_len(&self) -> usize {
        self.0.public.size()
    }

    /// The modulus for our arithmetic (odd and of 2048 to 4096 bits, checked when
    /// the key was read, so `Modulus::new` takes it).
    pub(crate) fn modulus(&self) -> Result<&Modulus> {
        self.0
            .modulus
            .get_or_init(|| Modulus::new(self.0.public.n()))
            .as_ref()
            .ok_or_else(|| invalid("the modulus is even".into()))
    }

    pub(crate) fn modulus_value(&self) -> &BigUint {
        self.0.public.n()
    }

    pub(crate) fn exponent(&self) -> u32 {
        self.0.exponent
    }

    /// The JWK members `n` and `e`: base64url (unpadded) of the big-endian modulus and
    /// exponent, without leading zeros (the JS core's check of node:crypto's key).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(crate) fn jwk_members(&self) -> (String, String) {
        let public = &self.0.public;
        (URL_SAFE_NO_PAD.encode(public.n().to_bytes_be()), URL_SAFE_NO_PAD.encode(public.e().to_bytes_be()))
    }

    /// Same modulus and exponent.
    pub fn same_key(&self, other: &RsaPublicKey) -> bool {
        self.0.public.n() == other.n() && self.0.public.e() == other.e()
    }

    /// Reads a public key in either PEM form, without the size and exponent policy
    /// (used to describe a token that carries some other key).
    pub(crate) fn parse_any_public(pem: &str) -> Option<RsaPublicKey> {
        let pem = pem.trim();
        RsaPublicKey::from_public_key_pem(pem).ok().or_else(|| RsaPublicKey::from_pkcs1_pem(pem).ok())
    }

    /// Reads a public key from DER bytes, SubjectPublicKeyInfo or PKCS#1, without the policy.
    pub(crate) fn parse_any_public_der(der: &[u8]) -> Option<RsaPublicKey> {
        RsaPublicKey::from_public_key_der(der).ok().or_else(|| RsaPublicKey::from_pkcs1_der(der).ok())
    }
}
