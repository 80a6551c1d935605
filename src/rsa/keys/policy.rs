//! What refuses a well-formed key: the size and exponent policy (2048 to 4096
//! bits, an odd exponent from 3 to 2^32 - 1), and the consistency of a private
//! key's parts (the checks `rsa` makes, and the DER's CRT values).

#[cfg(feature = "wasm-rsa")]
use rsa::{BigUint, RsaPublicKey};
#[cfg(feature = "wasm-rsa")]
use zeroize::Zeroize;

#[cfg(feature = "wasm-rsa")]
use super::encoding::secret_int;
#[cfg(feature = "wasm-rsa")]
use super::labels::invalid;
use crate::error::{Error, Result};

/// Smallest accepted modulus, in bits.
pub const MIN_BITS: usize = 2048;
/// Largest accepted modulus, in bits.
pub const MAX_BITS: usize = 4096;

/// The checks `rsa` makes of a private key (n = pq, de = 1 mod p - 1 and mod
/// q - 1), and that the DER's CRT values are the ones these imply (dp = d mod
/// p - 1, dq = d mod q - 1, q * qinv = 1 mod p with qinv < p): node:crypto signs
/// with the DER's own. Only two-prime keys are read (our CRT; `rsa` signs
/// others in variable time). Returns the public half. (Without the `wasm-rsa` feature
/// there are no big integers to check them with: WebCrypto checks the key as it imports it.)
#[cfg(feature = "wasm-rsa")]
pub(super) fn check_private(fields: &rsa::pkcs1::RsaPrivateKey<'_>) -> Result<RsaPublicKey> {
    if fields.other_prime_infos.is_some() {
        return Err(invalid("keys of more than two primes are not supported".into()));
    }
    let n = secret_int(fields.modulus);
    let e = secret_int(fields.public_exponent);
    let mut secrets =
        [fields.private_exponent, fields.prime1, fields.prime2, fields.exponent1, fields.exponent2, fields.coefficient]
            .map(secret_int);
    let [d, p, q, dp, dq, qinv] = &secrets;
    let one = BigUint::from(1u32);
    let reason = if *p <= one || *q <= one || p * q != n {
        Some("its primes do not multiply to its modulus")
    } else {
        let mut p1 = p - &one;
        let mut q1 = q - &one;
        let mut de = d * &e;
        let mut q_qinv = q * qinv;
        let mut checks = [&de % &p1, &de % &q1, d % &p1, d % &q1, &q_qinv % p];
        let reason = if checks[0] != one || checks[1] != one {
            Some("its private exponent does not match its public exponent")
        } else if checks[2] != *dp || checks[3] != *dq || checks[4] != one || qinv >= p {
            Some("its CRT exponents or coefficient do not match its primes")
        } else {
            None
        };
        for value in checks.iter_mut().chain([&mut p1, &mut q1, &mut de, &mut q_qinv]) {
            value.zeroize();
        }
        reason
    };
    secrets.iter_mut().for_each(Zeroize::zeroize);
    match reason {
        Some(reason) => Err(invalid(format!("the key is inconsistent: {reason}"))),
        None => RsaPublicKey::new(n, e).map_err(|e| invalid(e.to_string())),
    }
}

/// Our key policy, on the big-endian modulus and exponent: 2048 to 4096 bits,
/// and an odd exponent from 3 to 2^32 - 1 (65537 in practice).
pub(super) fn check_policy(modulus: &[u8], exponent: &[u8]) -> Result<()> {
    let bits = big_endian_bits(modulus);
    if !(MIN_BITS..=MAX_BITS).contains(&bits) {
        return Err(Error::KeySizeUnsupported { bits, min_bits: MIN_BITS, max_bits: MAX_BITS });
    }
    let significant: Vec<u8> = exponent.iter().copied().skip_while(|b| *b == 0).collect();
    let value = (significant.len() <= 4).then(|| significant.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)));
    match value {
        Some(e) if e >= 3 && e % 2 == 1 => Ok(()),
        _ => Err(Error::KeyExponentUnsupported { exponent: exponent_text(exponent) }),
    }
}

/// A refused exponent as the error shows it: decimal.
#[cfg(feature = "wasm-rsa")]
fn exponent_text(exponent: &[u8]) -> String {
    BigUint::from_bytes_be(exponent).to_string()
}

