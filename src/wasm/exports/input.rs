//! Text the Node entry writes straight into wasm memory (`pkg-template/wasm-io.mjs`), and
//! the bytes it reads where the wasm wrote them. The three exports take one request: an
//! [`InPlaceCall`], which the entry makes once and keeps. It sets the request's members, the
//! export reads them and fills the answer's on the same object: `ok`, then `kind` and `value`
//! (an address) or `error`. So only numbers cross, and each crossing is a call from JS into
//! the wasm, which V8 inlines: a request's members read by the wasm and an answer object it
//! makes cost 0.2 to 1 µs a call, which is what these paths save (BENCHMARKS.md).
//!
//! `__textInput` makes room in the call's own input buffer and answers its address; the
//! entry writes the text's UTF-8 there (`Buffer.write`, one copy, no buffer in JS), and
//! writes there again until it needs more room: the buffer moves only when this export grows
//! it (up to three bytes per UTF-16 unit of the largest body read), and no other call
//! reaches it. The call that reads it names the length written and answers the address of
//! what it wrote, a length (4 bytes, little-endian) then the bytes: the canonical message
//! (`__canonicalMessageOfInput`, `canonical.rs`) or the report's JSON text
//! (`__validateRequestOfInput`, `model.rs`), valid until the next call (the output keeps up
//! to `OUTPUT_KEPT` bytes). `__memory({})` answers the memory both are in.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

use super::super::js::{answer, js_error, Answer, Request};
use crate::error::Error;
use crate::json::Limits;

