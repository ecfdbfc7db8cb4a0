//! `ls`: what each packet of a corpus is, by shape, with the reason, and what it pairs with.

use super::common::{json_line, CorpusFlags, TextOrJson};
use super::{CliError, Exit, Output};
use crate::a2a::Mode;
use crate::corpus::{
    classify_packet, paired_raw_name, stream_packets, walk, Classification, LoadError, Pairing,
    Source, WalkItem,
};
use crate::json::safe_text;
use crate::report::styled::{Style, StyledText};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// List every packet under PATH with its kind and the reason for it.
///
/// Kinds: raw (raw A2A adapter packet), payload (canonical payload), event (evidence event),
/// batch (adapter batch), a2a-0.3, a2a-1.0, ahc (master/sub handoff record), contextcore,
/// uaix, golden (golden manifest), bundle (assay evidence bundle, with upstream's verdict;
/// its events are listed as BUNDLE:SEQ, kind event), not-json, unknown. Raw packets show the expected payloads
/// paired with them (NAME.MODE.payload.json beside NAME.json). Exit 0, or 2 when an input
/// could not be read.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusFlags,
    /// Output format: text (SOURCE  KIND  REASON) or one JSON object per line.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// Files, directories or NDJSON streams.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Serialize)]
struct Line<'a> {
    source: &'a Source,
    /// The kind's tag, or `load_error`.
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind_name: Option<&'static str>,
    reason: &'a str,
    /// Raw packets: the expected payload file per mode.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    expected_payloads: BTreeMap<&'static str, String>,
    /// Expected payload files: the raw packet file and mode they belong to.
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_payload_of: Option<PairOf>,
}

#[derive(Serialize)]
struct PairOf {
    raw: String,
    mode: Mode,
}

enum Listed {
    Packet(Source, Classification),
    Error(LoadError),
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let items = walk(&args.paths, &args.corpus.walk.options());
    let listed = items.iter().filter_map(|item| match item {
        WalkItem::File { path, .. } => Some(path.clone()),
        WalkItem::Error(_) => None,
    });
    let pairing = Pairing::new(listed);
    let mut load_errors = 0usize;
    let mut failure = None;
    stream_packets(
        &items,
        args.corpus.pipeline(),
        &|_| false,
        |item| match item {
            Ok(packet) => {
                let classification = classify_packet(&packet);
                Listed::Packet(packet.source, classification)
            }
            Err(error) => Listed::Error(error),
        },
        |listed| {
            let written = match &listed {
                Listed::Packet(source, classification) => {
                    let mut expected_payloads = BTreeMap::new();
                    if source.line.is_none() {
                        let named = args.paths.iter().any(|path| **path == *source.path);
                        for (mode, path) in
                            Mode::BOTH.iter().zip(pairing.paired(&source.path, named))
                        {
                            if let Some(path) = path {
                                let name = path
                                    .file_name()
                                    .map(|name| name.to_string_lossy().into_owned())
                                    .unwrap_or_default();
                                expected_payloads.insert(mode.name(), name);
                            }
                        }
                    }
                    let expected_payload_of = source
                        .line
                        .is_none()
                        .then(|| source.file_name().and_then(paired_raw_name))
                        .flatten()
                        .map(|(raw, mode)| PairOf { raw, mode });
                    let line = Line {
                        source,
                        kind: classification.kind.tag(),
                        kind_name: Some(classification.kind.name()),
                        reason: &classification.reason,
                        expected_payloads,
                        expected_payload_of,
                    };
                    write(args.format, output, &line)
                }
                Listed::Error(error) => {
                    load_errors += 1;
                    let line = Line {
                        source: &error.source,
                        kind: "load_error",
                        kind_name: None,
                        reason: &error.reason,
                        expected_payloads: BTreeMap::new(),
                        expected_payload_of: None,
                    };
                    write(args.format, output, &line)
                }
            };
            if let Err(error) = written {
                failure = Some(error);
            }
        },
    )
    .map_err(CliError::Usage)?;
    if let Some(error) = failure {
        return Err(error);
    }
    Ok(if load_errors > 0 {
        Exit::Usage
    } else {
        Exit::Ok
    })
}

fn write(format: TextOrJson, output: &mut Output, line: &Line<'_>) -> Result<(), CliError> {
    match format {
        TextOrJson::Json => json_line(output, line),
        TextOrJson::Text => {
            // The source as a path; a load error as a failure.
            let mut text = StyledText::new();
            text.push_styled(Style::Path, &line.source.to_string());
            text.push("  ");
            let kind_style = (line.kind == "load_error").then_some(Style::Fail);
            text.push_maybe(kind_style, line.kind);
            let _ = write!(text, "  {}", safe_text(line.reason));
            if !line.expected_payloads.is_empty() {
                let pairs: Vec<String> = Mode::BOTH
                    .iter()
                    .filter_map(|mode| {
                        let name = line.expected_payloads.get(mode.name())?;
                        Some(format!("{mode}: {}", safe_text(name)))
                    })
                    .collect();
                let _ = write!(text, "  (expected payloads: {})", pairs.join(", "));
            }
            if let Some(pair) = &line.expected_payload_of {
                let _ = write!(
                    text,
                    "  (expected {} payload of {})",
                    pair.mode,
                    safe_text(&pair.raw)
                );
            }
            output.styled_line(&text);
            Ok(())
        }
    }
}
