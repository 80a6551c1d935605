//! The 28-bit-digit form of a modulus ([`Wide`]), for wasm SIMD128: the
//! "almost Montgomery" product and squaring in lazy 64-bit columns (their row
//! kernels are in `simd`; the one masked subtraction that leaves the form is
//! `Modulus::leave_wide`, in `montgomery`), and the conversions between 32-bit
//! limbs and 28-bit digits. Compiled and unit-tested without SIMD128 too (with the
//! portable rows), though there [`USE_WIDE`] keeps the exponentiations on the
//! 32-bit loop.

use std::sync::OnceLock;

use rsa::BigUint;

use super::limbs::{limbs, wipe, wipe_number};
#[cfg(test)]
use super::seams;
use super::simd::{add_row, add_square_row};

/// Whether [`Modulus::pow_public`] and [`Modulus::pow_secret`] run in 28-bit
/// digits with SIMD128 ([`Wide`]); otherwise the 32-bit scalar loop.
pub(super) const USE_WIDE: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// Bits per digit of [`Wide`].
pub(super) const DIGIT: u32 = 28;
pub(super) const DIGIT_MASK: u32 = (1 << DIGIT) - 1;
/// The most digits [`Wide::mul_into`] and [`Wide::sqr_into`] take: a 64-bit
/// column holds up to 2 x digits products below 2^56 and a carry below 2^36
/// (254 x 2^56 + 2^36 < 2^64).
const WIDE_MAX_DIGITS: usize = 127;

/// A modulus in 28-bit digits (one per u32, padded with zero digits to a
/// multiple of 4) for Montgomery multiplication with wasm SIMD128: two
/// 32 x 32 -> 64-bit products per `u64x2_extmul` instruction, added into 64-bit
/// columns without carrying (a 56-bit product leaves room for 255 of them), and
/// one carry per row. R = 2^(28 * digits) > 4n, so values stay below 2n
/// between multiplications without a final subtraction ("almost Montgomery");
/// [`Modulus::leave_wide`] reduces once at the end.
#[derive(Clone, PartialEq, Eq)]
pub(super) struct Wide {
    /// Digits of n, padded.
    pub(super) n: Vec<u32>,
    /// Digits used (without the padding).
    pub(super) digits: usize,
    /// -n^-1 mod 2^28.
    n0inv: u32,
    /// R^2 mod n and R mod n, in padded digits.
    pub(super) rr: Vec<u32>,
    pub(super) one: Vec<u32>,
    /// A public exponent e and `R^e mod n` in padded digits
    /// ([`Modulus::pow_public_wide`]), made on the first public exponentiation.
    pub(super) r_to_e: OnceLock<(u32, Vec<u32>)>,
}

impl Drop for Wide {
    fn drop(&mut self) {
        wipe(&mut self.n);
        wipe(&mut self.rr);
        wipe(&mut self.one);
    }
}

impl Wide {
    /// `None` when n is too long for the lazy columns.
    pub(super) fn new(n: &BigUint, limbs_n: &[u32], n0inv32: u32) -> Option<Wide> {
        let digits = (n.bits() + 2).div_ceil(DIGIT as usize);
        if digits > WIDE_MAX_DIGITS {
            return None;
        }
        let padded = digits.div_ceil(4) * 4;
        let r = BigUint::from(1u32) << (DIGIT as usize * digits);
        let digits_of = |value: &BigUint| {
            let mut value_limbs = limbs(value, limbs_n.len());
            let out = digits_of_limbs(&value_limbs, padded);
            wipe(&mut value_limbs);
            out
        };
        let mut one = &r % n;
        let mut rr = (&r * &r) % n;
        let wide = Wide {
            n: digits_of_limbs(limbs_n, padded),
            digits,
            n0inv: n0inv32 & DIGIT_MASK,
            rr: digits_of(&rr),
            one: digits_of(&one),
            r_to_e: OnceLock::new(),
        };
        wipe_number(&mut one);
        wipe_number(&mut rr);
        Some(wide)
    }

    pub(super) fn scratch(&self) -> Vec<u64> {
        vec![0u64; 2 * self.n.len()]
    }

    /// 1 in padded digits.
    pub(super) fn unit(&self) -> Vec<u32> {
        let mut unit = vec![0u32; self.n.len()];
        if let Some(low) = unit.first_mut() {
            *low = 1;
        }
        unit
    }

    /// 32-bit limbs (below n) as padded digits.
    pub(super) fn digits_of(&self, limbs: &[u32]) -> Vec<u32> {
        digits_of_limbs(limbs, self.n.len())
    }

    pub(super) fn mul(&self, a: &[u32], b: &[u32], t: &mut [u64]) -> Vec<u32> {
        let mut out = vec![0u32; self.n.len()];
        self.mul_into(a, b, &mut out, t);
        out
    }

