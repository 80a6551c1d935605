//! The one table of options ([`OPTIONS`]): every member of the option objects
//! the API takes, one [`OptionRow`] each (name, which objects take it, type,
//! choices with labels, default, rule, doc), in the order of their objects.

use serde::Serialize;

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
pub(super) const MAX_WHOLE: u64 = crate::json::MAX_SAFE_INTEGER as u64;

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
