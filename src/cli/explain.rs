//! `explain`: why each handoff flag of a raw packet is what it is, or the freeze audit of
//! canonical evidence (payload, event or batch).

use super::common::{for_each_packet, json_line, ConversionFlags, ProfileFlags, TextOrJson};
use super::{CliError, Exit, Output};
use crate::corpus::classify;
use crate::freeze::{audit, explain};
use crate::json::scan_duplicate_keys;
use crate::profiles;
use crate::report::explain::{audit_text, explanation_text, AuditJson, ExplanationJson};
use crate::report::profile_text;
use serde_json::Value;
use std::path::PathBuf;

/// Explain each handoff flag of a raw packet against the K1-A rule table, audit canonical
/// evidence (payload, event, batch) against the freeze, or evaluate a master/sub, ContextCore
/// or UAIX packet against its profile's rule table.
///
/// Exit 0 when the packet converted (raw) or conforms (canonical), 1 otherwise, 2 on usage or
/// I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    #[command(flatten)]
    pub profile: ProfileFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// The packet file (an NDJSON file explains each line).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let profile_options = args.profile.options()?;
    let mut findings = 0usize;
    let mut result = Ok(());
    let load_errors = for_each_packet(std::slice::from_ref(&args.file), &mut |packet| {
        let source = packet.source.to_string();
        let duplicates = scan_duplicate_keys(&packet.bytes);
        let parsed: Result<Value, String> =
            serde_json::from_slice(&packet.bytes).map_err(|error| error.to_string());
        let kind = classify(
            parsed.as_ref().map_err(String::as_str),
            packet.source.file_name(),
        )
        .kind;
        let (conforms, written) = match (&parsed, kind.canonical_shape()) {
            (Ok(value), Some(shape)) => {
                let audit = audit(value, shape);
                let written = match args.format {
                    TextOrJson::Text => text(output, &audit_text(&source, &audit, &duplicates)),
                    TextOrJson::Json => {
                        json_line(output, &AuditJson::new(&source, &audit, &duplicates))
                    }
                };
                (audit.conforms(), written)
            }
            (Ok(value), None) if kind.is_profile() => {
                let report = profiles::evaluate(
                    value,
                    &packet.bytes,
                    Some(&packet.source.path),
                    &profile_options,
                );
                let written = match args.format {
                    TextOrJson::Text => text(output, &profile_text::render(&report)),
                    TextOrJson::Json => json_line(output, &report),
                };
                (report.conforms(), written)
            }
            // Everything else is what the adapter would be handed: explain its verdict.
            _ => {
                let explanation = explain(&packet.bytes, &options);
                let written = match args.format {
                    TextOrJson::Text => text(
                        output,
                        &explanation_text(&source, &explanation, &duplicates),
                    ),
                    TextOrJson::Json => json_line(
                        output,
                        &ExplanationJson::new(&source, &explanation, &duplicates),
                    ),
                };
                (explanation.conversion.error().is_none(), written)
            }
        };
        if !conforms || !duplicates.is_empty() {
            findings += 1;
        }
        if written.is_err() {
            result = written;
        }
    });
    result?;
    Ok(Exit::from_counts(load_errors, findings))
}

fn text(output: &mut Output, text: &str) -> Result<(), CliError> {
    output.line(text.trim_end());
    Ok(())
}
