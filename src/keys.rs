//! RSA keys: reading PEM (PKCS#8, PKCS#1, SubjectPublicKeyInfo), refusing
//! anything that is not a sane 2048 to 4096-bit RSA key, generating test keys,
//! and the `x-access-token` form of a public key.

use base64::engine::general_purpose::URL_SAFE;
use base64::Engine;
use rsa::pkcs1::{DecodeRsaPrivateKey, DecodeRsaPublicKey};
use rsa::pkcs8::{DecodePrivateKey, DecodePublicKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use rsa::traits::PublicKeyParts;
use rsa::{BigUint, RsaPrivateKey, RsaPublicKey};

use crate::error::{Error, Result};

/// Smallest accepted modulus, in bits.
pub const MIN_BITS: usize = 2048;
/// Largest accepted modulus, in bits.
pub const MAX_BITS: usize = 4096;

/// A private key that signs requests. Its material is zeroized on drop (by `rsa`).
#[derive(Clone)]
pub struct SigningKey {
    private: RsaPrivateKey,
    verifying: VerifyingKey,
}

/// A public key that verifies callbacks, with its PEM and token precomputed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey {
    public: RsaPublicKey,
    pem: String,
    token: String,
}

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKey").field("bits", &self.bits()).finish_non_exhaustive()
    }
}

impl SigningKey {
    /// Reads a PKCS#8 (`PRIVATE KEY`) or PKCS#1 (`RSA PRIVATE KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let private = match pem_label(pem)? {
            "PRIVATE KEY" => RsaPrivateKey::from_pkcs8_pem(pem).map_err(|e| pkcs8_error(&e.to_string()))?,
            "RSA PRIVATE KEY" => RsaPrivateKey::from_pkcs1_pem(pem).map_err(|e| invalid(e.to_string()))?,
            "ENCRYPTED PRIVATE KEY" => return Err(Error::KeyEncrypted),
            "PUBLIC KEY" | "RSA PUBLIC KEY" => {
                return Err(invalid("this is a public key; signing needs the private key".into()))
            }
            other => return Err(unsupported_label(other)),
        };
        Self::from_private(private)
    }

    /// Generates a fresh key: for tests and the debugger page, not production.
    pub fn generate(bits: usize) -> Result<Self> {
        if !(MIN_BITS..=MAX_BITS).contains(&bits) || bits % 8 != 0 {
            return Err(Error::KeySizeUnsupported { bits });
        }
        let private = RsaPrivateKey::new(&mut rand_core::OsRng, bits)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        Self::from_private(private)
    }

    fn from_private(private: RsaPrivateKey) -> Result<Self> {
        private.validate().map_err(|e| invalid(e.to_string()))?;
        let verifying = VerifyingKey::from_public(private.to_public_key())?;
        Ok(SigningKey { private, verifying })
    }

    /// The matching public key.
    pub fn verifying_key(&self) -> &VerifyingKey {
        &self.verifying
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.verifying.bits()
    }

    /// The private key as PKCS#8 PEM. Handle with care.
    pub fn private_key_pem(&self) -> Result<String> {
        self.private
            .to_pkcs8_pem(LineEnding::LF)
            .map(|pem| pem.as_str().to_owned())
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })
    }

    pub(crate) fn rsa(&self) -> &RsaPrivateKey {
        &self.private
    }
}

impl VerifyingKey {
    /// Reads a SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 (`RSA PUBLIC KEY`) PEM.
    pub fn from_pem(pem: &str) -> Result<Self> {
        let pem = pem.trim();
        let public = match pem_label(pem)? {
            "PUBLIC KEY" => RsaPublicKey::from_public_key_pem(pem).map_err(|e| pkcs8_error(&e.to_string()))?,
            "RSA PUBLIC KEY" => RsaPublicKey::from_pkcs1_pem(pem).map_err(|e| invalid(e.to_string()))?,
            "PRIVATE KEY" | "RSA PRIVATE KEY" | "ENCRYPTED PRIVATE KEY" => {
                return Err(invalid(
                    "this is a private key; configure the project's public key for verifying".into(),
                ))
            }
            other => return Err(unsupported_label(other)),
        };
        Self::from_public(public)
    }

    fn from_public(public: RsaPublicKey) -> Result<Self> {
        check_public(&public)?;
        let pem = public
            .to_public_key_pem(LineEnding::LF)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        let token = URL_SAFE.encode(pem.as_bytes());
        Ok(VerifyingKey { public, pem, token })
    }

    /// The `x-access-token` value: base64url of the SubjectPublicKeyInfo PEM bytes.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The SubjectPublicKeyInfo PEM, LF line endings.
    pub fn public_key_pem(&self) -> &str {
        &self.pem
    }

    /// Modulus size in bits.
    pub fn bits(&self) -> usize {
        self.public.n().bits()
    }

    /// Modulus size in bytes: the length of every signature.
    pub fn signature_len(&self) -> usize {
        self.public.size()
    }

    pub(crate) fn rsa(&self) -> &RsaPublicKey {
        &self.public
    }

    /// Same modulus and exponent.
    pub fn same_key(&self, other: &RsaPublicKey) -> bool {
        self.public.n() == other.n() && self.public.e() == other.e()
    }

    /// Reads a public key in either PEM form, without the size and exponent policy
    /// (used to describe a token that carries some other key).
    pub(crate) fn parse_any_public(pem: &str) -> Option<RsaPublicKey> {
        let pem = pem.trim();
        RsaPublicKey::from_public_key_pem(pem).ok().or_else(|| RsaPublicKey::from_pkcs1_pem(pem).ok())
    }
}

fn check_public(public: &RsaPublicKey) -> Result<()> {
    let bits = public.n().bits();
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(Error::KeySizeUnsupported { bits });
    }
    let e = public.e();
    let is_odd = (e % 2u32) == BigUint::from(1u32);
    let sane = e >= &BigUint::from(3u32) && e.bits() <= 32 && is_odd;
    if !sane {
        return Err(Error::KeyExponentUnsupported { exponent: e.to_string() });
    }
    Ok(())
}

/// The label of the (first) PEM block, e.g. `PRIVATE KEY`.
fn pem_label(pem: &str) -> Result<&str> {
    rsa::pkcs8::der::pem::decode_label(pem.as_bytes())
        .map_err(|e| invalid(format!("not a PEM block ({e})")))
}

fn unsupported_label(label: &str) -> Error {
    let found = match label {
        "EC PRIVATE KEY" => "an EC key",
        "DSA PRIVATE KEY" => "a DSA key",
        "OPENSSH PRIVATE KEY" => "an OpenSSH key",
        "CERTIFICATE" => "a certificate",
        "CERTIFICATE REQUEST" => "a certificate request",
        _ => return invalid(format!("unexpected PEM label '{label}'")),
    };
    Error::KeyTypeUnsupported { found: found.into() }
}

/// A PKCS#8 or SPKI document that parsed but holds another algorithm.
fn pkcs8_error(message: &str) -> Error {
    if message.contains("algorithm") || message.contains("OID") || message.contains("unknown") {
        Error::KeyTypeUnsupported { found: format!("not RSA ({message})") }
    } else {
        invalid(message.to_owned())
    }
}

fn invalid(reason: String) -> Error {
    Error::InvalidKey { reason }
}
