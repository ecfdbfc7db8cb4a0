//! `convert`: one JSON line per packet with the emitted batch and its digests, or the error.

use super::common::{for_each_packet_found, ConversionFlags};
use super::{CliError, Exit, Output};
use crate::a2a::convert;
use crate::corpus::{kind_after_conversion, PacketKind};
use crate::report::convert_line::convert_line;
use std::path::PathBuf;

/// Convert raw A2A packets to canonical evidence batches, one JSON line per packet.
///
/// PATH is a file, a directory (every *.json below it, recursively, sorted by path) or an
/// .ndjson/.jsonl file (one packet per non-blank line). A file named on the command line is
/// converted whatever it holds (any bytes get the adapter's outcome); in a directory, every
/// file that shows no other kind's evidence is the adapter's input and converted; the others
/// (expected payloads, goldens.json, other formats) are skipped and named on stderr with
/// their kind. Exit 0 when every packet converted, 1 when any did not,
/// 2 on usage or I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    #[command(flatten)]
    pub walk: super::common::WalkFlags,
    /// Files, directories or NDJSON streams of raw packets.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let mut failed = 0usize;
    let mut write_error = None;
    let mut skipped = 0usize;
    // A line per packet: on a terminal, the lines are the progress.
    output.start_progress("converting", true);
    let load_errors = for_each_packet_found(
        &args.paths,
        &args.walk,
        output,
        &mut |packet, named, output| {
            let conversion = convert(&packet.bytes, &options);
            // A file found in a directory is converted only when the one classifier calls it a
            // raw packet (or bytes that are not JSON, whose verdict is the adapter's C3 error);
            // a file named on the command line is the adapter's input whatever it holds.
            if !named {
                let mut reparsed = None;
                let (kind, _) = kind_after_conversion(&packet, &conversion, &mut reparsed);
                if !matches!(kind, PacketKind::RawA2a | PacketKind::NotJson) {
                    skipped += 1;
                    output.note(&format!(
                        "skipped {}: {} ({}), not a {}",
                        packet.source,
                        kind.tag(),
                        kind.name(),
                        PacketKind::RawA2a.name()
                    ));
                    return;
                }
            }
            if conversion.result.is_err() {
                failed += 1;
            }
            match convert_line(&packet.source, &conversion) {
                Ok(line) => output.line_bytes(&line),
                Err(error) => {
                    write_error = Some(CliError::Usage(format!("cannot encode output: {error}")))
                }
            }
        },
    );
    output.end_progress();
    if let Some(error) = write_error {
        return Err(error);
    }
    if skipped > 0 {
        output.note(&format!(
            "skipped {skipped} file(s) that are not the adapter's input"
        ));
    }
    Ok(Exit::from_counts(load_errors, failed))
}
