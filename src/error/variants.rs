//! The one error type, [`Error`]: a variant per way of failing, each carrying
//! what its message needs; its code and HTTP status ([`Error::error_code`],
//! [`Error::status`]); the payloads [`Ambiguity`] and [`GenuineCallback`]; and
//! the crate's [`Result`]. Its messages and hints are `message.rs`'s.

use serde::Serialize;

use super::codes::{ErrorCode, ALL_CODE_TEXTS};

/// One place where a body's signed message does not determine it: the payload
/// of [`Error::AmbiguousCallback`] and [`Error::AmbiguousRequest`]. The rules
/// that find them are `canonical::ambiguity`'s.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ambiguity {
    /// Dotted path of the key or value, e.g. `integration.redirect_url`.
    pub path: String,
    /// The rule: `KEY_SEPARATOR`, `EMPTY_TOP_LEVEL_KEY`, `VALUE_ENTRY_TEXT` or `UNREAD_AFTER_TEXT`.
    pub rule: &'static str,
}

/// A callback body whose signature checked, with what verified it: carried by an
/// `INVALID_CALLBACK` raised after the check, so that a genuine event is never lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenuineCallback {
    /// The body as received.
    pub raw_body: String,
    /// `x-access-timestamp`, as Unix seconds.
    pub timestamp: u64,
    /// `x-access-merchant-id` as received (not covered by the signature).
    pub merchant_id: String,
    /// Which of the configured keys it was signed with.
    pub key_index: usize,
    /// Where the signed message does not determine the body: empty unless the
    /// caller allowed ambiguous callbacks (`allowAmbiguous`).
    pub ambiguities: Vec<Ambiguity>,
}

