//! Tests of `pkcs1v15.rs` (signing and the `rsa` crate's keys: with the `wasm-rsa` feature only).

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
    let digest = signed_digest(message, Digest::Single);
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
    let first = sign_message(message, &key, Digest::Single).unwrap();
    let second = sign_message(message, &key, Digest::Single).unwrap();
    let third = sign_message(message, &key, Digest::Single).unwrap();
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

/// The factor A (= r^e for the pair's r) each observed signature of `messages`
/// blinded with: its blinded value over its encoded message, mod n.
fn blinding_factors(key: &SigningKey, messages: &[String], observed: &[(BigUint, Vec<u8>)]) -> Vec<BigUint> {
    let n = key.verifying_key().modulus_value();
    assert_eq!(observed.len(), messages.len(), "each signature went through sign_digest");
    messages
        .iter()
        .zip(observed)
        .map(|(message, (blinded, _))| {
            let m_inv = encoded(message, key).mod_inverse(n).and_then(|i| i.to_biguint()).unwrap();
            (blinded * m_inv) % n
        })
        .collect()
}

/// The blinding pair is renewed without an inverse: each signature blinds
/// with the square of the factor the one before used, and every
/// [`BLINDING_USES`] signatures with a factor of a fresh r (not the
/// square). Across more than two renewals every signature is the `rsa`
/// crate's (PKCS#1 v1.5 is deterministic), which holds only if each
/// unblinding factor stayed the inverse of its r.
#[test]
fn the_blinding_pair_is_squared_per_signature_and_renewed_every_32() {
    use rsa::pkcs1v15::Pkcs1v15Sign;
    let key = vector_key("rsa2048");
    let theirs = key.rsa().unwrap();
    let n = key.verifying_key().modulus_value();
    let count = 2 * BLINDING_USES as usize + 6;
    let messages: Vec<String> = (0..count).map(|i| format!("amount:{i};currency:EUR1700000000")).collect();
    take_observed();
    for (i, message) in messages.iter().enumerate() {
        let ours = decode_base64url(&sign_message(message, &key, Digest::Single).unwrap()).unwrap();
        let expected = theirs.sign(Pkcs1v15Sign::new::<Sha256>(), &signed_digest(message, Digest::Single)).unwrap();
        assert_eq!(ours, expected, "signature {i}");
    }
    let factors = blinding_factors(&key, &messages, &take_observed());
    let mut renewals = 0;
    for i in 1..count {
        let squared = (&factors[i - 1] * &factors[i - 1]) % n;
        if i % BLINDING_USES as usize == 0 {
            assert_ne!(factors[i], squared, "signature {i} should use a fresh r");
            renewals += 1;
        } else {
            assert_eq!(factors[i], squared, "signature {i} should square the pair of signature {}", i - 1);
        }
    }
    assert_eq!(renewals, 2);
    let distinct: std::collections::HashSet<&BigUint> = factors.iter().collect();
    assert_eq!(distinct.len(), count, "two signatures blinded with the same factor");
}

/// A thread that panics while it holds the key's blinding lock poisons it;
/// the next signature still signs (and right), with a fresh pair rather
/// than the one the lock held, and leaves the lock unpoisoned.
#[test]
fn a_poisoned_blinding_lock_makes_a_fresh_pair() {
    let key = vector_key("rsa2048");
    let n = key.verifying_key().modulus_value();
    let messages: Vec<String> = (0..4).map(|i| format!("amount:{i};currency:EUR1700000000")).collect();
    take_observed();
    let before: Vec<String> = messages[..2].iter().map(|m| sign_message(m, &key, Digest::Single).unwrap()).collect();
    let lock = key.crt().unwrap().blinding_lock();
    std::thread::scope(|scope| {
        let poisoner = scope.spawn(|| {
            let _slot = lock.lock();
            panic!("poisoning the blinding lock on purpose");
        });
        assert!(poisoner.join().is_err());
    });
    assert!(lock.is_poisoned());
    let after: Vec<String> = messages[2..].iter().map(|m| sign_message(m, &key, Digest::Single).unwrap()).collect();
    assert!(!lock.is_poisoned(), "the lock stayed poisoned");
    let public = key.verifying_key();
    for (message, signature) in messages.iter().zip(before.iter().chain(&after)) {
        assert!(verify_message(message, signature, public, Digest::Single).is_ok());
    }
    let factors = blinding_factors(&key, &messages, &take_observed());
    assert_eq!(factors[1], (&factors[0] * &factors[0]) % n, "the second signature squares the first pair");
    assert_ne!(factors[2], (&factors[1] * &factors[1]) % n, "after the poisoned lock, a fresh pair");
    assert_eq!(factors[3], (&factors[2] * &factors[2]) % n, "and that fresh pair is then squared");
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
    let result = sign_message(message, &key, Digest::Single);
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
    assert_eq!(&gcd(difference, n.clone()), &key.rsa().unwrap().primes()[1], "the fault was in the p half");
    // And without the fault, the same path signs.
    assert!(sign_message(message, &key, Digest::Single).is_ok());
}

#[test]
fn the_double_digest_signs_the_digest_of_the_digest_and_opens_to_it() {
    let key = vector_key("rsa2048");
    let public = key.verifying_key();
    let message = "YToxMg1700000000";
    for digest in [Digest::Single, Digest::Double] {
        let signature = sign_message(message, &key, digest).unwrap();
        let bytes = decode_signature(&signature, public).unwrap();
        assert!(verify_signature_bytes(message, &bytes, public, digest).is_ok());
        let other = if digest == Digest::Single { Digest::Double } else { Digest::Single };
        assert!(verify_signature_bytes(message, &bytes, public, other).is_err());
        assert_eq!(open_signature(&bytes, public).unwrap(), Opened::Sha256(signed_digest(message, digest)));
    }
    let double: [u8; 32] = Sha256::digest(Sha256::digest(message.as_bytes())).into();
    assert_eq!(signed_digest(message, Digest::Double), double);
    assert_eq!(native_input(message, Digest::Double), Sha256::digest(message.as_bytes()).to_vec());
    assert_eq!(native_input(message, Digest::Single), message.as_bytes());
    // Another key's signature does not open to an encoding under this one.
    let other = vector_key("rsa3072");
    let foreign = decode_base64url(&sign_message(message, &other, Digest::Single).unwrap()).unwrap();
    let mut cut = foreign[..public.signature_len()].to_vec();
    cut[0] = 0;
    assert_eq!(open_signature(&cut, public).unwrap(), Opened::NotThisKey);
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
