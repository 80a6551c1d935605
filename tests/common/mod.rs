//! Test bodies shared by the native/Node run (`vectors.rs`) and the browser
//! run (`browser.rs`). Vectors and fixtures are compiled in with `include_str!`
//! so the same tests run where there is no file system.

pub mod properties;

use payment_intake::__private::match_token;
use payment_intake::{
    canonical_entries, canonical_message, diagnose_callback, parse_body, sign_body, verify_callback, Booleans,
    CallbackKey, CanonicalOptions, Digest, Falsy, HmacKey, Json, Limits, Numbers, Order, Profile, ReceivedHeaders,
    RequestKey, SignatureEncoding, SigningKey, TokenEncoding, VerifyOptions, VerifyingKey,
};
use serde_json::Value;

/// Declares each named test for the native and wasm harnesses.
#[macro_export]
macro_rules! shared_tests {
    ($($name:ident),* $(,)?) => {$(
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        fn $name() {
            common::$name()
        }
    )*};
}

/// Declares every shared test; `vectors.rs` and `browser.rs` both expand it.
#[macro_export]
macro_rules! every_shared_test {
    () => {
        shared_tests!(
            canonical_vectors,
            signature_vectors,
            callback_vectors,
            python_reference_bodies,
            python_float_repr,
            text_fast_path_agrees_with_tree,
            text_fast_path_agrees_on_string_edges,
            every_key_form_reads_and_agrees,
            refused_keys_have_codes,
            rotated_keys_and_padding,
            token_in_other_pem_layouts_is_the_same_key,
            tolerance_window,
            diagnose_finds_the_sender_variant,
            malformed_callbacks_have_codes,
            unicode_separators_and_big_integers,
            random_bodies_keep_properties,
            generated_keys_sign_and_verify,
            dialect_vectors,
            dialect_reference_vectors,
        );
    };
}

const CANONICAL: &str = include_str!("../vectors/canonical.json");
const SIGNATURES: &str = include_str!("../vectors/signatures.json");
const CALLBACKS: &str = include_str!("../vectors/callbacks.json");
const PYTHON_REFERENCE: &str = include_str!("../fixtures/python_reference.json");
const DIALECTS: &str = include_str!("../vectors/dialects.json");
const DIALECTS_REFERENCE: &str = include_str!("../fixtures/dialects_reference.json");

/// A vector key file by its path relative to `tests/vectors/`.
pub fn vector_key(path: &str) -> &'static str {
    match path {
        "keys/rsa2048.pkcs8.pem" => include_str!("../vectors/keys/rsa2048.pkcs8.pem"),
        "keys/rsa2048.pkcs1.pem" => include_str!("../vectors/keys/rsa2048.pkcs1.pem"),
        "keys/rsa2048.public.pem" => include_str!("../vectors/keys/rsa2048.public.pem"),
        "keys/rsa2048.public.pkcs1.pem" => include_str!("../vectors/keys/rsa2048.public.pkcs1.pem"),
        "keys/rsa3072.pkcs8.pem" => include_str!("../vectors/keys/rsa3072.pkcs8.pem"),
        "keys/rsa3072.pkcs1.pem" => include_str!("../vectors/keys/rsa3072.pkcs1.pem"),
        "keys/rsa3072.public.pem" => include_str!("../vectors/keys/rsa3072.public.pem"),
        "keys/rsa3072.public.pkcs1.pem" => include_str!("../vectors/keys/rsa3072.public.pkcs1.pem"),
        "keys/rsa4096.pkcs8.pem" => include_str!("../vectors/keys/rsa4096.pkcs8.pem"),
        "keys/rsa4096.pkcs1.pem" => include_str!("../vectors/keys/rsa4096.pkcs1.pem"),
        "keys/rsa4096.public.pem" => include_str!("../vectors/keys/rsa4096.public.pem"),
        "keys/rsa4096.public.pkcs1.pem" => include_str!("../vectors/keys/rsa4096.public.pkcs1.pem"),
        "keys/attacker2048.pkcs8.pem" => include_str!("../vectors/keys/attacker2048.pkcs8.pem"),
        "keys/attacker2048.pkcs1.pem" => include_str!("../vectors/keys/attacker2048.pkcs1.pem"),
        "keys/attacker2048.public.pem" => include_str!("../vectors/keys/attacker2048.public.pem"),
        "keys/attacker2048.public.pkcs1.pem" => include_str!("../vectors/keys/attacker2048.public.pkcs1.pem"),
        other => panic!("no vector key {other}"),
    }
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).expect("fixture is JSON")
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value[key].as_str().unwrap_or_else(|| panic!("fixture field {key} is text"))
}

