//! `__constants`: what the JS core and the wasm must agree on, given by the wasm
//! once, so that no number or message is kept in step by a comment.

use std::fmt::Write;

use wasm_bindgen::prelude::*;

use super::super::keys::FREED_KEY;
#[cfg(feature = "full-api")]
use super::super::shapes::input_fields::write_input_field_table;
use super::input::ROOM_AFTER_TEXT;
#[cfg(feature = "full-api")]
use super::operations::write_operation_table;
use crate::error::ErrorCode;
use crate::json::Limits;
use crate::options::MAX_BODY_BYTES_CEILING;

/// The JSON text of `{ statuses, maxBodyBytes, readerMaxBytes, stampRoom, freedKey,
/// operations, inputFields }`: the HTTP status of every error code (`{ CODE: status }`, from
/// `ErrorCode::http_status`, for the errors the core makes itself), the most `maxBodyBytes`
/// accepts (how much of a Fetch body the core reads at most), the most the package's JSON
/// reader takes by default (`Limits::DEFAULT_MAX_BYTES`: how much of an answer the client
/// reads at most), the room after a text written in place for a short timestamp
/// (`__canonicalMessageOfInput`), why a freed key is refused, and the operation table
/// (`operations::write_operation_table`: its rows in the order of `Operation::ALL`, a row's
/// index the one `__validateRequestOfInput` takes), and the builders' input-fields table
/// (`shapes::input_fields`, given as `inputFieldTable()`). (JSON text: one
/// string across, where an object would be set member by member.)
#[wasm_bindgen(js_name = __constants, skip_typescript)]
pub fn constants() -> String {
    let mut json = String::from("{\"statuses\":{");
    for (at, code) in ErrorCode::ALL.iter().enumerate() {
        let comma = if at == 0 { "" } else { "," };
        let _ = write!(json, "{comma}\"{}\":{}", code.as_str(), code.http_status());
    }
    let reader_max_bytes = Limits::DEFAULT_MAX_BYTES;
    // The message holds no character JSON would escape.
    let _ = write!(
        json,
        "}},\"maxBodyBytes\":{MAX_BODY_BYTES_CEILING},\"readerMaxBytes\":{reader_max_bytes},\"stampRoom\":{ROOM_AFTER_TEXT},\"freedKey\":\"{FREED_KEY}\",\"operations\":"
    );
    #[cfg(feature = "full-api")]
    write_operation_table(&mut json);
    // The receiver's .wasm (no `full-api`) calls no operation and builds no request.
    #[cfg(not(feature = "full-api"))]
    json.push_str("[]");
    json.push_str(",\"inputFields\":");
    #[cfg(feature = "full-api")]
    write_input_field_table(&mut json);
    #[cfg(not(feature = "full-api"))]
    json.push_str("[]");
    json.push('}');
    json
}
