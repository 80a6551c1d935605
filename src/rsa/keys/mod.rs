//! RSA keys: reading PEM (PKCS#8, PKCS#1, SubjectPublicKeyInfo), refusing
//! anything that is not a sane 2048 to 4096-bit RSA key, generating test keys,
//! and the `x-access-token` form of a public key.
//!
//! - `signing`: [`SigningKey`], the private key (read, generated, written
//!   back as PEM, and its forms for `rsa` and for our CRT arithmetic);
//! - `verifying`: [`VerifyingKey`], the public key with its PEM, DER and token
//!   forms ([`TokenEncoding`]), and the modulus for our arithmetic;
//! - `policy`: what refuses a well-formed key (its size,
//!   [`MIN_BITS`](policy::MIN_BITS) to [`MAX_BITS`](policy::MAX_BITS), its
//!   exponent, inconsistent parts);
//! - `encoding`: PEM labels and the mistakes they reveal, DER read and written
//!   in buffers wiped on drop, and the error of a refused key.
//!
//! Each file imports only from those below it in the list.

mod encoding;
mod policy;
mod signing;
mod verifying;

pub use signing::SigningKey;
pub use verifying::{TokenEncoding, VerifyingKey};
