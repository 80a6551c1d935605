//! The crate's one error type, [`Error`], and its stable codes, [`ErrorCode`].
//! Every failure has a machine-readable code, a message a person can read,
//! and where useful a hint. [`ErrorCode::ALL`] is the one list of codes: the
//! JS `errorCodes()`, the TS union (checked against it by tests) and the fuzz
//! targets' lists all come from it.

use std::fmt;

use serde::Serialize;

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

/// Which side makes an error of a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MadeBy {
    /// A variant of [`Error`] (the core, in Rust).
    Core,
    /// The API client, in JS (`pkg-template/client/`): no variant here.
    Client,
}

/// The error codes, a row each: the variant and its doc, its text, the HTTP status a
/// receiver of a callback answers when verifying fails with it ([`ErrorCode::http_status`]
/// says why each is what it is), and which side makes it. The enum, [`ErrorCode::ALL`],
/// `as_str`, `http_status` and `made_by` all come from these rows.
macro_rules! error_codes {
    ($($(#[doc = $doc:literal])* $variant:ident = $text:literal, $status:literal, $made_by:ident;)*) => {
        /// The stable, machine-readable code of an [`Error`], e.g. `INVALID_SIGNATURE`.
        ///
        /// Codes are stable: new ones may be added, existing ones never change.
        /// Several [`Error`] variants may share a code (`BODY_TOO_LARGE`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ErrorCode {
            $($(#[doc = $doc])* $variant,)*
        }

        /// How many codes there are.
        const CODE_COUNT: usize = [$(ErrorCode::$variant),*].len();

        impl ErrorCode {
            /// Every code, in a stable order: the one list of codes of this crate.
            pub const ALL: [ErrorCode; CODE_COUNT] = [$(ErrorCode::$variant),*];

            /// The code's text, e.g. `INVALID_SIGNATURE`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $text,)*
                }
            }

            /// The HTTP status a receiver of a callback answers when verifying it fails with
            /// this code: 4xx for what the sender caused (a bad signature, header, timestamp or
            /// body), 5xx only for the receiver's own failures (its keys, options, arguments or
            /// crypto), and 200 for `INVALID_CALLBACK` and `AMBIGUOUS_CALLBACK`: the signature is
            /// genuine, so the event is acknowledged (a retry would bring the same body) and the
            /// raw body the error carries is kept for a person or a status check. An API
            /// response the service sent malformed (`INVALID_RESPONSE`) is the upstream's fault
            /// (502); the client's codes are what a merchant's server answers its own caller
            /// when a call to the service failed so. The statuses are written once, in the rows.
            pub const fn http_status(self) -> u16 {
                match self {
                    $(ErrorCode::$variant => $status,)*
                }
            }

            /// Which side makes an error of this code.
            #[cfg_attr(not(test), allow(dead_code))] // read by the tests
            pub(crate) const fn made_by(self) -> MadeBy {
                match self {
                    $(ErrorCode::$variant => MadeBy::$made_by,)*
                }
            }
        }
    };
}

error_codes! {
    /// `INVALID_JSON`: the body text is not valid JSON.
    InvalidJson = "INVALID_JSON", 400, Core;
    /// `BODY_NOT_OBJECT`: the body is JSON, but its top level is not an object.
    BodyNotObject = "BODY_NOT_OBJECT", 400, Core;
    /// `BODY_TOO_LARGE`: the body, or its canonical form, is over its size limit.
    BodyTooLarge = "BODY_TOO_LARGE", 413, Core;
    /// `BODY_TOO_DEEP`: objects and arrays nest deeper than the limit.
    BodyTooDeep = "BODY_TOO_DEEP", 400, Core;
    /// `BODY_UNREADABLE`: a received request's body stream failed before its end.
    BodyUnreadable = "BODY_UNREADABLE", 400, Core;
    /// `DUPLICATE_KEY`: an object repeats a key.
    DuplicateKey = "DUPLICATE_KEY", 400, Core;
    /// `INVALID_NUMBER`: a number has no exact canonical text.
    InvalidNumber = "INVALID_NUMBER", 400, Core;
    /// `INVALID_BODY`: a JS value JSON cannot carry (`undefined`, a function, `NaN`, a cycle…).
    InvalidBody = "INVALID_BODY", 500, Core;
    /// `INVALID_TIMESTAMP`: the timestamp is not Unix seconds written as the spec requires.
    InvalidTimestamp = "INVALID_TIMESTAMP", 400, Core;
    /// `INVALID_OPTION`: an option has a value outside its documented set.
    InvalidOption = "INVALID_OPTION", 500, Core;
    /// `INVALID_ARGUMENT`: a required argument is missing or empty, e.g. the merchant id.
    InvalidArgument = "INVALID_ARGUMENT", 500, Core;
    /// `INVALID_KEY`: the PEM or DER could not be read as a key.
    InvalidKey = "INVALID_KEY", 500, Core;
    /// `KEY_ENCRYPTED`: the private key is encrypted.
    KeyEncrypted = "KEY_ENCRYPTED", 500, Core;
    /// `KEY_TYPE_UNSUPPORTED`: the key is not RSA.
    KeyTypeUnsupported = "KEY_TYPE_UNSUPPORTED", 500, Core;
    /// `KEY_SIZE_UNSUPPORTED`: the RSA modulus is outside 2048 to 4096 bits.
    KeySizeUnsupported = "KEY_SIZE_UNSUPPORTED", 500, Core;
    /// `KEY_EXPONENT_UNSUPPORTED`: the RSA public exponent is unsafe or unusual.
    KeyExponentUnsupported = "KEY_EXPONENT_UNSUPPORTED", 500, Core;
    /// `MISSING_HEADER`: a callback header is absent.
    MissingHeader = "MISSING_HEADER", 400, Core;
    /// `INVALID_HEADER`: a header is repeated, not a single string, or malformed.
    InvalidHeader = "INVALID_HEADER", 400, Core;
    /// `INVALID_PUBLIC_KEY`: `x-access-token` is not the configured public key ('Invalid public key').
    InvalidPublicKey = "INVALID_PUBLIC_KEY", 401, Core;
    /// `INVALID_SIGNATURE`: the signature does not verify ('Invalid signature').
    InvalidSignature = "INVALID_SIGNATURE", 401, Core;
    /// `TIMESTAMP_OUT_OF_TOLERANCE`: the timestamp is too far from now.
    TimestampOutOfTolerance = "TIMESTAMP_OUT_OF_TOLERANCE", 401, Core;
    /// `NO_VERIFYING_KEY`: no verifying key was configured.
    NoVerifyingKey = "NO_VERIFYING_KEY", 500, Core;
    /// `CRYPTO_FAILURE`: the RSA operation or the random source failed.
    CryptoFailure = "CRYPTO_FAILURE", 500, Core;
    /// `INVALID_AMOUNT`: a decimal amount is malformed, negative, too large or too precise.
    InvalidAmount = "INVALID_AMOUNT", 500, Core;
    /// `UNKNOWN_CURRENCY`: the currency has no known number of fraction digits.
    UnknownCurrency = "UNKNOWN_CURRENCY", 500, Core;
    /// `INVALID_CALLBACK`: a callback body lacks the shape of the spec's callback.
    InvalidCallback = "INVALID_CALLBACK", 200, Core;
    /// `INVALID_RESPONSE`: an API response lacks the shape the spec gives for it.
    InvalidResponse = "INVALID_RESPONSE", 502, Core;
    /// `AMBIGUOUS_CALLBACK`: the signature is genuine, but the signed message does not determine the body.
    AmbiguousCallback = "AMBIGUOUS_CALLBACK", 200, Core;
    /// `AMBIGUOUS_REQUEST`: `strict` signing refused a body its signed message would not determine.
    AmbiguousRequest = "AMBIGUOUS_REQUEST", 500, Core;
    /// `MERCHANT_ID_MISMATCH`: `x-access-merchant-id` is not the expected merchant.
    MerchantIdMismatch = "MERCHANT_ID_MISMATCH", 403, Core;
    /// `REQUEST_INVALID`: the client refused a request body before sending it (its validation report in `report`).
    RequestInvalid = "REQUEST_INVALID", 500, Client;
    /// `REQUEST_REJECTED`: the service answered `status: "error"`.
    RequestRejected = "REQUEST_REJECTED", 502, Client;
    /// `AUTH_REFUSED`: the service refused the request's signature or public key (401).
    AuthRefused = "AUTH_REFUSED", 500, Client;
    /// `PAYMENT_EXISTS`: a create whose `payment_id` the service already holds, for another request.
    PaymentExists = "PAYMENT_EXISTS", 500, Client;
    /// `SERVICE_UNAVAILABLE`: the service answered 5xx or 429 after the retries.
    ServiceUnavailable = "SERVICE_UNAVAILABLE", 503, Client;
    /// `NETWORK_ERROR`: the connection failed after the retries.
    NetworkError = "NETWORK_ERROR", 502, Client;
    /// `TIMEOUT`: the call's deadline passed.
    Timeout = "TIMEOUT", 504, Client;
    /// `STORE_FAILED`: the client's store (its database) failed to record a create: nothing was sent.
    StoreFailed = "STORE_FAILED", 503, Client;
    /// `ABORTED`: the caller's `AbortSignal` aborted the call (its reason in `cause`).
    Aborted = "ABORTED", 500, Client;
}

impl ErrorCode {
    /// The code whose text is `text`, if there is one.
    pub fn from_text(text: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|code| code.as_str() == text)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
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

    /// A short suggestion of what to do next, where there is one.
    pub fn hint(&self) -> Option<&str> {
        match self {
            Error::InvalidPublicKey { hint } | Error::InvalidSignature { hint } => Some(hint),
            Error::KeyEncrypted => Some("decrypt it first, e.g. `openssl pkey -in key.pem -out plain.pem`"),
            Error::DuplicateKey { .. } => Some("send each object key once"),
            Error::InvalidNumber { .. } => Some("pass the body as JSON text, or use an integer of at most 4300 digits"),
            Error::InvalidTimestamp { .. } => Some("send Unix seconds: Math.floor(Date.now() / 1000)"),
            Error::TimestampInMilliseconds { .. } => {
                Some("it looks like milliseconds (Date.now()): send seconds, Math.floor(Date.now() / 1000)")
            }
            Error::AmbiguousCallback { .. } => Some(
                "the signature is genuine, but the signed message does not determine this body: do not act on it; \
                 fetch the payment's state with the info operation",
            ),
            Error::AmbiguousRequest { .. } => Some(
                "keep ':' and ';' out of keys, and ';' followed by ':' out of customer text; or sign without strict",
            ),
            Error::MerchantIdMismatch { .. } => Some("check which project's URL and keys this callback reached"),
            Error::TimestampOutOfTolerance { .. } => Some(
                "either this machine's clock is off (check that NTP keeps it in time) or the message is an old one \
                 sent again (a replay): do not act on it",
            ),
            Error::BodyUnreadable { .. } => Some(
                "the body did not arrive whole (the connection closed, or the stream failed): act on nothing \
                 of it, and answer 400 if the connection is still open",
            ),
            Error::RawBodyParsed { .. } => Some(
                "pass the raw bytes: Express: express.raw({ type: 'application/json' }); Fastify: \
                 addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => done(null, body)); \
                 Fetch (Next.js, Hono, Workers): await request.arrayBuffer(), or verifyCallbackRequest(request, keys, options)",
            ),
            Error::InvalidCallback { verified: Some(_), .. } => Some(
                "answer 200 so the service does not resend it, keep the body (error.body) and handle the event \
                 by hand or fetch the payment's state with the info operation",
            ),
            _ => None,
        }
    }

    /// Every code's text, in the order of [`ErrorCode::ALL`].
    pub const ALL_CODES: &'static [&'static str] = &ALL_CODE_TEXTS;
}

