//! The crate's one error type. Every failure has a stable machine-readable
//! `code()`, a message a person can read, and where useful a hint.

use std::fmt;

use crate::canonical::ambiguity::Ambiguity;

/// Everything that can go wrong when building, signing or verifying.
///
/// Codes are stable: new variants may be added, existing codes never change.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The body text is not valid JSON (`INVALID_JSON`).
    InvalidJson { message: String },
    /// The body is valid JSON but its top level is not an object (`BODY_NOT_OBJECT`).
    BodyNotObject { found: &'static str },
    /// The body is larger than the configured limit, in bytes (`BODY_TOO_LARGE`).
    BodyTooLarge { limit: usize, actual: usize },
    /// The canonical form would be far larger than the body itself, because long
    /// keys repeat in the entry of every leaf below them (`BODY_TOO_LARGE`).
    CanonicalTooLarge { limit: u64, actual: u64 },
    /// Objects and arrays nest deeper than the limit (`BODY_TOO_DEEP`).
    BodyTooDeep { limit: usize },
    /// An object repeats a key; senders and receivers could read it differently (`DUPLICATE_KEY`).
    DuplicateKey { path: String },
    /// A number that has no exact canonical text: too long, or out of float range (`INVALID_NUMBER`).
    InvalidNumber { path: String, text: String },
    /// A JS value that JSON cannot carry: `undefined`, a function, `NaN`, a cycle… (`INVALID_BODY`).
    InvalidBody { path: String, reason: String },
    /// The timestamp is not Unix seconds written as digits without a sign, spaces or a
    /// leading zero, at most 10 of them; a callback's must be exactly 10 (`INVALID_TIMESTAMP`).
    InvalidTimestamp { value: String, expected: &'static str },
    /// An option has a value outside its documented set (`INVALID_OPTION`).
    InvalidOption { name: String, reason: String },
    /// A required argument is missing or empty, e.g. the merchant id (`INVALID_ARGUMENT`).
    InvalidArgument { name: String, reason: String },
    /// The PEM or DER could not be read as a key (`INVALID_KEY`).
    InvalidKey { reason: String },
    /// The private key is encrypted; decrypt it first (`KEY_ENCRYPTED`).
    KeyEncrypted,
    /// The key is not RSA (EC, DSA, Ed25519, a certificate…) (`KEY_TYPE_UNSUPPORTED`).
    KeyTypeUnsupported { found: String },
    /// The RSA modulus is outside 2048..=4096 bits (`KEY_SIZE_UNSUPPORTED`).
    KeySizeUnsupported { bits: usize },
    /// The RSA public exponent is unsafe or unusual (`KEY_EXPONENT_UNSUPPORTED`).
    KeyExponentUnsupported { exponent: String },
    /// A callback header is absent (`MISSING_HEADER`).
    MissingHeader { name: &'static str },
    /// A header is present more than once, or its value is not a single string (`INVALID_HEADER`).
    InvalidHeader { name: String, reason: String },
    /// `x-access-token` is not the configured public key ('Invalid public key', `INVALID_PUBLIC_KEY`).
    InvalidPublicKey { hint: String },
    /// The signature does not verify for this body and timestamp ('Invalid signature', `INVALID_SIGNATURE`).
    InvalidSignature { hint: String },
    /// The timestamp is further from `now` than the tolerance allows (`TIMESTAMP_OUT_OF_TOLERANCE`).
    TimestampOutOfTolerance { skew_seconds: i128, tolerance_seconds: u64 },
    /// No verifying key was configured (`NO_VERIFYING_KEY`).
    NoVerifyingKey,
    /// The RSA operation or the random source failed (`CRYPTO_FAILURE`).
    CryptoFailure { reason: String },
    /// A decimal amount is malformed, negative, too large, or has more fraction digits than its currency (`INVALID_AMOUNT`).
    InvalidAmount { value: String, reason: String },
    /// The currency code has no known number of fraction digits (`UNKNOWN_CURRENCY`).
    UnknownCurrency { code: String },
    /// A callback body lacks the shape of the spec's callback, e.g. no `status.status` (`INVALID_CALLBACK`).
    InvalidCallback { path: String, reason: String },
    /// An API response lacks the shape the spec gives for it (`INVALID_RESPONSE`).
    InvalidResponse { path: String, reason: String },
    /// The signature is genuine, but the signed message does not determine this body:
    /// another body with a different meaning has the same signature (`AMBIGUOUS_CALLBACK`).
    /// Carries where, and the body as received, so nothing is lost.
    AmbiguousCallback { ambiguities: Vec<Ambiguity>, raw_body: String },
    /// `strict` signing refused a body whose signed message would not determine it (`AMBIGUOUS_REQUEST`).
    AmbiguousRequest { ambiguities: Vec<Ambiguity> },
    /// `x-access-merchant-id` is not the expected merchant (`MERCHANT_ID_MISMATCH`).
    MerchantIdMismatch { expected: String, actual: String },
}

impl Error {
    /// The stable code, e.g. `INVALID_SIGNATURE`.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidJson { .. } => "INVALID_JSON",
            Error::BodyNotObject { .. } => "BODY_NOT_OBJECT",
            Error::BodyTooLarge { .. } | Error::CanonicalTooLarge { .. } => "BODY_TOO_LARGE",
            Error::BodyTooDeep { .. } => "BODY_TOO_DEEP",
            Error::DuplicateKey { .. } => "DUPLICATE_KEY",
            Error::InvalidNumber { .. } => "INVALID_NUMBER",
            Error::InvalidBody { .. } => "INVALID_BODY",
            Error::InvalidTimestamp { .. } => "INVALID_TIMESTAMP",
            Error::InvalidOption { .. } => "INVALID_OPTION",
            Error::InvalidArgument { .. } => "INVALID_ARGUMENT",
            Error::InvalidKey { .. } => "INVALID_KEY",
            Error::KeyEncrypted => "KEY_ENCRYPTED",
            Error::KeyTypeUnsupported { .. } => "KEY_TYPE_UNSUPPORTED",
            Error::KeySizeUnsupported { .. } => "KEY_SIZE_UNSUPPORTED",
            Error::KeyExponentUnsupported { .. } => "KEY_EXPONENT_UNSUPPORTED",
            Error::MissingHeader { .. } => "MISSING_HEADER",
            Error::InvalidHeader { .. } => "INVALID_HEADER",
            Error::InvalidPublicKey { .. } => "INVALID_PUBLIC_KEY",
            Error::InvalidSignature { .. } => "INVALID_SIGNATURE",
            Error::TimestampOutOfTolerance { .. } => "TIMESTAMP_OUT_OF_TOLERANCE",
            Error::NoVerifyingKey => "NO_VERIFYING_KEY",
            Error::CryptoFailure { .. } => "CRYPTO_FAILURE",
            Error::InvalidAmount { .. } => "INVALID_AMOUNT",
            Error::UnknownCurrency { .. } => "UNKNOWN_CURRENCY",
            Error::InvalidCallback { .. } => "INVALID_CALLBACK",
            Error::InvalidResponse { .. } => "INVALID_RESPONSE",
            Error::AmbiguousCallback { .. } => "AMBIGUOUS_CALLBACK",
            Error::AmbiguousRequest { .. } => "AMBIGUOUS_REQUEST",
            Error::MerchantIdMismatch { .. } => "MERCHANT_ID_MISMATCH",
        }
    }

    /// A short suggestion of what to do next, where there is one.
    pub fn hint(&self) -> Option<&str> {
        match self {
            Error::InvalidPublicKey { hint } | Error::InvalidSignature { hint } => Some(hint),
            Error::KeyEncrypted => Some("decrypt it first, e.g. `openssl pkey -in key.pem -out plain.pem`"),
            Error::DuplicateKey { .. } => Some("send each object key once"),
            Error::InvalidNumber { .. } => Some("pass the body as JSON text, or use an integer of at most 4300 digits"),
            Error::InvalidTimestamp { .. } => Some("send Unix seconds: Math.floor(Date.now() / 1000)"),
            Error::AmbiguousCallback { .. } => Some(
                "the signature is genuine, but the signed message does not determine this body: do not act on it; \
                 fetch the payment's state with the info operation",
            ),
            Error::AmbiguousRequest { .. } => Some(
                "keep ':' and ';' out of keys, and ';' followed by ':' out of customer text; or sign without strict",
            ),
            Error::MerchantIdMismatch { .. } => Some("check which project's URL and keys this callback reached"),
            _ => None,
        }
    }

    /// Every code this crate can report, for documentation and exhaustive tests.
    pub const ALL_CODES: &'static [&'static str] = &[
        "INVALID_JSON",
        "BODY_NOT_OBJECT",
        "BODY_TOO_LARGE",
        "BODY_TOO_DEEP",
        "DUPLICATE_KEY",
        "INVALID_NUMBER",
        "INVALID_BODY",
        "INVALID_TIMESTAMP",
        "INVALID_OPTION",
        "INVALID_ARGUMENT",
        "INVALID_KEY",
        "KEY_ENCRYPTED",
        "KEY_TYPE_UNSUPPORTED",
        "KEY_SIZE_UNSUPPORTED",
        "KEY_EXPONENT_UNSUPPORTED",
        "MISSING_HEADER",
        "INVALID_HEADER",
        "INVALID_PUBLIC_KEY",
        "INVALID_SIGNATURE",
        "TIMESTAMP_OUT_OF_TOLERANCE",
        "NO_VERIFYING_KEY",
        "CRYPTO_FAILURE",
        "INVALID_AMOUNT",
        "UNKNOWN_CURRENCY",
        "INVALID_CALLBACK",
        "INVALID_RESPONSE",
        "AMBIGUOUS_CALLBACK",
        "AMBIGUOUS_REQUEST",
        "MERCHANT_ID_MISMATCH",
    ];
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidJson { message } => write!(f, "Body is not valid JSON: {message}"),
            Error::BodyNotObject { found } => write!(f, "Body must be a JSON object, found {found}"),
            Error::BodyTooLarge { limit, actual } => {
                write!(f, "Body is {actual} bytes, over the limit of {limit} bytes")
            }
            Error::CanonicalTooLarge { limit, actual } => write!(
                f,
                "Body's canonical form would be up to {actual} bytes, over the limit of {limit} bytes \
                 for a body of its size (long keys repeated over many leaves)"
            ),
            Error::BodyTooDeep { limit } => write!(f, "Body nests deeper than {limit} levels"),
            Error::DuplicateKey { path } => write!(f, "Duplicate object key at '{path}'"),
            Error::InvalidNumber { path, text } => {
                let shown: String = text.chars().take(40).collect();
                write!(f, "Number at '{path}' has no exact canonical form: {shown}")
            }
            Error::InvalidBody { path, reason } => write!(f, "Body value at '{path}' {reason}"),
            Error::InvalidTimestamp { value, expected } => {
                let shown: String = value.chars().take(40).collect();
                write!(f, "Timestamp must be {expected}, got '{shown}'")
            }
            Error::InvalidOption { name, reason } => write!(f, "Canonical option '{name}' {reason}"),
            Error::InvalidArgument { name, reason } => write!(f, "'{name}' {reason}"),
            Error::InvalidKey { reason } => write!(f, "Not a readable RSA key: {reason}"),
            Error::KeyEncrypted => write!(f, "The private key is encrypted"),
            Error::KeyTypeUnsupported { found } => {
                write!(f, "Only RSA keys are supported, this is {found}")
            }
            Error::KeySizeUnsupported { bits } => {
                write!(f, "RSA keys must be 2048 to 4096 bits, this one is {bits}")
            }
            Error::KeyExponentUnsupported { exponent } => {
                write!(f, "RSA public exponent {exponent} is not accepted")
            }
            Error::MissingHeader { name } => write!(f, "Missing header '{name}'"),
            Error::InvalidHeader { name, reason } => write!(f, "Header '{name}' {reason}"),
            Error::InvalidPublicKey { hint } => write!(f, "Invalid public key: {hint}"),
            Error::InvalidSignature { hint } => write!(f, "Invalid signature: {hint}"),
            Error::TimestampOutOfTolerance { skew_seconds, tolerance_seconds } => {
                write!(f, "Timestamp is {skew_seconds} s from now, outside the tolerance of {tolerance_seconds} s")
            }
            Error::NoVerifyingKey => write!(f, "No verifying key was given"),
            Error::CryptoFailure { reason } => write!(f, "Cryptographic operation failed: {reason}"),
            Error::InvalidAmount { value, reason } => {
                let shown: String = value.chars().take(40).collect();
                write!(f, "Amount '{shown}' {reason}")
            }
            Error::UnknownCurrency { code } => {
                let shown: String = code.chars().take(40).collect();
                write!(f, "Unknown currency '{shown}': no ISO 4217 fraction digits for it")
            }
            Error::InvalidCallback { path, reason } if path.is_empty() => write!(f, "Callback body {reason}"),
            Error::InvalidCallback { path, reason } => write!(f, "Callback field '{path}' {reason}"),
            Error::InvalidResponse { path, reason } if path.is_empty() => write!(f, "Response body {reason}"),
            Error::InvalidResponse { path, reason } => write!(f, "Response field '{path}' {reason}"),
            Error::AmbiguousCallback { ambiguities, .. } => write!(
                f,
                "Callback signature is genuine, but the signed message does not determine the body ({})",
                describe(ambiguities)
            ),
            Error::AmbiguousRequest { ambiguities } => write!(
                f,
                "Request body would be signed ambiguously: the signed message would not determine it ({})",
                describe(ambiguities)
            ),
            Error::MerchantIdMismatch { expected, actual } => {
                let shown: String = actual.chars().take(40).collect();
                write!(f, "Header 'x-access-merchant-id' is '{shown}', not the expected '{expected}'")
            }
        }
    }
}

/// `rule at 'path'` of the first place, and how many more.
fn describe(ambiguities: &[Ambiguity]) -> String {
    match ambiguities.split_first() {
        Some((first, [])) => format!("{} at '{}'", first.rule, first.path),
        Some((first, rest)) => format!("{} at '{}', and {} more", first.rule, first.path, rest.len()),
        None => String::new(),
    }
}

impl std::error::Error for Error {}

/// Shorthand used across the crate.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_listed() {
        let mut codes = Error::ALL_CODES.to_vec();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), Error::ALL_CODES.len());
        let sample = [
            Error::KeyEncrypted,
            Error::NoVerifyingKey,
            Error::MissingHeader { name: "x-access-token" },
            Error::InvalidSignature { hint: "h".into() },
        ];
        for e in sample {
            assert!(Error::ALL_CODES.contains(&e.code()), "{}", e.code());
        }
    }

    #[test]
    fn spec_wording_is_kept() {
        let e = Error::InvalidPublicKey { hint: "x".into() };
        assert!(e.to_string().starts_with("Invalid public key"));
        let e = Error::InvalidSignature { hint: "x".into() };
        assert!(e.to_string().starts_with("Invalid signature"));
    }
}
