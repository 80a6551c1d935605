//! The private key in CRT form ([`CrtKey`]): p and q as [`Modulus`] with
//! their Montgomery constants, dp and dq in as many limbs, q^-1 mod p, and the
//! slot the key keeps its blinding pair in. [`CrtKey::pow_d`] is `c^d mod pq`
//! by the CRT: its two exponentiations are `pow_secret` (constant time), the
//! reductions and the recombination around them `num-bigint-dig`'s (not
//! constant time; they run on blinded values). Its secrets are wiped on drop.

use std::sync::{Mutex, MutexGuard};

use rsa::BigUint;

use super::blinding::Blinding;
use super::limbs::{from_limbs, limbs, wipe, wipe_number};
use super::montgomery::Modulus;
#[cfg(test)]
use super::seams;

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
