//! RSA: keys, our own arithmetic, and the one signature scheme, fenced the way
//! RustCrypto's `rsa` fences its `hazmat`.
//!
//! - `keys` reads, checks and holds PEM keys ([`keys::SigningKey`],
//!   [`keys::VerifyingKey`]): the only public types of this folder.
//! - `pkcs1v15` is RSASSA-PKCS1-v1_5 with SHA-256: encoding, blinded CRT
//!   signing with a fault check, verification. One module per scheme: a
//!   second scheme would be a sibling file, not a branch in this one.
//! - `hazmat` is the raw modular arithmetic (Montgomery multiplication, the
//!   CRT key, the blinding pair's products and squarings, and the slot the
//!   key keeps its pair in). It is crate-private, its secret-holding types
//!   have private fields, and nothing outside `rsa/` uses it; it has no
//!   padding and no checks, and does not decide when a blinding pair is drawn
//!   or renewed, so it is only safe as `pkcs1v15` calls it.
//!
//! # Constant time: what holds and what does not
//!
//! The claims, in the terms of SECURITY.md ("Which claim holds on which path"):
//!
//! - **Constant time in the source** (not checked in compiled code, native or
//!   a WebAssembly JIT): the private exponentiation `hazmat::Modulus::pow_secret`,
//!   which runs fixed 4-bit windows over every limb of `dp` or `dq` (leading
//!   zero limbs included) and reads each table entry by scanning the whole
//!   table with masks (`select`); and the Montgomery product `mul_into`, whose
//!   loops do not depend on the values and whose final subtraction is kept or
//!   dropped by a mask (in wasm with SIMD128, `Wide::mul_into` and the
//!   squaring `Wide::sqr_into` in 28-bit digits, with the one masked
//!   subtraction in `leave_wide`). A unit test counts the multiplications and
//!   squarings of `pow_secret` for many exponents and requires the same counts
//!   each time. The blinding and unblinding products and the squarings of the
//!   blinding pair (`hazmat::Blinding`, through `Modulus::entered_product`)
//!   are those same Montgomery products, so constant time in the source too.
//! - **Not constant time**: everything around those, which uses
//!   `num-bigint-dig`: the reductions `c mod p` and `c mod q` and the CRT
//!   recombination in `hazmat::CrtKey::pow_d`; drawing a blinding pair
//!   (`pkcs1v15::fresh_blinding`: r reduced mod n, `r⁻¹ mod n`, and `rᵉ` by
//!   the public exponentiation), once per 32 signatures; making the CRT form
//!   of a key (`CrtKey::new`, `Modulus::new`, the limb conversions), once per
//!   key; reading a key. They work on blinded values or on the random r, so
//!   their timing depends on random values and on the key, not on the
//!   message, but the signing operation as a whole is not constant time.
//!   There is no exponent blinding.
//! - **Not secret, so not constant time and need not be**: verification
//!   (`Modulus::pow_public`, `less_than`, the encoding comparison): the key,
//!   the signature and the message are all public.
//! - **Also held**: a new blinding factor per signature (the key's pair
//!   `rᵉ`, `r⁻¹` squared from one signature to the next, as OpenSSL's
//!   `BN_BLINDING` does, and drawn from a fresh r every 32 signatures and
//!   after a poisoned lock), and the fault check (a signature is verified
//!   before it is released), each by a unit test through `#[cfg(test)]` seams
//!   (`pkcs1v15` tests, `hazmat::seams`); `CrtKey` (its blinding pair
//!   included) and each `Modulus` wipe their secrets on drop
//!   (`tests/rsa_claims.rs`, through [`CrtKey`] below). Temporaries of each
//!   signature are **not** all wiped (SECURITY.md, note 9).

#[cfg(feature = "wasm-rsa")]
pub(crate) mod hazmat;
pub(crate) mod keys;
pub(crate) mod pkcs1v15;

// Without the `wasm-rsa` feature (the lean and receiver `.wasm`) there is no `hazmat`
// and no `rsa` crate: `keys` reads keys by its own small DER reader (`keys/der.rs`),
// and the RSA operations of `pkcs1v15` refuse with `SYNC_RSA_UNAVAILABLE`; the JS
// core does RSA by WebCrypto in the async functions.

#[cfg(feature = "wasm-rsa")]
use rsa::BigUint;

/// Test seam, not API: a CRT key made from the parts of a two-prime key, for
/// `tests/rsa_claims.rs` to drop while an allocator watches what is freed. It
/// has no readable field and no method but [`CrtKey::new`]: nothing secret
/// leaves it. Reached through `payment_intake::__private`.
#[doc(hidden)]
#[cfg(feature = "wasm-rsa")]
pub struct CrtKey(#[allow(dead_code)] hazmat::CrtKey);

#[cfg(feature = "wasm-rsa")]
impl CrtKey {
    /// From two primes, the private exponent's CRT halves and q⁻¹ mod p;
    /// `None` when they do not make a CRT key.
    pub fn new(p: &BigUint, q: &BigUint, dp: &BigUint, dq: &BigUint, qinv: &BigUint) -> Option<CrtKey> {
        hazmat::CrtKey::new(p, q, dp, dq, qinv).map(CrtKey)
    }
}
