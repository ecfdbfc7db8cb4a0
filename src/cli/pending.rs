//! Pending goldens, insta's two phases: `check --write-pending` records what drifted or has no
//! golden into `goldens.pending.json` beside each directory's `goldens.json` (allowed under
//! `CI`: it never touches a golden, and CI keeps it as an artifact); `bless --accept-pending`
//! merges those entries into `goldens.json` through bless's one writer and its lock, then
//! removes them; `bless --reject-pending` removes them. `check` notes the pending files it
//! finds.

use super::{CliError, Output};
use crate::a2a::Mode;
use crate::corpus::{manifest_key, CheckItem, FindingKind, PacketCheck, Source, WalkItem};
use crate::golden::{
    describe_options, remove_pending, write_bless, EntrySpool, ManifestFile, ManifestIndex,
    MergeSpec, PacketKey, Writing, PENDING_FILE_NAME,
};
use crate::json::safe_text;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a writer of pending goldens waits for another writer of the directory.
const LOCK_WAIT: Duration = Duration::from_secs(60);

/// Whether a packet's check would change its golden: drifted, or none recorded.
fn is_pending(check: &PacketCheck) -> bool {
    check.findings.iter().any(|finding| {
        matches!(
            finding.kind,
            FindingKind::GoldenMismatch | FindingKind::NoGolden
        )
    })
}

/// What `check --write-pending` collects while it checks: each pending packet's entry, as
/// `bless` would record it, spooled on disk in manifest order.
pub(super) struct PendingSpool {
    spool: EntrySpool,
    per_dir: BTreeMap<PathBuf, usize>,
    failure: Option<std::io::Error>,
}

impl PendingSpool {
    /// Pending goldens are whole entries (both modes), so a check that runs one mode cannot
    /// write them.
    pub(super) fn new(modes: &[Mode]) -> Result<PendingSpool, CliError> {
        if modes.len() < Mode::BOTH.len() {
            return Err(CliError::Usage(
                "--write-pending records whole golden entries: run it in both modes (the default --mode both)"
                    .to_owned(),
            ));
        }
        Ok(PendingSpool {
            spool: EntrySpool::new(),
            per_dir: BTreeMap::new(),
            failure: None,
        })
    }

    pub(super) fn take(&mut self, item: &CheckItem) {
        let CheckItem::Packet(check) = item else {
            return;
        };
        if self.failure.is_some() || !is_pending(check) {
            return;
        }
        let Some(entry) = check.recorded() else {
            return;
        };
        let (dir, key) = manifest_key(&check.summary.source);
        *self.per_dir.entry(dir.clone()).or_default() += 1;
        if let Err(error) = self.spool.push(dir, key, entry) {
            self.failure = Some(error);
        }
    }

    /// Writes each directory's pending goldens: this run's pending entries merged into the
    /// pending file there (under the manifest's lock, so shards of one directory keep each
    /// other's). An unsharded run also drops the entries of packets it checked that are no
    /// longer pending, and removes a pending file left with none; a shard cannot tell which
    /// packets the others checked, so it keeps them.
    pub(super) fn write(
        self,
        items: &[WalkItem],
        options: &crate::a2a::ConvertOptions,
        sharded: bool,
        output: &mut Output,
    ) -> Result<(), CliError> {
        let spool_error = |error: std::io::Error| CliError::Io {
            path: "(pending goldens spool)".to_owned(),
            error,
        };
        if let Some(error) = self.failure {
            return Err(spool_error(error));
        }
        let read_files = crate::corpus::files_read(items);
        let mut dirs: BTreeSet<PathBuf> = self.per_dir.keys().cloned().collect();
        dirs.extend(
            read_files
                .iter()
                .map(|(dir, _)| dir.clone())
                .filter(|dir| ManifestFile::Pending.path(dir).is_file()),
        );
        let recorded = self.spool.finish().map_err(spool_error)?;
        let mut cursor = recorded.cursor().map_err(spool_error)?;
        for dir in &dirs {
            let path = ManifestFile::Pending.path(dir);
            let shown = safe_text(&path.display().to_string()).into_owned();
            let still_exists = |key: &PacketKey| {
                sharded
                    || (!read_files.contains(&(dir.clone(), key.file.clone()))
                        && dir.join(&key.file).is_file())
            };
            let written = write_bless(
                dir,
                &mut cursor.entries_of(dir),
                &MergeSpec {
                    modes: &Mode::BOTH,
                    options,
                    still_exists: &still_exists,
                    prune: true,
                },
                Writing {
                    dry_run: false,
                    lock_wait: LOCK_WAIT,
                    waiting: &mut |_| {},
                    file: ManifestFile::Pending,
                    remove_after: None,
                },
                &mut |_| Ok(()),
            )
            .map_err(|error| super::bless::merge_write_error(&shown, "malformed", error))?;
            let pending = self.per_dir.get(dir).copied().unwrap_or(0);
            let dir_shown = safe_text(&dir.display().to_string()).into_owned();
            if path.is_file() {
                output.note(&format!(
                    "{shown}: {pending} pending golden(s) from this run{}; `bless --accept-pending {dir_shown}` takes them, `--reject-pending` drops them",
                    if written.written.is_some() { "" } else { " (unchanged)" }
                ));
            } else {
                output.note(&format!("{shown}: removed, nothing is pending any more"));
            }
        }
        Ok(())
    }
}

