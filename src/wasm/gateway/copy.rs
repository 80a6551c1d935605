//! How text and bytes are copied into wasm memory: a JS string by the glue's copy or,
//! long enough, by the platform's `TextEncoder.encodeInto` straight into wasm memory;
//! bytes of any buffer or view copied once, refused past a limit before the copy.

use js_sys::{ArrayBuffer, JsString, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use super::{get, type_name};
use crate::error::Error;
use crate::options::MAX_BODY_BYTES_CEILING;

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (every runtime we support has it; the glue uses it too).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(catch, constructor, js_class = TextEncoder)]
    fn new() -> Result<Utf8Encoder, JsValue>;
    /// Writes `text` as UTF-8 into `into`; its answer is not read (see
    /// [`encode_into_wasm_memory`]). Caught: a caller's replacement may throw.
    #[wasm_bindgen(catch, method, js_class = TextEncoder, js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, text: &JsString, into: &Uint8Array) -> Result<(), JsValue>;
}

thread_local! {
    /// Made once; `None` where the platform has no `TextEncoder` (then the glue's copy).
    static UTF8_ENCODER: Option<Utf8Encoder> = Utf8Encoder::new().ok();
}

/// A string argument. wasm-bindgen's own `&str` conversion traps inside the allocator
/// ("memory access out of bounds") when given a number or an object, so string
/// parameters are taken as `JsValue` and checked here.
pub(in crate::wasm) fn string_arg(value: &JsValue, name: &str) -> Result<String, Error> {
    value.as_string().ok_or_else(|| Error::InvalidArgument {
        name: name.into(),
        reason: format!("must be a string, not {}", type_name(value)),
    })
}

/// Text from a JS string or UTF-8 bytes; `None` for other values. Input longer than
/// `max_bytes` is refused before it is copied into wasm memory, which never shrinks:
/// a string's UTF-8 length is at least its UTF-16 length.
pub(in crate::wasm) fn text_from_js(value: &JsValue, max_bytes: usize) -> Result<Option<String>, Error> {
    if let Some(js_string) = value.dyn_ref::<JsString>() {
        let units = js_string.length();
        if units as usize > max_bytes {
            return Err(Error::BodyTooLarge { limit: max_bytes, actual: units as usize });
        }
        return match string_from_js(js_string, units) {
            Some(text) => Ok(Some(text)),
            None => Err(Error::InvalidBody { path: String::new(), reason: "holds a lone UTF-16 surrogate".into() }),
        };
    }
    match view_bytes(value, max_bytes)? {
        Some(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| not_utf8()),
        None => Ok(None),
    }
}

/// The exact bytes of an `ArrayBuffer`, a `DataView` or any typed array (a `Buffer`
/// included), copied once into wasm memory; `None` for anything else. More than
/// `max_bytes` is refused before anything is copied.
pub(in crate::wasm) fn view_bytes(value: &JsValue, max_bytes: usize) -> Result<Option<Vec<u8>>, Error> {
    let Some(bytes) = byte_view(value) else { return Ok(None) };
    let length = bytes.length() as usize;
    if length > max_bytes {
        return Err(Error::BodyTooLarge { limit: max_bytes, actual: length });
    }
    Ok(Some(bytes.to_vec()))
}

/// A `Uint8Array` over the bytes of a buffer or view, sharing its memory (no copy).
fn byte_view(value: &JsValue) -> Option<Uint8Array> {
    if let Some(buffer) = value.dyn_ref::<ArrayBuffer>() {
        // A detached buffer has no bytes, and a view of it could not be made (TypeError).
        if buffer.byte_length() == 0 {
            return Some(Uint8Array::new_with_length(0));
        }
        return Some(Uint8Array::new(buffer));
    }
    // `isView` is false for a Proxy, whose typed-array getters would throw.
    if !ArrayBuffer::is_view(value) {
        return None;
    }
    if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        return Some(bytes.clone());
    }
    // A DataView or another typed array: its window onto its buffer, in bytes. The
    // getters are read through `Reflect` (caught), as a caller may have replaced them.
    let number = |name: &str| get(value, &name.into()).ok().and_then(|n| n.as_f64());
    let buffer = get(value, &"buffer".into()).ok()?.dyn_into::<ArrayBuffer>().ok()?;
    let (offset, length) = (number("byteOffset")?, number("byteLength")?);
    let fits = offset >= 0.0 && length >= 0.0 && offset + length <= f64::from(buffer.byte_length());
    // A view of a detached buffer, or past the end of a shrunk resizable one, has no
    // bytes (its byteLength is 0), and a view of it could not be made (TypeError).
    if fits && length == 0.0 {
        return Some(Uint8Array::new_with_length(0));
    }
    fits.then(|| Uint8Array::new_with_byte_offset_and_length(&buffer, offset as u32, length as u32))
}

/// Bytes from an `ArrayBuffer`, a `DataView` or any typed array (a `Buffer` included),
/// up to 64 KiB (more is refused as `None` before it is copied); `None` for anything else.
pub(in crate::wasm) fn bytes_arg(value: &JsValue) -> Option<Vec<u8>> {
    const MAX_BYTES: usize = 64 << 10;
    view_bytes(value, MAX_BYTES).ok().flatten()
}

/// UTF-8 bytes already in wasm memory as text, refused as [`text_from_js`] refuses bytes.
pub(in crate::wasm) fn utf8_text(bytes: &[u8], max_bytes: usize) -> Result<&str, Error> {
    if bytes.len() > max_bytes {
        return Err(Error::BodyTooLarge { limit: max_bytes, actual: bytes.len() });
    }
    std::str::from_utf8(bytes).map_err(|_| not_utf8())
}

