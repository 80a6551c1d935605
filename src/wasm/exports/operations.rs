//! `__operationTable()`: the spec's operation index (`crate::spec::operations::OPERATIONS`)
//! as plain rows, each with how much of its body `validate/` checks. The core gives it as
//! `operationTable()`; the client, the sandbox, the CLI, the debugger page and the build's
//! `OperationPath` union are made from it.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::super::js::{answer, to_js, Answer};
use crate::spec::operations::{Model, OperationRow, Takes, Target, OPERATIONS};
use crate::validate::operations::Coverage;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RowOut {
    path: &'static str,
    name: &'static str,
    model: &'static str,
    takes: &'static str,
    create: bool,
    info: Option<&'static str>,
    target: Option<&'static str>,
    schema: &'static str,
}

fn row_out(row: &OperationRow) -> RowOut {
    RowOut {
        path: row.path,
        name: row.name,
        model: match row.model {
            Model::Status => "status",
            Model::Info => "info",
            Model::Balance => "balance",
            Model::Banks => "banks",
        },
        takes: match row.takes {
            Takes::Body => "body",
            Takes::Ref => "ref",
            Takes::Project => "project",
        },
        create: row.creates,
        info: row.info.map(|info| info.path()),
        target: row.target.map(|target| match target {
            Target::Confirm => "confirm",
            Target::Cancel => "cancel",
        }),
        schema: match row.operation.coverage() {
            Coverage::Full => "full",
            Coverage::GeneralOnly => "generalOnly",
            Coverage::ObjectOnly => "objectOnly",
        },
    }
}

/// Every operation of the spec's index, in its order: `{ path, name, model, takes, create,
/// info, target, schema }` (`OperationRow` in pkg-template/index.d.ts).
#[wasm_bindgen(js_name = __operationTable, skip_typescript)]
pub fn operation_table() -> Answer {
    let rows: Vec<RowOut> = OPERATIONS.iter().map(row_out).collect();
    answer(to_js(&rows))
}
