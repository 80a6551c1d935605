//! Fuzz target: key parsing (`SigningKey::from_pem`, `VerifyingKey::from_pem`).
//!
//! Input: PEM text; or, when the first byte is 0..=3, DER bytes that are
//! wrapped in a PEM block labelled `PRIVATE KEY`, `RSA PRIVATE KEY`,
//! `PUBLIC KEY` or `RSA PUBLIC KEY` (so mutations reach the DER parsers).
//! Every failure has a key error code; every key read signs and verifies, and
//! its PEM forms read back as the same key.

#![no_main]

#[path = "common.rs"]
mod common;

use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use libfuzzer_sys::fuzz_target;
use payment_intake::{sign_message, verify_message, ErrorCode, SigningKey, VerifyingKey};

const LABELS: [&str; 4] = ["PRIVATE KEY", "RSA PRIVATE KEY", "PUBLIC KEY", "RSA PUBLIC KEY"];
const KEY_ERRORS: &[ErrorCode] = &[
    ErrorCode::InvalidKey,
    ErrorCode::KeyEncrypted,
    ErrorCode::KeyTypeUnsupported,
    ErrorCode::KeySizeUnsupported,
    ErrorCode::KeyExponentUnsupported,
];

fn pem(label: &str, der: &[u8]) -> String {
    let encoded = STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for line in encoded.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

fn check_verifying(key: &VerifyingKey) {
    assert!((2048..=4096).contains(&key.bits()));
    assert_eq!(URL_SAFE.decode(key.token()).as_deref(), Ok(key.public_key_pem().as_bytes()));
    assert_eq!(VerifyingKey::from_pem(key.public_key_pem()).as_ref(), Ok(key));
}

fuzz_target!(|data: &[u8]| {
    let text = match data.split_first() {
        Some((&selector, der)) if usize::from(selector) < LABELS.len() => pem(LABELS[usize::from(selector)], der),
        _ => common::text(data).into_owned(),
    };
    match SigningKey::from_pem(&text) {
        Ok(key) => {
            check_verifying(key.verifying_key());
            let signature = sign_message("fuzz", &key, payment_intake::Digest::Single).expect("a key that reads signs");
            verify_message("fuzz", &signature, key.verifying_key(), payment_intake::Digest::Single)
                .expect("and verifies");
            let again = SigningKey::from_pem(&key.private_key_pem().expect("exports")).expect("reads back");
            assert_eq!(again.verifying_key(), key.verifying_key());
        }
        Err(error) => assert!(KEY_ERRORS.contains(&error.error_code()), "{error:?}"),
    }
    match VerifyingKey::from_pem(&text) {
        Ok(key) => check_verifying(&key),
        Err(error) => assert!(KEY_ERRORS.contains(&error.error_code()), "{error:?}"),
    }
});
