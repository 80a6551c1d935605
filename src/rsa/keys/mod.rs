//! RSA keys: reading PEM (PKCS#8, PKCS#1, SubjectPublicKeyInfo), refusing
//! anything that is not a sane 2048 to 4096-bit RSA key, generating test keys,
//! and the `x-access-token` form of a public key.
//!
//! - `signing`: [`SigningKey`], the private key (read, generated, written
//!   back as PEM, and its forms for `rsa` and for our CRT arithmetic);
//! - `verifying`: [`VerifyingKey`], the public key with its PEM, DER and token
//!   forms, and the modulus for our arithmetic;
//! - `lean`: both keys without the `wasm-rsa` feature (the lean and receiver
//!   `.wasm`): read by `der`, with the same policy, PEM and tokens, and no
//!   arithmetic (RSA is WebCrypto's, in the JS core);
//! - `policy`: what refuses a well-formed key (its size,
//!   [`MIN_BITS`](policy::MIN_BITS) to [`MAX_BITS`](policy::MAX_BITS), its
//!   exponent, inconsistent parts);
//! - `encoding`: PEM labels, DER read and written in buffers wiped on drop
//!   through the `rsa` crate's stack (`wasm-rsa` only);
//! - `der`: the small DER and PEM reader and writer of `lean`, held equal to
//!   the `rsa` crate's by its tests;
//! - `labels`: the mistakes a PEM text reveals, the other key types a label or
//!   an algorithm names, and the error of a refused key;
//! - `token`: [`TokenEncoding`].
//!
//! Each file imports only from those below it in the list.

mod der;
#[cfg(feature = "wasm-rsa")]
mod encoding;
mod labels;
#[cfg(not(feature = "wasm-rsa"))]
mod lean;
mod policy;
#[cfg(feature = "wasm-rsa")]
mod signing;
mod token;
#[cfg(feature = "wasm-rsa")]
mod verifying;

#[cfg(not(feature = "wasm-rsa"))]
pub use lean::{SigningKey, VerifyingKey};
#[cfg(feature = "wasm-rsa")]
pub use signing::SigningKey;
pub use token::TokenEncoding;
#[cfg(feature = "wasm-rsa")]
pub use verifying::VerifyingKey;
