//! Unit tests of the arithmetic: the exponentiations against `BigUint::modpow`,
//! the count of Montgomery products of `pow_secret` whatever the exponent, the
//! 28-bit path against the 32-bit one, the squaring against the product, and
//! the blinding pair's products.

use rsa::BigUint;

use super::blinding::Blinding;
use super::limbs::{from_limbs, limbs};
use super::montgomery::Modulus;
use super::pow::select;
use super::seams;
use super::wide::{digits_of_limbs, limbs_of_digits, DIGIT, DIGIT_MASK};

fn big(text: &str) -> BigUint {
    BigUint::parse_bytes(text.as_bytes(), 10).unwrap()
}

#[test]
fn limbs_round_trip() {
    let x = big("340282366920938463463374607431768211457");
    assert_eq!(from_limbs(&limbs(&x, 5)), x);
    assert_eq!(limbs(&BigUint::from(7u32), 3), vec![7, 0, 0]);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn powers_match_biguint() {
    // A 130-bit odd modulus, and the same numbers through BigUint::modpow.
    let n = big("1361129467683753853853498429727072845819");
    let m = Modulus::new(&n).unwrap();
    for (base, e) in
        [("2", 65537u32), ("123456789012345678901234567890", 3), ("1361129467683753853853498429727072845818", 17)]
    {
        let b = big(base);
        let expect = b.modpow(&BigUint::from(e), &n);
        assert_eq!(from_limbs(&m.pow_public(&limbs(&b, m.limb_count()), e)), expect, "{base}^{e}");
        assert_eq!(from_limbs(&m.pow_secret(&limbs(&b, m.limb_count()), &[e])), expect, "{base}^{e} secret");
    }
    let e = big("987654321987654321987654321");
    let b = big("42");
    let expect = b.modpow(&e, &n);
    assert_eq!(from_limbs(&m.pow_secret(&limbs(&b, m.limb_count()), &limbs(&e, 3))), expect);
}

/// The claim behind "constant time" that a test can hold: `pow_secret` does the
/// same Montgomery multiplications whatever the exponent and base (no skipped
/// zero windows, no early exit on leading zeros). It cannot show that the
/// compiled code has no secret-dependent branch or address; see SECURITY.md.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn secret_exponentiation_multiplies_the_same_whatever_the_exponent() {
    let n = big("1361129467683753853853498429727072845819");
    let m = Modulus::new(&n).unwrap();
    let len = m.limb_count();
    // To the Montgomery domain, 14 more table entries, 8 windows of 4 squarings and
    // 1 multiplication per limb, and out of the Montgomery domain.
    let expected = 1 + 14 + (len as u64) * 8 * 5 + 1;
    let exponents: [Vec<u32>; 6] = [
        vec![0; len],
        vec![u32::MAX; len],
        vec![1, 0, 0, 0, 0],
        vec![0, 0, 0, 0, 1 << 31],
        vec![0x0f0f_0f0f, 0, 0xf000_0000, 0x1234_5678, 0],
        limbs(&big("987654321987654321987654321"), len),
    ];
    // The 28-bit path squares with `Wide::sqr_into`: the 4 squarings per
    // window are counted apart, the rest are multiplications as above.
    let wide_squarings = (len as u64) * 8 * 4;
    let wide_multiplications = expected - wide_squarings;
    let wide = m.wide().expect("a wide form");
    for base in ["0", "1", "2", "1361129467683753853853498429727072845818"] {
        let b = big(base);
        for exp in &exponents {
            let before = (seams::multiplications(), seams::squarings());
            let out = m.pow_secret_scalar(&limbs(&b, len), exp);
            assert_eq!(seams::multiplications() - before.0, expected, "base {base}, exponent {exp:x?}");
            assert_eq!(seams::squarings() - before.1, 0, "base {base}, exponent {exp:x?}");
            assert_eq!(from_limbs(&out), b.modpow(&from_limbs(exp), &n), "base {base}, exponent {exp:x?}");
            let before = (seams::multiplications(), seams::squarings());
            let out = m.pow_secret_wide(wide, &limbs(&b, len), exp);
            assert_eq!(
                seams::multiplications() - before.0,
                wide_multiplications,
                "wide, base {base}, exponent {exp:x?}"
            );
            assert_eq!(seams::squarings() - before.1, wide_squarings, "wide, base {base}, exponent {exp:x?}");
            assert_eq!(from_limbs(&out), b.modpow(&from_limbs(exp), &n), "wide, base {base}, exponent {exp:x?}");
            // pow_secret is one of the two, whichever this target uses.
            assert_eq!(from_limbs(&m.pow_secret(&limbs(&b, len), exp)), from_limbs(&out));
        }
    }
}

