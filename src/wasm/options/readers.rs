//! The readers of each option object from its checked members: the canonical options
//! (a [`Profile`]), `signRequest`'s, `validateRequest`'s and `verifyCallback`'s. They only
//! convert: names, choices, defaults and rules are the options table's (`src/options/`).

use super::member::{Member, Members, ShapeError};
use crate::callback::VerifyOptions;
use crate::canonical::TIMESTAMP_RULE;
use crate::error::Error;
use crate::hmac::DEFAULT_ALGORITHM_HEADER;
use crate::json::{Limits, MAX_SAFE_INTEGER};
use crate::options::whole_number;
use crate::options::{
    bad_choice, names, null_tolerance, Group, Typed, BOOLEANS, DIGEST, FALSY, MAX_BODY_BYTES_CEILING, NUMBERS, ORDER,
    SIGNATURE_ENCODING, TOKEN,
};
#[cfg(target_arch = "wasm32")]
pub(crate) use crate::options::{native_chosen, NativeRsa};
use crate::profile::{profile_named, Profile};
use crate::validate::ValidateOptions;

/// Reads member `name` as one of its row's choices into `slot` (left as it is when absent).
fn choose<O, T: Copy + PartialEq>(members: &mut Members<O>, typed: &Typed<T>, slot: &mut T) -> Result<(), Error> {
    if let Some(text) = option_text(members.take(typed.name), typed.name)? {
        *slot = typed.parse(&text)?;
    }
    Ok(())
}

/// Reads the profile options from their checked members (see [`canonical_shape`]):
/// a named `profile` (the spec's when none), with each other member overriding it.
pub(crate) fn canonical_options<O>(mut members: Members<O>) -> Result<Profile, Error> {
    let mut profile = match option_text(members.take("profile"), "profile")? {
        None => Profile::SPEC,
        Some(name) => profile_named(&name).ok_or_else(|| bad_choice("profile", &name))?,
    };
    let canonical = &mut profile.canonical;
    choose(&mut members, &FALSY, &mut canonical.falsy)?;
    choose(&mut members, &BOOLEANS, &mut canonical.booleans)?;
    match members.take("padding") {
        Member::Bool(padding) => canonical.padding = padding,
        member if member.is_absent() => {}
        member => return Err(option_type("padding", "a boolean", member.type_name())),
    }
    choose(&mut members, &ORDER, &mut canonical.order)?;
    choose(&mut members, &NUMBERS, &mut canonical.numbers)?;
    choose(&mut members, &DIGEST, &mut profile.digest)?;
    choose(&mut members, &TOKEN, &mut profile.token)?;
    choose(&mut members, &SIGNATURE_ENCODING, &mut profile.signature_encoding)?;
    Ok(profile)
}

/// The profile as JS spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spelling {
    pub(crate) falsy: &'static str,
    pub(crate) booleans: &'static str,
    pub(crate) padding: bool,
    pub(crate) order: &'static str,
    pub(crate) numbers: &'static str,
    pub(crate) digest: &'static str,
    pub(crate) token: &'static str,
    pub(crate) signature_encoding: &'static str,
}

/// The JS spelling of every rule of a profile.
pub(crate) fn profile_spelling(profile: &Profile) -> Spelling {
    let c = &profile.canonical;
    Spelling {
        falsy: FALSY.spelling(c.falsy),
        booleans: BOOLEANS.spelling(c.booleans),
        padding: c.padding,
        order: ORDER.spelling(c.order),
        numbers: NUMBERS.spelling(c.numbers),
        digest: DIGEST.spelling(profile.digest),
        token: TOKEN.spelling(profile.token),
        signature_encoding: SIGNATURE_ENCODING.spelling(profile.signature_encoding),
    }
}

