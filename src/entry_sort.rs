//! Byte-order sorting of canonical entries (UTF-8 byte order is code point
//! order). Entries share long path prefixes (`additional_info:display_data:17:…`),
//! which a comparison sort reads again on every comparison; a three-way radix
//! quicksort (Bentley and Sedgewick) reads each shared byte about once.

use std::cmp::Ordering;

/// Below this many entries a comparison sort is cheaper than another partition.
const SMALL: usize = 6;
/// Nested partitions of unequal bytes past this fall back to a comparison sort,
/// so the recursion stays shallow whatever the input.
const MAX_NESTING: usize = 48;

/// Sorts `spans`, byte ranges of `text`, by the bytes they cover.
pub(crate) fn sort_spans(text: &[u8], spans: &mut [(usize, usize)]) {
    sort_from(text, spans, 0, 0);
}

/// Sorts spans that all share their first `depth` bytes.
fn sort_from(text: &[u8], mut spans: &mut [(usize, usize)], mut depth: usize, nesting: usize) {
    loop {
        if spans.len() <= SMALL || nesting > MAX_NESTING {
            spans.sort_unstable_by(|a, b| compare_bytes(tail(text, *a, depth), tail(text, *b, depth)));
            return;
        }
        // Skip the bytes every span shares (a pass per byte would read them all).
        depth += shared_prefix(text, spans, depth);
        let last = spans.len() - 1;
        let pivot = median_of_three(
            byte_at(text, spans[0], depth),
            byte_at(text, spans[last / 2], depth),
            byte_at(text, spans[last], depth),
        );
        // Dijkstra's three-way partition: [less | equal | greater].
        let (mut less, mut at, mut greater) = (0, 0, spans.len());
        while at < greater {
            match byte_at(text, spans[at], depth).cmp(&pivot) {
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
        sort_from(text, below, depth, nesting + 1);
        sort_from(text, above, depth, nesting + 1);
        if pivot < 0 {
            // Every span in `equal` ends here: they are the same bytes.
            return;
        }
        spans = equal;
        depth += 1;
    }
}

/// The byte at `depth` in a span, or -1 past its end (a prefix sorts first).
fn byte_at(text: &[u8], (start, end): (usize, usize), depth: usize) -> i16 {
    let at = start + depth;
    if at < end {
        text.get(at).map_or(-1, |&b| i16::from(b))
    } else {
        -1
    }
}

/// How many bytes from `depth` on every span has in common with the first.
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

/// Length of the common prefix of two byte strings, eight bytes at a time.
fn common_length(a: &[u8], b: &[u8]) -> usize {
    let mut done = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let x = u64::from_be_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_be_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        if x != y {
            return done + ((x ^ y).leading_zeros() / 8) as usize;
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

/// Byte order, eight bytes at a time (wasm's `memcmp` goes byte by byte).
pub(crate) fn compare_bytes(a: &[u8], b: &[u8]) -> Ordering {
    let mut a_words = a.chunks_exact(8);
    let mut b_words = b.chunks_exact(8);
    for (x, y) in a_words.by_ref().zip(b_words.by_ref()) {
        let x = u64::from_be_bytes([x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]]);
        let y = u64::from_be_bytes([y[0], y[1], y[2], y[3], y[4], y[5], y[6], y[7]]);
        if x != y {
            return x.cmp(&y);
        }
    }
    let done = (a.len().min(b.len()) / 8) * 8;
    a[done..].cmp(&b[done..])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorts `words` through spans of one buffer and compares with the slice sort.
    fn check(words: &[&[u8]]) {
        let mut text = Vec::new();
        let mut spans = Vec::new();
        for word in words {
            spans.push((text.len(), text.len() + word.len()));
            text.extend_from_slice(word);
        }
        sort_spans(&text, &mut spans);
        let sorted: Vec<&[u8]> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        let mut expected = words.to_vec();
        expected.sort();
        assert_eq!(sorted, expected);
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
        let mut seed = 0x9e37_79b9_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
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
}
