//! Hazardous material: the raw RSA arithmetic of signing and verifying, in
//! 32-bit limbs (wasm32 multiplies 32 x 32 -> 64 bits natively): Montgomery
//! multiplication (CIOS) with parameters computed once per key,
//! exponentiation by a small public exponent (65537: 16 squarings and 1
//! multiply), and a constant-time fixed-window exponentiation for the private
//! CRT halves. No padding, no blinding, no checks: `super::pkcs1v15` does the
//! encoding, blinding and fault check around these.
//!
//! Crate-private, and only `rsa/` uses it. [`CrtKey`] and [`Modulus`] keep
//! their (secret) fields private and wipe them on drop.
//!
//! Constant time, function by function (the whole picture is in `super`'s
//! docs and SECURITY.md):
//! - [`Modulus::pow_secret`], `mul_into` and `select`: constant time in the
//!   source (same operations and addresses for every exponent and base);
//! - [`CrtKey::pow_d`]: its two exponentiations are `pow_secret`; the
//!   reductions and the recombination around them are `num-bigint-dig`'s and
//!   are not constant time (they run on blinded values);
//! - [`CrtKey::new`], [`Modulus::new`], [`limbs`], [`limbs_from_be`],
//!   [`be_from_limbs`]: not constant time (once per key, or public values);
//! - [`Modulus::pow_public`], [`less_than`]: variable time, for public values only.

use rsa::BigUint;
use zeroize::Zeroize;

/// Little-endian 32-bit limbs of `value`, exactly `len` of them (`value` must fit).
pub(crate) fn limbs(value: &BigUint, len: usize) -> Vec<u32> {
    let bytes = value.to_bytes_le();
    let mut out = vec![0u32; len];
    for (i, chunk) in bytes.chunks(4).enumerate().take(len) {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        out[i] = u32::from_le_bytes(word);
    }
    out
}

/// The number held in little-endian limbs.
pub(crate) fn from_limbs(limbs: &[u32]) -> BigUint {
    BigUint::from_slice(limbs)
}

/// Little-endian limbs of big-endian bytes, exactly `len` of them, or `None` when they do not fit.
pub(crate) fn limbs_from_be(bytes: &[u8], len: usize) -> Option<Vec<u32>> {
    let mut out = vec![0u32; len];
    for (i, &byte) in bytes.iter().rev().enumerate() {
        if i / 4 >= len {
            if byte != 0 {
                return None;
            }
            continue;
        }
        out[i / 4] |= u32::from(byte) << (8 * (i % 4));
    }
    Some(out)
}

/// Big-endian bytes of little-endian limbs, exactly `size` of them (higher bytes must be zero).
pub(crate) fn be_from_limbs(limbs: &[u32], size: usize) -> Vec<u8> {
    let mut out = vec![0u8; size];
    for (i, byte) in out.iter_mut().rev().enumerate() {
        if let Some(limb) = limbs.get(i / 4) {
            *byte = (limb >> (8 * (i % 4))) as u8;
        }
    }
    out
}