thread_local! {
    /// What the last call wrote for the entry to read in place: its length, then its bytes.
    static OUTPUT: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// Room kept after the text for a short string the entry writes there too (the
/// canonical message's timestamp), at most this many bytes: it only bounds what is made.
pub(super) const ROOM_AFTER_TEXT: usize = 16;

/// The request and answer of the in-place exports, one object the entry keeps, with the
/// input buffer the entry writes text into. Request: `capacity` (`__textInput`); `length`, the
/// bytes of text written, and the timestamp, either written after the text (`timestampWritten`,
/// its `timestampLength` ASCII bytes, at most `ROOM_AFTER_TEXT`) or `timestamp` as the caller
/// gave it, and `options` (`__canonicalMessageOfInput`); `operationIndex` and `length`
/// (`__validateRequestOfInput`). The caller's values are let go once read. Answer: `ok`, then
/// `kind` and `value`, or `error`.
#[wasm_bindgen(js_name = __InPlaceCall, skip_typescript)]
pub struct InPlaceCall {
    /// The text written in place by the entry (the room `__textInput` made).
    pub(super) input: Vec<u8>,
    pub(super) capacity: u32,
    pub(super) length: u32,
    pub(super) timestamp_written: bool,
    pub(super) timestamp_length: u32,
    pub(super) timestamp: JsValue,
    pub(super) options: JsValue,
    pub(super) operation_index: f64,
    #[wasm_bindgen(readonly)]
    pub ok: bool,
    #[wasm_bindgen(readonly)]
    pub kind: Kind,
    #[wasm_bindgen(readonly)]
    pub value: u32,
    error: JsValue,
}

/// What an in-place answer's `value` is.
#[wasm_bindgen(js_name = __InPlaceKind, skip_typescript)]
#[derive(Clone, Copy)]
pub enum Kind {
    /// The address of room for the text (`__textInput`).
    Room = "room",
    /// The address of the canonical message's bytes.
    Message = "message",
    /// The address of the report's JSON text: a report with an issue.
    Report = "report",
    /// None: a report without an issue (the entry makes it).
    Valid = "valid",
}

#[allow(clippy::new_without_default)] // made by the entry only
#[wasm_bindgen(js_class = __InPlaceCall)]
impl InPlaceCall {
    /// A call with no request member set yet (its room empty), and no answer.
    #[wasm_bindgen(constructor)]
    pub fn new() -> InPlaceCall {
        InPlaceCall {
            input: Vec::new(),
            capacity: 0,
            length: 0,
            timestamp_written: false,
            timestamp_length: 0,
            timestamp: JsValue::UNDEFINED,
            options: JsValue::UNDEFINED,
            operation_index: f64::NAN,
            ok: false,
            kind: Kind::Room,
            value: 0,
            error: JsValue::UNDEFINED,
        }
    }

    #[wasm_bindgen(setter)]
    pub fn set_capacity(&mut self, capacity: u32) {
        self.capacity = capacity;
    }

    #[wasm_bindgen(setter)]
    pub fn set_length(&mut self, length: u32) {
        self.length = length;
    }

    #[wasm_bindgen(setter = timestampWritten)]
    pub fn set_timestamp_written(&mut self, written: bool) {
        self.timestamp_written = written;
    }

    #[wasm_bindgen(setter = timestampLength)]
    pub fn set_timestamp_length(&mut self, length: u32) {
        self.timestamp_length = length;
    }

    #[wasm_bindgen(setter)]
    pub fn set_timestamp(&mut self, timestamp: JsValue) {
        self.timestamp = timestamp;
    }

    #[wasm_bindgen(setter)]
    pub fn set_options(&mut self, options: JsValue) {
        self.options = options;
    }

    #[wasm_bindgen(setter = operationIndex)]
    pub fn set_operation_index(&mut self, index: f64) {
        self.operation_index = index;
    }

    /// The error's data (when not `ok`).
    #[wasm_bindgen(getter)]
    pub fn error(&self) -> Answer {
        Ok(self.error.clone())
    }
}

impl InPlaceCall {
    /// Fills the answer: `ok`, `kind` and `value`, or the error. (One copy for the three.)
    #[inline(never)]
    pub(super) fn answer(&mut self, result: Result<(Kind, usize), Error>) {
        (self.ok, self.error) = match result {
            Ok((kind, value)) => {
                // (An address or a length in a 32-bit memory.)
                (self.kind, self.value) = (kind, value as u32);
                (true, JsValue::UNDEFINED)
            }
            Err(error) => (false, js_error(error)),
        };
    }
}

/// `__textInput(call)`: room for `call.capacity` bytes in the call's input buffer. The value
/// is its address, where the entry may write that many bytes until it asks for more room;
/// the error, why no room is made: `capacity` past three bytes per UTF-16 unit of the largest
/// body any call reads (and `ROOM_AFTER_TEXT`), or no memory for it (the entry then takes its
/// general path, which words the error of the text).
#[wasm_bindgen(js_name = __textInput, skip_typescript)]
pub fn text_input(call: &mut InPlaceCall) {
    let room = room(&mut call.input, call.capacity);
    call.answer(room.map(|at| (Kind::Room, at)));
}

fn room(input: &mut Vec<u8>, capacity: u32) -> Result<usize, Error> {
    let capacity = capacity as usize;
    let made = capacity <= 3 * Limits::default().max_bytes + ROOM_AFTER_TEXT && {
        let more = capacity.saturating_sub(input.len());
        more == 0
            || input.try_reserve_exact(more).is_ok_and(|()| {
                input.resize(capacity, 0);
                true
            })
    };
    if made {
        Ok(input.as_mut_ptr() as usize)
    } else {
        Err(no_room("capacity"))
    }
}

/// The error of `name` past the room the wasm holds in place: room it does not make (past
/// three bytes per UTF-16 unit of the largest body read, for the input, or no memory for it),
/// or a length past the room made.
pub(super) fn no_room(name: &str) -> Error {
    Error::InvalidArgument { name: name.into(), reason: "is past the room the wasm holds in place".into() }
}

/// The first `length` bytes of the input, or `INVALID_ARGUMENT` past its end.
pub(super) fn written(input: &[u8], length: u32) -> Result<&[u8], Error> {
    input.get(..length as usize).ok_or_else(|| no_room("length"))
}

/// The most bytes of `OUTPUT`'s buffer kept from one call to the next.
const OUTPUT_KEPT: usize = 256 << 10;

/// The length before the bytes of `OUTPUT`.
const HEADER: usize = 4;

/// What `write` writes (`name`: what it is), in the output after its length: the address
/// of that length, for the entry to read the bytes in place, valid until the next call.
pub(super) fn output(name: &str, write: &mut dyn FnMut(&mut Vec<u8>) -> Result<(), Error>) -> Result<usize, Error> {
    let mut out = OUTPUT.take();
    out.clear();
    // The last output is read: a buffer made for a large one is not kept for every later
    // call (a 60 KB body's message is about 200 KB).
    if out.capacity() > OUTPUT_KEPT {
        out = Vec::new();
    }
    let written = out.try_reserve(HEADER).map_err(|_| no_room(name)).and_then(|()| {
        out.extend_from_slice(&[0; HEADER]);
        write(&mut out)
    });
    let at = written.map(|()| {
        // At most the 16 MiB canonical bound, 4/3 over, or a report of a 64 KiB body: a u32.
        let len = (out.len() - HEADER) as u32;
        if let Some(header) = out.get_mut(..HEADER) {
            header.copy_from_slice(&len.to_le_bytes());
        }
        out.as_ptr() as usize
    });
    OUTPUT.set(out);
    at
}

/// `__memory({})`: the wasm's memory, for the Node entry to write and read the bytes of
/// `__textInput` and the other in-place exports (the request has no member; read once, and
/// again only when the memory has grown).
#[wasm_bindgen(js_name = __memory, skip_typescript)]
pub fn memory(_request: Request) -> Answer {
    answer(Ok(wasm_bindgen::memory()))
}
