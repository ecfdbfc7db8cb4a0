//! Plain-text rendering of a [`ProfileReport`]: the body of `explain --format text` and of
//! `profile`. Every packet-derived string goes through `safe_text`; every row shows its id,
//! verdict, evidence, message and what a pass must not be read as.

use crate::json::safe_text;
use crate::profiles::{rule_row, ProfileReport, StateMapping};
use crate::rules::{RuleOutcome, Verdict};
use std::fmt::Write as _;

/// The whole report as lines of text (no trailing newline).
pub fn render(report: &ProfileReport) -> String {
    let mut out = String::new();
    header(report, &mut out);
    if report.profile.is_none() {
        other_findings(report, &mut out);
        return out.trim_end().to_owned();
    }
    rows(report, &mut out);
    quirks(report, &mut out);
    contextcore(report, &mut out);
    uaix(report, &mut out);
    seam(report, &mut out);
    other_findings(report, &mut out);
    notes(report, &mut out);
    out.trim_end().to_owned()
}

fn header(report: &ProfileReport, out: &mut String) {
    if let Some(source) = &report.source {
        let _ = writeln!(out, "packet: {}", safe_text(source));
    }
    let Some(profile) = &report.profile else {
        let _ = writeln!(out, "profile: none recognised");
        return;
    };
    let version = report
        .profile_version
        .map(|v| format!(", contract version {v}"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "profile: {} [{}]{version}",
        profile.kind.label(),
        profile.kind.id()
    );
    let _ = writeln!(out, "why: {}", safe_text(&profile.reason));
    let c = report.counts();
    let overall = if report.conforms() {
        "no failing row (shape and presence only: not proof that the handoff was correct, authorized or successful)"
    } else {
        "at least one row FAILED"
    };
    let _ = writeln!(
        out,
        "summary: {} pass, {} FAIL, {} warn, {} n/a, {} not machine-checked, {} unverifiable: {overall}",
        c.pass, c.fail, c.warn, c.not_applicable, c.not_checked, c.unverifiable
    );
}

fn rows(report: &ProfileReport, out: &mut String) {
    let (main, violations): (Vec<&RuleOutcome>, Vec<&RuleOutcome>) = report
        .outcomes
        .iter()
        .partition(|o| !o.rule.starts_with('V'));
    let _ = writeln!(out, "\nrules");
    for outcome in main {
        row(outcome, out);
    }
    if !violations.is_empty() {
        let _ = writeln!(out, "\ncontract violations");
        for outcome in violations {
            row(outcome, out);
        }
    }
}

fn row(outcome: &RuleOutcome, out: &mut String) {
    let title = rule_row(outcome.rule).map(|r| r.title).unwrap_or("");
    // A violation row's title names the violation, so "pass  sub-agent mutates identity"
    // would read as if it happened: say the question and the answer instead.
    let title = if outcome.rule.starts_with('V') {
        format!(
            "violation \"{title}\"? {}",
            violation_answer(outcome.verdict)
        )
    } else {
        title.to_owned()
    };
    let _ = writeln!(
        out,
        "  {:<8} {:<20} {title}",
        outcome.rule,
        verdict_label(outcome.verdict)
    );
    for evidence in &outcome.evidence {
        let _ = writeln!(out, "      evidence: {}", evidence.describe());
    }
    if let Some(message) = &outcome.message {
        let _ = writeln!(out, "      message: {}", safe_text(message));
    }
    if let Some(row) = rule_row(outcome.rule) {
        if outcome.verdict == Verdict::Fail {
            let _ = writeln!(out, "      rule: {}", row.condition);
        }
        let _ = writeln!(out, "      must not imply: {}", row.must_not_imply);
    }
}

/// What a violation row's verdict answers to "did this violation show?".
fn violation_answer(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Pass | Verdict::NotMatched => "not seen by the checks it follows",
        Verdict::Fail | Verdict::Matched => "seen: the checks it follows failed",
        Verdict::Warn => "possibly: the checks it follows warn",
        Verdict::NotApplicable => "does not apply to this record",
        Verdict::NotChecked => "not machine-checked: a reviewer must look",
        Verdict::Unverifiable => "cannot be told from this record",
    }
}

fn verdict_label(verdict: Verdict) -> &'static str {
    verdict.label()
}

fn quirks(report: &ProfileReport, out: &mut String) {
    if report.quirks.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nquirks reproduced (named, so they are not mistaken for findings)"
    );
    for quirk in &report.quirks {
        let _ = writeln!(
            out,
            "  - {} ({}) at {}: {}",
            quirk.quirk,
            quirk.title,
            quirk.path,
            safe_text(&quirk.detail)
        );
    }
}

fn contextcore(report: &ProfileReport, out: &mut String) {
    let Some(view) = &report.contextcore else {
        return;
    };
    let _ = writeln!(
        out,
        "\nstate mapping (ContextCore's state names are its own, not A2A's)"
    );
    if let Some(state) = &view.state {
        state_line(state, out);
    }
    let _ = writeln!(out, "\nOTel GenAI attributes this packet maps to");
    for attribute in &view.otel {
        let value = attribute
            .value
            .as_deref()
            .map(|v| safe_text(v).into_owned())
            .unwrap_or_else(|| "(absent)".into());
        let legacy = attribute
            .legacy
            .map(|l| format!(" (legacy {l})"))
            .unwrap_or_default();
        let from = attribute
            .from
            .as_ref()
            .map(|p| format!(" from {p}"))
            .unwrap_or_else(|| " (constant)".into());
        let derived = if attribute.derived {
            " [derived: the doc maps CC-MSG fields]"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {}{legacy} = {value}{from}{derived}",
            attribute.attribute
        );
    }
    if !view.schema_errors.is_empty() {
        let _ = writeln!(out, "\nHandoffContract error envelopes");
        for error in &view.schema_errors {
            let next = safe_text(&error.next_action);
            let _ = writeln!(out, "  {error}; next_action: {next}");
        }
    }
}

