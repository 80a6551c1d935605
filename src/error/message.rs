//! What an [`Error`] says: its message ([`fmt::Display`], one line a person can
//! read, without the hint) and its hint ([`Error::hint`], what to do next).

use std::fmt;

use super::variants::{Ambiguity, Error};

impl Error {
    /// A short suggestion of what to do next, where there is one.
    pub fn hint(&self) -> Option<&str> {
        match self {
            Error::InvalidPublicKey { hint } | Error::InvalidSignature { hint } => Some(hint),
            Error::SyncRsaUnavailable { instead, .. } => Some(instead),
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
            Error::SyncRsaUnavailable { operation, .. } => write!(
                f,
                "{operation} needs RSA in WebAssembly, which this build leaves out (payment-intake/lean, payment-intake/receiver: RSA by WebCrypto, async only)"
            ),
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