/// `check`'s note of the pending goldens beside the files it read.
pub(super) fn note_waiting(items: &[WalkItem], output: &mut Output) {
    let dirs: BTreeSet<PathBuf> = crate::corpus::files_read(items)
        .into_iter()
        .map(|(dir, _)| dir)
        .filter(|dir| ManifestFile::Pending.path(dir).is_file())
        .collect();
    for dir in dirs {
        let shown = safe_text(&dir.display().to_string()).into_owned();
        output.note(&format!(
            "{shown}/{PENDING_FILE_NAME}: pending goldens wait; `bless --accept-pending {shown}` takes them, `--reject-pending` drops them"
        ));
    }
}

/// The directories under `paths` that hold pending goldens: a directory named, or one a walk
/// of it reaches, with a `goldens.pending.json`; a pending file named itself.
pub(super) fn pending_dirs(paths: &[PathBuf], walk: &crate::input::WalkOptions) -> Vec<PathBuf> {
    let mut dirs = BTreeSet::new();
    for path in paths {
        if path.is_dir() {
            if ManifestFile::Pending.path(path).is_file() {
                dirs.insert(path.clone());
            }
        } else if is_pending_file(path) {
            let dir = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                _ => PathBuf::from("."),
            };
            dirs.insert(dir);
        }
    }
    for item in crate::corpus::walk(paths, walk) {
        if let WalkItem::File { path, .. } = item {
            if is_pending_file(&path) {
                let (dir, _) = manifest_key(&Source::file(path));
                dirs.insert(dir);
            }
        }
    }
    dirs.into_iter().collect()
}

/// `bless --accept-pending`: each directory's pending goldens merged into its `goldens.json`
/// (the changes printed as `bless` prints them), then removed, under the manifest's lock.
/// Pending goldens recorded under other conversion options than the manifest's are refused:
/// accepting them would mix digests of two option sets in one manifest.
pub(super) fn accept(
    dirs: &[PathBuf],
    dry_run: bool,
    lock_wait: Duration,
    output: &mut Output,
) -> Result<(), CliError> {
    if dirs.is_empty() {
        output.line("no pending goldens found: nothing to accept");
    }
    for dir in dirs {
        let pending_path = ManifestFile::Pending.path(dir);
        let shown = safe_text(&pending_path.display().to_string()).into_owned();
        let malformed = |error: crate::golden::ManifestError| {
            CliError::Usage(format!("{shown}: malformed, not accepted: {error}"))
        };
        let Some(pending) =
            ManifestIndex::open_file(dir, ManifestFile::Pending).map_err(malformed)?
        else {
            continue;
        };
        if let Some(goldens) = ManifestIndex::open(dir).map_err(malformed)? {
            if goldens.options != pending.options {
                return Err(CliError::Usage(format!(
                    "{shown}: recorded under other conversion options than {} ({} against {}): nothing accepted; run `bless` on the directory under the options you mean",
                    ManifestFile::Goldens.path(dir).display(),
                    describe_options(&pending.options),
                    describe_options(&goldens.options)
                )));
            }
        }
        let options = pending.options.convert_options();
        output.line(&format!(
            "{}: accepting {} pending golden(s) from {PENDING_FILE_NAME}",
            safe_text(&ManifestFile::Goldens.path(dir).display().to_string()),
            pending.len()
        ));
        let shared = std::cell::RefCell::new(&mut *output);
        let written = write_bless(
            dir,
            &mut pending.entries(),
            &MergeSpec {
                modes: &Mode::BOTH,
                options: &options,
                still_exists: &|_| true,
                prune: false,
            },
            Writing {
                dry_run,
                lock_wait,
                waiting: &mut |lock| {
                    shared.borrow_mut().note(&format!(
                        "{}: another bless or accept is writing this manifest; waiting",
                        lock.display()
                    ));
                },
                file: ManifestFile::Goldens,
                remove_after: (!dry_run).then(|| pending_path.clone()),
            },
            &mut |change| {
                shared.borrow_mut().line(&format!("  {change}"));
                Ok(())
            },
        )
        .map_err(|error| super::bless::merge_write_error(&shown, "malformed", error))?;
        let verdict = match written.written {
            _ if dry_run => format!("would write {} change(s) (dry run)", written.counts.changes),
            None => "no changes; pending goldens removed".to_owned(),
            Some(_) => format!(
                "wrote {} change(s); pending goldens removed",
                written.counts.changes
            ),
        };
        output.line(&format!("  {verdict}"));
    }
    Ok(())
}

/// `bless --reject-pending`: each directory's pending goldens removed, under the manifest's
/// lock.
pub(super) fn reject(
    dirs: &[PathBuf],
    lock_wait: Duration,
    output: &mut Output,
) -> Result<(), CliError> {
    if dirs.is_empty() {
        output.line("no pending goldens found: nothing to reject");
    }
    for dir in dirs {
        let path = ManifestFile::Pending.path(dir);
        let shown = safe_text(&path.display().to_string()).into_owned();
        if remove_pending(dir, lock_wait)
            .map_err(|error| super::bless::merge_write_error(&shown, "malformed", error))?
        {
            output.line(&format!("{shown}: removed (the goldens are unchanged)"));
        }
    }
    Ok(())
}

/// Whether `path` names a pending-goldens file.
fn is_pending_file(path: &Path) -> bool {
    path.file_name().and_then(|name| name.to_str()) == Some(PENDING_FILE_NAME)
}
