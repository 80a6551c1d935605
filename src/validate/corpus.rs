//! Request bodies for the tests that compare validation's readings: the spec's
//! own bodies, each changed a few random ways (members removed, replaced by
//! values of other types and limits, added under known, misspelt, limited and
//! ambiguous names, reordered), written as text with some keys escaped, spaced
//! and exponents in capitals.

use crate::json::{parse_body, Json, Limits};

const BASES: &[&str] = &[
    r#"{"general":{"project_id":"prj_8f2c","payment_id":"order-10045","merchant_callback_url":"https://merchant.example/cb","merchant_success_callback_url":"https://merchant.example/ok","merchant_decline_callback_url":"https://merchant.example/fail"},"payment":{"method":"card-p2p","amount":150000,"currency":"RUB","lifetime":600,"description":"Заказ №10045"},"customer":{"id":"user-77","ip_address":"203.0.113.7","country":"RU","email":"buyer@example.com"}}"#,
    r#"{"general":{"project_id":"p","payment_id":"o","redirect_url":"https://shop.example/r"},"payment":{"amount":5000,"currency":"KZT","lifetime":900,"widget_method":"payin-p2p-card","extra_param":"a-1"},"sender":{"bank_symbol":"kaspi"},"customer":{"id":"c","ip_address":"::1","country":"KZ","language":"kk","customer_type":"ftd","email":"a@b.co"}}"#,
    r#"{"general":{"project_id":"p","payment_id":"o"},"payment":{"method":"sbp","amount":1,"currency":"RUB","bank_symbol":"sber"},"sender":{"pan":"2200700012345678","phone":"+79001234567","card_holder":"IVAN IVANOV"},"customer":{"id":"c","ip_address":"10.0.0.1","country":"KE","first_name":"A","user_agent":"X (a; rv:1.0)"}}"#,
    r#"{"general":{"project_id":"p","payment_id":"o","merchant_callback_url":"http://127.0.0.1:3000/cb"},"payment":{"amount":100,"currency":"RUB"},"recipient":{"pan":"4111111111111111","bank":{"sbp_code":"123456789012"}},"customer":{"id":"c"}}"#,
    r#"{"general":{"project_id":"p","payment_id":"o"}}"#,
    r#"{"general":{"project_id":"p"}}"#,
    "{}",
];

const KEYS: &[&str] = &[
    "general",
    "payment",
    "customer",
    "sender",
    "recipient",
    "project_id",
    "payment_id",
    "paymentid",
    "amount",
    "amout",
    "old_amount",
    "currency",
    "method",
    "widget_method",
    "lifetime",
    "country",
    "language",
    "email",
    "bank_symbol",
    "bank",
    "sbp_code",
    "pan",
    "id",
    "ip_address",
    "customerIP",
    "extra_param",
    "expiration_date",
    "card_holder",
    "phone",
    "redirect_url",
    "merchant_callback_url",
    "status",
    "a:b",
    "k;",
    "",
    "x",
];

/// A value of the replacement pool, as JSON text.
const VALUES: &[&str] = &[
    "null",
    "true",
    "0",
    "-1",
    "1.5",
    "1E2",
    "1e400",
    "-1e999",
    "12345678901234567890123",
    "10000000000000",
    "10000000000001",
    "299",
    "901",
    "4294967297",
    "\"\"",
    "\"RUB\"",
    "\"rub\"",
    "\"ru\"",
    "\"en\"",
    "\"xx\"",
    "\"KZ\"",
    "\"KE\"",
    "\"NG\"",
    "\"ZA\"",
    "\"US\"",
    "\"card-p2p\"",
    "\"sbp\"",
    "\"payin-p2p-card\"",
    "\"nope\"",
    "\"http://127.0.0.1/cb\"",
    "\"http://example.com/cb\"",
    "\"https://x.example/cb\"",
    "\"https://exa mple\"",
    "\"ftp://a\"",
    "\"a;b:c\"",
    "\"a;b\"",
    "\"user@example.com\"",
    "\"bad@\"",
    "\"1.2.3.4\"",
    "\"+79001234567\"",
    "\"ftd\"",
    "\"Jörg\"",
    "\"150000\"",
    "\"\\u0041\\n\"",
    "{}",
    "[]",
    "[1,{\"pan\":\"44444444444444444444444444444444444\"}]",
    "{\"payment_id\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}",
    "{\"sbp_code\":\"12a\",\"amount\":0,\"lifetime\":1.5}",
    "[{\"bank\":{\"id\":\"123456789012345678901234567890123\"}},[\"x\"]]",
    "{\"a:b\":1}",
];

