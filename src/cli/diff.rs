//! `diff BASE CANDIDATE`: two runs compared at the handoff seam (see `compare`).

use super::common::{ConverterFlags, CorpusFlags, KeyFlags, ModeArg, ProfileFlags};
use super::{CliError, Exit, Output};
use crate::compare::{compare_changes, CompareOptions};
use crate::corpus::EvaluateOptions;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    Markdown,
}

/// Compare two runs at the handoff seam: which handoffs became visible or not visible, which
/// named state changed, which flag and rule row moved.
///
/// Each side is an evidence bundle (.tar.gz), a directory or an NDJSON stream. Raw packets are
/// converted in --mode; canonical input and bundle events are taken as they are. Two
/// directories pair by relative path (NDJSON lines by path and line); anything else pairs by
/// event sequence, aligned over each event's identity (type, subject, task/message/artifact
/// ids, then content; what is left between two paired events pairs by type, in order), never
/// over run-scoped ids or times, which are reported once in the header. Each pair is unchanged, changed, added or removed; a change shows the named handoff
/// state before and after, each handoff.* and discovery.* flag that changed with the rule row
/// that decided it on each side, and the other paths that changed.
///
/// With trusted keys (--key, HANDOFF_TRUSTED_KEYS) two bundles' attestations are judged, and a
/// change of signer (or of the attestation's state) is reported and counts as a change; an
/// attestation says who signed the archive, never more about any handoff.
///
/// Exit 0 when nothing changed, 1 when something did, 2 when a side (or a file in it) cannot
/// be read; the rest is still compared.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Conversion mode for raw packets.
    #[arg(long, value_enum, default_value = "strict")]
    pub mode: ModeArg,
    /// Output: text (summary, then changes grouped by state transition), one JSON document,
    /// or markdown for a pull-request comment.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DiffFormat,
    #[command(flatten)]
    pub converter: ConverterFlags,
    #[command(flatten)]
    pub corpus: CorpusFlags,
    #[command(flatten)]
    pub profile: ProfileFlags,
    /// Trusted keys: with any, each bundle side's attestation beside it is judged and a
    /// signer that changed between the runs is reported (and counts as a change).
    #[command(flatten)]
    pub keys: KeyFlags,
    /// The earlier run.
    #[arg(value_name = "BASE")]
    pub base: PathBuf,
    /// The later run.
    #[arg(value_name = "CANDIDATE")]
    pub candidate: PathBuf,
}

pub fn options(args: &Args) -> Result<CompareOptions, CliError> {
    let mode = args.mode.into();
    let mut options = CompareOptions::new(
        mode,
        EvaluateOptions {
            conversion: args.converter.options(mode),
            modes: vec![mode],
            profile: args.profile.options()?,
            check_findings: false,
        },
        args.corpus.pipeline(),
    );
    options.walk = args.corpus.walk.options();
    options.trusted_keys = args.keys.trusted_keys()?.into();
    Ok(options)
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let mut options = options(args)?;
    output.start_progress("reading", false);
    options.counts = output.progress_counts();
    let comparison = compare_changes(&args.base, &args.candidate, &options)
        .map_err(|error| CliError::Usage(format!("cannot read {error}")))?;
    output.end_progress();
    for error in comparison.errors() {
        output.note(&error.to_string());
    }
    let written = match args.format {
        DiffFormat::Text => crate::report::compare_text::write_text(&comparison, output),
        DiffFormat::Json => crate::report::compare_json::write_json(&comparison, output),
        DiffFormat::Markdown => crate::report::compare_text::write_markdown(&comparison, output),
    };
    written.map_err(|error| CliError::Io {
        path: "standard output".into(),
        error,
    })?;
    Ok(if comparison.errors().next().is_some() {
        Exit::Usage
    } else if comparison.summary.anything_changed() {
        Exit::Findings
    } else {
        Exit::Ok
    })
}
