//! `optionTable()`: the option table of the core (`crate::options`), as plain data.

use wasm_bindgen::prelude::*;

use super::super::js::to_js;
use super::super::JsResult;
use crate::options::OPTIONS;

/// Every option of the functions that take options, one row each: `{ name, takenBy, type,
/// choices: [{ value, label }], default, rule, doc }`, the canonical options first.
#[wasm_bindgen(js_name = optionTable, unchecked_return_type = "OptionRow[]")]
pub fn option_table() -> JsResult<JsValue> {
    to_js(OPTIONS)
}
