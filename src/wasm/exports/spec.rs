//! The spec's states table and decline reasons as data (`src/spec/states.rs`,
//! `src/spec/decline_reasons.rs`), for code that must not type them again:
//! the local sandbox, a merchant's own state machine or admin page.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::super::js::to_js;
use super::super::JsResult;
use crate::spec::decline_reasons::DECLINE_REASONS;
use crate::spec::states::STATES;

#[wasm_bindgen(typescript_custom_section)]
const SPEC_TABLES_TS: &'static str = r#"
/** A row of the spec's states table ("States and transitions"), as `specStates()` returns it. */
export interface SpecState {
  status: string;
  /** `null` where the spec writes "none". */
  subStatus: string | null;
  /** Only `decline` and `success` are final. */
  final: boolean;
  /** The row's place in the spec's table, from 0. */
  order: number;
}
/** A `status_description` the spec lists for `decline` ("Errors"), with the code `parseCallback` gives it. */
export interface SpecDeclineReason {
  code: 'CANCELED_BY_CLIENT' | 'DECLINED_BY_ANTI_FRAUD' | 'REQUISITES_NOT_FOUND' | 'CANCELLED_BY_TIMEOUT';
  /** The text as the spec writes it, e.g. 'Canceled by client'. */
  description: string;
}
"#;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StateOut {
    status: &'static str,
    sub_status: Option<&'static str>,
    #[serde(rename = "final")]
    is_final: bool,
    order: usize,
}

#[derive(Serialize)]
struct DeclineReasonOut {
    code: &'static str,
    description: &'static str,
}

fn state_rows() -> Vec<StateOut> {
    STATES
        .iter()
        .enumerate()
        .map(|(order, &(status, sub_status, is_final))| StateOut { status, sub_status, is_final, order })
        .collect()
}

fn decline_rows() -> Vec<DeclineReasonOut> {
    DECLINE_REASONS.iter().map(|&(description, code)| DeclineReasonOut { code, description }).collect()
}

/// The spec's states table, in its order: `{ status, subStatus, final, order }` per row.
#[wasm_bindgen(js_name = specStates, unchecked_return_type = "SpecState[]")]
pub fn spec_states() -> JsResult<JsValue> {
    to_js(&state_rows())
}

#[cfg(feature = "full-api")]
/// The decline texts the spec lists, in its order: `{ code, description }` per row.
#[wasm_bindgen(js_name = declineReasons, unchecked_return_type = "SpecDeclineReason[]")]
pub fn decline_reasons() -> JsResult<JsValue> {
    to_js(&decline_rows())
}