    /// `a * b / R mod n`, below 2n, into `out`, for digits `a, b < 2n`; `t` is
    /// scratch of twice the padded digits. Its running time does not depend on
    /// the values. Row i adds `a[i] * b + m * n` into the columns from i on (m
    /// makes column i zero mod 2^28) and carries column i into column i + 1.
    pub(super) fn mul_into(&self, a: &[u32], b: &[u32], out: &mut [u32], t: &mut [u64]) {
        let len = self.n.len();
        let digits = self.digits;
        let n = &self.n[..len];
        let a = &a[..len];
        let b = &b[..len];
        let out = &mut out[..len];
        let t = &mut t[..2 * len];
        #[cfg(test)]
        seams::count_multiplication();
        t.fill(0);
        let mut carry = 0u64;
        for i in 0..digits {
            let ai = a[i];
            let column = t[i] + carry;
            let low = (column as u32).wrapping_add(ai.wrapping_mul(b[0]));
            let m = low.wrapping_mul(self.n0inv) & DIGIT_MASK;
            add_row(&mut t[i..i + len], b, n, ai, m);
            carry = (t[i] + carry) >> DIGIT;
        }
        carry_out(&t[digits..2 * digits], carry, out);
    }

    /// `a * a / R mod n`, below 2n, into `out`, for digits `a < 2n`; `t` is
    /// scratch of twice the padded digits. What [`Wide::mul_into`]`(a, a)`
    /// gives, with about a quarter fewer products: row i adds `m * n` (m makes
    /// column i zero mod 2^28, as there) and, from digit i of the row on, only
    /// `a[i] * a[i]` and `a[i] * 2a[j]` for j > i (each product `a[i] * a[j]`
    /// with i < j once, doubled), which [`add_square_row`] splits at fixed,
    /// public places. Its running time does not depend on the values: which
    /// digits each row multiplies depends on i alone.
    ///
    /// The column bound of `mul_into` holds unchanged. The square terms that
    /// reach column c sum to `a[i] * a[c - i]` over every ordered pair (i, c - i)
    /// of digits (the pair i < j counted once and doubled, the diagonal once),
    /// so at most `digits` products below 2^56; the reduction rows add at most
    /// `digits` more below 2^56. A column is then below
    /// `2 * WIDE_MAX_DIGITS * 2^56 = 254 * 2^56`, and with the carry (below
    /// 2^64 / 2^28 = 2^36) still below 2^64. Each single product `a[i] * 2a[j]`
    /// is below 2^57 and its operand `2a[j]` below 2^29, in a u32 lane.
    /// Columns below i are never written by row i (square terms of row i start
    /// at column 2i), and column i is complete before its m is taken: its square
    /// terms come from rows up to i / 2, and row i's own only when i = 0
    /// (`a[0]^2`, added into `low` as `mul_into` adds `a[i] * b[0]`).
    pub(super) fn sqr_into(&self, a: &[u32], out: &mut [u32], t: &mut [u64]) {
        let len = self.n.len();
        let digits = self.digits;
        let n = &self.n[..len];
        let a = &a[..len];
        let out = &mut out[..len];
        let t = &mut t[..2 * len];
        #[cfg(test)]
        seams::count_squaring();
        t.fill(0);
        let mut carry = 0u64;
        for i in 0..digits {
            let ai = a[i];
            let column = t[i] + carry;
            let own = if i == 0 { ai.wrapping_mul(ai) } else { 0 };
            let low = (column as u32).wrapping_add(own);
            let m = low.wrapping_mul(self.n0inv) & DIGIT_MASK;
            add_square_row(&mut t[i..i + len], a, n, i, m);
            carry = (t[i] + carry) >> DIGIT;
        }
        carry_out(&t[digits..2 * digits], carry, out);
    }
}

/// The upper columns of a product after its reduction rows, `columns` (one per
/// digit), and the carry out of the column below them, written as digits into
/// `out` (its padding digits zero): what [`Wide::mul_into`] and [`Wide::sqr_into`]
/// both end with.
fn carry_out(columns: &[u64], mut carry: u64, out: &mut [u32]) {
    for (o, &column) in out.iter_mut().zip(columns) {
        let v = column + carry;
        *o = v as u32 & DIGIT_MASK;
        carry = v >> DIGIT;
    }
    out[columns.len()..].fill(0);
}

/// 32-bit limbs as `len` 28-bit digits (digits past `len` must be zero).
pub(super) fn digits_of_limbs(limbs: &[u32], len: usize) -> Vec<u32> {
    let mut out = vec![0u32; len];
    let mut acc = 0u64;
    let mut bits = 0u32;
    let mut k = 0;
    for &limb in limbs {
        acc |= u64::from(limb) << bits;
        bits += 32;
        while bits >= DIGIT {
            if let Some(o) = out.get_mut(k) {
                *o = acc as u32 & DIGIT_MASK;
            }
            acc >>= DIGIT;
            bits -= DIGIT;
            k += 1;
        }
    }
    if let Some(o) = out.get_mut(k) {
        *o = acc as u32;
    }
    out
}

/// 28-bit digits as `len` 32-bit limbs (limbs past `len` must be zero).
pub(super) fn limbs_of_digits(digits: &[u32], len: usize) -> Vec<u32> {
    let mut out = vec![0u32; len];
    let mut acc = 0u64;
    let mut bits = 0u32;
    let mut k = 0;
    for &digit in digits {
        acc |= u64::from(digit) << bits;
        bits += DIGIT;
        if bits >= 32 {
            if let Some(o) = out.get_mut(k) {
                *o = acc as u32;
            }
            acc >>= 32;
            bits -= 32;
            k += 1;
        }
    }
    if let Some(o) = out.get_mut(k) {
        *o = acc as u32;
    }
    out
}
