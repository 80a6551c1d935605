//! The request model: validation, builders, minor units,
//! and the callback and info-response models.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::super::body::{body_from_js, restore_body_json};
use super::super::gateway::{builder_input, members, string_arg, text_from_js, type_name, utf8_text};
use super::super::js::{conversion_failed, js_error, to_js};
use super::super::options::validate_options;
use super::super::shapes::{availability_rows, issue_code_rows};
use super::super::JsResult;
use super::input::{self, InPlaceCall, Kind};
use crate::callback::model as callback_model;
use crate::error::Error;
use crate::json::{Json, Limits, MAX_SAFE_INTEGER};
use crate::request::builders::{self, report_input_problems, Builders, P2P, WIDGET};
use crate::spec::currency as amount;
use crate::spec::operations::Operation;
use crate::validate::{self, ValidationReport};

#[cfg(feature = "full-api")]
/// Validates a request body for an operation path. Never throws on bad input:
/// everything found is in the report. Only malformed `options` throw (INVALID_ARGUMENT).
#[wasm_bindgen(js_name = validateRequest, unchecked_return_type = "ValidationReport")]
pub fn validate_request(
    #[wasm_bindgen(unchecked_param_type = "OperationPath")] operation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: Option<JsValue>,
) -> JsResult<JsValue> {
    let options = validate_options(members(&options.unwrap_or(JsValue::UNDEFINED))).map_err(js_error)?;
    // Never throws: an operation that is not a string is an unknown operation.
    let operation = operation.as_string().unwrap_or_default();
    let operation = operation.as_str();
    // JSON text, as a string or as bytes (the Node wrapper passes short strings as bytes).
    let report = match text_from_js(&body, Limits::DEFAULT_MAX_BYTES) {
        Ok(Some(text)) => text_report(operation, Ok(&text), options),
        // Too large, a lone surrogate, bytes that are not UTF-8.
        Err(error) => text_report(operation, Err(error), options),
        // An unknown operation is the one error, whatever the body.
        Ok(None) if Operation::from_path(operation).is_none() => {
            validate::validate_request(operation, &crate::json::Json::Null)
        }
        Ok(None) => match body_from_js(&body, &Limits::default()) {
            Ok(input) => validate::validate_request_with(operation, &input.json, options),
            Err(error) => ValidationReport::from_error(&error),
        },
    };
    to_js(&report)
}

#[cfg(feature = "full-api")]
/// `__validateRequestOfInput(call)` ([`input::InPlaceCall`]): `validateRequest` without
/// options, for the operation at `call.operationIndex` in the operation table
/// (`__constants().operations`; an index it does not hold is an unknown operation), of the text
/// written in the input. The answer's kind: `valid`, no value (a report without an issue,
/// which the entry makes itself), or `report`, the address of the report's JSON text's
/// length (4 bytes, little-endian), then the text, for the entry to read in place.
#[wasm_bindgen(js_name = __validateRequestOfInput, skip_typescript)]
pub fn validate_request_of_input(call: &mut InPlaceCall) {
    let index = call.operation_index;
    let known = if index >= 0.0 { Operation::ALL.get(index as usize) } else { None };
    let operation = known.map_or("", |operation| operation.path());
    let text = input::written(&call.input, call.length).and_then(|bytes| utf8_text(bytes, Limits::DEFAULT_MAX_BYTES));
    let report = text_report(operation, text, Default::default());
    call.answer(if report.valid && report.warnings.is_empty() {
        Ok((Kind::Valid, 0))
    } else {
        let mut json =
            |out: &mut Vec<u8>| serde_json::to_writer(out, &report).map_err(|error| conversion_failed(&error));
        input::output("report", &mut json).map(|at| (Kind::Report, at))
    });
}