/// `a < b` for limbs of the same length (variable time: for public values).
pub(crate) fn less_than(a: &[u32], b: &[u32]) -> bool {
    for (x, y) in a.iter().rev().zip(b.iter().rev()) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// The private key in CRT form, prepared for [`Modulus::pow_secret`].
#[derive(Clone)]
pub(crate) struct CrtKey {
    /// p and q with their Montgomery constants.
    p: Modulus,
    q: Modulus,
    /// d mod (p - 1) and d mod (q - 1), in as many limbs as p and q.
    dp: Vec<u32>,
    dq: Vec<u32>,
    /// q^-1 mod p.
    qinv: BigUint,
    /// p and q as numbers, for the reductions and the recombination.
    p_value: BigUint,
    q_value: BigUint,
}

impl Drop for CrtKey {
    fn drop(&mut self) {
        self.dp.zeroize();
        self.dq.zeroize();
        self.qinv.zeroize();
        self.p_value.zeroize();
        self.q_value.zeroize();
    }
}

impl CrtKey {
    /// From two primes, the private exponent's CRT halves and q^-1 mod p.
    pub(crate) fn new(p: &BigUint, q: &BigUint, dp: &BigUint, dq: &BigUint, qinv: &BigUint) -> Option<CrtKey> {
        let p_mod = Modulus::new(p)?;
        let q_mod = Modulus::new(q)?;
        if dp.bits() > 32 * p_mod.limb_count() || dq.bits() > 32 * q_mod.limb_count() {
            return None;
        }
        Some(CrtKey {
            dp: limbs(dp, p_mod.limb_count()),
            dq: limbs(dq, q_mod.limb_count()),
            p: p_mod,
            q: q_mod,
            qinv: qinv.clone(),
            p_value: p.clone(),
            q_value: q.clone(),
        })
    }

    /// `c^d mod pq` by the CRT, each half in constant time. `c` should be blinded.
    pub(crate) fn pow_d(&self, c: &BigUint) -> BigUint {
        let m1 = from_limbs(&self.p.pow_secret(&limbs(&(c % &self.p_value), self.p.limb_count()), &self.dp));
        let m2 = from_limbs(&self.q.pow_secret(&limbs(&(c % &self.q_value), self.q.limb_count()), &self.dq));
        #[cfg(test)]
        let m1 = seams::fault_in_p_half(m1);
        // h = qinv * (m1 - m2) mod p; result = m2 + h * q.
        let m2_mod_p = &m2 % &self.p_value;
        let difference = (&m1 + &self.p_value - m2_mod_p) % &self.p_value;
        let h = (&self.qinv * difference) % &self.p_value;
        m2 + h * &self.q_value
    }
}

/// An odd modulus with its Montgomery constants (R = 2^(32 * len)).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Modulus {
    n: Vec<u32>,
    /// -n^-1 mod 2^32.
    n0inv: u32,
    /// R^2 mod n: multiplying by it enters the Montgomery domain.
    rr: Vec<u32>,
    /// R mod n: 1 in the Montgomery domain.
    one: Vec<u32>,
}

impl std::fmt::Debug for Modulus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Modulus").field("limbs", &self.n.len()).finish_non_exhaustive()
    }
}

impl Drop for Modulus {
    fn drop(&mut self) {
        // The moduli of private CRT halves are the secret primes.
        self.n.zeroize();
        self.rr.zeroize();
        self.one.zeroize();
    }
}

