//! The one table of options: every member of the option objects the API takes
//! (the canonical options, `signRequest`'s, `verifyCallback`'s and
//! `validateRequest`'s), one [`OptionRow`](table::OptionRow) each, with its choices, default, rule
//! and a one-line doc. The JS readers (`crate::wasm::options`) take their member
//! names and spellings from here, `optionTable()` returns the rows, the
//! TypeScript is tested equal to them, and the rules the Rust API shares with JS
//! ([`VerifyOptions::check`](crate::callback::VerifyOptions::check), the `backend`
//! rule, the refusal of `toleranceSeconds: null`) are written here once.
//!
//! - `table`: the table itself ([`OPTIONS`], its row and value types);
//! - `values`: the core's value of each choice (`FALSY`, `DIGEST`…);
//! - `rules`: the rules shared with the Rust API; `tests.rs` holds the
//!   TypeScript option types equal to the table.

// Natively, outside tests, only the Rust API's rules are read; the rest is the JS bindings'.
#![cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]

mod rules;
mod table;
mod values;

pub(crate) use self::rules::check_verify_numbers;
// Natively, outside tests, these are read by the JS bindings only.
#[cfg_attr(not(any(target_arch = "wasm32", test)), allow(unused_imports))]
pub(crate) use self::{
    rules::{native_chosen, null_tolerance, whole_number, NativeRsa},
    table::{names, Group, MAX_BODY_BYTES_CEILING, OPTIONS},
    values::{bad_choice, Typed, BOOLEANS, DIGEST, FALSY, NUMBERS, ORDER, SIGNATURE_ENCODING, TOKEN},
};

#[cfg(test)]
mod tests;
