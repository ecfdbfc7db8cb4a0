//! Pairing the packets of two sides. Directories pair by relative path (NDJSON lines by path
//! and line). Bundles and streams pair by their sequence: a diff (Myers, via `similar`) over
//! each record's identity-and-content key pairs what is the same in both runs; inside what is
//! left, a diff over the identity alone (type, subject, task/message/artifact ids) pairs what
//! changed; inside what is still left, a diff over type and subject pairs packets whose ids
//! changed; inside what is still left (a gap between two paired packets), a diff over the type
//! alone pairs packets of the same type in order, as a line diff shows a replaced line as a
//! change: a packet whose task id (and with it its subject) changed is one change, with its
//! state and flags. Only a gap's surplus is added or removed. Myers keeps memory linear; a
//! deadline bounds its time on inputs with few common runs (it then settles for a longer edit
//! script).

use super::record::{Record, NO_TYPE};
use super::side::Side;
use serde::Serialize;
use similar::{capture_diff_deadline, Algorithm, DiffOp, DiffTag};
use std::ops::Range;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    Removed,
    Added,
    Changed,
    Unchanged,
}

impl ChangeKind {
    pub const ALL: [ChangeKind; 4] = [
        ChangeKind::Changed,
        ChangeKind::Added,
        ChangeKind::Removed,
        ChangeKind::Unchanged,
    ];

    pub fn key(self) -> &'static str {
        match self {
            ChangeKind::Removed => "removed",
            ChangeKind::Added => "added",
            ChangeKind::Changed => "changed",
            ChangeKind::Unchanged => "unchanged",
        }
    }
}

/// Two paired records (indices into each side's records), or one alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub change: ChangeKind,
    pub base: Option<u32>,
    pub candidate: Option<u32>,
}

impl Pair {
    fn of(base: Option<usize>, candidate: Option<usize>, sides: (&[Record], &[Record])) -> Pair {
        let change = match (base, candidate) {
            (Some(b), Some(c)) if sides.0[b].full == sides.1[c].full => ChangeKind::Unchanged,
            (Some(_), Some(_)) => ChangeKind::Changed,
            (Some(_), None) => ChangeKind::Removed,
            _ => ChangeKind::Added,
        };
        Pair {
            change,
            base: base.map(|index| index as u32),
            candidate: candidate.map(|index| index as u32),
        }
    }
}

/// How long one diff may search for a shortest edit script.
const DEADLINE: Duration = Duration::from_secs(5);

/// Pairs two sequences of records.
pub fn align_sequences(base: &[Record], candidate: &[Record]) -> Vec<Pair> {
    let mut pairs = Vec::with_capacity(base.len().max(candidate.len()));
    align_level(
        (base, candidate),
        0..base.len(),
        0..candidate.len(),
        0,
        &mut pairs,
    );
    pairs
}

/// The first level's diff of two sequences, over each packet's full key alone: what `diff`
/// holds of a side until it knows which packets are in a gap (see [`pair_gaps`]).
pub fn full_key_ops(base: &[u64], candidate: &[u64]) -> Vec<DiffOp> {
    capture_diff_deadline(
        Algorithm::Myers,
        base,
        0..base.len(),
        candidate,
        0..candidate.len(),
        Some(Instant::now() + DEADLINE),
    )
}

/// The packets of each side that [`full_key_ops`] left in a gap (not in an equal run), as
/// ranges of their indices in the side's sequence, in order.
pub fn gap_ranges(ops: &[DiffOp]) -> (Vec<Range<usize>>, Vec<Range<usize>>) {
    let (mut base, mut candidate) = (Vec::new(), Vec::new());
    for op in ops {
        let (tag, old, new) = op.as_tag_tuple();
        if tag != DiffTag::Equal {
            base.extend(Some(old).filter(|range| !range.is_empty()));
            candidate.extend(Some(new).filter(|range| !range.is_empty()));
        }
    }
    (base, candidate)
}

/// The rest of [`align_sequences`] after [`full_key_ops`], given each side's records of the
/// packets in its gaps alone (those of [`gap_ranges`], in order): the pairs that are not
/// unchanged (indices into those records) and how many are. The same pairs as the whole
/// alignment, which runs the same levels over the same gaps.
pub fn pair_gaps(ops: &[DiffOp], gaps: (&[Record], &[Record])) -> (Vec<Pair>, usize) {
    let mut pairs = Vec::new();
    let mut unchanged = 0;
    let (mut old_at, mut new_at) = (0, 0);
    for op in ops {
        let (tag, old, new) = op.as_tag_tuple();
        if tag == DiffTag::Equal {
            unchanged += old.len();
            continue;
        }
        let old = old_at..old_at + old.len();
        let new = new_at..new_at + new.len();
        (old_at, new_at) = (old.end, new.end);
        gap_pairs(gaps, tag, old, new, 0, &mut pairs);
    }
    // A gap's later levels may pair two equal packets the first left apart.
    let before = pairs.len();
    pairs.retain(|pair| pair.change != ChangeKind::Unchanged);
    let unchanged = unchanged + before - pairs.len();
    (pairs, unchanged)
}

