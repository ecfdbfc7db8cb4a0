//! The loaded packets, in fixed-size chunks behind `Arc`s, so that a job off the UI thread
//! (building the list for a filter or a load) reads the very packets the state holds without
//! copying them: a snapshot costs one `Arc` clone per 4,096 packets. Adding packets while a
//! job holds a snapshot copies at most the last, partly filled chunk.

use super::listed::ListedPacket;
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

    /// Takes every packet out, in order (copying only chunks a job still holds).
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
    use crate::tui::loader::{load, LoaderEvent};

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
}
