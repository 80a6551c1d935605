//! RSASSA-PKCS1-v1_5 with SHA-256 (RFC 8017, section 8.2), the one signature
//! scheme of the spec ("Authentication", step 6): the EMSA-PKCS1-v1_5
//! encoding of the digest, signing by the CRT on a blinded value with the
//! constant-time exponentiation of [`super::hazmat`] (the key's blinding pair
//! squared per signature and drawn anew every [`BLINDING_USES`]), the fault check that
//! re-verifies every signature before it is released, and verification,
//! which compares the whole expected encoding with `s^e mod n` (no padding is
//! parsed). What of this is constant time, and what is not: `super` (rsa/mod.rs).

use std::borrow::Cow;

#[cfg(feature = "wasm-rsa")]
use base64::engine::general_purpose::URL_SAFE;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
#[cfg(feature = "wasm-rsa")]
use num_bigint_dig::ModInverse;
#[cfg(feature = "wasm-rsa")]
use rand_core::RngCore;
#[cfg(feature = "wasm-rsa")]
use rsa::pkcs1v15::Pkcs1v15Sign;
#[cfg(feature = "wasm-rsa")]
use rsa::BigUint;
use sha2::{Digest as _, Sha256};

use crate::error::{Error, Result};
#[cfg(feature = "wasm-rsa")]
use zeroize::Zeroizing;

#[cfg(feature = "wasm-rsa")]
use crate::rsa::hazmat::{
    be_from_limbs, from_limbs, less_than, limbs, limbs_from_be, wipe, wipe_number, Blinding, CrtKey,
};
use crate::rsa::keys::{SigningKey, VerifyingKey};

/// What the RSA-SHA256 signature covers: the message, or its SHA-256 digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Digest {
    /// PKCS#1 v1.5 with SHA-256 over the message (the spec; the default).
    #[default]
    Single,
    /// PKCS#1 v1.5 with SHA-256 over the 32-byte SHA-256 digest of the message:
    /// what `crypto.sign('RSA-SHA256', sha256(message), key)` makes.
    Double,
}

/// The SHA-256 digest that goes into the signature's encoding.
#[cfg_attr(not(feature = "wasm-rsa"), allow(dead_code))]
pub(crate) fn signed_digest(message: &str, digest: Digest) -> [u8; 32] {
    let once: [u8; 32] = Sha256::digest(message.as_bytes()).into();
    match digest {
        Digest::Single => once,
        Digest::Double => Sha256::digest(once).into(),
    }
}

/// The bytes a native RSA-SHA256 (node:crypto, WebCrypto) signs or verifies for
/// `message`: the message itself, or its SHA-256 digest under [`Digest::Double`].
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(crate) fn native_input(message: &str, digest: Digest) -> Cow<'_, [u8]> {
    match digest {
        Digest::Single => Cow::Borrowed(message.as_bytes()),
        Digest::Double => Cow::Owned(Sha256::digest(message.as_bytes()).to_vec()),
    }
}

/// The base64url (padded) PKCS#1 v1.5 SHA-256 signature of a message.
/// Signing is blinded, each CRT half runs in constant time, and the result is
/// verified before it is returned.
#[cfg(feature = "wasm-rsa")]
pub fn sign_message(message: &str, key: &SigningKey, digest: Digest) -> Result<String> {
    let digest = signed_digest(message, digest);
    let signature = match key.crt() {
        Some(_) => sign_digest(&digest, key)?,
        // A multi-prime key: the `rsa` crate's own (blinded) signing.
        None => key
            .rsa()?
            .sign_with_rng(&mut rand_core::OsRng, Pkcs1v15Sign::new::<Sha256>(), &digest)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?,
    };
    Ok(URL_SAFE.encode(signature))
}

