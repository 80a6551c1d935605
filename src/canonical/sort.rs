//! Sorting of canonical entries by their UTF-8 bytes, each byte read through a
//! key: the identity gives code point order ([`Key::CodePoint`]), a remap of the
//! lead bytes of U+E000 and above gives UTF-16 order ([`utf16_key`]). Entries
//! share long path prefixes (`additional_info:display_data:17:…`), which a
//! comparison sort reads again on every comparison. Large partitions are split
//! on one byte into 257 buckets (an MSD radix sort, [`radix_sort`]: each
//! byte's key is read once into a cache, then the spans are distributed through
//! a scratch buffer); smaller ones, or all of them when the scratch cannot be
//! allocated, by a three-way radix quicksort (Bentley and Sedgewick,
//! [`sort_from`]). Both skip the bytes every span of a partition shares, so
//! each shared byte is read about once.

use std::cmp::Ordering;

/// Below this many entries an insertion sort is cheaper than another partition.
const SMALL: usize = 8;

/// Above this many entries a radix pass (two linear passes over the spans,
/// counters over the buckets used) is cheaper than the several three-way
/// partitions that split as much.
const RADIX_MIN: usize = 32;

/// Above this many entries the radix sort's two buffers pay for themselves
/// (measured natively: about even at 128 to 512 entries of a callback's
/// shape, clearly ahead for thousands).
const RADIX_FROM: usize = 256;

/// Buckets of a radix pass: one for spans that end at the byte, one per key.
const BUCKETS: usize = 257;

/// Which order a byte's sort key gives. Keys are a bijection of byte values, so
/// that equal bytes and equal keys are the same thing (shared prefixes are found
/// on bytes). A plain flag, not a function pointer: the key is read for every
/// byte a partition looks at, and inlined it costs a predictable branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    /// UTF-8 byte order is code point order.
    CodePoint,
    /// UTF-16 code unit order, by [`utf16_key`].
    Utf16,
}

impl Key {
    #[inline(always)]
    fn of(self, byte: u8) -> u8 {
        match self {
            Key::CodePoint => byte,
            Key::Utf16 => utf16_key(byte),
        }
    }
}

/// UTF-16 code unit order (JavaScript's default sort) from UTF-8 bytes. The two
/// orders differ only between U+E000..U+FFFF (lead bytes EE, EF) and the
/// supplementary planes (lead bytes F0..F4, surrogate pairs in UTF-16, which sort
/// below U+E000). Two texts first differ at the same position of the same
/// character, so either both bytes there are lead bytes or both are continuation
/// bytes of one lead, where the orders agree. Moving F0..F4 below EE, EF is enough.
pub(crate) fn utf16_key(byte: u8) -> u8 {
    match byte {
        0xEE | 0xEF => byte + 5,
        0xF0..=0xF4 => byte - 2,
        _ => byte,
    }
}

/// Sorts `spans`, byte ranges of `text`, by the keys of the bytes they cover.
pub(crate) fn sort_spans(text: &[u8], spans: &mut [(usize, usize)], key: Key) {
    if spans.len() > RADIX_FROM {
        let (mut scratch, mut bytes) = (Vec::new(), Vec::new());
        // Running out of memory is never a trap: without room, sort in place.
        if scratch.try_reserve_exact(spans.len()).is_ok() && bytes.try_reserve_exact(spans.len()).is_ok() {
            scratch.extend_from_slice(spans);
            bytes.resize(spans.len(), 0);
            radix_sort(text, spans, &mut scratch, &mut bytes, 0, key);
            return;
        }
    }
    sort_from(text, spans, 0, key);
}

