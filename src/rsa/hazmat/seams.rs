//! Test-only seams: counts of Montgomery multiplications and squarings, and a fault in the
//! p half of the CRT (as a glitch or a bit flip would make), per thread.

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