/// A refused exponent as the error shows it: decimal up to 128 bits, else hexadecimal
/// (there is no big integer in a build without the `wasm-rsa` feature).
#[cfg(not(feature = "wasm-rsa"))]
fn exponent_text(exponent: &[u8]) -> String {
    let significant: Vec<u8> = exponent.iter().copied().skip_while(|b| *b == 0).collect();
    if significant.len() <= 16 {
        return significant.iter().fold(0u128, |acc, b| (acc << 8) | u128::from(*b)).to_string();
    }
    significant.iter().fold(String::from("0x"), |text, b| text + &format!("{b:02x}"))
}

fn big_endian_bits(bytes: &[u8]) -> usize {
    let significant: Vec<&u8> = bytes.iter().skip_while(|b| **b == 0).collect();
    match significant.first() {
        Some(first) => (significant.len() - 1) * 8 + (8 - first.leading_zeros() as usize),
        None => 0,
    }
}

// Signing and the `rsa` crate's keys: with the `wasm-rsa` feature only.
#[cfg(all(test, feature = "wasm-rsa"))]
mod tests {
    use rsa::pkcs1::UintRef;
    use rsa::pkcs8::der::{pem, Document, Encode};
    use rsa::pkcs8::LineEnding;

    use super::super::SigningKey;
    use super::*;

    /// A PEM whose every part is well formed but one is changed is refused: the
    /// checks `rsa` made (n = pq, de = 1) and the DER's CRT values node:crypto uses.
    #[test]
    fn an_inconsistent_private_key_is_refused() {
        let path = format!("{}/tests/vectors/keys/rsa2048.pkcs1.pem", env!("CARGO_MANIFEST_DIR"));
        let (_, der) = Document::from_pem(&std::fs::read_to_string(path).unwrap()).unwrap();
        let good = rsa::pkcs1::RsaPrivateKey::try_from(der.as_bytes()).unwrap();
        // The same integer plus 2 (still odd when it was odd; the last byte is never 0xfe or 0xff here).
        let plus_two = |part: UintRef<'_>| {
            let mut bytes = part.as_bytes().to_vec();
            let last = bytes.len() - 1;
            bytes[last] = bytes[last].checked_add(2).unwrap();
            bytes
        };
        let pem_of = |key: &rsa::pkcs1::RsaPrivateKey<'_>| {
            pem::encode_string("RSA PRIVATE KEY", LineEnding::LF, &key.to_der().unwrap()).unwrap()
        };
        assert!(SigningKey::from_pem(&pem_of(&good)).is_ok(), "the unchanged key is read");
        for (name, expected) in
            [("d", "private exponent"), ("p", "primes"), ("dp", "CRT"), ("dq", "CRT"), ("qinv", "CRT")]
        {
            let mut key = good.clone();
            let field = match name {
                "d" => &mut key.private_exponent,
                "p" => &mut key.prime1,
                "dp" => &mut key.exponent1,
                "dq" => &mut key.exponent2,
                _ => &mut key.coefficient,
            };
            let changed = plus_two(*field);
            *field = UintRef::new(&changed).unwrap();
            match SigningKey::from_pem(&pem_of(&key)) {
                Err(Error::InvalidKey { reason }) => assert!(reason.contains(expected), "{name}: {reason}"),
                other => panic!("{name}: {other:?}"),
            }
        }
    }

    #[test]
    fn policy_bounds() {
        let modulus = |bits: usize| {
            let mut m = vec![0u8; bits.div_ceil(8)];
            m[0] = 1 << ((bits - 1) % 8);
            m
        };
        assert!(check_policy(&modulus(2048), &[1, 0, 1]).is_ok());
        assert!(check_policy(&modulus(4096), &[3]).is_ok());
        assert_eq!(check_policy(&modulus(2047), &[1, 0, 1]).unwrap_err().code(), "KEY_SIZE_UNSUPPORTED");
        assert_eq!(check_policy(&modulus(4097), &[1, 0, 1]).unwrap_err().code(), "KEY_SIZE_UNSUPPORTED");
        for exponent in [&[1u8][..], &[2], &[0, 0, 1, 0, 0], &[1, 0, 0, 0, 1]] {
            assert_eq!(check_policy(&modulus(2048), exponent).unwrap_err().code(), "KEY_EXPONENT_UNSUPPORTED");
        }
        assert!(check_policy(&modulus(2048), &[0, 0xff, 0xff, 0xff, 0xff]).is_ok());
    }
}
