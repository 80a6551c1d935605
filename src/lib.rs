//! payment-intake: build, sign and verify messages of the Payment Intake
//! Service. The core modules are plain Rust; `wasm` holds the JS bindings.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod ambiguity;
pub mod amount;
pub mod builders;
pub mod callback;
pub mod callback_model;
pub mod canonical;
pub mod canonical_text;
mod entry_sort;
pub mod error;
pub mod json;
mod json_lexer;
mod json_text;
pub mod keys;
pub mod modmath;
pub mod number;
pub mod signing;
pub mod validate;

#[cfg(target_arch = "wasm32")]
mod wasm;

pub use ambiguity::{ambiguities, Ambiguity};
pub use amount::{currency_digits, from_minor_units, to_minor_units};
pub use builders::{build_payin_request, build_widget_payin_request, PayinInput, WidgetPayinInput};
pub use callback::{diagnose_callback, verify_callback, Diagnosis, ReceivedHeaders, VerifiedCallback, VerifyOptions};
pub use callback_model::{parse_callback, parse_callback_with, parse_info_response, Callback, InfoResponse};
pub use canonical::{canonical_entries, canonical_message, canonical_steps, Booleans, CanonicalOptions, Falsy, Order};
pub use error::{Error, Result};
pub use json::{parse_body, Json, Limits};
pub use keys::{SigningKey, VerifyingKey};
pub use signing::{sign_body, sign_message, verify_message, AccessHeaders};
pub use validate::{
    validate_request, validate_request_text, Issue, IssueValue, Operation, ValidationReport, ISSUE_CODES,
};