/// The masked table lookup returns the indexed row for every index.
#[test]
fn select_reads_the_indexed_row() {
    let table: Vec<Vec<u32>> = (0..16u32).map(|i| vec![i * 0x0101_0101, !i, i << 28]).collect();
    let mut out = vec![0xdead_beef; 3];
    for index in 0..16u32 {
        select(&table, index, &mut out);
        assert_eq!(out, table[index as usize], "index {index}");
    }
}

/// Odd numbers of `bytes` bytes with the top bit set, from a seed (not random, but varied).
fn sample(bytes: usize, seed: u32) -> BigUint {
    let mut x = seed.wrapping_mul(0x9e37_79b9) | 1;
    let mut out: Vec<u8> = (0..bytes)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    out[0] |= 0x80;
    out[bytes - 1] |= 1;
    BigUint::from_bytes_be(&out)
}

/// The 28-bit-digit path (SIMD128 in wasm, where this runs too; its portable
/// row natively) gives what the 32-bit path and `BigUint::modpow` give, at
/// the sizes RSA uses and at the edges (0, 1, n - 1, moduli just over a
/// digit boundary).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn wide_digits_match_the_scalar_loop() {
    for (bytes, seed) in [(17usize, 1u32), (64, 2), (128, 3), (128, 4), (256, 5), (384, 6), (385, 7)] {
        let n = sample(bytes, seed);
        let m = Modulus::new(&n).unwrap();
        let wide = m.wide().expect("a wide form up to 3,554 bits");
        let len = m.limb_count();
        let e = sample(bytes, seed + 100) % &n;
        for base in [BigUint::from(0u32), BigUint::from(1u32), &n - 1u32, sample(bytes, seed + 200) % &n] {
            let b = limbs(&base, len);
            let expect = base.modpow(&e, &n);
            assert_eq!(from_limbs(&m.pow_secret_wide(wide, &b, &limbs(&e, len))), expect, "{bytes} bytes");
            assert_eq!(m.pow_secret_scalar(&b, &limbs(&e, len)), m.pow_secret_wide(wide, &b, &limbs(&e, len)));
            let expect = base.modpow(&BigUint::from(65537u32), &n);
            assert_eq!(from_limbs(&m.pow_public_wide(wide, &b, 65537)), expect, "{bytes} bytes, 65537");
            assert_eq!(from_limbs(&m.pow_public(&b, 65537)), expect);
            // Another exponent than the one whose R^e the key keeps: the plain way.
            assert_eq!(from_limbs(&m.pow_public_wide(wide, &b, 3)), base.modpow(&BigUint::from(3u32), &n));
        }
    }
    // Over 3,554 bits the columns could overflow: no wide form, the scalar loop.
    assert!(Modulus::new(&sample(512, 8)).unwrap().wide().is_none());
    assert!(Modulus::new(&sample(444, 9)).unwrap().wide().is_some());
}