/// The canonical options' members, or their refusal as `INVALID_OPTION`.
pub(crate) fn canonical_shape<O>(list: Result<Vec<(String, Member<O>)>, ShapeError>) -> Result<Members<O>, Error> {
    list.and_then(|list| Members::new(list, &names(Group::Canonical), &[])).map_err(ShapeError::into_option_error)
}

fn option_text<O>(member: Member<O>, name: &str) -> Result<Option<String>, Error> {
    match member {
        Member::Text(text) => Ok(Some(text)),
        member if member.is_absent() => Ok(None),
        member => Err(option_type(name, "a string", member.type_name())),
    }
}

fn option_type(name: &str, expected: &str, found: &str) -> Error {
    Error::InvalidOption { name: name.into(), reason: format!("must be {expected}, not {found}") }
}

/// `signRequest`'s options, checked; `timestamp` and `options` go on to their own readers.
pub(crate) struct SignFields<O> {
    pub(crate) merchant_id: String,
    pub(crate) backend: Option<String>,
    pub(crate) strict: bool,
    pub(crate) timestamp: Member<O>,
    pub(crate) options: Member<O>,
    /// `x-access-merchant-algorithm` of a request signed with an HMAC key.
    pub(crate) algorithm_header: String,
}

pub(crate) fn sign_fields<O>(list: Result<Vec<(String, Member<O>)>, ShapeError>) -> Result<SignFields<O>, Error> {
    let known = names(Group::Sign);
    let mut members = list
        .and_then(|list| Members::new(list, &known, &["timestamp", "options"]))
        .map_err(|e| e.into_argument_error("options", &known))?;
    let merchant_id = match members.take("merchantId") {
        Member::Text(text) => text,
        Member::Undefined => return Err(argument("options", "missing member 'merchantId'".into())),
        member => return Err(member_type("merchantId", "a string", member.type_name())),
    };
    let backend = optional_text(members.take("backend"), "backend")?;
    let strict = optional_bool(members.take("strict"), "strict")?.unwrap_or(false);
    let algorithm_header = optional_text(members.take("algorithmHeader"), "algorithmHeader")?
        .unwrap_or_else(|| DEFAULT_ALGORITHM_HEADER.into());
    Ok(SignFields {
        merchant_id,
        backend,
        strict,
        timestamp: members.take("timestamp"),
        options: members.take("options"),
        algorithm_header,
    })
}

/// `validateRequest`'s options, checked (absent: the spec's rules).
pub(crate) fn validate_options<O>(
    list: Result<Vec<(String, Member<O>)>, ShapeError>,
) -> Result<ValidateOptions, Error> {
    let known = names(Group::Validate);
    let mut members =
        list.and_then(|list| Members::new(list, &known, &[])).map_err(|e| e.into_argument_error("options", &known))?;
    let allow_loopback_http = optional_bool(members.take("allowLoopbackHttp"), "allowLoopbackHttp")?.unwrap_or(false);
    Ok(ValidateOptions { allow_loopback_http })
}

/// `verifyCallback`'s options, checked; `options` goes on to the canonical reader.
pub(crate) struct VerifyFields<O> {
    pub(crate) options: Member<O>,
    pub(crate) backend: Option<String>,
    limits: Limits,
    tolerance_seconds: Option<u64>,
    now: Option<u64>,
    allow_ambiguous: bool,
    expected_merchant_id: Option<String>,
}

impl<O> VerifyFields<O> {
    /// The core's options, with the canonical ones read and the clock read only when a
    /// tolerance is set without `now`.
    pub(crate) fn into_options(self, profile: Profile, clock: impl FnOnce() -> u64) -> VerifyOptions {
        let now = self.now.or_else(|| self.tolerance_seconds.map(|_| clock()));
        VerifyOptions {
            canonical: profile.canonical,
            digest: profile.digest,
            signature_encoding: profile.signature_encoding,
            tolerance_seconds: self.tolerance_seconds,
            now,
            limits: self.limits,
            allow_ambiguous: self.allow_ambiguous,
            expected_merchant_id: self.expected_merchant_id,
        }
    }
}

