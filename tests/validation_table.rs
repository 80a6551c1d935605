//! Request validation, table by table from the spec (`shared/spec/interface.md`):
//! every limit just inside and just outside, every pattern, every cross-field
//! rule, and every row of the availability table. The tables below are copied
//! from the spec's text, not from the crate, so the two can disagree.

use payment_intake::{parse_body, validate_request, validate_request_text, Json, Limits, ValidationReport};

const P2P_PAYIN: &str = "/api/v1/payment/p2p/payin";
const WIDGET_PAYIN: &str = "/api/v1/widget/payin";

fn parse(text: &str) -> Json<'static> {
    parse_body(text, &Limits::default()).unwrap()
}

/// A P2P payin the spec accepts: RU, RUB, card-p2p.
fn p2p_body() -> Json<'static> {
    parse(
        r#"{"general":{"project_id":"prj_8f2c","payment_id":"order-10045"},
            "payment":{"method":"card-p2p","amount":150000,"currency":"RUB","lifetime":600},
            "customer":{"id":"user-1","ip_address":"203.0.113.7","country":"RU"}}"#,
    )
}

/// A widget payin the spec accepts for `country` in `currency` with `method`.
fn widget_body(country: &str, currency: &str, method: &str) -> Json<'static> {
    parse(&format!(
        r#"{{"general":{{"project_id":"prj_8f2c","payment_id":"order-10046"}},
            "payment":{{"amount":150000,"currency":"{currency}","widget_method":"{method}"}},
            "customer":{{"id":"user-1","ip_address":"2001:db8::1","country":"{country}","email":"user@example.com"}}}}"#
    ))
}

/// Sets (or with `None` removes) the member at a dotted path, creating objects on the way.
fn set(body: &mut Json<'static>, path: &str, value: Option<Json<'static>>) {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let Json::Object(members) = body else { panic!("not an object at {path}") };
    let index = members.iter().position(|(key, _)| key == head);
    match (rest, index, value) {
        (None, Some(i), None) => {
            members.remove(i);
        }
        (None, Some(i), Some(value)) => members[i].1 = value,
        (None, None, Some(value)) => members.push((head.to_owned().into(), value)),
        (None, None, None) => {}
        (Some(rest), Some(i), value) => set(&mut members[i].1, rest, value),
        (Some(rest), None, value) => {
            members.push((head.to_owned().into(), Json::Object(vec![])));
            let last = members.len() - 1;
            set(&mut members[last].1, rest, value);
        }
    }
}

fn with(mut body: Json<'static>, path: &str, value: Json<'static>) -> Json<'static> {
    set(&mut body, path, Some(value));
    body
}

fn without(mut body: Json<'static>, path: &str) -> Json<'static> {
    set(&mut body, path, None);
    body
}

fn text(value: &str) -> Json<'static> {
    Json::String(value.to_owned().into())
}

fn number(value: &str) -> Json<'static> {
    Json::Number(value.to_owned().into())
}

fn assert_valid(report: &ValidationReport, what: &str) {
    assert!(report.valid && report.errors.is_empty(), "{what}: {:#?}", report.errors);
}

fn assert_error(report: &ValidationReport, path: &str, code: &str, what: &str) {
    assert!(!report.valid, "{what}: expected invalid");
    assert!(report.has_error(path, code), "{what}: expected {code} at {path}, got {:#?}", report.errors);
}

/// A valid value of exactly `len` characters for a field of this kind.
fn value_of_len(kind: &str, len: usize) -> String {
    match kind {
        "url" => format!("https://example.com/{}", "a".repeat(len - "https://example.com/".len())),
        "email" => {
            // local (64) @ labels of up to 63, joined by dots, ending in ".com".
            let mut domain = String::from("com");
            let mut remaining = len - 65 - domain.len();
            while remaining > 0 {
                let label = remaining.saturating_sub(1).clamp(1, 63);
                domain = format!("{}.{domain}", "d".repeat(label));
                remaining = remaining.saturating_sub(label + 1);
            }
            format!("{}@{domain}", "l".repeat(64))
        }
        // Cyrillic: two bytes a letter, so a byte count would be wrong.
        "cyrillic" => "Ж".repeat(len),
        _ => "x".repeat(len),
    }
}

