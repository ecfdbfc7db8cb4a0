//! `migrate`'s text and JSON: the migrated object as terminal-safe pretty JSON, the summary
//! and finding lines, the step trace (`--steps`), the `--format json` report and the
//! `--lines` records. The command (`cli/migrate.rs`) reads, runs and prints what these write.

use crate::json::{canonical_pretty, safe_text};
use crate::migrate::{DiffLine, Direction, Migration, PathChange, StepRun};
use crate::rules::{Finding, Severity};
use serde_json::Value;

/// Pretty canonical JSON in which every character unsafe for a terminal is a `\uXXXX` escape.
/// Outside strings pretty JSON holds only ASCII punctuation, spaces and newlines, and inside
/// strings serde_json already escapes C0 controls, so any other unsafe character is inside a
/// string and the escape keeps the JSON equal.
pub fn terminal_safe_json(value: &Value) -> String {
    crate::json::escape_unsafe_in_json(canonical_pretty(value))
}

/// The `--format json` report, terminal-safe as [`terminal_safe_json`] makes it: written
/// straight from the migration, not built as a `Value` holding a copy of the result.
pub fn report_json(migration: &Migration) -> std::io::Result<String> {
    let mut text = Vec::new();
    crate::migrate::write_report(migration, &mut text)?;
    let text = String::from_utf8(text).map_err(std::io::Error::other)?;
    Ok(crate::json::escape_unsafe_in_json(text))
}

/// One `--lines` output line for input line `number`: the migration, the v0.3 check's
/// rejection, or why the line is not an A2A object; and whether the line failed.
pub fn line_record(number: usize, outcome: Result<&Migration, String>) -> (String, bool) {
    let (record, failed) = match outcome {
        Ok(migration) => match v03_failure(migration) {
            Some(why) => (
                serde_json::json!({
                    "line": number,
                    "error": why,
                    "result": migration.result,
                    "findings": migration.findings,
                }),
                true,
            ),
            None => (
                serde_json::json!({
                    "line": number,
                    "detected": migration.detection,
                    "steps": migration.steps.iter().map(|run| run.step.id).collect::<Vec<_>>(),
                    "result": migration.result,
                    "warnings": migration.warnings,
                    "findings": migration.findings,
                }),
                false,
            ),
        },
        Err(why) => (serde_json::json!({"line": number, "error": why}), true),
    };
    (
        crate::json::escape_unsafe_in_json(record.to_string()),
        failed,
    )
}

/// `--to 0.3` output the v0.3 check rejects, or a migration a step refused, is an error,
/// never exit 0: where it failed.
pub fn v03_failure(migration: &Migration) -> Option<String> {
    if migration.direction != Direction::Reverse {
        return None;
    }
    let at = |findings: &[Finding]| -> Vec<String> {
        findings
            .iter()
            .filter(|finding| finding.severity == Severity::Error)
            .map(|finding| format!("{} ({})", finding.path, finding.rule))
            .collect()
    };
    // A step's refusal is a finding under the step's id; the check's rows are `V03-*`.
    let (failing, refused): (Vec<Finding>, Vec<Finding>) = migration
        .findings
        .iter()
        .cloned()
        .partition(|finding| finding.rule.starts_with("V03-"));
    let (refused, failing) = (at(&refused), at(&failing));
    let mut why = Vec::new();
    if !refused.is_empty() {
        why.push(format!(
            "the migration to v0.3 failed at {}",
            refused.join(", ")
        ));
    }
    if !failing.is_empty() {
        why.push(format!(
            "the v0.3 result fails the v0.3 check at {}",
            failing.join(", ")
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// The one-line summary `migrate FILE` prints to standard error.
pub fn summary(name: &str, migration: &Migration) -> String {
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

/// `warning: [RULE] PATH: message`, the message terminal-safe.
pub fn finding_line(finding: &Finding) -> String {
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

/// A step lists at most this many changed paths; the rest are counted.
const PATHS_SHOWN: usize = 12;

fn write_step(
    index: usize,
    total: usize,
    run: &StepRun,
    diff: &mut dyn Iterator<Item = DiffLine>,
    out: &mut dyn FnMut(&str),
) {
    let step = run.step;
    out(&format!(
        "step {}/{total}  {}: {}",
        index + 1,
        step.id,
        step.title
    ));
    for change in run.changes.iter().take(PATHS_SHOWN) {
        out(&format!("  path     {}", path_change(change)));
    }
    if run.changes.len() > PATHS_SHOWN {
        out(&format!(
            "  path     ... and {} more",
            run.changes.len() - PATHS_SHOWN
        ));
    }
    out(&format!("  why      {}", step.why));
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
        out(&format!("  flags    {}", flags.join(" | ")));
    }
    out(&format!(
        "  digest   {} -> {}",
        run.before_digest().short(12),
        run.after_digest().short(12)
    ));
    for line in diff {
        out(&format!("    {}{}", line.tag.sign(), line.text));
    }
    for warning in &run.warnings {
        out(&format!("  {}", finding_line(warning)));
    }
    out("");
}

/// The step trace (`migrate --steps`): detection, each step with its paths, flags, digests,
/// diff and warnings, then the result and the check, one line at a time to `out`.
pub fn write_trace(name: &str, mut migration: Migration, out: &mut dyn FnMut(&str)) {
    out(&format!(
        "{name}: {} -> {}",
        migration.detection.summary(),
        target_label(migration.direction)
    ));
    out("detected from:");
    for reason in &migration.detection.reasons {
        out(&format!("  {reason}"));
    }
    for conflict in &migration.detection.conflicts {
        out(&format!("  MIXED: {conflict}"));
    }
    out("");
    // The result is printed after the steps, from the tree the replay ends with: the replay
    // makes a tree of its own, and two trees of a big object are what this command's memory
    // was (then the result's text beside a step's two texts and their diff).
    migration.drop_result();
    let total = migration.steps.len();
    // One replay for all the diffs: the per-step documents are not kept in the migration.
    let mut index = 0;
    let result = migration.each_step_diff_then_result(2, |run, diff| {
        write_step(index, total, run, diff, out);
        index += 1;
    });
    out(&format!("result ({}):", target_label(migration.direction)));
    out(&terminal_safe_json(&result));
    drop(result);
    out("");
    // Step warnings were printed under their steps; these come from detection and parsing.
    let input_notes = migration
        .warnings
        .iter()
        .filter(|finding| matches!(finding.rule.as_str(), "detect" | "input"));
    for warning in input_notes {
        out(&finding_line(warning));
    }
    let lossy = migration.steps.iter().filter(|run| run.step.lossy).count();
    let choices = migration
        .steps
        .iter()
        .filter(|run| run.choice.is_some())
        .count();
    out(&format!(
        "{total} step(s) applied, {lossy} lossy, {choices} with a choice; {} warning(s)",
        migration.warnings.len()
    ));
    if migration.findings.is_empty() {
        out(&format!(
            "check against {}: no findings",
            target_label(migration.direction)
        ));
    } else {
        out(&format!(
            "check against {}: {} finding(s)",
            target_label(migration.direction),
            migration.findings.len()
        ));
        for finding in &migration.findings {
            out(&format!("  {}", finding_line(finding)));
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
