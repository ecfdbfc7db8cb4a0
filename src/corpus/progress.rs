//! How far a run has got: counts that whoever takes a run's results bumps, one result at a
//! time, for a face to show progress from. Relaxed atomics, one add per result and no lock:
//! a reader on another thread (a progress line drawn ten times a second) sees counts at most
//! a moment old, and the run is not slowed by being watched.

use super::Source;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

#[derive(Debug, Default)]
pub struct WorkCounts {
    packets: AtomicU64,
    files: AtomicU64,
}

impl WorkCounts {
    pub fn new() -> Arc<WorkCounts> {
        Arc::new(WorkCounts::default())
    }

    /// One result (a packet or a load error) of `source`; a file too when it is the first
    /// result of its file. `last` is the taker's own: the file of its previous result (a
    /// walk hands a file's packets on together, so a file is counted once).
    pub fn took(&self, source: &Source, last: &mut Option<Arc<Path>>) {
        self.packets.fetch_add(1, Ordering::Relaxed);
        let same = last
            .as_ref()
            .is_some_and(|file| Arc::ptr_eq(file, &source.path) || **file == *source.path);
        if !same {
            self.files.fetch_add(1, Ordering::Relaxed);
            *last = Some(source.path.clone());
        }
    }

    /// `packets` more packets (and `files` more files) counted at once, by a taker that does
    /// not see them one by one (a verified bundle's events).
    pub fn add(&self, packets: u64, files: u64) {
        self.packets.fetch_add(packets, Ordering::Relaxed);
        self.files.fetch_add(files, Ordering::Relaxed);
    }

    pub fn packets(&self) -> u64 {
        self.packets.load(Ordering::Relaxed)
    }

    pub fn files(&self) -> u64 {
        self.files.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_counted_once_for_its_packets() {
        let counts = WorkCounts::default();
        let mut last = None;
        let stream = Source::file("a.ndjson");
        for line in 1..=3 {
            let mut source = stream.clone();
            source.line = Some(line);
            counts.took(&source, &mut last);
        }
        counts.took(&Source::file("b.json"), &mut last);
        assert_eq!((counts.packets(), counts.files()), (4, 2));
        counts.add(10, 1);
        assert_eq!((counts.packets(), counts.files()), (14, 3));
    }
}
