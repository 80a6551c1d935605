//! Request validation against the spec ("Endpoints", "Limits", "Availability
//! by country"): the report types, the stable issue codes, and the entry
//! points that run every check in one pass.
//!
//! Submodules: `rules` checks single values (`addresses` the URL, IP and
//! e-mail formats among them), `operations` holds each operation's field
//! schema, `limits` applies the Limits table wherever a field it names appears,
//! `cross_field` the rules that join fields, `walk` the one walk that runs the
//! field checks over a body's text as it is read (without a tree) or over a
//! tree. The spec's tables they check against (operations,
//! availability, limits) are `crate::spec`'s.

mod addresses;
#[cfg(test)]
mod corpus;
mod cross_field;
mod driver;
mod fields;
mod limits;
pub(crate) mod operations;
mod rules;
mod walk;

pub(crate) use rules::CUSTOMER_TYPES;

use serde::Serialize;

use crate::error::Error;

use crate::canonical::entry::{invalid_number, push_index};
use crate::canonical::number::python_number_text;
use crate::json::reader::Segment;
use crate::json::{Json, Leaf, Limits, MAX_SAFE_INTEGER};
use crate::spec::operations::Operation;

/// A limit or an offending value in an [`Issue`]: a number or a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IssueValue {
    /// Always within JS's safe integer range; [`IssueValue::int`] enforces it.
    Int(i64),
    /// A text, or a number too large for a JS number, in decimal.
    Text(String),
}

impl IssueValue {
    /// A number, or its decimal text when a JS number could not hold it exactly.
    pub fn int(value: i128) -> Self {
        match i64::try_from(value) {
            Ok(small) if value.abs() <= i128::from(MAX_SAFE_INTEGER) => IssueValue::Int(small),
            _ => IssueValue::Text(value.to_string()),
        }
    }

    /// A text.
    pub fn text(value: impl Into<String>) -> Self {
        IssueValue::Text(value.into())
    }
}

impl Serialize for IssueValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            IssueValue::Int(n) => serializer.serialize_i64(*n),
            IssueValue::Text(s) => serializer.serialize_str(s),
        }
    }
}

/// One finding about one field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Issue {
    /// Dotted path of the field, e.g. `payment.amount`; empty for the whole body.
    pub path: String,
    /// A stable code from [`ISSUE_CODES`].
    pub code: &'static str,
    /// What is wrong, readable by a person; names the field.
    pub message: String,
    /// The bound or expected value that was missed, where there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<IssueValue>,
    /// The value (or its length) that missed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<IssueValue>,
}

/// Everything found in one pass. `valid` is true when there are no errors;
/// warnings (likely mistakes the service may still accept) do not count.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidationReport {
    /// True when there are no errors.
    pub valid: bool,
    /// Every error found.
    pub errors: Vec<Issue>,
    /// Every warning found.
    pub warnings: Vec<Issue>,
}

impl ValidationReport {
    /// The report of a body that could not be read at all (not JSON, too deep…).
    pub fn from_error(error: &Error) -> Self {
        let path = match error {
            Error::DuplicateKey { path } | Error::InvalidNumber { path, .. } | Error::InvalidBody { path, .. } => path,
            _ => "",
        };
        let mut findings = Findings::default();
        findings.error(path, error.code(), error.to_string());
        findings.into_report()
    }

    /// Codes of all errors, in the order found; handy in tests and logs.
    pub fn error_codes(&self) -> Vec<&'static str> {
        self.errors.iter().map(|issue| issue.code).collect()
    }

    /// Whether an error with this code was reported at this path.
    pub fn has_error(&self, path: &str, code: &str) -> bool {
        self.errors.iter().any(|issue| issue.path == path && issue.code == code)
    }

    /// Whether a warning with this code was reported at this path.
    pub fn has_warning(&self, path: &str, code: &str) -> bool {
        self.warnings.iter().any(|issue| issue.path == path && issue.code == code)
    }
}

/// Choices that change what some checks report. The default is the spec's rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ValidateOptions {
    /// An `http://` URL whose host is a loopback address (127.0.0.0/8, `::1`,
    /// `localhost`) is the warning `LOOPBACK_HTTP` instead of the error
    /// `NOT_HTTPS`. For a local sandbox, whose receivers under test run on the
    /// same machine; the real service takes https only. Any other non-https
    /// URL is still `NOT_HTTPS`.
    pub allow_loopback_http: bool,
}