type Key = fn(&Record) -> u64;
const LEVELS: [Key; 4] = [
    |record| record.full,
    |record| record.identity,
    |record| u64::from(record.loose),
    |record| u64::from(record.event_type),
];

/// Whether two records a level's diff found equal may pair: a type that did not fit the type
/// table (`NO_TYPE` on both sides) says nothing about the packets.
fn may_pair(level: usize, base: &Record, candidate: &Record) -> bool {
    level + 1 < LEVELS.len() || base.event_type != NO_TYPE && candidate.event_type != NO_TYPE
}

fn align_level(
    sides: (&[Record], &[Record]),
    old: Range<usize>,
    new: Range<usize>,
    level: usize,
    pairs: &mut Vec<Pair>,
) {
    let key = LEVELS[level];
    let old_keys: Vec<u64> = sides.0[old.clone()].iter().map(key).collect();
    let new_keys: Vec<u64> = sides.1[new.clone()].iter().map(key).collect();
    let ops = capture_diff_deadline(
        Algorithm::Myers,
        &old_keys,
        0..old_keys.len(),
        &new_keys,
        0..new_keys.len(),
        Some(Instant::now() + DEADLINE),
    );
    drop((old_keys, new_keys));
    for op in ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        let old_range = old.start + old_range.start..old.start + old_range.end;
        let new_range = new.start + new_range.start..new.start + new_range.end;
        gap_pairs(sides, tag, old_range, new_range, level, pairs);
    }
}

/// The pairs of one op of a level's diff: an equal run paired, a replaced run aligned by the
/// next level, the rest added or removed.
fn gap_pairs(
    sides: (&[Record], &[Record]),
    tag: DiffTag,
    old: Range<usize>,
    new: Range<usize>,
    level: usize,
    pairs: &mut Vec<Pair>,
) {
    match tag {
        DiffTag::Equal => {
            for (b, c) in old.zip(new) {
                if may_pair(level, &sides.0[b], &sides.1[c]) {
                    pairs.push(Pair::of(Some(b), Some(c), sides));
                } else {
                    pairs.push(Pair::of(Some(b), None, sides));
                    pairs.push(Pair::of(None, Some(c), sides));
                }
            }
        }
        DiffTag::Replace if level + 1 < LEVELS.len() => {
            align_level(sides, old, new, level + 1, pairs)
        }
        _ => {
            pairs.extend(old.map(|b| Pair::of(Some(b), None, sides)));
            pairs.extend(new.map(|c| Pair::of(None, Some(c), sides)));
        }
    }
}

