//! Fuzz target: `validate_request` on arbitrary JSON for every operation path
//! (and one unknown path), `validate_request_text` on the raw text, and the
//! callback / info-response models on the same tree. Checks that reports are
//! consistent, use listed codes only, and serialize.

#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use payment_intake::__private::MAX_SAFE_INTEGER;
use payment_intake::{
    parse_body, parse_callback, parse_info_response, validate_request, validate_request_text, ErrorCode, IssueValue,
    Limits, Operation, ValidationReport, ISSUE_CODES,
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
        if let Err(error) = parse_info_response(path, &body) {
            assert!(ErrorCode::ALL.contains(&error.error_code()));
        }
    }
    if let Err(error) = parse_callback(&body) {
        assert_eq!(error.code(), "INVALID_CALLBACK", "{error:?}");
    }
});
