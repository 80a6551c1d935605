//! The typed callback and info response model against the shapes the spec
//! describes ("Events", "P2P payin info", "Widget payin info"): requisites
//! from either pair, display data, declines with a null or "null" method,
//! masked widget requisites, KE without requisites, and the KZ / RU variants.

use payment_intake::__private::{idempotency_key, DECLINE_OTHER};
use payment_intake::{parse_body, parse_callback, parse_info_response, Json, Limits};

fn parse(text: &str) -> Json<'static> {
    parse_body(text, &Limits::default()).unwrap()
}

/// An H2H informative callback at processing:awaiting_confirm, every display title the spec lists.
const AWAITING_CONFIRM: &str = r#"{
  "project_id": "prj_8f2c",
  "general": {"request_id": "req_01HZX", "payment_id": "order-10045"},
  "status": {"status": "processing", "sub_status": "awaiting_confirm", "status_description": null},
  "payment_info": {"amount": 150000, "old_amount": 150000, "initial_amount": 150000, "currency": "RUB",
    "lifetime": 600, "expiration_date": 1700000600, "updated_date": 1700000010, "created_date": 1700000000,
    "method": "card-p2p", "widget_method": null, "type": "payin", "payment_system": null},
  "recipient_requisites": {"pan": "2200700012345678", "card_holder": "IVAN IVANOV", "bank_name": "Bank",
    "bank_country": "RU", "currency": "RUB"},
  "integration": {"form_url": "https://pay.example/f/abc", "redirect_url": null},
  "additional_info": {"display_data": [
    {"type": "add_info", "title": "recipient_card_holder", "data": "IVAN IVANOV"},
    {"type": "add_info", "title": "recipient_pan", "data": "2200700012345678"},
    {"type": "add_info", "title": "recipient_phone", "data": "+79001234567"},
    {"type": "add_info", "title": "lifetime", "data": 600},
    {"type": "add_info", "title": "valid_until", "data": 1700000600},
    {"type": "add_info", "title": "amount", "data": "150000"},
    {"type": "add_info", "title": "currency", "data": "RUB"},
    {"type": "add_info", "title": "bank_name", "data": "Bank"},
    {"type": "add_info", "title": "bank_country", "data": "RU"},
    {"type": "add_info", "title": "confirm_url", "data": "https://api.example/api/v1/payment/p2p/payin/confirm"},
    {"type": "add_info", "title": "reject_url", "data": "https://api.example/api/v1/payment/p2p/payin/cancel"},
    {"type": "add_info", "title": "qr_image", "data": "https://img.example/qr.png"}
  ]}
}"#;

/// A decline callback; `METHOD` is replaced by the method value under test.
const DECLINE: &str = r#"{
  "project_id": "prj_8f2c",
  "general": {"request_id": "req_01HZY", "payment_id": "order-10046"},
  "status": {"status": "decline", "sub_status": null, "status_description": "Order cancelled by timeout"},
  "payment_info": {"amount": 150000, "old_amount": 150000, "initial_amount": 150000, "currency": "RUB",
    "lifetime": 600, "expiration_date": 1700000600, "method": METHOD, "widget_method": METHOD,
    "type": "payin", "payment_system": null},
  "recipient_requisites": null,
  "integration": {"form_url": "https://pay.example/f/abd", "redirect_url": null},
  "additional_info": null
}"#;

/// A widget (H2C) callback; `REQUISITES` is replaced per case.
const WIDGET: &str = r#"{
  "project_id": "prj_8f2c",
  "general": {"request_id": "req_01HZZ", "payment_id": "order-10047"},
  "status": {"status": "processing", "sub_status": "SUB", "status_description": null},
  "payment_info": {"amount": 500000, "old_amount": 500000, "initial_amount": 500000, "currency": "CUR",
    "lifetime": 600, "expiration_date": 1700000600, "method": null, "widget_method": "WM", "type": "payin",
    "payment_system": null},
  "recipient_requisites": REQUISITES,
  "integration": {"form_url": "https://pay.example/f/abe", "redirect_url": "https://shop.example/done"}
}"#;