/// Everything that can go wrong when building, signing or verifying.
///
/// Codes are stable: new variants may be added, existing codes never change.
/// Each variant names its [`ErrorCode`]; [`Error::code`] gives its text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The body text is not valid JSON (`INVALID_JSON`).
    InvalidJson {
        /// The JSON reader's description of the fault, with its position.
        message: String,
    },
    /// The body is valid JSON but its top level is not an object (`BODY_NOT_OBJECT`).
    BodyNotObject {
        /// The JSON type found instead, e.g. `an array`.
        found: &'static str,
    },
    /// The body is larger than the configured limit, in bytes (`BODY_TOO_LARGE`).
    BodyTooLarge {
        /// The limit, in bytes.
        limit: usize,
        /// The body's size, in bytes.
        actual: usize,
    },
    /// The canonical form would be far larger than the body itself, because long
    /// keys repeat in the entry of every leaf below them (`BODY_TOO_LARGE`).
    CanonicalTooLarge {
        /// The largest canonical form allowed for a body of this size, in bytes.
        limit: u64,
        /// The canonical form's size as far as it was counted, in bytes.
        actual: u64,
    },
    /// Objects and arrays nest deeper than the limit (`BODY_TOO_DEEP`).
    BodyTooDeep {
        /// The deepest nesting allowed.
        limit: usize,
    },
    /// A received request's body stream failed before its end, e.g. the sender's
    /// connection closed mid-body (`BODY_UNREADABLE`). `verifyCallbackRequest` raises it;
    /// nothing of the body is verified or kept.
    BodyUnreadable {
        /// The stream's own error message.
        reason: String,
    },
    /// An object repeats a key; senders and receivers could read it differently (`DUPLICATE_KEY`).
    DuplicateKey {
        /// Where the repeated key is.
        path: String,
    },
    /// A number that has no exact canonical text: too long, or out of float range (`INVALID_NUMBER`).
    InvalidNumber {
        /// Where the number is.
        path: String,
        /// The number as written.
        text: String,
    },
    /// A JS value that JSON cannot carry: `undefined`, a function, `NaN`, a cycle… (`INVALID_BODY`).
    InvalidBody {
        /// Where the value is.
        path: String,
        /// What is wrong with it, e.g. `is undefined`.
        reason: String,
    },
    /// The timestamp is not Unix seconds written as digits without a sign, spaces or a
    /// leading zero, at most 10 of them; a callback's must be exactly 10 (`INVALID_TIMESTAMP`).
    InvalidTimestamp {
        /// The timestamp as given.
        value: String,
        /// What was expected instead.
        expected: &'static str,
    },
    /// A timestamp above 2^32 seconds (the year 2106): most likely milliseconds, as
    /// `Date.now()` gives them (`INVALID_TIMESTAMP`, with a hint).
    TimestampInMilliseconds {
        /// The timestamp as given.
        value: String,
    },
    /// An option has a value outside its documented set (`INVALID_OPTION`).
    InvalidOption {
        /// The option's name.
        name: String,
        /// What is wrong with its value.
        reason: String,
    },
    /// A required argument is missing or empty, e.g. the merchant id (`INVALID_ARGUMENT`).
    InvalidArgument {
        /// The argument's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A callback's body was given parsed (an object or array) instead of as its raw text
    /// or bytes: a framework read the JSON before verification (`INVALID_ARGUMENT`, with a
    /// hint on how to get the raw body).
    RawBodyParsed {
        /// Whether it is an empty object, as `express.raw()` leaves for a JSON request
        /// its `type` does not match.
        empty: bool,
    },
    /// The PEM or DER could not be read as a key (`INVALID_KEY`).
    InvalidKey {
        /// Why the key could not be read.
        reason: String,
    },
    /// An HMAC secret that cannot be one: empty, too short or too long, or text
    /// with whitespace at either end (`INVALID_KEY`, as for an unreadable RSA key).
    InvalidSecret {
        /// What is wrong with it.
        reason: String,
    },
    /// The private key is encrypted; decrypt it first (`KEY_ENCRYPTED`).
    KeyEncrypted,
    /// The key is not RSA (EC, DSA, Ed25519, a certificate…) (`KEY_TYPE_UNSUPPORTED`).
    KeyTypeUnsupported {
        /// What the key is instead.
        found: String,
    },
    /// The RSA modulus is outside 2048 to 4096 bits (`KEY_SIZE_UNSUPPORTED`).
    KeySizeUnsupported {
        /// The modulus size, in bits.
        bits: usize,
        /// The smallest size accepted, in bits (the RSA key policy's, carried here).
        min_bits: usize,
        /// The largest size accepted, in bits.
        max_bits: usize,
    },
    /// The RSA public exponent is unsafe or unusual (`KEY_EXPONENT_UNSUPPORTED`).
    KeyExponentUnsupported {
        /// The exponent, in decimal.
        exponent: String,
    },
    /// A callback header is absent (`MISSING_HEADER`).
    MissingHeader {
        /// The header's name, lower case.
        name: &'static str,
    },
    /// A header is present more than once, or its value is not a single string (`INVALID_HEADER`).
    InvalidHeader {
        /// The header's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// `x-access-token` is not the configured public key ('Invalid public key', `INVALID_PUBLIC_KEY`).
    InvalidPublicKey {
        /// What to check next.
        hint: String,
    },
    /// The signature does not verify for this body and timestamp ('Invalid signature', `INVALID_SIGNATURE`).
    InvalidSignature {
        /// What to check next.
        hint: String,
    },
    /// The timestamp is further from `now` than the tolerance allows (`TIMESTAMP_OUT_OF_TOLERANCE`).
    TimestampOutOfTolerance {
        /// The timestamp minus now, in seconds.
        skew_seconds: i128,
        /// The largest skew allowed, in seconds.
        tolerance_seconds: u64,
    },
    /// No verifying key was configured (`NO_VERIFYING_KEY`).
    NoVerifyingKey,
    /// The RSA operation or the random source failed (`CRYPTO_FAILURE`).
    CryptoFailure {
        /// What failed.
        reason: String,
    },
    /// A synchronous RSA operation in a build without RSA in WebAssembly (the lean and
    /// receiver entries), which do RSA by WebCrypto in the async functions only (`SYNC_RSA_UNAVAILABLE`).
    SyncRsaUnavailable {
        /// What needed RSA, e.g. `verifyCallback with an RSA key`.
        operation: &'static str,
        /// What to call instead, e.g. `verifyCallbackAsync`.
        instead: &'static str,
    },
    /// A decimal amount is malformed, negative, too large, or has more fraction digits than its currency (`INVALID_AMOUNT`).
    InvalidAmount {
        /// The amount as given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The currency code has no known number of fraction digits (`UNKNOWN_CURRENCY`).
    UnknownCurrency {
        /// The currency code as given.
        code: String,
    },
    /// A callback body lacks the shape of the spec's callback, e.g. no `status.status` (`INVALID_CALLBACK`).
    /// When raised after the signature checked, it carries the genuine body and what
    /// verified it, so that nothing is lost.
    InvalidCallback {
        /// Where the first fault is, e.g. `payment.amount`; empty for the whole body.
        path: String,
        /// What is wrong there.
        reason: String,
        /// The body and its verification, when its signature is genuine.
        verified: Option<Box<GenuineCallback>>,
    },
    /// An API response lacks the shape the spec gives for it (`INVALID_RESPONSE`).
    InvalidResponse {
        /// Where the fault is; empty for the whole body.
        path: String,
        /// What is wrong there.
        reason: String,
    },
    /// The signature is genuine, but the signed message does not determine this body:
    /// another body with a different meaning has the same signature (`AMBIGUOUS_CALLBACK`).
    /// Carries where, and the body as received, so nothing is lost.
    AmbiguousCallback {
        /// Every place where the signed message does not determine the body.
        ambiguities: Vec<Ambiguity>,
        /// The body as received.
        raw_body: String,
    },
    /// `strict` signing refused a body whose signed message would not determine it (`AMBIGUOUS_REQUEST`).
    AmbiguousRequest {
        /// Every place where the signed message would not determine the body.
        ambiguities: Vec<Ambiguity>,
    },
    /// `x-access-merchant-id` is not the expected merchant (`MERCHANT_ID_MISMATCH`).
    MerchantIdMismatch {
        /// The merchant id that was expected.
        expected: String,
        /// The merchant id the header carried.
        actual: String,
    },
}

impl Error {
    /// The stable code of this error.
    pub fn error_code(&self) -> ErrorCode {
        match self {
            Error::InvalidJson { .. } => ErrorCode::InvalidJson,
            Error::BodyNotObject { .. } => ErrorCode::BodyNotObject,
            Error::BodyTooLarge { .. } | Error::CanonicalTooLarge { .. } => ErrorCode::BodyTooLarge,
            Error::BodyTooDeep { .. } => ErrorCode::BodyTooDeep,
            Error::BodyUnreadable { .. } => ErrorCode::BodyUnreadable,
            Error::DuplicateKey { .. } => ErrorCode::DuplicateKey,
            Error::InvalidNumber { .. } => ErrorCode::InvalidNumber,
            Error::InvalidBody { .. } => ErrorCode::InvalidBody,
            Error::InvalidTimestamp { .. } | Error::TimestampInMilliseconds { .. } => ErrorCode::InvalidTimestamp,
            Error::InvalidOption { .. } => ErrorCode::InvalidOption,
            Error::InvalidArgument { .. } | Error::RawBodyParsed { .. } => ErrorCode::InvalidArgument,
            Error::InvalidKey { .. } | Error::InvalidSecret { .. } => ErrorCode::InvalidKey,
            Error::KeyEncrypted => ErrorCode::KeyEncrypted,
            Error::KeyTypeUnsupported { .. } => ErrorCode::KeyTypeUnsupported,
            Error::KeySizeUnsupported { .. } => ErrorCode::KeySizeUnsupported,
            Error::KeyExponentUnsupported { .. } => ErrorCode::KeyExponentUnsupported,
            Error::MissingHeader { .. } => ErrorCode::MissingHeader,
            Error::InvalidHeader { .. } => ErrorCode::InvalidHeader,
            Error::InvalidPublicKey { .. } => ErrorCode::InvalidPublicKey,
            Error::InvalidSignature { .. } => ErrorCode::InvalidSignature,
            Error::TimestampOutOfTolerance { .. } => ErrorCode::TimestampOutOfTolerance,
            Error::NoVerifyingKey => ErrorCode::NoVerifyingKey,
            Error::CryptoFailure { .. } => ErrorCode::CryptoFailure,
            Error::SyncRsaUnavailable { .. } => ErrorCode::SyncRsaUnavailable,
            Error::InvalidAmount { .. } => ErrorCode::InvalidAmount,
            Error::UnknownCurrency { .. } => ErrorCode::UnknownCurrency,
            Error::InvalidCallback { .. } => ErrorCode::InvalidCallback,
            Error::InvalidResponse { .. } => ErrorCode::InvalidResponse,
            Error::AmbiguousCallback { .. } => ErrorCode::AmbiguousCallback,
            Error::AmbiguousRequest { .. } => ErrorCode::AmbiguousRequest,
            Error::MerchantIdMismatch { .. } => ErrorCode::MerchantIdMismatch,
        }
    }

    /// The stable code's text, e.g. `INVALID_SIGNATURE`: `self.error_code().as_str()`.
    pub fn code(&self) -> &'static str {
        self.error_code().as_str()
    }

    /// The HTTP status a callback receiver answers for this error: see [`ErrorCode::http_status`],
    /// except that an `INVALID_CALLBACK` whose signature was not checked (`parseCallback`,
    /// `prepareCallback` before the caller's RSA check) is 400: nothing says the service sent it.
    pub fn status(&self) -> u16 {
        match self {
            Error::InvalidCallback { verified: None, .. } => 400,
            _ => self.error_code().http_status(),
        }
    }

    /// Every code's text, in the order of [`ErrorCode::ALL`].
    pub const ALL_CODES: &'static [&'static str] = &ALL_CODE_TEXTS;
}

impl std::error::Error for Error {}

/// Shorthand used across the crate.
pub type Result<T> = std::result::Result<T, Error>;
