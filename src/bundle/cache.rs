//! Opened bundles kept for a view, so that showing one event (`reread_event`), the bundle's
//! own packet or its Bundle view does not open, inflate and verify the whole bundle again:
//! a 100,000-event bundle costs about half a second of CPU to open, and a list scrolls through
//! its events one row at a time.
//!
//! An entry is the bundle as `open_path` returned it (verdict, manifest, every stored line
//! with its facts), for one path, one set of limits and one state of the file on disk (length,
//! modification time, inode): when any of these differs the bundle is opened again, so a
//! bundle rewritten in place is never answered from the old bytes. At most `CAPACITY` bundles
//! are kept (the most recently used); the owner clears the cache when it loads again.

use super::limits::Limits;
use super::open::{open_path, Bundle};
use crate::input::InputError;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

/// Two: a reviewer comparing two bundles does not reopen one on every switch; each entry
/// holds a bundle's decoded events, so not more.
const CAPACITY: usize = 2;

/// The state of a file on disk that decides whether a kept bundle still stands for it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(path: &Path) -> Option<Stamp> {
        let metadata = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(&metadata);
        #[cfg(not(unix))]
        let inode = 0;
        Some(Stamp {
            len: metadata.len(),
            modified: metadata.modified().ok(),
            inode,
        })
    }
}

struct Entry {
    path: PathBuf,
    limits: Limits,
    stamp: Stamp,
    bundle: Arc<Bundle>,
}

#[derive(Default)]
pub struct BundleCache {
    /// Most recently used last.
    entries: Mutex<Vec<Entry>>,
    /// How many times a bundle was opened (not answered from an entry): what tests count.
    opens: AtomicUsize,
}

impl BundleCache {
    /// The bundle at `path`, opened through `limits` unless an entry for the same path,
    /// limits and file state is kept. `Err` only when the file cannot be opened at all.
    pub fn open(&self, path: &Path, limits: &Limits) -> Result<Arc<Bundle>, InputError> {
        let stamp = Stamp::of(path);
        if let Some(stamp) = &stamp {
            let mut entries = self.lock();
            if let Some(at) = entries
                .iter()
                .position(|e| e.path == path && e.limits == *limits && e.stamp == *stamp)
            {
                let entry = entries.remove(at);
                let bundle = entry.bundle.clone();
                entries.push(entry);
                return Ok(bundle);
            }
        }
        self.opens.fetch_add(1, Ordering::Relaxed);
        let bundle = Arc::new(open_path(path, limits)?);
        // Kept only when the file's state is known, and read after the open: a file that
        // changes while it is read gets a different stamp next time and is opened again.
        if let (Some(before), Some(after)) = (stamp, Stamp::of(path)) {
            if before == after {
                let mut entries = self.lock();
                entries.retain(|e| e.path != path);
                if entries.len() >= CAPACITY {
                    entries.remove(0);
                }
                entries.push(Entry {
                    path: path.to_owned(),
                    limits: *limits,
                    stamp: after,
                    bundle: bundle.clone(),
                });
            }
        }
        Ok(bundle)
    }

    /// How many bundles were opened through this cache (each miss counts once).
    pub fn opens(&self) -> usize {
        self.opens.load(Ordering::Relaxed)
    }

    /// Forgets every kept bundle (a new load starts from the files).
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        // A panic while holding the lock leaves a consistent list (each change is one call).
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy_of(name: &str, dir: &Path) -> PathBuf {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/bundles")
            .join(name);
        let to = dir.join(name);
        std::fs::copy(from, &to).unwrap();
        to
    }

    #[test]
    fn a_kept_bundle_is_opened_once_until_its_file_changes() {
        let dir = tempfile::tempdir().unwrap();
        let path = copy_of("valid-02-two-events.tar.gz", dir.path());
        let cache = BundleCache::default();
        let limits = Limits::default();
        let first = cache.open(&path, &limits).unwrap();
        let again = cache.open(&path, &limits).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(cache.opens(), 1);
        // Other limits: another verdict may follow, so another open.
        let mut tight = limits;
        tight.max_events = 1;
        assert!(!cache.open(&path, &tight).unwrap().is_valid());
        assert_eq!(cache.opens(), 2);
        // The file replaced by another bundle: opened again, the new verdict.
        let other = copy_of("bad-events-seq-gap.tar.gz", dir.path());
        std::fs::rename(&other, &path).unwrap();
        let replaced = cache.open(&path, &limits).unwrap();
        assert_eq!(cache.opens(), 3);
        assert!(!replaced.is_valid());
        cache.clear();
        cache.open(&path, &limits).unwrap();
        assert_eq!(cache.opens(), 4);
        assert!(cache
            .open(&dir.path().join("missing.tar.gz"), &limits)
            .is_err());
    }

    #[test]
    fn at_most_two_bundles_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "valid-01-one-event.tar.gz",
            "valid-02-two-events.tar.gz",
            "valid-03-ten-mixed.tar.gz",
        ];
        let paths: Vec<PathBuf> = names.iter().map(|n| copy_of(n, dir.path())).collect();
        let cache = BundleCache::default();
        let limits = Limits::default();
        for path in &paths {
            cache.open(path, &limits).unwrap();
        }
        assert_eq!(cache.opens(), 3);
        // The two most recent are kept; the first was dropped.
        cache.open(&paths[2], &limits).unwrap();
        cache.open(&paths[1], &limits).unwrap();
        assert_eq!(cache.opens(), 3);
        cache.open(&paths[0], &limits).unwrap();
        assert_eq!(cache.opens(), 4);
    }
}
