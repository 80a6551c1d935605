//! Hostile inputs at the Rust level: absurd nesting, size and number length,
//! JS-special keys, malformed signatures, timestamps and headers. Each must
//! give an error with a stable code (or, for the keys, be read as ordinary
//! data) and nothing may panic. Runs natively and as wasm.

use payment_intake::__private::match_token;
use payment_intake::{
    canonical_entries, diagnose_callback, parse_body, parse_callback, validate_request, validate_request_text,
    verify_callback, CanonicalOptions, Error, Json, Limits, ReceivedHeaders, SigningKey, VerifyOptions, VerifyingKey,
};
use serde_json::Value;

const CALLBACKS: &str = include_str!("vectors/callbacks.json");
const PUBLIC_PEM: &str = include_str!("vectors/keys/rsa2048.public.pem");
const PAYIN: &str = "/api/v1/payment/p2p/payin";

fn key() -> VerifyingKey {
    VerifyingKey::from_pem(PUBLIC_PEM).expect("vector key")
}

/// The body and headers of the vectors' valid callback.
fn valid_callback() -> (String, ReceivedHeaders) {
    let vectors: Value = serde_json::from_str(CALLBACKS).expect("json");
    let case = vectors["cases"].as_array().expect("cases").iter().find(|c| c["expect"] == "ok").expect("ok case");
    let header = |name: &str| case["headers"][name].as_str().expect("header").to_owned();
    let headers = ReceivedHeaders {
        timestamp: header("x-access-timestamp"),
        merchant_id: header("x-access-merchant-id"),
        signature: header("x-access-signature"),
        token: Some(header("x-access-token")),
    };
    (case["body"].as_str().expect("body").to_owned(), headers)
}

fn verify(body: &str, headers: &ReceivedHeaders) -> Result<(), Error> {
    verify_callback(body, headers, &[key()], &VerifyOptions::default()).map(|_| ())
}

/// The largest limit the JS options allow (`maxBodyBytes` at its 1 MiB ceiling):
/// the costly shapes here must stay cheap, and never trap, even under it.
const ROOMY: Limits = Limits { max_bytes: 1 << 20, max_depth: Limits::DEFAULT_MAX_DEPTH };

fn verify_roomy(body: &str, headers: &ReceivedHeaders) -> Result<(), Error> {
    let options = VerifyOptions { limits: ROOMY, ..VerifyOptions::default() };
    verify_callback(body, headers, &[key()], &options).map(|_| ())
}

