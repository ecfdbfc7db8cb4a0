//! `bless`: record (or update) each directory's golden manifest from the current conversion.

use super::common::CorpusRunFlags;
use super::{CliError, Exit, Output};
use crate::corpus::{
    files_read, manifest_key, CheckItem, CheckOptions, Collect, CorpusCheck, LoadError,
    ManifestOptions,
};
use crate::golden::{
    ci_refuses_writes, ci_writes_values_text, manifest_path, merge_bless, remove_stale_temps,
    write_bless, BlessWriteError, DiscardSink, EntrySpool, MergeError, MergeSpec, PacketKey,
    RecordedOptions, Writing,
};
use crate::json::safe_text;
use std::path::PathBuf;

/// Record the current conversion of every raw packet under PATH as its golden, in the
/// `goldens.json` of each packet's directory.
///
/// Prints every change as it is found, before the manifest is replaced; writes each manifest
/// atomically (a temporary file in the same directory, then a rename), in memory that does
/// not grow with the number of packets. Never drops the entry of a packet that still exists;
/// entries of packets that are gone are kept unless --prune. Refuses to write when the CI
/// environment variable is set, when any input cannot be read, or when an existing manifest
/// is malformed (nothing is written then). Exit 0, or 2 on those refusals.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub run: CorpusRunFlags,
    /// Remove entries of packets that no longer exist.
    #[arg(long)]
    pub prune: bool,
    /// Print the changes without writing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Merge the pending goldens (goldens.pending.json, written by `check --write-pending`)
    /// of each directory under PATH into its goldens.json, then remove them; nothing is
    /// checked again. Refused under CI, as every bless is.
    #[arg(long, conflicts_with_all = ["reject_pending", "prune"])]
    pub accept_pending: bool,
    /// Remove the pending goldens of each directory under PATH; the goldens are unchanged.
    #[arg(long, conflicts_with_all = ["accept_pending", "prune", "dry_run"])]
    pub reject_pending: bool,
    /// How long to wait for another bless (or the inspector's accept) writing the same
    /// manifest before giving up with exit 2.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub lock_timeout: u64,
    /// Files, directories or NDJSON streams.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let lock_wait = std::time::Duration::from_secs(args.lock_timeout);
    // Rejecting removes only what `check --write-pending` (allowed under CI) wrote.
    if args.reject_pending {
        let dirs = super::pending::pending_dirs(&args.paths, &args.run.corpus.walk.options());
        super::pending::reject(&dirs, lock_wait, output)?;
        return Ok(Exit::Ok);
    }
    if !args.dry_run && ci_refuses_writes() {
        return Err(CliError::Usage(format!(
            "refusing to write golden manifests while CI is set: goldens are recorded by a person and only checked in CI (CI {} lets bless write, in any case and with any surrounding spaces; --dry-run shows what would change)",
            ci_writes_values_text()
        )));
    }
    if args.accept_pending {
        let dirs = super::pending::pending_dirs(&args.paths, &args.run.corpus.walk.options());
        super::pending::accept(&dirs, args.dry_run, lock_wait, output)?;
        return Ok(Exit::Ok);
    }
    let modes = args.run.modes();
    let options = CheckOptions {
        // What a golden records besides digests: the payloads and objects they cover.
        record_content: true,
        ..args.run.check_options()?
    };
    let conversion = &options.evaluate.conversion;
    let spool_error = |error: std::io::Error| CliError::Io {
        path: "(bless spool)".to_owned(),
        error,
    };
    // This run's entries, put in manifest order on disk rather than held (a 1M-line stream
    // would be a GiB of entries).
    let mut spool = EntrySpool::new();
    let mut spool_failure: Option<std::io::Error> = None;
    let mut load_errors: Vec<LoadError> = Vec::new();
    // Paired expected payloads that differ: bless does not write them, so it says which, what
    // changed in them and how to update each (at most `PAIRED_SHOWN` described; all counted).
    let mut paired: Vec<String> = Vec::new();
    let mut paired_total = 0usize;
    output.start_progress("checking", false);
    let run = CorpusCheck::new(&args.paths, &options)
        .pipeline(args.run.corpus.pipeline())
        .manifests(ManifestOptions::AnyOptions)
        .run(&mut Collect(|item: CheckItem| {
            output.progress_took(item.source());
            match item {
                CheckItem::LoadError(error) => load_errors.push(error),
                CheckItem::Packet(check) => {
                    for finding in &check.findings {
                        if finding.kind != crate::corpus::FindingKind::PairedMismatch {
                            continue;
                        }
                        paired_total += 1;
                        if paired.len() < PAIRED_SHOWN {
                            paired.push(paired_note(finding));
                        }
                    }
                    if let (Some(entry), None) = (check.recorded(), &spool_failure) {
                        let (dir, key) = manifest_key(&check.summary.source);
                        if let Err(error) = spool.push(dir, key, entry) {
                            spool_failure = Some(error);
                        }
                    }
                }
            }
        }))
        .map_err(|error| CliError::Usage(error.into_start()))?;
    output.end_progress();
    if let Some(error) = spool_failure {
        return Err(spool_error(error));
    }
    if !load_errors.is_empty() {
        for error in &load_errors {
            output.note(&error.to_string());
        }
        return Err(CliError::Usage(format!(
            "nothing written: {} input(s) could not be read or used",
            load_errors.len()
        )));
    }
    let recorded = spool.finish().map_err(spool_error)?;
    // Files read in this run, as (manifest directory, file name).
    let read_files = files_read(&run.items);
    let mut dirs: Vec<PathBuf> = read_files.iter().map(|(dir, _)| dir.clone()).collect();
    dirs.sort();
    dirs.dedup();
    // The directories whose manifest this run writes (or would), in `Path` order: the order
    // the recorded entries come back in.
    dirs.retain(|dir| run.manifests.get(dir).is_some() || recorded.has_entries(dir));
    // Asked only about keys not recorded in this run: such a packet of a file read in this
    // run is gone (its line is no longer there).
    let still_exists = |dir: &PathBuf, key: &PacketKey| {
        if read_files.contains(&(dir.clone(), key.file.clone())) {
            false
        } else {
            dir.join(&key.file).is_file()
        }
    };
    let current = RecordedOptions::of(conversion);
    // Refusals before any output: only a directory whose recorded options change can be
    // refused, so only those are merged once more, beforehand, keeping nothing.
    let mut refusals = Vec::new();
    if dirs.iter().any(|dir| {
        run.manifests
            .get(dir)
            .is_some_and(|manifest| manifest.options != current)
    }) {
        let mut cursor = recorded.cursor().map_err(spool_error)?;
        for dir in &dirs {
            let Some(existing) = run
                .manifests
                .get(dir)
                .filter(|manifest| manifest.options != current)
            else {
                continue;
            };
            match merge_bless(
                Some(existing.into()),
                &mut cursor.entries_of(dir),
                &modes,
                conversion,
                &|key| still_exists(dir, key),
                args.prune,
                &mut DiscardSink,
            ) {
                Ok(_) => {}
                Err(MergeError::Refused(reason)) => {
                    refusals.push(format!("{}: {reason}", manifest_path(dir).display()))
                }
                Err(MergeError::Io(error)) => return Err(spool_error(error)),
            }
        }
    }
    if !refusals.is_empty() {
        for refusal in &refusals {
            output.note(refusal);
        }
        return Err(CliError::Usage("nothing written".to_owned()));
    }
    let mut cursor = recorded.cursor().map_err(spool_error)?;
    for dir in &dirs {
        let path = manifest_path(dir);
        let shown = safe_text(&path.display().to_string()).into_owned();
        output.line(&format!("{shown}:"));
        // The new manifest goes to a temporary file as it is merged (the writer the
        // inspector's accept shares), under the manifest's lock, into the manifest as it is
        // then; it replaces the old one only when something changed. The wait's note and the
        // changes both go to `output`, one after the other.
        let shared = std::cell::RefCell::new(&mut *output);
        let written = write_bless(
            dir,
            &mut cursor.entries_of(dir),
            &MergeSpec {
                modes: &modes,
                options: conversion,
                still_exists: &|key| still_exists(dir, key),
                prune: args.prune,
            },
            Writing {
                dry_run: args.dry_run,
                lock_wait: std::time::Duration::from_secs(args.lock_timeout),
                file: crate::golden::ManifestFile::Goldens,
                remove_after: None,
                waiting: &mut |lock| {
                    // Before a wait of up to a minute: why nothing seems to happen.
                    shared.borrow_mut().note(&format!(
                        "{}: another bless or accept is writing this manifest; waiting up to {} s",
                        lock.display(),
                        args.lock_timeout
                    ));
                },
            },
            &mut |change| {
                shared.borrow_mut().line(&format!("  {change}"));
                Ok(())
            },
        )
        .map_err(|error| merge_write_error(&shown, "malformed golden manifest", error))?;
        let counts = written.counts;
        let mut notes = vec![format!("{} unchanged", counts.unchanged)];
        if counts.kept_gone > 0 {
            notes.push(format!(
                "{} entr{} of packets not found kept (--prune removes them)",
                counts.kept_gone,
                if counts.kept_gone == 1 { "y" } else { "ies" }
            ));
        }
        output.line(&format!("  {}", notes.join("; ")));
        let verdict = match written.written {
            _ if counts.changes == 0 => "no changes".to_owned(),
            None => format!("would write {} change(s) (dry run)", counts.changes),
            Some(_) => format!("wrote {} change(s)", counts.changes),
        };
        output.line(&format!("  {verdict}"));
        if !args.dry_run {
            // Temp files of runs killed mid-write (`.goldens.*.tmp`, untouched for 10 minutes).
            let removed = remove_stale_temps(dir);
            if !removed.is_empty() {
                output.line(&format!(
                    "  removed {} stale temporary file(s) of interrupted bless runs: {}",
                    removed.len(),
                    safe_text(&removed.join(", "))
                ));
            }
        }
    }
    if dirs.is_empty() {
        output.line("no raw packets found: nothing to record");
    }
    if paired_total > 0 {
        output.line(&format!(
            "paired expected payloads that differ from the conversion ({paired_total}): bless records goldens.json only, so `check` still fails on them until each is updated (review the changes first):"
        ));
        for note in &paired {
            output.line(note);
        }
        if paired_total > paired.len() {
            output.line(&format!(
                "  ... and {} more (`check` lists every one)",
                paired_total - paired.len()
            ));
        }
    }
    Ok(Exit::Ok)
}