/// The spec's string limits ("Limits" and the request tables): operation, path, kind, max.
const STRING_LIMITS: &[(&str, &str, &str, usize)] = &[
    (P2P_PAYIN, "general.project_id", "plain", 32),
    (P2P_PAYIN, "general.payment_id", "cyrillic", 255),
    (P2P_PAYIN, "general.merchant_callback_url", "url", 2048),
    (P2P_PAYIN, "general.merchant_success_callback_url", "url", 2048),
    (P2P_PAYIN, "general.merchant_decline_callback_url", "url", 2048),
    (P2P_PAYIN, "general.redirect_url", "url", 2048),
    (P2P_PAYIN, "payment.bank_symbol", "plain", 32),
    (P2P_PAYIN, "payment.description", "cyrillic", 255),
    (P2P_PAYIN, "payment.extra_param", "plain", 16),
    (P2P_PAYIN, "sender.pan", "plain", 32),
    (P2P_PAYIN, "sender.bank_symbol", "plain", 32),
    (P2P_PAYIN, "sender.card_holder", "cyrillic", 255),
    (P2P_PAYIN, "customer.id", "cyrillic", 255),
    (P2P_PAYIN, "customer.first_name", "cyrillic", 255),
    (P2P_PAYIN, "customer.last_name", "cyrillic", 255),
    (P2P_PAYIN, "customer.email", "email", 255),
    (P2P_PAYIN, "customer.browser", "plain", 512),
    (P2P_PAYIN, "customer.device_type", "plain", 512),
    (P2P_PAYIN, "customer.user_agent", "plain", 1024),
    (WIDGET_PAYIN, "general.project_id", "plain", 32),
    (WIDGET_PAYIN, "general.payment_id", "cyrillic", 255),
    (WIDGET_PAYIN, "general.merchant_callback_url", "url", 2048),
    (WIDGET_PAYIN, "general.redirect_url", "url", 2048),
    (WIDGET_PAYIN, "payment.description", "cyrillic", 255),
    (WIDGET_PAYIN, "payment.extra_param", "plain", 16),
    (WIDGET_PAYIN, "sender.bank_symbol", "plain", 32),
    (WIDGET_PAYIN, "customer.id", "cyrillic", 255),
    (WIDGET_PAYIN, "customer.email", "email", 255),
    ("/api/v1/payment/p2p/payin/info", "general.project_id", "plain", 32),
    ("/api/v1/payment/p2p/payin/confirm", "general.payment_id", "cyrillic", 255),
    ("/api/v1/payment/p2p/payin/cancel", "general.payment_id", "cyrillic", 255),
    ("/api/v1/widget/payin/info", "general.project_id", "plain", 32),
    ("/api/v1/payment/p2p/payout", "general.project_id", "plain", 32),
    ("/api/v1/payment/p2p/payout", "general.payment_id", "cyrillic", 255),
    ("/api/v1/payment/p2p/payout", "general.merchant_decline_callback_url", "url", 2048),
    ("/api/v1/balance/info", "general.project_id", "plain", 32),
    ("/api/v1/bank/all", "general.project_id", "plain", 32),
];

