//! `check`: every packet of a corpus converted (both modes by default) or audited, compared
//! with its directory's golden manifest and its paired expected payloads.

use super::common::CorpusRunFlags;
use super::{CliError, Exit, Output};
use crate::corpus::{CheckItem, CheckSink, ControlFlow, CorpusCheck, RunError, Shard};
pub use crate::report::check_output::CheckFormat;
use crate::report::check_output::{CheckOutput, CheckOutputOptions, OutputError};
use std::path::PathBuf;

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
    /// Check only shard K of N (1 <= K <= N): the walk cut into N contiguous parts of about
    /// equal bytes, an NDJSON stream of 1 MiB or more by line ranges, so a CI job matrix
    /// splits a corpus (or one big stream) and `report` puts the saved parts back together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Print packets, elapsed time, packets/s and peak memory to stderr when done.
    #[arg(long)]
    pub stats: bool,
    /// Write what drifted or has no golden into goldens.pending.json beside each directory's
    /// goldens.json (the entries `bless` would record), for `bless --accept-pending`; allowed
    /// under CI (no golden is touched), so a CI job can keep them as an artifact.
    #[arg(long)]
    pub write_pending: bool,
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

/// The clock a report states in its head: the `--now` a run was given, in the one RFC 3339
/// form (the system clock is not stated, so two runs print the same bytes).
pub(super) fn stated_clock(run: &CorpusRunFlags) -> Option<String> {
    run.profile
        .now
        .map(|now| now.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true))
}

/// The check's sink: each item into the report as it comes, in walk order; the run stops at
/// the first write that fails (a closed pipe included).
struct Report<'o> {
    report: CheckOutput,
    output: &'o mut Output,
    pending: Option<super::pending::PendingSpool>,
}

impl CheckSink<(CheckItem, Option<Result<Vec<u8>, String>>)> for Report<'_> {
    type Error = OutputError;

    fn take(
        &mut self,
        (item, line): (CheckItem, Option<Result<Vec<u8>, String>>),
    ) -> Result<ControlFlow<()>, OutputError> {
        if let Some(pending) = &mut self.pending {
            pending.take(&item);
        }
        self.output.progress_took(item.source());
        self.report.add(&item, line, self.output)?;
        Ok(ControlFlow::Continue(()))
    }
}

/// A report's write error as the command's: a closed pipe is a quiet end (`None`), any other
/// error ends the command with exit 2.
pub(super) fn output_error(error: OutputError) -> Option<CliError> {
    match error {
        error if error.is_closed_pipe() => None,
        OutputError::Write(error) => Some(CliError::Io {
            path: "standard output".to_owned(),
            error,
        }),
        OutputError::Spool(error) => Some(CliError::Io {
            path: "the JUnit spool (a temporary file)".to_owned(),
            error,
        }),
        OutputError::Encode(reason) => {
            Some(CliError::Usage(format!("cannot encode output: {reason}")))
        }
    }
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let started = std::time::Instant::now();
    let modes = args.run.modes();
    let mut options = args.run.check_options()?;
    let pending = args
        .write_pending
        .then(|| super::pending::PendingSpool::new(&modes))
        .transpose()?;
    // Pending entries carry the content a later accept shows drift against, as bless's do.
    options.record_content = args.write_pending;
    let shard = args
        .shard
        .as_deref()
        .map(Shard::parse)
        .transpose()
        .map_err(CliError::Usage)?;
    // A closed pipe ends the run quietly, with the exit of what was checked until then.
    let ended = |error, exit| output_error(error).map_or(Ok(exit), Err);
    // Walked and planned first: a shard's JSON head names its plan.
    let planned = CorpusCheck::new(&args.paths, &options)
        .pipeline(args.run.corpus.pipeline())
        .shard(shard)
        .plan();
    let report = match CheckOutput::start(
        CheckOutputOptions {
            format: args.format,
            modes,
            require_golden: args.require_golden,
            limit: args.limit,
            inputs: args
                .paths
                .iter()
                .map(|path| path.display().to_string())
                .collect(),
            shard,
            plan: planned.plan_digest().map(str::to_owned),
            clock: stated_clock(&args.run),
        },
        output,
    ) {
        Ok(report) => report,
        Err(error) => return ended(error, Exit::Ok),
    };
    // Lines are made on the worker threads; the sink only writes them in order.
    let maker = report.line_maker();
    let prepare = |item: CheckItem| {
        let line = maker.map(|make| make(&item));
        (item, line)
    };
    // JSON and SARIF write each item as it comes: on a terminal, they are the progress.
    let streams = matches!(args.format, CheckFormat::Json | CheckFormat::Sarif);
    output.start_progress("checking", streams);
    let mut sink = Report {
        report,
        output,
        pending,
    };
    let run = planned.run_prepared(&prepare, &mut sink);
    let Report {
        report,
        output,
        pending,
    } = sink;
    let run = match run {
        Ok(run) => run,
        Err(RunError::Start(reason)) => return Err(CliError::Usage(reason)),
        Err(RunError::Sink(error)) => {
            return ended(error, Exit::from_code(report.tally().exit_code()))
        }
    };
    output.end_progress();
    let packets = report.tally().packets;
    let load_errors = report.tally().load_errors;
    let so_far = Exit::from_code(report.tally().exit_code());
    let exit = match report.finish(output) {
        Ok(exit) => exit,
        Err(error) => return ended(error, so_far),
    };
    // After the report: a reader sees the findings first, then where the pending went.
    match pending {
        Some(pending) => pending.write(
            &run.items,
            &options.evaluate.conversion,
            shard.is_some(),
            output,
        )?,
        None => super::pending::note_waiting(&run.items, output),
    }
    if args.stats {
        let seconds = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds().map_or("unknown".to_owned(), |cpu| {
            format!(
                "{cpu:.2} s ({:.2} us/packet)",
                cpu * 1e6 / (packets.max(1) as f64)
            )
        });
        output.note(&format!(
            "stats: {} packets, {} load errors in {seconds:.3} s: {:.0} packets/s; cpu {cpu}; peak RSS {}",
            packets,
            load_errors,
            packets as f64 / seconds.max(1e-9),
            peak_rss_kib().map_or("unknown".to_owned(), |kib| format!("{} MiB", kib / 1024))
        ));
    }
    Ok(Exit::from_code(exit))
}