/// MSD radix sort of spans that all share their first `depth` bytes, with
/// `scratch` and `bytes` as long as `spans`. Each pass splits the spans on the
/// byte at `depth` into [`BUCKETS`]; it recurses into the buckets with at most
/// half the spans and loops on the one with more, if any, so the recursion is
/// at most log2(n) deep. Small buckets go to [`sort_from`].
fn radix_sort<'a>(
    text: &[u8],
    mut spans: &'a mut [(usize, usize)],
    mut scratch: &'a mut [(usize, usize)],
    mut bytes: &'a mut [u16],
    mut depth: usize,
    key: Key,
) {
    while spans.len() > RADIX_MIN {
        let counts = Counts::of(text, spans, bytes, depth, key);
        if counts.low == counts.high {
            if counts.low == 0 {
                return; // All end here: equal.
            }
            // One byte for all: skip every byte they share (at least that one).
            depth += shared_prefix(text, spans, depth);
            continue;
        }
        counts.distribute(spans, scratch, bytes);
        // Same lengths (cut from the same ranges, `parts`): cannot panic.
        spans.copy_from_slice(scratch);
        let half = spans.len() / 2;
        let (mut start, mut next) = (0, None);
        for (bucket, count) in counts.buckets() {
            let part = start..start + count;
            start += count;
            // Bucket 0 holds spans that end here: equal, nothing to sort.
            if bucket == 0 || count < 2 {
                continue;
            }
            if count > half {
                next = Some(part);
            } else if let Some((spans, scratch, bytes)) = parts(spans, scratch, bytes, part) {
                radix_sort(text, spans, scratch, bytes, depth + 1, key);
            }
        }
        let Some(part) = next else { return };
        let Some(largest) = parts(spans, scratch, bytes, part) else { return };
        (spans, scratch, bytes) = largest;
        depth += 1;
    }
    sort_from(text, spans, depth, key);
}

/// The spans, scratch and byte cache of a partition, cut alike.
type Parts<'a> = (&'a mut [(usize, usize)], &'a mut [(usize, usize)], &'a mut [u16]);

/// The entries `range` of the spans, scratch and byte cache of a partition.
fn parts<'a>(
    spans: &'a mut [(usize, usize)],
    scratch: &'a mut [(usize, usize)],
    bytes: &'a mut [u16],
    range: std::ops::Range<usize>,
) -> Option<Parts<'a>> {
    Some((spans.get_mut(range.clone())?, scratch.get_mut(range.clone())?, bytes.get_mut(range)?))
}

/// How many spans fall in each bucket of a radix pass, and the lowest and
/// highest bucket used (passes and loops over the buckets stay within them).
struct Counts {
    counts: [u32; BUCKETS],
    low: usize,
    high: usize,
}

impl Counts {
    /// Caches each span's bucket at `depth` in `bytes` (0 past its end, else
    /// the byte's key + 1) and counts the spans of each bucket.
    fn of(text: &[u8], spans: &[(usize, usize)], bytes: &mut [u16], depth: usize, key: Key) -> Counts {
        let mut counts = [0u32; BUCKETS];
        let (mut low, mut high) = (BUCKETS, 0);
        for (&span, byte) in spans.iter().zip(bytes.iter_mut()) {
            let bucket = (keyed_byte_at(text, span, depth, key) + 1) as u16;
            *byte = bucket;
            let bucket = usize::from(bucket);
            (low, high) = (low.min(bucket), high.max(bucket));
            if let Some(count) = counts.get_mut(bucket) {
                *count += 1;
            }
        }
        Counts { counts, low, high }
    }

    /// The buckets used, in order, with their counts.
    fn buckets(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let used = self.counts.get(self.low..=self.high).unwrap_or(&[]);
        used.iter().enumerate().map(|(i, &count)| (self.low + i, count as usize))
    }

    /// Writes `spans` into `scratch` ordered by their cached bucket, keeping
    /// the order of spans within a bucket.
    fn distribute(&self, spans: &[(usize, usize)], scratch: &mut [(usize, usize)], bytes: &[u16]) {
        let mut next = [0usize; BUCKETS];
        let mut start = 0;
        for (bucket, count) in self.buckets() {
            if let Some(slot) = next.get_mut(bucket) {
                *slot = start;
            }
            start += count;
        }
        for (&span, &byte) in spans.iter().zip(bytes) {
            if let Some(slot) = next.get_mut(usize::from(byte)) {
                if let Some(target) = scratch.get_mut(*slot) {
                    *target = span;
                }
                *slot += 1;
            }
        }
    }
}

