//! The blinding pair's arithmetic ([`Blinding`]): `r^e` and `r^-1` mod n
//! held in n's Montgomery form, so that blinding, unblinding and renewing the
//! pair by squaring are one constant-time Montgomery product each
//! ([`Modulus::entered_product`]). When a pair is drawn or renewed is
//! `pkcs1v15`'s decision, not this file's.

use super::limbs::wipe;
use super::montgomery::Modulus;

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
