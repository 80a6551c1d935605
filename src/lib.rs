//! payment-intake: build, sign and verify messages of the Payment Intake
//! Service, and validate requests against its spec. The core is plain Rust;
//! `wasm/` holds the JS bindings.
//!
//! # Map of the source
//!
//! One folder per concept, each with a `//!` header saying what it owns:
//!
//! - `json/`: the JSON tree, its limits, and the readers from text;
//! - `canonical/`: the signed message (entries, sorting, numbers, the
//!   one-pass text path, the ambiguity checks);
//! - `rsa/`: keys, RSASSA-PKCS1-v1_5 (`pkcs1v15`), and the crate-private
//!   arithmetic (`hazmat`), with its constant-time claims written down;
//! - `hmac/`: HMAC-SHA512, the service's other signature, and its keys;
//! - `profile/`: a sender's whole rule set (canonical options, digest, token
//!   and signature encodings) and the named profiles;
//! - `request/`: building request bodies and signing them into headers;
//! - `callback/`: verifying and diagnosing callbacks, and their typed model;
//! - `spec/`: the spec's tables as data (operations, availability, states,
//!   decline reasons, currencies, headers, limits);
//! - `validate/`: request validation against those tables;
//! - `error/`: the one [`Error`] and its [`ErrorCode`]s, from the one table
//!   of codes, with their messages and hints;
//! - `wasm/`: the JS bindings (wasm32 only).
//!
//! The `pub use` list below is the Rust API. Everything else is crate-private;
//! fuzz targets, benches and integration tests reach internals through the
//! hidden `__private` module, which is not API.

#![warn(missing_docs)]
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]
// The lean builds (`--no-default-features`, src/wasm/exports/mod.rs) leave out exports and
// so leave helpers of theirs unused: the default build is the one held to no dead code.
#![cfg_attr(not(all(feature = "wasm-rsa", feature = "full-api")), allow(dead_code, unused_imports))]

pub(crate) mod callback;
pub(crate) mod canonical;
pub(crate) mod closest;
pub(crate) mod error;
pub(crate) mod hmac;
pub(crate) mod json;
pub(crate) mod options;
pub(crate) mod profile;
pub(crate) mod request;
pub(crate) mod rsa;
pub(crate) mod spec;
pub(crate) mod validate;

#[cfg(any(target_arch = "wasm32", test))]
mod wasm;

pub use callback::diagnose::{diagnose_callback, Cause, Diagnosis};
pub use callback::keys::{CallbackKey, ConfiguredKey};
pub use callback::model::{
    parse_callback, parse_callback_with, parse_info_response, Callback, DisplayItem, InfoResponse, IntegrationLinks,
    PaymentInfo, PaymentInstruction, Requisites, SenderRequisites, CARD_HOLDER_PLACEHOLDER,
};
pub use callback::{prepare_callback, verify_callback, ReceivedHeaders, VerifiedCallback, VerifyOptions};
pub use canonical::ambiguity::{ambiguities, Ambiguity};
pub use canonical::{
    canonical_entries, canonical_message, canonical_steps, message_of_text, Booleans, CanonicalOptions, Falsy, Numbers,
    Order,
};
pub use error::{Error, ErrorCode, GenuineCallback, Result};
pub use hmac::{HmacKey, SignatureEncoding};
pub use json::{parse_body, Json, Limits};
pub use profile::{profile_named, NamedProfile, Profile, PROFILES};
pub use request::builders::{build_payin_request, build_widget_payin_request, PayinInput, WidgetPayinInput};
pub use request::signing::{sign_body, AccessHeaders, RequestKey};
pub use rsa::keys::{SigningKey, TokenEncoding, VerifyingKey};
pub use rsa::pkcs1v15::{sign_message, verify_message, Digest};
pub use spec::currency::{currency_digits, from_minor_units, to_minor_units};
pub use spec::operations::Operation;
pub use validate::{
    validate_request, validate_request_text, validate_request_text_with, validate_request_with, Issue, IssueValue,
    ValidateOptions, ValidationReport, ISSUE_CODES,
};

/// Internals for this crate's own fuzz targets, benches and integration tests.
/// Not part of the API: nothing here is stable.
#[doc(hidden)]
pub mod __private {
    pub use crate::callback::keys::match_token;
    pub use crate::callback::model::{idempotency_key, DECLINE_OTHER};
    pub use crate::callback::PreparedCallback;
    pub use crate::canonical::number::python_number_text;
    pub use crate::canonical::text::message_from_text;
    pub use crate::json::{parse_value, MAX_SAFE_INTEGER};
    pub use crate::request::signing::{prepare_body, RequestBody, Signer};
    pub use crate::rsa::pkcs1v15::decode_base64url;
    #[cfg(feature = "wasm-rsa")]
    pub use crate::rsa::CrtKey;
}
