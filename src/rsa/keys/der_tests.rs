//! The unit tests of `der.rs`: malformed input refused (never a panic), in every build;
//! with the `wasm-rsa` feature, its reading and writing equal to the `rsa` crate's on
//! the vector keys.

use super::*;

fn vector(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/vectors/keys/{name}.pem", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

const NAMES: [&str; 4] = ["rsa2048", "rsa3072", "rsa4096", "attacker2048"];

#[test]
fn vector_keys_read_in_every_form_to_the_same_numbers() {
    for name in NAMES {
        let public_pem = vector(&format!("{name}.public"));
        let (label, spki_der) = pem_decode(public_pem.trim()).unwrap();
        assert_eq!(label, "PUBLIC KEY");
        let (oid, key) = spki(&spki_der).unwrap();
        assert_eq!(oid, RSA_ENCRYPTION);
        let public = rsa_public(key).unwrap();
        assert_eq!(public.e, [1, 0, 1]);
        assert_eq!(spki_of(&public), *spki_der, "{name}: SubjectPublicKeyInfo written back");
        let (_, pkcs1_public) = pem_decode(vector(&format!("{name}.public.pkcs1")).trim()).unwrap();
        assert_eq!(rsa_public(&pkcs1_public).unwrap(), public);
        let (_, pkcs1) = pem_decode(vector(&format!("{name}.pkcs1")).trim()).unwrap();
        assert_eq!(rsa_private(&pkcs1).unwrap(), public);
        let pkcs8_pem = vector(&format!("{name}.pkcs8"));
        let (label, pkcs8_der) = pem_decode(pkcs8_pem.trim()).unwrap();
        assert_eq!(label, "PRIVATE KEY");
        let (oid, inner) = pkcs8(&pkcs8_der).unwrap();
        assert_eq!((oid, inner), (&RSA_ENCRYPTION[..], &pkcs1[..]));
        assert_eq!(*pkcs8_of(&pkcs1), *pkcs8_der, "{name}: PKCS#8 written back");
        assert_eq!(pem_of("PRIVATE KEY", &pkcs8_der).as_str(), vector(&format!("{name}.pkcs8")), "{name}: PEM");
    }
}

#[test]
fn malformed_der_is_refused_without_a_panic() {
    let (_, spki_der) = pem_decode(vector("rsa2048.public").trim()).unwrap();
    let (_, pkcs1) = pem_decode(vector("rsa2048.pkcs1").trim()).unwrap();
    let (_, pkcs8_der) = pem_decode(vector("rsa2048.pkcs8").trim()).unwrap();
    let public_refused = |der: &[u8]| spki(der).and_then(|(_, key)| rsa_public(key)).is_err();
    // Every truncation, every byte flipped: refused or read, never a panic.
    for der in [&spki_der[..], &pkcs1[..], &pkcs8_der[..]] {
        for len in 0..der.len() {
            assert!(public_refused(&der[..len]) && rsa_private(&der[..len]).is_err() && pkcs8(&der[..len]).is_err());
        }
        for at in 0..der.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = der.to_vec();
                bad[at] ^= flip;
                let _ = (spki(&bad).map(|(_, key)| rsa_public(key)), rsa_private(&bad), pkcs8(&bad), rsa_public(&bad));
            }
        }
    }
    let cases: [&[u8]; 12] = [
        &[],
        &[0x30],
        &[0x30, 0x80, 0x00, 0x00],                               // indefinite length
        &[0x30, 0x81, 0x05, 1, 2, 3, 4, 5],                      // length not minimal
        &[0x30, 0x82, 0x00, 0x85],                               // length with a leading zero
        &[0x30, 0x83, 0x01, 0x00, 0x00],                         // three length bytes
        &[0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x03],       // negative modulus
        &[0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x03], // integer not minimal
        &[0x30, 0x05, 0x02, 0x00, 0x02, 0x01, 0x03],             // empty integer
        &[0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03, 0x00], // trailing byte outside
        &[0x31, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03],       // a SET, not a SEQUENCE
        &[0x30, 0x09, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03, 0x02, 0x01, 0x01], // a third integer
    ];
    for der in cases {
        assert!(rsa_public(der).is_err(), "{der:02x?}");
    }
    assert_eq!(
        rsa_public(&[0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03]).unwrap(),
        PublicNumbers { n: vec![5], e: vec![3] }
    );
    // A document larger than any key is refused before it is read.
    let mut large = vec![0x30, 0x82, 0x48, 0x00];
    large.resize(4 + 0x4800, 0);
    assert_eq!(rsa_public(&large).unwrap_err().code(), "INVALID_KEY");
    // A multi-prime key (version 1) is named.
    let mut multi = pkcs1.to_vec();
    let version_at = 4; // 30 82 xx xx 02 01 00
    assert_eq!(&multi[version_at..version_at + 3], &[0x02, 0x01, 0x00]);
    multi[version_at + 2] = 1;
    assert!(rsa_private(&multi).unwrap_err().to_string().contains("more than two primes"));
}