fn base_body(operation: &str) -> Json<'static> {
    match operation {
        P2P_PAYIN => p2p_body(),
        WIDGET_PAYIN => widget_body("RU", "RUB", "payin-p2p-card"),
        "/api/v1/balance/info" | "/api/v1/bank/all" => parse(r#"{"general":{"project_id":"prj_8f2c"}}"#),
        _ => parse(r#"{"general":{"project_id":"prj_8f2c","payment_id":"order-10045"}}"#),
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_string_limit_just_inside_and_just_outside() {
    for &(operation, path, kind, max) in STRING_LIMITS {
        assert_valid(&validate_request(operation, &base_body(operation)), operation);
        let inside = value_of_len(kind, max);
        assert_eq!(inside.chars().count(), max, "{path}");
        let report = validate_request(operation, &with(base_body(operation), path, text(&inside)));
        assert_valid(&report, &format!("{operation} {path} at {max}"));
        let outside = value_of_len(kind, max + 1);
        let report = validate_request(operation, &with(base_body(operation), path, text(&outside)));
        assert_error(&report, path, "TOO_LONG", &format!("{operation} {path} at {}", max + 1));
        let issue = report.errors.iter().find(|i| i.path == path && i.code == "TOO_LONG").unwrap();
        assert_eq!(issue.limit, Some(payment_intake::IssueValue::Int(max as i64)));
        assert_eq!(issue.actual, Some(payment_intake::IssueValue::Int(max as i64 + 1)));
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn limits_whose_format_bounds_the_inside() {
    // method and widget_method <= 32, ip_address <= 255, phone <= 24: no valid value is that long.
    let cases = [
        (P2P_PAYIN, "payment.method", 33, "TOO_LONG"),
        (WIDGET_PAYIN, "payment.widget_method", 33, "TOO_LONG"),
        (P2P_PAYIN, "customer.ip_address", 256, "TOO_LONG"),
        (WIDGET_PAYIN, "customer.ip_address", 256, "TOO_LONG"),
        (P2P_PAYIN, "sender.phone", 25, "TOO_LONG"),
    ];
    for (operation, path, len, code) in cases {
        let report = validate_request(operation, &with(base_body(operation), path, text(&"1".repeat(len))));
        assert_error(&report, path, code, path);
    }
    // Minimums: extra_param 1..16 and card_holder 1..255.
    for path in ["payment.extra_param", "sender.card_holder"] {
        assert_error(&validate_request(P2P_PAYIN, &with(p2p_body(), path, text(""))), path, "TOO_SHORT", path);
        assert_valid(&validate_request(P2P_PAYIN, &with(p2p_body(), path, text("A"))), path);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn cyrillic_text_counts_characters_through_the_text_entry_point() {
    let description = "Ж".repeat(255);
    let body = with(p2p_body(), "payment.description", text(&description)).to_json_text();
    assert_valid(&validate_request_text(P2P_PAYIN, &body), "255 Cyrillic letters");
    let body = with(p2p_body(), "payment.description", text(&format!("{description}Ж"))).to_json_text();
    assert_error(&validate_request_text(P2P_PAYIN, &body), "payment.description", "TOO_LONG", "256 letters");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn amounts_are_integers_in_1_to_10_trillion() {
    for operation in [P2P_PAYIN, WIDGET_PAYIN] {
        for inside in ["1", "10000000000000", "150000"] {
            let report = validate_request(operation, &with(base_body(operation), "payment.amount", number(inside)));
            assert_valid(&report, inside);
        }
        for outside in ["0", "10000000000001", "-1", "99999999999999999999999999999999999999999"] {
            let report = validate_request(operation, &with(base_body(operation), "payment.amount", number(outside)));
            assert_error(&report, "payment.amount", "OUT_OF_RANGE", outside);
        }
        for wrong in [text("150000"), number("15.5"), number("1.0"), number("1e3"), Json::Bool(true)] {
            let report = validate_request(operation, &with(base_body(operation), "payment.amount", wrong.clone()));
            assert_error(&report, "payment.amount", "WRONG_TYPE", &format!("{wrong:?}"));
        }
        let report = validate_request(operation, &without(base_body(operation), "payment.amount"));
        assert_error(&report, "payment.amount", "REQUIRED", operation);
    }
}

/// The spec's lifetime table: integration, country, currency, method, upper bound (lower is 300).
const LIFETIMES: &[(&str, &str, &str, &str, i64)] = &[
    (P2P_PAYIN, "RU", "RUB", "card-p2p", 600),
    (P2P_PAYIN, "KZ", "KZT", "international-card-p2p", 900),
    (WIDGET_PAYIN, "RU", "RUB", "payin-p2p-card", 600),
    (WIDGET_PAYIN, "KZ", "KZT", "payin-p2p-card-international", 900),
    (WIDGET_PAYIN, "KE", "KES", "payin-mobile-money", 600),
    (WIDGET_PAYIN, "NG", "NGN", "payin-ussd", 600),
    (WIDGET_PAYIN, "ZA", "ZAR", "payin-eft-link", 600),
];

fn payin(operation: &str, country: &str, currency: &str, method: &str) -> Json<'static> {
    if operation == P2P_PAYIN {
        let body = with(p2p_body(), "customer.country", text(country));
        with(with(body, "payment.currency", text(currency)), "payment.method", text(method))
    } else {
        widget_body(country, currency, method)
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn lifetime_bounds_per_integration_and_country() {
    for &(operation, country, currency, method, upper) in LIFETIMES {
        let body = payin(operation, country, currency, method);
        for inside in [300, upper] {
            let report =
                validate_request(operation, &with(body.clone(), "payment.lifetime", number(&inside.to_string())));
            assert_valid(&report, &format!("{operation} {country} {inside}"));
        }
        for outside in [299, upper + 1] {
            let report =
                validate_request(operation, &with(body.clone(), "payment.lifetime", number(&outside.to_string())));
            assert_error(&report, "payment.lifetime", "LIFETIME_OUT_OF_RANGE", &format!("{country} {outside}"));
        }
        assert_valid(&validate_request(operation, &without(body.clone(), "payment.lifetime")), "omitted lifetime");
        let report = validate_request(operation, &with(body, "payment.lifetime", number("600.0")));
        assert_error(&report, "payment.lifetime", "WRONG_TYPE", "600.0");
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_pattern() {
    // (path, accepted values, refused values, code) for the P2P payin.
    let cases: &[(&str, &[&str], &[&str], &str)] = &[
        ("payment.currency", &["RUB"], &["rub", "RU", "RUBL", "R1B", ""], "PATTERN"),
        ("customer.country", &["RU"], &["ru", "RUS", "R", "R1"], "PATTERN"),
        ("customer.language", &["ru", "en", "es", "kk", "uz"], &["RU", "rus", "r", "r1"], "PATTERN"),
        (
            "sender.phone",
            &["+79001234567"],
            &["79001234567", "+7900123456", "+790012345678", "+19001234567", "+7900123456x"],
            "PATTERN",
        ),
        ("payment.extra_param", &["route_A-1", "a", "ABCDEFGHIJ012345"], &["route A", "route.1", "маршрут"], "PATTERN"),
        ("customer.customer_type", &["ftd", "trust"], &["FTD", "new", "ftdtrust", ""], "PATTERN"),
        (
            "sender.card_holder",
            // "Cyrillic (incl. Ukrainian letters)": the Cyrillic script, Kazakh, Belarusian and
            // Serbian letters included, precomposed or decomposed (Й as И + U+0306).
            &[
                "IVAN IVANOV",
                "Иван Иванов",
                "Ґанна Їжак-Євенко",
                "D'Artagnan Jr.",
                "Anna\tMaria 2",
                "Әлия Қасымқызы",
                "Ўладзімір",
                "Ђорђе Јовановић",
                "Андри\u{0306}",
            ],
            &["Ivan_Ivanov", "Ivan@Ivanov", "Jörg", "王", "Αλέξανδρος", "\u{0306}Иван", "Иван 😀"],
            "PATTERN",
        ),
        (
            "general.merchant_callback_url",
            &["https://shop.example.com/cb?x=1", "https://[2001:db8::1]:8443/"],
            &["http://shop.example.com/cb"],
            "NOT_HTTPS",
        ),
        (
            "general.redirect_url",
            &["HTTPS://Shop.Example.com"],
            &["https://", "https://shop example.com", "shop.example.com", "https://shop.example.com:99999"],
            "INVALID_URL",
        ),
        (
            "customer.ip_address",
            &["203.0.113.7", "::1", "2001:db8::8a2e:370:7334"],
            &["203.0.113.256", "203.0.113", "localhost", "2001:db8:::1"],
            "INVALID_IP",
        ),
        (
            "customer.email",
            &["user@example.com", "first.last+tag@mail.example.co"],
            &["user", "user@", "@example.com", "user@example", "us er@example.com"],
            "INVALID_EMAIL",
        ),
        ("payment.method", &["card-p2p"], &["card", "CARD-P2P", "payin-p2p-card"], "UNKNOWN_METHOD"),
    ];
    for (path, accepted, refused, code) in cases {
        for value in *accepted {
            assert_valid(
                &validate_request(P2P_PAYIN, &with(p2p_body(), path, text(value))),
                &format!("{path}={value}"),
            );
        }
        for value in *refused {
            let report = validate_request(P2P_PAYIN, &with(p2p_body(), path, text(value)));
            let code = if value.is_empty() && *path == "payment.currency" { "TOO_SHORT" } else { code };
            assert_error(&report, path, code, &format!("{path}={value}"));
        }
    }
    let report =
        validate_request(WIDGET_PAYIN, &with(base_body(WIDGET_PAYIN), "payment.widget_method", text("card-p2p")));
    assert_error(&report, "payment.widget_method", "UNKNOWN_METHOD", "H2H code as widget method");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn required_fields_and_types() {
    let required = [
        "general",
        "general.project_id",
        "general.payment_id",
        "payment",
        "payment.method",
        "payment.currency",
        "customer",
        "customer.id",
        "customer.ip_address",
        "customer.country",
    ];
    for path in required {
        assert_error(&validate_request(P2P_PAYIN, &without(p2p_body(), path)), path, "REQUIRED", path);
        assert_error(&validate_request(P2P_PAYIN, &with(p2p_body(), path, Json::Null)), path, "REQUIRED", path);
    }
    assert_error(
        &validate_request(P2P_PAYIN, &with(p2p_body(), "general.project_id", text(""))),
        "general.project_id",
        "TOO_SHORT",
        "empty id",
    );
    assert_error(
        &validate_request(P2P_PAYIN, &with(p2p_body(), "customer.id", number("42"))),
        "customer.id",
        "WRONG_TYPE",
        "numeric id",
    );
    assert_error(
        &validate_request(P2P_PAYIN, &with(p2p_body(), "payment", text("x"))),
        "payment",
        "WRONG_TYPE",
        "payment as text",
    );
    let null_optional = validate_request(P2P_PAYIN, &with(p2p_body(), "payment.description", Json::Null));
    assert!(null_optional.valid && null_optional.has_warning("payment.description", "NULL_FIELD"));
    let report = validate_request(P2P_PAYIN, &Json::Array(vec![]));
    assert_eq!(report.error_codes(), ["WRONG_TYPE"]);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_availability_row_accepts_its_methods_and_refuses_a_mismatch() {
    // The spec's "Availability by country" table: (integration, country, currency, payin methods).
    let rows: &[(&str, &str, &str, &[&str])] = &[
        (
            P2P_PAYIN,
            "RU",
            "RUB",
            &[
                "card-p2p",
                "sbp-p2p",
                "international-p2p",
                "sbp-qr",
                "mobile-p2p",
                "international-card-p2p",
                "qr-link-p2p",
                "account-number",
            ],
        ),
        (
            WIDGET_PAYIN,
            "RU",
            "RUB",
            &[
                "payin-p2p-card",
                "payin-p2p-sbp",
                "payin-1-click",
                "payin-p2p-international",
                "payin-qr-sbp",
                "payin-p2p-mobile",
                "payin-p2p-card-international",
                "payin-qr-link-p2p",
                "payin-account-number",
            ],
        ),
        (P2P_PAYIN, "KZ", "KZT", &["international-card-p2p"]),
        (WIDGET_PAYIN, "KZ", "KZT", &["payin-p2p-card-international"]),
        (WIDGET_PAYIN, "KE", "KES", &["payin-mobile-money"]),
        (WIDGET_PAYIN, "NG", "NGN", &["payin-wallet-link", "payin-account-number", "payin-ussd"]),
        (WIDGET_PAYIN, "ZA", "ZAR", &["payin-eft-link"]),
    ];
    for &(operation, country, currency, methods) in rows {
        for method in methods {
            let report = validate_request(operation, &payin(operation, country, currency, method));
            assert_valid(&report, &format!("{operation} {country} {method}"));
            assert!(report.warnings.is_empty(), "{country} {method}: {:?}", report.warnings);
        }
        let method = methods[0];
        let wrong_currency = if currency == "RUB" { "KZT" } else { "RUB" };
        let report = validate_request(operation, &payin(operation, country, wrong_currency, method));
        assert_error(&report, "payment.currency", "CURRENCY_MISMATCH", &format!("{country} in {wrong_currency}"));
        assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
        // A method of the same integration that the row does not offer.
        let (path, other) = if operation == P2P_PAYIN {
            ("payment.method", "card-ecom")
        } else {
            ("payment.widget_method", "payin-ecom-card")
        };
        let report = validate_request(operation, &payin(operation, country, currency, other));
        assert_error(&report, path, "METHOD_NOT_AVAILABLE", &format!("{country} {other}"));
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn named_availability_mismatches() {
    for (country, currency) in [("KE", "KES"), ("NG", "NGN"), ("ZA", "ZAR")] {
        let report = validate_request(P2P_PAYIN, &payin(P2P_PAYIN, country, currency, "card-p2p"));
        assert_error(&report, "customer.country", "COUNTRY_NOT_AVAILABLE", &format!("H2H payin in {country}"));
    }
    let report = validate_request(P2P_PAYIN, &payin(P2P_PAYIN, "KZ", "RUB", "international-card-p2p"));
    assert_error(&report, "payment.currency", "CURRENCY_MISMATCH", "RUB with KZ");
    let report = validate_request(P2P_PAYIN, &payin(P2P_PAYIN, "KZ", "KZT", "card-p2p"));
    assert_error(&report, "payment.method", "METHOD_NOT_AVAILABLE", "card-p2p for KZ H2H");
    let report = validate_request(P2P_PAYIN, &payin(P2P_PAYIN, "UZ", "UZS", "card-p2p"));
    assert!(report.valid && report.has_warning("customer.country", "COUNTRY_NOT_LISTED"), "{report:?}");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn widget_rules() {
    let kz = widget_body("KZ", "KZT", "payin-p2p-card-international");
    let report = validate_request(WIDGET_PAYIN, &without(kz.clone(), "payment.widget_method"));
    assert_error(&report, "payment.widget_method", "WIDGET_METHOD_REQUIRED", "KZ without widget_method");
    let report = validate_request(WIDGET_PAYIN, &with(kz.clone(), "payment.widget_method", text("payin-p2p-card")));
    assert_error(&report, "payment.widget_method", "METHOD_NOT_AVAILABLE", "KZ with payin-p2p-card");
    // RU does not need a widget method.
    let ru = without(widget_body("RU", "RUB", "payin-p2p-card"), "payment.widget_method");
    assert_valid(&validate_request(WIDGET_PAYIN, &ru), "RU without widget_method");

    for (country, currency, method) in
        [("KE", "KES", "payin-mobile-money"), ("NG", "NGN", "payin-ussd"), ("ZA", "ZAR", "payin-eft-link")]
    {
        let report = validate_request(WIDGET_PAYIN, &without(widget_body(country, currency, method), "customer.email"));
        assert_error(&report, "customer.email", "EMAIL_REQUIRED", country);
        let body = with(widget_body(country, currency, method), "sender.bank_symbol", text("sberbank"));
        assert_error(&validate_request(WIDGET_PAYIN, &body), "sender.bank_symbol", "BANK_SYMBOL_NOT_ALLOWED", country);
        let body = with(widget_body(country, currency, method), "sender.bank_symbol", text(""));
        assert_valid(&validate_request(WIDGET_PAYIN, &body), "empty bank_symbol may be left anywhere");
    }
    for body in [kz, widget_body("RU", "RUB", "payin-1-click")] {
        assert_valid(
            &validate_request(WIDGET_PAYIN, &without(body.clone(), "customer.email")),
            "email optional for RU, KZ",
        );
        assert_valid(
            &validate_request(WIDGET_PAYIN, &with(body, "sender.bank_symbol", text("t-bank"))),
            "bank pre-selection",
        );
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn all_errors_in_one_pass_and_typos_are_warnings() {
    let body = parse(
        r#"{"general":{"project_id":"","payment_id":"o","merchant_callback_url":"http://x.com"},
            "payment":{"method":"card-p2p","amount":"150000","currency":"KZT","lifetime":120,"amout":1},
            "customer":{"id":"u","ip_address":"1.2.3","country":"RU","email":"nope"}}"#,
    );
    let report = validate_request(P2P_PAYIN, &body);
    let mut found: Vec<(&str, &str)> = report.errors.iter().map(|i| (i.path.as_str(), i.code)).collect();
    found.sort_unstable();
    assert_eq!(
        found,
        [
            ("customer.email", "INVALID_EMAIL"),
            ("customer.ip_address", "INVALID_IP"),
            ("general.merchant_callback_url", "NOT_HTTPS"),
            ("general.project_id", "TOO_SHORT"),
            ("payment.amount", "WRONG_TYPE"),
            ("payment.currency", "CURRENCY_MISMATCH"),
            ("payment.lifetime", "LIFETIME_OUT_OF_RANGE"),
        ]
    );
    assert_eq!(report.warnings.len(), 1);
    assert!(report.has_warning("payment.amout", "UNKNOWN_FIELD"));
    assert!(report.warnings[0].message.contains("payment.amount"));
    // Widget create lists no first_name: a warning, not an error.
    let report = validate_request(WIDGET_PAYIN, &with(base_body(WIDGET_PAYIN), "customer.first_name", text("Ivan")));
    assert!(report.valid && report.has_warning("customer.first_name", "UNKNOWN_FIELD"));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn operations_whose_bodies_the_spec_does_not_show() {
    let not_shown = [
        "/api/v1/payment/p2p/payout/info",
        "/api/v1/payment/ecom/payin",
        "/api/v1/payment/ecom/payin/info",
        "/api/v1/payment/ecom/payin/confirm-3ds-result",
        "/api/v1/payment/ecom/payout",
        "/api/v1/payment/ecom/payout/info",
        "/api/v1/widget/payin/confirm",
        "/api/v1/widget/payin/cancel",
    ];
    for operation in not_shown {
        assert_valid(&validate_request(operation, &parse(r#"{"anything":[1,"x"]}"#)), operation);
        assert_error(&validate_request(operation, &text("x")), "", "WRONG_TYPE", operation);
        // "Limits" is global: it applies in the bodies the spec does not show too.
        let shared = |len| parse(&format!(r#"{{"general":{{"project_id":"p","payment_id":"{}"}}}}"#, "Ж".repeat(len)));
        assert_valid(&validate_request(operation, &shared(255)), operation);
        let report = validate_request(operation, &shared(256));
        assert_eq!(report.error_codes(), ["TOO_LONG"], "{operation}");
        assert_error(&report, "general.payment_id", "TOO_LONG", operation);
    }
    // P2P payout: only `general` is shown.
    let payout = parse(r#"{"general":{"project_id":"p","payment_id":"o"},"payment":{"whatever":1},"recipient":"x"}"#);
    assert_valid(&validate_request("/api/v1/payment/p2p/payout", &payout), "payout");
    let report =
        validate_request("/api/v1/payment/p2p/payout", &with(payout, "general.redirect_url", text("https://x.com")));
    assert!(report.valid && report.has_warning("general.redirect_url", "UNKNOWN_FIELD"));
    assert_error(&validate_request("/api/v1/payment/p2p/payout", &parse("{}")), "general", "REQUIRED", "payout");
    for unknown in ["/api/v1/payment/p2p/bank/all", "/api/v1/payment/p2p/payin/", "api/v1/bank/all", ""] {
        assert_eq!(validate_request(unknown, &parse("{}")).error_codes(), ["UNKNOWN_OPERATION"], "{unknown}");
    }
}
