//! What `check` prints, in every format, from the stream of checked items: the one writer
//! `check` (items from the corpus) and `report` (items read back from saved results) both
//! feed, so the two print the same bytes for the same items.

use super::check_json::JsonStream;
use super::check_text::check_text;
use super::junit::JunitWriter;
use super::review::review_markdown;
use super::sarif::SarifWriter;
use super::tally::CheckTally;
use crate::a2a::Mode;
use crate::corpus::{CheckItem, Shard};
use std::io::{self, Write};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    Text,
    Json,
    Junit,
    Markdown,
    Sarif,
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
}

pub struct CheckOutput {
    options: CheckOutputOptions,
    tally: CheckTally,
    json: Option<JsonStream>,
    junit: Option<JunitWriter>,
    sarif: Option<SarifWriter>,
}

fn line(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(bytes)?;
    out.write_all(b"\n")
}

impl CheckOutput {
    /// Starts the output: JSON and SARIF write their heads now.
    pub fn start(options: CheckOutputOptions, out: &mut dyn Write) -> io::Result<CheckOutput> {
        let tally = CheckTally::new(&options.modes, options.require_golden, options.limit);
        let mut json = None;
        let mut junit = None;
        let mut sarif = None;
        match options.format {
            CheckFormat::Json => {
                let (stream, head) = JsonStream::start(
                    &options.modes,
                    options.require_golden,
                    &options.inputs,
                    options.shard,
                );
                line(out, head.as_bytes())?;
                json = Some(stream);
            }
            CheckFormat::Junit => junit = Some(JunitWriter::new(options.require_golden)?),
            CheckFormat::Sarif => {
                let writer = SarifWriter::new(options.require_golden);
                line(out, writer.head().as_bytes())?;
                sarif = Some(writer);
            }
            CheckFormat::Text | CheckFormat::Markdown => {}
        }
        Ok(CheckOutput {
            options,
            tally,
            json,
            junit,
            sarif,
        })
    }

    /// The item's JSON line, when the format needs one: made wherever the caller likes (`check`
    /// makes it on its worker threads), handed back to `add`.
    pub fn json_line(format: CheckFormat, item: &CheckItem) -> Option<Result<Vec<u8>, String>> {
        match format {
            CheckFormat::Json => {
                Some(super::check_json::packet_json(item).map_err(|error| error.to_string()))
            }
            _ => None,
        }
    }

    pub fn format(&self) -> CheckFormat {
        self.options.format
    }

    /// One item, in walk order, with its `json_line` (made here when not given).
    pub fn add(
        &mut self,
        item: &CheckItem,
        json_line: Option<Result<Vec<u8>, String>>,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        self.tally.add(item);
        if let Some(stream) = self.json.as_mut() {
            let json_line = json_line
                .or_else(|| Self::json_line(CheckFormat::Json, item))
                .unwrap_or_else(|| Err("no JSON line".to_owned()));
            let json_line = json_line.map_err(|error| format!("cannot encode output: {error}"))?;
            if let Some(previous) = stream.push(json_line) {
                line(out, &previous).map_err(|error| error.to_string())?;
            }
        }
        if let Some(writer) = self.junit.as_mut() {
            writer
                .add(item)
                .map_err(|error| format!("(junit spool): {error}"))?;
        }
        if let Some(writer) = self.sarif.as_mut() {
            for result in writer.add(item) {
                line(out, result.as_bytes()).map_err(|error| error.to_string())?;
            }
        }
        Ok(())
    }

    pub fn tally(&self) -> &CheckTally {
        &self.tally
    }

    /// Ends the output; returns the exit code (0 conforms, 1 a packet fails, 2 unreadable
    /// input).
    pub fn finish(mut self, out: &mut dyn Write) -> io::Result<u8> {
        match self.options.format {
            CheckFormat::Text => line(out, check_text(&self.tally).trim_end().as_bytes())?,
            CheckFormat::Markdown => line(
                out,
                review_markdown(&self.tally, &self.options.inputs)
                    .trim_end()
                    .as_bytes(),
            )?,
            CheckFormat::Json => {
                if let Some(stream) = self.json.take() {
                    for json_line in stream.finish(&self.tally) {
                        line(out, &json_line)?;
                    }
                }
            }
            CheckFormat::Junit => {
                if let Some(writer) = self.junit.take() {
                    writer.finish(out)?;
                }
            }
            CheckFormat::Sarif => {
                if let Some(writer) = self.sarif.take() {
                    for sarif_line in writer.finish() {
                        line(out, sarif_line.as_bytes())?;
                    }
                }
            }
        }
        Ok(self.tally.exit_code())
    }
}
