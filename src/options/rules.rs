//! The rules the Rust API shares with JS, written once: the bounds of
//! `verifyCallback`'s numbers ([`check_verify_numbers`], which
//! [`VerifyOptions::check`](crate::callback::VerifyOptions::check) applies), the
//! `backend` option against what the caller offers ([`native_chosen`]), and the
//! refusal of `toleranceSeconds: null`.

use super::table::{MAX_BODY_BYTES_CEILING, MAX_WHOLE};
use super::values::bad_choice;
use crate::error::Error;

/// `toleranceSeconds: null` is not "off": a caller who wrote it meant some check.
pub(crate) fn null_tolerance() -> Error {
    Error::InvalidOption {
        name: "toleranceSeconds".into(),
        reason: "is null: give seconds (e.g. 300), or leave it out for no time window".into(),
    }
}

/// A whole number from 0 to `max` (at most 2^53 - 1, so exact in an `f64`), or `INVALID_ARGUMENT`.
pub(crate) fn whole_number(name: &str, value: f64, max: u64) -> Result<u64, Error> {
    if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value <= max as f64 {
        Ok(value as u64)
    } else {
        Err(out_of_range(name, max))
    }
}

fn out_of_range(name: &str, max: u64) -> Error {
    Error::InvalidArgument { name: name.into(), reason: format!("must be a whole number from 0 to {max}") }
}

/// The bounds of `verifyCallback`'s numbers, as the Rust [`VerifyOptions`](crate::callback::VerifyOptions)
/// gives them: the same refusals a JS caller gets.
pub(crate) fn check_verify_numbers(max_bytes: usize, tolerance: Option<u64>, now: Option<u64>) -> Result<(), Error> {
    if max_bytes as u64 > MAX_BODY_BYTES_CEILING {
        return Err(out_of_range("maxBodyBytes", MAX_BODY_BYTES_CEILING));
    }
    for (name, value) in [("toleranceSeconds", tolerance), ("now", now)] {
        if value.is_some_and(|value| value > MAX_WHOLE) {
            return Err(out_of_range(name, MAX_WHOLE));
        }
    }
    Ok(())
}

/// Whether the caller offers a native RSA (node:crypto or WebCrypto).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NativeRsa {
    /// None: everything runs in the wasm, and the `backend` option cannot be 'native'.
    Absent,
    /// One: the `backend` option decides (native unless 'wasm').
    Available,
    /// Only prepare: no RSA runs here whatever the `backend` option says (prepareRequest, prepareCallback).
    Prepare,
}

/// The `backend` option: `Ok(true)` when the caller's native RSA is to run. Without
/// the option, native when the caller has one; `'wasm'` always runs here; `'native'`
/// without a native RSA to offer is refused.
pub(crate) fn native_chosen(backend: Option<&str>, rsa: NativeRsa) -> Result<bool, Error> {
    let available = rsa != NativeRsa::Absent;
    let chosen = match backend {
        None => available,
        Some("wasm") => false,
        Some("native") if available => true,
        Some("native") => {
            return Err(Error::InvalidOption {
                name: "backend".into(),
                reason: "is 'native', which is not available here: browsers and edge runtimes have it in \
                         signRequestAsync and verifyCallbackAsync (WebCrypto, in a secure context); \
                         or use backend 'wasm'"
                    .into(),
            })
        }
        Some(other) => return Err(bad_choice("backend", other)),
    };
    Ok(chosen || rsa == NativeRsa::Prepare)
}
