//! The one typed reader of the option objects the JS API takes: canonical
//! options, `signRequest`'s and `verifyCallback`'s. The gateway
//! (`gateway.rs`) reads an object's own members once, each into a
//! [`Member`]; everything here works on those values, without `JsValue`, so
//! it runs (and is tested) natively. `O` is what the gateway keeps of a
//! member that is not a primitive (a `JsValue` in the wasm build), for the
//! members a reader takes further (`options`, `timestamp`).

use serde::Deserialize;

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

/// A member's value as read once by the gateway.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Member<O> {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    /// A BigInt, object, function or symbol, with what it is in words (as `type_name` says).
    Other(&'static str, O),
}

impl<O> Member<O> {
    /// What the value is, for messages.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Member::Undefined => "undefined",
            Member::Null => "null",
            Member::Bool(_) => "a boolean",
            Member::Number(_) => "a number",
            Member::Text(_) => "a string",
            Member::Other(name, _) => name,
        }
    }

    /// Whether the member counts as left out (`undefined` or `null`).
    pub(crate) fn is_absent(&self) -> bool {
        matches!(self, Member::Undefined | Member::Null)
    }

    /// An object, function or symbol: what serde-style readers refuse in a member that is read as data.
    pub(crate) fn is_structured(&self) -> bool {
        matches!(self, Member::Other(name, _) if *name != "a BigInt")
    }
}

/// Why an option object was refused as a whole, or one of its members by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ShapeError {
    /// Not a plain object (an array, a Date, a Map, a class instance, a primitive).
    NotObject,
    /// Reading it ran caller code that threw (a getter, a Proxy, a revoked Proxy).
    Throws,
    /// A member that is not one of the known names.
    Unknown(String),
    /// A member read as data that holds an object, function or symbol.
    NotPrimitive(String, &'static str),
}

/// What a getter or a Proxy does when read, in messages.
pub(crate) const THROWS: &str = "throws when read (a getter, a Proxy or a revoked Proxy)";

impl ShapeError {
    /// As `INVALID_ARGUMENT` for the argument `what` (the sign and verify options, builder input).
    pub(crate) fn into_argument_error(self, what: &str, known: &[&str]) -> Error {
        let reason = match self {
            ShapeError::NotObject => "must be a plain object".to_owned(),
            ShapeError::Throws => format!("has a member that {THROWS}"),
            ShapeError::Unknown(name) => format!("has an unknown member '{name}'; known: {}", known.join(", ")),
            ShapeError::NotPrimitive(name, found) => {
                format!("member '{name}' must be a string, number or boolean, not {found}")
            }
        };
        Error::InvalidArgument { name: what.into(), reason }
    }

    /// As `INVALID_OPTION`, for the canonical options.
    fn into_option_error(self) -> Error {
        match self {
            ShapeError::NotObject => Error::InvalidOption {
                name: "options".into(),
                reason: "must be a plain object such as { booleans: 'lower' }".into(),
            },
            ShapeError::Throws => {
                Error::InvalidOption { name: "options".into(), reason: format!("have a member that {THROWS}") }
            }
            ShapeError::Unknown(name) => Error::InvalidOption {
                name,
                reason: format!("does not exist; the options are {}", names(Group::Canonical).join(", ")),
            },
            ShapeError::NotPrimitive(name, found) => {
                Error::InvalidOption { name, reason: format!("must be a string or boolean, not {found}") }
            }
        }
    }
}

/// The members of one option object, every name known.
pub(crate) struct Members<O> {
    list: Vec<(String, Member<O>)>,
}

impl<O> Members<O> {
    /// Checks the members in the order read: each name must be in `known`, and each
    /// member not in `structured` (which readers take further) must not be an object.
    pub(crate) fn new(list: Vec<(String, Member<O>)>, known: &[&str], structured: &[&str]) -> Result<Self, ShapeError> {
        for (name, member) in &list {
            if !known.contains(&name.as_str()) {
                return Err(ShapeError::Unknown(name.clone()));
            }
            if member.is_structured() && !structured.contains(&name.as_str()) {
                return Err(ShapeError::NotPrimitive(name.clone(), member.type_name()));
            }
        }
        Ok(Members { list })
    }

    /// The member named `name` (`undefined` when there is none).
    fn take(&mut self, name: &str) -> Member<O> {
        match self.list.iter().position(|(n, _)| n == name) {
            Some(at) => self.list.swap_remove(at).1,
            None => Member::Undefined,
        }
    }
}

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

/// The member names serde expects for a struct, as renamed (e.g. camelCase): read
/// from the struct's own `Deserialize` impl.
pub(crate) fn struct_fields<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldCapture(&mut fields));
    fields
}

struct FieldCapture<'a>(&'a mut &'static [&'static str]);