/// Without the `wasm-rsa` feature: refused, naming the async function that signs by WebCrypto.
#[cfg(not(feature = "wasm-rsa"))]
pub fn sign_message(_message: &str, _key: &SigningKey, _digest: Digest) -> Result<String> {
    Err(Error::SyncRsaUnavailable {
        operation: "signRequest with a SigningKey (or the backend option 'wasm')",
        instead: "call signRequestAsync, which signs by WebCrypto (the backend option left at its default), \
                  or import the full entry, 'payment-intake', for synchronous RSA",
    })
}

/// DER DigestInfo prefix of a SHA-256 hash (RFC 8017, section 9.2, note 1).
#[cfg(feature = "wasm-rsa")]
const SHA256_DIGEST_INFO: [u8; 19] =
    [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20];

#[cfg(feature = "wasm-rsa")]
/// EMSA-PKCS1-v1_5 encoding of a SHA-256 digest in `size` bytes.
fn encode_digest(digest: &[u8], size: usize) -> Result<Vec<u8>> {
    let t_len = SHA256_DIGEST_INFO.len() + digest.len();
    if size < t_len + 11 {
        return Err(Error::CryptoFailure { reason: "the key is too small for a SHA-256 signature".into() });
    }
    let mut em = vec![0xffu8; size];
    em[0] = 0;
    em[1] = 1;
    em[size - t_len - 1] = 0;
    em[size - t_len..size - digest.len()].copy_from_slice(&SHA256_DIGEST_INFO);
    em[size - digest.len()..].copy_from_slice(digest);
    Ok(em)
}

#[cfg(feature = "wasm-rsa")]
/// Signatures a blinding pair serves: its r is drawn (and inverted) for the
/// first, and each later one squares the pair of the one before; the 33rd
/// draws a new r. OpenSSL's `BN_BLINDING` renews its pair the same way.
const BLINDING_USES: u32 = 32;

#[cfg(feature = "wasm-rsa")]
/// The signature of a SHA-256 digest by our CRT: the encoding is blinded by the
/// key's blinding pair ([`next_blinding`]), raised to d by
/// [`crate::rsa::hazmat::CrtKey::pow_d`], unblinded, and verified with the
/// public key before it is returned (the fault check).
fn sign_digest(digest: &[u8], key: &SigningKey) -> Result<Vec<u8>> {
    let failure = |reason: &str| Error::CryptoFailure { reason: reason.into() };
    let crt = key.crt().ok_or_else(|| failure("no CRT parameters"))?;
    let public = key.verifying_key();
    let size = public.signature_len();
    let modulus = public.modulus()?;
    let len = modulus.limb_count();
    let em = encode_digest(digest, size)?;
    // Below n: the encoding starts with 00 01 and n has its top byte's top bit set.
    let m = limbs_from_be(&em, len).ok_or_else(|| failure("the encoding does not fit the modulus"))?;
    // Blinding: sign m * A = m * r^e, then multiply by B = r^-1, so the exponentiation never sees m.
    let pair = next_blinding(crt, public)?;
    let mut blinded_limbs = pair.blind(modulus, &m);
    let mut blinded = from_limbs(&blinded_limbs);
    wipe(&mut blinded_limbs);
    let mut unblinded = crt.pow_d(&blinded);
    let mut s = limbs(&unblinded, len);
    wipe_number(&mut unblinded);
    let signature = be_from_limbs(&pair.unblind(modulus, &s), size);
    wipe(&mut s);
    drop(pair);
    #[cfg(test)]
    tests::observe(&blinded, &signature);
    wipe_number(&mut blinded);
    // A fault in the arithmetic must not leak a wrong signature (it would reveal a prime).
    if verify_encoded(&em, &signature, public).is_err() {
        return Err(failure("the signature did not verify"));
    }
    Ok(signature)
}