/// The options object of a vector, in core form.
pub fn options_of(value: &Value) -> CanonicalOptions {
    let mut options = CanonicalOptions::DEFAULT;
    if let Some(falsy) = value.get("falsy").and_then(Value::as_str) {
        options.falsy = match falsy {
            "none" => Falsy::None,
            "null" => Falsy::Null,
            other => panic!("unknown falsy {other}"),
        };
    }
    if let Some(booleans) = value.get("booleans").and_then(Value::as_str) {
        options.booleans = match booleans {
            "python" => Booleans::Python,
            "lower" => Booleans::Lower,
            "digit" => Booleans::Digit,
            other => panic!("unknown booleans {other}"),
        };
    }
    if let Some(padding) = value.get("padding").and_then(Value::as_bool) {
        options.padding = padding;
    }
    options
}

fn body(text: &str) -> Json<'static> {
    parse_body(text, &Limits::default()).expect("body parses")
}

fn headers_of(value: &Value) -> ReceivedHeaders {
    let map = value.as_object().expect("headers object");
    ReceivedHeaders::from_pairs(map.iter().map(|(k, v)| (k.as_str(), v.as_str().expect("header text"))))
        .expect("four headers")
}

pub fn canonical_vectors() {
    let cases = json(CANONICAL);
    let cases = cases.as_array().expect("array");
    assert!(cases.len() >= 19);
    for case in cases {
        let name = text(case, "name");
        let options = options_of(&case["options"]);
        let parsed = body(text(case, "body"));
        let expected: Vec<&str> = case["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        assert_eq!(canonical_entries(&parsed, &options).unwrap(), expected, "entries of {name}");
        let message = canonical_message(&parsed, text(case, "timestamp"), &options).unwrap();
        assert_eq!(message, text(case, "message"), "message of {name}");
    }
}

pub fn signature_vectors() {
    let cases = json(SIGNATURES);
    let cases = cases.as_array().expect("array");
    assert!(cases.len() >= 38);
    for case in cases {
        let name = text(case, "name");
        let key = SigningKey::from_pem(vector_key(text(case, "key"))).unwrap();
        let options = options_of(&case["options"]);
        let expected = &case["headers"];
        let signed = sign_body(&body(text(case, "body")), &key, text(case, "merchant_id"), "1700000000", options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        for (header, value) in signed.pairs() {
            assert_eq!(value, text(expected, header), "{header} of {name}");
        }
        // What we sign, we verify: the signature checks, and what remains is the
        // callback model's verdict on a body that is no callback.
        let received = headers_of(expected);
        let verify = VerifyOptions { canonical: options, ..VerifyOptions::default() };
        match verify_callback(text(case, "body"), &received, &[key.verifying_key().clone()], &verify) {
            Ok(_)
            | Err(payment_intake::Error::InvalidCallback { .. } | payment_intake::Error::AmbiguousCallback { .. }) => {}
            Err(e) => panic!("{name} does not verify: {e}"),
        }
    }
}

pub fn callback_vectors() {
    let all = json(CALLBACKS);
    let key = VerifyingKey::from_pem(vector_key(text(&all, "verifying_key"))).unwrap();
    let cases = all["cases"].as_array().expect("cases");
    assert!(cases.len() >= 7);
    for case in cases {
        let name = text(case, "name");
        let result = verify_callback(
            text(case, "body"),
            &headers_of(&case["headers"]),
            std::slice::from_ref(&key),
            &VerifyOptions::default(),
        );
        match text(case, "expect") {
            "ok" => assert!(result.is_ok(), "{name}: {:?}", result.err()),
            code => assert_eq!(result.err().map(|e| e.code()), Some(code), "{name}"),
        }
    }
}

pub fn python_reference_bodies() {
    let reference = json(PYTHON_REFERENCE);
    let cases = reference["canonical"].as_array().expect("cases");
    assert!(cases.len() >= 300);
    for case in cases {
        let parsed = body(text(case, "body"));
        let expected: Vec<&str> = case["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        let entries = canonical_entries(&parsed, &CanonicalOptions::DEFAULT).unwrap();
        assert_eq!(entries, expected, "entries of {}", text(case, "body"));
        let message = canonical_message(&parsed, text(case, "timestamp"), &CanonicalOptions::DEFAULT).unwrap();
        assert_eq!(message, text(case, "message"), "message of {}", text(case, "body"));
    }
}

/// The one-pass text path must give the tree path's message for every vector
/// and reference body, in the vector's options and in every other variant.
pub fn text_fast_path_agrees_with_tree() {
    use payment_intake::__private::message_from_text;
    let vectors = json(CANONICAL);
    let reference = json(PYTHON_REFERENCE);
    let bodies = vectors.as_array().unwrap().iter().chain(reference["canonical"].as_array().unwrap());
    let mut answered = 0;
    for case in bodies {
        let text = text(case, "body");
        let parsed = body(text);
        for options in CanonicalOptions::all_variants() {
            let tree = canonical_message(&parsed, "1700000000", &options);
            match message_from_text(text, "1700000000", &options, &Limits::default()) {
                Some(fast) => {
                    assert_eq!(Ok(fast), tree, "{text} {options:?}");
                    answered += 1;
                }
                None => assert!(tree.is_err() || text.contains("$serde_json"), "fast path gave up on {text}"),
            }
        }
    }
    assert!(answered > 7000, "the fast path answered only {answered} times");
}

/// The one-pass text path must agree with serde_json's on strings whose end
/// (a quote, an escape, a control byte) falls at every offset from 0 to 39,
/// across the reader's 16-byte (SIMD128) and 8-byte blocks, with multi-byte
/// characters before and after it.
pub fn text_fast_path_agrees_on_string_edges() {
    use payment_intake::__private::{message_from_text, parse_value};
    let ends =
        ["\"", "\\\"", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\x", "\u{1}", "\u{1f}", "\u{7f}"];
    let mut answered = 0;
    for len in 0..40 {
        for (kind, wide) in ["a", "é", "€", "😀"].into_iter().enumerate() {
            // `len` bytes: an ASCII byte (odd kinds), then `wide` while it fits, then ASCII.
            let mut before = "a".repeat(kind % 2).chars().take(len).collect::<String>();
            while before.len() + wide.len() <= len {
                before.push_str(wide);
            }
            while before.len() < len {
                before.push('a');
            }
            let after = ["x", "ü", "中", "🙂"][(kind + 1) % 4].repeat(3);
            for end in ends {
                let text = format!(r#"{{"{before}{end}{after}":"{after}{end}{before}","k":["{before}{end}",1]}}"#);
                let full = parse_value(&text, &Limits::default())
                    .and_then(|tree| canonical_message(&tree, "1700000000", &CanonicalOptions::DEFAULT));
                match message_from_text(&text, "1700000000", &CanonicalOptions::DEFAULT, &Limits::default()) {
                    Some(fast) => {
                        assert_eq!(Ok(fast), full, "{text}");
                        answered += 1;
                    }
                    None => assert!(full.is_err(), "the text path gave up on {text}"),
                }
            }
        }
    }
    assert!(answered >= 900, "the text path answered only {answered} times");
}

pub fn python_float_repr() {
    let reference = json(PYTHON_REFERENCE);
    let floats = reference["float_repr"].as_array().expect("floats");
    assert!(floats.len() > 1000);
    for case in floats {
        let written = payment_intake::__private::python_number_text(text(case, "json")).expect("finite");
        assert_eq!(written.text, text(case, "repr"), "repr of {}", text(case, "json"));
    }
}

pub fn every_key_form_reads_and_agrees() {
    for name in ["rsa2048", "rsa3072", "rsa4096", "attacker2048"] {
        let path = |suffix: &str| format!("keys/{name}.{suffix}");
        let from_pkcs8 = SigningKey::from_pem(vector_key(&path("pkcs8.pem"))).unwrap();
        let from_pkcs1 = SigningKey::from_pem(vector_key(&path("pkcs1.pem"))).unwrap();
        let spki = VerifyingKey::from_pem(vector_key(&path("public.pem"))).unwrap();
        let pkcs1_public = VerifyingKey::from_pem(vector_key(&path("public.pkcs1.pem"))).unwrap();
        assert_eq!(from_pkcs8.verifying_key(), &spki, "{name}");
        assert_eq!(from_pkcs1.verifying_key(), &spki, "{name}");
        assert_eq!(pkcs1_public, spki, "{name}");
        // The token is base64url of the SPKI PEM exactly as the vectors' generator wrote it.
        assert_eq!(spki.public_key_pem(), vector_key(&path("public.pem")), "{name}");
        let expected_bits = name.trim_start_matches(char::is_alphabetic).trim_end_matches(char::is_alphabetic);
        let expected_bits = if name.starts_with("attacker") { "2048" } else { expected_bits };
        assert_eq!(spki.bits().to_string(), expected_bits, "{name}");
        let round_trip = SigningKey::from_pem(&from_pkcs8.private_key_pem().unwrap()).unwrap();
        assert_eq!(round_trip.verifying_key(), &spki);
    }
}

pub fn refused_keys_have_codes() {
    let cases: [(&str, &str); 12] = [
        (include_str!("../fixtures/keys/rsa1024.pkcs8.pem"), "KEY_SIZE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/rsa4160.pkcs8.pem"), "KEY_SIZE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/ec.pkcs8.pem"), "KEY_TYPE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/ec.sec1.pem"), "KEY_TYPE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/ed25519.pkcs8.pem"), "KEY_TYPE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/rsa2048.encrypted.pem"), "KEY_ENCRYPTED"),
        (include_str!("../fixtures/keys/rsa2048.cert.pem"), "KEY_TYPE_UNSUPPORTED"),
        (include_str!("../vectors/keys/rsa2048.public.pem"), "INVALID_KEY"),
        ("", "INVALID_KEY"),
        ("not a key at all", "INVALID_KEY"),
        ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "INVALID_KEY"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n", "INVALID_KEY"),
    ];
    for (pem, code) in cases {
        let err = SigningKey::from_pem(pem).expect_err(code);
        assert_eq!(err.code(), code, "{err}");
    }
    let public_cases: [(&str, &str); 5] = [
        (include_str!("../fixtures/keys/rsa1024.public.pem"), "KEY_SIZE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/ec.public.pem"), "KEY_TYPE_UNSUPPORTED"),
        (include_str!("../fixtures/keys/rsa2048.bigexponent.public.pem"), "KEY_EXPONENT_UNSUPPORTED"),
        (include_str!("../vectors/keys/rsa2048.pkcs8.pem"), "INVALID_KEY"),
        ("garbage", "INVALID_KEY"),
    ];
    for (pem, code) in public_cases {
        let err = VerifyingKey::from_pem(pem).expect_err(code);
        assert_eq!(err.code(), code, "{err}");
    }
    // e = 3 is small but standard, and accepted.
    assert!(SigningKey::from_pem(include_str!("../fixtures/keys/rsa2048e3.pkcs8.pem")).is_ok());
}