fn widget(sub_status: &str, currency: &str, widget_method: &str, requisites: &str) -> Json<'static> {
    parse(
        &WIDGET
            .replace("SUB", sub_status)
            .replace("CUR", currency)
            .replace("WM", widget_method)
            .replace("REQUISITES", requisites),
    )
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn awaiting_confirm_with_requisites_and_display_data() {
    let callback = parse_callback(&parse(AWAITING_CONFIRM)).unwrap();
    assert_eq!((callback.project_id.as_str(), callback.payment_id.as_str()), ("prj_8f2c", "order-10045"));
    assert_eq!(callback.request_id.as_deref(), Some("req_01HZX"));
    assert_eq!((callback.status.as_str(), callback.sub_status.as_deref()), ("processing", Some("awaiting_confirm")));
    assert!(!callback.is_final && callback.is_known_state);
    assert_eq!(callback.idempotency_key, "prj_8f2c:order-10045:processing:awaiting_confirm");
    assert_eq!(callback.decline_reason, None);
    let info = callback.payment_info.as_ref().unwrap();
    assert_eq!((info.amount, info.old_amount, info.initial_amount), (Some(150000), Some(150000), Some(150000)));
    assert_eq!((info.method.as_deref(), info.widget_method.as_deref()), (Some("card-p2p"), None));
    assert_eq!((info.expiration_date, info.payment_type.as_deref()), (Some(1700000600), Some("payin")));
    let requisites = callback.requisites.as_ref().unwrap();
    assert!(!requisites.masked);
    assert_eq!(requisites.pan.as_deref(), Some("2200700012345678"));
    assert_eq!(requisites.card_holder.as_deref(), Some("IVAN IVANOV"));
    let instruction = callback.instruction.as_ref().unwrap();
    assert_eq!(instruction.pan.as_deref(), Some("2200700012345678"));
    assert_eq!(instruction.card_holder.as_deref(), Some("IVAN IVANOV"));
    assert_eq!(instruction.phone.as_deref(), Some("+79001234567"));
    // `data` is "string or integer": the amount arrives as text here and is read as minor units.
    assert_eq!(
        (instruction.amount, instruction.lifetime, instruction.valid_until),
        (Some(150000), Some(600), Some(1700000600))
    );
    assert_eq!((instruction.bank_name.as_deref(), instruction.bank_country.as_deref()), (Some("Bank"), Some("RU")));
    assert!(instruction.confirm_url.as_deref().unwrap().ends_with("/payin/confirm"));
    assert!(instruction.reject_url.as_deref().unwrap().ends_with("/payin/cancel"));
    assert_eq!(instruction.other.len(), 1);
    assert_eq!(instruction.other[0].title, "qr_image");
    assert_eq!(callback.integration.as_ref().unwrap().form_url.as_deref(), Some("https://pay.example/f/abc"));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn declines_with_a_null_method_and_with_the_text_null() {
    for method in ["null", r#""null""#] {
        let callback = parse_callback(&parse(&DECLINE.replace("METHOD", method))).unwrap();
        let info = callback.payment_info.as_ref().unwrap();
        assert_eq!((info.method.as_deref(), info.widget_method.as_deref()), (None, None), "{method}");
        assert!(callback.is_final && callback.is_known_state);
        assert_eq!(callback.sub_status, None);
        assert_eq!(callback.idempotency_key, idempotency_key("prj_8f2c", "order-10046", "decline", None));
        assert_eq!(callback.idempotency_key, "prj_8f2c:order-10046:decline:");
        let reason = callback.decline_reason.as_ref().unwrap();
        assert_eq!(
            (reason.code, reason.description.as_deref()),
            ("CANCELLED_BY_TIMEOUT", Some("Order cancelled by timeout"))
        );
        assert_eq!((callback.requisites.as_ref(), callback.instruction.as_ref()), (None, None));
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_listed_decline_reason_and_an_unknown_one() {
    let listed = [
        ("Canceled by client", "CANCELED_BY_CLIENT"),
        ("Declined by anti-fraud", "DECLINED_BY_ANTI_FRAUD"),
        ("Requisites not found", "REQUISITES_NOT_FOUND"),
        ("Order cancelled by timeout", "CANCELLED_BY_TIMEOUT"),
        ("Insufficient funds at the issuer", DECLINE_OTHER),
    ];
    for (text, code) in listed {
        let body = DECLINE.replace("METHOD", "null").replace("Order cancelled by timeout", text);
        let reason = parse_callback(&parse(&body)).unwrap().decline_reason.unwrap();
        assert_eq!((reason.code, reason.description.as_deref()), (code, Some(text)));
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn widget_callbacks_masked_plain_and_without_requisites() {
    let masked = r#"{"pan_hidden": "2200 70** **** 5678", "card_holder_hidden": "IVAN I.", "bank_name": null, "bank_country": null, "currency": "RUB"}"#;
    let callback = parse_callback(&widget("awaiting_confirm", "RUB", "payin-p2p-card", masked)).unwrap();
    let requisites = callback.requisites.unwrap();
    assert!(requisites.masked);
    assert_eq!(
        (requisites.pan.as_deref(), requisites.card_holder.as_deref()),
        (Some("2200 70** **** 5678"), Some("IVAN I."))
    );
    assert_eq!(requisites.bank_name, None);
    assert_eq!(callback.payment_info.unwrap().widget_method.as_deref(), Some("payin-p2p-card"));

    // NG payin-ussd carries the plain pair; "---" is the spec's placeholder for a missing name.
    let plain = r#"{"pan": "*737*2*500000#", "card_holder": "---", "currency": "NGN"}"#;
    let requisites =
        parse_callback(&widget("awaiting_confirm", "NGN", "payin-ussd", plain)).unwrap().requisites.unwrap();
    assert!(!requisites.masked);
    assert_eq!((requisites.pan.as_deref(), requisites.card_holder), (Some("*737*2*500000#"), None));

    // KE payin-mobile-money: processing:new, no requisites at all (null or empty).
    for none in ["null", "{}"] {
        let callback = parse_callback(&widget("new", "KES", "payin-mobile-money", none)).unwrap();
        assert_eq!(callback.requisites, None, "{none}");
        assert_eq!(callback.instruction, None);
        assert!(callback.is_known_state && !callback.is_final);
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn refused_callbacks_carry_a_code_and_a_path() {
    let cases = [
        ("[]", ""),
        (r#"{"project_id":"p","general":{"payment_id":"o"}}"#, "status"),
        (r#"{"project_id":"p","general":{"payment_id":"o"},"status":"decline"}"#, "status"),
        (r#"{"project_id":"p","general":{"payment_id":"o"},"status":{"sub_status":null}}"#, "status.status"),
        (r#"{"general":{"payment_id":"o"},"status":{"status":"success"}}"#, "project_id"),
        (r#"{"project_id":"p","status":{"status":"success"}}"#, "general"),
        (
            r#"{"project_id":"p","general":{"payment_id":"o"},"status":{"status":"success"},"payment_info":{"amount":"150000"}}"#,
            "payment_info.amount",
        ),
        (
            r#"{"project_id":"p","general":{"payment_id":"o"},"status":{"status":"success"},"payment_info":{"amount":1.5}}"#,
            "payment_info.amount",
        ),
        (
            r#"{"project_id":"p","general":{"payment_id":"o"},"status":{"status":"success"},"additional_info":{"display_data":[{"title":"amount","data":"12a"}]}}"#,
            "additional_info.display_data.0.data",
        ),
    ];
    for (text, path) in cases {
        let body = payment_intake::__private::parse_value(text, &Limits::default()).unwrap();
        let error = parse_callback(&body).unwrap_err();
        assert_eq!(error.code(), "INVALID_CALLBACK", "{text}");
        match error {
            payment_intake::Error::InvalidCallback { path: found, .. } => assert_eq!(found, path, "{text}"),
            other => panic!("{other:?}"),
        }
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn callback_serializes_for_js_in_camel_case() {
    let callback = parse_callback(&parse(AWAITING_CONFIRM)).unwrap();
    let value = serde_json::to_value(&callback).unwrap();
    for key in ["projectId", "paymentId", "requestId", "subStatus", "statusDescription", "isFinal", "idempotencyKey"] {
        assert!(value.get(key).is_some(), "{key}");
    }
    assert_eq!(value["statusDescription"], serde_json::Value::Null);
    assert_eq!(value["paymentInfo"]["oldAmount"], 150000);
    assert_eq!(value["paymentInfo"]["type"], "payin");
    assert_eq!(value["integration"]["formUrl"], "https://pay.example/f/abc");
    assert_eq!(value["requisites"]["masked"], false);
    assert_eq!(value["instruction"]["validUntil"], 1700000600);
    assert_eq!(value["instruction"]["other"][0]["type"], "add_info");
    assert!(value.get("raw").is_none(), "the model holds only what its fields name");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_shared_vector_callback_parses() {
    let vectors = parse(include_str!("vectors/callbacks.json"));
    let Some(Json::Array(cases)) = vectors.get("cases") else { panic!("no cases") };
    let body = cases.iter().find(|case| case.get("expect").and_then(Json::as_str) == Some("ok")).unwrap();
    let body = parse(body.get("body").and_then(Json::as_str).unwrap());
    let callback = parse_callback(&body).unwrap();
    assert_eq!(callback.idempotency_key, "prj_8f2c:order-10045:processing:awaiting_confirm");
    assert_eq!(callback.instruction.unwrap().amount, Some(150000));
}

const P2P_INFO: &str = "/api/v1/payment/p2p/payin/info";
const WIDGET_INFO: &str = "/api/v1/widget/payin/info";

fn info_body(currency: &str, payment_info_extra: &str, requisites: &str) -> Json<'static> {
    parse(&format!(
        r#"{{"status":"processing","sub_status":"awaiting_confirm","status_description":null,
            "request_id":"req_1","project_id":"prj_8f2c","payment_id":"order-1",
            "payment_info":{{"amount":100000,"old_amount":100000,"initial_amount":100000,"currency":"{currency}",
              "method":"international-card-p2p","type":"payin"{payment_info_extra}}},
            "recipient_requisites":{requisites},
            "sender":{{"pan_hidden":"4400 43** **** 1234","card_holder_hidden":"A*** B***"}},
            "integration":{{"form_url":"https://pay.example/f/x"}}}}"#
    ))
}

fn warning_paths(response: &payment_intake::InfoResponse) -> Vec<&str> {
    response.warnings.iter().map(|w| w.path.as_str()).collect()
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn p2p_info_kz_and_ru_variants() {
    let timing = r#","lifetime":900,"expiration_date":1700000900"#;
    let kz_requisites = r#"{"pan":"4400430012341234","bank_name":"Halyk","bank_country":"KZ","currency":"KZT"}"#;
    let response = parse_info_response(P2P_INFO, &info_body("KZT", timing, kz_requisites)).unwrap();
    assert_eq!(response.variant, Some("KZ"));
    assert!(response.warnings.is_empty(), "{:?}", response.warnings);
    assert_eq!(response.requisites.as_ref().unwrap().bank_name.as_deref(), Some("Halyk"));
    assert_eq!(response.sender.as_ref().unwrap().pan_hidden.as_deref(), Some("4400 43** **** 1234"));
    assert_eq!(response.payment_info.as_ref().unwrap().lifetime, Some(900));
    // KZ: lifetime, expiration_date, and requisites' pan and bank_name are required.
    let response = parse_info_response(P2P_INFO, &info_body("KZT", "", r#"{"pan":"4400430012341234"}"#)).unwrap();
    assert_eq!(
        warning_paths(&response),
        ["payment_info.lifetime", "payment_info.expiration_date", "recipient_requisites.bank_name"]
    );
    assert!(response.warnings.iter().all(|w| w.code == "REQUIRED"));
    // RU: lifetime optional; card_holder required when requisites are present, the masked one will do.
    let ru = r#"{"pan":"2200700012345678","card_holder":"IVAN IVANOV"}"#;
    let response = parse_info_response(P2P_INFO, &info_body("RUB", "", ru)).unwrap();
    assert_eq!(response.variant, Some("RU"));
    assert!(response.warnings.is_empty(), "{:?}", response.warnings);
    let response = parse_info_response(P2P_INFO, &info_body("RUB", "", r#"{"pan":"2200700012345678"}"#)).unwrap();
    assert_eq!(warning_paths(&response), ["recipient_requisites.card_holder"]);
    let masked = r#"{"pan_hidden":"2200 70** **** 5678","card_holder_hidden":"IVAN I."}"#;
    let response = parse_info_response(P2P_INFO, &info_body("RUB", "", masked)).unwrap();
    assert!(response.warnings.is_empty() && response.requisites.unwrap().masked);
    // Requisites empty until awaiting_confirm: no requirement applies.
    let response = parse_info_response(P2P_INFO, &info_body("KZT", timing, "{}")).unwrap();
    assert!(response.warnings.is_empty() && response.requisites.is_none());
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn widget_info_and_refusals() {
    let response = parse_info_response(WIDGET_INFO, &info_body("KES", "", "null")).unwrap();
    assert_eq!(response.variant, Some("KE"));
    assert!(response.warnings.is_empty(), "{:?}", response.warnings);
    assert_eq!(response.sender, None, "widget info has no sender");
    let response = parse_info_response(WIDGET_INFO, &info_body("KZT", "", "null")).unwrap();
    assert_eq!(warning_paths(&response), ["payment_info.lifetime"]);
    let response = parse_info_response(WIDGET_INFO, &parse(r#"{"status":"decline","request_id":"r","project_id":"p","payment_id":"o","status_description":"Canceled by client"}"#)).unwrap();
    assert!(response.is_final);
    assert_eq!(response.decline_reason.as_ref().unwrap().code, "CANCELED_BY_CLIENT");
    assert_eq!(warning_paths(&response), ["payment_info", "integration"]);

    assert_eq!(parse_info_response("/api/v1/payment/p2p/payin", &parse("{}")).unwrap_err().code(), "INVALID_ARGUMENT");
    let missing_request_id = parse(r#"{"status":"processing","project_id":"p","payment_id":"o"}"#);
    assert_eq!(parse_info_response(P2P_INFO, &missing_request_id).unwrap_err().code(), "INVALID_RESPONSE");
}
