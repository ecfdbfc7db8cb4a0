//! `handoff-inspector migrate FILE`: A2A v0.3 -> v1.0 (or back with `--to 0.3`), printing the
//! migrated object, or the step trace with a diff per step. What it prints is written by
//! `report::migrate_text`.

use super::{CliError, Exit, Output};
use crate::a2a::ConvertOptions;
use crate::freeze::relabel_outcome;
use crate::json::{
    for_each_duplicate_key, may_be_an_object, read_root, read_top_level, safe_text, RootReading,
};
use crate::migrate::{
    adapter_artifact_in_text, choices_for, help, Choices, Direction, Hints, Migration,
    MigrationInput, ObjectKind, Version,
};
use crate::report::migrate_text;
use crate::report::relabel_text::relabel_text;
use crate::rules::{Finding, Severity};
use clap::ValueEnum;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    #[value(name = "1.0")]
    V10,
    #[value(name = "0.3")]
    V03,
}

/// `--from`: the version an object is read as, and for v0.3 optionally its dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Source {
    #[value(name = "1.0")]
    V10,
    #[value(name = "0.3")]
    V03,
    /// v0.3 in its HTTP+JSON/REST dialect (ProtoJSON): `{"data": {"data": ...}}` is a data
    /// part holding the inner object, not one holding `{"data": ...}`.
    #[value(name = "0.3-rest")]
    V03Rest,
}

#[derive(Debug, clap::Args)]
#[command(
    about = "Migrate an A2A v0.3 object to v1.0 (or back), step by step",
    long_about = "Migrate one A2A object (Task, Message, Part, Artifact, stream event, JSON-RPC \
                  request or response, push config, Agent Card) from v0.3 (JSON-RPC or \
                  HTTP+JSON dialect) to v1.0, or from v1.0 back to the v0.3 JSON-RPC dialect \
                  with --to 0.3.\n\nBy default prints the migrated object as JSON on stdout \
                  and warnings on stderr. --steps prints each step with its diff; --format \
                  json prints the whole report.\n\nExit codes: 0 migrated (or already in the \
                  target version), 1 the input is not an A2A object, 2 usage or I/O error.",
    after_long_help = help::after_help()
)]
pub struct Args {
    /// The JSON file to migrate (`-` reads standard input).
    #[arg(required_unless_present = "list_steps")]
    pub file: Option<PathBuf>,
    /// Print the step trace with a diff per step instead of the bare result.
    #[arg(long)]
    pub steps: bool,
    /// Trace format: text, or json for {detected, steps, result, warnings, findings}.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Decide a choice point, e.g. --choice history-length-zero=keep (repeatable).
    #[arg(long = "choice", value_name = "KEY=VALUE")]
    pub choices: Vec<String>,
    /// The version to migrate to.
    #[arg(long, value_enum, default_value = "1.0")]
    pub to: Target,
    /// Read the object as this version when its members cannot tell (or over what they say);
    /// `0.3-rest` reads it as v0.3's HTTP+JSON/REST dialect.
    #[arg(long, value_enum)]
    pub from: Option<Source>,
    /// Read the object as this kind when its shape cannot tell (`migrate --help` lists them),
    /// e.g. `part`, `task`, `push-notification-config`, `json-rpc-response`.
    #[arg(long, value_name = "KIND", value_parser = parse_kind)]
    pub kind: Option<ObjectKind>,
    /// FILE is NDJSON: migrate each line on its own and print one compact JSON line per
    /// input line, `{"line", "detected", "steps", "result", "warnings", "findings"}` or
    /// `{"line", "error"}` (exit 1 when any line is not migrated).
    #[arg(long, conflicts_with_all = ["steps", "format"])]
    pub lines: bool,
    /// Print the step ids of both directions (Markdown) and exit.
    #[arg(long, conflicts_with_all = ["file", "steps", "format", "choices"])]
    pub list_steps: bool,
}

