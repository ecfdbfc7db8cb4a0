//! `explain`: why each handoff flag of a raw packet is what it is, or the freeze audit of
//! canonical evidence (payload, event or batch).

use super::common::{for_each_packet, json_line, ConversionFlags, TextOrJson};
use super::{CliError, Exit, Output};
use crate::freeze::{audit, detect_canonical, explain};
use crate::json::scan_duplicate_keys;
use crate::report::explain::{audit_text, explanation_text, AuditJson, ExplanationJson};
use std::path::PathBuf;

/// Explain each handoff flag of a raw packet against the K1-A rule table, or audit canonical
/// evidence (payload, event, batch) against the freeze.
///
/// Exit 0 when the packet converted (raw) or conforms (canonical), 1 otherwise, 2 on usage or
/// I/O errors.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub conversion: ConversionFlags,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: TextOrJson,
    /// The packet file (an NDJSON file explains each line).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = args.conversion.options();
    let mut findings = 0usize;
    let mut result = Ok(());
    let load_errors = for_each_packet(std::slice::from_ref(&args.file), &mut |packet| {
        let source = packet.source.to_string();
        let duplicates = scan_duplicate_keys(&packet.bytes);
        let canonical = serde_json::from_slice(&packet.bytes)
            .ok()
            .and_then(|value| detect_canonical(&value).map(|(shape, _)| (value, shape)));
        let written = match canonical {
            Some((value, shape)) => {
                let audit = audit(&value, shape);
                if !audit.conforms() || !duplicates.is_empty() {
                    findings += 1;
                }
                match args.format {
                    TextOrJson::Text => {
                        output.line(audit_text(&source, &audit, &duplicates).trim_end());
                        Ok(())
                    }
                    TextOrJson::Json => {
                        json_line(output, &AuditJson::new(&source, &audit, &duplicates))
                    }
                }
            }
            None => {
                let explanation = explain(&packet.bytes, &options);
                if explanation.conversion.error().is_some() || !duplicates.is_empty() {
                    findings += 1;
                }
                match args.format {
                    TextOrJson::Text => {
                        output
                            .line(explanation_text(&source, &explanation, &duplicates).trim_end());
                        Ok(())
                    }
                    TextOrJson::Json => json_line(
                        output,
                        &ExplanationJson::new(&source, &explanation, &duplicates),
                    ),
                }
            }
        };
        if written.is_err() {
            result = written;
        }
    });
    result?;
    Ok(if load_errors > 0 {
        Exit::Usage
    } else if findings > 0 {
        Exit::Findings
    } else {
        Exit::Ok
    })
}
