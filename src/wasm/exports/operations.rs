//! The spec's operation index (`crate::spec::operations::OPERATIONS`) as the JSON text of
//! plain rows, each with how much of its body `validate/` checks: the `operations` member of
//! `__constants()`. The core gives it as `operationTable()`; the client, the sandbox, the CLI,
//! the debugger page and the build's `OperationPath` union are made from it, and a row's
//! index is the one `__validateRequestOfInput` takes.

use std::fmt::Write;

use crate::spec::operations::{Model, OperationRow, Takes, Target, OPERATIONS};
use crate::validate::operations::Coverage;

/// `"name"` as JSON, or `null`. (No path, name or word of the table holds a character JSON
/// would escape: `spec::operations`' tests hold the paths to the spec's index.)
fn quoted(text: Option<&str>) -> String {
    text.map_or_else(|| "null".to_owned(), |text| format!("\"{text}\""))
}

fn write_row(json: &mut String, row: &OperationRow) {
    let model = match row.model {
        Model::Status => "status",
        Model::Info => "info",
        Model::Balance => "balance",
        Model::Banks => "banks",
    };
    let takes = match row.takes {
        Takes::Body => "body",
        Takes::Ref => "ref",
        Takes::Project => "project",
    };
    let target = row.target.map(|target| match target {
        Target::Confirm => "confirm",
        Target::Cancel => "cancel",
    });
    let schema = match row.operation.coverage() {
        Coverage::Full => "full",
        Coverage::GeneralOnly => "generalOnly",
        Coverage::ObjectOnly => "objectOnly",
    };
    let _ = write!(
        json,
        "{{\"path\":\"{}\",\"name\":\"{}\",\"model\":\"{model}\",\"takes\":\"{takes}\",\"create\":{},\"info\":{},\"target\":{},\"schema\":\"{schema}\"}}",
        row.path,
        row.name,
        row.creates,
        quoted(row.info.map(|info| info.path())),
        quoted(target),
    );
}

/// Appends every operation of the spec's index, in its order, as a JSON array of `{ path,
/// name, model, takes, create, info, target, schema }` (`OperationRow` in
/// pkg-template/index.d.ts).
pub(super) fn write_operation_table(json: &mut String) {
    json.push('[');
    for (at, row) in OPERATIONS.iter().enumerate() {
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

    #[test]
    fn the_table_is_json_with_every_row_in_order() {
        let mut json = String::new();
        write_operation_table(&mut json);
        let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let rows = rows.as_array().expect("array");
        assert_eq!(rows.len(), OPERATIONS.len());
        for (row, ours) in rows.iter().zip(OPERATIONS.iter()) {
            assert_eq!(row["path"], ours.path);
            assert_eq!(row["name"], ours.name);
            assert_eq!(row["create"], ours.creates);
        }
    }
}
