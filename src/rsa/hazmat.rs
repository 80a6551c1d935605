//! Hazardous material: the raw RSA arithmetic of signing and verifying, in
//! 32-bit limbs (wasm32 multiplies 32 x 32 -> 64 bits natively): Montgomery
//! multiplication (CIOS) with parameters computed once per key,
//! exponentiation by a small public exponent (65537: 16 squarings and 1
//! multiply), and a constant-time fixed-window exponentiation for the private
//! CRT halves. In wasm with SIMD128 (`.cargo/config.toml`) the same
//! exponentiations run in 28-bit digits with `u64x2_extmul` (`Wide`), about
//! 1.7-1.9x faster there, squarings by a dedicated `Wide::sqr_into` (each
//! cross product once, doubled); the 32-bit loop stays for other targets and for
//! moduli over 3,554 bits. The blinding pair's arithmetic ([`Blinding`]) and
//! the slot a [`CrtKey`] keeps it in are here; no padding, no checks, and no
//! policy: `super::pkcs1v15` does the encoding, decides when a pair is drawn
//! or renewed, and does the fault check around these.
//!
//! Crate-private, and only `rsa/` uses it. [`CrtKey`] and [`Modulus`] keep
//! their (secret) fields private and wipe them on drop.
//!
//! Constant time, function by function (the whole picture is in `super`'s
//! docs and SECURITY.md):
//! - [`Modulus::pow_secret`], `mul_into`, `Wide::mul_into`, `add_row`,
//!   `Wide::sqr_into`, `add_square_row`, `Modulus::leave_wide` and `select`:
//!   constant time in the source (same operations and addresses for every
//!   exponent and base); so are [`Blinding`]'s products and squarings
//!   (`Modulus::entered_product`, made of the same);
//! - [`CrtKey::pow_d`]: its two exponentiations are `pow_secret`; the
//!   reductions and the recombination around them are `num-bigint-dig`'s and
//!   are not constant time (they run on blinded values);
//! - [`CrtKey::new`], [`Modulus::new`], [`limbs`], [`limbs_from_be`],
//!   [`be_from_limbs`]: not constant time (once per key, or public values);
//! - [`Modulus::pow_public`], [`less_than`]: variable time, for public values only.

use std::sync::{Mutex, MutexGuard, OnceLock};

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

/// Wipes limbs that held a secret (one copy of the wiping loop for the
/// temporaries of a signature, rather than one inlined at each).
#[inline(never)]
pub(crate) fn wipe(limbs: &mut [u32]) {
    limbs.zeroize();
}

/// Wipes 64-bit scratch that held a secret (as [`wipe`]).
#[inline(never)]
fn wipe_scratch(scratch: &mut [u64]) {
    scratch.zeroize();
}

/// Wipes a number that held a secret (as [`wipe`]).
#[inline(never)]
pub(crate) fn wipe_number(value: &mut BigUint) {
    value.zeroize();
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
    /// The blinding pair of the key's signatures (what it is and when it is
    /// renewed: `super::pkcs1v15`), empty until the first signature. A mutex
    /// because native callers may sign from several threads with one key (wasm
    /// has one thread, and the lock is never contended there).
    blinding: Mutex<Option<Blinding>>,
}