/// Collects issues while the checks run, under the caller's [`ValidateOptions`].
#[derive(Debug, Default)]
pub(crate) struct Findings {
    errors: Vec<Issue>,
    warnings: Vec<Issue>,
    pub(crate) options: ValidateOptions,
    /// Where the issues found next go in the report: it lists them by this key,
    /// those of one key in the order found. A walk that finds issues in another
    /// order than the report's (`walk`) sets it; left at 0, the order found is kept.
    order: u64,
    /// Each error's and each warning's key.
    error_order: Vec<u64>,
    warning_order: Vec<u64>,
}

impl Findings {
    pub(crate) fn error(&mut self, path: &str, code: &'static str, message: String) -> &mut Issue {
        push(&mut self.errors, &mut self.error_order, self.order, Issue::new(path, code, message))
    }

    pub(crate) fn warning(&mut self, path: &str, code: &'static str, message: String) -> &mut Issue {
        push(&mut self.warnings, &mut self.warning_order, self.order, Issue::new(path, code, message))
    }

    /// Issues found from now on follow every one found so far.
    fn after_all(&mut self) {
        self.order = u64::MAX;
    }

    fn into_report(self) -> ValidationReport {
        let errors = in_order(self.errors, &self.error_order);
        ValidationReport { valid: errors.is_empty(), errors, warnings: in_order(self.warnings, &self.warning_order) }
    }
}

/// Adds `issue` to `issues`, with its key `key` in `order`.
fn push<'a>(issues: &'a mut Vec<Issue>, order: &mut Vec<u64>, key: u64, issue: Issue) -> &'a mut Issue {
    order.push(key);
    issues.push(issue);
    let last = issues.len() - 1;
    &mut issues[last]
}

/// `issues` by their keys `order`, those of one key in their order. Each
/// issue's key and index, as 16 big-endian bytes, are sorted as bytes by the
/// canonical entries' sort: no two are equal, so the order is the stable one.
fn in_order(mut issues: Vec<Issue>, order: &[u64]) -> Vec<Issue> {
    if order.len() < 2 {
        return issues;
    }
    let mut bytes = Vec::new();
    for (at, key) in order.iter().enumerate() {
        bytes.extend((u128::from(*key) << 64 | at as u128).to_be_bytes());
    }
    let mut spans: Vec<(usize, usize)> = (0..order.len()).map(|at| (16 * at, 16 * at + 16)).collect();
    crate::canonical::sort::sort_spans(&bytes, &mut spans, crate::canonical::sort::Key::CodePoint);
    let taken = || Issue::new("", "", String::new());
    spans
        .iter()
        .filter_map(|&(start, _)| issues.get_mut(start / 16).map(|issue| std::mem::replace(issue, taken())))
        .collect()
}

impl Issue {
    fn new(path: &str, code: &'static str, message: String) -> Self {
        Issue { path: path.to_owned(), code, message, limit: None, actual: None }
    }

    pub(crate) fn with_limit(&mut self, limit: IssueValue) -> &mut Self {
        self.limit = Some(limit);
        self
    }

    pub(crate) fn with_actual(&mut self, actual: IssueValue) -> &mut Self {
        self.actual = Some(actual);
        self
    }
}