#[test]
fn malformed_pem_is_refused() {
    let good = vector("rsa2048.public");
    let good = good.trim();
    assert!(pem_decode(good).is_ok());
    let crlf = good.replace('\n', "\r\n");
    assert_eq!(pem_decode(&crlf).unwrap().1, pem_decode(good).unwrap().1);
    let wrong_end = good.replace("END PUBLIC KEY", "END PRIVATE KEY");
    let no_padding = good.replace("IDAQAB", "IDAQA");
    let twice = format!("{good}\n{good}");
    let header = good.replace("-----\nMII", "-----\nProc-Type: 4,ENCRYPTED\nMII");
    let bad_base64 = good.replacen('A', "*", 1);
    for bad in [wrong_end.as_str(), &no_padding, &twice, &header, &bad_base64, "-----BEGIN X", "", &good[1..]] {
        assert_eq!(pem_decode(bad).map(|_| ()).unwrap_err().code(), "INVALID_KEY", "{bad}");
    }
    let huge = format!("-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----", "A".repeat(MAX_PEM_BYTES));
    assert!(pem_decode(&huge).is_err());
}

#[test]
fn oid_texts() {
    assert_eq!(oid_text(&RSA_ENCRYPTION).as_deref(), Some("1.2.840.113549.1.1.1"));
    assert_eq!(oid_text(&[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]).as_deref(), Some("1.2.840.10045.2.1"));
    assert_eq!(oid_text(&[0x2b, 0x65, 0x70]).as_deref(), Some("1.3.101.112"));
    assert_eq!(oid_text(&[0x2b, 0x86]), None, "ends inside an arc");
    assert_eq!(oid_text(&[0x2b, 0x80, 0x01]), None, "an arc not minimally encoded");
    assert_eq!(oid_text(&[]), None);
}

/// Equal to the `rsa` crate's reading and writing (it is there only with `wasm-rsa`).
#[cfg(feature = "wasm-rsa")]
#[test]
fn equal_to_the_rsa_crate() {
    use rsa::pkcs1::DecodeRsaPrivateKey;
    use rsa::pkcs8::{DecodePublicKey, EncodePublicKey, LineEnding};
    use rsa::traits::PublicKeyParts;
    for name in NAMES {
        let key = rsa::RsaPublicKey::from_public_key_pem(&vector(&format!("{name}.public"))).unwrap();
        let (_, der) = pem_decode(vector(&format!("{name}.public")).trim()).unwrap();
        let (_, inner) = spki(&der).unwrap();
        let numbers = rsa_public(inner).unwrap();
        assert_eq!((numbers.n.clone(), numbers.e.clone()), (key.n().to_bytes_be(), key.e().to_bytes_be()));
        assert_eq!(spki_of(&numbers), key.to_public_key_der().unwrap().as_bytes());
        assert_eq!(pem_of("PUBLIC KEY", &spki_of(&numbers)).as_str(), key.to_public_key_pem(LineEnding::LF).unwrap());
        let private = rsa::RsaPrivateKey::from_pkcs1_pem(&vector(&format!("{name}.pkcs1"))).unwrap();
        assert_eq!(private.n().to_bytes_be(), numbers.n);
    }
    // A small exponent (3) and a modulus whose top bit is clear are written as `rsa` writes them.
    let n = [&[0x7fu8][..], &[0xab; 255]].concat();
    let numbers = PublicNumbers { n: n.clone(), e: vec![3] };
    let theirs = rsa::RsaPublicKey::new_unchecked(rsa::BigUint::from_bytes_be(&n), rsa::BigUint::from(3u32));
    assert_eq!(spki_of(&numbers), theirs.to_public_key_der().unwrap().as_bytes());
}