fn code<T: std::fmt::Debug>(result: Result<T, Error>) -> &'static str {
    let error = result.expect_err("must be refused");
    assert!(!error.to_string().is_empty());
    error.code()
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn valid_callback_still_verifies() {
    let (body, headers) = valid_callback();
    verify(&body, &headers).expect("the vector verifies");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn nesting_deep_is_too_deep_everywhere() {
    // 2,000 levels fit the 16 KiB callback limit; 100,000 are read under a raised one below.
    const DEPTH: usize = 2_000;
    let arrays = format!(r#"{{"a":{}{}}}"#, "[".repeat(DEPTH), "]".repeat(DEPTH));
    let objects = format!("{}1{}", r#"{"a":"#.repeat(DEPTH), "}".repeat(DEPTH));
    let unclosed = "[".repeat(DEPTH);
    let (_, headers) = valid_callback();
    for text in [&arrays, &objects] {
        assert_eq!(code(parse_body(text, &Limits::default())), "BODY_TOO_DEEP");
        assert_eq!(code(verify(text, &headers)), "BODY_TOO_DEEP");
        assert_eq!(code(diagnose_callback(text, &headers, &[key()], &Limits::default())), "BODY_TOO_DEEP");
        assert_eq!(validate_request_text(PAYIN, text).error_codes(), ["BODY_TOO_DEEP"]);
    }
    assert_eq!(code(parse_body(&unclosed, &Limits::default())), "BODY_TOO_DEEP");
    let raised = Limits { max_bytes: 1 << 20, ..Limits::default() };
    let deeper = format!(r#"{{"a":{}{}}}"#, "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(code(parse_body(&deeper, &raised)), "BODY_TOO_DEEP");
    // Even a limit far above serde_json's own recursion guard fails cleanly.
    let unbounded = Limits { max_depth: usize::MAX, max_bytes: usize::MAX };
    assert_eq!(code(parse_body(&arrays, &unbounded)), "INVALID_JSON");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_50_mb_body_is_too_large() {
    let (_, headers) = valid_callback();
    let body = format!(r#"{{"a":"{}"}}"#, "x".repeat(50 << 20));
    assert_eq!(code(parse_body(&body, &Limits::default())), "BODY_TOO_LARGE");
    assert_eq!(code(verify(&body, &headers)), "BODY_TOO_LARGE");
    assert_eq!(validate_request_text(PAYIN, &body).error_codes(), ["BODY_TOO_LARGE"]);
}

/// A limit raised above 1 MiB is refused by the Rust API as by the JS options (the
/// option table's rule for `maxBodyBytes`), before the body is read: an 8 MB body
/// is never canonicalized. At 1 MiB, the largest allowed, a body of that size is read.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_limit_above_the_ceiling_is_refused_as_in_js() {
    let (_, headers) = valid_callback();
    let options = VerifyOptions { limits: Limits { max_bytes: 64 << 20, ..Limits::default() }, ..Default::default() };
    let body = format!(r#"{{"a":"{}","b":[{}0]}}"#, "x".repeat(8 << 20), "1,".repeat(1000));
    let refused = verify_callback(&body, &headers, &[key()], &options).unwrap_err();
    assert_eq!(
        (refused.code().to_string(), refused.to_string()),
        ("INVALID_ARGUMENT".to_string(), "'maxBodyBytes' must be a whole number from 0 to 1048576".to_string())
    );
    let body = format!(r#"{{"a":"{}"}}"#, "x".repeat((1 << 20) - 16));
    assert_eq!(code(verify_roomy(&body, &headers)), "INVALID_SIGNATURE");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn an_integer_a_million_digits_long_has_no_canonical_form() {
    let digits = format!("9{}", "0".repeat(999_999));
    let body = parse_body(&format!(r#"{{"n":{digits}}}"#), &ROOMY).expect("valid JSON");
    assert_eq!(code(canonical_entries(&body, &CanonicalOptions::DEFAULT)), "INVALID_NUMBER");
    for number in [digits.clone(), format!("-{digits}"), format!("0.{digits}"), format!("1e{digits}")] {
        let text = format!(r#"{{"n":{number}}}"#);
        let body = parse_body(&text, &ROOMY).expect("valid JSON");
        let _ = canonical_entries(&body, &CanonicalOptions::DEFAULT);
        let (_, headers) = valid_callback();
        assert!(["INVALID_NUMBER", "INVALID_SIGNATURE"].contains(&code(verify_roomy(&text, &headers))));
    }
    // As an amount it is out of range, reported with its text, not a rounded number.
    // (A thousand digits: a request body is read up to 64 KiB.)
    let request = format!(r#"{{"payment":{{"amount":{}}}}}"#, &digits[..1000]);
    let report = validate_request_text(PAYIN, &request);
    assert!(report.has_error("payment.amount", "OUT_OF_RANGE"), "{:?}", report.errors);
    // A tiny exponent is zero, a huge one out of float range.
    let tiny = parse_body(r#"{"n":1e-99999999999999999999}"#, &Limits::default()).expect("valid JSON");
    assert_eq!(canonical_entries(&tiny, &CanonicalOptions::DEFAULT), Ok(vec!["n:None".to_owned()]));
    let huge = parse_body(r#"{"n":1e99999999999999999999}"#, &Limits::default()).expect("valid JSON");
    assert_eq!(code(canonical_entries(&huge, &CanonicalOptions::DEFAULT)), "INVALID_NUMBER");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn proto_and_constructor_are_ordinary_keys() {
    let text = r#"{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":"y"}},"prototype":"z",
        "$serde_json::private::Number":"7","toString":"t","hasOwnProperty":null}"#;
    let body = parse_body(text, &Limits::default()).expect("ordinary JSON");
    let Json::Object(members) = &body else { panic!("an object") };
    let keys: Vec<&str> = members.iter().map(|(k, _)| k.as_ref()).collect();
    assert_eq!(
        keys,
        ["__proto__", "constructor", "prototype", "$serde_json::private::Number", "toString", "hasOwnProperty"]
    );
    assert_eq!(
        canonical_entries(&body, &CanonicalOptions::DEFAULT).expect("entries"),
        [
            "$serde_json::private::Number:7",
            "__proto__:polluted:1",
            "constructor:prototype:x:y",
            "hasOwnProperty:None",
            "prototype:z",
            "toString:t"
        ]
    );
    assert_eq!(parse_body(&body.to_json_text(), &Limits::default()), Ok(body.clone()));
    assert_eq!(
        code(parse_body(r#"{"__proto__":1,"__proto__":2}"#, &Limits::default())),
        "DUPLICATE_KEY",
        "a repeated __proto__ is a duplicate like any other key"
    );
    // Validation reports them as unknown fields; the callback model does not trip over them.
    let report = validate_request(PAYIN, &body);
    assert!(report.has_warning("__proto__", "UNKNOWN_FIELD"), "{:?}", report.warnings);
    assert_eq!(code(parse_callback(&body)), "INVALID_CALLBACK");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn signatures_of_the_wrong_length_or_alphabet_are_invalid() {
    let (body, headers) = valid_callback();
    let good = headers.signature.trim_end_matches('=').to_owned();
    let bad = [
        String::new(),
        "=".into(),
        "A".into(),
        good[..good.len() - 4].into(),
        format!("{good}AAAA"),
        good.replace('_', "/").replace('-', "+"),
        format!("{good}==="),
        format!(" {good}"),
        "A".repeat(1 << 20),
        "\u{0}".repeat(344),
        "é".repeat(344),
    ];
    for signature in bad {
        let headers = ReceivedHeaders { signature: signature.clone(), ..headers.clone() };
        let shown: String = signature.chars().take(20).collect();
        assert_eq!(code(verify(&body, &headers)), "INVALID_SIGNATURE", "{shown}");
    }
    // A signature that is only the modulus-sized run of bytes 0xff (above the modulus).
    let above = base64_url(&[0xff; 256]);
    assert_eq!(code(verify(&body, &ReceivedHeaders { signature: above, ..headers.clone() })), "INVALID_SIGNATURE");
    let zero = base64_url(&[0; 256]);
    assert_eq!(code(verify(&body, &ReceivedHeaders { signature: zero, ..headers })), "INVALID_SIGNATURE");
}

fn base64_url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE.encode(bytes)
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn timestamps_that_are_not_numbers_are_invalid() {
    let (body, headers) = valid_callback();
    let bad = [
        "",
        "abc",
        "1.7e9",
        "1700000000.0",
        "-1700000000",
        "+1700000000",
        "0x6553f100",
        "1700000000 ",
        "1 700 000 000",
        "１７００００００００",
        "٠",
        "NaN",
        "Infinity",
        "null",
        "99999999999999999999",
        "1700000000\u{0}",
    ];
    for timestamp in bad {
        let headers = ReceivedHeaders { timestamp: timestamp.to_owned(), ..headers.clone() };
        assert_eq!(code(verify(&body, &headers)), "INVALID_TIMESTAMP", "{timestamp:?}");
        let diagnosis = diagnose_callback(&body, &headers, &[key()], &Limits::default());
        assert_eq!(code(diagnosis), "INVALID_TIMESTAMP", "{timestamp:?}");
    }
    let long = "1".repeat(1 << 20);
    assert_eq!(code(verify(&body, &ReceivedHeaders { timestamp: long, ..headers })), "INVALID_TIMESTAMP");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn duplicate_and_odd_headers_have_codes() {
    let (body, headers) = valid_callback();
    let base = [
        ("x-access-timestamp", headers.timestamp.as_str()),
        ("x-access-merchant-id", headers.merchant_id.as_str()),
        ("x-access-signature", headers.signature.as_str()),
        ("x-access-token", headers.token.as_deref().unwrap_or_default()),
    ];
    let with = |extra: &[(&'static str, &'static str)]| {
        let mut pairs = base.to_vec();
        pairs.extend_from_slice(extra);
        ReceivedHeaders::from_pairs(pairs)
    };
    // The same header twice, in any case or padding, even with the same value.
    for name in ["x-access-token", "X-ACCESS-TOKEN", " x-access-token ", "x-access-timestamp"] {
        assert_eq!(code(with(&[(name, "v")])), "INVALID_HEADER", "{name}");
    }
    let again = [("x-access-merchant-id", headers.merchant_id.as_str())];
    assert_eq!(code(ReceivedHeaders::from_pairs(base.iter().chain(&again).copied())), "INVALID_HEADER");
    // Look-alike names are other headers, so the real one is still missing (the token
    // may be left out of the headers, for HMAC; checking an RSA signature needs it).
    for name in ["x-access_token", "x-access-token\u{0}", "x-access-tokens", "x\u{2010}access-token", ""] {
        let pairs = base[..3].iter().copied().chain([(name, headers.token.as_deref().unwrap_or_default())]);
        let checked = ReceivedHeaders::from_pairs(pairs).and_then(|headers| verify(&body, &headers));
        assert_eq!(code(checked), "MISSING_HEADER", "{name:?}");
    }
    assert_eq!(code(ReceivedHeaders::from_pairs([])), "MISSING_HEADER");
    // Unrelated and odd headers are ignored; the callback still verifies.
    let odd = with(&[("", ""), (":", ":"), ("x-access", "1"), ("content-length", "-1"), ("\u{feff}", "\u{0}")]);
    verify(&body, &odd.expect("odd extras are ignored")).expect("still verifies");
    // Odd values in the four headers are refused by what checks them.
    let cases: [(usize, &str, &str); 5] = [
        (0, "1700000000\r\nx-injected: 1", "INVALID_TIMESTAMP"),
        (2, "not base64 at all!", "INVALID_SIGNATURE"),
        (3, "", "INVALID_PUBLIC_KEY"),
        (3, "bm90IGEgUEVN", "INVALID_PUBLIC_KEY"),
        (3, "%%%", "INVALID_PUBLIC_KEY"),
    ];
    for (slot, value, expected) in cases {
        let mut pairs = base.to_vec();
        pairs[slot].1 = value;
        let parsed = ReceivedHeaders::from_pairs(pairs).expect("four headers");
        assert_eq!(code(verify(&body, &parsed)), expected, "{value:?}");
    }
    // A token carrying another (or no) key never selects a configured key.
    let other = VerifyingKey::from_pem(include_str!("vectors/keys/attacker2048.public.pem")).expect("key");
    assert_eq!(code(match_token(other.token(), &[key()])), "INVALID_PUBLIC_KEY");
    assert_eq!(code(match_token(&base64_url(&[0xff; 4096]), &[key()])), "INVALID_PUBLIC_KEY");
    assert_eq!(code(match_token::<payment_intake::VerifyingKey>(key().token(), &[])), "NO_VERIFYING_KEY");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn hostile_pem_text_has_key_codes() {
    let private = include_str!("vectors/keys/rsa2048.pkcs8.pem");
    let cases = [
        String::new(),
        "-----BEGIN PRIVATE KEY-----".into(),
        "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n".into(),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".into(),
        private.replace("PRIVATE KEY", "RSA PRIVATE KEY"),
        private.replace('M', "*"),
        format!("{private}{private}"),
        format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n", "A".repeat(1 << 20)),
        "\u{0}".repeat(1000),
    ];
    for pem in &cases {
        let shown: String = pem.chars().take(40).collect();
        let codes = ["INVALID_KEY", "KEY_TYPE_UNSUPPORTED"];
        assert!(codes.contains(&code(SigningKey::from_pem(pem))), "{shown}");
        assert!(codes.contains(&code(VerifyingKey::from_pem(pem))), "{shown}");
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn an_object_of_90_000_members_is_read_and_refused_on_signature() {
    // Once n² key comparisons: about a minute of CPU before any signature check.
    let (_, headers) = valid_callback();
    let members: Vec<String> = (0..90_000).map(|i| format!(r#""k{i}":0"#)).collect();
    let body = format!("{{{}}}", members.join(","));
    assert!(body.len() < ROOMY.max_bytes);
    assert_eq!(code(verify_roomy(&body, &headers)), "INVALID_SIGNATURE");
    assert_eq!(code(verify(&body, &headers)), "BODY_TOO_LARGE", "over the 16 KiB default");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn long_keys_over_many_leaves_do_not_expand() {
    // Once about 130 GB of canonical entries from this 1 MiB body.
    let (_, headers) = valid_callback();
    let body = format!(r#"{{"{}":[{}0]}}"#, "k".repeat(500_000), "0,".repeat(260_000));
    assert!(body.len() < ROOMY.max_bytes);
    assert_eq!(code(verify_roomy(&body, &headers)), "BODY_TOO_LARGE");
    assert_eq!(code(diagnose_callback(&body, &headers, &[key()], &ROOMY)), "BODY_TOO_LARGE");
    // Nested: the long key three levels up, the leaves in many small arrays.
    let nested = format!(r#"{{"{}":{{"a":{{"b":[{}[0]]}}}}}}"#, "k".repeat(200_000), "[0,0,0],".repeat(80_000));
    assert!(nested.len() < ROOMY.max_bytes);
    assert_eq!(code(verify_roomy(&nested, &headers)), "BODY_TOO_LARGE");
}
