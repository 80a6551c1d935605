//! How the arithmetic holds numbers: little-endian 32-bit limbs, and the
//! conversions from and to `BigUint` and big-endian bytes (not constant time:
//! once per key, or public values); the comparison [`less_than`] (variable
//! time, for public values only); and the wiping of limbs, scratch and numbers
//! that held a secret.

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
pub(super) fn wipe_scratch(scratch: &mut [u64]) {
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
