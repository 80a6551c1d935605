//! The input-fields table against its copies: the input structs (their members and
//! types), the operations' schemas and the TypeScript input types. A row added,
//! removed or changed in one place only fails one of these.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;

use super::*;
use crate::request::builders::{InputValue, PayinInput, Values, WidgetPayinInput};
use crate::spec::operations::Operation;

const BUILDERS: [(Builders, Operation, &str); 2] =
    [(P2P, Operation::P2pPayinCreate, "PayinInput"), (WIDGET, Operation::WidgetPayinCreate, "WidgetPayinInput")];

fn rows(builders: Builders) -> impl Iterator<Item = &'static InputField> {
    INPUT_FIELDS.iter().filter(move |row| row.builders & builders != 0)
}

/// The TypeScript type a row's member has.
fn ts_type(kind: InputKind) -> String {
    match kind {
        InputKind::Text | InputKind::MajorAmount => "string".to_owned(),
        InputKind::Count { .. } | InputKind::MinorAmount => "number".to_owned(),
        InputKind::Choice(values) => values.iter().map(|value| format!("'{value}'")).collect::<Vec<_>>().join(" | "),
    }
}

#[test]
fn each_row_is_whole_and_each_name_and_path_is_one_builders_once() {
    for (builders, _, input) in BUILDERS {
        let rows: Vec<&InputField> = rows(builders).collect();
        for (i, row) in rows.iter().enumerate() {
            assert!(!row.doc.is_empty() && row.path.split('.').count() == 2, "{}", row.name);
            assert!(rows[i + 1..].iter().all(|other| other.name != row.name), "{input}: {} twice", row.name);
            // Two rows at one path only for the amount's two forms.
            let shared = rows[i + 1..].iter().filter(|other| other.path == row.path).count();
            assert_eq!(shared, usize::from(row.kind == InputKind::MinorAmount), "{input}: {} twice", row.path);
        }
    }
    assert!(INPUT_FIELDS.iter().all(|row| row.builders != 0 && row.builders & !(P2P | WIDGET) == 0));
}

/// The input structs have exactly their builder's rows as members (serde's camelCase
/// names), each of the row's type, and `values()` reads each.
fn struct_is_the_table<T: DeserializeOwned + Values + Default>(builders: Builders, input: &str) {
    let names: Vec<&str> = T::default().values().iter().map(|(field, _)| *field).collect();
    let rows: Vec<&InputField> = rows(builders).collect();
    assert_eq!(names.len(), rows.len(), "{input}: {names:?}");
    for row in rows {
        assert_eq!(names.iter().filter(|field| is_camel_of(field, row.name)).count(), 1, "{input}.{}", row.name);
        let (given, wrong) = if row.kind.is_number() {
            (serde_json::json!(7), serde_json::json!("7"))
        } else {
            (serde_json::json!("7"), serde_json::json!(7))
        };
        let value: T = serde_json::from_value(serde_json::json!({ row.name: given }))
            .unwrap_or_else(|e| panic!("{input}.{}: {e}", row.name));
        let read: Vec<InputValue<'_>> = value.values().iter().filter_map(|(_, value)| *value).collect();
        let expected = if row.kind.is_number() { InputValue::Number(7) } else { InputValue::Text("7") };
        assert_eq!(read, [expected], "{input}.{}", row.name);
        assert!(serde_json::from_value::<T>(serde_json::json!({ row.name: wrong })).is_err(), "{input}.{}", row.name);
    }
}

#[test]
fn the_input_structs_are_the_table() {
    struct_is_the_table::<PayinInput>(P2P, "PayinInput");
    struct_is_the_table::<WidgetPayinInput>(WIDGET, "WidgetPayinInput");
    assert!(is_camel_of("customer_ip", "customerIp") && is_camel_of("amount", "amount"));
    assert!(!is_camel_of("customer_ip", "customerIP") && !is_camel_of("customer_ip", "customerIpx"));
    assert!(!is_camel_of("customer_ip", "customer"));
}

/// Each builder's rows are the members of its operation's schema objects, one each,
/// numbers where the schema takes numbers; and the body follows the schema's order.
#[test]
fn the_schema_is_the_table() {
    for (builders, operation, input) in BUILDERS {
        let mut schema: BTreeMap<String, bool> = BTreeMap::new();
        for (object, members) in operation.schema_objects() {
            for (member, number) in members {
                assert!(schema.insert(format!("{object}.{member}"), number).is_none());
            }
        }
        let table: BTreeMap<String, bool> = rows(builders)
            .filter(|row| row.kind != InputKind::MajorAmount)
            .map(|row| (row.path.to_owned(), row.kind.is_number()))
            .collect();
        assert_eq!(table, schema, "{input}");
        for path in table.keys() {
            let (object, member) = path.split_once('.').unwrap();
            assert_eq!(field_at(builders, object, member).map(|row| row.path), Some(path.as_str()));
        }
    }
    // The choices are the validator's.
    assert_eq!(
        INPUT_FIELDS.iter().find(|row| row.name == "customerType").map(|row| row.kind),
        Some(InputKind::Choice(CUSTOMER_TYPES))
    );
}

