//! `report`: saved `check --format json` results rendered as `check` would have printed them
//! for the whole: the shards of a `check --shard K/N` job matrix put back together, or any
//! saved runs one after another. The items are read back and fed to the writer `check` feeds
//! (`report::check_output`), so the bytes and the exit code are `check`'s own.

use super::{CliError, Exit, Output};
use crate::corpus::CheckItem;
use crate::report::check_json_read::{is_tail, read_head, read_packet, SavedHead};
use crate::report::check_output::{CheckOutput, CheckOutputOptions};
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

/// A saved packet line is one packet's results; a line past this is not one `check` wrote.
const MAX_LINE_BYTES: u64 = 1 << 30;

/// Render saved `check --format json` results as `check` would have printed them.
///
/// Each SAVED file is the output of `check --format json` (with or without `--shard K/N`).
/// Shards of one run are put back in K order (every K of N must be there once), so
/// `report --format markdown part-*.json` prints exactly what `check --format markdown` prints
/// for the whole corpus, with the same exit code. Saved runs that are not shards are rendered
/// one after another as one run. Exit 0 when nothing fails, 1 on a failing packet, 2 when a
/// saved file cannot be read or the shards do not fit together.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Output format, as for `check`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: super::check::CheckFormat,
    /// Examples listed per group of findings (text and markdown).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
    /// Saved `check --format json` outputs.
    #[arg(required = true, value_name = "SAVED")]
    pub saved: Vec<PathBuf>,
}

/// One saved file being read.
struct Saved {
    path: PathBuf,
    head: SavedHead,
    reader: BufReader<std::fs::File>,
    /// Lines read so far (for errors).
    line: usize,
    /// A packet line read while looking for the leading manifest errors.
    pending: Option<String>,
    ended: bool,
}

fn read_error(
    saved_path: &std::path::Path,
    line: usize,
    reason: impl std::fmt::Display,
) -> CliError {
    CliError::Usage(
        crate::json::safe_text(&format!("{}:{line}: {reason}", saved_path.display())).into_owned(),
    )
}

impl Saved {
    fn open(path: &std::path::Path) -> Result<Saved, CliError> {
        let file = crate::input::open_regular(path).map_err(CliError::Input)?;
        let mut saved = Saved {
            path: path.to_path_buf(),
            head: SavedHead {
                modes: Vec::new(),
                require_golden: None,
                paths: None,
                shard: None,
                plan: None,
                clock: None,
            },
            reader: BufReader::with_capacity(1 << 16, file),
            line: 0,
            pending: None,
            ended: false,
        };
        let first = saved.next_line()?.ok_or_else(|| {
            read_error(
                path,
                1,
                "empty file (not a saved `check --format json` result)",
            )
        })?;
        saved.head = read_head(&first).map_err(|reason| read_error(path, 1, reason))?;
        Ok(saved)
    }

    /// The next line, without its newline; `None` at the end of the file.
    fn next_line(&mut self) -> Result<Option<String>, CliError> {
        let mut bytes = Vec::new();
        let read = (&mut self.reader)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|error| read_error(&self.path, self.line + 1, error))?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if bytes.len() as u64 > MAX_LINE_BYTES {
            return Err(read_error(&self.path, self.line, "line over 1 GiB"));
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| read_error(&self.path, self.line, "not UTF-8"))
    }

    /// The next packet, or `None` after the last one (the summary line ends the packets).
    fn next_item(&mut self) -> Result<Option<CheckItem>, CliError> {
        if self.ended {
            return Ok(None);
        }
        let line = match self.pending.take() {
            Some(line) => line,
            None => self.next_line()?.ok_or_else(|| {
                read_error(
                    &self.path,
                    self.line,
                    "ends before its summary (a cut-off result)",
                )
            })?,
        };
        if is_tail(&line) {
            self.ended = true;
            return Ok(None);
        }
        read_packet(&line)
            .map(Some)
            .map_err(|reason| read_error(&self.path, self.line, reason))
    }

    /// The leading manifest errors (`check` reports them before any packet); the first
    /// packet after them waits in `pending`.
    fn manifest_errors(&mut self) -> Result<Vec<CheckItem>, CliError> {
        let mut errors = Vec::new();
        loop {
            let Some(line) = self.next_line()? else {
                return Err(read_error(&self.path, self.line, "ends before its summary"));
            };
            if is_tail(&line) {
                self.pending = Some(line);
                return Ok(errors);
            }
            let item =
                read_packet(&line).map_err(|reason| read_error(&self.path, self.line, reason))?;
            match &item {
                CheckItem::LoadError(error)
                    if crate::corpus::is_manifest_file(&error.source.path) =>
                {
                    errors.push(item)
                }
                _ => {
                    self.pending = Some(line);
                    return Ok(errors);
                }
            }
        }
    }
}

