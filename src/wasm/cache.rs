//! A small cache keyed by text, oldest entry dropped first: parsed verifying
//! keys by their PEM, so that verifying callbacks one after another with the
//! same key parses it once.

/// At most `N` entries, found by comparing the text.
pub(crate) struct TextCache<V, const N: usize> {
    entries: Vec<(String, V)>,
}

impl<V: Clone, const N: usize> TextCache<V, N> {
    pub(crate) const fn new() -> Self {
        TextCache { entries: Vec::new() }
    }

    /// The value kept for `text`.
    pub(crate) fn get(&self, text: &str) -> Option<V> {
        self.entries.iter().find(|(known, _)| known == text).map(|(_, value)| value.clone())
    }

    /// Keeps `value` for `text`, dropping the oldest entry when full.
    pub(crate) fn insert(&mut self, text: String, value: V) {
        if self.entries.len() >= N {
            self.entries.remove(0);
        }
        self.entries.push((text, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_recent_entries() {
        let mut cache: TextCache<u32, 2> = TextCache::new();
        assert_eq!(cache.get("a"), None);
        cache.insert("a".into(), 1);
        cache.insert("b".into(), 2);
        assert_eq!((cache.get("a"), cache.get("b")), (Some(1), Some(2)));
        cache.insert("c".into(), 3);
        assert_eq!((cache.get("a"), cache.get("b"), cache.get("c")), (None, Some(2), Some(3)));
    }
}