/// Every issue code with a one-line description, for docs and TS types.
/// Codes are stable: new ones may be added, existing ones never change.
pub const ISSUE_CODES: &[(&str, &str)] = &[
    ("UNKNOWN_OPERATION", "The operation path is not one of the spec's operation index"),
    ("REQUIRED", "A required field is missing (or null)"),
    ("WRONG_TYPE", "A field (or a member of a builder's input) has the wrong type, e.g. an amount written as a string or with a fraction"),
    ("TOO_LONG", "A string has more characters than its limit (counted in characters, not bytes)"),
    ("TOO_SHORT", "A string is empty where a value is required, or shorter than its minimum"),
    ("PATTERN", "A string does not match its pattern (currency, country, language, phone, extra_param, …), or holds U+0000 (NUL), which no field may hold"),
    ("OUT_OF_RANGE", "A number is outside its range, e.g. an amount outside 1 to 10000000000000"),
    ("NOT_HTTPS", "A URL does not use the https scheme"),
    ("LOOPBACK_HTTP", "Warning (only with the allowLoopbackHttp option, as the local sandbox uses): an http:// URL to a loopback host (127.0.0.0/8, ::1, localhost); without the option it is NOT_HTTPS"),
    ("INVALID_URL", "A URL cannot be read: no host, spaces, bad port, …"),
    ("INVALID_IP", "Not an IPv4 or IPv6 address"),
    ("INVALID_EMAIL", "Not an e-mail address of the form local@domain.tld"),
    ("UNKNOWN_METHOD", "Not a payment method (or widget method) code from the spec's tables"),
    ("METHOD_NOT_AVAILABLE", "The method exists but is not offered for this country and integration"),
    ("COUNTRY_NOT_AVAILABLE", "The country is served, but not through this integration (e.g. H2H P2P payin in KE)"),
    ("CURRENCY_MISMATCH", "The currency is not the one the country is served in (e.g. RUB with KZ)"),
    ("WIDGET_METHOD_REQUIRED", "A KZ widget payin must set payment.widget_method"),
    ("EMAIL_REQUIRED", "A widget payin in KE, NG or ZA must set customer.email"),
    ("BANK_SYMBOL_NOT_ALLOWED", "sender.bank_symbol pre-selection is only offered in RU and KZ widget payins"),
    ("LIFETIME_OUT_OF_RANGE", "payment.lifetime is outside 300 to 600 seconds (300 to 900 for KZ); a lifetime in a body the spec does not show, outside 300 to 900"),
    ("UNKNOWN_INPUT", "A member of a builder's input (buildPayinRequest, buildWidgetPayinRequest) that the builder does not know; likely a typo"),
    ("UNKNOWN_FIELD", "Warning: a field the spec does not list for this operation; likely a typo"),
    ("NULL_FIELD", "Warning: an optional field is null; omit it instead"),
    ("COUNTRY_NOT_LISTED", "Warning: the country is not in the spec's availability table"),
    ("LANGUAGE_NOT_SUPPORTED", "Warning: the language is well-formed but not one the spec lists as supported"),
    ("AMBIGUOUS_KEY", "A key holds ':' or ';': the signed message would not determine the body"),
    ("AMBIGUOUS_TEXT", "Warning: text holds ';' followed by ':' text, which reads as another signed entry"),
    ("INVALID_JSON", "Body text is not valid JSON (unreadable body)"),
    ("BODY_NOT_OBJECT", "Body is JSON but not an object (unreadable body)"),
    ("BODY_TOO_LARGE", "Body is over the size limit (unreadable body)"),
    ("BODY_TOO_DEEP", "Body nests too deeply (unreadable body)"),
    ("DUPLICATE_KEY", "An object repeats a key (unreadable body)"),
    ("INVALID_NUMBER", "A number has no exact canonical form (an integer over 4300 digits, a float beyond the double range): signing refuses the body"),
    ("INVALID_BODY", "A JS value JSON cannot carry: undefined, a function, NaN, a cycle… (unreadable body)"),
];

/// Validates a request body for the operation at `operation_path`, e.g.
/// `Operation::P2pPayinCreate.path()`. Every issue is reported, not just the first.
pub fn validate_request(operation_path: &str, body: &Json) -> ValidationReport {
    validate_request_with(operation_path, body, ValidateOptions::default())
}

/// [`validate_request`] under `options`.
pub fn validate_request_with(operation_path: &str, body: &Json, options: ValidateOptions) -> ValidationReport {
    let mut findings = Findings { options, ..Findings::default() };
    match Operation::from_path(operation_path) {
        Some(operation) => {
            driver::check(operation, body, &mut findings);
            findings.after_all();
            // One walk finds both.
            let (places, numbers) = crate::canonical::ambiguity::find_noting_numbers(body, usize::MAX);
            if numbers {
                check_numbers(body, &mut String::new(), &mut findings);
            }
            report_ambiguities(places, &mut findings);
        }
        None => {
            let shown: String = operation_path.chars().take(100).collect();
            findings
                .error("", "UNKNOWN_OPERATION", format!("'{shown}' is not an operation path of the spec"))
                .with_actual(IssueValue::text(shown));
        }
    }
    findings.into_report()
}

