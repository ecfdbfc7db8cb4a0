//! `bless`: record (or update) each directory's golden manifest from the current conversion.

use super::common::CorpusRunFlags;
use super::{CliError, Exit, Output};
use crate::corpus::{check_corpus, manifest_key, CheckItem, LoadError, Source, WalkItem};
use crate::golden::{
    ci_is_set, manifest_path, plan_bless, remove_stale_temps, write_manifest, BlessPlan,
    GoldenEntry, PacketKey,
};
use crate::json::safe_text;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

/// Record the current conversion of every raw packet under PATH as its golden, in the
/// `goldens.json` of each packet's directory.
///
/// Prints every change before writing; writes each manifest atomically (a temporary file in
/// the same directory, then a rename). Never drops the entry of a packet that still exists;
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
    /// Files, directories or NDJSON streams.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    if !args.dry_run && ci_is_set(std::env::var_os("CI").as_deref()) {
        return Err(CliError::Usage(
            "refusing to write golden manifests while CI is set: goldens are recorded by a person and only checked in CI (--dry-run shows what would change)".to_owned(),
        ));
    }
    let modes = args.run.modes();
    let options = args.run.check_options()?;
    // One sorted map per manifest directory; planning takes entries out of it one by one.
    let mut recorded: BTreeMap<PathBuf, BTreeMap<PacketKey, GoldenEntry>> = BTreeMap::new();
    let mut load_errors: Vec<LoadError> = Vec::new();
    let run = check_corpus(
        &args.paths,
        &options,
        args.run.corpus.pipeline(),
        false,
        &mut |item| match item {
            CheckItem::LoadError(error) => load_errors.push(error),
            CheckItem::Packet(check) => {
                if let Some(entry) = check.recorded() {
                    let (dir, key) = manifest_key(&check.summary.source);
                    recorded.entry(dir).or_default().insert(key, entry);
                }
            }
        },
    )
    .map_err(CliError::Usage)?;
    if !load_errors.is_empty() {
        for error in &load_errors {
            eprintln!("handoff-inspector: {error}");
        }
        return Err(CliError::Usage(format!(
            "nothing written: {} input(s) could not be read or used",
            load_errors.len()
        )));
    }
    // Files read in this run, as (manifest directory, file name): the form manifest entries
    // take, whichever way the path was spelled on the command line.
    let read_files: HashSet<(PathBuf, String)> = run
        .items
        .iter()
        .filter_map(|item| match item {
            WalkItem::File { path, .. } => {
                let (dir, key) = manifest_key(&Source::file(path.clone()));
                Some((dir, key.file))
            }
            WalkItem::Error(_) => None,
        })
        .collect();
    let mut dirs: Vec<PathBuf> = read_files.iter().map(|(dir, _)| dir.clone()).collect();
    dirs.sort();
    dirs.dedup();
    let mut plans: Vec<(PathBuf, BlessPlan)> = Vec::new();
    let mut refusals = Vec::new();
    for dir in dirs {
        let entries = recorded.remove(&dir).unwrap_or_default();
        let existing = run.manifests.get(&dir);
        if existing.is_none() && entries.is_empty() {
            continue;
        }
        // Asked only about keys not recorded in this run: such a packet of a file read in
        // this run is gone (its line is no longer there).
        let still_exists = |key: &PacketKey| {
            if read_files.contains(&(dir.clone(), key.file.clone())) {
                false
            } else {
                dir.join(&key.file).is_file()
            }
        };
        match plan_bless(
            existing,
            entries,
            &modes,
            &options.evaluate.conversion,
            &still_exists,
            args.prune,
        ) {
            Ok(plan) => plans.push((dir, plan)),
            Err(reason) => refusals.push(format!("{}: {reason}", manifest_path(&dir).display())),
        }
    }
    if !refusals.is_empty() {
        for refusal in &refusals {
            eprintln!("handoff-inspector: {}", safe_text(refusal));
        }
        return Err(CliError::Usage("nothing written".to_owned()));
    }
    for (dir, plan) in &plans {
        let path = manifest_path(dir);
        let shown = safe_text(&path.display().to_string()).into_owned();
        output.line(&format!("{shown}:"));
        for change in &plan.changes {
            output.line(&format!("  {change}"));
        }
        let mut notes = vec![format!("{} unchanged", plan.unchanged)];
        if !plan.kept_gone.is_empty() {
            notes.push(format!(
                "{} entr{} of packets not found kept (--prune removes them)",
                plan.kept_gone.len(),
                if plan.kept_gone.len() == 1 {
                    "y"
                } else {
                    "ies"
                }
            ));
        }
        output.line(&format!("  {}", notes.join("; ")));
        let verdict = if plan.is_unchanged() {
            "no changes".to_owned()
        } else if args.dry_run {
            format!("would write {} change(s) (dry run)", plan.changes.len())
        } else {
            write_manifest(dir, &plan.manifest).map_err(|error| CliError::Io {
                path: shown.clone(),
                error,
            })?;
            format!("wrote {} change(s)", plan.changes.len())
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
    if plans.is_empty() {
        output.line("no raw packets found: nothing to record");
    }
    Ok(Exit::Ok)
}
