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
//! Crate-private, and only `rsa/` uses it: what it offers is the
//! `pub(crate) use` list below (with those types' `pub(crate)` methods); every
//! other item of its files reaches no further than this folder. [`CrtKey`] and
//! [`Modulus`] keep their (secret) fields private to it and wipe them on drop.
//!
//! One file per concern, after RustCrypto's split of its arithmetic:
//!
//! - `limbs`: the representation (32-bit limbs, conversions, wiping);
//! - `montgomery`: [`Modulus`], its constants, the 32-bit Montgomery product,
//!   and the way into and out of the 28-bit form;
//! - `pow`: the public and the constant-time secret exponentiation, and `select`;
//! - `wide`: the 28-bit-digit form (`Wide`), its product and squaring;
//! - `simd`: their row kernels, SIMD128 in wasm, a portable loop elsewhere;
//! - `crt`: [`CrtKey`], the private operation by the CRT;
//! - `blinding`: [`Blinding`], the blinding pair's products and squarings;
//! - `seams` (tests only): the counters and the fault other tests reach;
//!   `tests`: the unit tests.
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

mod blinding;
mod crt;
mod limbs;
mod montgomery;
mod pow;
#[cfg(test)]
pub(crate) mod seams;
mod simd;
#[cfg(test)]
mod tests;
mod wide;

pub(crate) use blinding::Blinding;
pub(crate) use crt::CrtKey;
pub(crate) use limbs::{be_from_limbs, from_limbs, less_than, limbs, limbs_from_be, wipe, wipe_number};
pub(crate) use montgomery::Modulus;