fn state_line(state: &StateMapping, out: &mut String) {
    let status = state
        .status
        .as_deref()
        .map(|s| format!("'{}'", safe_text(s)))
        .unwrap_or_else(|| "absent".into());
    let _ = write!(out, "  {} = {status}", state.path);
    match state.row {
        Some(row) => {
            let cc = row.contextcore_task_state.unwrap_or("-");
            let a2a = match (row.a2a_v03, row.a2a_v10) {
                (Some(v03), Some(v10)) => format!(
                    "A2A v0.3 `{v03}`, v1.0 `{v10}` ({})",
                    match row.basis {
                        crate::profiles::MappingBasis::Nearest => "nearest A2A state",
                        _ => "name correspondence",
                    }
                ),
                _ => "no A2A mapping".into(),
            };
            let _ = writeln!(
                out,
                " -> ContextCore TaskState {cc} ({}) -> {a2a}",
                row.direction
            );
            if !row.note.is_empty() {
                let _ = writeln!(out, "      note: {}", row.note);
            }
        }
        None => {
            let _ = writeln!(out, " -> no mapping");
        }
    }
    if !state.note.is_empty() {
        let _ = writeln!(out, "      note: {}", safe_text(&state.note));
    }
}

fn uaix(report: &ProfileReport, out: &mut String) {
    let Some(view) = &report.uaix else {
        return;
    };
    // The system clock's reading is not printed: two runs print the same bytes. `--now`
    // fixes the clock, and then it is stated.
    if view.clock_fixed {
        let _ = writeln!(out, "\nclock: {} (fixed by --now)", view.now);
    } else {
        let _ = writeln!(out, "\nclock: the system clock at the run (--now fixes it)");
    }
    let integrity = &view.integrity;
    let _ = writeln!(
        out,
        "integrity: {} - {}",
        verdict_label(integrity.verdict),
        safe_text(&integrity.explanation)
    );
    if let Some(declared) = &integrity.declared {
        let _ = writeln!(out, "  declared: {}", safe_text(declared));
    }
    for attempt in &integrity.attempts {
        let mark = if integrity.matched == Some(attempt.preimage) {
            " (matched)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  sha256 {} = {}{mark}",
            attempt.preimage, attempt.sha256
        );
    }
}

fn seam(report: &ProfileReport, out: &mut String) {
    if report.seam.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nA2A handoff seam roles in this packet");
    for value in &report.seam {
        let shown = match (value.field, &value.value) {
            (None, _) => "cannot express".to_owned(),
            (Some(field), None) => format!("{field} (absent)"),
            (Some(field), Some(seen)) => format!(
                "{field} = {}",
                crate::json::shown_json(seen, crate::rules::EVIDENCE_VALUE_CHARS)
            ),
        };
        let _ = writeln!(out, "  {:<22} {shown}", value.role.label());
    }
}

fn other_findings(report: &ProfileReport, out: &mut String) {
    let others: Vec<_> = report
        .findings
        .iter()
        .filter(|f| rule_row(&f.rule).is_none() && !f.rule.starts_with("quirk:"))
        .collect();
    if others.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nother findings");
    for finding in others {
        let _ = writeln!(
            out,
            "  {:?} {} {}: {}",
            finding.severity,
            finding.rule,
            finding.path,
            safe_text(&finding.message)
        );
    }
}

fn notes(report: &ProfileReport, out: &mut String) {
    if report.notes.is_empty() {
        return;
    }
    let _ = writeln!(out, "\nnotes");
    for note in &report.notes {
        let _ = writeln!(out, "  - {}", safe_text(note));
    }
}

/// Every profile rule table as Markdown (for docs/profiles.md; a test keeps them equal).
pub fn rule_tables_markdown() -> String {
    let cell = |text: &str| {
        text.replace('|', "\\|")
            .replace('<', "&lt;")
            .replace('\n', " ")
    };
    let mut out = String::new();
    for table in crate::profiles::tables() {
        let _ = writeln!(out, "### {} (`{}`)\n", table.name, table.id);
        let _ = writeln!(
            out,
            "| id | row | fails when | result or exact message | a pass must not imply |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|");
        for row in table.rows {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                row.id,
                cell(row.title),
                cell(row.condition),
                cell(row.result),
                cell(row.must_not_imply)
            );
        }
        out.push('\n');
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profiles::{evaluate, ProfileOptions};
    use serde_json::json;

    #[test]
    fn every_row_appears_with_its_must_not_imply() {
        let packet = json!({"schema_version":"v1","handoff_id":"h","from_agent":"a","to_agent":"b","capability_id":"c","inputs":{},"expected_output":{"type":"t"}});
        let report = evaluate(&packet, b"", None, &ProfileOptions::default());
        let text = render(&report);
        for outcome in &report.outcomes {
            assert!(text.contains(outcome.rule), "{} missing", outcome.rule);
        }
        assert!(text.contains("must not imply: that a valid handoff was delivered or executed"));
        assert!(text.contains("state mapping"));
    }

    #[test]
    fn packet_strings_are_terminal_safe() {
        let packet = json!({"schema_version":"v1","handoff_id":"h\u{1b}[2J","from_agent":"a\u{202e}","to_agent":"b","capability_id":"c","inputs":{},"expected_output":{"type":"t"}, "rogue\u{7}": 1});
        let text = render(&evaluate(&packet, b"", None, &ProfileOptions::default()));
        assert!(!text
            .chars()
            .any(|c| c == '\u{1b}' || c == '\u{202e}' || c == '\u{7}'));
    }
}
