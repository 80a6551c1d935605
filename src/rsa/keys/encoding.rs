//! The encodings of a key: reading a PEM block's label (and naming the common
//! mistakes of a text given as PEM, and the other key types a label or an
//! algorithm names) and a private key's DER into a buffer wiped on drop; the
//! integers of a private key's DER read through wiped limbs; and a generated
//! key's PKCS#1 DER, written into buffers of exactly their size, wiped on drop.
//! And [`invalid`], the error of a key refused as malformed or inconsistent
//! (what the other files of `keys` refuse with too, from `labels.rs`).

use rsa::pkcs1::UintRef;
use rsa::pkcs8::der::{pem, Encode};
use rsa::pkcs8::ObjectIdentifier;
use rsa::traits::{PrivateKeyParts, PublicKeyParts};
use rsa::{BigUint, RsaPrivateKey};
use zeroize::{Zeroize, Zeroizing};

use super::labels::{invalid, not_pem_text, require_rsa_oid};
use crate::error::{Error, Result};
use crate::rsa::hazmat::{from_limbs, limbs_from_be};

/// The integer of a DER part, through limbs that are wiped (`BigUint::from_bytes_be`
/// would free an unwiped reversed copy of the bytes).
pub(super) fn secret_int(part: UintRef<'_>) -> BigUint {
    let bytes = part.as_bytes();
    let mut limbs = limbs_from_be(bytes, bytes.len().div_ceil(4)).unwrap_or_default();
    let value = from_limbs(&limbs);
    limbs.zeroize();
    value
}

/// The PKCS#1 DER of a (generated, two-prime) key in a buffer wiped on drop;
/// dp, dq and qinv are the values `rsa` precomputed (and wipes).
pub(super) fn pkcs1_of(key: &RsaPrivateKey) -> Result<Zeroizing<Vec<u8>>> {
    let failed = |reason: String| Error::CryptoFailure { reason: format!("private key encoding failed: {reason}") };
    let ([p, q], Some(dp), Some(dq), Some(qinv)) = (key.primes(), key.dp(), key.dq(), key.qinv()) else {
        return Err(failed("not a two-prime key with precomputed CRT values".into()));
    };
    let (sign, qinv) = qinv.to_bytes_be();
    let qinv = Zeroizing::new(qinv);
    if sign == num_bigint_dig::Sign::Minus {
        return Err(failed("negative CRT coefficient".into()));
    }
    // `to_bytes_be` fills a buffer of the exact size and reverses it in place.
    let n = key.n().to_bytes_be();
    let e = key.e().to_bytes_be();
    let [d, p, q, dp, dq] = [key.d(), p, q, dp, dq].map(|x| Zeroizing::new(x.to_bytes_be()));
    fn uint(bytes: &[u8]) -> Result<UintRef<'_>> {
        UintRef::new(bytes).map_err(|e| Error::CryptoFailure { reason: format!("private key encoding failed: {e}") })
    }
    let pkcs1 = rsa::pkcs1::RsaPrivateKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
        private_exponent: uint(&d)?,
        prime1: uint(&p)?,
        prime2: uint(&q)?,
        exponent1: uint(&dp)?,
        exponent2: uint(&dq)?,
        coefficient: uint(&qinv)?,
        other_prime_infos: None,
    };
    der_zeroizing(&pkcs1).map_err(|e| failed(e.to_string()))
}

/// The DER of `value` in one buffer of exactly its encoded length (no growth, so no
/// unwiped earlier copy), wiped on drop.
pub(super) fn der_zeroizing(value: &impl Encode) -> std::result::Result<Zeroizing<Vec<u8>>, rsa::pkcs8::der::Error> {
    let len = usize::try_from(value.encoded_len()?)?;
    let mut der = Zeroizing::new(vec![0u8; len]);
    let written = value.encode_to_slice(&mut der)?.len();
    if written != len {
        return Err(rsa::pkcs8::der::ErrorKind::Incomplete {
            expected_len: len.try_into()?,
            actual_len: written.try_into()?,
        }
        .into());
    }
    Ok(der)
}

/// The DER of a private-key PEM, decoded straight into a buffer that is wiped
/// on drop. (`SecretDocument::from_pem` decodes into a plain `Vec` first and
/// drops it unwiped when the DER inside is malformed, e.g. a truncated key.)
pub(super) fn secret_der(pem: &str) -> Result<Zeroizing<Vec<u8>>> {
    let mut decoder = pem::Decoder::new(pem.as_bytes()).map_err(|e| invalid(e.to_string()))?;
    let mut der = Zeroizing::new(Vec::with_capacity(decoder.remaining_len()));
    decoder.decode_to_end(&mut der).map_err(|e| invalid(e.to_string()))?;
    Ok(der)
}

/// A PKCS#8 or SPKI document that holds another algorithm is named, not just refused.
pub(super) fn require_rsa(oid: ObjectIdentifier) -> Result<()> {
    require_rsa_oid(oid.as_bytes(), || Some(oid.to_string()))
}

/// The label of the (first) PEM block, e.g. `PRIVATE KEY`.
pub(super) fn pem_label(pem: &str) -> Result<&str> {
    if let Some(reason) = not_pem_text(pem) {
        return Err(invalid(reason.into()));
    }
    pem::decode_label(pem.as_bytes()).map_err(|e| invalid(format!("not a PEM block ({e})")))
}

#[cfg(test)]
mod tests {
    use super::super::{SigningKey, VerifyingKey};
    use super::*;

    #[test]
    fn common_mistakes_are_named_with_what_to_pass_instead() {
        let reason = |text: &str| match VerifyingKey::from_pem(text) {
            Err(Error::InvalidKey { reason }) => reason,
            other => panic!("{text}: {other:?}"),
        };
        assert!(reason("").contains("empty"));
        assert!(reason("   ").contains("empty"));
        assert!(reason("./keys/service-public.pem").contains("file path"));
        assert!(reason("/etc/keys/public.key").contains("file path"));
        assert!(reason("C:\\keys\\public.pem").contains("file path"));
        let escaped = "-----BEGIN PUBLIC KEY-----\\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\\n-----END PUBLIC KEY-----";
        assert!(reason(escaped).contains("line breaks"));
        let token = "LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0KTUlJQklqQU5CZ2txaGtpRzl3MEJBUUVGQUFPQ0FROEFNSUlCQ2dLQ0FRRUE";
        assert!(reason(token).contains("PEM armour"));
        assert!(SigningKey::from_pem("private.pem").is_err_and(|e| e.to_string().contains("file path")));
    }
}