impl Drop for CrtKey {
    fn drop(&mut self) {
        wipe(&mut self.dp);
        wipe(&mut self.dq);
        wipe_number(&mut self.qinv);
        wipe_number(&mut self.p_value);
        wipe_number(&mut self.q_value);
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
            blinding: Mutex::new(None),
        })
    }

    /// The key's blinding pair, locked. When a thread panicked while holding
    /// it (a poisoned lock), the pair it held is dropped (and so wiped) and the
    /// slot comes back empty and no longer poisoned, so the caller makes a
    /// fresh pair rather than trust one that may have been left half updated.
    pub(crate) fn blinding(&self) -> MutexGuard<'_, Option<Blinding>> {
        match self.blinding.lock() {
            Ok(slot) => slot,
            Err(poisoned) => {
                let mut slot = poisoned.into_inner();
                *slot = None;
                self.blinding.clear_poison();
                slot
            }
        }
    }

    /// Test seam: the lock of the blinding pair, to poison it and to see it
    /// unpoisoned again.
    #[cfg(test)]
    pub(crate) fn blinding_lock(&self) -> &Mutex<Option<Blinding>> {
        &self.blinding
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

/// A blinding pair for a modulus n: `A = r^e mod n` and `B = r^-1 mod n` for
/// a random r, each held in n's Montgomery form (`A·R mod n`, `B·R mod n`,
/// fully reduced, in 32-bit limbs; R is that of the multiplication
/// [`Modulus::entered_product`] uses). So one Montgomery product of a plain
/// value x by either gives `x·A mod n` or `x·B mod n` directly, and one of
/// either by itself gives the form of its square: `(A², B²)` is the pair of
/// r², which is how the pair is renewed without an inverse. Every operation
/// here is the constant-time Montgomery arithmetic; the values are secret
/// (they unblind a signature) and wiped on drop. A pair belongs to one
/// modulus: it must be used with the one that made it.
#[derive(Clone)]
pub(crate) struct Blinding {
    /// The form of A, then that of B, in as many limbs as n each (one buffer,
    /// one wipe).
    pair: Vec<u32>,
    /// Squarings since r was drawn (0 for a fresh pair).
    squarings: u32,
}

impl Drop for Blinding {
    fn drop(&mut self) {
        wipe(&mut self.pair);
    }
}

impl Blinding {
    /// The pair of `r^e` and `r^-1`, given in limbs below n.
    pub(crate) fn new(n: &Modulus, r_e: &[u32], r_inv: &[u32]) -> Blinding {
        let rr = n.entering_factor();
        Blinding { pair: Self::products(n, [(r_e, &rr), (r_inv, &rr)]), squarings: 0 }
    }

    /// The two products by [`Modulus::entered_product`], one after the other in
    /// one buffer made at its size (growing it would free a copy of the first).
    fn products(n: &Modulus, factors: [(&[u32], &[u32]); 2]) -> Vec<u32> {
        let mut pair = Vec::with_capacity(2 * n.limb_count());
        for (x, y) in factors {
            let mut product = n.entered_product(x, y);
            pair.extend_from_slice(&product);
            wipe(&mut product);
        }
        pair
    }

    /// Squarings since r was drawn.
    pub(crate) fn squarings(&self) -> u32 {
        self.squarings
    }

    /// Replaces the pair of r with the pair of r².
    pub(crate) fn square(&mut self, n: &Modulus) {
        let (a, b) = self.pair.split_at(n.limb_count());
        let mut squares = Self::products(n, [(a, a), (b, b)]);
        std::mem::swap(&mut self.pair, &mut squares);
        wipe(&mut squares);
        self.squarings = self.squarings.saturating_add(1);
    }

    /// `x·A mod n` (x blinded) for limbs `x < n`, in limbs below n.
    pub(crate) fn blind(&self, n: &Modulus, x: &[u32]) -> Vec<u32> {
        n.entered_product(x, &self.pair[..n.limb_count()])
    }

    /// `x·B mod n` (x unblinded) for limbs `x < n`, in limbs below n.
    pub(crate) fn unblind(&self, n: &Modulus, x: &[u32]) -> Vec<u32> {
        n.entered_product(x, &self.pair[n.limb_count()..])
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
        Some(Modulus { n: limbs_n, n0inv: inv.wrapping_neg(), rr, one, wide: OnceLock::new() })
    }

    /// The 28-bit form ([`Wide`]), made the first time it is asked for.
    fn wide(&self) -> Option<&Wide> {
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

    /// `x·y / R mod n`, fully reduced, in limbs, for limbs `x, y < n`, in
    /// constant time: in 28-bit digits (R = 2^(28 * digits)) where the modulus
    /// has a wide form and SIMD128 is on, else in 32-bit limbs (R = 2^(32 *
    /// limbs)). With `y = z·R mod n` it is the plain `x·z mod n` ([`Blinding`]).
    fn entered_product(&self, x: &[u32], y: &[u32]) -> Vec<u32> {
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
    fn entering_factor(&self) -> Vec<u32> {
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                return limbs_of_digits(&wide.rr, self.n.len());
            }
        }
        self.rr.clone()
    }

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

    fn pow_public_scalar(&self, base: &[u32], e: u32) -> Vec<u32> {
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
        if USE_WIDE {
            if let Some(wide) = self.wide() {
                return self.pow_secret_wide(wide, base, exp);
            }
        }
        self.pow_secret_scalar(base, exp)
    }

    fn pow_secret_scalar(&self, base: &[u32], exp: &[u32]) -> Vec<u32> {
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
    fn pow_public_wide(&self, w: &Wide, base: &[u32], e: u32) -> Vec<u32> {
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
    fn pow_secret_wide(&self, w: &Wide, base: &[u32], exp: &[u32]) -> Vec<u32> {
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

    /// `acc * by / R mod n` (with `by` = 1: out of the Montgomery domain),
    /// fully reduced, in 32-bit limbs. The product is below 2n (and 2n may not
    /// fit the limbs of n), so one masked subtraction of n in the digits, where
    /// R > 4n leaves room, finishes it before the limbs are made.
    fn leave_wide(&self, w: &Wide, acc: &[u32], by: &[u32], t: &mut [u64]) -> Vec<u32> {
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

/// Whether [`Modulus::pow_public`] and [`Modulus::pow_secret`] run in 28-bit
/// digits with SIMD128 ([`Wide`]); otherwise the 32-bit scalar loop.
const USE_WIDE: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// Bits per digit of [`Wide`].
const DIGIT: u32 = 28;
const DIGIT_MASK: u32 = (1 << DIGIT) - 1;
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
struct Wide {
    /// Digits of n, padded.
    n: Vec<u32>,
    /// Digits used (without the padding).
    digits: usize,
    /// -n^-1 mod 2^28.
    n0inv: u32,
    /// R^2 mod n and R mod n, in padded digits.
    rr: Vec<u32>,
    one: Vec<u32>,
    /// A public exponent e and `R^e mod n` in padded digits
    /// ([`Modulus::pow_public_wide`]), made on the first public exponentiation.
    r_to_e: OnceLock<(u32, Vec<u32>)>,
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
    fn new(n: &BigUint, limbs_n: &[u32], n0inv32: u32) -> Option<Wide> {
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

    fn scratch(&self) -> Vec<u64> {
        vec![0u64; 2 * self.n.len()]
    }

    /// 1 in padded digits.
    fn unit(&self) -> Vec<u32> {
        let mut unit = vec![0u32; self.n.len()];
        if let Some(low) = unit.first_mut() {
            *low = 1;
        }
        unit
    }

    /// 32-bit limbs (below n) as padded digits.
    fn digits_of(&self, limbs: &[u32]) -> Vec<u32> {
        digits_of_limbs(limbs, self.n.len())
    }

    fn mul(&self, a: &[u32], b: &[u32], t: &mut [u64]) -> Vec<u32> {
        let mut out = vec![0u32; self.n.len()];
        self.mul_into(a, b, &mut out, t);
        out
    }

    /// `a * b / R mod n`, below 2n, into `out`, for digits `a, b < 2n`; `t` is
    /// scratch of twice the padded digits. Its running time does not depend on
    /// the values. Row i adds `a[i] * b + m * n` into the columns from i on (m
    /// makes column i zero mod 2^28) and carries column i into column i + 1.
    fn mul_into(&self, a: &[u32], b: &[u32], out: &mut [u32], t: &mut [u64]) {
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
    fn sqr_into(&self, a: &[u32], out: &mut [u32], t: &mut [u64]) {
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

/// `t[j] += a * b[j] + m * n[j]` for every j (t, b and n of one length).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn add_row(t: &mut [u64], b: &[u32], n: &[u32], a: u32, m: u32) {
    for ((t, &b), &n) in t.iter_mut().zip(b).zip(n) {
        *t += u64::from(a) * u64::from(b) + u64::from(m) * u64::from(n);
    }
}

/// `t[j] += a * b[j] + m * n[j]` for every j, four at a time (the length is a
/// multiple of 4): per four digits two loads, four `extmul`s and two 64-bit
/// column loads, adds and stores.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn add_row(t: &mut [u64], b: &[u32], n: &[u32], a: u32, m: u32) {
    use core::arch::wasm32::u32x4_splat;
    by_fours(t, b, n, (u32x4_splat(a), u32x4_splat(m)), add4);
}

/// `four(t, b, n, a, m)` over `t`, `b` and `n` four digits at a time, two
/// blocks a pass, then the blocks of four left (shorter slices are no block).
/// The splats `(a, m)` are made opaque in each pass: LLVM would otherwise
/// hoist their widening and emit i64x2.mul of widened lanes, which V8 lowers
/// to three multiplies.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn by_fours(
    t: &mut [u64],
    b: &[u32],
    n: &[u32],
    splats: (core::arch::wasm32::v128, core::arch::wasm32::v128),
    four: impl Fn(&mut [u64], &[u32], &[u32], core::arch::wasm32::v128, core::arch::wasm32::v128),
) {
    use core::arch::wasm32::v128;
    let mut t = t.chunks_exact_mut(8);
    let mut b = b.chunks_exact(8);
    let mut n = n.chunks_exact(8);
    for ((t, b), n) in (&mut t).zip(&mut b).zip(&mut n) {
        let (a, m): (v128, v128) = std::hint::black_box(splats);
        four(&mut t[..4], &b[..4], &n[..4], a, m);
        four(&mut t[4..], &b[4..], &n[4..], a, m);
    }
    let (a, m): (v128, v128) = std::hint::black_box(splats);
    four(t.into_remainder(), b.remainder(), n.remainder(), a, m);
}

/// `t[j] += a * b[j] + m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4(t: &mut [u64], b: &[u32], n: &[u32], a: core::arch::wasm32::v128, m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 || b.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `b` and `n` hold at least 4 u32 (16 bytes, one v128) and `t` at
    // least 4 u64 (32 bytes, two v128), checked above; `v128_load` and
    // `v128_store` take unaligned addresses.
    unsafe {
        let b = v128_load(b.as_ptr().cast::<v128>());
        let n = v128_load(n.as_ptr().cast::<v128>());
        let t = t.as_mut_ptr().cast::<v128>();
        let low = u64x2_add(u64x2_extmul_low_u32x4(a, b), u64x2_extmul_low_u32x4(m, n));
        let high = u64x2_add(u64x2_extmul_high_u32x4(a, b), u64x2_extmul_high_u32x4(m, n));
        v128_store(t, u64x2_add(v128_load(t), low));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), high));
    }
}

/// Row i of [`Wide::sqr_into`]: `t[j] += m * n[j]` for every j, plus
/// `a[i] * a[i]` at j = i and `a[i] * 2a[j]` for every j > i (t, a and n of
/// one length, i below it).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn add_square_row(t: &mut [u64], a: &[u32], n: &[u32], i: usize, m: u32) {
    let ai = u64::from(a[i]);
    for (j, ((t, &aj), &n)) in t.iter_mut().zip(a).zip(n).enumerate() {
        let square = match j.cmp(&i) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => ai * ai,
            std::cmp::Ordering::Greater => ai * (2 * u64::from(aj)),
        };
        *t += square + u64::from(m) * u64::from(n);
    }
}

/// Row i of [`Wide::sqr_into`] four digits at a time (the length is a multiple
/// of 4): `t[j] += m * n[j]` for every j, plus `a[i] * a[i]` at j = i and
/// `a[i] * 2a[j]` for every j > i. The blocks of four below the one holding
/// digit i take only `m * n` (two `extmul`s), that block takes its square
/// operand through lane masks made from i, and the blocks above take `2a[j]`
/// as `a[j]` shifted left by one (four `extmul`s, as in [`add_row`]). Where
/// the row splits depends on i alone, never on the digits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn add_square_row(t: &mut [u64], a: &[u32], n: &[u32], i: usize, m: u32) {
    use core::arch::wasm32::{u32x4, u32x4_eq, u32x4_gt, u32x4_shl, u32x4_splat, v128, v128_and, v128_load, v128_or};
    let len = t.len().min(a.len()).min(n.len());
    let start = i / 4 * 4;
    if start + 4 > len {
        return;
    }
    let ai = a[i];
    let splats = (u32x4_splat(ai), u32x4_splat(m));
    let (low_t, rest_t) = t[..len].split_at_mut(start);
    let (block_t, high_t) = rest_t.split_at_mut(4);
    // Below the block of digit i: the reduction only (n stands in for the unread operand).
    let low_n = &n[..start];
    by_fours(low_t, low_n, low_n, splats, |t, _, n, _, m| add4_reduce(t, n, m));
    // The block of digit i: 0 below i, a[i] at i, 2a[j] above, chosen by lane
    // masks of the (public) positions.
    let (ai_splat, m): (v128, v128) = std::hint::black_box(splats);
    let first = start as u32;
    let lanes = u32x4(first, first + 1, first + 2, first + 3);
    let at = u32x4_splat(i as u32);
    let block_a = &a[start..start + 4];
    let block_n = &n[start..start + 4];
    // SAFETY: `block_a` holds exactly 4 u32 (16 bytes, one v128); `v128_load`
    // takes unaligned addresses.
    let doubled = u32x4_shl(unsafe { v128_load(block_a.as_ptr().cast::<v128>()) }, 1);
    let operand = v128_or(v128_and(doubled, u32x4_gt(lanes, at)), v128_and(ai_splat, u32x4_eq(lanes, at)));
    // SAFETY: `block_n` holds exactly 4 u32 (one v128), unaligned loads allowed.
    let block_n = unsafe { v128_load(block_n.as_ptr().cast::<v128>()) };
    add4_values(block_t, operand, block_n, ai_splat, m);
    // Above the block: a[i] * 2a[j] + m * n[j].
    by_fours(high_t, &a[start + 4..len], &n[start + 4..len], splats, add4_doubled);
}

