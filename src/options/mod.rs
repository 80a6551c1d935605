//! The one table of options: every member of the option objects the API takes
//! (the canonical options, `signRequest`'s, `verifyCallback`'s and
//! `validateRequest`'s), one [`OptionRow`] each, with its choices, default, rule
//! and a one-line doc. The JS readers (`crate::wasm::options`) take their member
//! names and spellings from here, `optionTable()` returns the rows, the
//! TypeScript is tested equal to them, and the rules the Rust API shares with JS
//! ([`VerifyOptions::check`](crate::callback::VerifyOptions::check), the `backend`
//! rule, the refusal of `toleranceSeconds: null`) are written here once.

// Natively, outside tests, only the Rust API's rules are read; the rest is the JS bindings'.
#![cfg_attr(not(any(target_arch = "wasm32", test)), allow(dead_code))]

use serde::Serialize;

use crate::canonical::{Booleans, Falsy, Numbers, Order};
use crate::error::Error;
use crate::hmac::SignatureEncoding;
use crate::rsa::keys::TokenEncoding;
use crate::rsa::pkcs1v15::Digest;

/// Which option object takes a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Group {
    /// The canonical options: every `options` member, and the functions of the canonical form.
    Canonical,
    /// `signRequest` (and `prepareRequest`).
    Sign,
    /// `verifyCallback` (and its async and request variants).
    Verify,
    /// `validateRequest`.
    Validate,
}

/// What a member's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    /// One of the row's choices, as a string.
    Choice,
    Boolean,
    /// A whole number.
    Number,
    String,
    /// Unix seconds, as a number or a string of digits.
    Timestamp,
    /// An object of the canonical options.
    Object,
}

/// One choice of an option: its value, and a few words on what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Choice {
    pub(crate) value: &'static str,
    pub(crate) label: &'static str,
}

/// An option's default, as JS spells it (`Off`: no default, the check is off or the member required).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub(crate) enum DefaultValue {
    Text(&'static str),
    Bool(bool),
    Number(u64),
    Off(Option<()>),
}

/// One option.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OptionRow {
    /// The member's name.
    pub(crate) name: &'static str,
    /// The option objects that take it.
    pub(crate) taken_by: &'static [Group],
    #[serde(rename = "type")]
    pub(crate) kind: Kind,
    /// The choices of a [`Kind::Choice`] option, the default first where there is one.
    pub(crate) choices: &'static [Choice],
    pub(crate) default: DefaultValue,
    /// What is accepted, and what is refused.
    pub(crate) rule: &'static str,
    pub(crate) doc: &'static str,
}

const fn choice(value: &'static str, label: &'static str) -> Choice {
    Choice { value, label }
}

const CANONICAL: &[Group] = &[Group::Canonical];
const SIGN: &[Group] = &[Group::Sign];
const VERIFY: &[Group] = &[Group::Verify];
const SIGN_VERIFY: &[Group] = &[Group::Sign, Group::Verify];

/// Largest `maxBodyBytes` accepted: 1 MiB (the default is 16 KiB; a callback is about 1 KB).
pub(crate) const MAX_BODY_BYTES_CEILING: u64 = 1 << 20;
/// The default of `maxBodyBytes` (`crate::json::Limits::CALLBACK_MAX_BYTES`, tested equal).
const MAX_BODY_BYTES_DEFAULT: u64 = 16 << 10;
/// Largest whole number a JS number holds exactly (`toleranceSeconds`, `now`).
const MAX_WHOLE: u64 = crate::json::MAX_SAFE_INTEGER as u64;