/// A small deterministic generator (xorshift).
struct Random(u64);

impl Random {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

fn value(random: &mut Random) -> Json<'static> {
    let text = VALUES[random.below(VALUES.len())];
    match parse_body(&format!("{{\"v\":{text}}}"), &Limits::default()) {
        // Number text as written (`1E2`), not as the tree reads it.
        Ok(Json::Object(mut members)) => match members.pop() {
            Some((_, Json::Number(_))) => Json::Number(text.into()),
            Some((_, other)) => other,
            None => Json::Null,
        },
        _ => Json::Null,
    }
}

/// One random change somewhere in `at`: in it, or a few levels down.
fn mutate(at: &mut Json<'static>, random: &mut Random) {
    if random.below(2) == 0 {
        let child = match at {
            Json::Object(members) if !members.is_empty() => {
                let i = random.below(members.len());
                Some(&mut members[i].1)
            }
            Json::Array(items) if !items.is_empty() => {
                let i = random.below(items.len());
                Some(&mut items[i])
            }
            _ => None,
        };
        if let Some(child) = child.filter(|child| matches!(child, Json::Object(_) | Json::Array(_))) {
            return mutate(child, random);
        }
    }
    match at {
        Json::Object(members) => match random.below(5) {
            0 if !members.is_empty() => {
                members.remove(random.below(members.len()));
            }
            1 if !members.is_empty() => {
                let i = random.below(members.len());
                members[i].1 = value(random);
            }
            2 | 3 => {
                let key = KEYS[random.below(KEYS.len())];
                if members.iter().all(|(k, _)| k != key) {
                    let i = random.below(members.len() + 1);
                    members.insert(i, (key.into(), value(random)));
                }
            }
            _ => {
                for i in (1..members.len()).rev() {
                    members.swap(i, random.below(i + 1));
                }
            }
        },
        Json::Array(items) => items.push(value(random)),
        _ => {}
    }
}

/// `count` bodies as text (valid JSON objects, except a few the text changes break).
pub(crate) fn bodies(count: usize) -> Vec<String> {
    let mut random = Random(0x2545_F491_4F6C_DD1D);
    let mut out = Vec::with_capacity(count);
    for n in 0..count {
        let Ok(mut body) = parse_body(BASES[n % BASES.len()], &Limits::default()) else { continue };
        for _ in 0..random.below(6) {
            mutate(&mut body, &mut random);
        }
        let mut text = body.to_json_text();
        if random.below(4) == 0 {
            text = text.replace("\":", "\" : ").replace(',', ",\n ");
        }
        if random.below(6) == 0 {
            text = text.replace("\"country\"", "\"\\u0063ountry\"").replace("\"amount\"", "\"amou\\u006et\"");
        }
        if random.below(40) == 0 {
            text.push('x');
        }
        if random.below(60) == 0 {
            text = text.replacen("\"general\"", "\"general\":1,\"general\"", 1);
        }
        out.push(text);
    }
    out
}

/// Every body of [`bodies`], for every operation (and one unknown path), with and without
/// the sandbox option: the report from its text (read once, without a tree, where the
/// text allows) is the report from its tree (or, for text that is not a body, its error).
#[test]
fn text_and_tree_give_the_same_reports() {
    use crate::spec::operations::Operation;
    use crate::validate::{validate_request_text_with, validate_request_with, ValidateOptions, ValidationReport};
    let sandbox = ValidateOptions { allow_loopback_http: true };
    let mut invalid = 0;
    for text in bodies(500) {
        for operation in Operation::ALL.iter().map(|operation| operation.path()).chain(["/api/v1/nope"]) {
            for options in [ValidateOptions::default(), sandbox] {
                let from_text = validate_request_text_with(operation, &text, options);
                let from_tree = match parse_body(&text, &Limits::default()) {
                    Ok(body) => validate_request_with(operation, &body, options),
                    // An unknown operation is the one error, whatever the text.
                    Err(_) if Operation::from_path(operation).is_none() => {
                        validate_request_with(operation, &Json::Null, options)
                    }
                    Err(error) => ValidationReport::from_error(&error),
                };
                assert_eq!(from_text, from_tree, "{operation} {text}");
                invalid += usize::from(!from_text.valid);
            }
        }
    }
    // Most bodies of most operations break some rule.
    assert!(invalid > 6_000, "{invalid}");
}
