//! `check --shard K/N`: one of N disjoint parts of a corpus, so a CI job matrix can check a
//! corpus bigger than one runner and `report` can put the parts back together.
//!
//! Every shard walks the same paths and sees the same walk; which part of it shard K takes is
//! the shard plan's (`shard_plan.rs`): the walk cut into N contiguous runs by bytes, a big
//! NDJSON stream cut by line where a boundary falls inside it. Contiguous runs, not a hash of
//! the path, because then the shards' results laid end to end in K order are the unsharded
//! run's results in walk order, which is what lets `report` reproduce `check`'s output byte
//! for byte.

use std::fmt;

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
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_k_of_n() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