/// Every option, by option object: the canonical ones, then `signRequest`'s, `verifyCallback`'s
/// and `validateRequest`'s (a member two objects share is listed once, where it first appears).
pub(crate) const OPTIONS: &[OptionRow] = &[
    OptionRow {
        name: "profile",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[
            choice("spec", "every default"),
            choice("public-js-client", "the public JS client"),
            choice("callback-docs", "callback docs: booleans 1/0"),
        ],
        default: DefaultValue::Text("spec"),
        rule: "a named profile (see profiles()); the other members override it",
        doc: "Start from a named profile.",
    },
    OptionRow {
        name: "falsy",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("none", "falsy → None"), choice("null", "null → None")],
        default: DefaultValue::Text("none"),
        rule: "one of the choices",
        doc: "Which leaves are written None: 'none' null, \"\", 0, 0.0 and false; 'null' only null.",
    },
    OptionRow {
        name: "booleans",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("python", "True/False"), choice("lower", "true/false"), choice("digit", "1/0")],
        default: DefaultValue::Text("python"),
        rule: "one of the choices",
        doc: "How true and false are written when not None.",
    },
    OptionRow {
        name: "padding",
        taken_by: CANONICAL,
        kind: Kind::Boolean,
        choices: &[],
        default: DefaultValue::Bool(true),
        rule: "a boolean",
        doc: "Keep base64url '=' padding.",
    },
    OptionRow {
        name: "order",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("codepoint", "Python"), choice("utf16", "JS sort")],
        default: DefaultValue::Text("codepoint"),
        rule: "one of the choices",
        doc: "Entry order: by code point (as Python) or by UTF-16 unit (as JS sort()).",
    },
    OptionRow {
        name: "numbers",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("python", "1.0"), choice("js", "1.0 → 1")],
        default: DefaultValue::Text("python"),
        rule: "one of the choices",
        doc: "Numbers as Python writes them (integers exact, floats as repr) or as String(JSON.parse(text)).",
    },
    OptionRow {
        name: "digest",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("single", "SHA-256"), choice("double", "SHA-256 twice")],
        default: DefaultValue::Text("single"),
        rule: "one of the choices",
        doc: "What RSA-SHA256 signs: the message, or the message's SHA-256 digest.",
    },
    OptionRow {
        name: "token",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("pem", "PEM text"), choice("der", "DER bytes")],
        default: DefaultValue::Text("pem"),
        rule: "one of the choices (verifying accepts both)",
        doc: "x-access-token (RSA): base64url of the public key's PEM text or DER bytes.",
    },
    OptionRow {
        name: "signatureEncoding",
        taken_by: CANONICAL,
        kind: Kind::Choice,
        choices: &[choice("base64url", "follows padding"), choice("hex", "lowercase hex")],
        default: DefaultValue::Text("base64url"),
        rule: "one of the choices",
        doc: "An HMAC signature's text.",
    },
    OptionRow {
        name: "merchantId",
        taken_by: SIGN,
        kind: Kind::String,
        choices: &[],
        default: DefaultValue::Off(None),
        rule: "required: 1 to 128 visible ASCII characters, no spaces",
        doc: "Sent as x-access-merchant-id.",
    },
    OptionRow {
        name: "backend",
        taken_by: SIGN_VERIFY,
        kind: Kind::Choice,
        choices: &[choice("native", "node:crypto or WebCrypto"), choice("wasm", "the package's own")],
        default: DefaultValue::Text("native"),
        rule: "one of the choices; 'native' where none is available is refused (the default is then 'wasm')",
        doc: "Which RSA implementation runs.",
    },
    OptionRow {
        name: "strict",
        taken_by: SIGN,
        kind: Kind::Boolean,
        choices: &[],
        default: DefaultValue::Bool(false),
        rule: "a boolean",
        doc: "Refuse (AMBIGUOUS_REQUEST) a body its signed message would not determine.",
    },
    OptionRow {
        name: "timestamp",
        taken_by: SIGN,
        kind: Kind::Timestamp,
        choices: &[],
        default: DefaultValue::Text("now"),
        rule: "whole Unix seconds, at most 10 digits, as a number or digits",
        doc: "x-access-timestamp.",
    },
    OptionRow {
        name: "options",
        taken_by: SIGN_VERIFY,
        kind: Kind::Object,
        choices: &[],
        default: DefaultValue::Text("spec"),
        rule: "an object of the canonical options",
        doc: "The sender's rules (the canonical options).",
    },
    OptionRow {
        name: "algorithmHeader",
        taken_by: SIGN,
        kind: Kind::String,
        choices: &[],
        default: DefaultValue::Text(crate::hmac::DEFAULT_ALGORITHM_HEADER),
        rule: "a string",
        doc: "x-access-merchant-algorithm of a request signed with an HMAC key.",
    },
    OptionRow {
        name: "toleranceSeconds",
        taken_by: VERIFY,
        kind: Kind::Number,
        choices: &[],
        default: DefaultValue::Off(None),
        rule: "whole seconds from 0 to 9007199254740991; null is refused (leave it out for no time window)",
        doc: "Refuse callbacks whose timestamp is further than this from now.",
    },
    OptionRow {
        name: "now",
        taken_by: VERIFY,
        kind: Kind::Number,
        choices: &[],
        default: DefaultValue::Text("now"),
        rule: "whole Unix seconds from 0 to 9007199254740991",
        doc: "The current time, for toleranceSeconds.",
    },
    OptionRow {
        name: "maxBodyBytes",
        taken_by: VERIFY,
        kind: Kind::Number,
        choices: &[],
        default: DefaultValue::Number(MAX_BODY_BYTES_DEFAULT),
        rule: "a whole number from 0 to 1048576",
        doc: "Largest raw body accepted, in bytes.",
    },
    OptionRow {
        name: "allowAmbiguous",
        taken_by: VERIFY,
        kind: Kind::Boolean,
        choices: &[],
        default: DefaultValue::Bool(false),
        rule: "a boolean",
        doc: "Return the model of a body its signed message does not determine, flagged, instead of refusing it.",
    },
    OptionRow {
        name: "expectedMerchantId",
        taken_by: VERIFY,
        kind: Kind::String,
        choices: &[],
        default: DefaultValue::Off(None),
        rule: "a string",
        doc: "Refuse (MERCHANT_ID_MISMATCH) a callback whose x-access-merchant-id is not this.",
    },
    OptionRow {
        name: "allowLoopbackHttp",
        taken_by: &[Group::Validate],
        kind: Kind::Boolean,
        choices: &[],
        default: DefaultValue::Bool(false),
        rule: "a boolean",
        doc: "An http:// URL to a loopback host is the warning LOOPBACK_HTTP, not the error NOT_HTTPS.",
    },
];