#[cfg(feature = "wasm-rsa")]
/// The blinding pair for this signature, a copy of the one the key now holds:
/// a fresh pair ([`fresh_blinding`]) when the key has none (its first
/// signature, or after a poisoned lock) or the one it has served
/// [`BLINDING_USES`] signatures, else the square of the one it has. The key's
/// pair is replaced before the lock is released, so no two signatures get the
/// same pair, even from two threads.
fn next_blinding(crt: &CrtKey, public: &VerifyingKey) -> Result<Blinding> {
    let modulus = public.modulus()?;
    let mut slot = crt.blinding();
    let pair = match slot.take() {
        Some(mut pair) if pair.squarings() + 1 < BLINDING_USES => {
            pair.square(modulus);
            pair
        }
        // The old pair (if any) is dropped here, and wiped.
        _ => fresh_blinding(public)?,
    };
    *slot = Some(pair.clone());
    Ok(pair)
}

#[cfg(feature = "wasm-rsa")]
/// A blinding pair of a fresh r: `size` random bytes reduced mod n, redrawn
/// until invertible, `r^e` by `pow_public` and `r^-1` by `num-bigint-dig`'s
/// `mod_inverse` (variable time, on a random r: rsa/mod.rs).
fn fresh_blinding(public: &VerifyingKey) -> Result<Blinding> {
    let failure = |reason: &str| Error::CryptoFailure { reason: reason.into() };
    let modulus = public.modulus()?;
    let n = public.modulus_value();
    let len = modulus.limb_count();
    let mut bytes = Zeroizing::new(vec![0u8; public.signature_len()]);
    loop {
        rand_core::OsRng.try_fill_bytes(&mut bytes).map_err(|e| failure(&e.to_string()))?;
        let mut r = BigUint::from_bytes_be(&bytes) % n;
        let inverse = (&r).mod_inverse(n).and_then(|i| i.to_biguint());
        let mut r_limbs = limbs(&r, len);
        wipe_number(&mut r);
        let Some(mut inverse) = inverse else {
            wipe(&mut r_limbs);
            continue;
        };
        let mut r_e = modulus.pow_public(&r_limbs, public.exponent());
        let mut inverse_limbs = limbs(&inverse, len);
        let pair = Blinding::new(modulus, &r_e, &inverse_limbs);
        for secret in [&mut r_limbs, &mut r_e, &mut inverse_limbs] {
            wipe(secret);
        }
        wipe_number(&mut inverse);
        return Ok(pair);
    }
}

