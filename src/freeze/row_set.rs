//! A set of K1-A coverage rows as a bit set: what a summary of a million packets keeps of
//! the rows each matched.

use super::table::COVERAGE_ROW_IDS;

/// A set of K1-A coverage rows (`COVERAGE_ROW_IDS`), as a bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowSet(pub(super) u32);

impl RowSet {
    /// The bit of a row id. A `match` rather than a search of `COVERAGE_ROW_IDS`: summaries
    /// and coverage matrices ask this millions of times (the test below keeps the two in step).
    fn bit(id: &str) -> Option<u32> {
        let index = match id {
            "P" => 0,
            "TR" => 1,
            "MR" => 2,
            "SYN" => 3,
            "N1" => 4,
            "N2" => 5,
            "N3" => 6,
            "N4" => 7,
            "N5" => 8,
            "N6" => 9,
            "N7" => 10,
            "X1" => 11,
            "X2" => 12,
            "X3" => 13,
            "X4" => 14,
            "X5" => 15,
            "X6" => 16,
            "X7" => 17,
            "X8" => 18,
            "X9" => 19,
            "X10" => 20,
            _ => return None,
        };
        Some(1 << index)
    }

    pub fn insert(&mut self, id: &str) {
        if let Some(bit) = RowSet::bit(id) {
            self.0 |= bit;
        }
    }

    pub fn contains(&self, id: &str) -> bool {
        RowSet::bit(id).is_some_and(|bit| self.0 & bit != 0)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// Positions in `COVERAGE_ROW_IDS` of the rows in the set, in table order.
    pub fn indices(self) -> impl Iterator<Item = usize> {
        (0..COVERAGE_ROW_IDS.len()).filter(move |index| self.0 & (1 << index) != 0)
    }

    /// The ids in table order.
    pub fn ids(self) -> impl Iterator<Item = &'static str> {
        COVERAGE_ROW_IDS
            .into_iter()
            .enumerate()
            .filter(move |(index, _)| self.0 & (1 << index) != 0)
            .map(|(_, id)| id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_bits_follow_the_coverage_ids() {
        for (index, id) in COVERAGE_ROW_IDS.into_iter().enumerate() {
            assert_eq!(RowSet::bit(id), Some(1 << index), "{id}");
        }
        assert_eq!(RowSet::bit("H1"), None);
    }
}