pub(crate) fn verify_fields<O>(list: Result<Vec<(String, Member<O>)>, ShapeError>) -> Result<VerifyFields<O>, Error> {
    let known = names(Group::Verify);
    let mut members = list
        .and_then(|list| Members::new(list, &known, &["options"]))
        .map_err(|e| e.into_argument_error("options", &known))?;
    let backend = optional_text(members.take("backend"), "backend")?;
    let mut limits = Limits::callback();
    if let Some(max) = optional_number(members.take("maxBodyBytes"), "maxBodyBytes")? {
        limits.max_bytes = whole_number("maxBodyBytes", max, MAX_BODY_BYTES_CEILING)? as usize;
    }
    let tolerance_seconds = match members.take("toleranceSeconds") {
        Member::Null => return Err(null_tolerance()),
        Member::Undefined => None,
        member => Some(whole_number_member("toleranceSeconds", &member, MAX_SAFE_INTEGER as u64)?),
    };
    let now = match optional_number(members.take("now"), "now")? {
        Some(now) => Some(whole_number("now", now, MAX_SAFE_INTEGER as u64)?),
        None => None,
    };
    let allow_ambiguous = optional_bool(members.take("allowAmbiguous"), "allowAmbiguous")?.unwrap_or(false);
    let expected_merchant_id = optional_text(members.take("expectedMerchantId"), "expectedMerchantId")?;
    Ok(VerifyFields {
        options: members.take("options"),
        backend,
        limits,
        tolerance_seconds,
        now,
        allow_ambiguous,
        expected_merchant_id,
    })
}

fn argument(name: &str, reason: String) -> Error {
    Error::InvalidArgument { name: name.into(), reason }
}

fn member_type(name: &str, expected: &str, found: &str) -> Error {
    argument("options", format!("member '{name}' must be {expected}, not {found}"))
}

fn optional_text<O>(member: Member<O>, name: &str) -> Result<Option<String>, Error> {
    match member {
        Member::Text(text) => Ok(Some(text)),
        member if member.is_absent() => Ok(None),
        member => Err(member_type(name, "a string", member.type_name())),
    }
}

fn optional_bool<O>(member: Member<O>, name: &str) -> Result<Option<bool>, Error> {
    match member {
        Member::Bool(value) => Ok(Some(value)),
        member if member.is_absent() => Ok(None),
        member => Err(member_type(name, "a boolean", member.type_name())),
    }
}

fn optional_number<O>(member: Member<O>, name: &str) -> Result<Option<f64>, Error> {
    match member {
        Member::Number(value) => Ok(Some(value)),
        member if member.is_absent() => Ok(None),
        member => Err(member_type(name, "a number", member.type_name())),
    }
}

/// A whole-number argument (no coercion of strings or objects).
pub(crate) fn whole_number_member<O>(name: &str, member: &Member<O>, max: u64) -> Result<u64, Error> {
    match member {
        Member::Number(value) => whole_number(name, *value, max),
        other => Err(argument(name, format!("must be a number, not {}", other.type_name()))),
    }
}

/// A timestamp given as whole seconds, in a number or in digits (checked later, by the core).
pub(crate) fn timestamp_text<O>(member: &Member<O>) -> Result<String, Error> {
    match member {
        Member::Text(text) => Ok(text.clone()),
        Member::Number(n) if n.is_finite() && *n >= 0.0 && n.fract() == 0.0 && *n <= MAX_SAFE_INTEGER as f64 => {
            Ok(format!("{}", *n as u64))
        }
        Member::Number(n) => Err(Error::InvalidTimestamp { value: format!("{n}"), expected: TIMESTAMP_RULE }),
        // Described by type only: formatting the value itself could run the caller's code.
        other => Err(Error::InvalidTimestamp { value: format!("({})", other.type_name()), expected: TIMESTAMP_RULE }),
    }
}
