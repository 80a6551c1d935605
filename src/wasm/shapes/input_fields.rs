//! The builders' input-fields table (`crate::request::fields::INPUT_FIELDS`) as the JSON text
//! of plain rows: the `inputFields` member of `__constants()`. The core gives it as
//! `inputFieldTable()`; the debugger page builds its builder form from it. Plain Rust, tested
//! natively; `exports/constants.rs` appends it to `__constants()`.

use std::fmt::Write;

use crate::request::fields::{InputField, InputKind, INPUT_FIELDS, P2P, WIDGET};

/// The builders' names in a row's `builders`, with their bit of the mask.
const BUILDER_NAMES: [(u8, &str); 2] = [(P2P, "p2p"), (WIDGET, "widget")];

fn write_row(json: &mut String, row: &InputField) {
    let kind = match row.kind {
        InputKind::Text => "text",
        InputKind::Choice(_) => "choice",
        InputKind::Count { .. } => "count",
        InputKind::MinorAmount => "minorAmount",
        InputKind::MajorAmount => "majorAmount",
    };
    // Names, paths and choices hold no character JSON would escape (the schema's member
    // names and camelCase). (Each row's `doc` is compiled into the tests only.)
    let _ = write!(json, "{{\"name\":\"{}\",\"path\":\"{}\",\"type\":\"{kind}\",\"choices\":", row.name, row.path);
    match row.kind {
        InputKind::Choice(values) => {
            json.push('[');
            for (at, value) in values.iter().enumerate() {
                let comma = if at == 0 { "" } else { "," };
                let _ = write!(json, "{comma}\"{value}\"");
            }
            json.push(']');
        }
        _ => json.push_str("null"),
    }
    json.push_str(",\"default\":");
    match row.kind {
        InputKind::Count { default: Some(default) } => {
            let _ = write!(json, "{default}");
        }
        _ => json.push_str("null"),
    }
    json.push_str(",\"builders\":[");
    let mut first = true;
    for (bit, name) in BUILDER_NAMES {
        if row.builders & bit != 0 {
            let comma = if first { "" } else { "," };
            first = false;
            let _ = write!(json, "{comma}\"{name}\"");
        }
    }
    json.push_str("]}");
}

/// Appends every row of the input-fields table, in its order, as a JSON array of `{ name,
/// path, type, choices, default, builders }` (`InputFieldRow` in
/// pkg-template/index.d.ts).
pub(crate) fn write_input_field_table(json: &mut String) {
    json.push('[');
    for (at, row) in INPUT_FIELDS.iter().enumerate() {
        if at > 0 {
            json.push(',');
        }
        write_row(json, row);
    }
    json.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON text is the table: every row, in order, each member as the row says.
    #[test]
    fn the_table_is_json_with_every_row_in_order() {
        let mut json = String::new();
        write_input_field_table(&mut json);
        let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let rows = rows.as_array().expect("array");
        assert_eq!(rows.len(), INPUT_FIELDS.len());
        for (row, ours) in rows.iter().zip(INPUT_FIELDS.iter()) {
            assert_eq!(row.as_object().map(|members| members.len()), Some(6), "{row}");
            assert_eq!(row["name"], ours.name);
            assert_eq!(row["path"], ours.path);
            let builders: Vec<&str> =
                BUILDER_NAMES.iter().filter(|(bit, _)| ours.builders & bit != 0).map(|(_, name)| *name).collect();
            assert_eq!(row["builders"], serde_json::json!(builders), "{}", ours.name);
            let (kind, choices, default) = match ours.kind {
                InputKind::Text => ("text", serde_json::Value::Null, serde_json::Value::Null),
                InputKind::Choice(values) => ("choice", serde_json::json!(values), serde_json::Value::Null),
                InputKind::Count { default } => ("count", serde_json::Value::Null, serde_json::json!(default)),
                InputKind::MinorAmount => ("minorAmount", serde_json::Value::Null, serde_json::Value::Null),
                InputKind::MajorAmount => ("majorAmount", serde_json::Value::Null, serde_json::Value::Null),
            };
            assert_eq!(
                (&row["type"], &row["choices"], &row["default"]),
                (&kind.into(), &choices, &default),
                "{}",
                ours.name
            );
        }
        assert!(rows.iter().any(|row| row["default"] == 600), "lifetime's default");
        assert!(rows.iter().any(|row| row["choices"] == serde_json::json!(["ftd", "trust"])), "customerType's choices");
    }
}