/// Sorts spans that all share their first `depth` bytes. It recurses into the
/// two smaller of the three partitions and loops on the largest, so the
/// recursion is at most log2(n) deep whatever the input.
fn sort_from(text: &[u8], mut spans: &mut [(usize, usize)], mut depth: usize, key: Key) {
    let byte_at = |span, depth| keyed_byte_at(text, span, depth, key);
    loop {
        if spans.len() <= SMALL {
            insertion_sort(text, spans, depth, key);
            return;
        }
        // Skip the bytes every span shares (a pass per byte would read them all).
        depth += shared_prefix(text, spans, depth);
        let last = spans.len() - 1;
        let pivot =
            median_of_three(byte_at(spans[0], depth), byte_at(spans[last / 2], depth), byte_at(spans[last], depth));
        // Dijkstra's three-way partition: [less | equal | greater].
        let (mut less, mut at, mut greater) = (0, 0, spans.len());
        while at < greater {
            match byte_at(spans[at], depth).cmp(&pivot) {
                Ordering::Less => {
                    spans.swap(less, at);
                    less += 1;
                    at += 1;
                }
                Ordering::Greater => {
                    greater -= 1;
                    spans.swap(at, greater);
                }
                Ordering::Equal => at += 1,
            }
        }
        let (below, rest) = spans.split_at_mut(less);
        let (equal, above) = rest.split_at_mut(greater - less);
        // Spans equal at a position past their end are the same bytes: nothing left to sort.
        let equal: &mut [(usize, usize)] = if pivot < 0 { &mut [] } else { equal };
        let mut parts = [(below, depth), (equal, depth + 1), (above, depth)];
        // Smallest first, largest last (three compare-and-swaps).
        for (i, j) in [(0, 1), (1, 2), (0, 1)] {
            if parts[i].0.len() > parts[j].0.len() {
                parts.swap(i, j);
            }
        }
        let [(small, small_depth), (middle, middle_depth), (large, large_depth)] = parts;
        sort_from(text, small, small_depth, key);
        sort_from(text, middle, middle_depth, key);
        spans = large;
        depth = large_depth;
    }
}