fn not_utf8() -> Error {
    Error::InvalidJson { message: "the bytes are not valid UTF-8".into() }
}

/// A JS string as UTF-8, or `None` when it holds a lone surrogate. The copy
/// writes a lone surrogate as U+FFFD; only text holding U+FFFD pays for the
/// exact check (one JS call per UTF-16 unit). U+FFFD is EF BF BD in UTF-8, and
/// a byte scan for its lead byte is far cheaper than a substring search.
/// `units` is the string's `length`, which every caller has read already.
pub(in crate::wasm) fn string_from_js(js_string: &JsString, units: u32) -> Option<String> {
    let text = copy_string(js_string, units);
    if text.bytes().any(|b| b == 0xEF) && text.contains('\u{FFFD}') && !js_string.is_valid_utf16() {
        return None;
    }
    Some(text)
}

/// Strings of at least this many UTF-16 units are copied by [`copy_string`]'s
/// `encodeInto`: wasm-bindgen's copy loops over ASCII in JS (870 ns for a
/// 600-character token in Node 20, where `encodeInto` takes about 100 ns and the
/// three crossings around it as much again). `canonicalEntries` of a string body,
/// against the glue's copy: 1.08× at 150 characters, 1.25× at 300, 1.5× at 600.
const ENCODE_INTO_FROM_UNITS: u32 = 128;

/// Strings of more UTF-16 units than this take the glue's copy: `encodeInto` needs room for
/// three bytes a unit, and wasm memory never shrinks (a 50-million-character header value,
/// ASCII, grew it by 200 MB for good, where the glue's copy takes 50). As many as a body may
/// have at most (`maxBodyBytes`' ceiling), so every body still takes `encodeInto`.
const ENCODE_INTO_TO_UNITS: u32 = MAX_BODY_BYTES_CEILING as u32;

/// A JS string's text, as wasm-bindgen's `String::from` gives it (a lone surrogate
/// as U+FFFD), but a long one written straight into wasm memory by the platform's
/// `TextEncoder.encodeInto`, which is native code. Falls back to the glue's copy
/// when the room cannot be had. `units` is the string's `length`.
pub(in crate::wasm) fn copy_string(js_string: &JsString, units: u32) -> String {
    if (ENCODE_INTO_FROM_UNITS..=ENCODE_INTO_TO_UNITS).contains(&units) {
        if let Some(text) = encode_into_wasm_memory(js_string, units) {
            return text;
        }
    }
    String::from(js_string)
}

fn encode_into_wasm_memory(js_string: &JsString, units: u32) -> Option<String> {
    // At most 3 UTF-8 bytes per UTF-16 unit (a surrogate pair: 4 for 2).
    let room = (units as usize).checked_mul(3)?;
    let mut bytes: Vec<u8> = Vec::new();
    bytes.try_reserve_exact(room).ok()?;
    // 0xFF is no byte of UTF-8: the first one left is where the encoder stopped writing, so
    // its answer (`{ read, written }`, two more crossings, one of them caught) is not read.
    bytes.resize(room, 0xFF);
    // The encoder is made (on first use) before the view, which nothing may outlive.
    UTF8_ENCODER.with(|encoder| {
        let encoder = encoder.as_ref()?;
        // SAFETY: the view covers `bytes` and is used only by `encodeInto` right here.
        // Wasm memory that grew in between (nothing here allocates, but the glue's
        // externref table might) would detach it: `encodeInto` then writes nothing,
        // which the length check below turns into the glue's copy.
        let view = unsafe { Uint8Array::view_mut_raw(bytes.as_mut_ptr(), room) };
        encoder.encode_into(js_string, &view).ok()
    })?;
    // Every UTF-16 unit is at least one byte of UTF-8, so the end is sought from `units` on (at
    // once for ASCII). What a caller's replacement of the encoder wrote is kept only if it is
    // UTF-8 of at least that length (a byte 0xFF before `units` fails the UTF-8 check).
    let units = units as usize;
    let written = bytes.get(units..)?.iter().position(|&byte| byte == 0xFF).map_or(room, |at| units + at);
    bytes.truncate(written);
    String::from_utf8(bytes).ok()
}

#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use js_sys::JsString;

    use super::{copy_string, ENCODE_INTO_FROM_UNITS};

    /// `copy_string` gives what wasm-bindgen's copy gives, on both sides of its
    /// threshold: ASCII, two- and three-byte UTF-8, surrogate pairs, and lone
    /// surrogates (U+FFFD in both), at the start, the end and across the threshold.
    #[wasm_bindgen_test::wasm_bindgen_test]
    fn copy_string_is_the_glue_copy() {
        let at = ENCODE_INTO_FROM_UNITS as usize;
        let mut cases: Vec<Vec<u16>> = Vec::new();
        for length in [0, 1, at - 1, at, at + 1, 600, 5000] {
            for unit in [u16::from(b'a'), 0x00e9, 0x0416, 0x20ac, 0xd83d, 0xde00] {
                cases.push(vec![unit; length]);
            }
            let pairs: Vec<u16> = "😀é a".encode_utf16().cycle().take(length).collect();
            cases.push(pairs);
        }
        let mut lone_at_end: Vec<u16> = vec![u16::from(b'x'); at];
        lone_at_end.push(0xd800);
        cases.push(lone_at_end);
        for units in cases {
            let js = JsString::from_char_code(&units);
            let copied = copy_string(&js, js.length());
            assert_eq!(copied, String::from(&js), "{} units starting {:x?}", units.len(), units.first());
            assert_eq!(copied, String::from_utf16_lossy(&units));
        }
    }
}
