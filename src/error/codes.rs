//! The one table of error codes (`error_codes!`, a row per code: the variant and
//! its doc, its text, the HTTP status a callback receiver answers, and which side
//! makes it), and everything made from it: [`ErrorCode`], [`ErrorCode::ALL`],
//! `as_str`, `http_status`, `made_by`, and the texts of every code.

use std::fmt;

/// Which side makes an error of a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MadeBy {
    /// A variant of [`Error`](crate::Error) (the core, in Rust).
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
        /// The stable, machine-readable code of an [`Error`](crate::Error), e.g. `INVALID_SIGNATURE`.
        ///
        /// Codes are stable: new ones may be added, existing ones never change.
        /// Several [`Error`](crate::Error) variants may share a code (`BODY_TOO_LARGE`).
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
    /// `SYNC_RSA_UNAVAILABLE`: a synchronous RSA operation in a build without RSA in WebAssembly (`payment-intake/lean`, `payment-intake/receiver`).
    SyncRsaUnavailable = "SYNC_RSA_UNAVAILABLE", 500, Core;
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

/// The texts of [`ErrorCode::ALL`], made from it at compile time.
pub(crate) const ALL_CODE_TEXTS: [&str; ErrorCode::ALL.len()] = {
    let mut texts = [""; ErrorCode::ALL.len()];
    let mut i = 0;
    while i < texts.len() {
        texts[i] = ErrorCode::ALL[i].as_str();
        i += 1;
    }
    texts
};
