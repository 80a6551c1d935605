//! The crate's one error type, [`Error`], and its stable codes, [`ErrorCode`].
//! Every failure has a machine-readable code, a message a person can read,
//! and where useful a hint. [`ErrorCode::ALL`] is the one list of codes: the
//! JS `errorCodes()`, the TS union (checked against it by tests) and the fuzz
//! targets' lists all come from it. It imports nothing from the crate: an
//! error carries what its message needs (e.g. the RSA size bounds).
//!
//! - `codes`: the one table of codes (`error_codes!`, a row per code: variant
//!   and doc, text, HTTP status, made by the core or the JS client), and
//!   [`ErrorCode`] made from it;
//! - `variants`: [`Error`], its variants and payloads, its code and status;
//! - `message`: what an error says, its message and its hint.

mod codes;
mod message;
mod variants;

pub use self::codes::ErrorCode;
pub use self::variants::{Ambiguity, Error, GenuineCallback, Result};

#[cfg(test)]
mod tests;
