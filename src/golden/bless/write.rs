//! Writing a merge: the one path by which `bless` and the inspector's accept replace a
//! directory's manifest. The merged entries stream into a temporary file beside it as the
//! merge finds them, and it replaces `goldens.json` only when something changed; nothing per
//! packet is held, so accepting one packet into a manifest of a million costs what reading
//! that manifest's index costs.

use super::change::Change;
use super::merge::{merge_bless, BlessCounts, BlessSink, Existing, MergeError};
use crate::a2a::{ConvertOptions, Mode};
use crate::golden::write::ManifestWriter;
use crate::golden::{GoldenEntry, PacketKey, RecordedOptions};
use std::io;
use std::path::{Path, PathBuf};

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

/// What `write_bless` did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlessWritten {
    pub counts: BlessCounts,
    /// The manifest written; `None` when nothing changed, or in a dry run.
    pub written: Option<PathBuf>,
}

#[derive(Debug)]
pub enum BlessWriteError {
    /// The merge was refused or could not read the entries; nothing was written.
    Merge(MergeError),
    /// The new manifest could not be written; the old one (if any) is unchanged.
    Write(io::Error),
}

/// The merge's entries go to the new manifest, its changes to the caller.
struct WriteSink<'a> {
    writer: Option<&'a mut ManifestWriter>,
    on_change: &'a mut dyn FnMut(&Change) -> io::Result<()>,
}

impl BlessSink for WriteSink<'_> {
    fn entry(&mut self, key: &PacketKey, entry: &GoldenEntry) -> io::Result<()> {
        match self.writer.as_mut() {
            Some(writer) => writer.entry(key, entry),
            None => Ok(()),
        }
    }

    fn change(&mut self, change: &Change) -> io::Result<()> {
        (self.on_change)(change)
    }
}

/// Merges `recorded` (key order) into `existing` with `merge_bless` and writes the result as
/// `dir`'s manifest, atomically, when something changed (`dry_run`: never). `on_change` sees
/// every change as it is found, before anything replaces the old manifest. A refusal or an
/// error leaves the old manifest as it was (the temporary file is removed). A directory that
/// cannot take the temporary file is an error only when something changed.
pub fn write_bless(
    dir: &Path,
    existing: Option<Existing<'_>>,
    recorded: &mut dyn Iterator<Item = io::Result<(PacketKey, GoldenEntry)>>,
    spec: &MergeSpec<'_>,
    dry_run: bool,
    on_change: &mut dyn FnMut(&Change) -> io::Result<()>,
) -> Result<BlessWritten, BlessWriteError> {
    let (mut writer, mut unwritable) = (None, None);
    if !dry_run {
        match ManifestWriter::create(dir, &RecordedOptions::of(spec.options)) {
            Ok(created) => writer = Some(created),
            Err(error) => unwritable = Some(error),
        }
    }
    let counts = merge_bless(
        existing,
        recorded,
        spec.modes,
        spec.options,
        spec.still_exists,
        spec.prune,
        &mut WriteSink {
            writer: writer.as_mut(),
            on_change,
        },
    )
    .map_err(BlessWriteError::Merge)?;
    let written = match (writer, unwritable.take()) {
        // Dropped unwritten: the temporary file goes, the manifest stays as it was.
        _ if counts.changes == 0 => None,
        (_, Some(error)) => return Err(BlessWriteError::Write(error)),
        (None, None) => None,
        (Some(writer), None) => Some(writer.commit().map_err(BlessWriteError::Write)?),
    };
    Ok(BlessWritten { counts, written })
}
