//! `check --shard K/N`: one of N disjoint parts of a corpus, so a CI job matrix can check a
//! corpus bigger than one runner and `report` can put the parts back together.
//!
//! Every shard walks the same paths and sees the same walk; shard K takes the K-th of N
//! contiguous runs of the walk's items (files and walk errors alike, so every item lands in
//! exactly one shard). Contiguous runs, not a hash of the path, because then the shards'
//! results laid end to end in K order are the unsharded run's results in walk order, which is
//! what lets `report` reproduce `check`'s output byte for byte. An NDJSON stream or a bundle
//! is one walk item, so its lines or events are never split across shards.

use super::WalkItem;
use std::fmt;
use std::ops::Range;

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// `K/N` with 1 <= K <= N.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("shard {text:?} is not K/N (e.g. 2/3)"))?;
        let number = |part: &str| part.trim().parse::<usize>().ok();
        match (number(index), number(count)) {
            (Some(index), Some(count)) if count >= 1 && (1..=count).contains(&index) => {
                Ok(Shard { index, count })
            }
            _ => Err(format!(
                "shard {text:?} is not K/N with 1 <= K <= N (e.g. 2/3)"
            )),
        }
    }

    /// The positions of the walk's `items` this shard takes.
    pub fn range(&self, items: usize) -> Range<usize> {
        let bound = |part: usize| -> usize {
            // u128: items * count cannot overflow.
            ((items as u128 * part as u128) / self.count as u128) as usize
        };
        bound(self.index - 1)..bound(self.index)
    }

    /// This shard's items of the walk.
    pub fn select(&self, items: &[WalkItem]) -> Vec<WalkItem> {
        items[self.range(items.len())].to_vec()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        /// The shards of any walk are disjoint, contiguous and cover it in order.
        #[test]
        fn shards_partition_the_walk(items in 0usize..500, count in 1usize..20) {
            let mut next = 0;
            for index in 1..=count {
                let range = Shard { index, count }.range(items);
                prop_assert_eq!(range.start, next);
                prop_assert!(range.end >= range.start);
                // Balanced: no shard takes more than one item above another.
                prop_assert!(range.len() <= items / count + 1);
                next = range.end;
            }
            prop_assert_eq!(next, items);
        }
    }
}