fn signed_callback(key: &SigningKey, body_text: &str, options: &CanonicalOptions) -> ReceivedHeaders {
    let signed = sign_body(&body(body_text), key, "merchant-1", "1700000000", options).unwrap();
    ReceivedHeaders::from_pairs(signed.pairs()).unwrap()
}

/// A boolean and a zero make the canonical variants differ. The callback model reads
/// neither, so they sit under a member that sorts before every other entry: directly
/// after a text value they would make the callback ambiguous (UNREAD_AFTER_TEXT).
const CALLBACK_BODY: &str = r#"{"_flags":{"flag":true,"zero":0},"project_id":"p1","general":{"payment_id":"o-1","request_id":"r1"},"status":{"status":"success","sub_status":null}}"#;

pub fn rotated_keys_and_padding() {
    let old = SigningKey::from_pem(vector_key("keys/rsa3072.pkcs8.pem")).unwrap();
    let new = SigningKey::from_pem(vector_key("keys/rsa2048.pkcs8.pem")).unwrap();
    let attacker = SigningKey::from_pem(vector_key("keys/attacker2048.pkcs8.pem")).unwrap();
    let configured = [old.verifying_key().clone(), new.verifying_key().clone()];
    let defaults = VerifyOptions::default();
    for (index, key) in [&old, &new].into_iter().enumerate() {
        let headers = signed_callback(key, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
        let verified = verify_callback(CALLBACK_BODY, &headers, &configured, &defaults).unwrap();
        assert_eq!(verified.key_index, index);
        // Signature and token are accepted without their padding.
        let mut unpadded = headers.clone();
        unpadded.signature = unpadded.signature.trim_end_matches('=').into();
        unpadded.token = unpadded.token.as_deref().map(|token| token.trim_end_matches('=').to_owned());
        assert!(verify_callback(CALLBACK_BODY, &unpadded, &configured, &defaults).is_ok());
    }
    let forged = signed_callback(&attacker, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
    let err = verify_callback(CALLBACK_BODY, &forged, &configured, &defaults).unwrap_err();
    assert_eq!(err.code(), "INVALID_PUBLIC_KEY");
    // A forger who copies the project's token still fails on the signature.
    let mut copied = forged;
    copied.token = Some(new.verifying_key().token().into());
    assert_eq!(
        verify_callback(CALLBACK_BODY, &copied, &configured, &defaults).unwrap_err().code(),
        "INVALID_SIGNATURE"
    );
    assert_eq!(
        match_token::<VerifyingKey>(copied.token.as_deref().unwrap_or_default(), &[]).unwrap_err().code(),
        "NO_VERIFYING_KEY"
    );
}

pub fn token_in_other_pem_layouts_is_the_same_key() {
    use base64::Engine;
    let key = VerifyingKey::from_pem(vector_key("keys/rsa2048.public.pem")).unwrap();
    let crlf = key.public_key_pem().replace('\n', "\r\n");
    let pkcs1 = vector_key("keys/rsa2048.public.pkcs1.pem");
    for pem in [crlf.as_str(), pkcs1] {
        let token = base64::engine::general_purpose::URL_SAFE.encode(pem);
        assert_eq!(match_token(&token, std::slice::from_ref(&key)).unwrap(), 0);
    }
    assert_eq!(match_token("bm90IGEga2V5", std::slice::from_ref(&key)).unwrap_err().code(), "INVALID_PUBLIC_KEY");
    assert_eq!(match_token("!!!", std::slice::from_ref(&key)).unwrap_err().code(), "INVALID_PUBLIC_KEY");
}

pub fn tolerance_window() {
    let key = SigningKey::from_pem(vector_key("keys/rsa2048.pkcs8.pem")).unwrap();
    let headers = signed_callback(&key, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
    let keys = [key.verifying_key().clone()];
    let at = |now: u64| VerifyOptions { tolerance_seconds: Some(300), now: Some(now), ..VerifyOptions::default() };
    assert!(verify_callback(CALLBACK_BODY, &headers, &keys, &at(1_700_000_300)).is_ok());
    assert!(verify_callback(CALLBACK_BODY, &headers, &keys, &at(1_699_999_700)).is_ok());
    for now in [1_700_000_301, 1_699_999_699] {
        let err = verify_callback(CALLBACK_BODY, &headers, &keys, &at(now)).unwrap_err();
        assert_eq!(err.code(), "TIMESTAMP_OUT_OF_TOLERANCE");
    }
}

pub fn diagnose_finds_the_sender_variant() {
    let key = SigningKey::from_pem(vector_key("keys/rsa2048.pkcs8.pem")).unwrap();
    let verifying = key.verifying_key();
    let limits = Limits::default();
    let digit = CanonicalOptions { booleans: Booleans::Digit, ..CanonicalOptions::DEFAULT };
    let utf16_null = CanonicalOptions { falsy: Falsy::Null, order: Order::Utf16, ..CanonicalOptions::DEFAULT };
    for variant in [digit, utf16_null, CanonicalOptions::DEFAULT] {
        let headers = signed_callback(&key, CALLBACK_BODY, &variant);
        let diagnosis = diagnose_callback(CALLBACK_BODY, &headers, std::slice::from_ref(verifying), &limits).unwrap();
        assert!(diagnosis.matched, "{variant:?}");
        assert!(diagnosis.matching.iter().any(|found| found.canonical == variant), "{variant:?}");
        assert_eq!(diagnosis.default_error.is_none(), variant == CanonicalOptions::DEFAULT);
        assert!(diagnosis.token_matches_key);
    }
    let headers = signed_callback(&key, CALLBACK_BODY, &digit);
    let diagnosis = diagnose_callback(CALLBACK_BODY, &headers, std::slice::from_ref(verifying), &limits).unwrap();
    assert_eq!(diagnosis.options.map(|found| found.canonical), Some(digit));
    assert_eq!(diagnosis.default_error.map(|e| e.code()), Some("INVALID_SIGNATURE"));
    let tampered = CALLBACK_BODY.replace("o-1", "o-2");
    let diagnosis = diagnose_callback(&tampered, &headers, std::slice::from_ref(verifying), &limits).unwrap();
    assert!(!diagnosis.matched && diagnosis.options.is_none() && diagnosis.token_matches_key);
    let attacker = SigningKey::from_pem(vector_key("keys/attacker2048.pkcs8.pem")).unwrap();
    let forged = signed_callback(&attacker, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
    let diagnosis = diagnose_callback(CALLBACK_BODY, &forged, std::slice::from_ref(verifying), &limits).unwrap();
    assert!(!diagnosis.matched && !diagnosis.token_matches_key);
    assert_eq!(diagnosis.default_error.map(|e| e.code()), Some("INVALID_PUBLIC_KEY"));
}

pub fn malformed_callbacks_have_codes() {
    let key = SigningKey::from_pem(vector_key("keys/rsa2048.pkcs8.pem")).unwrap();
    let headers = signed_callback(&key, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
    let keys = [key.verifying_key().clone()];
    let defaults = VerifyOptions::default();
    let code = |body: &str, headers: &ReceivedHeaders, options: &VerifyOptions| {
        verify_callback(body, headers, &keys, options).unwrap_err().code()
    };
    assert_eq!(code("not json", &headers, &defaults), "INVALID_JSON");
    assert_eq!(code("[1]", &headers, &defaults), "BODY_NOT_OBJECT");
    assert_eq!(code(r#"{"a":1,"a":2}"#, &headers, &defaults), "DUPLICATE_KEY");
    let small = VerifyOptions { limits: Limits { max_bytes: 64, ..Limits::default() }, ..VerifyOptions::default() };
    assert_eq!(code(CALLBACK_BODY, &headers, &small), "BODY_TOO_LARGE");
    let deep = format!("{}1{}", r#"{"a":"#.repeat(100), "}".repeat(100));
    assert_eq!(code(&deep, &headers, &defaults), "BODY_TOO_DEEP");
    let mut bad_time = headers.clone();
    bad_time.timestamp = "17e8".into();
    assert_eq!(code(CALLBACK_BODY, &bad_time, &defaults), "INVALID_TIMESTAMP");
    let mut short = headers.clone();
    short.signature = short.signature[..40].into();
    assert_eq!(code(CALLBACK_BODY, &short, &defaults), "INVALID_SIGNATURE");
    // The token may be left out of the headers (HMAC callbacks), but an RSA key needs it.
    let no_token = ReceivedHeaders::from_pairs(headers_pairs(&headers).into_iter().take(3));
    assert_eq!(
        no_token.and_then(|h| verify_callback(CALLBACK_BODY, &h, &keys, &defaults)).unwrap_err().code(),
        "MISSING_HEADER"
    );
}

fn headers_pairs(h: &ReceivedHeaders) -> Vec<(&str, &str)> {
    vec![
        ("x-access-timestamp", h.timestamp.as_str()),
        ("x-access-merchant-id", h.merchant_id.as_str()),
        ("x-access-signature", h.signature.as_str()),
        ("x-access-token", h.token.as_deref().unwrap_or_default()),
    ]
}

pub fn unicode_separators_and_big_integers() {
    let cases: [(&str, &[&str]); 5] = [
        (r#"{"ключ":"значение","k:e;y":"v;a:l"}"#, &["k:e;y:v;a:l", "ключ:значение"]),
        (
            r#"{"n":123456789012345678901234567890,"m":-98765432109876543210}"#,
            &["m:-98765432109876543210", "n:123456789012345678901234567890"],
        ),
        (r#"{"e":"\ud83d\ude00","t":"\t\n"}"#, &["e:😀", "t:\t\n"]),
        (
            r#"{"f":[1e16,1e15,1E-5,0.0001,-2.5e-10]}"#,
            &["f:0:1e+16", "f:1:1000000000000000.0", "f:2:1e-05", "f:3:0.0001", "f:4:-2.5e-10"],
        ),
        (r#"{"x":{"y":[[],{},[[{"z":false}]]]}}"#, &["x:y:2:0:0:z:None"]),
    ];
    for (text, expected) in cases {
        assert_eq!(canonical_entries(&body(text), &CanonicalOptions::DEFAULT).unwrap(), expected, "{text}");
    }
    // 64 levels is the default limit: exactly 64 passes, 65 does not.
    let nested = |levels: usize| format!("{}\"v\"{}", r#"{"k":"#.repeat(levels), "}".repeat(levels));
    assert_eq!(canonical_entries(&body(&nested(64)), &CanonicalOptions::DEFAULT).unwrap().len(), 1);
    assert_eq!(parse_body(&nested(65), &Limits::default()).unwrap_err().code(), "BODY_TOO_DEEP");
}

pub fn random_bodies_keep_properties() {
    properties::check_random_bodies(150);
}

pub fn generated_keys_sign_and_verify() {
    let key = SigningKey::generate(2048).unwrap();
    assert_eq!(key.bits(), 2048);
    let headers = signed_callback(&key, CALLBACK_BODY, &CanonicalOptions::DEFAULT);
    assert!(verify_callback(CALLBACK_BODY, &headers, &[key.verifying_key().clone()], &VerifyOptions::default()).is_ok());
    assert_eq!(SigningKey::generate(1024).unwrap_err().code(), "KEY_SIZE_UNSUPPORTED");
}

/// The body with one more member (an empty body becomes one with a member).
fn tamper(body_text: &str) -> String {
    if body_text.trim().is_empty() {
        return r#"{"zz":"1"}"#.to_owned();
    }
    body_text.replacen('{', r#"{"zz":"1","#, 1).replace(",}", "}")
}

/// A vector's options (see tests/vectors/README.md, dialects.json) as a whole profile.
pub fn profile_of(value: &Value) -> Profile {
    let mut profile = Profile::from(options_of(value));
    let pick = |name: &str| value.get(name).and_then(Value::as_str);
    match pick("numbers") {
        Some("js") => profile.canonical.numbers = Numbers::Js,
        Some("python") | None => {}
        Some(other) => panic!("unknown numbers {other}"),
    }
    match pick("order") {
        Some("utf16") => profile.canonical.order = Order::Utf16,
        Some("codepoint") | None => {}
        Some(other) => panic!("unknown order {other}"),
    }
    match pick("digest") {
        Some("double") => profile.digest = Digest::Double,
        Some("single") | None => {}
        Some(other) => panic!("unknown digest {other}"),
    }
    match pick("token") {
        Some("der") => profile.token = TokenEncoding::Der,
        Some("pem") | None => {}
        Some(other) => panic!("unknown token {other}"),
    }
    match pick("signatureEncoding") {
        Some("hex") => profile.signature_encoding = SignatureEncoding::Hex,
        Some("base64url") | None => {}
        Some(other) => panic!("unknown signatureEncoding {other}"),
    }
    profile
}

/// The independent implementation's dialect vectors.
pub fn dialect_vectors() {
    dialects(DIALECTS, (35, 28, 12));
}

/// Our own dialect vectors, from scripts/dialects_reference.py (Python `cryptography` and `hmac`).
pub fn dialect_reference_vectors() {
    dialects(DIALECTS_REFERENCE, (40, 20, 12));
}

/// Every case of a dialects file, at least `least` (messages, rsa, hmac) of them: the message
/// is built byte-exact (by the tree and the one-pass text path), RSA and HMAC headers are
/// signed byte-exact, what is signed verifies with the vector's rules and is named by the
/// diagnosis, and a tampered body, a forged signature and a wrong secret are refused.
fn dialects(file: &str, least: (usize, usize, usize)) {
    use payment_intake::__private::message_from_text;
    use payment_intake::Error;
    let all = json(file);
    let (messages, rsa, hmac) =
        (all["messages"].as_array().unwrap(), all["rsa"].as_array().unwrap(), all["hmac"].as_array().unwrap());
    assert!(messages.len() >= least.0 && rsa.len() >= least.1 && hmac.len() >= least.2);
    for case in messages {
        let name = text(case, "name");
        let profile = profile_of(&case["options"]);
        let parsed = body(text(case, "body"));
        let expected: Vec<&str> = case["entries"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
        assert_eq!(canonical_entries(&parsed, &profile.canonical).unwrap(), expected, "entries of {name}");
        let message = canonical_message(&parsed, text(case, "timestamp"), &profile.canonical).unwrap();
        assert_eq!(message, text(case, "message"), "message of {name}");
        let limits = Limits::default();
        if let Some(fast) = message_from_text(text(case, "body"), text(case, "timestamp"), &profile.canonical, &limits)
        {
            assert_eq!(fast, message, "one-pass message of {name}");
        }
    }
    let refused = |result: Result<payment_intake::VerifiedCallback, Error>| result.err().map(|e| e.code());
    let signature_good = |result: &Result<payment_intake::VerifiedCallback, Error>| {
        matches!(result, Ok(_) | Err(Error::InvalidCallback { .. } | Error::AmbiguousCallback { .. }))
    };
    let attacker = SigningKey::from_pem(vector_key("keys/attacker2048.pkcs8.pem")).unwrap();
    for case in rsa {
        let name = text(case, "name");
        let profile = profile_of(&case["options"]);
        let key = SigningKey::from_pem(vector_key(text(case, "key"))).unwrap();
        let body_text = text(case, "body");
        let expected = &case["headers"];
        let signed = sign_body(&body(body_text), &key, text(case, "merchant_id"), "1700000000", profile)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let pairs = signed.pairs();
        assert_eq!(pairs.len(), 4, "{name}");
        for (header, value) in pairs {
            assert_eq!(value, text(expected, header), "{header} of {name}");
        }
        let received = headers_of(expected);
        let keys = [key.verifying_key().clone()];
        let options = VerifyOptions::with_profile(&profile);
        let verified = verify_callback(body_text, &received, &keys, &options);
        assert!(signature_good(&verified), "{name} does not verify: {:?}", verified.err());
        let diagnosis = diagnose_callback(body_text, &received, &keys, &Limits::callback()).unwrap();
        assert!(diagnosis.signature_matched, "{name}: {}", diagnosis.hint);
        assert_eq!(diagnosis.token, Some(profile.token), "{name}");
        assert!(diagnosis.matching.contains(&profile), "{name}: {profile:?} not in the matches");
        // `matched` (and `options`) only when verifying with the named options returns a model;
        // else the options the signature matches under, and what verifying with them reports.
        let named = diagnosis.options.or(diagnosis.signature_options).expect("options");
        let with_named = verify_callback(body_text, &received, &keys, &VerifyOptions::with_profile(&named));
        assert!(signature_good(&with_named), "{name}");
        assert_eq!(diagnosis.matched, with_named.is_ok(), "{name}: {}", diagnosis.hint);
        assert_eq!(diagnosis.body_error.map(|e| e.code()), with_named.err().map(|e| e.code()), "{name}");
        // Tampered: one more member after signing.
        let tampered = tamper(body_text);
        assert_eq!(
            refused(verify_callback(&tampered, &received, &keys, &options)),
            Some("INVALID_SIGNATURE"),
            "{name}"
        );
        // Forged: another key signs under the project's token, or sends its own.
        let forged = sign_body(&body(body_text), &attacker, "merchant-1", "1700000000", profile).unwrap();
        let mut forged = ReceivedHeaders::from_pairs(forged.pairs()).unwrap();
        assert_eq!(refused(verify_callback(body_text, &forged, &keys, &options)), Some("INVALID_PUBLIC_KEY"), "{name}");
        forged.token = received.token.clone();
        let code = refused(verify_callback(body_text, &forged, &keys, &options));
        assert_eq!(code, Some("INVALID_SIGNATURE"), "{name}");
    }
    for case in hmac {
        let name = text(case, "name");
        let profile = profile_of(&case["options"]);
        let secret = HmacKey::from_text(text(case, "secret")).unwrap();
        let body_text = text(case, "body");
        let timestamp = text(case, "timestamp");
        let key = RequestKey::Hmac(&secret, "HMAC-SHA512");
        let signed = sign_body(&body(body_text), key, text(case, "merchant_id"), timestamp, profile).unwrap();
        assert_eq!(signed.signature, text(case, "signature"), "signature of {name}");
        assert_eq!(signed.token, None, "{name}");
        let received = ReceivedHeaders::from_pairs(signed.pairs()).unwrap();
        let keys = [CallbackKey::Hmac(secret.clone())];
        let options = VerifyOptions::with_profile(&profile);
        let verified = verify_callback(body_text, &received, &keys, &options);
        assert!(signature_good(&verified), "{name} does not verify: {:?}", verified.err());
        let diagnosis = diagnose_callback(body_text, &received, &keys, &Limits::callback()).unwrap();
        assert!(
            diagnosis
                .matching
                .iter()
                .any(|found| found.canonical == profile.canonical
                    && found.signature_encoding == profile.signature_encoding),
            "{name}"
        );
        let tampered = tamper(body_text);
        assert_eq!(
            refused(verify_callback(&tampered, &received, &keys, &options)),
            Some("INVALID_SIGNATURE"),
            "{name}"
        );
        let wrong = [HmacKey::from_text("a-wrong-test-only-secret-0123456789").unwrap()];
        assert_eq!(
            refused(verify_callback(body_text, &received, &wrong, &options)),
            Some("INVALID_SIGNATURE"),
            "{name}"
        );
    }
}