/// Reports every number that has no exact canonical form under the spec's
/// reading (an integer of more than 4300 digits, a float beyond the `f64`
/// range): `signRequest` refuses the body with `INVALID_NUMBER`, so a report
/// that passed it would be wrong. `path` is the entries' own (segments joined
/// with `:`), extended in place, and the error is the one signing raises there.
fn check_numbers(value: &Json, path: &mut String, findings: &mut Findings) {
    let mut descend = |path: &mut String, segment: Segment<'_>, child: &Json| {
        let restore = path.len();
        if restore > 0 {
            path.push(':');
        }
        match segment {
            Segment::Key(key) => path.push_str(key),
            Segment::Index(index) => push_index(path, index),
        }
        check_numbers(child, path, findings);
        path.truncate(restore);
    };
    match value {
        Json::Number(text) if python_number_text(text).is_none() => {
            let error = invalid_number(path, Leaf::Number(text));
            let message = error.to_string();
            if let Error::InvalidNumber { path, text } = error {
                findings.error(&path, "INVALID_NUMBER", message).with_actual(IssueValue::text(text));
            }
        }
        Json::Object(members) => members.iter().for_each(|(key, child)| descend(path, Segment::Key(key), child)),
        Json::Array(items) => {
            items.iter().enumerate().for_each(|(index, child)| descend(path, Segment::Index(index), child))
        }
        _ => {}
    }
}

/// Reports every place where the request's signed message would not determine
/// it: a key with `:` or `;` is an error (the merchant chose it); `;` + `:` text
/// a warning, since the merchant may not control the text (a customer's user agent).
fn report_ambiguities(places: Vec<crate::canonical::ambiguity::Ambiguity>, findings: &mut Findings) {
    for found in places {
        if found.rule == crate::canonical::ambiguity::KEY_SEPARATOR {
            findings.error(&found.path, "AMBIGUOUS_KEY", format!("Key at '{}' holds ':' or ';'", found.path));
        } else {
            findings.warning(
                &found.path,
                "AMBIGUOUS_TEXT",
                format!(
                    "Text at '{}' holds ';' followed by ':' text: the signature would also cover a rewritten body",
                    found.path
                ),
            );
        }
    }
}

/// Like [`validate_request`], from body text. Text that cannot be read as a
/// JSON object (default [`Limits`]) is an error in the report, not an exception.
pub fn validate_request_text(operation_path: &str, text: &str) -> ValidationReport {
    validate_request_text_with(operation_path, text, ValidateOptions::default())
}