impl Modulus {
    /// `None` unless `n` is odd and greater than 1.
    pub(crate) fn new(n: &BigUint) -> Option<Modulus> {
        let len = n.bits().div_ceil(32);
        let limbs_n = limbs(n, len);
        if len == 0 || limbs_n[0] & 1 == 0 || *n <= BigUint::from(1u32) {
            return None;
        }
        // Newton's iteration doubles the correct low bits each step: 1, 2, 4, ... 32.
        let mut inv: u32 = 1;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(limbs_n[0].wrapping_mul(inv)));
        }
        let r = BigUint::from(1u32) << (32 * len);
        let one = limbs(&(&r % n), len);
        let rr = limbs(&((&r * &r) % n), len);
        Some(Modulus { n: limbs_n, n0inv: inv.wrapping_neg(), rr, one })
    }

    /// Number of limbs.
    pub(crate) fn limb_count(&self) -> usize {
        self.n.len()
    }

    /// `a * b / R mod n` into `out`, for `a, b < n`. `t` is scratch of `len + 2` limbs.
    /// Its running time does not depend on the values. One pass per limb of `a`
    /// adds `a[i] * b` and `m * n` together (m makes the low limb zero) and shifts
    /// down a limb: two carries, one load of each of t, b and n, one store.
    fn mul_into(&self, a: &[u32], b: &[u32], out: &mut [u32], t: &mut [u32]) {
        let s = self.n.len();
        let n = &self.n[..s];
        let b = &b[..s];
        let a = &a[..s];
        let out = &mut out[..s];
        let t = &mut t[..s + 1];
        let n0inv = self.n0inv;
        #[cfg(test)]
        seams::count_multiplication();
        t.fill(0);
        for &ai in a {
            let ai = u64::from(ai);
            let x = u64::from(t[0]) + ai * u64::from(b[0]);
            let m = u64::from((x as u32).wrapping_mul(n0inv));
            let y = u64::from(x as u32) + m * u64::from(n[0]);
            let mut c1 = x >> 32;
            let mut c2 = y >> 32;
            for j in 1..s {
                let x = u64::from(t[j]) + ai * u64::from(b[j]) + c1;
                c1 = x >> 32;
                let y = u64::from(x as u32) + m * u64::from(n[j]) + c2;
                c2 = y >> 32;
                t[j - 1] = y as u32;
            }
            let x = u64::from(t[s]) + c1 + c2;
            t[s - 1] = x as u32;
            t[s] = (x >> 32) as u32;
        }
        // t < 2n: subtract n when t >= n, choosing by mask rather than by branch.
        let mut borrow = 0u64;
        for j in 0..s {
            let x = u64::from(t[j]).wrapping_sub(u64::from(n[j])).wrapping_sub(borrow);
            out[j] = x as u32;
            borrow = (x >> 63) & 1;
        }
        // Keep t when it was below n: no top limb and a borrow out of the subtraction.
        let keep_t = u32::from(t[s] == 0) & (borrow as u32);
        let mask = keep_t.wrapping_neg();
        for j in 0..s {
            out[j] = (t[j] & mask) | (out[j] & !mask);
        }
    }

    fn mul(&self, a: &[u32], b: &[u32], t: &mut [u32]) -> Vec<u32> {
        let mut out = vec![0u32; self.n.len()];
        self.mul_into(a, b, &mut out, t);
        out
    }

    fn scratch(&self) -> Vec<u32> {
        vec![0u32; self.n.len() + 2]
    }

    /// `base^e mod n` for a public exponent (its bits are not secret): square
    /// and multiply, so 65537 takes 16 squarings and one multiplication.
    /// `base` must be below n.
    pub(crate) fn pow_public(&self, base: &[u32], e: u32) -> Vec<u32> {
        let mut t = self.scratch();
        let base_m = self.mul(base, &self.rr, &mut t);
        let mut acc = base_m.clone();
        let mut tmp = vec![0u32; self.n.len()];
        let top = 31 - e.leading_zeros();
        for bit in (0..top).rev() {
            self.mul_into(&acc, &acc, &mut tmp, &mut t);
            std::mem::swap(&mut acc, &mut tmp);
            if (e >> bit) & 1 == 1 {
                self.mul_into(&acc, &base_m, &mut tmp, &mut t);
                std::mem::swap(&mut acc, &mut tmp);
            }
        }
        let mut unit = vec![0u32; self.n.len()];
        unit[0] = 1;
        self.mul(&acc, &unit, &mut t)
    }

    /// `base^exp mod n` for a secret exponent, in constant time: fixed 4-bit
    /// windows over every limb of `exp` (leading zeros included), and each
    /// table entry read by scanning the whole table with masks.
    pub(crate) fn pow_secret(&self, base: &[u32], exp: &[u32]) -> Vec<u32> {
        const WINDOW: usize = 4;
        let s = self.n.len();
        let mut t = self.scratch();
        // table[i] = base^i in the Montgomery domain.
        let mut table: Vec<Vec<u32>> = Vec::with_capacity(1 << WINDOW);
        table.push(self.one.clone());
        table.push(self.mul(base, &self.rr, &mut t));
        for i in 2..(1 << WINDOW) {
            let next = self.mul(&table[i - 1], &table[1], &mut t);
            table.push(next);
        }
        let mut acc = self.one.clone();
        let mut tmp = vec![0u32; s];
        let mut entry = vec![0u32; s];
        for limb in exp.iter().rev() {
            for shift in (0..32 / WINDOW).rev() {
                for _ in 0..WINDOW {
                    self.mul_into(&acc, &acc, &mut tmp, &mut t);
                    std::mem::swap(&mut acc, &mut tmp);
                }
                let index = (limb >> (shift * WINDOW)) & ((1 << WINDOW) - 1);
                select(&table, index, &mut entry);
                self.mul_into(&acc, &entry, &mut tmp, &mut t);
                std::mem::swap(&mut acc, &mut tmp);
            }
        }
        let mut unit = vec![0u32; s];
        unit[0] = 1;
        let out = self.mul(&acc, &unit, &mut t);
        for row in &mut table {
            row.zeroize();
        }
        acc.zeroize();
        tmp.zeroize();
        entry.zeroize();
        out
    }
}

