//! `handoff-inspector profile FILE`: detect which handoff profile one file is and evaluate
//! every row of that profile's table. Exit 0 when no row fails, 1 when one does (or nothing
//! was recognised), 2 on usage or I/O errors.

use super::common::ProfileFlags;
use super::output::{CliError, Exit, Output};
use crate::profiles::{self, ProfileKind, ProfileOptions};
use crate::report::profile_text;
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Output format of `profile` and `formats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Evaluate one master/sub, ContextCore or UAIX handoff packet against its rule table",
    long_about = "Detects which handoff profile FILE is (master/sub handoff record AHC-*, ContextCore \
                  CC-MSG / CC-CONTRACT / CC-STORE CC-*, UAIX uai.agent.handoff.v1 UAIX-*) and \
                  evaluates every row of that profile's rule table, with the JSON path and value \
                  behind each verdict.\n\nExit status: 0 no row failed, 1 a row failed or no \
                  profile was recognised, 2 usage or I/O error. A packet with no failing row has \
                  the expected shape; that is not a correct, authorized or successful handoff."
)]
pub struct Args {
    /// The packet (one JSON document).
    pub file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    #[command(flatten)]
    pub profile: ProfileFlags,
    /// Evaluate as this profile instead of detecting one: ahc, cc-msg, cc-contract, cc-store, uaix.
    #[arg(long = "as", value_name = "PROFILE", value_parser = parse_kind)]
    pub force: Option<ProfileKind>,
    /// An earlier snapshot of the same ContextCore handoff; its status is checked against
    /// this one's (CC-11).
    #[arg(long, value_name = "FILE")]
    pub previous: Option<PathBuf>,
    /// FILE is NDJSON: evaluate each line on its own and print one compact JSON line per
    /// input line, `{"line", "report"}` (the report `--format json` prints) or
    /// `{"line", "error"}` (exit 1 when any line fails or is not read).
    #[arg(long, conflicts_with = "format")]
    pub lines: bool,
}

fn parse_kind(text: &str) -> Result<ProfileKind, String> {
    text.parse()
}

fn read(path: &Path) -> Result<Vec<u8>, CliError> {
    Ok(crate::input::read_file(
        path,
        crate::corpus::DEFAULT_MAX_FILE_BYTES,
    )?)
}

fn safe_path(path: &Path) -> String {
    crate::json::safe_text(&path.display().to_string()).into_owned()
}

/// The `status` of an earlier snapshot.
fn previous_status(path: &Path) -> Result<String, CliError> {
    let bytes = read(path)?;
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|e| CliError::Usage(format!("{}: not JSON: {e}", safe_path(path))))?;
    match value.get("status").and_then(serde_json::Value::as_str) {
        Some(status) => Ok(status.to_owned()),
        None if value.get("status").is_none() => Ok("pending".to_owned()),
        None => Err(CliError::Usage(format!(
            "{}: status is not a string",
            safe_path(path)
        ))),
    }
}

/// Writes `value` as pretty JSON, every character unsafe for a terminal escaped.
pub(super) fn print_json(
    value: &impl serde::Serialize,
    output: &mut Output,
) -> Result<(), CliError> {
    let text = crate::json::to_safe_json_pretty(value)
        .map_err(|e| CliError::Usage(format!("cannot write JSON: {e}")))?;
    output.line(&text);
    Ok(())
}

pub fn run(args: &Args, output: &mut Output) -> Result<Exit, CliError> {
    let options = ProfileOptions {
        force: args.force,
        previous_status: args.previous.as_deref().map(previous_status).transpose()?,
        ..args.profile.options()?
    };
    let bytes = read(&args.file)?;
    let path = Some(args.file.as_path());
    if args.lines {
        return evaluate_lines(&bytes, path, &options, output);
    }
    let report = evaluate_bytes(&bytes, path, &options)
        .map_err(|why| CliError::Usage(format!("{}: {why}; not read", safe_path(&args.file))))?;
    match args.format {
        Format::Text => {
            for line in profile_text::render(&report).lines() {
                output.line(line);
            }
        }
        Format::Json => print_json(&report, output)?,
    }
    Ok(if report.conforms() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

/// The report on one JSON document, or why its tree is not built (an object over the cap).
fn evaluate_bytes(
    bytes: &[u8],
    path: Option<&Path>,
    options: &ProfileOptions,
) -> Result<profiles::ProfileReport, String> {
    let evaluate_tree = |bytes: &[u8]| match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(value) => profiles::evaluate(&value, bytes, path, options),
        Err(error) => profiles::evaluate_unparsable(&parse_error(bytes, &error), path, options),
    };
    // An array or a scalar is read without its tree, unless a forced profile reads it.
    Ok(match crate::json::read_root(bytes) {
        Ok(crate::json::RootReading::Object(value)) => {
            profiles::evaluate(&value, bytes, path, options)
        }
        Ok(crate::json::RootReading::Other(_)) => {
            profiles::evaluate_not_an_object(bytes, path, options)
                .unwrap_or_else(|| evaluate_tree(bytes))
        }
        Ok(crate::json::RootReading::ObjectOverCap { cap }) => {
            return Err(crate::json::over_tree_cap(
                crate::json::JsonType::Object,
                cap,
            ))
        }
        Err(_) => evaluate_tree(bytes),
    })
}

/// `--lines`: each line of an NDJSON input evaluated on its own (blank lines skipped), one
/// compact, terminal-safe JSON line out per line in, in input order; exit 1 when any line
/// fails a row or is not read. `scripts/contextcore_differential.py` drives it.
fn evaluate_lines(
    bytes: &[u8],
    path: Option<&Path>,
    options: &ProfileOptions,
    output: &mut Output,
) -> Result<Exit, CliError> {
    let mut failed = false;
    for (index, line) in bytes.split(|byte| *byte == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let number = index + 1;
        let record = match evaluate_bytes(line, path, options) {
            Ok(report) => {
                failed |= !report.conforms();
                serde_json::json!({"line": number, "report": report})
            }
            Err(why) => {
                failed = true;
                serde_json::json!({"line": number, "error": format!("{why}; not read")})
            }
        };
        output.line(&crate::json::escape_unsafe_in_json(record.to_string()));
        if output.stopped() {
            break;
        }
    }
    Ok(if failed { Exit::Findings } else { Exit::Ok })
}

/// The parser's message, but a lone surrogate escape named as what it is (the reading
/// layer's words), not as the cut-off escape serde_json reports.
fn parse_error(bytes: &[u8], error: &serde_json::Error) -> String {
    let reason = crate::corpus::not_json_reason(bytes, error);
    if reason.starts_with("an unpaired surrogate") {
        reason
    } else {
        error.to_string()
    }
}