/// The texts of [`ErrorCode::ALL`], made from it at compile time.
const ALL_CODE_TEXTS: [&str; ErrorCode::ALL.len()] = {
    let mut texts = [""; ErrorCode::ALL.len()];
    let mut i = 0;
    while i < texts.len() {
        texts[i] = ErrorCode::ALL[i].as_str();
        i += 1;
    }
    texts
};

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
            Error::BodyUnreadable { reason } => {
                let shown: String = reason.chars().take(200).collect();
                write!(f, "Body could not be read to its end: {shown}")
            }
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
            Error::TimestampInMilliseconds { value } => {
                let shown: String = value.chars().take(40).collect();
                write!(f, "Timestamp '{shown}' is after the year 2106 in Unix seconds")
            }
            Error::InvalidOption { name, reason } => write!(f, "Canonical option '{name}' {reason}"),
            Error::InvalidArgument { name, reason } => write!(f, "'{name}' {reason}"),
            Error::RawBodyParsed { empty: true } => write!(
                f,
                "'rawBody' is an empty object, not the raw body: the framework's body parser skipped or \
                 parsed this JSON request before verification (express.raw() reads only \
                 application/octet-stream unless told its type)"
            ),
            Error::RawBodyParsed { empty: false } => write!(
                f,
                "'rawBody' is a parsed object, not the raw body: a framework parsed the callback's JSON \
                 before verification, and the signature covers the exact bytes that were sent"
            ),
            Error::InvalidKey { reason } => write!(f, "Not a readable RSA key: {reason}"),
            Error::InvalidSecret { reason } => write!(f, "Not a usable HMAC secret: {reason}"),
            Error::KeyEncrypted => write!(f, "The private key is encrypted"),
            Error::KeyTypeUnsupported { found } => {
                write!(f, "Only RSA keys are supported, this is {found}")
            }
            // Within the range, only a size to generate is refused: keys are made in whole bytes.
            Error::KeySizeUnsupported { bits, min_bits, max_bits } if (*min_bits..=*max_bits).contains(bits) => {
                write!(f, "RSA keys are generated in whole bytes: {bits} bits is not a multiple of 8")
            }
            Error::KeySizeUnsupported { bits, min_bits, max_bits } => {
                write!(f, "RSA keys must be {min_bits} to {max_bits} bits, this one is {bits}")
            }
            Error::KeyExponentUnsupported { exponent } => {
                write!(f, "RSA public exponent {exponent} is not accepted")
            }
            Error::MissingHeader { name } => write!(f, "Missing header '{name}'"),
            Error::InvalidHeader { name, reason } => write!(f, "Header '{name}' {reason}"),
            // The spec's wording; what to check next is the hint, not repeated here.
            Error::InvalidPublicKey { .. } => {
                write!(f, "Invalid public key: x-access-token is not one of the configured keys")
            }
            Error::InvalidSignature { .. } => {
                write!(f, "Invalid signature: it does not verify for this body and timestamp")
            }
            Error::TimestampOutOfTolerance { skew_seconds, tolerance_seconds } => {
                let (seconds, when) = if *skew_seconds < 0 {
                    (skew_seconds.unsigned_abs(), "old")
                } else {
                    (skew_seconds.unsigned_abs(), "in the future")
                };
                write!(f, "Timestamp is {seconds} seconds {when}, outside the tolerance of {tolerance_seconds} seconds")
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
            Error::InvalidCallback { path, reason, verified } => {
                let what = if verified.is_some() {
                    "Callback signature is genuine, but the body is not the spec's callback"
                } else {
                    "Callback body is not the spec's callback"
                };
                let path = if path.is_empty() { "the body" } else { path };
                write!(f, "{what}: {path} {reason}")
            }
            Error::InvalidResponse { path, reason } => {
                let path = if path.is_empty() { "the body" } else { path };
                write!(f, "Response body is not the shape the spec gives: {path} {reason}")
            }
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
    fn all_has_each_code_once_and_its_text_round_trips() {
        let mut texts: Vec<&str> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
        assert_eq!(texts, Error::ALL_CODES);
        for code in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_text(code.as_str()), Some(code));
            assert_eq!(code.to_string(), code.as_str());
            let shape = code.as_str().bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
            assert!(shape, "{code}");
        }
        assert_eq!(ErrorCode::from_text("invalid_json"), None);
        texts.sort_unstable();
        texts.dedup();
        assert_eq!(texts.len(), ErrorCode::ALL.len());
    }

    /// One error of every variant: together they use every code of [`ErrorCode::ALL`].
    #[test]
    fn every_code_is_some_variant_s_code() {
        let text = || String::from("x");
        let every = [
            Error::InvalidJson { message: text() },
            Error::BodyNotObject { found: "an array" },
            Error::BodyTooLarge { limit: 1, actual: 2 },
            Error::CanonicalTooLarge { limit: 1, actual: 2 },
            Error::BodyTooDeep { limit: 1 },
            Error::BodyUnreadable { reason: text() },
            Error::DuplicateKey { path: text() },
            Error::InvalidNumber { path: text(), text: text() },
            Error::InvalidBody { path: text(), reason: text() },
            Error::InvalidTimestamp { value: text(), expected: "digits" },
            Error::TimestampInMilliseconds { value: text() },
            Error::InvalidOption { name: text(), reason: text() },
            Error::InvalidArgument { name: text(), reason: text() },
            Error::RawBodyParsed { empty: true },
            Error::InvalidKey { reason: text() },
            Error::InvalidSecret { reason: text() },
            Error::KeyEncrypted,
            Error::KeyTypeUnsupported { found: text() },
            Error::KeySizeUnsupported { bits: 1024, min_bits: 2048, max_bits: 4096 },
            Error::KeyExponentUnsupported { exponent: text() },
            Error::MissingHeader { name: "x-access-token" },
            Error::InvalidHeader { name: text(), reason: text() },
            Error::InvalidPublicKey { hint: text() },
            Error::InvalidSignature { hint: text() },
            Error::TimestampOutOfTolerance { skew_seconds: 1, tolerance_seconds: 0 },
            Error::NoVerifyingKey,
            Error::CryptoFailure { reason: text() },
            Error::InvalidAmount { value: text(), reason: text() },
            Error::UnknownCurrency { code: text() },
            Error::InvalidCallback { path: text(), reason: text(), verified: None },
            Error::InvalidResponse { path: text(), reason: text() },
            Error::AmbiguousCallback { ambiguities: Vec::new(), raw_body: text() },
            Error::AmbiguousRequest { ambiguities: Vec::new() },
            Error::MerchantIdMismatch { expected: text(), actual: text() },
        ];
        let mut used: Vec<ErrorCode> = every.iter().map(Error::error_code).collect();
        for error in &every {
            assert_eq!(error.code(), error.error_code().as_str());
            assert!(!error.to_string().is_empty());
        }
        used.sort_unstable();
        used.dedup();
        let mut all = ErrorCode::ALL.to_vec();
        // The client's codes (pkg-template/client/) are made in JS, by no variant here.
        all.retain(|code| code.made_by() == MadeBy::Core);
        all.sort_unstable();
        assert_eq!(used, all);
    }

    #[test]
    fn every_code_has_a_status_and_only_our_own_failures_are_5xx() {
        let sender = [
            ErrorCode::InvalidJson,
            ErrorCode::BodyNotObject,
            ErrorCode::BodyTooLarge,
            ErrorCode::BodyTooDeep,
            ErrorCode::BodyUnreadable,
            ErrorCode::DuplicateKey,
            ErrorCode::InvalidNumber,
            ErrorCode::InvalidTimestamp,
            ErrorCode::MissingHeader,
            ErrorCode::InvalidHeader,
            ErrorCode::InvalidPublicKey,
            ErrorCode::InvalidSignature,
            ErrorCode::TimestampOutOfTolerance,
            ErrorCode::MerchantIdMismatch,
        ];
        let genuine = [ErrorCode::InvalidCallback, ErrorCode::AmbiguousCallback];
        for code in ErrorCode::ALL {
            let status = code.http_status();
            if sender.contains(&code) {
                assert!((400..500).contains(&status), "{code}: {status}");
            } else if genuine.contains(&code) {
                assert_eq!(status, 200, "{code}");
            } else {
                assert!((500..600).contains(&status), "{code}: {status}");
            }
        }
        assert_eq!(ErrorCode::InvalidSignature.http_status(), 401);
        assert_eq!(ErrorCode::BodyTooLarge.http_status(), 413);
        let error = Error::CanonicalTooLarge { limit: 1, actual: 2 };
        assert_eq!(error.status(), 413);
    }

    #[test]
    fn a_genuine_invalid_callback_says_so_and_keeps_the_hint_out_of_the_message() {
        let genuine = GenuineCallback {
            raw_body: "{}".into(),
            timestamp: 1,
            merchant_id: "m".into(),
            key_index: 0,
            ambiguities: Vec::new(),
        };
        let verified = Error::InvalidCallback {
            path: "payment_info.amount".into(),
            reason: "must be an integer, found a string".into(),
            verified: Some(Box::new(genuine)),
        };
        let text = verified.to_string();
        assert_eq!(
            text,
            "Callback signature is genuine, but the body is not the spec's callback: \
             payment_info.amount must be an integer, found a string"
        );
        let hint = verified.hint().expect("a hint");
        assert!(!text.contains(hint));
        let unverified =
            Error::InvalidCallback { path: String::new(), reason: "must be a JSON object".into(), verified: None };
        assert_eq!(unverified.to_string(), "Callback body is not the spec's callback: the body must be a JSON object");
        assert_eq!(unverified.hint(), None);
    }

    #[test]
    fn spec_wording_is_kept() {
        let e = Error::InvalidPublicKey { hint: "x".into() };
        assert!(e.to_string().starts_with("Invalid public key"));
        let e = Error::InvalidSignature { hint: "x".into() };
        assert!(e.to_string().starts_with("Invalid signature"));
    }
}