/// Test-only seams: a count of Montgomery multiplications, and a fault in the
/// p half of the CRT (as a glitch or a bit flip would make), per thread.
#[cfg(test)]
pub(crate) mod seams {
    use rsa::BigUint;
    use std::cell::Cell;

    thread_local! {
        static MULTIPLICATIONS: Cell<u64> = const { Cell::new(0) };
        static FAULT_IN_P_HALF: Cell<bool> = const { Cell::new(false) };
    }

    pub fn count_multiplication() {
        MULTIPLICATIONS.with(|count| count.set(count.get() + 1));
    }

    /// Montgomery multiplications on this thread so far.
    pub fn multiplications() -> u64 {
        MULTIPLICATIONS.with(Cell::get)
    }

    /// While set, `CrtKey::pow_d` adds 1 to its p half (wrong mod p, right mod q).
    pub fn set_fault_in_p_half(on: bool) {
        FAULT_IN_P_HALF.with(|fault| fault.set(on));
    }

    pub fn fault_in_p_half(m1: BigUint) -> BigUint {
        if FAULT_IN_P_HALF.with(Cell::get) {
            m1 + 1u32
        } else {
            m1
        }
    }
}

/// `out = table[index]`, reading every entry (no secret-dependent address).
fn select(table: &[Vec<u32>], index: u32, out: &mut [u32]) {
    out.fill(0);
    for (i, row) in table.iter().enumerate() {
        // All ones when i == index, else zero, without a comparison branch.
        let diff = (i as u32) ^ index;
        let mask = (u32::from(diff == 0)).wrapping_neg();
        let mask = std::hint::black_box(mask);
        let row = &row[..out.len()];
        for j in 0..out.len() {
            out[j] |= row[j] & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(text: &str) -> BigUint {
        BigUint::parse_bytes(text.as_bytes(), 10).unwrap()
    }

    #[test]
    fn limbs_round_trip() {
        let x = big("340282366920938463463374607431768211457");
        assert_eq!(from_limbs(&limbs(&x, 5)), x);
        assert_eq!(limbs(&BigUint::from(7u32), 3), vec![7, 0, 0]);
    }

    #[test]
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
    #[test]
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
        for base in ["0", "1", "2", "1361129467683753853853498429727072845818"] {
            let b = big(base);
            for exp in &exponents {
                let before = seams::multiplications();
                let out = m.pow_secret(&limbs(&b, len), exp);
                assert_eq!(seams::multiplications() - before, expected, "base {base}, exponent {exp:x?}");
                assert_eq!(from_limbs(&out), b.modpow(&from_limbs(exp), &n), "base {base}, exponent {exp:x?}");
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

    #[test]
    fn even_or_tiny_moduli_are_refused() {
        assert!(Modulus::new(&BigUint::from(10u32)).is_none());
        assert!(Modulus::new(&BigUint::from(1u32)).is_none());
        assert!(Modulus::new(&BigUint::from(0u32)).is_none());
    }
}
