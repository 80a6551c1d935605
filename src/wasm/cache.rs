//! A small cache, oldest entry dropped first: parsed verifying keys by their
//! PEM, so that verifying callbacks one after another with the same key parses
//! it once. The PEM is the key either as text in wasm memory or as the JS
//! string itself, which is compared in JS (`===`) without being copied in.

/// At most `N` entries, found by comparing their keys.
pub(crate) struct Cache<K, V, const N: usize> {
    entries: Vec<(K, V)>,
}

impl<K, V: Clone, const N: usize> Cache<K, V, N> {
    pub(crate) const fn new() -> Self {
        Cache { entries: Vec::new() }
    }

    /// The value kept for `key`.
    pub(crate) fn get<Q: ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: PartialEq<Q>,
    {
        self.entries.iter().find(|(known, _)| known == key).map(|(_, value)| value.clone())
    }

    /// Keeps `value` for `key`, dropping the oldest entry when full.
    pub(crate) fn insert(&mut self, key: K, value: V) {
        if self.entries.len() >= N {
            self.entries.remove(0);
        }
        self.entries.push((key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_most_recent_entries() {
        let mut cache: Cache<String, u32, 2> = Cache::new();
        assert_eq!(cache.get("a"), None);
        cache.insert("a".into(), 1);
        cache.insert("b".into(), 2);
        assert_eq!((cache.get("a"), cache.get("b")), (Some(1), Some(2)));
        cache.insert("c".into(), 3);
        assert_eq!((cache.get("a"), cache.get("b"), cache.get("c")), (None, Some(2), Some(3)));
    }
}