/// The report of body text, or of the error its reading gave (for an unknown
/// operation that is the one error, whatever the body).
fn text_report(operation: &str, text: Result<&str, Error>, options: validate::ValidateOptions) -> ValidationReport {
    match text {
        Ok(text) => validate::validate_request_text_with(operation, text, options),
        Err(_) if Operation::from_path(operation).is_none() => {
            validate::validate_request(operation, &crate::json::Json::Null)
        }
        Err(error) => ValidationReport::from_error(&error),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BuiltOut<'a> {
    body: &'a Json<'a>,
    body_text: String,
    report: &'a ValidationReport,
}

/// Builds the body of `builders` ([`P2P`] or [`WIDGET`]) from the caller's input, read by
/// the input-fields table, and reports the input's unreadable members (unknown names, wrong
/// types) as errors of the report, under `builder`.
fn built(value: JsValue, builder: &str, builders: Builders) -> JsResult<JsValue> {
    let (input, problems) = builder_input(&value, "input", builders).map_err(js_error)?;
    let (body, mut report) = builders::build(builders, &input).map_err(js_error)?;
    report_input_problems(&mut report, builder, &problems);
    to_js(&BuiltOut { body_text: body.to_json_text(), body: &body, report: &report })
}

#[cfg(feature = "full-api")]
/// Builds a P2P payin create body from a flat input, with defaults, and validates it.
#[wasm_bindgen(js_name = buildPayinRequest, unchecked_return_type = "BuiltRequest")]
pub fn build_payin_request(#[wasm_bindgen(unchecked_param_type = "PayinInput")] value: JsValue) -> JsResult<JsValue> {
    built(value, "buildPayinRequest", P2P)
}

#[cfg(feature = "full-api")]
/// Builds a widget payin create body from a flat input, with defaults, and validates it.
#[wasm_bindgen(js_name = buildWidgetPayinRequest, unchecked_return_type = "BuiltRequest")]
pub fn build_widget_payin_request(
    #[wasm_bindgen(unchecked_param_type = "WidgetPayinInput")] value: JsValue,
) -> JsResult<JsValue> {
    built(value, "buildWidgetPayinRequest", WIDGET)
}

#[cfg(feature = "full-api")]
/// Exact decimal to minor units: `toMinorUnits('1500.50', 'RUB') === 150050`.
#[wasm_bindgen(js_name = toMinorUnits)]
pub fn to_minor_units(
    #[wasm_bindgen(unchecked_param_type = "string")] decimal: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue,
) -> JsResult<f64> {
    let decimal = string_arg(&decimal, "decimal").map_err(js_error)?;
    let currency = string_arg(&currency, "currency").map_err(js_error)?;
    let minor = amount::to_minor_units(&decimal, &currency).map_err(js_error)?;
    // Amounts are bounded far below 2^53, so the conversion is exact.
    if minor > MAX_SAFE_INTEGER as u64 {
        return Err(js_error(Error::InvalidAmount { value: decimal, reason: "is too large for a JS number".into() }));
    }
    Ok(minor as f64)
}

#[cfg(feature = "full-api")]
/// Minor units back to decimal text: `fromMinorUnits(150050, 'RUB') === '1500.50'`.
#[wasm_bindgen(js_name = fromMinorUnits)]
pub fn from_minor_units(
    #[wasm_bindgen(unchecked_param_type = "number")] minor: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue,
) -> JsResult<String> {
    let currency = string_arg(&currency, "currency").map_err(js_error)?;
    let Some(minor) = minor.as_f64() else {
        return Err(js_error(Error::InvalidAmount {
            value: format!("({})", type_name(&minor)),
            reason: "must be a whole, non-negative number of minor units".into(),
        }));
    };
    if !(minor.is_finite() && minor >= 0.0 && minor.fract() == 0.0 && minor <= MAX_SAFE_INTEGER as f64) {
        return Err(js_error(Error::InvalidAmount {
            value: minor.to_string(),
            reason: "must be a whole, non-negative number of minor units".into(),
        }));
    }
    amount::from_minor_units(minor as u64, &currency).map_err(js_error)
}

/// Reads a callback body (text or object) into the callback model, without verifying it.
#[wasm_bindgen(js_name = parseCallback, unchecked_return_type = "Callback")]
pub fn parse_callback(#[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue) -> JsResult<JsValue> {
    let input = body_from_js(&body, &Limits::default()).map_err(js_error)?;
    // Every key of the model is the model's own: nothing from the body becomes a property name.
    to_js(&callback_model::parse_callback(&input.json).map_err(js_error)?)
}

#[cfg(feature = "full-api")]
/// Reads a P2P or widget payin info response.
#[wasm_bindgen(js_name = parseInfoResponse, unchecked_return_type = "InfoResponse")]
pub fn parse_info_response(
    #[wasm_bindgen(unchecked_param_type = "OperationPath")] operation: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Body")] body: JsValue,
) -> JsResult<JsValue> {
    let operation = string_arg(&operation, "operation").map_err(js_error)?;
    let input = body_from_js(&body, &Limits::default()).map_err(js_error)?;
    let info = callback_model::parse_info_response(&operation, &input.json).map_err(js_error)?;
    restore_body_json(to_js(&info)?, &info.raw)
}

#[cfg(feature = "full-api")]
/// The spec's availability table: which country, currency and integration offer which methods.
#[wasm_bindgen(js_name = availability, unchecked_return_type = "AvailabilityRow[]")]
pub fn availability() -> JsResult<JsValue> {
    to_js(&availability_rows())
}

#[cfg(feature = "full-api")]
/// Every validation issue code with its one-line meaning.
#[wasm_bindgen(js_name = issueCodes, unchecked_return_type = "Array<{ code: IssueCode; description: string }>")]
pub fn issue_codes() -> JsResult<JsValue> {
    to_js(&issue_code_rows())
}

/// Every error code the package can throw.
#[wasm_bindgen(js_name = errorCodes, unchecked_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<String> {
    Error::ALL_CODES.iter().map(|c| (*c).to_owned()).collect()
}
