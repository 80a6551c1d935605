//! Fuzz target: callback verification from arbitrary headers and body.
//!
//! Input format, HTTP-like: `name: value` lines up to the first empty line,
//! then the raw body. A pseudo-header `x-fuzz-variant: N` picks canonical
//! variant N of `CanonicalOptions::all_variants()`. The verifying keys are the
//! vector keys `rsa3072` and `rsa2048` (not `attacker2048`); every (message,
//! signature) pair the vectors signed with them is known. Anything that
//! verifies must be one of those pairs, under the key that made it: a mutated
//! input never verifies unless what is signed is unchanged.

#![no_main]

#[path = "common.rs"]
mod common;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use payment_intake::__private::decode_base64url;
use payment_intake::__private::match_token;
use payment_intake::{
    canonical_message, diagnose_callback, parse_body, parse_callback_with, verify_callback, CanonicalOptions,
    ErrorCode, Limits, ReceivedHeaders, VerifyOptions, VerifyingKey,
};

const VERIFY_ERRORS: &[ErrorCode] = &[
    ErrorCode::InvalidTimestamp,
    ErrorCode::InvalidJson,
    ErrorCode::BodyNotObject,
    ErrorCode::BodyTooLarge,
    ErrorCode::BodyTooDeep,
    ErrorCode::DuplicateKey,
    ErrorCode::InvalidNumber,
    ErrorCode::InvalidPublicKey,
    ErrorCode::InvalidSignature,
    ErrorCode::TimestampOutOfTolerance,
    // x-access-merchant-id that is not 1 to 128 visible ASCII characters.
    ErrorCode::InvalidHeader,
    // No x-access-token: the headers may leave it out (HMAC callbacks), an RSA key needs it.
    ErrorCode::MissingHeader,
    // After a good signature: a body without the callback's shape, or one its message does not determine.
    ErrorCode::InvalidCallback,
    ErrorCode::AmbiguousCallback,
];

struct Fixture {
    keys: Vec<VerifyingKey>,
    /// (key index, message, signature bytes) of everything the vectors signed with `keys`.
    signed: Vec<(usize, String, Vec<u8>)>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let key = |pem| VerifyingKey::from_pem(pem).expect("vector key");
        let keys = vec![
            key(include_str!("../../tests/vectors/keys/rsa3072.public.pem")),
            key(include_str!("../../tests/vectors/keys/rsa2048.public.pem")),
        ];
        let mut signed = Vec::new();
        let mut add = |index: usize, body: &str, options: &CanonicalOptions, headers: &serde_json::Value| {
            let body = parse_body(body, &Limits::default()).expect("vector body");
            let timestamp = headers["x-access-timestamp"].as_str().expect("timestamp");
            let message = canonical_message(&body, timestamp, options).expect("vector message");
            let signature = headers["x-access-signature"].as_str().expect("signature");
            if let Some(bytes) = decode_base64url(signature) {
                signed.push((index, message, bytes));
            }
        };
        let signatures: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/vectors/signatures.json")).expect("json");
        for case in signatures.as_array().expect("cases") {
            let index = match case["key"].as_str() {
                Some("keys/rsa3072.pkcs8.pem") => 0,
                Some("keys/rsa2048.pkcs8.pem") => 1,
                _ => continue,
            };
            {
                add(index, case["body"].as_str().expect("body"), &vector_options(&case["options"]), &case["headers"]);
            }
        }
        let callbacks: serde_json::Value =
            serde_json::from_str(include_str!("../../tests/vectors/callbacks.json")).expect("json");
        for case in callbacks["cases"].as_array().expect("cases") {
            if case["expect"] == "ok" {
                add(1, case["body"].as_str().expect("body"), &CanonicalOptions::DEFAULT, &case["headers"]);
            }
        }
        Fixture { keys, signed }
    })
}

/// The canonical options a vector names (see tests/vectors/README.md).
fn vector_options(value: &serde_json::Value) -> CanonicalOptions {
    use payment_intake::{Booleans, Falsy};
    let mut options = CanonicalOptions::DEFAULT;
    if value["falsy"] == "null" {
        options.falsy = Falsy::Null;
    }
    match value["booleans"].as_str() {
        Some("lower") => options.booleans = Booleans::Lower,
        Some("digit") => options.booleans = Booleans::Digit,
        _ => {}
    }
    if value["padding"] == false {
        options.padding = false;
    }
    options
}