fn parse_kind(key: &str) -> Result<ObjectKind, String> {
    ObjectKind::from_key(key).ok_or_else(|| {
        let keys: Vec<String> = ObjectKind::ALL.iter().map(|kind| kind.key()).collect();
        format!("unknown kind {key:?}; one of: {}", keys.join(", "))
    })
}

pub fn run(args: &Args, out: &mut Output) -> Result<Exit, CliError> {
    if args.list_steps {
        out.line("Steps v0.3 -> v1.0, in order:\n");
        out.line(help::steps_markdown(Direction::Forward).trim_end());
        out.line("\nSteps v1.0 -> v0.3 (`--to 0.3`), in order:\n");
        out.line(help::steps_markdown(Direction::Reverse).trim_end());
        return Ok(Exit::Ok);
    }
    let Some(file) = &args.file else {
        return Err(CliError::Usage("migrate: FILE is required".into()));
    };
    let direction = match args.to {
        Target::V10 => Direction::Forward,
        Target::V03 => Direction::Reverse,
    };
    let choices = Choices::parse(
        args.choices.iter().map(String::as_str),
        &choices_for(direction),
    )
    .map_err(CliError::Usage)?;
    let name = safe_text(&file.display().to_string()).into_owned();
    let bytes = read_input(file)?;
    // The detection every face asks: the file name's hint (as `ls` reads it), then what
    // the user forced.
    let file_name = (file.as_os_str() != "-")
        .then(|| file.file_name().and_then(|name| name.to_str()))
        .flatten();
    let from = args.from.map(|from| match from {
        Source::V10 => Version::V1_0,
        Source::V03 | Source::V03Rest => Version::V0_3,
    });
    let mut hints = Hints::from_file_name(file_name).forced(args.kind, from);
    if args.from == Some(Source::V03Rest) {
        hints.dialect = Some(crate::migrate::Dialect::Rest);
    }
    if args.lines {
        return migrate_lines(&bytes, &hints, direction, &choices, out);
    }
    let input = match read_object(&bytes) {
        Ok(input) => input,
        Err(refused) => {
            complain(&format!("{name}: {}", refused.why));
            if refused.adapter_shaped {
                relabelled(&bytes);
            }
            return Ok(Exit::Findings);
        }
    };
    // What the error path needs from the input, so the migration can own it.
    let adapter_shaped = input.get("event_type").is_some() || input.get("protocol").is_some();
    let mut migration = match Migration::run(
        MigrationInput::from(input).hints(&hints),
        direction,
        &choices,
    ) {
        Ok(migration) => migration,
        Err(why) => {
            complain(&format!("{name}: not an A2A object: {why}"));
            if adapter_shaped {
                relabelled(&bytes);
            }
            return Ok(Exit::Findings);
        }
    };
    // The repeated keys go first, last found first (as when each was put in front of the
    // others); built once and spliced in, not inserted one at a time at the front.
    let mut repeated: Vec<Finding> = Vec::new();
    for_each_duplicate_key(&bytes, |duplicate| {
        repeated.push(Finding::new(
            "input",
            Severity::Warning,
            duplicate.path,
            format!(
                "key appears {} times; only the last value was read",
                duplicate.occurrences
            ),
        ));
    });
    repeated.reverse();
    migration.warnings.splice(0..0, repeated);
    let failure = migrate_text::v03_failure(&migration);
    match (args.steps, args.format) {
        (false, None) => {
            out.line(&migrate_text::terminal_safe_json(&migration.result));
            complain(&migrate_text::summary(&name, &migration));
            for finding in migration.warnings.iter().chain(&migration.findings) {
                complain(&migrate_text::finding_line(finding));
            }
        }
        (_, Some(Format::Json)) => {
            // Cannot fail (a `Vec` takes any write, serde_json writes UTF-8); said, not assumed.
            let report = migrate_text::report_json(&migration).map_err(|error| CliError::Io {
                path: name.clone(),
                error: std::io::Error::other(format!("writing the migration report: {error}")),
            })?;
            out.line(&report);
        }
        _ => migrate_text::write_trace(&name, migration, &mut |line| out.line(line)),
    }
    if let Some(why) = failure {
        complain(&format!("{name}: error: {why}"));
        return Ok(Exit::Findings);
    }
    Ok(Exit::Ok)
}