/// Paired-payload drifts described in full by one bless run.
const PAIRED_SHOWN: usize = 20;

/// One paired payload's drift: what changed (paths, before -> after); its message ends with the
/// command that writes the converted payload in its place.
fn paired_note(finding: &crate::corpus::CheckFinding) -> String {
    let mut lines = vec![format!("  {}", safe_text(&finding.message))];
    if let Some(diff) = &finding.diff {
        lines.extend(
            diff.changes
                .iter()
                .take(12)
                .map(|change| format!("      {}", change.describe())),
        );
        if diff.total_changes > 12 {
            lines.push(format!("      ... and {} more", diff.total_changes - 12));
        }
    }
    lines.join("\n")
}

/// A failed merge write as the command's error: `malformed` says what a manifest that cannot
/// be read is called (bless's and the pending goldens' own words).
pub(super) fn merge_write_error(shown: &str, malformed: &str, error: BlessWriteError) -> CliError {
    match error {
        BlessWriteError::Manifest(error) => {
            CliError::Usage(format!("{shown}: {malformed}, not overwritten: {error}"))
        }
        BlessWriteError::Busy(error) => CliError::Usage(error.to_string()),
        BlessWriteError::Merge(MergeError::Refused(reason)) => {
            CliError::Usage(format!("{shown}: {reason}"))
        }
        BlessWriteError::Merge(MergeError::Io(error)) | BlessWriteError::Write(error) => {
            CliError::Io {
                path: shown.to_owned(),
                error,
            }
        }
    }
}