/// `t[j] += m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_reduce(t: &mut [u64], n: &[u32], m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `n` holds at least 4 u32 (one v128) and `t` at least 4 u64 (two
    // v128), checked above; `v128_load` and `v128_store` take unaligned addresses.
    unsafe {
        let n = v128_load(n.as_ptr().cast::<v128>());
        let t = t.as_mut_ptr().cast::<v128>();
        v128_store(t, u64x2_add(v128_load(t), u64x2_extmul_low_u32x4(m, n)));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), u64x2_extmul_high_u32x4(m, n)));
    }
}

/// `t[j] += ai * 2a[j] + m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_doubled(t: &mut [u64], a: &[u32], n: &[u32], ai: core::arch::wasm32::v128, m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u32x4_shl, v128, v128_load};
    if a.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `a` and `n` hold at least 4 u32 (16 bytes, one v128 each),
    // checked above; `v128_load` takes unaligned addresses.
    let (a, n) = unsafe { (v128_load(a.as_ptr().cast::<v128>()), v128_load(n.as_ptr().cast::<v128>())) };
    add4_values(t, u32x4_shl(a, 1), n, ai, m);
}

/// `t[j] += a * b[j] + m * n[j]` for four j, with b and n already loaded (or
/// none, when `t` is shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_values(
    t: &mut [u64],
    b: core::arch::wasm32::v128,
    n: core::arch::wasm32::v128,
    a: core::arch::wasm32::v128,
    m: core::arch::wasm32::v128,
) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 {
        return;
    }
    // SAFETY: `t` holds at least 4 u64 (32 bytes, two v128), checked above;
    // `v128_load` and `v128_store` take unaligned addresses.
    unsafe {
        let t = t.as_mut_ptr().cast::<v128>();
        let low = u64x2_add(u64x2_extmul_low_u32x4(a, b), u64x2_extmul_low_u32x4(m, n));
        let high = u64x2_add(u64x2_extmul_high_u32x4(a, b), u64x2_extmul_high_u32x4(m, n));
        v128_store(t, u64x2_add(v128_load(t), low));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), high));
    }
}

