//! The loaded packets, in fixed-size chunks behind `Arc`s, so that a job off the UI thread
//! (building the list for a filter or a load) reads the very packets the state holds without
//! copying them: a snapshot costs one `Arc` clone per 4,096 packets. Adding packets while a
//! job holds a snapshot copies at most the last, partly filled chunk. A file checked again (the
//! watcher saw it change) replaces its packets in a new snapshot, built off the UI thread by
//! the list job (`Packets::with_file_replaced`): the chunks before the first changed packet
//! are shared, not copied.

use crate::corpus::LoadError;
use crate::tui::state::listed::ListedPacket;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Packets per chunk: every chunk but the last is full, so packet `i` is in chunk `i / CHUNK`.
const CHUNK: usize = 4096;

#[derive(Clone, Debug, Default)]
pub struct Packets {
    chunks: Vec<Arc<Vec<ListedPacket>>>,
    len: usize,
}

impl Packets {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, index: usize) -> Option<&ListedPacket> {
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    pub fn iter(&self) -> impl Iterator<Item = &ListedPacket> {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// Appends packets (the rows built over the packets before stay valid).
    pub fn extend(&mut self, checks: impl IntoIterator<Item = ListedPacket>) {
        for check in checks {
            match self.chunks.last_mut() {
                Some(last) if last.len() < CHUNK => Arc::make_mut(last).push(check),
                _ => {
                    let mut chunk = Vec::with_capacity(CHUNK);
                    chunk.push(check);
                    self.chunks.push(Arc::new(chunk));
                }
            }
            self.len += 1;
        }
    }

    /// Takes every packet out, in order (copying only chunks a job still holds). Only tests
    /// need the packets back as one vector.
    #[cfg(test)]
    pub fn take(&mut self) -> Vec<ListedPacket> {
        let mut out = Vec::with_capacity(self.len);
        for chunk in std::mem::take(&mut self.chunks) {
            match Arc::try_unwrap(chunk) {
                Ok(chunk) => out.extend(chunk),
                Err(shared) => out.extend(shared.iter().cloned()),
            }
        }
        self.len = 0;
        out
    }
}

/// A file's packets checked again (changed, created or removed on disk), waiting to replace
/// the ones it had: shared by every list build started until one lands.
#[derive(Debug)]
pub struct Replacement {
    pub path: PathBuf,
    pub checks: Vec<ListedPacket>,
    pub errors: Vec<LoadError>,
}

/// Where a replacement went in the new packets: which old indices it removed (ascending),
/// and where its own packets start (`at`) and how many there are.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Splice {
    pub removed: Vec<usize>,
    pub at: usize,
    pub inserted: usize,
}

impl Splice {
    /// The new index of old packet `old`, or, for one of the replaced file's packets, its
    /// place among them (where its line most likely is among the new ones).
    pub fn moved(&self, old: usize) -> Result<usize, usize> {
        if let Ok(place) = self.removed.binary_search(&old) {
            return Err(place);
        }
        let kept = old - self.removed.partition_point(|removed| *removed < old);
        Ok(if kept < self.at {
            kept
        } else {
            kept + self.inserted
        })
    }
}

impl Packets {
    /// These packets with every packet of `replacement.path` replaced by its new ones, which
    /// go where the file sorts among the rest (the walk's order, as a load lists them). Each
    /// removed packet is shown to `removed`. Runs off the UI thread: a million packets take a
    /// tenth of a second to copy.
    pub fn with_file_replaced(
        &self,
        replacement: &Replacement,
        removed: &mut dyn FnMut(&ListedPacket),
    ) -> (Packets, Splice) {
        let path: &Path = &replacement.path;
        let in_file = |packet: &ListedPacket| *packet.source.path == *path;
        // Packets before the first one removed or sorted after the file stay where they are;
        // whole chunks of them are shared.
        let first = self
            .iter()
            .position(|packet| in_file(packet) || *packet.source.path > *path)
            .unwrap_or(self.len);
        let shared = first / CHUNK;
        let mut out = Packets {
            chunks: self.chunks[..shared].to_vec(),
            len: shared * CHUNK,
        };
        let mut splice = Splice::default();
        let mut inserted = false;
        for index in shared * CHUNK..self.len {
            let packet = &self[index];
            if in_file(packet) {
                removed(packet);
                splice.removed.push(index);
                continue;
            }
            if !inserted && *packet.source.path > *path {
                splice.at = out.len;
                out.extend(replacement.checks.iter().cloned());
                inserted = true;
            }
            out.extend(std::iter::once(packet.clone()));
        }
        if !inserted {
            splice.at = out.len;
            out.extend(replacement.checks.iter().cloned());
        }
        splice.inserted = replacement.checks.len();
        (out, splice)
    }
}

impl std::ops::Index<usize> for Packets {
    type Output = ListedPacket;

    fn index(&self, index: usize) -> &ListedPacket {
        &self.chunks[index / CHUNK][index % CHUNK]
    }
}