/// `Wide::sqr_into(a)` gives exactly the digits `Wide::mul_into(a, a)` gives
/// (SIMD128 in wasm, where this runs too; its portable row natively), for
/// values across the whole range below 2n (the inputs the exponentiations
/// pass: 0, 1, n - 1, 1.5n, 2n - 1, and varied values) at moduli
/// of several sizes, digit counts on both sides of a multiple of 4 among them.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn squaring_matches_multiplication() {
    let sizes = [
        (9usize, 21u32),
        (17, 22),
        (28, 23),
        (64, 24),
        (100, 25),
        (128, 26),
        (129, 27),
        (256, 28),
        (384, 29),
        (444, 30),
    ];
    for (bytes, seed) in sizes {
        let n = sample(bytes, seed);
        let m = Modulus::new(&n).unwrap();
        let wide = m.wide().expect("a wide form up to 3,554 bits");
        let len = wide.n.len();
        let mut values: Vec<BigUint> =
            vec![BigUint::from(0u32), BigUint::from(1u32), &n - 1u32, (&n << 1) - 1u32, &n + (&n >> 1usize)];
        values.extend((0..40).map(|k| (sample(bytes + 1, seed * 1000 + k)) % (&n << 1)));
        let mut t = wide.scratch();
        let mut product = vec![0u32; len];
        let mut square = vec![0u32; len];
        for value in &values {
            let mut value_limbs = limbs(value, m.limb_count() + 1);
            value_limbs.resize(len, 0);
            let digits = digits_of_limbs(&value_limbs, len);
            assert!(digits.iter().all(|&d| d <= DIGIT_MASK));
            wide.mul_into(&digits, &digits, &mut product, &mut t);
            square.fill(0xdead_beef);
            wide.sqr_into(&digits, &mut square, &mut t);
            assert_eq!(square, product, "{bytes} bytes, {value:x}");
            // And it is a^2 / R mod n, below 2n.
            let r = BigUint::from(1u32) << (DIGIT as usize * wide.digits);
            let got = from_limbs(&limbs_of_digits(&square, len));
            assert!(got < (&n << 1));
            assert_eq!((got * &r) % &n, (value * value) % &n, "{bytes} bytes");
        }
    }
}

/// A [`Blinding`] pair multiplies by its A and B, and squares them, as
/// `BigUint` does: at 2048 and 3072 bits (28-bit digits in wasm, where this
/// runs too) and 4096 bits (32-bit limbs everywhere), for plain values
/// across the range, 0 and n - 1 among them.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_blinding_pair_multiplies_and_squares_as_biguint_does() {
    for (bytes, seed) in [(256usize, 41u32), (384, 42), (512, 43)] {
        let n = sample(bytes, seed);
        let m = Modulus::new(&n).unwrap();
        let len = m.limb_count();
        let mut a = sample(bytes, seed + 1) % &n;
        let mut b = sample(bytes, seed + 2) % &n;
        let mut pair = Blinding::new(&m, &limbs(&a, len), &limbs(&b, len));
        for round in 0..4u32 {
            assert_eq!(pair.squarings(), round);
            let plain = [BigUint::from(0u32), BigUint::from(1u32), &n - 1u32, sample(bytes, seed + 10 + round) % &n];
            for x in &plain {
                let x_limbs = limbs(x, len);
                assert_eq!(from_limbs(&pair.blind(&m, &x_limbs)), (x * &a) % &n, "{bytes} bytes, round {round}");
                assert_eq!(from_limbs(&pair.unblind(&m, &x_limbs)), (x * &b) % &n, "{bytes} bytes, round {round}");
            }
            pair.square(&m);
            a = (&a * &a) % &n;
            b = (&b * &b) % &n;
        }
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn digits_round_trip() {
    let x = sample(128, 11);
    let l = limbs(&x, 32);
    assert_eq!(limbs_of_digits(&digits_of_limbs(&l, 40), 32), l);
}

#[test]
fn even_or_tiny_moduli_are_refused() {
    assert!(Modulus::new(&BigUint::from(10u32)).is_none());
    assert!(Modulus::new(&BigUint::from(1u32)).is_none());
    assert!(Modulus::new(&BigUint::from(0u32)).is_none());
}
