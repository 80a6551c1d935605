//! payment-intake: build, sign and verify messages of the Payment Intake
//! Service. The core modules are plain Rust; `wasm` holds the JS bindings.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub(crate) mod callback;
pub(crate) mod canonical;
pub(crate) mod error;
pub(crate) mod json;
pub(crate) mod request;
pub(crate) mod rsa;
pub(crate) mod spec;
pub(crate) mod validate;

#[cfg(any(target_arch = "wasm32", test))]
mod wasm;

pub use callback::model::{
    parse_callback, parse_callback_with, parse_info_response, Callback, DisplayItem, InfoResponse, IntegrationLinks,
    PaymentInfo, PaymentInstruction, Requisites, SenderRequisites, CARD_HOLDER_PLACEHOLDER,
};
pub use callback::{diagnose_callback, verify_callback, Diagnosis, ReceivedHeaders, VerifiedCallback, VerifyOptions};
pub use canonical::ambiguity::{ambiguities, Ambiguity};
pub use canonical::{
    canonical_entries, canonical_message, canonical_steps, message_of_text, Booleans, CanonicalOptions, Falsy, Order,
};
pub use error::{Error, Result};
pub use json::{parse_body, Json, Limits};
pub use request::builders::{build_payin_request, build_widget_payin_request, PayinInput, WidgetPayinInput};
pub use request::signing::{sign_body, sign_message, verify_message, AccessHeaders};
pub use rsa::keys::{SigningKey, VerifyingKey};
pub use spec::currency::{currency_digits, from_minor_units, to_minor_units};
pub use validate::{
    validate_request, validate_request_text, Issue, IssueValue, Operation, ValidationReport, ISSUE_CODES,
};

/// Internals for this crate's own fuzz targets, benches and integration tests.
/// Not part of the API: nothing here is stable.
#[doc(hidden)]
pub mod __private {
    pub use crate::callback::model::{idempotency_key, DECLINE_OTHER};
    pub use crate::callback::{match_token, PreparedCallback};
    pub use crate::canonical::number::python_number_text;
    pub use crate::canonical::text::message_from_text;
    pub use crate::json::{parse_value, MAX_SAFE_INTEGER};
    pub use crate::request::signing::{decode_base64url, prepare_body, RequestBody};
    pub use crate::rsa::hazmat::CrtKey;
}