impl From<Vec<ListedPacket>> for Packets {
    fn from(checks: Vec<ListedPacket>) -> Packets {
        let mut packets = Packets::default();
        packets.extend(checks);
        packets
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::runtime::loader::load;
    use crate::tui::state::reads::LoaderEvent;

    /// `count` packets: the fixtures' packets over and over, each told apart by its offset.
    fn checks(count: usize) -> Vec<ListedPacket> {
        let mut loaded = Vec::new();
        load(
            &[std::path::PathBuf::from("fixtures/a2a")],
            &Default::default(),
            &mut |event| {
                if let LoaderEvent::Packets(checks) = event {
                    loaded.extend(checks);
                }
                true
            },
        );
        (0..count)
            .map(|index| {
                let mut check = loaded[index % loaded.len()].clone();
                check.offset = index as u64;
                check
            })
            .collect()
    }

    #[test]
    fn packets_index_across_chunks_and_a_snapshot_keeps_what_it_saw() {
        let all = checks(2 * CHUNK + 1);
        let mut packets = Packets::from(all[..CHUNK + 3].to_vec());
        assert_eq!(packets.len(), CHUNK + 3);
        let offsets = |packets: &[ListedPacket]| -> Vec<u64> {
            packets.iter().map(|packet| packet.offset).collect()
        };
        assert_eq!(packets[CHUNK + 1].offset, all[CHUNK + 1].offset);
        let snapshot = packets.clone();
        packets.extend(all[CHUNK + 3..].iter().cloned());
        assert_eq!(snapshot.len(), CHUNK + 3);
        assert!(snapshot.get(CHUNK + 3).is_none());
        assert_eq!(packets.len(), 2 * CHUNK + 1);
        assert!(packets.iter().map(|packet| packet.offset).eq(offsets(&all)));
        assert_eq!(offsets(&packets.take()), offsets(&all));
        assert!(packets.is_empty() && packets.get(0).is_none());
    }

    /// Packets of three files, `a` (CHUNK + 5 packets), `b` (3) and `c` (2), in that order.
    fn three_files() -> (Packets, Vec<ListedPacket>) {
        let base = checks(1).remove(0);
        let of = |name: &str, count: usize| -> Vec<ListedPacket> {
            (0..count)
                .map(|index| {
                    let mut packet = base.clone();
                    packet.source = crate::corpus::Source::file(PathBuf::from(name));
                    packet.offset = index as u64;
                    packet
                })
                .collect()
        };
        let mut all = of("a", CHUNK + 5);
        all.extend(of("b", 3));
        all.extend(of("c", 2));
        (Packets::from(all), of("b", 4))
    }

    fn names(packets: &Packets) -> Vec<(String, u64)> {
        packets
            .iter()
            .map(|packet| (packet.source.path.display().to_string(), packet.offset))
            .collect()
    }

    #[test]
    fn a_replaced_file_takes_its_old_place_and_the_chunks_before_are_shared() {
        let (packets, new_b) = three_files();
        let replacement = Replacement {
            path: PathBuf::from("b"),
            checks: new_b,
            errors: Vec::new(),
        };
        let mut gone = 0;
        let (replaced, splice) = packets.with_file_replaced(&replacement, &mut |packet| {
            assert_eq!(&*packet.source.path, Path::new("b"));
            gone += 1;
        });
        assert_eq!(gone, 3);
        let mut expected = names(&packets);
        expected.splice(
            CHUNK + 5..CHUNK + 8,
            (0..4).map(|offset| ("b".to_owned(), offset)),
        );
        assert_eq!(names(&replaced), expected);
        assert!(Arc::ptr_eq(&packets.chunks[0], &replaced.chunks[0]));
        assert_eq!(
            splice,
            Splice {
                removed: vec![CHUNK + 5, CHUNK + 6, CHUNK + 7],
                at: CHUNK + 5,
                inserted: 4
            }
        );
        // Every packet of `a` and `c` found again where it went; `b`'s are gone.
        for old in 0..packets.len() {
            match splice.moved(old) {
                Ok(new) => assert_eq!(names(&replaced)[new], names(&packets)[old], "old {old}"),
                Err(place) => {
                    assert_eq!(&*packets[old].source.path, Path::new("b"));
                    assert_eq!(place, old - (CHUNK + 5));
                }
            }
        }
    }

    #[test]
    fn a_file_removed_or_new_is_spliced_out_or_in_by_its_name() {
        let (packets, new_b) = three_files();
        let gone = Replacement {
            path: PathBuf::from("b"),
            checks: Vec::new(),
            errors: Vec::new(),
        };
        let (without, splice) = packets.with_file_replaced(&gone, &mut |_| {});
        assert_eq!(without.len(), packets.len() - 3);
        assert_eq!(splice.moved(CHUNK + 8), Ok(CHUNK + 5));
        let back = Replacement {
            path: PathBuf::from("b"),
            checks: new_b,
            errors: Vec::new(),
        };
        let (with, splice) = without.with_file_replaced(&back, &mut |_| panic!("none of b"));
        assert_eq!(splice.at, CHUNK + 5);
        assert_eq!(names(&with)[CHUNK + 9], ("c".to_owned(), 0));
        let last = Replacement {
            path: PathBuf::from("d"),
            checks: vec![packets[0].clone()],
            errors: Vec::new(),
        };
        let (appended, splice) = packets.with_file_replaced(&last, &mut |_| {});
        assert_eq!(
            (splice.at, appended.len()),
            (packets.len(), packets.len() + 1)
        );
    }
}
