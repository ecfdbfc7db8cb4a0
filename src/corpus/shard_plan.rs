//! The shard plan: which parts of the walk shard K of N checks, as a pure function of the walk,
//! the walked files' sizes, K and N, so every shard of a job matrix computes the same plan
//! and the shards' parts, laid end to end in K order, are the whole walk in its order.
//!
//! The walk is laid on one axis of bytes: every item weighs its file's size plus one (a walk
//! error or an empty file still counts), and shard K takes the K-th of N equal runs of that
//! axis. An item goes whole to the shard its first byte falls in, except an NDJSON stream of
//! at least [`SPLIT_BYTES`]: that is cut where shard boundaries fall inside it, and each
//! shard takes the lines whose first byte lies in its piece (`read_piece.rs` reads them: it
//! seeks to the piece and stops at its end). Only streams straddling a boundary are cut, so a
//! plan cuts at most N - 1 of them. A stream under [`SPLIT_BYTES`] stays one item: it checks
//! in about 10 ms, less than what cutting it would balance, and its results stay together.
//!
//! Because sizes decide the plan, the plan's [`ShardPlan::digest`] names them: `check --shard`
//! writes it in its JSON head and `report` refuses shards planned over different sizes (a
//! file that changed between the shards' runs would otherwise lose or repeat lines silently).

use super::{FileFormat, Shard, WalkItem};
use std::path::Path;

/// A stream this large or larger is cut at the shard boundaries inside it (1 MiB: about
/// 1,700 lines of the realistic mix, about 10 ms of `check` on one core).
pub const SPLIT_BYTES: u64 = 1 << 20;

/// The lines of a stream a shard checks: those whose first byte lies in `start..end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamPiece {
    pub start: u64,
    pub end: u64,
    /// The stream's size the plan was made from: read at another size, the piece is an error.
    pub planned_bytes: u64,
}

/// One part of a shard: a walk item (by its position in the walk), whole or a piece of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub item: usize,
    pub piece: Option<StreamPiece>,
}

/// What shard K of N checks, and what the plan was made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardPlan {
    pub parts: Vec<Part>,
    /// SHA-256 (hex) of every walked path with its size: shards that agree on it agree on
    /// the plan.
    pub digest: String,
}

impl ShardPlan {
    /// Plans `shard` over the walk, reading each walked file's size (not its bytes).
    pub(crate) fn of_walk(shard: Shard, items: &[WalkItem]) -> ShardPlan {
        let sizes: Vec<Option<u64>> = items.iter().map(size_of).collect();
        ShardPlan::new(shard, items, &sizes)
    }

    /// Plans `shard` over `items` of the given sizes (`None`: unknown, a walk error).
    pub fn new(shard: Shard, items: &[WalkItem], sizes: &[Option<u64>]) -> ShardPlan {
        ShardPlan {
            parts: parts(shard, items, sizes),
            digest: digest(items, sizes),
        }
    }

    /// Whether the shard's first part continues a stream an earlier shard began.
    pub(crate) fn starts_inside_a_stream(&self) -> bool {
        matches!(self.parts.first(), Some(Part { piece: Some(piece), .. }) if piece.start > 0)
    }
}

fn size_of(item: &WalkItem) -> Option<u64> {
    match item {
        WalkItem::File { path, .. } => std::fs::metadata(path).ok().map(|meta| meta.len()),
        WalkItem::Error(_) => None,
    }
}

fn splittable(item: &WalkItem, size: Option<u64>) -> Option<u64> {
    match (item, size) {
        (
            WalkItem::File {
                format: FileFormat::Ndjson,
                ..
            },
            Some(size),
        ) if size >= SPLIT_BYTES => Some(size),
        _ => None,
    }
}

fn parts(shard: Shard, items: &[WalkItem], sizes: &[Option<u64>]) -> Vec<Part> {
    let weight = |index: usize| u128::from(sizes.get(index).copied().flatten().unwrap_or(0)) + 1;
    let total: u128 = (0..items.len()).map(weight).sum();
    let bound = |part: usize| total * part as u128 / shard.count as u128;
    let (low, high) = (bound(shard.index - 1), bound(shard.index));
    let mut parts = Vec::new();
    let mut start = 0u128;
    for (index, item) in items.iter().enumerate() {
        if start >= high {
            break;
        }
        match splittable(item, sizes.get(index).copied().flatten()) {
            Some(size) => {
                // The stream's bytes lie at start..start + size on the axis; this shard's
                // piece is what of them falls in low..high. Over all shards the pieces tile
                // 0..size, since the bounds climb from 0 to the total.
                let local = |at: u128| (at.saturating_sub(start)).min(u128::from(size)) as u64;
                let (from, to) = (local(low), local(high));
                if from < to {
                    let piece = (from, to) != (0, size);
                    parts.push(Part {
                        item: index,
                        piece: piece.then_some(StreamPiece {
                            start: from,
                            end: to,
                            planned_bytes: size,
                        }),
                    });
                }
            }
            // Every weight is at least one, so every start is below the total and falls in
            // exactly one shard.
            None if (low..high).contains(&start) => parts.push(Part {
                item: index,
                piece: None,
            }),
            None => {}
        }
        start += weight(index);
    }
    parts
}

