//! The scan of a string token's text for its end (a quote, a backslash or a
//! control byte), a block at a time: 16 bytes in SIMD128 on wasm32, 8 in a
//! `u64` elsewhere, the last few bytes one by one. The tests compare the scan
//! with a byte loop, with the end at every offset of the first blocks; they run
//! natively and as wasm.

/// Whether a byte of a string token ends a run of plain text: a quote, a
/// backslash, or a control byte (which JSON refuses unescaped).
const fn ends_run(byte: u8) -> bool {
    matches!(byte, b'"' | b'\\' | 0..=0x1f)
}

/// How many bytes at the start of `bytes` are plain string text: the offset of
/// the first byte that [`ends_run`], or the length when none does. Whole
/// blocks are scanned at once ([`block_run`]), the tail byte by byte.
pub(super) fn plain_run(bytes: &[u8]) -> usize {
    let mut rest = bytes;
    while let Some((block, after)) = rest.split_first_chunk::<BLOCK>() {
        if let Some(at) = block_run(block) {
            return bytes.len() - rest.len() + at;
        }
        rest = after;
    }
    let tail = rest.iter().position(|&b| ends_run(b)).unwrap_or(rest.len());
    bytes.len() - rest.len() + tail
}

/// The bytes [`block_run`] looks at together: one SIMD128 vector.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const BLOCK: usize = 16;

/// The offset of the first byte of `block` that [`ends_run`], if any: the 16
/// bytes are compared at once in SIMD128.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn block_run(block: &[u8; BLOCK]) -> Option<usize> {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128_load, v128_or};
    // SAFETY: `block` borrows 16 readable bytes, exactly what `v128_load`
    // reads, and `v128_load` needs no alignment.
    let bytes = unsafe { v128_load(block.as_ptr().cast()) };
    let quote = u8x16_eq(bytes, u8x16_splat(b'"'));
    let backslash = u8x16_eq(bytes, u8x16_splat(b'\\'));
    let control = u8x16_lt(bytes, u8x16_splat(0x20));
    let mask = u8x16_bitmask(v128_or(v128_or(quote, backslash), control));
    (mask != 0).then(|| mask.trailing_zeros() as usize)
}

/// The bytes [`block_run`] looks at together: one `u64`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const BLOCK: usize = 8;

/// The offset of the first byte of `block` that [`ends_run`], if any: the 8
/// bytes are tested at once in a `u64` (SWAR). Each test sets a byte's top bit
/// where the byte is 0 (`x - 1 & !x`) or below 0x20 (`x - 0x20 & !x`); a
/// borrow can only set bits above a byte that already tested true, so the
/// lowest bit set is exact.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block_run(block: &[u8; BLOCK]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    let below = |word: u64, limit: u8| word.wrapping_sub(ONES * u64::from(limit)) & !word;
    let word = u64::from_le_bytes(*block);
    let quote = below(word ^ (ONES * u64::from(b'"')), 1);
    let backslash = below(word ^ (ONES * u64::from(b'\\')), 1);
    let ends = (quote | backslash | below(word, 0x20)) & (ONES * 0x80);
    (ends != 0).then(|| (ends.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run [`plain_run`] must find, one byte at a time.
    fn plain_run_byte_by_byte(bytes: &[u8]) -> usize {
        bytes.iter().position(|&b| ends_run(b)).unwrap_or(bytes.len())
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn plain_run_finds_every_byte_at_every_offset() {
        for filler in [b'a', 0x20, 0x21, 0x5b, 0x5d, 0x7f, 0x80, 0xc3, 0xe9, 0xff] {
            for len in 0..40 {
                let mut bytes = vec![filler; len];
                assert_eq!(plain_run(&bytes), len, "filler {filler:#x}, length {len}");
                for at in 0..len {
                    for byte in 0..=u8::MAX {
                        bytes[at] = byte;
                        assert_eq!(plain_run(&bytes), plain_run_byte_by_byte(&bytes), "{bytes:x?}");
                    }
                    // A second end after the first changes nothing.
                    bytes[at] = b'"';
                    bytes[len - 1] = 0x01;
                    assert_eq!(plain_run(&bytes), at, "{bytes:x?}");
                    bytes.fill(filler);
                }
            }
        }
    }
}