/// Sorts a few spans that share their first `depth` bytes.
fn insertion_sort(text: &[u8], spans: &mut [(usize, usize)], depth: usize, key: Key) {
    for i in 1..spans.len() {
        let mut j = i;
        while j > 0 && compare_keyed(tail(text, spans[j - 1], depth), tail(text, spans[j], depth), key).is_gt() {
            spans.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The key of the byte at `depth` in a span, or -1 past its end (a prefix sorts first).
fn keyed_byte_at(text: &[u8], (start, end): (usize, usize), depth: usize, key: Key) -> i16 {
    let at = start + depth;
    if at < end {
        text.get(at).map_or(-1, |&b| i16::from(key.of(b)))
    } else {
        -1
    }
}

/// How many bytes from `depth` on every span has in common with the first.
#[inline(never)]
fn shared_prefix(text: &[u8], spans: &[(usize, usize)], depth: usize) -> usize {
    let Some((&first, rest)) = spans.split_first() else { return 0 };
    let first = tail(text, first, depth);
    let mut shared = first.len();
    for &span in rest {
        shared = common_length(&first[..shared], tail(text, span, depth));
        if shared == 0 {
            break;
        }
    }
    shared
}

/// Length of the common prefix of two byte strings, eight bytes at a time. The
/// words are read little-endian, so the first byte that differs is the lowest set
/// bit's: wasm has no byte swap, and a big-endian read costs a dozen shifts and masks.
fn common_length(a: &[u8], b: &[u8]) -> usize {
    let mut done = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_le_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_le_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        if x != y {
            return done + ((x ^ y).trailing_zeros() / 8) as usize;
        }
        done += 8;
    }
    done + a[done..].iter().zip(&b[done..]).take_while(|(x, y)| x == y).count()
}

fn tail(text: &[u8], (start, end): (usize, usize), depth: usize) -> &[u8] {
    text.get(start + depth..end).unwrap_or(&[])
}

fn median_of_three(a: i16, b: i16, c: i16) -> i16 {
    a.max(b).min(a.min(b).max(c))
}

/// Order of the keyed bytes: the first differing byte (found eight bytes at a
/// time) decides, else the shorter sorts first.
pub(crate) fn compare_keyed(a: &[u8], b: &[u8], key: Key) -> Ordering {
    let same = common_length(a, b);
    match (a.get(same), b.get(same)) {
        (Some(&x), Some(&y)) => key.of(x).cmp(&key.of(y)),
        _ => a.len().cmp(&b.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `words` written into one buffer, each a span of it.
    fn spans_of<W: AsRef<[u8]>>(words: &[W]) -> (Vec<u8>, Vec<(usize, usize)>) {
        let mut text = Vec::new();
        let mut spans = Vec::new();
        for word in words {
            spans.push((text.len(), text.len() + word.as_ref().len()));
            text.extend_from_slice(word.as_ref());
        }
        (text, spans)
    }

    /// A seeded xorshift32 generator.
    fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        }
    }

    /// Sorts `words` through spans of one buffer and compares with the slice sort.
    fn check(words: &[&[u8]]) {
        let (text, mut spans) = spans_of(words);
        sort_spans(&text, &mut spans, Key::CodePoint);
        let sorted: Vec<&[u8]> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        let mut expected = words.to_vec();
        expected.sort();
        assert_eq!(sorted, expected);
    }

    #[test]
    fn utf16_key_sorts_as_utf16_code_units() {
        // Characters around every boundary where the two orders could differ.
        let alphabet = [
            'a',
            '\u{7f}',
            '\u{80}',
            '\u{7ff}',
            '\u{800}',
            '\u{d7ff}',
            '\u{e000}',
            '\u{ff5e}',
            '\u{ffff}',
            '\u{10000}',
            '\u{1f600}',
            '\u{10ffff}',
            ':',
        ];
        let mut next = xorshift(0x2545_f491);
        let words: Vec<String> =
            (0..3000).map(|_| (0..next() % 6).map(|_| alphabet[(next() % 13) as usize]).collect()).collect();
        let (text, mut spans) = spans_of(&words);
        sort_spans(&text, &mut spans, Key::Utf16);
        let sorted: Vec<&str> = spans.iter().map(|&(s, e)| std::str::from_utf8(&text[s..e]).unwrap()).collect();
        let mut expected: Vec<&str> = words.iter().map(String::as_str).collect();
        expected.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        assert_eq!(sorted, expected);
        // The keys are a bijection of byte values.
        let mut keys: Vec<u8> = (0..=255u8).map(utf16_key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), 256);
    }

    #[test]
    fn sorts_shared_prefixes_prefixes_and_duplicates() {
        let owned: Vec<Vec<u8>> = (0..500u32)
            .map(|i| format!("additional_info:display_data:{}:title:{}", i % 37, i % 11).into_bytes())
            .collect();
        let mut words: Vec<&[u8]> = owned.iter().map(Vec::as_slice).collect();
        words.extend([&b""[..], b"a", b"a", b"a:", b"a\0", b"\xff", b"a:b", b"ab"]);
        check(&words);
    }

    #[test]
    fn sorts_pseudo_random_bytes() {
        let mut next = xorshift(0x9e37_79b9);
        let owned: Vec<Vec<u8>> = (0..2000)
            .map(|_| (0..next() % 12).map(|_| [0u8, b'a', b'b', 0xff][(next() % 4) as usize]).collect())
            .collect();
        check(&owned.iter().map(Vec::as_slice).collect::<Vec<_>>());
    }

    #[test]
    fn a_long_shared_prefix_does_not_nest() {
        // 20 entries sharing 100,000 bytes: the equal branch loops instead of recursing.
        let prefix = vec![b'x'; 100_000];
        let owned: Vec<Vec<u8>> = (0..20u8).rev().map(|i| [prefix.as_slice(), &[i]].concat()).collect();
        check(&owned.iter().map(Vec::as_slice).collect::<Vec<_>>());
    }

    /// Sorts `words` under both keys and compares with the standard library's
    /// sort of the same words by their keyed bytes.
    fn check_both_keys<W: AsRef<[u8]>>(words: &[W]) {
        for key in [Key::CodePoint, Key::Utf16] {
            let (text, mut spans) = spans_of(words);
            sort_spans(&text, &mut spans, key);
            let sorted: Vec<&[u8]> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
            let mut expected: Vec<&[u8]> = words.iter().map(AsRef::as_ref).collect();
            expected.sort_by(|a, b| a.iter().map(|&x| key.of(x)).cmp(b.iter().map(|&x| key.of(x))));
            assert_eq!(sorted, expected, "{key:?}");
        }
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn sorts_many_decimal_indices() {
        // The entries of a long array of tiny leaves, in order and shuffled.
        let mut words: Vec<String> = (0..40_000).map(|i| format!("a:{i}:None")).collect();
        check_both_keys(&words);
        let mut next = xorshift(0x1234_5678);
        for i in (1..words.len()).rev() {
            words.swap(i, next() as usize % (i + 1));
        }
        words.extend((0..500).map(|i| format!("a:{i}")));
        check_both_keys(&words);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn sorts_many_random_bytes() {
        // Every byte value, and a small alphabet with the lead bytes the UTF-16 key moves.
        let mut next = xorshift(0x0bad_cafe);
        let any: Vec<Vec<u8>> = (0..30_000).map(|_| (0..next() % 16).map(|_| next() as u8).collect()).collect();
        check_both_keys(&any);
        let alphabet = [0u8, b':', b'a', 0x80, 0xbf, 0xee, 0xef, 0xf0, 0xf4, 0xff];
        let few: Vec<Vec<u8>> =
            (0..30_000).map(|_| (0..next() % 10).map(|_| alphabet[next() as usize % 10]).collect()).collect();
        check_both_keys(&few);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn sorts_many_duplicates() {
        let mut next = xorshift(0x5eed_0001);
        let words: Vec<String> = (0..30_000).map(|_| format!("k:{}:v", next() % 40)).collect();
        check_both_keys(&words);
        // All the same, and all empty.
        check_both_keys(&vec!["same:entry"; 20_000]);
        check_both_keys(&vec![""; 20_000]);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn sorts_many_long_shared_prefixes() {
        // 290 shared bytes, then prefixes of one another and decimal suffixes.
        let prefix = "additional_info:display_data:".repeat(10);
        let mut next = xorshift(0x7777_0003);
        let words: Vec<String> = (0..20_000)
            .map(|i| match next() % 3 {
                0 => format!("{prefix}{i}"),
                1 => format!("{prefix}{}", &prefix[..next() as usize % prefix.len()]),
                _ => format!("{prefix}{}:title:{}", i % 97, next() % 1000),
            })
            .collect();
        check_both_keys(&words);
    }

    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    #[cfg_attr(not(target_arch = "wasm32"), test)]
    fn sorts_many_texts_in_utf16_order() {
        // Valid UTF-8 around every boundary where the orders could differ,
        // against JavaScript's order (UTF-16 code units).
        let alphabet =
            ['a', ':', '\u{7f}', '\u{80}', '\u{7ff}', '\u{800}', '\u{e000}', '\u{ffff}', '\u{10000}', '\u{10ffff}'];
        let mut next = xorshift(0x0ddb_a110);
        let words: Vec<String> =
            (0..20_000).map(|_| (0..next() % 6).map(|_| alphabet[next() as usize % 10]).collect()).collect();
        let (text, mut spans) = spans_of(&words);
        sort_spans(&text, &mut spans, Key::Utf16);
        let sorted: Vec<&[u8]> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        let mut expected: Vec<&str> = words.iter().map(String::as_str).collect();
        expected.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        assert_eq!(sorted, expected.iter().map(|w| w.as_bytes()).collect::<Vec<_>>());
    }
}
