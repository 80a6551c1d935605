use super::*;

#[test]
fn signed_and_prepared_requests_use_the_header_names() {
    let headers = AccessHeaders {
        timestamp: "1700000000".into(),
        merchant_id: "m".into(),
        signature: "c2ln".into(),
        token: Some("dG9r".into()),
        algorithm: None,
    };
    let text = serde_json::to_string(&SignedOut::new("{}", &headers)).unwrap_or_default();
    assert_eq!(
        text,
        r#"{"body":"{}","headers":{"x-access-timestamp":"1700000000","x-access-merchant-id":"m","x-access-signature":"c2ln","x-access-token":"dG9r"}}"#
    );
    let prepared = PreparedRequest {
        message: "e30=1".into(),
        timestamp: "1".into(),
        merchant_id: "m".into(),
        token: Some("dG9r".into()),
        algorithm: None,
        padding: false,
        digest: crate::rsa::pkcs1v15::Digest::Double,
        signature_encoding: crate::hmac::SignatureEncoding::Base64Url,
    };
    let text = serde_json::to_string(&PreparedOut::new("{}", &prepared)).unwrap_or_default();
    assert_eq!(
        text,
        r#"{"body":"{}","message":"e30=1","headers":{"x-access-timestamp":"1","x-access-merchant-id":"m","x-access-token":"dG9r"},"padding":false,"digest":"double"}"#
    );
    let hmac = AccessHeaders { token: None, algorithm: Some("HMAC-SHA512".into()), ..headers };
    let text = serde_json::to_string(&SignedOut::new("{}", &hmac)).unwrap_or_default();
    assert!(text.ends_with(r#""x-access-signature":"c2ln","x-access-merchant-algorithm":"HMAC-SHA512"}}"#), "{text}");
}

#[test]
fn options_and_steps_as_js_spells_them() {
    let text = serde_json::to_string(&OptionsOut::from(&Profile::SPEC)).unwrap_or_default();
    assert_eq!(
        text,
        r#"{"falsy":"none","booleans":"python","padding":true,"order":"codepoint","numbers":"python","digest":"single","token":"pem","signatureEncoding":"base64url"}"#
    );
    let verified = serde_json::to_string(&OptionsOut::from(&VerifyOptions::default())).unwrap_or_default();
    assert!(!verified.contains("token"), "{verified}");
    assert_eq!(profile_rows().len(), PROFILES.len());
    let steps = crate::canonical::canonical_steps(
        &crate::json::Json::Object(vec![]),
        "1",
        &crate::canonical::CanonicalOptions::DEFAULT,
    );
    let Ok(steps) = steps else { panic!("no steps") };
    let text = serde_json::to_string(&StepsOut::from(&steps)).unwrap_or_default();
    assert!(text.starts_with(r#"{"entries":[],"joined":"","encoded":"#), "{text}");
}

#[test]
fn the_spec_tables_as_js_reads_them() {
    let rows = availability_rows();
    assert_eq!(rows.len(), AVAILABILITY.len());
    let text = serde_json::to_string(&rows[0]).unwrap_or_default();
    for member in ["\"country\":", "\"integration\":", "\"payinMethods\":", "\"payoutMethods\":", "\"lifetimeMax\":"] {
        assert!(text.contains(member), "{text}");
    }
    assert!(rows.iter().all(|row| row.integration == "h2h" || row.integration == "widget"));
    let codes = issue_code_rows();
    assert_eq!(codes.len(), validate::ISSUE_CODES.len());
    let text = serde_json::to_string(&codes[0]).unwrap_or_default();
    assert!(text.starts_with("{\"code\":") && text.contains("\"description\":"), "{text}");
}