/// The member names of an option object, in the table's order.
pub(crate) fn names(group: Group) -> Vec<&'static str> {
    OPTIONS.iter().filter(|row| row.taken_by.contains(&group)).map(|row| row.name).collect()
}

/// The row of the option `name`.
pub(crate) fn row(name: &str) -> Option<&'static OptionRow> {
    OPTIONS.iter().find(|row| row.name == name)
}

/// The core's values of a choice option, in the order of its row's choices.
pub(crate) struct Typed<T: 'static> {
    pub(crate) name: &'static str,
    pub(crate) values: &'static [T],
}

pub(crate) const FALSY: Typed<Falsy> = Typed { name: "falsy", values: &[Falsy::None, Falsy::Null] };
pub(crate) const BOOLEANS: Typed<Booleans> =
    Typed { name: "booleans", values: &[Booleans::Python, Booleans::Lower, Booleans::Digit] };
pub(crate) const ORDER: Typed<Order> = Typed { name: "order", values: &[Order::CodePoint, Order::Utf16] };
pub(crate) const NUMBERS: Typed<Numbers> = Typed { name: "numbers", values: &[Numbers::Python, Numbers::Js] };
pub(crate) const DIGEST: Typed<Digest> = Typed { name: "digest", values: &[Digest::Single, Digest::Double] };
pub(crate) const TOKEN: Typed<TokenEncoding> =
    Typed { name: "token", values: &[TokenEncoding::Pem, TokenEncoding::Der] };
pub(crate) const SIGNATURE_ENCODING: Typed<SignatureEncoding> =
    Typed { name: "signatureEncoding", values: &[SignatureEncoding::Base64Url, SignatureEncoding::Hex] };

impl<T: Copy + PartialEq> Typed<T> {
    fn choices(&self) -> &'static [Choice] {
        row(self.name).map_or(&[], |row| row.choices)
    }

    /// The JS spelling of `value`.
    pub(crate) fn spelling(&self, value: T) -> &'static str {
        let at = self.values.iter().position(|v| *v == value);
        at.and_then(|at| self.choices().get(at)).map_or("", |choice| choice.value)
    }

    /// The value spelled `text`, or `INVALID_OPTION` naming the choices.
    pub(crate) fn parse(&self, text: &str) -> Result<T, Error> {
        let at = self.choices().iter().position(|choice| choice.value == text);
        match at.and_then(|at| self.values.get(at)) {
            Some(value) => Ok(*value),
            None => Err(bad_choice(self.name, text)),
        }
    }
}

/// `INVALID_OPTION`: `value` is not one of the choices of option `name`.
pub(crate) fn bad_choice(name: &str, value: &str) -> Error {
    let allowed: Vec<&str> = row(name).map_or(&[][..], |row| row.choices).iter().map(|c| c.value).collect();
    Error::InvalidOption {
        name: name.into(),
        reason: format!("cannot be '{value}'; use one of {}", allowed.join(", ")),
    }
}

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

#[cfg(test)]
mod tests;
