use super::table::{row, DefaultValue, Kind};
use super::*;
use crate::json::Limits;
use crate::profile::{Profile, PROFILES};

#[test]
fn each_row_is_whole_and_names_are_unique() {
    for (i, row) in OPTIONS.iter().enumerate() {
        assert!(OPTIONS[i + 1..].iter().all(|other| other.name != row.name), "{} twice", row.name);
        assert!(!row.taken_by.is_empty() && !row.rule.is_empty() && !row.doc.is_empty(), "{}", row.name);
        assert_eq!(row.kind == Kind::Choice, row.choices.len() >= 2, "{}: choices only for a choice", row.name);
        if row.kind == Kind::Choice {
            // The default is a choice, and the first.
            assert_eq!(row.default, DefaultValue::Text(row.choices[0].value), "{}", row.name);
        }
    }
    assert_eq!(
        names(Group::Canonical),
        ["profile", "falsy", "booleans", "padding", "order", "numbers", "digest", "token", "signatureEncoding"]
    );
    assert_eq!(names(Group::Sign), ["merchantId", "backend", "strict", "timestamp", "options", "algorithmHeader"]);
    assert_eq!(
        names(Group::Verify),
        ["backend", "options", "toleranceSeconds", "now", "maxBodyBytes", "allowAmbiguous", "expectedMerchantId"]
    );
    assert_eq!(names(Group::Validate), ["allowLoopbackHttp"]);
    assert_eq!(DefaultValue::Number(Limits::CALLBACK_MAX_BYTES as u64), row("maxBodyBytes").unwrap().default);
    let profiles: Vec<&str> = row("profile").unwrap().choices.iter().map(|c| c.value).collect();
    assert_eq!(profiles, PROFILES.iter().map(|p| p.name).collect::<Vec<_>>());
}

#[test]
fn typed_choices_follow_their_rows_and_the_defaults_are_the_spec_profile() {
    fn both<T: Copy + PartialEq + std::fmt::Debug>(typed: &Typed<T>, spec: T) {
        let choices = row(typed.name).map(|row| row.choices).unwrap_or_default();
        assert_eq!(typed.values.len(), choices.len(), "{}", typed.name);
        for (value, choice) in typed.values.iter().zip(choices) {
            assert_eq!(typed.spelling(*value), choice.value);
            assert_eq!(typed.parse(choice.value).ok(), Some(*value));
        }
        assert_eq!(row(typed.name).map(|row| row.default), Some(DefaultValue::Text(typed.spelling(spec))));
        let refused = typed.parse("nonsense").unwrap_err();
        assert_eq!(refused.code(), "INVALID_OPTION");
        assert!(refused.to_string().contains("use one of"), "{refused}");
    }
    let spec = Profile::SPEC;
    both(&FALSY, spec.canonical.falsy);
    both(&BOOLEANS, spec.canonical.booleans);
    both(&ORDER, spec.canonical.order);
    both(&NUMBERS, spec.canonical.numbers);
    both(&DIGEST, spec.digest);
    both(&TOKEN, spec.token);
    both(&SIGNATURE_ENCODING, spec.signature_encoding);
    assert_eq!(row("padding").map(|row| row.default), Some(DefaultValue::Bool(spec.canonical.padding)));
}

/// The TypeScript of the option objects (`src/wasm/types.rs`) names exactly the table's
/// members, each choice option with exactly its choices.
#[test]
fn the_typescript_option_types_are_the_table() {
    let ts = include_str!("../wasm/types.rs");
    let block = |start: &str| -> &str {
        let from = ts.find(start).unwrap_or_else(|| panic!("no {start}"));
        let to = ts[from..].find("\n}").map_or(ts.len(), |end| from + end);
        &ts[from..to]
    };
    let alias = |name: &str| -> Option<&str> {
        let start = format!("export type {name} = ");
        let from = ts.find(&start)? + start.len();
        Some(&ts[from..from + ts[from..].find(';')?])
    };
    let literals = |text: &str| -> Vec<String> { text.split('\'').skip(1).step_by(2).map(str::to_owned).collect() };
    for (group, interface) in [
        (Group::Canonical, "export interface CanonicalOptions {"),
        (Group::Sign, "export interface SignOptions {"),
        (Group::Verify, "export interface VerifyCallbackOptions {"),
        (Group::Validate, "export interface ValidateOptions {"),
    ] {
        let body = block(interface);
        let mut members = Vec::new();
        for line in body.lines().skip(1) {
            let line = line.trim();
            let Some(colon) = line.find(':') else { continue };
            let name = line[..colon].trim_end_matches('?');
            if line.starts_with("/**") || line.starts_with('*') || !name.chars().all(char::is_alphanumeric) {
                continue;
            }
            members.push(name.to_owned());
            let declared = line[colon + 1..].trim().trim_end_matches(';');
            let row = row(name).unwrap_or_else(|| panic!("{name} of {interface} is not in the table"));
            if row.kind == Kind::Choice {
                let first = declared.split(' ').next().unwrap_or_default();
                let text = if first.starts_with('\'') { declared } else { alias(first).unwrap_or_default() };
                let expected: Vec<&str> = row.choices.iter().map(|c| c.value).collect();
                assert_eq!(literals(text), expected, "{name}: {declared}");
            }
        }
        members.sort();
        let mut expected = names(group);
        expected.sort_unstable();
        assert_eq!(members, expected, "{interface}");
    }
}

#[test]
fn the_rust_verify_options_get_the_js_bounds() {
    assert!(check_verify_numbers(Limits::CALLBACK_MAX_BYTES, Some(300), Some(1_700_000_000)).is_ok());
    assert!(check_verify_numbers(1 << 20, None, None).is_ok());
    let too_big = check_verify_numbers((1 << 20) + 1, None, None).unwrap_err();
    assert_eq!((too_big.code(), too_big.to_string().contains("1048576")), ("INVALID_ARGUMENT", true));
    assert_eq!(check_verify_numbers(1024, Some(1 << 53), None).unwrap_err().code(), "INVALID_ARGUMENT");
    assert_eq!(check_verify_numbers(1024, None, Some(u64::MAX)).unwrap_err().code(), "INVALID_ARGUMENT");
    assert_eq!(whole_number("x", 2.5, 10).unwrap_err().code(), "INVALID_ARGUMENT");
    assert_eq!(whole_number("x", 10.0, 10).ok(), Some(10));
}

#[test]
fn the_backend_option_against_what_the_caller_offers() {
    use NativeRsa::{Absent, Available, Prepare};
    assert_eq!(native_chosen(None, Available).ok(), Some(true));
    assert_eq!(native_chosen(None, Absent).ok(), Some(false));
    assert_eq!(native_chosen(Some("wasm"), Available).ok(), Some(false));
    assert_eq!(native_chosen(Some("wasm"), Prepare).ok(), Some(true));
    assert_eq!(native_chosen(Some("native"), Prepare).ok(), Some(true));
    assert_eq!(native_chosen(Some("native"), Absent).unwrap_err().code(), "INVALID_OPTION");
    let gpu = native_chosen(Some("gpu"), Available).unwrap_err();
    assert_eq!(gpu.to_string(), "Canonical option 'backend' cannot be 'gpu'; use one of native, wasm");
}
