//! What every `check` format is written through, below the writers and the output that picks
//! one: the formats (`--format`), the [`CheckWriter`] trait each format's file implements, the
//! options that shape the output, and why a report could not be written.

use crate::a2a::Mode;
use crate::corpus::{CheckItem, Shard};
use crate::report::styled::StyledWrite;
use crate::report::tally::CheckTally;
use std::fmt;
use std::io::{self, Write};

/// The formats `check` and `report` write (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
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

/// Makes an item's line on a worker thread, before the ordered writer takes it.
pub type LineMaker = fn(&CheckItem) -> Result<Vec<u8>, String>;

/// One report format: what it writes before the first item, for each item in walk order, and
/// at the end (where the tally of everything is known).
pub trait CheckWriter {
    /// The maker of this format's per-item line, when it has one: the run calls it on its
    /// worker threads and hands the line to [`CheckWriter::item`].
    fn line_maker(&self) -> Option<LineMaker> {
        None
    }
    /// What comes before the first item (a JSON or SARIF head).
    fn start(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// One item, with its line when [`CheckWriter::line_maker`] made one (made here when
    /// not given). A format written at the end from the tally alone (text, markdown) writes
    /// nothing per item: the default.
    fn item(
        &mut self,
        _item: &CheckItem,
        _line: Option<Result<Vec<u8>, String>>,
        _out: &mut dyn Write,
    ) -> Result<(), OutputError> {
        Ok(())
    }
    /// The end of the document, from the tally of every item.
    ///
    /// `out` takes styled text too: the text report styles what a reader scans for, which a
    /// face draws or drops; the document formats write plain bytes only.
    fn finish(self: Box<Self>, tally: &CheckTally, out: &mut dyn StyledWrite) -> io::Result<()>;
}

/// What shapes the output besides the items.
#[derive(Clone, Debug)]
pub struct CheckOutputOptions {
    pub format: CheckFormat,
    pub modes: Vec<Mode>,
    pub require_golden: bool,
    /// Examples per finding group (text, markdown).
    pub limit: usize,
    /// The PATHs as given (the markdown report names them).
    pub inputs: Vec<String>,
    /// A `--shard` run: named in the JSON head so `report` can put the shards together.
    pub shard: Option<Shard>,
    /// The shard plan's digest (`corpus::PlannedCheck::plan_digest`), named beside the shard
    /// so `report` refuses shards planned over different file sizes.
    pub plan: Option<String>,
    /// The clock the run judged expiry by, RFC 3339, when `--now` fixed it: stated once in
    /// the formats that have a head (JSON, SARIF, markdown), never inside a finding. `None`:
    /// the system clock, which no report prints (two runs print the same bytes).
    pub clock: Option<String>,
}

/// Why a report could not be written.
#[derive(Debug)]
pub enum OutputError {
    /// Writing the report failed: the reader went away (`BrokenPipe`), a full disk, ...
    Write(io::Error),
    /// A writer's spool file (JUnit's testcases) could not be written.
    Spool(io::Error),
    /// An item could not be encoded.
    Encode(String),
}

impl OutputError {
    /// Whether the reader went away: a quiet end, not a failure.
    pub fn is_closed_pipe(&self) -> bool {
        matches!(self, OutputError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Write(error) => write!(f, "cannot write the report: {error}"),
            OutputError::Spool(error) => write!(f, "cannot write the JUnit spool: {error}"),
            OutputError::Encode(error) => write!(f, "cannot encode output: {error}"),
        }
    }
}

impl From<io::Error> for OutputError {
    fn from(error: io::Error) -> Self {
        OutputError::Write(error)
    }
}

/// A line and its newline.
pub(super) fn line(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(bytes)?;
    out.write_all(b"\n")
}
