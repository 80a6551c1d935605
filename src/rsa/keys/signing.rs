//! The private key that signs ([`SigningKey`]): read from PKCS#8 or PKCS#1
//! PEM or generated, held as its PKCS#1 DER (wiped on drop), with `rsa`'s form
//! and our CRT form made from it when first asked for, and written back as
//! PKCS#8 PEM in buffers that are wiped.

use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::der::pem::{self, PemLabel};
use rsa::pkcs8::{LineEnding, PrivateKeyInfo};
use rsa::RsaPrivateKey;
use std::sync::{Arc, OnceLock};
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use super::encoding::{der_zeroizing, pem_label, pkcs1_of, require_rsa, secret_der, secret_int};
use super::labels::{invalid, unsupported_label};
use super::policy::{check_policy, check_private, MAX_BITS, MIN_BITS};
use super::verifying::VerifyingKey;
use crate::error::{Error, Result};
use crate::rsa::hazmat::CrtKey;

/// A private key that signs requests. Its material is zeroized on drop: the
/// PKCS#1 DER it was read from (or encoded into, for a generated key), the
/// `rsa::RsaPrivateKey` made from it when one is needed, which zeroizes its
/// private exponent, primes and CRT values when dropped (so does every clone),
/// and the `CrtKey` made for signing, which wipes its copies when the last clone
/// of the key drops it (`tests/rsa_claims.rs` checks them with an inspecting
/// allocator).
#[derive(Clone)]
pub struct SigningKey {
    /// The two-prime PKCS#1 `RSAPrivateKey` DER, checked consistent when read
    /// ([`check_private`]).
    pkcs1: Arc<Zeroizing<Vec<u8>>>,
    verifying: VerifyingKey,
    /// `rsa`'s form, made when first asked for (a generated key has it from the
    /// start): reading a PEM skips its precomputation (a modular inverse that was
    /// most of a cold `fromPem`), which signing by our CRT never uses.
    private: OnceLock<Option<RsaPrivateKey>>,
    /// The CRT form for our own arithmetic, made on the first signature in wasm (a
    /// native backend never needs it) from the DER's primes, exponents and coefficient.
    crt: OnceLock<Option<Arc<CrtKey>>>,
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
        let der = secret_der(pem)?;
        let pkcs1_der = if label == "PRIVATE KEY" {
            let info = PrivateKeyInfo::try_from(der.as_slice()).map_err(|e| invalid(e.to_string()))?;
            require_rsa(info.algorithm.oid)?;
            info.private_key
        } else {
            der.as_slice()
        };
        let fields = rsa::pkcs1::RsaPrivateKey::try_from(pkcs1_der).map_err(|e| invalid(e.to_string()))?;
        check_policy(fields.modulus.as_bytes(), fields.public_exponent.as_bytes())?;
        let public = check_private(&fields)?;
        Ok(SigningKey {
            pkcs1: Arc::new(Zeroizing::new(pkcs1_der.to_vec())),
            verifying: VerifyingKey::from_public(public)?,
            private: OnceLock::new(),
            crt: OnceLock::new(),
        })
    }

    /// Generates a fresh key: for tests and the debugger page, not production.
    pub fn generate(bits: usize) -> Result<Self> {
        if !(MIN_BITS..=MAX_BITS).contains(&bits) || bits % 8 != 0 {
            return Err(Error::KeySizeUnsupported { bits, min_bits: MIN_BITS, max_bits: MAX_BITS });
        }
        let private = RsaPrivateKey::new(&mut rand_core::OsRng, bits)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?;
        private.validate().map_err(|e| invalid(e.to_string()))?;
        let pkcs1 = pkcs1_of(&private)?;
        let verifying = VerifyingKey::from_public(private.to_public_key())?;
        Ok(SigningKey {
            pkcs1: Arc::new(pkcs1),
            verifying,
            private: OnceLock::from(Some(private)),
            crt: OnceLock::new(),
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
    ///
    /// Encoded here rather than by `rsa`'s `to_pkcs8_pem`, which leaves the secret
    /// parts in freed heap memory (wasm memory is never returned, and freed bytes
    /// stay readable until reused): every buffer that holds a secret is allocated
    /// once at its exact size and wiped on drop, and the PKCS#1 part is the DER the
    /// key holds.
    pub fn private_key_pem_zeroizing(&self) -> Result<Zeroizing<String>> {
        let failed = |reason: String| Error::CryptoFailure { reason: format!("private key encoding failed: {reason}") };
        let info = PrivateKeyInfo::new(rsa::pkcs1::ALGORITHM_ID, &self.pkcs1);
        let der = der_zeroizing(&info).map_err(|e| failed(e.to_string()))?;
        let label = PrivateKeyInfo::PEM_LABEL;
        let len = pem::encoded_len(label, LineEnding::LF, &der).map_err(|e| failed(e.to_string()))?;
        let mut text = Zeroizing::new(vec![0u8; len]);
        let written = pem::encode(label, LineEnding::LF, &der, &mut text).map_err(|e| failed(e.to_string()))?.len();
        if written != len {
            return Err(failed(format!("PEM of {written} bytes, {len} expected")));
        }
        // Moves the bytes (no copy); base64 and the boundaries are ASCII, so this cannot fail,
        // and if it did the bytes would be wiped with the error's buffer.
        match String::from_utf8(std::mem::take(&mut *text)) {
            Ok(pem) => Ok(Zeroizing::new(pem)),
            Err(error) => {
                drop(Zeroizing::new(error.into_bytes()));
                Err(failed("the PEM is not UTF-8".into()))
            }
        }
    }

    /// The private key as PKCS#8 PEM. Handle with care: the returned `String`
    /// is the caller's copy and is not wiped on drop; from Rust prefer
    /// [`SigningKey::private_key_pem_zeroizing`].
    pub fn private_key_pem(&self) -> Result<String> {
        self.private_key_pem_zeroizing().map(|pem| pem.as_str().to_owned())
    }

    /// `rsa`'s form of the key, made from the DER the first time (with its
    /// precomputed CRT values).
    pub(crate) fn rsa(&self) -> Result<&RsaPrivateKey> {
        self.private
            .get_or_init(|| RsaPrivateKey::from_pkcs1_der(&self.pkcs1).ok())
            .as_ref()
            .ok_or_else(|| Error::CryptoFailure { reason: "the private key could not be read again".into() })
    }

    pub(crate) fn crt(&self) -> Option<&CrtKey> {
        self.crt
            .get_or_init(|| {
                let fields = rsa::pkcs1::RsaPrivateKey::try_from(self.pkcs1.as_slice()).ok()?;
                let mut parts = [fields.prime1, fields.prime2, fields.exponent1, fields.exponent2, fields.coefficient]
                    .map(secret_int);
                let [p, q, dp, dq, qinv] = &parts;
                let crt = CrtKey::new(p, q, dp, dq, qinv).map(Arc::new);
                parts.iter_mut().for_each(Zeroize::zeroize);
                crt
            })
            .as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_material_is_zeroized_on_drop() {
        fn zeroize_on_drop<T: ZeroizeOnDrop>() {}
        zeroize_on_drop::<RsaPrivateKey>();
        zeroize_on_drop::<SigningKey>();
        zeroize_on_drop::<Zeroizing<String>>();
    }

    #[test]
    fn private_key_pem_is_the_encoding_rsa_gives() {
        use rsa::pkcs8::EncodePrivateKey;
        for name in ["rsa2048", "rsa3072", "rsa4096", "attacker2048"] {
            for form in ["pkcs8", "pkcs1"] {
                let path = format!("{}/tests/vectors/keys/{name}.{form}.pem", env!("CARGO_MANIFEST_DIR"));
                let key = SigningKey::from_pem(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let ours = key.private_key_pem_zeroizing().unwrap();
                assert_eq!(*ours, *key.rsa().unwrap().to_pkcs8_pem(LineEnding::LF).unwrap(), "{name}.{form}");
                let again = SigningKey::from_pem(&ours).unwrap();
                assert_eq!(again.rsa().unwrap(), key.rsa().unwrap(), "{name}.{form} reads back");
                assert_eq!(key.private_key_pem().unwrap(), *ours);
            }
        }
    }
}