/// [`validate_request_text`] under `options`.
pub fn validate_request_text_with(operation_path: &str, text: &str, options: ValidateOptions) -> ValidationReport {
    let Some(operation) = Operation::from_path(operation_path) else {
        return validate_request_with(operation_path, &Json::Null, options);
    };
    // Plain JSON text of an object, checked as it is read, without a tree.
    let mut findings = Findings { options, ..Findings::default() };
    if walk::check_text(operation, text, &mut findings).is_some() {
        return findings.into_report();
    }
    // Anything else as a tree: the full reading words an error, and ambiguities
    // and numbers without canonical text are located in the tree.
    match crate::json::read_body(text, &Limits::default()) {
        Ok(body) => validate_request_with(operation_path, &body, options),
        Err(error) => ValidationReport::from_error(&error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text read with the ambiguity check in the same pass reports what the tree's check does.
    #[test]
    fn text_and_tree_give_the_same_report() {
        let path = Operation::P2pPayinCreate.path();
        for text in [
            r#"{"general":{"project_id":"p","payment_id":"x"}}"#,
            r#"{"general":{"project_id":"p;a:b","payment_id":"x"},"a:b":1,"c":["d;e:f"]}"#,
            r#"{"general":{"project_id":"p"},"general":{}}"#,
            r#"{"k;":{"x":"\u003b:"}}"#,
            r#"{"general":{"project_id":"p\u0000","payment_id":"\u0000x"},"customer":{"id":"\u0000"}}"#,
            r#"{"general":{"project_id":"p"},"zzz":1e400,"a":[1,{"b":-1e999}]}"#,
            "",
            "[]",
        ] {
            let from_text = validate_request_text(path, text);
            let from_tree = match crate::json::parse_body(text, &Limits::default()) {
                Ok(body) => validate_request(path, &body),
                Err(error) => ValidationReport::from_error(&error),
            };
            assert_eq!(
                serde_json::to_string(&from_text).unwrap(),
                serde_json::to_string(&from_tree).unwrap(),
                "{text}"
            );
        }
    }

    /// A number signing cannot write is an error where it stands, named as signing names it.
    #[test]
    fn numbers_without_a_canonical_form_are_errors() {
        let text = r#"{"zzz":1e400,"a":[1,{"b":-1e999}],"c":12345678901234567890,"d":1.5e308,"e":{"f:g":1e500}}"#;
        let report = validate_request_text(Operation::P2pPayinCreate.path(), text);
        let found: Vec<(&str, &str)> = report
            .errors
            .iter()
            .filter(|issue| issue.code == "INVALID_NUMBER")
            .map(|issue| (issue.path.as_str(), issue.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("zzz", "Number at 'zzz' has no exact canonical form: 1e+400"),
                ("a.1.b", "Number at 'a.1.b' has no exact canonical form: -1e+999"),
                ("e.f.g", "Number at 'e.f.g' has no exact canonical form: 1e+500"),
            ]
        );
        // Each is the error signing raises for a body holding only it.
        for (body, issue) in [r#"{"a":[1,{"b":-1e999}]}"#, r#"{"e":{"f:g":1e500}}"#].iter().zip(&found[1..]) {
            let signing = crate::canonical::canonical_message(
                &crate::json::parse_body(body, &Limits::default()).unwrap(),
                "1700000000",
                &crate::canonical::CanonicalOptions::DEFAULT,
            );
            assert_eq!(signing.unwrap_err().to_string(), issue.1, "{body}");
        }
        assert!(!report.valid);
        let signing = crate::canonical::canonical_message(
            &crate::json::parse_body(text, &Limits::default()).unwrap(),
            "1700000000",
            &crate::canonical::CanonicalOptions::DEFAULT,
        );
        assert_eq!(signing.unwrap_err().to_string(), found[0].1, "the error signing raises");
    }

    #[test]
    fn codes_are_unique() {
        let mut codes: Vec<&str> = ISSUE_CODES.iter().map(|(code, _)| *code).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ISSUE_CODES.len());
    }

    /// The string literals of Rust source, escapes kept as written.
    fn string_literals(source: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut rest = source;
        while let Some(start) = rest.find('"') {
            let body = &rest[start + 1..];
            let mut escaped = false;
            let end = body.char_indices().find(|&(_, c)| {
                let closes = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                closes
            });
            let Some((end, _)) = end else { break };
            out.push(&body[..end]);
            rest = &body[end + 1..];
        }
        out
    }

    /// [`ISSUE_CODES`] is exactly what the checks can report: every code the
    /// code of `validate/` and the builders write (tests and the table left out),
    /// and the codes of the errors that leave a body unreadable, which are
    /// [`crate::ErrorCode`]s. Each is listed once.
    #[test]
    fn issue_codes_are_exactly_what_the_checks_report() {
        let table_start = include_str!("mod.rs").find("pub const ISSUE_CODES").unwrap();
        let table_end = table_start + include_str!("mod.rs")[table_start..].find("];").unwrap();
        let sources = [
            &include_str!("mod.rs")[..table_start],
            &include_str!("mod.rs")[table_end..],
            include_str!("rules.rs"),
            include_str!("addresses.rs"),
            include_str!("cross_field.rs"),
            include_str!("operations.rs"),
            include_str!("fields.rs"),
            include_str!("driver.rs"),
            include_str!("limits.rs"),
            // The builders report their input's own mistakes in the same report.
            include_str!("../request/builders.rs"),
        ];
        let code_shaped = |text: &&str| text.len() > 3 && text.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
        let mut reported = std::collections::BTreeSet::new();
        for source in sources {
            // Up to the file's test module (a `#[cfg(test)]` item before it is code too).
            let code = source.split("\n#[cfg(test)]\nmod tests").next().unwrap_or(source);
            reported.extend(string_literals(code).into_iter().filter(code_shaped));
        }
        let unreadable: Vec<&str> =
            ISSUE_CODES.iter().filter(|(_, doc)| doc.ends_with("(unreadable body)")).map(|(code, _)| *code).collect();
        for code in &unreadable {
            assert!(crate::ErrorCode::from_text(code).is_some(), "{code} is not an error code");
            assert!(!reported.contains(code), "{code} is both reported by a check and an unreadable body's");
        }
        let mut listed: Vec<&str> = ISSUE_CODES.iter().map(|(code, _)| *code).collect();
        let mut expected: Vec<&str> = reported.into_iter().chain(unreadable).collect();
        listed.sort_unstable();
        expected.sort_unstable();
        assert_eq!(listed, expected);
    }

    #[test]
    fn parse_errors_become_report_errors() {
        let report = validate_request_text(Operation::BalanceInfo.path(), "{\"general\":");
        assert!(!report.valid);
        assert_eq!(report.error_codes(), ["INVALID_JSON"]);
        let report = validate_request_text(Operation::BalanceInfo.path(), "[1]");
        assert_eq!(report.error_codes(), ["BODY_NOT_OBJECT"]);
        let report =
            validate_request_text(Operation::BalanceInfo.path(), r#"{"general":{"project_id":"p","project_id":"q"}}"#);
        assert_eq!(report.error_codes(), ["DUPLICATE_KEY"]);
        for (code, _) in ISSUE_CODES.iter().filter(|(_, doc)| doc.ends_with("(unreadable body)")) {
            assert!(crate::error::Error::ALL_CODES.contains(code), "{code}");
        }
    }

    #[test]
    fn unknown_operation_is_reported_once_even_with_bad_text() {
        let slashed = format!("{}/", Operation::P2pPayinCreate.path());
        let report = validate_request_text(&slashed, "not json");
        assert_eq!(report.error_codes(), ["UNKNOWN_OPERATION"]);
        assert_eq!(report.errors[0].actual, Some(IssueValue::text(&slashed)));
    }

    #[test]
    fn ambiguous_keys_are_errors_and_ambiguous_text_a_warning() {
        let body = r#"{"general":{"project_id":"p","a:b":"c"},"customer":{"user_agent":"X (a; rv:1.0)"}}"#;
        let report = validate_request_text(Operation::BalanceInfo.path(), body);
        assert!(report.has_error("general.a:b", "AMBIGUOUS_KEY"), "{report:?}");
        assert!(report.has_warning("customer.user_agent", "AMBIGUOUS_TEXT"), "{report:?}");
        let plain = validate_request_text(Operation::BalanceInfo.path(), r#"{"general":{"project_id":"p;q"}}"#);
        assert!(!plain.errors.iter().chain(&plain.warnings).any(|i| i.code.starts_with("AMBIGUOUS")));
    }

    #[test]
    fn loopback_http_is_a_warning_only_with_the_option() {
        let body = |url: &str| {
            format!(r#"{{"general":{{"project_id":"p","payment_id":"o","merchant_callback_url":"{url}"}}}}"#)
        };
        let path = "general.merchant_callback_url";
        let sandbox = ValidateOptions { allow_loopback_http: true };
        for url in ["http://127.0.0.1:3000/cb", "http://127.8.9.10/cb", "http://[::1]:8080/cb", "HTTP://LocalHost/cb"] {
            let strict = validate_request_text(Operation::P2pPayoutCreate.path(), &body(url));
            assert!(strict.has_error(path, "NOT_HTTPS"), "{url}: {strict:?}");
            let report = validate_request_text_with(Operation::P2pPayoutCreate.path(), &body(url), sandbox);
            assert!(report.valid && report.has_warning(path, "LOOPBACK_HTTP"), "{url}: {report:?}");
        }
        for url in [
            "http://10.0.0.1/cb",
            "http://localhost.example/cb",
            "http://128.0.0.1/cb",
            "http://[::2]/cb",
            "ftp://127.0.0.1/cb",
        ] {
            let report = validate_request_text_with(Operation::P2pPayoutCreate.path(), &body(url), sandbox);
            assert!(report.has_error(path, "NOT_HTTPS"), "{url}: {report:?}");
        }
        let broken =
            validate_request_text_with(Operation::P2pPayoutCreate.path(), &body("http://127.0.0.1:99999/cb"), sandbox);
        assert!(broken.has_error(path, "INVALID_URL"), "{broken:?}");
    }

    #[test]
    fn issue_values_stay_exact_in_js() {
        assert_eq!(IssueValue::int(10_000_000_000_000), IssueValue::Int(10_000_000_000_000));
        let max = i128::from(MAX_SAFE_INTEGER);
        assert_eq!(IssueValue::int(max + 1), IssueValue::text("9007199254740992"));
        assert_eq!(IssueValue::int(-max - 1), IssueValue::text("-9007199254740992"));
    }

    #[test]
    fn report_serializes_in_camel_case_without_nones() {
        let mut findings = Findings::default();
        findings.error("payment.amount", "OUT_OF_RANGE", "m".into()).with_limit(IssueValue::int(1));
        findings.warning("x", "UNKNOWN_FIELD", "w".into());
        let text = serde_json::to_string(&findings.into_report()).unwrap();
        assert_eq!(
            text,
            r#"{"valid":false,"errors":[{"path":"payment.amount","code":"OUT_OF_RANGE","message":"m","limit":1}],"warnings":[{"path":"x","code":"UNKNOWN_FIELD","message":"w"}]}"#
        );
    }
}
