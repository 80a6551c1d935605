//! Signing requests and checking signatures: RSA PKCS#1 v1.5 over SHA-256 of
//! the canonical message, with the four `x-access-*` headers. The RSA
//! operations use `modmath` (Montgomery arithmetic with per-key constants):
//! signing by the CRT on a blinded value, checked by re-verifying.

use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
use base64::Engine;
use num_bigint_dig::ModInverse;
use rand_core::RngCore;
use rsa::pkcs1v15::Pkcs1v15Sign;
use rsa::BigUint;
use sha2::{Digest, Sha256};

use crate::canonical::ambiguity::refuse_ambiguous_request;
use crate::canonical::{canonical_message, message_of_text, CanonicalOptions};
use crate::error::{Error, Result};
use crate::json::{parse_body, Json, Limits};
use crate::rsa::hazmat::{be_from_limbs, less_than, limbs, limbs_from_be};
use crate::rsa::keys::{SigningKey, VerifyingKey};

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
    prepared_with_message(message, key, merchant_id, timestamp, options)
}

/// [`prepare_request`] for a message already built (e.g. straight from the body's
/// text by `canonical_text`, which only answers when the body and timestamp are sound).
pub fn prepared_with_message(
    message: String,
    key: &VerifyingKey,
    merchant_id: &str,
    timestamp: &str,
    options: &CanonicalOptions,
) -> Result<PreparedRequest> {
    check_merchant_id(merchant_id)?;
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

/// A request body to sign: JSON text as it will be sent, or a tree already read.
#[derive(Debug, Clone, Copy)]
pub enum RequestBody<'a> {
    Text(&'a str),
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
    prepared_with_message(message, key, merchant_id, timestamp, options)
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
    let prepared = prepare_request(body, key.verifying_key(), merchant_id, timestamp, options)?;
    let signature = sign_message(&prepared.message, key)?;
    Ok(prepared.into_headers(&signature))
}

/// The base64url (padded) PKCS#1 v1.5 SHA-256 signature of a message.
/// Signing is blinded, each CRT half runs in constant time, and the result is
/// verified before it is returned.
pub fn sign_message(message: &str, key: &SigningKey) -> Result<String> {
    let digest = Sha256::digest(message.as_bytes());
    let signature = match key.crt() {
        Some(_) => sign_digest(&digest, key)?,
        // A multi-prime key: the `rsa` crate's own (blinded) signing.
        None => key
            .rsa()
            .sign_with_rng(&mut rand_core::OsRng, Pkcs1v15Sign::new::<Sha256>(), &digest)
            .map_err(|e| Error::CryptoFailure { reason: e.to_string() })?,
    };
    Ok(URL_SAFE.encode(signature))
}

/// DER DigestInfo prefix of a SHA-256 hash (RFC 8017, section 9.2, note 1).
const SHA256_DIGEST_INFO: [u8; 19] =
    [0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20];

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

fn sign_digest(digest: &[u8], key: &SigningKey) -> Result<Vec<u8>> {
    let failure = |reason: &str| Error::CryptoFailure { reason: reason.into() };
    let crt = key.crt().ok_or_else(|| failure("no CRT parameters"))?;
    let public = key.verifying_key();
    let size = public.signature_len();
    let n = public.modulus_value();
    let em = encode_digest(digest, size)?;
    let m = BigUint::from_bytes_be(&em);
    // Blinding: sign m * r^e, then multiply by r^-1, so the exponentiation never sees m.
    let (r, r_inv) = loop {
        let mut bytes = vec![0u8; size];
        rand_core::OsRng.try_fill_bytes(&mut bytes).map_err(|e| failure(&e.to_string()))?;
        let r = BigUint::from_bytes_be(&bytes) % n;
        if let Some(inverse) = (&r).mod_inverse(n).and_then(|i| i.to_biguint()) {
            break (r, inverse);
        }
    };
    let modulus = public.modulus();
    let r_e = BigUint::from_slice(&modulus.pow_public(&limbs(&r, modulus.limb_count()), public.exponent()));
    let blinded = (m * r_e) % n;
    let signature = (crt.pow_d(&blinded) * r_inv) % n;
    let signature = be_from_limbs(&limbs(&signature, modulus.limb_count()), size);
    #[cfg(test)]
    tests::observe(&blinded, &signature);
    // A fault in the arithmetic must not leak a wrong signature (it would reveal a prime).
    if verify_encoded(&em, &signature, public).is_err() {
        return Err(failure("the signature did not verify"));
    }
    Ok(signature)
}

/// Whether `signature` raised to e is `em`.
fn verify_encoded(em: &[u8], signature: &[u8], key: &VerifyingKey) -> Result<()> {
    let modulus = key.modulus();
    let s = limbs_from_be(signature, modulus.limb_count()).ok_or_else(signature_mismatch)?;
    if !less_than(&s, &limbs(key.modulus_value(), modulus.limb_count())) {
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
    let em = encode_digest(&digest, key.signature_len())?;
    verify_encoded(&em, signature, key)
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
    use crate::rsa::hazmat::seams;
    use std::cell::RefCell;

    thread_local! {
        /// Per signature made by `sign_digest` on this thread: the value the private
        /// exponentiation ran on, and the signature before the fault check.
        static OBSERVED: RefCell<Vec<(BigUint, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn observe(blinded: &BigUint, unchecked_signature: &[u8]) {
        OBSERVED.with(|seen| seen.borrow_mut().push((blinded.clone(), unchecked_signature.to_vec())));
    }

    fn take_observed() -> Vec<(BigUint, Vec<u8>)> {
        OBSERVED.with(|seen| std::mem::take(&mut *seen.borrow_mut()))
    }

    fn gcd(mut a: BigUint, mut b: BigUint) -> BigUint {
        while b != BigUint::from(0u32) {
            let r = &a % &b;
            a = std::mem::replace(&mut b, r);
        }
        a
    }

    fn vector_key(name: &str) -> SigningKey {
        let path = format!("{}/tests/vectors/keys/{name}.pkcs8.pem", env!("CARGO_MANIFEST_DIR"));
        SigningKey::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    fn encoded(message: &str, key: &SigningKey) -> BigUint {
        let digest = Sha256::digest(message.as_bytes());
        BigUint::from_bytes_be(&encode_digest(&digest, key.verifying_key().signature_len()).unwrap())
    }

    /// Base blinding: the exponentiation runs on m * r^e mod n for a fresh r each time,
    /// never on the encoded message m itself, and the signature is still m^d.
    #[test]
    fn every_signature_exponentiates_a_freshly_blinded_value() {
        let key = vector_key("rsa2048");
        assert!(key.crt().is_some(), "a two-prime key signs by our CRT");
        let message = "amount:100;currency:EUR1700000000";
        take_observed();
        let first = sign_message(message, &key).unwrap();
        let second = sign_message(message, &key).unwrap();
        let third = sign_message(message, &key).unwrap();
        assert!(first == second && second == third, "PKCS#1 v1.5 signatures are deterministic");
        let observed = take_observed();
        assert_eq!(observed.len(), 3, "each signature went through sign_digest");
        let m = encoded(message, &key);
        let blinded: Vec<&BigUint> = observed.iter().map(|(b, _)| b).collect();
        for value in &blinded {
            assert_ne!(**value, m, "the exponentiation ran on the unblinded message");
        }
        assert!(
            blinded[0] != blinded[1] && blinded[1] != blinded[2] && blinded[0] != blinded[2],
            "the blinding factor was not refreshed between signatures"
        );
    }

    /// The CRT fault check (Bellcore / Lenstra): a p half that came out wrong must not
    /// be released, because that signature would factor n.
    #[test]
    fn a_faulty_crt_half_is_refused_and_would_have_revealed_a_prime() {
        use rsa::traits::PrivateKeyParts;
        let key = vector_key("rsa2048");
        let message = "amount:100;currency:EUR1700000000";
        take_observed();
        seams::set_fault_in_p_half(true);
        let result = sign_message(message, &key);
        seams::set_fault_in_p_half(false);
        match result {
            Err(Error::CryptoFailure { reason }) => assert_eq!(reason, "the signature did not verify"),
            other => panic!("a faulty signature was released: {other:?}"),
        }
        // What was withheld: s with s^e = m mod q but not mod p, so gcd(s^e - m, n) = q.
        let observed = take_observed();
        let (_, withheld) = observed.last().expect("sign_digest ran");
        let n = key.verifying_key().modulus_value();
        let s = BigUint::from_bytes_be(withheld);
        let s_e = s.modpow(&BigUint::from(key.verifying_key().exponent()), n);
        let m = encoded(message, &key);
        let difference = (s_e + n - &m) % n;
        assert_eq!(&gcd(difference, n.clone()), &key.rsa().primes()[1], "the fault was in the p half");
        // And without the fault, the same path signs.
        assert!(sign_message(message, &key).is_ok());
    }

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
