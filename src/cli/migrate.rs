//! `handoff-inspector migrate FILE`: A2A v0.3 -> v1.0 (or back with `--to 0.3`), printing the
//! migrated object, or the step trace with a diff per step.

use super::{CliError, Exit, Output};
use crate::a2a::ConvertOptions;
use crate::freeze::relabel_outcome;
use crate::json::{canonical_pretty, for_each_duplicate_key, safe_text};
use crate::migrate::{
    choices_for, help, Choices, DiffLine, Direction, Hints, Migration, ObjectKind, PathChange,
    StepRun, Version,
};
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
    let input: Value = match serde_json::from_slice(&bytes) {
        Ok(value) => value,
        Err(error) => {
            complain(&format!("{name}: not an A2A object: not JSON ({error})"));
            return Ok(Exit::Findings);
        }
    };
    // What the error path needs from the input, so the migration can own it.
    let adapter_shaped = input.get("event_type").is_some() || input.get("protocol").is_some();
    let mut migration = match Migration::run_owned_with(input, &hints, direction, &choices) {
        Ok(migration) => migration,
        Err(why) => {
            complain(&format!("{name}: not an A2A object: {why}"));
            // A raw adapter packet: say what relabelling it 1.0 would do at the adapter (four
            // conversions, so only when it is printed).
            if adapter_shaped {
                if let Some(relabel) = relabel_outcome(&bytes, &ConvertOptions::default()) {
                    for line in relabel_text(&relabel).lines() {
                        complain(line);
                    }
                }
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
    let failure = fails_v03(&migration);
    match (args.steps, args.format) {
        (false, None) => {
            out.line(&terminal_safe_json(&migration.result));
            complain(&summary(&name, &migration));
            for finding in migration.warnings.iter().chain(&migration.findings) {
                complain(&finding_line(finding));
            }
        }
        (_, Some(Format::Json)) => out.line(&report_text(&name, &migration)?),
        _ => print_trace(&name, migration, out),
    }
    if let Some(why) = failure {
        complain(&format!("{name}: error: {why}"));
        return Ok(Exit::Findings);
    }
    Ok(Exit::Ok)
}

/// `--to 0.3` output the v0.3 check rejects is an error, never exit 0: what it rejects.
fn fails_v03(migration: &Migration) -> Option<String> {
    if migration.direction != Direction::Reverse {
        return None;
    }
    let errors: Vec<String> = migration
        .findings
        .iter()
        .filter(|finding| finding.severity == Severity::Error)
        .map(|finding| format!("{} ({})", finding.path, finding.rule))
        .collect();
    (!errors.is_empty()).then(|| {
        format!(
            "the v0.3 result fails the v0.3 check at {}",
            errors.join(", ")
        )
    })
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
        let record = match serde_json::from_slice::<Value>(line) {
            Err(error) => Err(format!("not JSON ({error})")),
            Ok(input) => Migration::run_owned_with(input, hints, direction, choices)
                .map_err(|why| why.to_string()),
        };
        let record = match record {
            Ok(migration) if fails_v03(&migration).is_some() => {
                failed += 1;
                serde_json::json!({
                    "line": number,
                    "error": fails_v03(&migration),
                    "result": migration.result,
                    "findings": migration.findings,
                })
            }
            Ok(migration) => serde_json::json!({
                "line": number,
                "detected": migration.detection,
                "steps": migration.steps.iter().map(|run| run.step.id).collect::<Vec<_>>(),
                "result": migration.result,
                "warnings": migration.warnings,
                "findings": migration.findings,
            }),
            Err(why) => {
                failed += 1;
                serde_json::json!({"line": number, "error": format!("not an A2A object: {why}")})
            }
        };
        out.line(&crate::json::escape_unsafe_in_json(record.to_string()));
    }
    Ok(if failed > 0 { Exit::Findings } else { Exit::Ok })
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

/// Pretty canonical JSON in which every character unsafe for a terminal is a `\uXXXX` escape.
/// Outside strings pretty JSON holds only ASCII punctuation, spaces and newlines, and inside
/// strings serde_json already escapes C0 controls, so any other unsafe character is inside a
/// string and the escape keeps the JSON equal.
fn terminal_safe_json(value: &Value) -> String {
    crate::json::escape_unsafe_in_json(canonical_pretty(value))
}

/// The `--format json` report, terminal-safe as [`terminal_safe_json`] makes it: written
/// straight from the migration, not built as a `Value` holding a copy of the result.
fn report_text(name: &str, migration: &Migration) -> Result<String, CliError> {
    // Neither can fail (a `Vec` takes any write, serde_json writes UTF-8); said, not assumed.
    let failed = |error: String| CliError::Io {
        path: name.to_owned(),
        error: std::io::Error::other(format!("writing the migration report: {error}")),
    };
    let mut text = Vec::new();
    migration
        .write_report(&mut text)
        .map_err(|error| failed(error.to_string()))?;
    let text = String::from_utf8(text).map_err(|error| failed(error.to_string()))?;
    Ok(crate::json::escape_unsafe_in_json(text))
}

fn summary(name: &str, migration: &Migration) -> String {
    let count = |severity: Severity| migration.warnings_of(severity);
    format!(
        "{name}: {} -> {}: {} step(s), {} warning(s), {} error(s) in migration, {} finding(s) in the check",
        migration.detection.summary(),
        target_label(migration.direction),
        migration.steps.len(),
        count(Severity::Warning),
        count(Severity::Error),
        migration.findings.len()
    )
}

fn target_label(direction: Direction) -> &'static str {
    match direction {
        Direction::Forward => "v1.0",
        Direction::Reverse => "v0.3",
    }
}

fn finding_line(finding: &Finding) -> String {
    let severity = match finding.severity {
        Severity::Note => "note",
        Severity::Warning => "warning",
        Severity::Error => "error",
    };
    format!(
        "{severity}: [{}] {}: {}",
        finding.rule,
        finding.path,
        safe_text(&finding.message)
    )
}

fn path_change(change: &PathChange) -> String {
    let show = |path: &Option<crate::json::JsonPath>, absent: &str| {
        path.as_ref()
            .map_or_else(|| absent.to_owned(), ToString::to_string)
    };
    format!(
        "{} -> {}",
        show(&change.before, "(new)"),
        show(&change.after, "(removed)")
    )
}

const PATHS_SHOWN: usize = 12;

fn print_step(
    index: usize,
    total: usize,
    run: &StepRun,
    diff: &mut dyn Iterator<Item = DiffLine>,
    out: &mut Output,
) {
    let step = run.step;
    out.line(&format!(
        "step {}/{total}  {}: {}",
        index + 1,
        step.id,
        step.title
    ));
    for change in run.changes.iter().take(PATHS_SHOWN) {
        out.line(&format!("  path     {}", path_change(change)));
    }
    if run.changes.len() > PATHS_SHOWN {
        out.line(&format!(
            "  path     ... and {} more",
            run.changes.len() - PATHS_SHOWN
        ));
    }
    out.line(&format!("  why      {}", step.why));
    let mut flags = Vec::new();
    if step.lossy {
        flags.push("LOSSY".to_owned());
    }
    if step.advisory {
        flags.push("advisory".to_owned());
    }
    if let Some(choice) = &run.choice {
        let taken = if choice.default { "default" } else { "chosen" };
        flags.push(format!(
            "CHOICE {}={} ({taken}; other: {})",
            choice.key,
            safe_text(&choice.value),
            choice.override_hint
        ));
    }
    if !flags.is_empty() {
        out.line(&format!("  flags    {}", flags.join(" | ")));
    }
    out.line(&format!(
        "  digest   {} -> {}",
        run.before_digest().short(12),
        run.after_digest().short(12)
    ));
    for line in diff {
        out.line(&format!("    {}{}", line.tag.sign(), line.text));
    }
    for warning in &run.warnings {
        out.line(&format!("  {}", finding_line(warning)));
    }
    out.line("");
}

fn print_trace(name: &str, mut migration: Migration, out: &mut Output) {
    out.line(&format!(
        "{name}: {} -> {}",
        migration.detection.summary(),
        target_label(migration.direction)
    ));
    out.line("detected from:");
    for reason in &migration.detection.reasons {
        out.line(&format!("  {reason}"));
    }
    for conflict in &migration.detection.conflicts {
        out.line(&format!("  MIXED: {conflict}"));
    }
    out.line("");
    // The result is printed after the steps, from the tree the replay ends with: the replay
    // makes a tree of its own, and two trees of a big object are what this command's memory
    // was (then the result's text beside a step's two texts and their diff).
    migration.drop_result();
    let total = migration.steps.len();
    // One replay for all the diffs: the per-step documents are not kept in the migration.
    let mut index = 0;
    let result = migration.each_step_diff_then_result(2, |run, diff| {
        print_step(index, total, run, diff, out);
        index += 1;
    });
    out.line(&format!("result ({}):", target_label(migration.direction)));
    out.line(&terminal_safe_json(&result));
    drop(result);
    out.line("");
    // Step warnings were printed under their steps; these come from detection and parsing.
    let input_notes = migration
        .warnings
        .iter()
        .filter(|finding| matches!(finding.rule.as_str(), "detect" | "input"));
    for warning in input_notes {
        out.line(&finding_line(warning));
    }
    let lossy = migration.steps.iter().filter(|run| run.step.lossy).count();
    let choices = migration
        .steps
        .iter()
        .filter(|run| run.choice.is_some())
        .count();
    out.line(&format!(
        "{total} step(s) applied, {lossy} lossy, {choices} with a choice; {} warning(s)",
        migration.warnings.len()
    ));
    if migration.findings.is_empty() {
        out.line(&format!(
            "check against {}: no findings",
            target_label(migration.direction)
        ));
    } else {
        out.line(&format!(
            "check against {}: {} finding(s)",
            target_label(migration.direction),
            migration.findings.len()
        ));
        for finding in &migration.findings {
            out.line(&format!("  {}", finding_line(finding)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn safe_json_escapes_only_unsafe_characters_and_stays_equal() {
        let value = json!({"a": "x\u{202e}y\u{e0041}é\n"});
        let text = terminal_safe_json(&value);
        assert!(text.contains("\\u202e"));
        assert!(text.contains("\\udb40\\udc41"));
        assert!(text.contains('é'));
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}
