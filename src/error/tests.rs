use super::codes::MadeBy;
use super::*;

#[test]
fn codes_are_unique_and_listed() {
    let mut codes = Error::ALL_CODES.to_vec();
    codes.sort_unstable();
    codes.dedup();
    assert_eq!(codes.len(), Error::ALL_CODES.len());
    let sample = [
        Error::KeyEncrypted,
        Error::NoVerifyingKey,
        Error::MissingHeader { name: "x-access-token" },
        Error::InvalidSignature { hint: "h".into() },
    ];
    for e in sample {
        assert!(Error::ALL_CODES.contains(&e.code()), "{}", e.code());
    }
}

#[test]
fn all_has_each_code_once_and_its_text_round_trips() {
    let mut texts: Vec<&str> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(texts, Error::ALL_CODES);
    for code in ErrorCode::ALL {
        assert_eq!(ErrorCode::from_text(code.as_str()), Some(code));
        assert_eq!(code.to_string(), code.as_str());
        let shape = code.as_str().bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        assert!(shape, "{code}");
    }
    assert_eq!(ErrorCode::from_text("invalid_json"), None);
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), ErrorCode::ALL.len());
}

/// One error of every variant: together they use every code of [`ErrorCode::ALL`].
#[test]
fn every_code_is_some_variant_s_code() {
    let text = || String::from("x");
    let every = [
        Error::InvalidJson { message: text() },
        Error::BodyNotObject { found: "an array" },
        Error::BodyTooLarge { limit: 1, actual: 2 },
        Error::CanonicalTooLarge { limit: 1, actual: 2 },
        Error::BodyTooDeep { limit: 1 },
        Error::BodyUnreadable { reason: text() },
        Error::DuplicateKey { path: text() },
        Error::InvalidNumber { path: text(), text: text() },
        Error::InvalidBody { path: text(), reason: text() },
        Error::InvalidTimestamp { value: text(), expected: "digits" },
        Error::TimestampInMilliseconds { value: text() },
        Error::InvalidOption { name: text(), reason: text() },
        Error::InvalidArgument { name: text(), reason: text() },
        Error::RawBodyParsed { empty: true },
        Error::InvalidKey { reason: text() },
        Error::InvalidSecret { reason: text() },
        Error::KeyEncrypted,
        Error::KeyTypeUnsupported { found: text() },
        Error::KeySizeUnsupported { bits: 1024, min_bits: 2048, max_bits: 4096 },
        Error::KeyExponentUnsupported { exponent: text() },
        Error::MissingHeader { name: "x-access-token" },
        Error::InvalidHeader { name: text(), reason: text() },
        Error::InvalidPublicKey { hint: text() },
        Error::InvalidSignature { hint: text() },
        Error::TimestampOutOfTolerance { skew_seconds: 1, tolerance_seconds: 0 },
        Error::NoVerifyingKey,
        Error::CryptoFailure { reason: text() },
        Error::SyncRsaUnavailable { operation: "verifyCallback with an RSA key", instead: "call verifyCallbackAsync" },
        Error::InvalidAmount { value: text(), reason: text() },
        Error::UnknownCurrency { code: text() },
        Error::InvalidCallback { path: text(), reason: text(), verified: None },
        Error::InvalidResponse { path: text(), reason: text() },
        Error::AmbiguousCallback { ambiguities: Vec::new(), raw_body: text() },
        Error::AmbiguousRequest { ambiguities: Vec::new() },
        Error::MerchantIdMismatch { expected: text(), actual: text() },
    ];
    let mut used: Vec<ErrorCode> = every.iter().map(Error::error_code).collect();
    for error in &every {
        assert_eq!(error.code(), error.error_code().as_str());
        assert!(!error.to_string().is_empty());
    }
    used.sort_unstable();
    used.dedup();
    let mut all = ErrorCode::ALL.to_vec();
    // The client's codes (pkg-template/client/) are made in JS, by no variant here.
    all.retain(|code| code.made_by() == MadeBy::Core);
    all.sort_unstable();
    assert_eq!(used, all);
}

#[test]
fn every_code_has_a_status_and_only_our_own_failures_are_5xx() {
    let sender = [
        ErrorCode::InvalidJson,
        ErrorCode::BodyNotObject,
        ErrorCode::BodyTooLarge,
        ErrorCode::BodyTooDeep,
        ErrorCode::BodyUnreadable,
        ErrorCode::DuplicateKey,
        ErrorCode::InvalidNumber,
        ErrorCode::InvalidTimestamp,
        ErrorCode::MissingHeader,
        ErrorCode::InvalidHeader,
        ErrorCode::InvalidPublicKey,
        ErrorCode::InvalidSignature,
        ErrorCode::TimestampOutOfTolerance,
        ErrorCode::MerchantIdMismatch,
    ];
    let genuine = [ErrorCode::InvalidCallback, ErrorCode::AmbiguousCallback];
    for code in ErrorCode::ALL {
        let status = code.http_status();
        if sender.contains(&code) {
            assert!((400..500).contains(&status), "{code}: {status}");
        } else if genuine.contains(&code) {
            assert_eq!(status, 200, "{code}");
        } else {
            assert!((500..600).contains(&status), "{code}: {status}");
        }
    }
    assert_eq!(ErrorCode::InvalidSignature.http_status(), 401);
    assert_eq!(ErrorCode::BodyTooLarge.http_status(), 413);
    let error = Error::CanonicalTooLarge { limit: 1, actual: 2 };
    assert_eq!(error.status(), 413);
}

#[test]
fn a_genuine_invalid_callback_says_so_and_keeps_the_hint_out_of_the_message() {
    let genuine = GenuineCallback {
        raw_body: "{}".into(),
        timestamp: 1,
        merchant_id: "m".into(),
        key_index: 0,
        ambiguities: Vec::new(),
    };
    let verified = Error::InvalidCallback {
        path: "payment_info.amount".into(),
        reason: "must be an integer, found a string".into(),
        verified: Some(Box::new(genuine)),
    };
    let text = verified.to_string();
    assert_eq!(
        text,
        "Callback signature is genuine, but the body is not the spec's callback: \
         payment_info.amount must be an integer, found a string"
    );
    let hint = verified.hint().expect("a hint");
    assert!(!text.contains(hint));
    let unverified =
        Error::InvalidCallback { path: String::new(), reason: "must be a JSON object".into(), verified: None };
    assert_eq!(unverified.to_string(), "Callback body is not the spec's callback: the body must be a JSON object");
    assert_eq!(unverified.hint(), None);
}

#[test]
fn spec_wording_is_kept() {
    let e = Error::InvalidPublicKey { hint: "x".into() };
    assert!(e.to_string().starts_with("Invalid public key"));
    let e = Error::InvalidSignature { hint: "x".into() };
    assert!(e.to_string().starts_with("Invalid signature"));
}
