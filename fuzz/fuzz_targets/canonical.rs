//! Fuzz target: arbitrary bytes as JSON body text, then the canonical form in
//! every option variant. Checks the parse/serialize round trip, the number
//! grammar, sortedness, the entry count and every step of the message, and
//! that the one-pass text paths (message and tree) agree with the full ones
//! wherever they answer.

#![no_main]

#[path = "common.rs"]
mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use libfuzzer_sys::fuzz_target;
use payment_intake::__private::message_from_text;
use payment_intake::__private::parse_value;
use payment_intake::{canonical_entries, canonical_steps, parse_body, CanonicalOptions, ErrorCode, Json, Limits};

const PARSE_ERRORS: &[ErrorCode] = &[
    ErrorCode::InvalidJson,
    ErrorCode::BodyNotObject,
    ErrorCode::BodyTooLarge,
    ErrorCode::BodyTooDeep,
    ErrorCode::DuplicateKey,
];

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    let limits = Limits::default();
    let body = match parse_body(&text, &limits) {
        Ok(body) => body,
        Err(error) => {
            assert!(PARSE_ERRORS.contains(&error.error_code()), "unexpected parse error {error:?}");
            let _ = error.to_string();
            // Whatever serde_json reads as JSON text must not be called invalid JSON.
            if serde_json::from_str::<serde_json::Value>(&text).is_ok() {
                assert_ne!(error.code(), "INVALID_JSON", "valid JSON refused: {error}");
            }
            return;
        }
    };
    assert!(matches!(body, Json::Object(_)));
    // parse_body's one-pass reader, where it answered, agrees with serde_json's tree.
    if !text.is_empty() {
        assert_eq!(parse_value(&text, &limits).as_ref(), Ok(&body), "fast and full trees of {text}");
    }
    common::each_number(&body, &mut |n| assert!(common::is_json_number(n), "bad number text {n:?}"));

    // What we write reads back as the same tree, and serializing for JS never fails.
    let written = body.to_json_text();
    let reread = parse_body(&written, &Limits { max_bytes: usize::MAX, ..limits });
    assert_eq!(reread.as_ref(), Ok(&body), "round trip of {written}");
    serde_json::to_string(&body).expect("serializes");

    let leaves = common::leaves(&body);
    let (mut built, mut failed) = (0, 0);
    for options in CanonicalOptions::all_variants() {
        let steps = match canonical_steps(&body, common::TIMESTAMP, &options) {
            Ok(steps) => steps,
            Err(error) => {
                // Only a number without canonical text can fail...
                assert_eq!(error.code(), "INVALID_NUMBER", "{error:?}");
                failed += 1;
                continue;
            }
        };
        built += 1;
        // The one-pass text path, where it answers, gives the very same message.
        if let Some(fast) = message_from_text(&text, common::TIMESTAMP, &options, &limits) {
            assert_eq!(fast, steps.message, "fast path differs for {options:?}");
        }
        assert_eq!(steps.entries.len(), leaves);
        assert!(common::is_sorted(&steps.entries, options.order), "unsorted {:?}", steps.entries);
        assert_eq!(canonical_entries(&body, &options).as_ref(), Ok(&steps.entries));
        assert_eq!(steps.joined, steps.entries.join(";"));
        let unpadded = steps.encoded.trim_end_matches('=');
        assert!(options.padding || unpadded == steps.encoded);
        assert_eq!(URL_SAFE_NO_PAD.decode(unpadded).as_deref(), Ok(steps.joined.as_bytes()));
        assert_eq!(steps.message, format!("{}{}", steps.encoded, common::TIMESTAMP));
    }
    // ...and then in every variant alike.
    assert!(built == 0 || failed == 0, "{built} variants built, {failed} failed");
});
