//! `convert`: one JSON line per packet with the emitted batch and its digests, or the error.

use super::common::{for_each_packet_found, json_line, ConversionFlags};
use super::{CliError, Exit, Output};
use crate::a2a::{convert, ConversionError};
use crate::corpus::{kind_after_conversion, PacketKind, Source};
use crate::json::Digest;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;

/// Convert raw A2A packets to canonical evidence batches, one JSON line per packet.
///
/// PATH is a file, a directory (every *.json below it, recursively, sorted by path) or an
/// .ndjson/.jsonl file (one packet per non-blank line). A file named on the command line is
/// converted whatever it holds (any bytes get the adapter's outcome); in a directory, files
/// that are not raw packets (expected payloads, goldens.json, other formats) are skipped and
/// named on stderr with their kind. Exit 0 when every packet converted, 1 when any did not,
/// 2 on usage or I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    /// Files, directories or NDJSON streams of raw packets.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

#[derive(Serialize)]
struct Digests {
    payload: Digest,
    handoff: Digest,
    discovery: Digest,
}

#[derive(Serialize)]
struct Line<'a> {
    source: &'a Source,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    batch: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    digests: Option<Digests>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a ConversionError>,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let mut failed = 0usize;
    let mut write_error = None;
    let mut skipped = 0usize;
    let load_errors = for_each_packet_found(&args.paths, &mut |packet, named| {
        let conversion = convert(&packet.bytes, &options);
        // A file found in a directory is converted only when the one classifier calls it a
        // raw packet (or bytes that are not JSON, whose verdict is the adapter's C3 error);
        // a file named on the command line is the adapter's input whatever it holds.
        if !named {
            let mut reparsed = None;
            let (kind, _) = kind_after_conversion(&packet, &conversion, &mut reparsed);
            if !matches!(kind, PacketKind::RawA2a | PacketKind::NotJson) {
                skipped += 1;
                eprintln!(
                    "handoff-inspector: skipped {}: {} ({}), not a raw A2A packet",
                    packet.source,
                    kind.tag(),
                    kind.name()
                );
                return;
            }
        }
        let line = match &conversion.result {
            Ok(converted) => Line {
                source: &packet.source,
                ok: true,
                batch: Some(converted.batch()),
                digests: Some(Digests {
                    payload: converted.payload_digest(),
                    handoff: converted.handoff_digest(),
                    discovery: converted.discovery_digest(),
                }),
                error: None,
            },
            Err(error) => {
                failed += 1;
                Line {
                    source: &packet.source,
                    ok: false,
                    batch: None,
                    digests: None,
                    error: Some(error),
                }
            }
        };
        if let Err(error) = json_line(output, &line) {
            write_error = Some(error);
        }
    });
    if let Some(error) = write_error {
        return Err(error);
    }
    if skipped > 0 {
        eprintln!("handoff-inspector: skipped {skipped} file(s) that are not raw A2A packets");
    }
    Ok(Exit::from_counts(load_errors, failed))
}
