//! Modular exponentiation on a [`Modulus`]: by a public exponent (square and
//! multiply; variable time, for public values only) and by a secret one in
//! constant time (fixed 4-bit windows over every limb of the exponent, each
//! table entry read by [`select`], which scans the whole table with masks),
//! each in 32-bit limbs or, with SIMD128 in wasm, in 28-bit digits ([`Wide`]).

use super::limbs::{wipe, wipe_scratch};
use super::montgomery::Modulus;
use super::wide::{Wide, USE_WIDE};

impl Modulus {
    /// `base^e mod n` for a public exponent (its bits are not secret): square
    /// and multiply, so 65537 takes 16 squarings and one multiplication.
    /// `base` must be below n.
    pub(crate) fn pow_public(&self, base: &[u32], e: u32) -> Vec<u32> {
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                return self.pow_public_wide(wide, base, e);
            }
        }
        self.pow_public_scalar(base, e)
    }

    pub(super) fn pow_public_scalar(&self, base: &[u32], e: u32) -> Vec<u32> {
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
        if let Some(low) = unit.first_mut() {
            *low = 1;
        }
        self.mul(&acc, &unit, &mut t)
    }

    /// `base^exp mod n` for a secret exponent, in constant time: fixed 4-bit
    /// windows over every limb of `exp` (leading zeros included), and each
    /// table entry read by scanning the whole table with masks.
    pub(crate) fn pow_secret(&self, base: &[u32], exp: &[u32]) -> Vec<u32> {
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                return self.pow_secret_wide(wide, base, exp);
            }
        }
        self.pow_secret_scalar(base, exp)
    }

    pub(super) fn pow_secret_scalar(&self, base: &[u32], exp: &[u32]) -> Vec<u32> {
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
        if let Some(low) = unit.first_mut() {
            *low = 1;
        }
        let out = self.mul(&acc, &unit, &mut t);
        for row in &mut table {
            wipe(row);
        }
        wipe(&mut acc);
        wipe(&mut tmp);
        wipe(&mut entry);
        out
    }

    /// [`Modulus::pow_public`] in 28-bit digits (see [`Wide`]). The base goes
    /// in as it is, read as the Montgomery form of `base / R`: the powers are
    /// then those of `base / R`, and one multiplication by `R^e mod n` both
    /// corrects that and leaves the Montgomery domain, where the plain way takes
    /// two (by `R^2` on the way in, by 1 on the way out). `R^e mod n` is made on
    /// the key's first public exponentiation, as `(R mod n)^e` the plain way,
    /// and kept for that exponent; another exponent goes the plain way.
    pub(super) fn pow_public_wide(&self, w: &Wide, base: &[u32], e: u32) -> Vec<u32> {
        let cached = w.r_to_e.get_or_init(|| (e, w.digits_of(&self.pow_public_wide_by(w, w.one.clone(), e, None))));
        let r_to_e = (cached.0 == e).then_some(&cached.1[..]);
        self.pow_public_wide_by(w, w.digits_of(base), e, r_to_e)
    }

    /// `base^e mod n` for padded digits `base < n`: with `Some(R^e mod n)` as
    /// [`Modulus::pow_public_wide`] says, with `None` the plain way.
    fn pow_public_wide_by(&self, w: &Wide, base: Vec<u32>, e: u32, r_to_e: Option<&[u32]>) -> Vec<u32> {
        let mut t = w.scratch();
        let unit: Vec<u32>;
        let (base_m, leave_by) = match r_to_e {
            Some(r_to_e) => (base, r_to_e),
            None => {
                unit = w.unit();
                (w.mul(&base, &w.rr, &mut t), &unit[..])
            }
        };
        let mut acc = base_m.clone();
        let mut tmp = vec![0u32; w.n.len()];
        let top = 31 - e.leading_zeros();
        for bit in (0..top).rev() {
            w.sqr_into(&acc, &mut tmp, &mut t);
            std::mem::swap(&mut acc, &mut tmp);
            if (e >> bit) & 1 == 1 {
                w.mul_into(&acc, &base_m, &mut tmp, &mut t);
                std::mem::swap(&mut acc, &mut tmp);
            }
        }
        self.leave_wide(w, &acc, leave_by, &mut t)
    }

    /// [`Modulus::pow_secret`] in 28-bit digits (see [`Wide`]): the same fixed
    /// windows, masked table reads and count of Montgomery products, the
    /// squarings among them by [`Wide::sqr_into`].
    pub(super) fn pow_secret_wide(&self, w: &Wide, base: &[u32], exp: &[u32]) -> Vec<u32> {
        const WINDOW: usize = 4;
        let len = w.n.len();
        let mut t = w.scratch();
        let mut table: Vec<Vec<u32>> = Vec::with_capacity(1 << WINDOW);
        table.push(w.one.clone());
        let mut base = w.digits_of(base);
        table.push(w.mul(&base, &w.rr, &mut t));
        wipe(&mut base);
        for i in 2..(1 << WINDOW) {
            let next = w.mul(&table[i - 1], &table[1], &mut t);
            table.push(next);
        }
        let mut acc = w.one.clone();
        let mut tmp = vec![0u32; len];
        let mut entry = vec![0u32; len];
        for limb in exp.iter().rev() {
            for shift in (0..32 / WINDOW).rev() {
                for _ in 0..WINDOW {
                    w.sqr_into(&acc, &mut tmp, &mut t);
                    std::mem::swap(&mut acc, &mut tmp);
                }
                let index = (limb >> (shift * WINDOW)) & ((1 << WINDOW) - 1);
                select(&table, index, &mut entry);
                w.mul_into(&acc, &entry, &mut tmp, &mut t);
                std::mem::swap(&mut acc, &mut tmp);
            }
        }
        let out = self.leave_wide(w, &acc, &w.unit(), &mut t);
        for row in &mut table {
            wipe(row);
        }
        wipe(&mut acc);
        wipe(&mut tmp);
        wipe(&mut entry);
        wipe_scratch(&mut t);
        out
    }
}

/// `out = table[index]`, reading every entry (no secret-dependent address).
pub(super) fn select(table: &[Vec<u32>], index: u32, out: &mut [u32]) {
    out.fill(0);
    for (i, row) in table.iter().enumerate() {
        // All ones when i == index, else zero, without a comparison branch.
        let diff = (i as u32) ^ index;
        let mask = (u32::from(diff == 0)).wrapping_neg();
        let mask = std::hint::black_box(mask);
        for (o, &r) in out.iter_mut().zip(row) {
            *o |= r & mask;
        }
    }
}