/// Pairs two directories by relative path and line, in path order.
pub fn align_paths(base: &Side, candidate: &Side) -> Vec<Pair> {
    let order = |side: &Side| {
        let mut order: Vec<u32> = (0..side.records.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&side.records[a as usize], &side.records[b as usize]);
            side.relative(a.file)
                .cmp(side.relative(b.file))
                .then(a.line.cmp(&b.line))
        });
        order
    };
    let (old, new) = (order(base), order(candidate));
    let sides = (base.records.as_slice(), candidate.records.as_slice());
    let mut pairs = Vec::with_capacity(old.len().max(new.len()));
    let (mut i, mut j) = (0, 0);
    while i < old.len() || j < new.len() {
        let ordering = match (old.get(i), new.get(j)) {
            (Some(&b), Some(&c)) => {
                let (rb, rc) = (&sides.0[b as usize], &sides.1[c as usize]);
                base.relative(rb.file)
                    .cmp(candidate.relative(rc.file))
                    .then(rb.line.cmp(&rc.line))
            }
            (Some(_), None) => std::cmp::Ordering::Less,
            _ => std::cmp::Ordering::Greater,
        };
        match ordering {
            std::cmp::Ordering::Equal => {
                pairs.push(Pair::of(
                    Some(old[i] as usize),
                    Some(new[j] as usize),
                    sides,
                ));
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => {
                pairs.push(Pair::of(Some(old[i] as usize), None, sides));
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                pairs.push(Pair::of(None, Some(new[j] as usize), sides));
                j += 1;
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::PacketKind;

    fn record(identity: u64, content: u64) -> Record {
        typed(identity, content, 0)
    }

    fn typed(identity: u64, content: u64, event_type: u16) -> Record {
        Record {
            file: 0,
            line: 0,
            offset: 0,
            kind: PacketKind::EvidenceEvent,
            state: None,
            full: identity * 1000 + content,
            identity,
            loose: (identity / 10) as u32,
            event_type,
        }
    }

    fn kinds(pairs: &[Pair]) -> Vec<(&'static str, Option<u32>, Option<u32>)> {
        pairs
            .iter()
            .map(|pair| (pair.change.key(), pair.base, pair.candidate))
            .collect()
    }

    #[test]
    fn sequences_pair_by_identity_then_content() {
        let base = [record(10, 0), record(20, 0), record(30, 0), record(40, 0)];
        // 20 dropped, 30's content changed, 50 added, 41 is 40 with other ids (same loose key).
        let candidate = [record(10, 0), record(30, 1), record(50, 0), record(41, 0)];
        assert_eq!(
            kinds(&align_sequences(&base, &candidate)),
            vec![
                ("unchanged", Some(0), Some(0)),
                ("removed", Some(1), None),
                ("changed", Some(2), Some(1)),
                ("added", None, Some(2)),
                ("changed", Some(3), Some(3)),
            ]
        );
    }

    #[test]
    fn what_is_left_in_a_gap_pairs_by_type_and_only_the_surplus_is_added_or_removed() {
        // 1..4 anchor the gaps; 20 -> 70 and 30 -> 80 share nothing but their types (0 and 1),
        // 60 (type 2) has no counterpart of its type: removed, as 90 (type 3) is added.
        let base = [
            typed(1, 0, 5),
            typed(20, 0, 0),
            typed(30, 0, 1),
            typed(60, 0, 2),
            typed(4, 0, 5),
        ];
        let candidate = [
            typed(1, 0, 5),
            typed(70, 0, 0),
            typed(90, 0, 3),
            typed(80, 0, 1),
            typed(4, 0, 5),
        ];
        assert_eq!(
            kinds(&align_sequences(&base, &candidate)),
            vec![
                ("unchanged", Some(0), Some(0)),
                ("changed", Some(1), Some(1)),
                ("added", None, Some(2)),
                ("changed", Some(2), Some(3)),
                ("removed", Some(3), None),
                ("unchanged", Some(4), Some(4)),
            ]
        );
        // A type past the type table's numbers pairs with nothing, not with another such.
        let (base, candidate) = ([typed(20, 0, NO_TYPE)], [typed(70, 0, NO_TYPE)]);
        assert_eq!(
            kinds(&align_sequences(&base, &candidate)),
            vec![("removed", Some(0), None), ("added", None, Some(0))]
        );
    }

    #[test]
    fn a_million_events_with_a_few_edits_align_in_linear_memory() {
        let base: Vec<Record> = (0..1_000_000).map(|n| record(n * 10, 0)).collect();
        let mut candidate = base.clone();
        candidate.remove(500_000);
        candidate[10] = record(100, 7);
        candidate.insert(900_000, record(5, 5));
        let pairs = align_sequences(&base, &candidate);
        let count = |kind: ChangeKind| pairs.iter().filter(|pair| pair.change == kind).count();
        assert_eq!(count(ChangeKind::Removed), 1);
        assert_eq!(count(ChangeKind::Added), 1);
        assert_eq!(count(ChangeKind::Changed), 1);
        assert_eq!(count(ChangeKind::Unchanged), 999_998);
    }

    proptest::proptest! {
        /// Every record of each side is in exactly one pair, in its side's order; a pair is
        /// unchanged exactly when its full keys are equal; a side against itself is all
        /// unchanged.
        #[test]
        fn pairs_cover_both_sides_in_order(
            base in proptest::collection::vec((0u64..6, 0u64..3), 0..40),
            candidate in proptest::collection::vec((0u64..6, 0u64..3), 0..40),
        ) {
            let base: Vec<Record> = base.into_iter().map(|(i, c)| record(i, c)).collect();
            let candidate: Vec<Record> = candidate.into_iter().map(|(i, c)| record(i, c)).collect();
            let pairs = align_sequences(&base, &candidate);
            let olds: Vec<u32> = pairs.iter().filter_map(|pair| pair.base).collect();
            let news: Vec<u32> = pairs.iter().filter_map(|pair| pair.candidate).collect();
            proptest::prop_assert_eq!(olds, (0..base.len() as u32).collect::<Vec<_>>());
            proptest::prop_assert_eq!(news, (0..candidate.len() as u32).collect::<Vec<_>>());
            for pair in &pairs {
                if let (Some(b), Some(c)) = (pair.base, pair.candidate) {
                    let same = base[b as usize].full == candidate[c as usize].full;
                    proptest::prop_assert_eq!(pair.change == ChangeKind::Unchanged, same);
                }
            }
            let itself = align_sequences(&base, &base);
            proptest::prop_assert!(itself.iter().all(|pair| pair.change == ChangeKind::Unchanged));
        }

        /// The pairs made from the full keys' gaps alone (`diff`'s way: only the packets in a
        /// gap have records) are the whole alignment's pairs that are not unchanged, packet
        /// for packet, and the rest is its count of unchanged pairs: a random run against
        /// itself with random edits (a packet dropped, added, its content or ids changed,
        /// replaced by another of its type), repeated packets included.
        #[test]
        fn pairing_the_gaps_alone_is_the_whole_alignment(
            run in proptest::collection::vec((0u64..12, 0u64..3, 0u16..4), 0..80),
            edits in proptest::collection::vec(
                (0u8..5, proptest::prelude::any::<proptest::sample::Index>(), 0u64..40, 0u16..5),
                0..8,
            ),
        ) {
            let base: Vec<Record> = run.into_iter().map(|(i, c, t)| typed(i, c, t)).collect();
            let mut candidate = base.clone();
            for (edit, at, value, event_type) in edits {
                let at = at.index(candidate.len() + 1);
                match edit {
                    0 if at < candidate.len() => drop(candidate.remove(at)),
                    1 => candidate.insert(at, typed(value, value % 3, event_type)),
                    2 if at < candidate.len() => candidate[at].full += 1,
                    3 if at < candidate.len() => {
                        candidate[at] = typed(candidate[at].identity + value, 0, event_type)
                    }
                    4 if at < candidate.len() => {
                        candidate[at] = typed(5_000 + value, 0, candidate[at].event_type)
                    }
                    _ => {}
                }
            }
            let whole = align_sequences(&base, &candidate);
            let full = |records: &[Record]| records.iter().map(|record| record.full).collect::<Vec<_>>();
            let ops = full_key_ops(&full(&base), &full(&candidate));
            let (base_gaps, candidate_gaps) = gap_ranges(&ops);
            // The sequence index of each record in a gap, in order.
            let indices = |gaps: &[Range<usize>]| gaps.iter().cloned().flatten().collect::<Vec<_>>();
            let (base_at, candidate_at) = (indices(&base_gaps), indices(&candidate_gaps));
            let kept = |records: &[Record], at: &[usize]| at.iter().map(|&i| records[i]).collect::<Vec<_>>();
            let (base_kept, candidate_kept) = (kept(&base, &base_at), kept(&candidate, &candidate_at));
            let (pairs, unchanged) = pair_gaps(&ops, (&base_kept, &candidate_kept));
            let back = |at: &[usize], index: Option<u32>| index.map(|index| at[index as usize] as u32);
            let streamed: Vec<Pair> = pairs
                .iter()
                .map(|pair| Pair {
                    change: pair.change,
                    base: back(&base_at, pair.base),
                    candidate: back(&candidate_at, pair.candidate),
                })
                .collect();
            let changed: Vec<Pair> = whole
                .iter()
                .copied()
                .filter(|pair| pair.change != ChangeKind::Unchanged)
                .collect();
            proptest::prop_assert_eq!(streamed, changed);
            let whole_unchanged = whole.iter().filter(|pair| pair.change == ChangeKind::Unchanged).count();
            proptest::prop_assert_eq!(unchanged, whole_unchanged);
        }

        /// A run with one packet replaced by another of its type (other ids, subject and
        /// content): exactly one change, at its position, and nothing added or removed.
        #[test]
        fn one_replaced_packet_is_one_change(
            run in proptest::collection::vec((0u64..8, 0u64..3, 0u16..4), 1..60),
            at in proptest::prelude::any::<proptest::sample::Index>(),
            content in 0u64..3,
        ) {
            let base: Vec<Record> = run.into_iter().map(|(i, c, t)| typed(i, c, t)).collect();
            let at = at.index(base.len());
            let mut candidate = base.clone();
            candidate[at] = typed(10_000, content, base[at].event_type);
            let pairs = align_sequences(&base, &candidate);
            let count = |kind: ChangeKind| pairs.iter().filter(|pair| pair.change == kind).count();
            proptest::prop_assert_eq!(count(ChangeKind::Added) + count(ChangeKind::Removed), 0);
            proptest::prop_assert_eq!(count(ChangeKind::Changed), 1);
            let changed = pairs.iter().find(|pair| pair.change == ChangeKind::Changed);
            proptest::prop_assert_eq!(
                changed.map(|pair| (pair.base, pair.candidate)),
                Some((Some(at as u32), Some(at as u32)))
            );
        }
    }
}