/// Splits `name: value` lines from the body at the first empty line.
fn split(text: &str) -> (Vec<(&str, &str)>, &str) {
    let (head, body) = text.split_once("\n\n").unwrap_or((text, ""));
    let pairs = head.lines().map(|line| line.split_once(':').unwrap_or((line, ""))).collect();
    (pairs, body)
}

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    let text = common::text(data);
    let (pairs, raw_body) = split(&text);
    let variants = CanonicalOptions::all_variants();
    let variant = pairs
        .iter()
        .find(|(name, _)| name.trim() == "x-fuzz-variant")
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .map_or(CanonicalOptions::DEFAULT, |n| variants[n % variants.len()]);

    let headers = match ReceivedHeaders::from_pairs(pairs.iter().copied()) {
        Ok(headers) => headers,
        Err(error) => {
            assert!([ErrorCode::MissingHeader, ErrorCode::InvalidHeader].contains(&error.error_code()), "{error:?}");
            return;
        }
    };
    if let Some(token) = &headers.token {
        let _ = match_token(token, &fixture.keys);
    }
    let options = VerifyOptions { canonical: variant, ..VerifyOptions::default() };
    match verify_callback(raw_body, &headers, &fixture.keys, &options) {
        Ok(verified) => {
            let body = parse_body(raw_body, &options.limits).expect("a verified body parses");
            // The model is the body read as its signed message writes it, and nothing else.
            assert_eq!(Ok(&verified.callback), parse_callback_with(&body, &variant).as_ref());
            assert!(verified.ambiguities.is_empty(), "an ambiguous body was returned without allow_ambiguous");
            let message = canonical_message(&body, &headers.timestamp, &variant).expect("message");
            let signature = decode_base64url(&headers.signature).expect("signature decodes");
            assert!(
                fixture.signed.iter().any(|(k, m, s)| *k == verified.key_index && *m == message && *s == signature),
                "verified a message nobody signed: {message}"
            );
            // A tolerance window around the signed time changes nothing.
            let windowed = VerifyOptions { tolerance_seconds: Some(300), now: Some(verified.timestamp), ..options };
            assert!(verify_callback(raw_body, &headers, &fixture.keys, &windowed).is_ok());
        }
        Err(error) => {
            assert!(VERIFY_ERRORS.contains(&error.error_code()), "{error:?}");
            let _ = error.to_string();
        }
    }
    // Diagnosis builds up to 48 messages (one RSA operation per key); one input in eight keeps the rate up.
    if !data.len().is_multiple_of(8) {
        return;
    }
    if let Ok(diagnosis) = diagnose_callback(raw_body, &headers, &fixture.keys[1..2], &Limits::default()) {
        // The signature matches under `matching`; `matched` (and `options`) only when
        // verifying with the options it names returns a model.
        assert_eq!(diagnosis.signature_matched, !diagnosis.matching.is_empty());
        assert_eq!(diagnosis.matched, diagnosis.options.is_some());
        assert!(!diagnosis.matched || diagnosis.signature_matched);
        assert!(diagnosis.messages_tried <= variants.len());
        if let Some(found) = diagnosis.options {
            let body = parse_body(raw_body, &Limits::default()).expect("diagnosed body parses");
            let message = canonical_message(&body, &headers.timestamp, &found.canonical).expect("message");
            let signature = decode_base64url(&headers.signature).expect("signature decodes");
            // The fixture signs single digests only: a double one would be a forgery too.
            assert_eq!(found.digest, payment_intake::Digest::Single, "diagnosed a double digest nobody signed");
            // The key at index 0 of the slice is fixture key 1.
            let known = fixture.signed.iter().any(|(k, m, s)| *k == 1 && *m == message && *s == signature);
            assert!(known, "diagnosed a forgery");
            let named = VerifyOptions { canonical: found.canonical, digest: found.digest, ..VerifyOptions::default() };
            assert!(
                verify_callback(raw_body, &headers, &fixture.keys[1..2], &named).is_ok(),
                "matched, but its options give no model"
            );
        }
    }
});