/// The members of a TypeScript interface of `src/wasm/types.rs` (and of the interface it
/// extends), each with its type.
fn ts_members(ts: &str, interface: &str) -> BTreeMap<String, String> {
    let start = ts.find(interface).unwrap_or_else(|| panic!("no {interface}"));
    let body = &ts[start + interface.len()..];
    let body = &body[..body.find('}').unwrap_or(body.len())];
    let mut members = BTreeMap::new();
    let mut text = body.to_owned();
    while let Some(from) = text.find("/**") {
        let to = text[from..].find("*/").map_or(text.len(), |end| from + end + 2);
        text.replace_range(from..to, "");
    }
    for member in text.split(';').map(str::trim).filter(|member| !member.is_empty()) {
        let (name, ty) = member.split_once("?:").unwrap_or_else(|| panic!("{interface}: {member}"));
        let ty = ty.trim().strip_suffix("| undefined").unwrap_or_else(|| panic!("{member}: not optional")).trim();
        assert!(members.insert(name.trim().to_owned(), ty.to_owned()).is_none(), "{name} twice");
    }
    members
}

#[test]
fn the_typescript_input_types_are_the_table() {
    let ts = include_str!("../wasm/types.rs");
    let common = ts_members(ts, "interface PayinCommonInput {");
    for (builders, _, input) in BUILDERS {
        let mut members = ts_members(ts, &format!("export interface {input} extends PayinCommonInput {{"));
        for (name, ty) in &common {
            assert!(members.insert(name.clone(), ty.clone()).is_none(), "{input}.{name} twice");
        }
        let table: BTreeMap<String, String> =
            rows(builders).map(|row| (row.name.to_owned(), ts_type(row.kind))).collect();
        assert_eq!(members, table, "{input}");
    }
}

#[test]
fn the_body_follows_the_schema_order_for_both_builders() {
    use crate::request::builders::build_widget_payin_request;
    let input: WidgetPayinInput = serde_json::from_value(serde_json::json!({
        "email": "p@example.com", "customerType": "ftd", "language": "ru", "country": "RU", "customerIp": "::1",
        "customerId": "u-2", "bankSymbol": "sberbank", "extraParam": "x", "description": "d", "lifetime": 300,
        "currency": "RUB", "amount": 500000, "widgetMethod": "payin-1-click", "redirectUrl": "https://s.example/r",
        "paymentId": "order-2", "projectId": "prj_8f2c"
    }))
    .unwrap();
    let (body, report) = build_widget_payin_request(&input).unwrap();
    assert!(report.valid, "{report:?}");
    assert_eq!(
        body.to_json_text(),
        r#"{"general":{"project_id":"prj_8f2c","payment_id":"order-2","redirect_url":"https://s.example/r"},"payment":{"amount":500000,"currency":"RUB","lifetime":300,"description":"d","extra_param":"x","widget_method":"payin-1-click"},"sender":{"bank_symbol":"sberbank"},"customer":{"id":"u-2","ip_address":"::1","country":"RU","language":"ru","customer_type":"ftd","email":"p@example.com"}}"#
    );
}

/// A member of every row of `builders` but the amount in major units, each with a value
/// of its own (text `v<n>`, or the number `n`), and where each value must land.
fn every_member(builders: Builders) -> (serde_json::Value, Vec<(&'static str, crate::json::Json<'static>)>) {
    use crate::json::Json;
    let mut input = serde_json::Map::new();
    let mut expected = Vec::new();
    for (n, row) in rows(builders).enumerate().filter(|(_, row)| row.kind != InputKind::MajorAmount) {
        let (given, lands) = if row.kind.is_number() {
            (serde_json::json!(n + 1), Json::Number((n + 1).to_string().into()))
        } else {
            (serde_json::json!(format!("v{n}")), Json::String(format!("v{n}").into()))
        };
        input.insert(row.name.to_owned(), given);
        expected.push((row.path, lands));
    }
    (serde_json::Value::Object(input), expected)
}

/// The builders' mapping is the table: each row's member lands at its path, and the body
/// holds nothing else.
#[test]
fn each_member_lands_at_its_rows_path_and_nothing_else_is_in_the_body() {
    use crate::json::Json;
    use crate::request::builders::{build_payin_request, build_widget_payin_request};
    for (builders, _, input) in BUILDERS {
        let (value, expected) = every_member(builders);
        let (body, _) = if builders == P2P {
            build_payin_request(&serde_json::from_value(value).unwrap()).unwrap()
        } else {
            build_widget_payin_request(&serde_json::from_value(value).unwrap()).unwrap()
        };
        let mut leaves = Vec::new();
        let Json::Object(objects) = &body else { panic!("{input}: not an object") };
        for (object, members) in objects {
            let Json::Object(members) = members else { panic!("{input}: {object} is not an object") };
            for (member, value) in members {
                leaves.push((format!("{object}.{member}"), value.clone()));
            }
        }
        let expected: Vec<(String, Json)> =
            expected.into_iter().map(|(path, value)| (path.to_owned(), value)).collect();
        leaves.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sorted = expected.clone();
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(leaves, sorted, "{input}");
        // The amount in major units lands where the one in minor units does.
        let major = serde_json::json!({ "amountMajor": "1.50", "currency": "RUB" });
        let (body, _) = if builders == P2P {
            build_payin_request(&serde_json::from_value(major).unwrap()).unwrap()
        } else {
            build_widget_payin_request(&serde_json::from_value(major).unwrap()).unwrap()
        };
        let path = INPUT_FIELDS.iter().find(|row| row.name == "amountMajor").map(|row| row.path).unwrap();
        let (object, member) = path.split_once('.').unwrap();
        assert_eq!(body.get(object).and_then(|o| o.get(member)), Some(&Json::Number("150".into())), "{input}");
    }
}
