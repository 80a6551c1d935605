//! base64url of the joined entries, with a table of every 12-bit value's two
//! characters (8 KB): two loads and one store for each three bytes, where the
//! `base64` crate's general-purpose engine does a shift, mask and load for
//! each character. Tested against the crate on random inputs of every length.

use std::sync::OnceLock;

/// The base64url alphabet (RFC 4648 §5).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The two characters of each 12-bit value, made on first use: as a constant
/// the 8 KB table would be a data segment of the `.wasm`, about 8 KB gzip.
static PAIRS: OnceLock<[[u8; 2]; 4096]> = OnceLock::new();

fn pairs() -> [[u8; 2]; 4096] {
    let mut table = [[0u8; 2]; 4096];
    let mut i = 0;
    while i < 4096 {
        table[i] = [ALPHABET[i >> 6], ALPHABET[i & 63]];
        i += 1;
    }
    table
}

/// Length of the base64url of `len` bytes, with or without `=` padding.
pub(crate) const fn encoded_len(len: usize, padding: bool) -> usize {
    let whole = len / 3 * 4;
    match (len % 3, padding) {
        (0, _) => whole,
        (_, true) => whole + 4,
        (1, false) => whole + 2,
        _ => whole + 3,
    }
}

/// Appends the base64url of `bytes` to `out` (which the caller has made room in).
pub(crate) fn encode_into(bytes: &[u8], padding: bool, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + encoded_len(bytes.len(), padding), 0);
    let (whole, rest) = bytes.split_at(bytes.len() - bytes.len() % 3);
    let (body, tail) = out[start..].split_at_mut(whole.len() / 3 * 4);
    let pairs = PAIRS.get_or_init(pairs);
    for (three, four) in whole.chunks_exact(3).zip(body.chunks_exact_mut(4)) {
        let bits = usize::from(three[0]) << 16 | usize::from(three[1]) << 8 | usize::from(three[2]);
        let [a, b] = pairs[bits >> 12];
        let [c, d] = pairs[bits & 0xFFF];
        four.copy_from_slice(&[a, b, c, d]);
    }
    let char_at = |bits: usize| ALPHABET[bits & 63];
    match *rest {
        [x] => {
            let bits = usize::from(x) << 16;
            tail[..2].copy_from_slice(&[char_at(bits >> 18), char_at(bits >> 12)]);
        }
        [x, y] => {
            let bits = usize::from(x) << 16 | usize::from(y) << 8;
            tail[..3].copy_from_slice(&[char_at(bits >> 18), char_at(bits >> 12), char_at(bits >> 6)]);
        }
        _ => {}
    }
    for pad in tail.iter_mut().skip(rest.len() + 1) {
        *pad = b'=';
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{URL_SAFE, URL_SAFE_NO_PAD};
    use base64::Engine;

    #[test]
    fn agrees_with_the_base64_crate() {
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in (0..300).chain([1023, 1024, 1025, 60_000, 60_001, 60_002]) {
            for _ in 0..4 {
                let bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
                for (padding, engine) in [(true, &URL_SAFE), (false, &URL_SAFE_NO_PAD)] {
                    let mut out = b"prefix".to_vec();
                    encode_into(&bytes, padding, &mut out);
                    let expected = format!("prefix{}", engine.encode(&bytes));
                    assert_eq!(String::from_utf8(out).unwrap(), expected, "{len} bytes, padding {padding}");
                    assert_eq!(encoded_len(len, padding), expected.len() - 6);
                }
            }
        }
        let every: Vec<u8> = (0..=255).collect();
        let mut out = Vec::new();
        encode_into(&every, true, &mut out);
        assert_eq!(out, URL_SAFE.encode(&every).into_bytes());
    }
}
