//! Fuzz target: `validate_request` on arbitrary JSON for every operation path
//! (and one unknown path), `validate_request_text` on the raw text, and the
//! callback / info-response models on the same tree. Checks that reports are
//! consistent, use listed codes only, and serialize; and that the sandbox's
//! `allow_loopback_http` changes nothing but NOT_HTTPS errors.

#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use payment_intake::__private::MAX_SAFE_INTEGER;
use payment_intake::{
    parse_body, parse_callback, parse_info_response, validate_request, validate_request_text, validate_request_with,
    ErrorCode, IssueValue, Limits, Operation, ValidateOptions, ValidationReport, ISSUE_CODES,
};

fn check(report: &ValidationReport) {
    assert_eq!(report.valid, report.errors.is_empty());
    for issue in report.errors.iter().chain(&report.warnings) {
        assert!(ISSUE_CODES.iter().any(|(code, _)| *code == issue.code), "unlisted code {}", issue.code);
        assert!(!issue.message.is_empty());
        for value in [&issue.limit, &issue.actual].into_iter().flatten() {
            if let IssueValue::Int(n) = value {
                assert!(n.unsigned_abs() <= MAX_SAFE_INTEGER as u64, "{n} is not exact in JS");
            }
        }
    }
    serde_json::to_string(report).expect("report serializes");
}

/// The report under `allow_loopback_http` (`sandbox`) against the default one: the
/// same warnings plus LOOPBACK_HTTP ones; every error the same, except that a NOT_HTTPS
/// may become a LOOPBACK_HTTP warning, or an INVALID_URL (the rest of that URL is bad).
fn check_loopback_option(report: &ValidationReport, sandbox: &ValidationReport) {
    check(sandbox);
    let ordinary: Vec<_> = sandbox.warnings.iter().filter(|w| w.code != "LOOPBACK_HTTP").collect();
    assert_eq!(ordinary, report.warnings.iter().collect::<Vec<_>>());
    for error in &sandbox.errors {
        let same = report.has_error(&error.path, error.code);
        assert!(same || (error.code == "INVALID_URL" && report.has_error(&error.path, "NOT_HTTPS")), "{error:?}");
    }
    for error in &report.errors {
        let became = sandbox.has_warning(&error.path, "LOOPBACK_HTTP") || sandbox.has_error(&error.path, "INVALID_URL");
        assert!(sandbox.has_error(&error.path, error.code) || (error.code == "NOT_HTTPS" && became), "{error:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = common::text(data);
    let paths = Operation::ALL.iter().map(|op| op.path()).chain(["/api/v1/unknown"]);
    for path in paths.clone() {
        check(&validate_request_text(path, &text));
    }
    let Ok(body) = parse_body(&text, &Limits::default()) else {
        return;
    };
    for path in paths {
        let report = validate_request(path, &body);
        check(&report);
        assert_eq!(report, validate_request_text(path, &text), "text and tree reports differ");
        check_loopback_option(
            &report,
            &validate_request_with(path, &body, ValidateOptions { allow_loopback_http: true }),
        );
        if let Err(error) = parse_info_response(path, &body) {
            assert!(ErrorCode::ALL.contains(&error.error_code()));
        }
    }
    if let Err(error) = parse_callback(&body) {
        assert_eq!(error.code(), "INVALID_CALLBACK", "{error:?}");
    }
});