/// Ends the capture as soon as the fields are known.
#[derive(Debug)]
struct CaptureDone;

impl std::fmt::Display for CaptureDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field capture")
    }
}

impl std::error::Error for CaptureDone {}

impl serde::de::Error for CaptureDone {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        CaptureDone
    }
}

impl<'de> serde::Deserializer<'de> for FieldCapture<'_> {
    type Error = CaptureDone;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, CaptureDone> {
        Err(CaptureDone)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, CaptureDone> {
        *self.0 = fields;
        Err(CaptureDone)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical::{Booleans, CanonicalOptions, Falsy, Numbers, Order};
    use crate::profile::PROFILES;
    use crate::rsa::keys::TokenEncoding;
    use crate::rsa::pkcs1v15::Digest;

    type M = Member<()>;

    fn list(members: &[(&str, M)]) -> Result<Vec<(String, M)>, ShapeError> {
        Ok(members.iter().map(|(n, m)| ((*n).to_owned(), m.clone())).collect())
    }

    fn text(s: &str) -> M {
        Member::Text(s.into())
    }

    #[test]
    fn canonical_options_read_every_spelling_and_refuse_others() {
        let read = |members: &[(&str, M)]| canonical_shape(list(members)).and_then(canonical_options);
        assert_eq!(read(&[]).ok(), Some(Profile::SPEC));
        let all = read(&[
            ("falsy", text("null")),
            ("booleans", text("digit")),
            ("padding", Member::Bool(false)),
            ("order", text("utf16")),
        ])
        .ok();
        let expected = CanonicalOptions {
            falsy: Falsy::Null,
            booleans: Booleans::Digit,
            padding: false,
            order: Order::Utf16,
            numbers: Numbers::Python,
        };
        assert_eq!(all.map(|p| p.canonical), Some(expected));
        let spelled = profile_spelling(&Profile { canonical: expected, ..Profile::SPEC });
        assert_eq!(
            (spelled.falsy, spelled.booleans, spelled.padding, spelled.order),
            ("null", "digit", false, "utf16")
        );
        assert_eq!(read(&[("falsy", Member::Null), ("order", Member::Undefined)]).ok(), Some(Profile::SPEC));
        for (members, code) in [
            (vec![("falsy", text("all"))], "INVALID_OPTION"),
            (vec![("sort", text("utf16"))], "INVALID_OPTION"),
            (vec![("padding", text("yes"))], "INVALID_OPTION"),
            (vec![("padding", Member::Other("a BigInt", ()))], "INVALID_OPTION"),
            (vec![("booleans", Member::Other("an object", ()))], "INVALID_OPTION"),
        ] {
            let error = read(&members).err().map(|e| e.code().to_string());
            assert_eq!(error, Some(code.to_string()), "{members:?}");
        }
        let unknown = read(&[("sort", text("x"))]).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(
            unknown.contains("profile, falsy, booleans, padding, order, numbers, digest, token, signatureEncoding"),
            "{unknown}"
        );
        let shape = canonical_shape::<()>(Err(ShapeError::NotObject)).err().map(|e| e.code().to_string());
        assert_eq!(shape, Some("INVALID_OPTION".to_string()));
    }

    #[test]
    fn a_named_profile_with_overrides_and_every_new_dimension() {
        let read = |members: &[(&str, M)]| canonical_shape(list(members)).and_then(canonical_options);
        let js = profile_named("public-js-client");
        assert_eq!(read(&[("profile", text("public-js-client"))]).ok(), js);
        let padded = read(&[("profile", text("public-js-client")), ("padding", Member::Bool(true))]).ok();
        assert_eq!(
            padded.map(|p| (p.canonical.padding, p.digest, p.token)),
            Some((true, Digest::Double, TokenEncoding::Der))
        );
        let each = read(&[
            ("numbers", text("js")),
            ("digest", text("double")),
            ("token", text("der")),
            ("signatureEncoding", text("hex")),
        ])
        .ok();
        let spelled = each.as_ref().map(profile_spelling);
        assert_eq!(
            spelled.map(|s| (s.numbers, s.digest, s.token, s.signature_encoding)),
            Some(("js", "double", "der", "hex"))
        );
        for named in PROFILES {
            let s = profile_spelling(&named.profile);
            let members = [
                ("falsy", text(s.falsy)),
                ("booleans", text(s.booleans)),
                ("padding", Member::Bool(s.padding)),
                ("order", text(s.order)),
                ("numbers", text(s.numbers)),
                ("digest", text(s.digest)),
                ("token", text(s.token)),
                ("signatureEncoding", text(s.signature_encoding)),
            ];
            assert_eq!(read(&members).ok(), Some(named.profile), "{} spelled out reads back", named.name);
        }
        for (name, value) in [
            ("profile", "python"),
            ("numbers", "float"),
            ("digest", "triple"),
            ("token", "spki"),
            ("signatureEncoding", "base64"),
        ] {
            let error = read(&[(name, text(value))]).err().map(|e| (e.code().to_string(), e.to_string()));
            let (code, message) = error.unwrap_or_default();
            assert_eq!(code, "INVALID_OPTION", "{name}");
            assert!(message.contains("use one of"), "{message}");
        }
    }

    #[test]
    fn sign_options_need_a_merchant_id_and_typed_members() {
        let fields = sign_fields(list(&[
            ("merchantId", text("m")),
            ("strict", Member::Bool(true)),
            ("timestamp", Member::Number(5.0)),
        ]));
        let Ok(fields) = fields else { panic!("refused") };
        assert_eq!((fields.merchant_id.as_str(), fields.strict, fields.backend), ("m", true, None));
        assert_eq!(timestamp_text(&fields.timestamp).ok().as_deref(), Some("5"));
        assert_eq!(fields.options, Member::Undefined);
        assert_eq!(fields.algorithm_header, DEFAULT_ALGORITHM_HEADER);
        for members in [
            vec![],
            vec![("merchantId", Member::Number(1.0))],
            vec![("merchantId", text("m")), ("strict", text("yes"))],
            vec![("merchantId", text("m")), ("backend", Member::Bool(true))],
            vec![("merchantId", text("m")), ("constructor", text("x"))],
            vec![("merchantId", Member::Other("an object", ()))],
        ] {
            let code = sign_fields(list(&members)).err().map(|e| e.code().to_string());
            assert_eq!(code, Some("INVALID_ARGUMENT".to_string()), "{members:?}");
        }
        let missing = sign_fields::<()>(list(&[])).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(missing.contains("missing member 'merchantId'"), "{missing}");
        let unknown = sign_fields(list(&[("merchantID", text("m"))])).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(unknown.contains("unknown member 'merchantID'; known: merchantId, backend"), "{unknown}");
    }

    #[test]
    fn timestamps_are_whole_seconds_or_text() {
        assert_eq!(timestamp_text(&text("017")).ok().as_deref(), Some("017"));
        assert_eq!(timestamp_text::<()>(&Member::Number(1.7e9)).ok().as_deref(), Some("1700000000"));
        for member in
            [Member::Number(-1.0), Member::Number(1.5), Member::Number(f64::NAN), Member::Null, Member::Bool(true)]
        {
            assert_eq!(
                timestamp_text::<()>(&member).err().map(|e| e.code().to_string()),
                Some("INVALID_TIMESTAMP".to_string()),
                "{member:?}"
            );
        }
        let big = timestamp_text::<()>(&Member::Number(9_007_199_254_740_992.0));
        assert_eq!(big.err().map(|e| e.code().to_string()), Some("INVALID_TIMESTAMP".to_string()));
    }

    #[test]
    fn verify_options_bound_each_number_and_refuse_a_null_tolerance() {
        let read = |members: &[(&str, M)]| verify_fields(list(members));
        let Ok(fields) = read(&[("toleranceSeconds", Member::Number(300.0)), ("maxBodyBytes", Member::Number(1024.0))])
        else {
            panic!("refused")
        };
        let options = fields.into_options(Profile::SPEC, || 42);
        assert_eq!((options.tolerance_seconds, options.now, options.limits.max_bytes), (Some(300), Some(42), 1024));
        let Ok(fields) = read(&[("now", Member::Number(7.0)), ("allowAmbiguous", Member::Bool(true))]) else {
            panic!("refused")
        };
        let options = fields.into_options(Profile::SPEC, || 42);
        assert_eq!((options.tolerance_seconds, options.now, options.allow_ambiguous), (None, Some(7), true));
        assert_eq!(
            read(&[("toleranceSeconds", Member::Null)]).err().map(|e| e.code().to_string()),
            Some("INVALID_OPTION".to_string())
        );
        for members in [
            vec![("toleranceSeconds", Member::Number(-1.0))],
            vec![("toleranceSeconds", Member::Other("a BigInt", ()))],
            vec![("toleranceSeconds", text("300"))],
            vec![("maxBodyBytes", Member::Number((16 << 20) as f64))],
            vec![("now", Member::Number(0.5))],
            vec![("allowAmbiguous", text("yes"))],
            vec![("expectedMerchantId", Member::Number(1.0))],
            vec![("tolerance", Member::Number(1.0))],
            vec![("maxBodyBytes", Member::Other("an object", ()))],
        ] {
            assert_eq!(
                read(&members).err().map(|e| e.code().to_string()),
                Some("INVALID_ARGUMENT".to_string()),
                "{members:?}"
            );
        }
    }
}