fn digest(items: &[WalkItem], sizes: &[Option<u64>]) -> String {
    let mut text = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let path: &Path = match item {
            WalkItem::File { path, .. } => path,
            WalkItem::Error(error) => &error.source.path,
        };
        text.extend_from_slice(path.as_os_str().as_encoded_bytes());
        text.push(0);
        match sizes.get(index).copied().flatten() {
            Some(size) => text.extend_from_slice(size.to_string().as_bytes()),
            None => text.push(b'-'),
        }
        text.push(b'\n');
    }
    crate::json::digest_bytes(&text).to_hex()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::path::PathBuf;

    fn file(name: &str) -> WalkItem {
        WalkItem::File {
            path: PathBuf::from(name),
            format: FileFormat::of(Path::new(name)).unwrap_or(FileFormat::Json),
        }
    }

    fn plan(index: usize, count: usize, items: &[WalkItem], sizes: &[Option<u64>]) -> Vec<Part> {
        ShardPlan::new(Shard { index, count }, items, sizes).parts
    }

    #[test]
    fn one_big_stream_is_cut_into_equal_pieces() {
        let items = [file("big.ndjson")];
        let size = 4 * SPLIT_BYTES;
        let pieces: Vec<(u64, u64)> = (1..=4)
            .map(|index| {
                let parts = plan(index, 4, &items, &[Some(size)]);
                assert_eq!(parts.len(), 1);
                let piece = parts[0].piece.unwrap();
                assert_eq!(piece.planned_bytes, size);
                (piece.start, piece.end)
            })
            .collect();
        // The axis is the size plus one, so the cuts sit a quarter of a byte early at most.
        assert_eq!(
            pieces,
            [
                (0, size / 4),
                (size / 4, size / 2),
                (size / 2, 3 * size / 4),
                (3 * size / 4, size)
            ]
        );
    }

    #[test]
    fn a_small_stream_stays_whole_and_a_big_one_in_one_shard_is_read_whole() {
        let items = [file("small.ndjson"), file("a.json"), file("big.ndjson")];
        let small = SPLIT_BYTES - 1;
        // Two shards; the small stream straddles the boundary but is not cut.
        let sizes = [Some(small), Some(10), Some(10)];
        assert_eq!(
            plan(1, 2, &items, &sizes),
            [Part {
                item: 0,
                piece: None
            }]
        );
        assert_eq!(plan(2, 2, &items, &sizes).len(), 2);
        // A big stream that lies inside one shard's run is that shard's whole item.
        let sizes = [Some(10), Some(10), Some(SPLIT_BYTES)];
        assert_eq!(plan(1, 1, &items, &sizes)[2].piece, None);
    }

    #[test]
    fn the_digest_names_the_sizes() {
        let items = [file("a.ndjson"), file("b.json")];
        let one = ShardPlan::new(Shard { index: 1, count: 2 }, &items, &[Some(5), Some(6)]);
        let other = ShardPlan::new(Shard { index: 2, count: 2 }, &items, &[Some(5), Some(6)]);
        let grown = ShardPlan::new(Shard { index: 2, count: 2 }, &items, &[Some(5), Some(7)]);
        assert_eq!(one.digest, other.digest);
        assert_ne!(one.digest, grown.digest);
    }

    proptest! {
        /// Over every K, the parts take every item exactly once, in walk order, except split
        /// streams, whose pieces tile the stream in order.
        #[test]
        fn the_shards_cover_the_walk_once_in_order(
            sizes in proptest::collection::vec(
                prop_oneof![Just(None), (0u64..3000).prop_map(Some),
                    (SPLIT_BYTES..SPLIT_BYTES * 9).prop_map(Some)],
                0..12,
            ),
            streams in proptest::collection::vec(any::<bool>(), 12),
            count in 1usize..9,
        ) {
            let items: Vec<WalkItem> = (0..sizes.len())
                .map(|index| file(&format!("{index}.{}", if streams[index] { "ndjson" } else { "json" })))
                .collect();
            let all: Vec<Part> = (1..=count).flat_map(|index| plan(index, count, &items, &sizes)).collect();
            let mut next_item = 0;
            let mut next_byte = 0;
            for part in all {
                match part.piece {
                    None => {
                        prop_assert_eq!(part.item, next_item);
                        prop_assert_eq!(next_byte, 0);
                        next_item += 1;
                    }
                    Some(piece) => {
                        prop_assert_eq!(part.item, next_item);
                        prop_assert_eq!(piece.start, next_byte);
                        prop_assert!(piece.end > piece.start);
                        next_byte = piece.end;
                        if piece.end == piece.planned_bytes {
                            next_item += 1;
                            next_byte = 0;
                        }
                    }
                }
            }
            prop_assert_eq!(next_item, items.len());
        }
    }
}
