use super::*;
use crate::canonical::{Booleans, CanonicalOptions, Falsy, Numbers, Order};
use crate::hmac::DEFAULT_ALGORITHM_HEADER;
use crate::profile::PROFILES;
use crate::profile::{profile_named, Profile};
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
    assert_eq!((spelled.falsy, spelled.booleans, spelled.padding, spelled.order), ("null", "digit", false, "utf16"));
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

/// `verifyCallback` without options takes `VerifyOptions::default()` without reading
/// (`exports/callback.rs`, `verify_options`): what this reader makes of no member.
#[test]
fn no_options_read_as_the_defaults() {
    let Ok(fields) = verify_fields::<()>(Ok(Vec::new())) else { panic!("refused") };
    assert!(fields.backend.is_none() && fields.options.is_absent());
    let options = fields.into_options(Profile::SPEC, || panic!("no clock without toleranceSeconds"));
    // (No `PartialEq` on the options: their every field, as Debug shows them.)
    assert_eq!(format!("{options:?}"), format!("{:?}", crate::callback::VerifyOptions::default()));
}
