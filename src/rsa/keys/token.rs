//! [`TokenEncoding`]: what the `x-access-token` header carries, in every build.

/// What the `x-access-token` header carries: base64url of the public key's
/// SubjectPublicKeyInfo as PEM text (the spec's reading, the default) or as DER
/// bytes (the public JavaScript client). Both name the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TokenEncoding {
    /// base64url of the PEM text (the default).
    #[default]
    Pem,
    /// base64url of the DER bytes.
    Der,
}