#[cfg(feature = "wasm-rsa")]
/// Whether `signature` raised to e is `em`: the signature must be below n, and
/// the whole encoding is compared, so no padding is parsed.
fn verify_encoded(em: &[u8], signature: &[u8], key: &VerifyingKey) -> Result<()> {
    let modulus = key.modulus()?;
    let s = limbs_from_be(signature, modulus.limb_count()).ok_or_else(signature_mismatch)?;
    if !less_than(&s, modulus.limbs()) {
        return Err(signature_mismatch());
    }
    let m = modulus.pow_public(&s, key.exponent());
    if be_from_limbs(&m, em.len()) == em {
        Ok(())
    } else {
        Err(signature_mismatch())
    }
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
pub fn verify_message(message: &str, signature: &str, key: &VerifyingKey, digest: Digest) -> Result<()> {
    let bytes = decode_signature(signature, key)?;
    verify_signature_bytes(message, &bytes, key, digest)
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
#[cfg(feature = "wasm-rsa")]
pub fn verify_signature_bytes(message: &str, signature: &[u8], key: &VerifyingKey, digest: Digest) -> Result<()> {
    let em = encode_digest(&signed_digest(message, digest), key.signature_len())?;
    verify_encoded(&em, signature, key)
}

/// Without the `wasm-rsa` feature: refused, naming the async function that verifies by WebCrypto.
#[cfg(not(feature = "wasm-rsa"))]
pub fn verify_signature_bytes(_message: &str, _signature: &[u8], _key: &VerifyingKey, _digest: Digest) -> Result<()> {
    Err(Error::SyncRsaUnavailable {
        operation: "verifyCallback with an RSA key (or the backend option 'wasm')",
        instead: "call verifyCallbackAsync (or verifyCallbackRequest), which verifies by WebCrypto (the backend \
                  option left at its default), or import the full entry, 'payment-intake', for synchronous RSA",
    })
}

/// What a signature holds once opened with a public key (`s^e mod n`), for
/// diagnosis only: verification never parses the encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "wasm-rsa"), allow(dead_code))]
pub(crate) enum Opened {
    /// A PKCS#1 v1.5 encoding of this SHA-256 digest: the key is the signer's.
    Sha256([u8; 32]),
    /// A PKCS#1 v1.5 encoding of something else: this key signed, by a rule
    /// we do not know (another hash, or no DigestInfo), named here.
    Other(&'static str),
    /// No PKCS#1 v1.5 signature encoding: another key made it (or none did).
    NotThisKey,
}

/// Opens a signature of the key's length with the public key.
#[cfg(feature = "wasm-rsa")]
pub(crate) fn open_signature(signature: &[u8], key: &VerifyingKey) -> Result<Opened> {
    Ok(open_with(signature, key))
}

/// Without the `wasm-rsa` feature: refused (diagnosis opens the signature synchronously).
#[cfg(not(feature = "wasm-rsa"))]
pub(crate) fn open_signature(_signature: &[u8], _key: &VerifyingKey) -> Result<Opened> {
    Err(Error::SyncRsaUnavailable {
        operation: "diagnoseCallback with an RSA key",
        instead: "diagnose with the full entry, 'payment-intake' (in Node, or the payment-intake debugger page)",
    })
}

#[cfg(feature = "wasm-rsa")]
fn open_with(signature: &[u8], key: &VerifyingKey) -> Opened {
    let Ok(modulus) = key.modulus() else {
        return Opened::NotThisKey;
    };
    let Some(s) = limbs_from_be(signature, modulus.limb_count()) else {
        return Opened::NotThisKey;
    };
    if !less_than(&s, modulus.limbs()) {
        return Opened::NotThisKey;
    }
    let em = be_from_limbs(&modulus.pow_public(&s, key.exponent()), key.signature_len());
    // 00 01 FF..FF 00 T, with at least eight FF bytes.
    let padding = em.iter().skip(2).take_while(|b| **b == 0xff).count();
    if em.len() < 11 || em[0] != 0 || em[1] != 1 || padding < 8 || em.get(2 + padding) != Some(&0) {
        return Opened::NotThisKey;
    }
    let t = &em[3 + padding..];
    if let Some(digest) = t.strip_prefix(&SHA256_DIGEST_INFO[..]).and_then(|d| <[u8; 32]>::try_from(d).ok()) {
        return Opened::Sha256(digest);
    }
    const KNOWN: [(&[u8], &str); 4] = [
        (&[0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14], "SHA-1"),
        (
            &[
                0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00,
                0x04, 0x30,
            ],
            "SHA-384",
        ),
        (
            &[
                0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00,
                0x04, 0x40,
            ],
            "SHA-512",
        ),
        (
            &[
                0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00,
                0x04, 0x1c,
            ],
            "SHA-224",
        ),
    ];
    match KNOWN.iter().find(|(prefix, _)| t.starts_with(prefix)) {
        Some((_, name)) => Opened::Other(name),
        None if t.len() == 32 => Opened::Other("a bare 32-byte digest without DigestInfo"),
        None => Opened::Other("a payload that is not a DigestInfo"),
    }
}

/// URL-safe base64 with or without `=` padding: how the spec encodes the signature and
/// the token ("Authentication", steps 6 and 7).
pub fn decode_base64url(text: &str) -> Option<Vec<u8>> {
    let unpadded = text.strip_suffix("==").or_else(|| text.strip_suffix('=')).unwrap_or(text);
    URL_SAFE_NO_PAD.decode(unpadded).ok()
}

// Signing and the `rsa` crate's keys: with the `wasm-rsa` feature only.
#[cfg(all(test, feature = "wasm-rsa"))]
#[path = "pkcs1v15_tests.rs"]
mod tests;