/// Checks that the saved runs render as one: the same modes and `--require-golden`, and
/// either no shards or every shard of one N exactly once (then sorted by K).
fn fit_together(saved: &mut [Saved]) -> Result<(), CliError> {
    let first = &saved[0];
    for other in saved.iter() {
        if other.head.modes != first.head.modes {
            return Err(CliError::Usage(format!(
                "{} was checked in other modes than {} (check --mode must match)",
                other.path.display(),
                first.path.display()
            )));
        }
        if other.head.require_golden != first.head.require_golden {
            return Err(CliError::Usage(format!(
                "{} was checked with another --require-golden than {}",
                other.path.display(),
                first.path.display()
            )));
        }
        if other.head.clock != first.head.clock {
            return Err(CliError::Usage(format!(
                "{} was checked with another --now than {} (one report states one clock)",
                other.path.display(),
                first.path.display()
            )));
        }
    }
    let shards: Vec<_> = saved.iter().filter_map(|saved| saved.head.shard).collect();
    if shards.is_empty() {
        return Ok(());
    }
    if shards.len() != saved.len() {
        return Err(CliError::Usage(
            "some saved results are shards (check --shard) and some are not".to_owned(),
        ));
    }
    // Shards of one run walked the same PATHs; shards of different corpora would print a
    // whole that `check` never made.
    if let Some(other) = saved
        .iter()
        .find(|other| other.head.paths != saved[0].head.paths)
    {
        return Err(CliError::Usage(format!(
            "{} checked other PATHs than {} (the shards of one run name the same PATHs)",
            other.path.display(),
            saved[0].path.display()
        )));
    }
    let count = shards[0].count;
    if shards.iter().any(|shard| shard.count != count) {
        return Err(CliError::Usage(
            "the shards come from runs of different N (check --shard K/N)".to_owned(),
        ));
    }
    // The plan is made from the walked files' sizes: shards that saw other sizes would lose or
    // repeat packets between them (a stream's lines above all), so they do not fit.
    if let Some(other) = saved
        .iter()
        .find(|other| other.head.plan != saved[0].head.plan)
    {
        return Err(CliError::Usage(format!(
            "{} was planned over other file sizes than {} (a file changed between the shards' \
             runs): run every shard again",
            other.path.display(),
            saved[0].path.display()
        )));
    }
    saved.sort_by_key(|saved| saved.head.shard.map_or(0, |shard| shard.index));
    for (expected, saved) in (1..=count).zip(saved.iter()) {
        let index = saved.head.shard.map_or(0, |shard| shard.index);
        if index != expected {
            return Err(CliError::Usage(format!(
                "shard {expected}/{count} is {}",
                if index < expected {
                    "given twice"
                } else {
                    "missing"
                }
            )));
        }
    }
    if saved.len() != count {
        return Err(CliError::Usage(format!(
            "{} of {count} shards given: shard {}/{count} is missing",
            saved.len(),
            saved.len() + 1
        )));
    }
    Ok(())
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let mut saved = args
        .saved
        .iter()
        .map(|path| Saved::open(path))
        .collect::<Result<Vec<Saved>, CliError>>()?;
    fit_together(&mut saved)?;
    let first = &saved[0].head;
    let inputs: Vec<String> = saved
        .iter()
        .flat_map(|saved| saved.head.paths.clone().unwrap_or_default())
        .collect();
    // The shards of one run all name the same PATHs once.
    let inputs = if first.shard.is_some() {
        first.paths.clone().unwrap_or_default()
    } else {
        inputs
    };
    let options = CheckOutputOptions {
        format: args.format,
        modes: first.modes.clone(),
        require_golden: first.require_golden.unwrap_or(false),
        limit: args.limit,
        inputs,
        shard: None,
        plan: None,
        clock: first.clock.clone(),
    };
    let ended = |error, exit| super::check::output_error(error).map_or(Ok(exit), Err);
    let mut sink = match CheckOutput::start(options, output) {
        Ok(sink) => sink,
        Err(error) => return ended(error, Exit::Ok),
    };
    // `check` reports every manifest's load error before the packets: so do the shards' put
    // together.
    let mut heads = Vec::new();
    for saved in &mut saved {
        heads.extend(saved.manifest_errors()?);
    }
    let so_far = |sink: &CheckOutput| Exit::from_code(sink.tally().exit_code());
    for item in &heads {
        if let Err(error) = sink.add(item, None, output) {
            return ended(error, so_far(&sink));
        }
    }
    for saved in &mut saved {
        while let Some(item) = saved.next_item()? {
            if let Err(error) = sink.add(&item, None, output) {
                return ended(error, so_far(&sink));
            }
        }
    }
    let exit = so_far(&sink);
    match sink.finish(output) {
        Ok(code) => Ok(Exit::from_code(code)),
        Err(error) => ended(error, exit),
    }
}
