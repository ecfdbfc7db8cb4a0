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
    let evaluate_tree = |bytes: &[u8]| match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(value) => profiles::evaluate(&value, bytes, path, &options),
        Err(error) => profiles::evaluate_unparsable(&parse_error(bytes, &error), path, &options),
    };
    // An array or a scalar is read without its tree, unless a forced profile reads it.
    let report = match crate::json::read_root(&bytes) {
        Ok(crate::json::RootReading::Object(value)) => {
            profiles::evaluate(&value, &bytes, path, &options)
        }
        Ok(crate::json::RootReading::Other(_)) => {
            profiles::evaluate_not_an_object(&bytes, path, &options)
                .unwrap_or_else(|| evaluate_tree(&bytes))
        }
        Ok(crate::json::RootReading::ObjectOverCap { cap }) => {
            return Err(CliError::Usage(format!(
                "{}: {}; not read",
                safe_path(&args.file),
                crate::json::over_tree_cap(crate::json::JsonType::Object, cap)
            )))
        }
        Err(_) => evaluate_tree(&bytes),
    };
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
