//! RSA keys and the PKCS#1 v1.5 / SHA-256 arithmetic under them: `keys` reads,
//! checks and holds PEM keys; `hazmat` is our own modular arithmetic
//! (Montgomery multiplication, CRT), crate-private like RustCrypto's `hazmat`.

pub(crate) mod hazmat;
pub(crate) mod keys;
