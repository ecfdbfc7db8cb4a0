//! `check`: every packet of a corpus converted (both modes by default) or audited, compared
//! with its directory's golden manifest and its paired expected payloads.

use super::common::CorpusRunFlags;
use super::{CliError, Exit, Output};
use crate::corpus::{check_corpus_shard, CheckItem, Shard};
use crate::report::check_output::{CheckOutput, CheckOutputOptions};
use clap::ValueEnum;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// A summary and the findings grouped by kind.
    Text,
    /// One object: per-packet results (one per line) and summary counts.
    Json,
    /// JUnit XML: one testcase per packet and mode.
    Junit,
    /// The reviewer's report: review checklist, coverage matrix, findings.
    Markdown,
    /// SARIF 2.1.0 for code-scanning views and pull-request annotations.
    Sarif,
}

impl From<CheckFormat> for crate::report::check_output::CheckFormat {
    fn from(format: CheckFormat) -> Self {
        use crate::report::check_output::CheckFormat as Out;
        match format {
            CheckFormat::Text => Out::Text,
            CheckFormat::Json => Out::Json,
            CheckFormat::Junit => Out::Junit,
            CheckFormat::Markdown => Out::Markdown,
            CheckFormat::Sarif => Out::Sarif,
        }
    }
}

/// Check every packet under PATH against its golden manifest and paired expected payloads.
///
/// Raw packets are converted (both modes by default) and compared with `goldens.json` in their
/// directory and with NAME.MODE.payload.json beside them; canonical payloads, events and
/// batches are audited against the freeze; duplicate keys and unreadable input are reported.
/// A packet without a golden is reported but fails only under --require-golden. Exit 0 when
/// nothing fails, 1 on any finding, 2 on usage or I/O errors (an unreadable input, a malformed
/// manifest).
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub run: CorpusRunFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CheckFormat,
    /// Fail packets that have no golden entry.
    #[arg(long)]
    pub require_golden: bool,
    /// Examples listed per group of findings (text and markdown).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Check only shard K of N (1 <= K <= N): the walk cut into N contiguous parts, so a CI
    /// job matrix splits a corpus and `report` puts the saved parts back together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print packets, elapsed time, packets/s and peak memory to stderr when done.
    #[arg(long)]
    pub stats: bool,
    /// Files, directories or NDJSON streams.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// CPU time of this process so far (user + system), in seconds, from `/proc/self/stat`
/// (fields 14 and 15, in the kernel's fixed 100 Hz user ticks).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after it are plain.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}

/// Peak resident memory of this process (Linux `VmHWM`), in KiB.
pub(super) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let started = std::time::Instant::now();
    let modes = args.run.modes();
    let options = args.run.check_options()?;
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(CliError::Usage)?;
    let format = args.format.into();
    let spool_error = |error: std::io::Error| CliError::Io {
        path: "(output)".to_owned(),
        error,
    };
    let mut sink = CheckOutput::start(
        CheckOutputOptions {
            format,
            modes,
            require_golden: args.require_golden,
            limit: args.limit,
            inputs: args
                .paths
                .iter()
                .map(|path| path.display().to_string())
                .collect(),
            shard,
        },
        output,
    )
    .map_err(spool_error)?;
    let mut failure: Option<String> = None;
    // JSON lines are rendered on the worker threads; the sink only writes them in order.
    let render = |item: CheckItem| {
        let line = CheckOutput::json_line(format, &item);
        (item, line)
    };
    check_corpus_shard(
        &args.paths,
        &options,
        args.run.corpus.pipeline(),
        true,
        shard,
        &render,
        &mut |(item, line): (CheckItem, Option<Result<Vec<u8>, String>>)| {
            if failure.is_none() {
                if let Err(error) = sink.add(&item, line, output) {
                    failure = Some(error);
                }
            }
        },
    )
    .map_err(CliError::Usage)?;
    if let Some(error) = failure {
        return Err(CliError::Usage(error));
    }
    let packets = sink.tally().packets;
    let load_errors = sink.tally().load_errors;
    let exit = sink.finish(output).map_err(spool_error)?;
    if args.stats {
        let seconds = started.elapsed().as_secs_f64();
        let _ = output.flush();
        let cpu = cpu_seconds().map_or("unknown".to_owned(), |cpu| {
            format!(
                "{cpu:.2} s ({:.2} us/packet)",
                cpu * 1e6 / (packets.max(1) as f64)
            )
        });
        eprintln!(
            "stats: {} packets, {} load errors in {seconds:.3} s: {:.0} packets/s; cpu {cpu}; peak RSS {}",
            packets,
            load_errors,
            packets as f64 / seconds.max(1e-9),
            peak_rss_kib().map_or("unknown".to_owned(), |kib| format!("{} MiB", kib / 1024))
        );
    }
    Ok(Exit::from_code(exit))
}
