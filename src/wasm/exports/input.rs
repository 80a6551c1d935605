//! Text the Node entry writes straight into wasm memory: `__textInput` makes room and
//! gives its address, the entry writes the text's UTF-8 there (`Buffer.write`, one copy,
//! no buffer in JS), and the call that reads it takes the length written
//! (`__canonicalMessageOfInput`, `__validateRequestOfInput`). The buffer is kept for the
//! next call, up to three bytes per UTF-16 unit of the largest body read.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

use crate::error::Error;
use crate::json::Limits;

thread_local! {
    /// The text written in place by the Node entry.
    static INPUT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Room kept after the text for a short string the entry writes there too (the
/// canonical message's timestamp), at most this many bytes: it only bounds what is made.
pub(super) const ROOM_AFTER_TEXT: usize = 16;

/// Room for `capacity` bytes in wasm memory: its address, or 0 past three bytes per
/// UTF-16 unit of the largest body any call reads (and `ROOM_AFTER_TEXT`), or without
/// memory (the entry then takes its general path, which words the error).
#[wasm_bindgen(js_name = __textInput, skip_typescript)]
pub fn text_input(capacity: usize) -> usize {
    if capacity > 3 * Limits::default().max_bytes + ROOM_AFTER_TEXT {
        return 0;
    }
    let mut input = INPUT.take();
    if input.len() < capacity {
        if input.try_reserve_exact(capacity - input.len()).is_err() {
            INPUT.set(input);
            return 0;
        }
        input.resize(capacity, 0);
    }
    let at = input.as_mut_ptr() as usize;
    INPUT.set(input);
    at
}

/// `read` of what the entry wrote, all of it (its first bytes are the text): the buffer is
/// out of its cell meanwhile, so a caller's getter that calls in again (reading options)
/// writes a buffer of its own.
pub(super) fn with_input<R>(read: impl FnOnce(&[u8]) -> R) -> R {
    let input = INPUT.take();
    let result = read(&input);
    INPUT.set(input);
    result
}

/// The first `len` bytes of the input, or `INVALID_ARGUMENT` past its end.
pub(super) fn written(input: &[u8], len: usize) -> Result<&[u8], Error> {
    input.get(..len).ok_or_else(|| Error::InvalidArgument { name: "len".into(), reason: "is past the input".into() })
}
