//! `bundle`: write an assay evidence bundle from raw packets (converted) and evidence events.

use super::common::{for_each_packet, ConversionFlags};
use super::{CliError, Exit, Output};
use crate::a2a::convert;
use crate::bundle::write::{assign_run, default_run_id, write_bundle};
use crate::corpus::{classify_packet, PacketKind};
use crate::json::safe_text;
use crate::persist::{write_atomically, Replace};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Write an assay evidence bundle (.tar.gz) that upstream's verifier accepts.
///
/// Every raw A2A packet under PATH is converted (in --mode); evidence events and the events
/// of adapter batches are taken as they are; other packets are named on stderr and left out. In the order found they get one
/// colon-free run id, seq 0, 1, 2, ..., ids RUN_ID:SEQ and their content hashes, and are
/// written as upstream's writer writes them: the same input gives the same bytes. The file is
/// written to a temporary name beside --out and renamed into place, with the permissions the
/// umask gives a new file (a file replaced with --force keeps its own).
///
/// Exit 0 when every packet went in, 1 when some could not be converted (they are named on
/// stderr and left out; the bundle is still written), 2 when nothing could be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    #[command(flatten)]
    pub walk: super::common::WalkFlags,
    /// The bundle to write.
    #[arg(long, value_name = "FILE.tar.gz")]
    pub out: PathBuf,
    /// The run id (no ':'); default `run-` and 16 hex digits of the events' run root.
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// Files, directories or NDJSON streams of raw packets or evidence events.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let io_error = |error: std::io::Error| CliError::Io {
        path: args.out.display().to_string(),
        error,
    };
    if args.out.exists() && !args.force {
        return Err(CliError::Usage(format!(
            "{}: exists; pass --force to replace it",
            safe_text(&args.out.display().to_string())
        )));
    }
    let options = args.conversion.options();
    let mut events = Vec::new();
    let mut skipped = 0usize;
    // Packets named on stderr and left out, whatever the reason (for the last line when none
    // went in).
    let mut left_out = 0usize;
    // A bundle's events are taken like any events, but never those of a bundle that fails
    // verification: re-sealing them would turn tampered lines into a bundle that verifies.
    let mut rejected_bundle: Option<std::sync::Arc<Path>> = None;
    // Reading, converting and writing: the line stays until the bundle is written.
    output.start_progress("bundling", false);
    let load_errors = for_each_packet(&args.paths, &args.walk, output, &mut |packet, output| {
        if let Some(report) = &packet.bundle {
            // Its events follow as packets of their own.
            rejected_bundle = (!report.is_valid()).then(|| packet.source.path.clone());
            return;
        }
        if packet.source.is_bundle_event() && rejected_bundle.as_ref() == Some(&packet.source.path)
        {
            skipped += 1;
            left_out += 1;
            output.note(&format!(
                "{}: event of a bundle that fails verification, left out",
                packet.source
            ));
            return;
        }
        let kind = classify_packet(&packet).kind;
        match kind {
            PacketKind::EvidenceEvent | PacketKind::AdapterBatch => {
                let Ok(value) = serde_json::from_slice::<Value>(&packet.bytes) else {
                    return;
                };
                match value.get("events").and_then(Value::as_array) {
                    Some(batch) if kind == PacketKind::AdapterBatch => {
                        events.extend(batch.iter().cloned())
                    }
                    _ => events.push(value),
                }
            }
            PacketKind::RawA2a | PacketKind::NotJson => {
                match convert(&packet.bytes, &options).result {
                    Ok(converted) => events.push(converted.event().clone()),
                    Err(error) => {
                        skipped += 1;
                        left_out += 1;
                        output.note(&format!(
                            "{}: not converted, left out: {}",
                            packet.source, error.message
                        ));
                    }
                }
            }
            other => {
                left_out += 1;
                output.note(&format!("{}: {}, left out", packet.source, other.name()))
            }
        }
    });
    let out = safe_text(&args.out.display().to_string()).into_owned();
    if load_errors > 0 {
        return Err(CliError::Usage(format!(
            "{out}: nothing written: {load_errors} input(s) could not be read (named above)"
        )));
    }
    if events.is_empty() {
        return Err(CliError::Usage(if left_out == 0 {
            format!(
                "{out}: nothing written: no packets found, and a bundle needs at least one event"
            )
        } else {
            format!("{out}: nothing written: every packet found ({left_out}) was left out (named above), and a bundle needs at least one event")
        }));
    }
    let usage = |e: crate::bundle::write::WriteError| CliError::Usage(format!("bundle: {e}"));
    let run_id = match &args.run_id {
        Some(id) => id.clone(),
        None => default_run_id(&events).map_err(usage)?,
    };
    assign_run(&mut events, &run_id).map_err(usage)?;
    let written = write_bundle(&events).map_err(usage)?;
    let replace = if args.force {
        Replace::Keep
    } else {
        Replace::Never
    };
    write_atomically(&args.out, &written.bytes, replace).map_err(io_error)?;
    output.end_progress();
    output.line(&format!(
        "wrote {}: {} events, run_id {}, run_root {}",
        safe_text(&args.out.display().to_string()),
        written.event_count,
        safe_text(&written.run_id),
        written.run_root
    ));
    Ok(if skipped > 0 {
        Exit::Findings
    } else {
        Exit::Ok
    })
}
