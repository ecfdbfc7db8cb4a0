//! Writing a merge: the one path by which `bless` and the inspector's accept replace a
//! directory's manifest. The merged entries stream into a temporary file beside it as the
//! merge finds them, and it replaces `goldens.json` only when something changed; nothing per
//! packet is held, so accepting one packet into a manifest of a million costs what reading
//! that manifest's index costs.
//!
//! Two writers of one directory take turns: the manifest's lock is held from reading the
//! manifest to replacing it, and the manifest merged into is the one read under the lock, so
//! a writer that waited merges into what the other wrote, and both files' entries stay.

use super::change::Change;
use super::merge::{merge_bless, BlessCounts, BlessSink, Existing, MergeError};
use crate::a2a::{ConvertOptions, Mode};
use crate::golden::write::{manifest_lock_path, ManifestFile, ManifestWriter};
use crate::golden::{GoldenEntry, ManifestError, ManifestIndex, PacketKey, RecordedOptions};
use crate::persist::{LockError, LockFile};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a merge treats what it was given (as `merge_bless` takes it).
pub struct MergeSpec<'a> {
    /// The modes this run recorded.
    pub modes: &'a [Mode],
    pub options: &'a ConvertOptions,
    /// Whether a packet this run did not record is still there.
    pub still_exists: &'a dyn Fn(&PacketKey) -> bool,
    /// Drop the entries of packets that are gone.
    pub prune: bool,
}

/// How `write_bless` writes.
pub struct Writing<'a> {
    /// Show the changes, write nothing (and take no lock).
    pub dry_run: bool,
    /// How long to wait for another writer of the manifest before giving up.
    pub lock_wait: Duration,
    /// Told once, with the lock's path, when another writer holds it.
    pub waiting: &'a mut dyn FnMut(&Path),
    /// Which of the directory's manifests is merged into and written.
    pub file: ManifestFile,
    /// A file removed under the lock once the merge is written (or found to change nothing):
    /// the pending goldens `bless --accept-pending` merged in, so no writer of new pending
    /// goldens can slip in between the two.
    pub remove_after: Option<PathBuf>,
}

/// What `write_bless` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlessWritten {
    pub counts: BlessCounts,
    /// The manifest written; `None` when nothing changed, or in a dry run.
    pub written: Option<PathBuf>,
}

#[derive(Debug)]
pub enum BlessWriteError {
    /// The manifest there cannot be read; it is left as it is.
    Manifest(ManifestError),
    /// Another writer held the manifest's lock too long; nothing was written.
    Busy(LockError),
    /// The merge was refused or could not read the entries; nothing was written.
    Merge(MergeError),
    /// The new manifest could not be written; the old one (if any) is unchanged.
    Write(io::Error),
}

/// The merge's entries go to the new manifest, its changes to the caller.
struct WriteSink<'a> {
    writer: Option<&'a mut ManifestWriter>,
    on_change: &'a mut dyn FnMut(&Change) -> io::Result<()>,
    entries: usize,
}

impl BlessSink for WriteSink<'_> {
    fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> io::Result<()> {
        self.entries += 1;
        match self.writer.as_mut() {
            Some(writer) => writer.entry(key, entry),
            None => Ok(()),
        }
    }

    fn change(&mut self, change: &Change) -> io::Result<()> {
        (self.on_change)(change)
    }
}

/// Merges `recorded` (key order) into `dir`'s manifest with `merge_bless` and writes the
/// result, atomically, when something changed (a dry run: never). The manifest is read, merged
/// and replaced holding its lock. `on_change` sees every change as it is found, before
/// anything replaces the old manifest. A refusal or an error leaves the old manifest as it was
/// (the temporary file is removed). A directory that cannot take the lock or the temporary
/// file is an error only when something changed (no other writer can write there either).
pub fn write_bless(
    dir: &Path,
    recorded: &mut dyn Iterator<Item = io::Result<(PacketKey, GoldenEntry)>>,
    spec: &MergeSpec<'_>,
    writing: Writing<'_>,
    on_change: &mut dyn FnMut(&Change) -> io::Result<()>,
) -> Result<BlessWritten, BlessWriteError> {
    let (mut writer, mut unwritable, mut lock) = (None, None, None);
    if !writing.dry_run {
        match LockFile::acquire(&manifest_lock_path(dir), writing.lock_wait, writing.waiting) {
            Ok(held) => lock = Some(held),
            Err(busy @ LockError::Busy { .. }) => return Err(BlessWriteError::Busy(busy)),
            Err(LockError::Io { error, .. }) => unwritable = Some(error),
        }
    }
    // What another writer may have written while this run was checking is merged into.
    let existing =
        ManifestIndex::open_file(dir, writing.file).map_err(BlessWriteError::Manifest)?;
    if lock.is_some() {
        match ManifestWriter::create_file(dir, writing.file, &RecordedOptions::of(spec.options)) {
            Ok(created) => writer = Some(created),
            Err(error) => unwritable = Some(error),
        }
    }
    let mut sink = WriteSink {
        writer: writer.as_mut(),
        on_change,
        entries: 0,
    };
    let counts = merge_bless(
        existing.as_ref().map(Existing::from),
        recorded,
        spec.modes,
        spec.options,
        spec.still_exists,
        spec.prune,
        &mut sink,
    )
    .map_err(BlessWriteError::Merge)?;
    // Pending goldens that are all accepted or matched again are no file at all.
    let emptied = writing.file == ManifestFile::Pending && sink.entries == 0;
    let written = match (writer, unwritable.take()) {
        (_, None) if emptied && counts.changes > 0 => {
            if lock.is_some() {
                remove_if_there(&writing.file.path(dir)).map_err(BlessWriteError::Write)?;
            }
            None
        }
        // Dropped unwritten: the temporary file goes, the manifest stays as it was.
        _ if counts.changes == 0 => None,
        (_, Some(error)) => return Err(BlessWriteError::Write(error)),
        (None, None) => None,
        (Some(writer), None) => Some(writer.commit().map_err(BlessWriteError::Write)?),
    };
    if let (Some(remove), Some(_)) = (&writing.remove_after, &lock) {
        remove_if_there(remove).map_err(BlessWriteError::Write)?;
    }
    drop(lock);
    Ok(BlessWritten { counts, written })
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Removes `dir`'s pending goldens holding the manifest's lock (`bless --reject-pending`):
/// `Ok(true)` when there were some.
pub fn remove_pending(dir: &Path, lock_wait: Duration) -> Result<bool, BlessWriteError> {
    let lock = LockFile::acquire(&manifest_lock_path(dir), lock_wait, &mut |_| {});
    let _held = match lock {
        Ok(held) => held,
        Err(busy @ LockError::Busy { .. }) => return Err(BlessWriteError::Busy(busy)),
        Err(LockError::Io { error, .. }) => return Err(BlessWriteError::Write(error)),
    };
    let path = ManifestFile::Pending.path(dir);
    let there = path.is_file();
    remove_if_there(&path).map_err(BlessWriteError::Write)?;
    Ok(there)
}