/// 32-bit limbs as `len` 28-bit digits (digits past `len` must be zero).
fn digits_of_limbs(limbs: &[u32], len: usize) -> Vec<u32> {
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
fn limbs_of_digits(digits: &[u32], len: usize) -> Vec<u32> {
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

/// Test-only seams: counts of Montgomery multiplications and squarings, and a fault in the
/// p half of the CRT (as a glitch or a bit flip would make), per thread.
#[cfg(test)]
pub(crate) mod seams {
    use rsa::BigUint;
    use std::cell::Cell;

    thread_local! {
        static MULTIPLICATIONS: Cell<u64> = const { Cell::new(0) };
        static SQUARINGS: Cell<u64> = const { Cell::new(0) };
        static FAULT_IN_P_HALF: Cell<bool> = const { Cell::new(false) };
    }

    pub fn count_multiplication() {
        MULTIPLICATIONS.with(|count| count.set(count.get() + 1));
    }

    pub fn count_squaring() {
        SQUARINGS.with(|count| count.set(count.get() + 1));
    }

    /// Montgomery squarings (`Wide::sqr_into`) on this thread so far.
    pub fn squarings() -> u64 {
        SQUARINGS.with(Cell::get)
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
                let plain =
                    [BigUint::from(0u32), BigUint::from(1u32), &n - 1u32, sample(bytes, seed + 10 + round) % &n];
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
}
