//! The two rules of JSON text every reader shares: the number grammar and the
//! duplicate-key check. The one-pass reader (`reader`) and serde_json's path
//! (`full`) both call these, so they cannot disagree on what a number is or
//! on when an object repeats a key.

use std::collections::BTreeSet;

/// The length of the number token at the start of `bytes`, by JSON's grammar
/// `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`, or `None` when none starts there.
/// What follows the token is not looked at.
pub(crate) fn number_len(bytes: &[u8]) -> Option<usize> {
    let digits = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        i
    };
    let mut i = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(i)? {
        b'0' => i += 1,
        b'1'..=b'9' => i = digits(i),
        _ => return None,
    }
    if bytes.get(i) == Some(&b'.') {
        let end = digits(i + 1);
        if end == i + 1 {
            return None;
        }
        i = end;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let end = digits(i);
        if end == i {
            return None;
        }
        i = end;
    }
    Some(i)
}

/// True for text that is exactly one JSON number.
pub(crate) fn is_json_number(text: &str) -> bool {
    number_len(text.as_bytes()) == Some(text.len())
}

/// Members an object's duplicate check scans before it switches to a set.
pub(crate) const SCAN_MEMBERS: usize = 16;

/// Whether no key repeats in `keys`, one object's keys read in full: the
/// one-pass reader's check, which gives up on any repeat. A small object
/// (nearly all) is compared pairwise; past [`SCAN_MEMBERS`], sorted, so an
/// object of 100,000 members costs n·log n comparisons, not n², and no hash an
/// attacker could collide.
pub(crate) fn all_unique<K: Ord>(keys: &mut [K]) -> bool {
    if keys.len() <= SCAN_MEMBERS {
        return keys.iter().enumerate().all(|(i, key)| !keys[..i].contains(key));
    }
    keys.sort_unstable();
    keys.windows(2).all(|pair| pair[0] != pair[1])
}

/// The same check fed one key at a time, for serde_json's path, which stops at
/// the first repeat to name its path: the earlier keys are scanned up to
/// [`SCAN_MEMBERS`], then kept in an ordered set (n·log n again).
pub(crate) struct KeyCheck<K> {
    set: Option<BTreeSet<K>>,
}

impl<K: Ord + Clone> KeyCheck<K> {
    pub(crate) const fn new() -> Self {
        KeyCheck { set: None }
    }

    /// Whether `key` repeats one of `earlier`: the object's keys before it, each
    /// of which was given to this check in turn.
    pub(crate) fn repeats(&mut self, earlier: &[K], key: &K) -> bool {
        if let Some(set) = &mut self.set {
            return !set.insert(key.clone());
        }
        let repeated = earlier.contains(key);
        if earlier.len() >= SCAN_MEMBERS {
            self.set = Some(earlier.iter().chain([key]).cloned().collect());
        }
        repeated
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_token_ends_where_the_grammar_does() {
        assert_eq!(number_len(b"12,"), Some(2));
        assert_eq!(number_len(b"01"), Some(1));
        assert_eq!(number_len(b"1.5e3}"), Some(5));
        assert_eq!(number_len(b"1.x"), None);
    }

    #[test]
    fn both_forms_of_the_check_agree() {
        for members in [0, 1, 2, SCAN_MEMBERS, SCAN_MEMBERS + 1, 3 * SCAN_MEMBERS] {
            let keys: Vec<String> = (0..members).map(|i| format!("k{i}")).collect();
            assert!(all_unique(&mut keys.clone()), "{members} members");
            for repeated in (0..members).step_by(members / 3 + 1) {
                let mut with_repeat = keys.clone();
                with_repeat.push(keys[repeated].clone());
                assert!(!all_unique(&mut with_repeat.clone()), "{members} members, k{repeated}");
                let mut check = KeyCheck::new();
                let first = (0..with_repeat.len()).find(|&i| check.repeats(&with_repeat[..i], &with_repeat[i]));
                assert_eq!(first, Some(members), "{members} members, k{repeated}");
            }
        }
    }

    #[test]
    fn repeats_are_found_before_and_after_the_switch_to_a_set() {
        for members in [1, 2, SCAN_MEMBERS, SCAN_MEMBERS + 1, 3 * SCAN_MEMBERS] {
            let keys: Vec<String> = (0..members).map(|i| format!("k{i}")).collect();
            for repeated in [0, members / 2, members - 1] {
                let mut check = KeyCheck::new();
                for (i, key) in keys.iter().enumerate() {
                    assert!(!check.repeats(&keys[..i], key), "{members} members");
                }
                assert!(check.repeats(&keys, &keys[repeated].clone()), "{members} members, k{repeated}");
            }
            let mut check = KeyCheck::new();
            for (i, key) in keys.iter().enumerate() {
                assert!(!check.repeats(&keys[..i], key));
            }
            assert!(!check.repeats(&keys, &"new".to_owned()));
        }
    }
}
