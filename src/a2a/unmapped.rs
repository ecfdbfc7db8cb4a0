//! A packet's unmapped top-level keys, held as one text and where each key ends in it. Every
//! conversion of a packet keeps its typed fields, the inspector's detail two of them (one a
//! mode), and a packet may carry hundreds of thousands of keys: as a `String` each they
//! cost 24 bytes and an allocation a key (200k keys: about 12 MB a conversion), as one text
//! their bytes and one offset.

/// Unmapped top-level keys, distinct, in byte order.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct UnmappedKeys {
    /// The keys one after another.
    text: String,
    /// Where each key ends in `text` (the next one starts there).
    ends: Vec<usize>,
}

impl UnmappedKeys {
    /// The keys of `keys`, sorted into byte order and each kept once.
    pub fn of<S: AsRef<str> + Ord>(mut keys: Vec<S>) -> UnmappedKeys {
        // Sorting then deduplicating keeps hostile packets with many keys at n log n.
        keys.sort_unstable();
        keys.dedup();
        let mut unmapped = UnmappedKeys {
            text: String::with_capacity(keys.iter().map(|key| key.as_ref().len()).sum()),
            ends: Vec::with_capacity(keys.len()),
        };
        for key in &keys {
            unmapped.text.push_str(key.as_ref());
            unmapped.ends.push(unmapped.text.len());
        }
        unmapped
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The keys, in byte order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        (0..self.ends.len()).map(|index| self.key(index))
    }

    /// Whether `key` is one of them.
    pub fn contains(&self, key: &str) -> bool {
        self.position(key).is_some()
    }

    /// Where `key` is among them, in [`UnmappedKeys::iter`]'s order (a binary search: they
    /// are sorted).
    pub fn position(&self, key: &str) -> Option<usize> {
        let mut low = 0;
        let mut high = self.ends.len();
        while low < high {
            let middle = low + (high - low) / 2;
            match self.key(middle).cmp(key) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Some(middle),
            }
        }
        None
    }

    fn key(&self, index: usize) -> &str {
        let start = match index {
            0 => 0,
            _ => self.ends[index - 1],
        };
        // Every end was the text's length after a whole key was pushed: a char boundary.
        &self.text[start..self.ends[index]]
    }
}

impl std::fmt::Debug for UnmappedKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_sorted_kept_once_and_found() {
        let keys = UnmappedKeys::of(vec!["zeta", "b", "é", "", "b", "a\u{0}"]);
        assert_eq!(
            keys.iter().collect::<Vec<_>>(),
            vec!["", "a\u{0}", "b", "zeta", "é"]
        );
        assert_eq!(keys.len(), 5);
        for (index, key) in ["", "a\u{0}", "b", "zeta", "é"].into_iter().enumerate() {
            assert_eq!(keys.position(key), Some(index), "{key:?}");
        }
        for key in ["a", "c", "zet", "zetaa", "e"] {
            assert!(!keys.contains(key), "{key:?}");
        }
        assert!(UnmappedKeys::default().is_empty());
        assert!(!UnmappedKeys::default().contains(""));
        assert_eq!(format!("{keys:?}"), r#"["", "a\0", "b", "zeta", "é"]"#);
    }
}
