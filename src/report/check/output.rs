//! What `check` prints, in every format, from the stream of checked items: the one writer
//! `check` (items from the corpus) and `report` (items read back from saved results) both
//! feed, so the two print the same bytes for the same items. Each format is a
//! [`CheckWriter`] in its own file (as ripgrep's printers each implement its `Sink`; the trait,
//! the formats and the options are in `writer.rs`, below them all); this file keeps the one
//! table from format to writer and the output that tallies every item for them.

pub use super::writer::{CheckFormat, CheckOutputOptions, CheckWriter, LineMaker, OutputError};
use crate::corpus::CheckItem;
use crate::report::styled::StyledWrite;
use crate::report::tally::CheckTally;
use std::io::{self, Write};

impl CheckFormat {
    /// The writer of this format: the one place a format is tied to its file.
    fn writer(self, options: &CheckOutputOptions) -> io::Result<Box<dyn CheckWriter>> {
        Ok(match self {
            CheckFormat::Text => Box::new(super::text::TextWriter),
            CheckFormat::Json => Box::new(super::json::JsonWriter::new(options)),
            CheckFormat::Junit => Box::new(super::junit::JunitWriter::new(options.require_golden)?),
            CheckFormat::Markdown => Box::new(super::review::MarkdownWriter::new(options)),
            CheckFormat::Sarif => Box::new(super::sarif::SarifWriter::new(options)),
        })
    }
}

pub struct CheckOutput {
    tally: CheckTally,
    writer: Box<dyn CheckWriter>,
}

impl CheckOutput {
    /// Starts the output: JSON and SARIF write their heads now.
    pub fn start(
        options: CheckOutputOptions,
        out: &mut dyn Write,
    ) -> Result<CheckOutput, OutputError> {
        let tally = CheckTally::new(&options.modes, options.require_golden, options.limit);
        let mut writer = options
            .format
            .writer(&options)
            .map_err(OutputError::Spool)?;
        writer.start(out)?;
        Ok(CheckOutput { tally, writer })
    }

    /// The maker of the format's per-item line, to run wherever the caller likes (`check`
    /// runs it on its worker threads) and hand back to `add`.
    pub fn line_maker(&self) -> Option<LineMaker> {
        self.writer.line_maker()
    }

    /// One item, in walk order, with the line its `line_maker` made (made here when not given).
    pub fn add(
        &mut self,
        item: &CheckItem,
        line: Option<Result<Vec<u8>, String>>,
        out: &mut dyn Write,
    ) -> Result<(), OutputError> {
        self.tally.add(item);
        self.writer.item(item, line, out)
    }

    pub fn tally(&self) -> &CheckTally {
        &self.tally
    }

    /// Ends the output; returns the exit code (0 conforms, 1 a packet fails, 2 unreadable
    /// input).
    pub fn finish(self, out: &mut dyn StyledWrite) -> Result<u8, OutputError> {
        let exit = self.tally.exit_code();
        self.writer.finish(&self.tally, out)?;
        Ok(exit)
    }
}
