//! What the client (`pkg-template/client/`) reads from the wasm besides the public API it
//! shares with everyone: the status of an error code, from the one table
//! ([`ErrorCode::http_status`]), so the errors it makes carry the same `.status` as the wasm's.

use wasm_bindgen::prelude::*;

use crate::error::ErrorCode;

/// The `.status` of the errors of `code` (one of `errorCodes()`); undefined for any other text.
#[wasm_bindgen(js_name = errorStatus, skip_typescript)]
pub fn error_status(code: &str) -> Option<u16> {
    ErrorCode::from_text(code).map(ErrorCode::http_status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_status_and_nothing_else_has_one() {
        for code in ErrorCode::ALL {
            assert_eq!(error_status(code.as_str()), Some(code.http_status()));
        }
        assert_eq!(error_status("TIMEOUT"), Some(504));
        assert_eq!(error_status("timeout"), None);
    }
}
