//! The modulus and its Montgomery multiplication: [`Modulus`] holds n in
//! 32-bit limbs with the constants computed once per key (-n^-1 mod 2^32,
//! R^2 mod n, R mod n) and, made on first use, its 28-bit form ([`Wide`]);
//! `mul_into` is the constant-time CIOS product in 32-bit limbs, and
//! `entered_product` and `entering_factor` are the product and the way into
//! Montgomery form in whichever form this target computes (what the blinding
//! pair uses), and `leave_wide` the one masked subtraction that brings a
//! 28-bit result back to reduced 32-bit limbs. The exponentiations are in
//! `pow`, the 28-bit products in `wide`.

use std::sync::OnceLock;

use rsa::BigUint;

use super::limbs::{limbs, wipe, wipe_number, wipe_scratch};
#[cfg(test)]
use super::seams;
use super::wide::{limbs_of_digits, Wide, DIGIT_MASK, USE_WIDE};

/// An odd modulus with its Montgomery constants (R = 2^(32 * len)).
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Modulus {
    pub(super) n: Vec<u32>,
    /// -n^-1 mod 2^32.
    n0inv: u32,
    /// R^2 mod n: multiplying by it enters the Montgomery domain.
    pub(super) rr: Vec<u32>,
    /// R mod n: 1 in the Montgomery domain.
    pub(super) one: Vec<u32>,
    /// The same modulus in 28-bit digits, for the SIMD128 multiplication,
    /// made on first use (a key that only ever goes to node:crypto or WebCrypto
    /// never pays for it) and boxed (a key holds one pointer for it, which keeps
    /// its size as before); `None` inside when the modulus is too long for it.
    wide: OnceLock<Option<Box<Wide>>>,
}

impl std::fmt::Debug for Modulus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Modulus").field("limbs", &self.n.len()).finish_non_exhaustive()
    }
}

impl Drop for Modulus {
    fn drop(&mut self) {
        // The moduli of private CRT halves are the secret primes.
        wipe(&mut self.n);
        wipe(&mut self.rr);
        wipe(&mut self.one);
    }
}

impl Modulus {
    /// `None` unless `n` is odd and greater than 1.
    pub(crate) fn new(n: &BigUint) -> Option<Modulus> {
        let len = n.bits().div_ceil(32);
        let limbs_n = limbs(n, len);
        let low = limbs_n.first().copied().unwrap_or(0);
        if len == 0 || low & 1 == 0 || *n <= BigUint::from(1u32) {
            return None;
        }
        // Newton's iteration doubles the correct low bits each step: 1, 2, 4, ... 32.
        let mut inv: u32 = 1;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u32.wrapping_sub(low.wrapping_mul(inv)));
        }
        let r = BigUint::from(1u32) << (32 * len);
        let one = limbs(&(&r % n), len);
        let rr = limbs(&((&r * &r) % n), len);
        Some(Modulus { n: limbs_n, n0inv: inv.wrapping_neg(), rr, one, wide: OnceLock::new() })
    }

    /// The 28-bit form ([`Wide`]), made the first time it is asked for.
    pub(super) fn wide(&self) -> Option<&Wide> {
        self.wide
            .get_or_init(|| {
                let mut n = BigUint::from_slice(&self.n);
                let wide = Wide::new(&n, &self.n, self.n0inv).map(Box::new);
                wipe_number(&mut n);
                wide
            })
            .as_deref()
    }

    /// Number of limbs.
    pub(crate) fn limb_count(&self) -> usize {
        self.n.len()
    }

    /// The limbs of n (the moduli of public keys are public; those of the
    /// private CRT halves are not, and nothing reads them here).
    pub(crate) fn limbs(&self) -> &[u32] {
        &self.n
    }

    /// `a * b / R mod n` into `out`, for `a, b < n`. `t` is scratch of `len + 2` limbs.
    /// Its running time does not depend on the values. One pass per limb of `a`
    /// adds `a[i] * b` and `m * n` together (m makes the low limb zero) and shifts
    /// down a limb: two carries, one load of each of t, b and n, one store.
    pub(super) fn mul_into(&self, a: &[u32], b: &[u32], out: &mut [u32], t: &mut [u32]) {
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

    pub(super) fn mul(&self, a: &[u32], b: &[u32], t: &mut [u32]) -> Vec<u32> {
        let mut out = vec![0u32; self.n.len()];
        self.mul_into(a, b, &mut out, t);
        out
    }

    pub(super) fn scratch(&self) -> Vec<u32> {
        vec![0u32; self.n.len() + 2]
    }

    /// `x·y / R mod n`, fully reduced, in limbs, for limbs `x, y < n`, in
    /// constant time: in 28-bit digits (R = 2^(28 * digits)) where the modulus
    /// has a wide form and SIMD128 is on, else in 32-bit limbs (R = 2^(32 *
    /// limbs)). With `y = z·R mod n` it is the plain `x·z mod n` ([`Blinding`]).
    pub(super) fn entered_product(&self, x: &[u32], y: &[u32]) -> Vec<u32> {
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                let mut t = wide.scratch();
                let mut x = wide.digits_of(x);
                let mut y = wide.digits_of(y);
                let out = self.leave_wide(wide, &x, &y, &mut t);
                wipe(&mut x);
                wipe(&mut y);
                wipe_scratch(&mut t);
                return out;
            }
        }
        let mut t = self.scratch();
        let out = self.mul(x, y, &mut t);
        wipe(&mut t);
        out
    }

    /// `R^2 mod n` in limbs, for the R of [`Modulus::entered_product`]: the
    /// product of x by it is `x·R mod n`, x's Montgomery form.
    pub(super) fn entering_factor(&self) -> Vec<u32> {
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                return limbs_of_digits(&wide.rr, self.n.len());
            }
        }
        self.rr.clone()
    }

    /// `acc * by / R mod n` (with `by` = 1: out of the Montgomery domain),
    /// fully reduced, in 32-bit limbs. The product is below 2n (and 2n may not
    /// fit the limbs of n), so one masked subtraction of n in the digits, where
    /// R > 4n leaves room, finishes it before the limbs are made.
    pub(super) fn leave_wide(&self, w: &Wide, acc: &[u32], by: &[u32], t: &mut [u64]) -> Vec<u32> {
        let mut digits = w.mul(acc, by, t);
        let mut diff = vec![0u32; digits.len()];
        let mut borrow = 0u32;
        for ((d, &x), &n) in diff.iter_mut().zip(&digits).zip(&w.n) {
            // x, n < 2^28: v is in -2^28..2^28, its top bit set when negative.
            let v = x.wrapping_sub(n).wrapping_sub(borrow);
            *d = v & DIGIT_MASK;
            borrow = v >> 31;
        }
        // Keep the product when it was below n (a borrow), else take it - n.
        let mask = borrow.wrapping_neg();
        for (x, &d) in digits.iter_mut().zip(&diff) {
            *x = (*x & mask) | (d & !mask);
        }
        wipe(&mut diff);
        let out = limbs_of_digits(&digits, self.n.len());
        wipe(&mut digits);
        out
    }
}