/// `--lines`: each line of an NDJSON input migrated on its own, one compact JSON line out
/// per line in (blank lines skipped), in input order; exit 1 when any line is not migrated.
fn migrate_lines(
    bytes: &[u8],
    hints: &Hints,
    direction: Direction,
    choices: &Choices,
    out: &mut Output,
) -> Result<Exit, CliError> {
    let mut failed = 0usize;
    for (index, line) in bytes.split(|byte| *byte == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let number = index + 1;
        // Read as plain `migrate` reads a file (a line of a million small objects is a 700
        // MiB tree), so a long line costs what its text does.
        let record = match read_object(line) {
            Err(refused) => Err(refused.why),
            Ok(input) => {
                Migration::run(MigrationInput::from(input).hints(hints), direction, choices)
                    .map_err(|why| format!("not an A2A object: {why}"))
            }
        };
        let (line, line_failed) =
            migrate_text::line_record(number, record.as_ref().map_err(String::clone));
        failed += usize::from(line_failed);
        out.line(&line);
    }
    Ok(if failed > 0 { Exit::Findings } else { Exit::Ok })
}

/// Why `migrate` read no object to migrate, and whether the text has the adapter's
/// top-level members (then what relabelling it 1.0 does is said too).
struct Refused {
    why: String,
    adapter_shaped: bool,
}

/// A file or a line read as `migrate` reads it, building no tree it would refuse: the
/// adapter's own packets, payloads and events are refused from their top-level members (the
/// detection's first check; a raw packet of 200k keys, 3.4 MB, was a 20 MB tree and most of a
/// second before), an array or a scalar from its type (a tree of a million small objects
/// costs 50 times the text), an object's tree only within `json::tree_cap`.
fn read_object(bytes: &[u8]) -> Result<Value, Refused> {
    let refused = |why: String, adapter_shaped: bool| Refused {
        why,
        adapter_shaped,
    };
    if let Some(why) = may_be_an_object(bytes)
        .then(|| adapter_artifact_in_text(bytes))
        .flatten()
    {
        let members = read_top_level(bytes, &["event_type", "protocol"])
            .ok()
            .flatten();
        let adapter_shaped = members.is_some_and(|members| members.iter().any(Option::is_some));
        return Err(refused(format!("not an A2A object: {why}"), adapter_shaped));
    }
    match read_root(bytes) {
        Ok(RootReading::Object(value)) => Ok(value),
        Ok(RootReading::Other(json_type)) => Err(refused(
            format!(
                "not an A2A object: {}",
                crate::migrate::not_an_object(json_type)
            ),
            false,
        )),
        Ok(RootReading::ObjectOverCap { cap }) => Err(refused(
            format!(
                "not migrated: {}",
                crate::json::over_tree_cap(crate::json::JsonType::Object, cap)
            ),
            false,
        )),
        Err(error) => Err(refused(
            format!("not an A2A object: not JSON ({error})"),
            false,
        )),
    }
}

/// A raw adapter packet: what relabelling it 1.0 would do at the adapter (four conversions,
/// so only when it is printed).
fn relabelled(bytes: &[u8]) {
    if let Some(relabel) = relabel_outcome(bytes, &ConvertOptions::default()) {
        for line in relabel_text(&relabel).lines() {
            complain(line);
        }
    }
}

/// The file (or standard input for `-`), through the input layer with the corpus's cap.
fn read_input(file: &std::path::Path) -> Result<Vec<u8>, CliError> {
    let cap = crate::corpus::DEFAULT_MAX_FILE_BYTES;
    if file.as_os_str() == "-" {
        return Ok(crate::input::read_stdin(cap)?);
    }
    Ok(crate::input::read_file(file, cap)?)
}

fn complain(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", safe_text(text));
}
