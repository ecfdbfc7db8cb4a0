//! `check --format markdown`: the reviewer's report. The freeze's review checklist answered
//! from the corpus with the packets that evidence each answer, the coverage matrix of every
//! K1-A row in both modes (uncovered and unreachable cells called out), and the findings
//! grouped by kind. Its length depends on the number of rows and groups, not on the corpus.

use super::text::{diff_lines, summary_lines, verdict_line, GROUP_ORDER};
use crate::a2a::Mode;
use crate::freeze::{unreachable_reason, COVERAGE_ROW_IDS, GUARDRAIL, K1A_TABLE, REVIEW_CHECKLIST};
use crate::json::safe_text;
use crate::report::tally::{Answer, BundleTally, CheckTally};
use std::fmt::Write as _;

/// Text for a table cell: terminal-safe, pipes escaped, on one line.
fn cell(text: &str) -> String {
    safe_text(text).replace('|', "\\|").replace('\n', " ")
}

/// A code span for a packet name (backticks inside would end it).
fn code(text: &str) -> String {
    format!("`{}`", cell(text).replace('`', "'"))
}

fn examples(list: &[String], total: u64) -> String {
    let mut shown: Vec<String> = list.iter().map(|example| code(example)).collect();
    if total > list.len() as u64 {
        shown.push(format!("and {} more", total - list.len() as u64));
    }
    shown.join(", ")
}

pub fn review_markdown(tally: &CheckTally, inputs: &[String], clock: Option<&str>) -> String {
    let mut out = String::new();
    let shown_inputs: Vec<String> = inputs.iter().map(|input| code(input)).collect();
    let _ = writeln!(out, "# K1-A freeze review: {}\n", shown_inputs.join(", "));
    let _ = writeln!(out, "> {GUARDRAIL}\n");
    // The clock `--now` fixed, stated once here, never inside a finding.
    if let Some(clock) = clock {
        let _ = writeln!(out, "Expiry judged at {} (`--now`).\n", code(clock));
    }
    let _ = writeln!(out, "## Summary\n");
    for line in summary_lines(tally) {
        let _ = writeln!(out, "- {}", cell(&line));
    }
    let _ = writeln!(out, "- {}\n", cell(&verdict_line(tally)));
    checklist_section(&mut out, tally);
    bundles_section(&mut out, tally);
    coverage_section(&mut out, tally);
    findings_section(&mut out, tally);
    out
}

fn checklist_section(out: &mut String, tally: &CheckTally) {
    let _ = writeln!(out, "## Review checklist\n");
    let _ = writeln!(
        out,
        "Each question of the freeze's closing checklist, answered from this corpus. \"Yes\" means packets evidence it and none contradicts it; \"No\" lists the contradicting packets first. Evidence is counted in outcomes: one raw packet in one mode (`(strict)`, `(lenient)`), or one audited file (`(audit)`); the summary's packet counts are of files and lines.\n"
    );
    let _ = writeln!(
        out,
        "| # | Question | Freeze expects | Answer from this corpus | Evidence |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for (question, evidence) in REVIEW_CHECKLIST.iter().zip(&tally.checklist) {
        let answer = evidence.answer();
        let mut parts = Vec::new();
        if evidence.counter > 0 {
            parts.push(format!(
                "**against ({} outcome(s)):** {}",
                evidence.counter,
                examples(&evidence.counter_examples, evidence.counter)
            ));
        }
        if evidence.support > 0 {
            parts.push(format!(
                "for ({} outcome(s)): {}",
                evidence.support,
                examples(&evidence.support_examples, evidence.support)
            ));
        }
        if question.id == "Q6" {
            parts.push(
                "packets carry no wording of their own, so this is answered from the inspector's rule text"
                    .to_owned(),
            );
        } else if !question.rows.is_empty() {
            parts.push(format!("rows {}", question.rows.join(", ")));
        }
        if parts.is_empty() {
            parts.push("no packet in this corpus bears on it".to_owned());
        }
        let shown = match answer {
            Answer::No => format!("**{}**", answer.label()),
            _ => answer.label().to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            question.id,
            question.question,
            question.expected,
            shown,
            parts.join("<br>")
        );
    }
    out.push('\n');
}

/// One part per evidence bundle: upstream's verdict, the freeze checklist answered from its
/// events, upstream's A2A lint rules as upstream evaluates them, and what no pack says: its
/// handoff-visible events by named state.
fn bundles_section(out: &mut String, tally: &CheckTally) {
    if tally.bundles_total == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "## Evidence bundles
"
    );
    let _ = writeln!(
        out,
        "Upstream's verifier checks the archive's layout, each line's content hash, a contiguous sequence, and that run root and file hash agree with the lines. It does not show who wrote a bundle (nothing is signed: edit a line, recompute the hashes and it verifies again), nor anything about `time`, `source` or `id` beyond the resealable file hash, nor that any handoff in it was correct or authorized. Each event's golden (the whole line's digest) is what catches a re-sealed edit.\n"
    );
    for bundle in &tally.bundles {
        bundle_part(out, bundle);
    }
    let more = tally.bundles_total - tally.bundles.len() as u64;
    if more > 0 {
        let _ = writeln!(
            out,
            "... and {more} more bundle(s), counted in the summary above.\n"
        );
    }
}

fn bundle_part(out: &mut String, bundle: &BundleTally) {
    let report = &bundle.report;
    let _ = writeln!(out, "### {}\n", code(&bundle.source));
    match &report.verdict {
        Ok(facts) => {
            let _ = writeln!(
                out,
                "- upstream's verdict: **accepted** ({} events, run id {}, run root {})",
                facts.event_count,
                code(&facts.run_id),
                code(&facts.run_root)
            );
        }
        Err(error) => {
            let _ = writeln!(
                out,
                "- upstream's verdict: **fails verification**: {} {} at step {}: {}",
                error.class().as_str(),
                code(&error.code.as_str()),
                error.step,
                cell(&error.message)
            );
        }
    }
    let _ = writeln!(
        out,
        "- check status: {}; events: {} ({} not A2A, not checked; {} with a freeze-audit error; {} failing the check)\n",
        bundle.status.label(),
        bundle.events,
        bundle.not_checked,
        bundle.audit_errors,
        bundle.failing_events
    );
    let _ = writeln!(
        out,
        "| # | Question | Freeze expects | Answer from this bundle's events |"
    );
    let _ = writeln!(out, "|---|---|---|---|");
    for (question, evidence) in REVIEW_CHECKLIST.iter().zip(&bundle.checklist) {
        let answer = evidence.answer();
        let mut shown = match answer {
            Answer::No => format!("**{}**", answer.label()),
            Answer::NotEvidenced => "Not evidenced by this bundle".to_owned(),
            Answer::Yes => answer.label().to_owned(),
        };
        if evidence.counter > 0 {
            shown.push_str(&format!(
                " (against: {})",
                examples(&evidence.counter_examples, evidence.counter)
            ));
        } else if evidence.support > 0 && question.id != "Q6" {
            // A "Yes" names the events it stands on, as a "No" names those against it.
            shown.push_str(&format!(
                " (for: {})",
                examples(&evidence.support_examples, evidence.support)
            ));
        }
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            question.id, question.question, question.expected, shown
        );
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "Upstream's A2A lint packs (a rule passes when one event matches; every rule is a warning upstream, and upstream lints only a bundle that verifies):\n"
    );
    match report.evaluated_lint() {
        None => {
            let _ = writeln!(out, "- {}\n", crate::bundle::LINT_NOT_EVALUATED);
        }
        Some(lint) => {
            let _ = writeln!(out, "| Rule | Passes when | Upstream | Matching events |");
            let _ = writeln!(out, "|---|---|---|---:|");
            for outcome in lint {
                let condition = outcome.row().map_or("", |row| row.condition);
                let verdict = if outcome.passes() {
                    "pass"
                } else {
                    "**finding** (warning)"
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    outcome.rule,
                    cell(condition),
                    verdict,
                    outcome.matched.len()
                );
            }
            out.push('\n');
        }
    }
    let _ = writeln!(
        out,
        "Handoff-visible events by named state (no pack looks at `data.handoff`):\n"
    );
    if bundle.visible_by_state.is_empty() {
        let _ = writeln!(out, "- none: every audited event keeps the defaults\n");
        return;
    }
    let _ = writeln!(out, "| State | Events | Examples |");
    let _ = writeln!(out, "|---|---:|---|");
    for (state, count, shown) in &bundle.visible_by_state {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            code(state),
            count,
            examples(shown, *count)
        );
    }
    out.push('\n');
}

fn coverage_section(out: &mut String, tally: &CheckTally) {
    let _ = writeln!(out, "## Coverage matrix\n");
    // Only the modes that ran have cells: a mode not run covers nothing and lacks nothing.
    let modes = &tally.modes;
    let names: Vec<&str> = modes.iter().map(|mode| mode.name()).collect();
    let not_run: Vec<&str> = Mode::BOTH
        .iter()
        .filter(|mode| !modes.contains(mode))
        .map(|mode| mode.name())
        .collect();
    let _ = writeln!(
        out,
        "Raw packets exercising each K1-A row, per mode that ran ({}). \"n/a\" cells are unreachable by construction (listed below); **uncovered** cells are reachable but no packet here exercises them.{}\n",
        names.join(", "),
        if not_run.is_empty() {
            String::new()
        } else {
            format!(
                " Not run, so not shown: {} (`--mode both` covers every mode).",
                not_run.join(", ")
            )
        }
    );
    let _ = writeln!(
        out,
        "| Row | Title | {} | Example packets |",
        names.join(" | ")
    );
    let _ = writeln!(out, "|---|---|{}---|", "---:|".repeat(modes.len()));
    let mut uncovered = Vec::new();
    let mut unreachable = Vec::new();
    for id in COVERAGE_ROW_IDS {
        let title = K1A_TABLE.row(id).map_or("", |row| row.title);
        let mut cells = Vec::new();
        let mut sample: Vec<String> = Vec::new();
        for &mode in modes {
            let count = tally.cell(id, mode).map_or(0, |cell| cell.packets);
            if let Some(reason) = unreachable_reason(id, mode) {
                cells.push("n/a".to_owned());
                unreachable.push(format!("{id} {mode}: {reason}"));
            } else if count == 0 {
                cells.push("**0 uncovered**".to_owned());
                uncovered.push(format!("{id} {mode}"));
            } else {
                cells.push(count.to_string());
            }
            if let Some(cell) = tally.cell(id, mode) {
                for example in cell.examples.iter().take(2) {
                    if sample.len() < 2 {
                        sample.push(code(example));
                    }
                }
            }
        }
        let _ = writeln!(
            out,
            "| {id} | {} | {} | {} |",
            cell(title),
            cells.join(" | "),
            sample.join(", ")
        );
    }
    let _ = writeln!(out);
    if uncovered.is_empty() {
        let _ = writeln!(out, "Every reachable cell is covered.\n");
    } else {
        let _ = writeln!(
            out,
            "**Uncovered cells ({}):** {}. `handoff-inspector derive POSITIVE.json --out DIR` writes packets for every N row and explicit negative.\n",
            uncovered.len(),
            uncovered.join(", ")
        );
    }
    let _ = writeln!(out, "Unreachable by construction:\n");
    for line in unreachable {
        let _ = writeln!(out, "- {line}");
    }
    out.push('\n');
}

fn findings_section(out: &mut String, tally: &CheckTally) {
    let _ = writeln!(out, "## Findings\n");
    let mut any = false;
    for kind in GROUP_ORDER {
        let group = tally.group(kind);
        if group.count == 0 {
            continue;
        }
        any = true;
        let _ = writeln!(
            out,
            "### {} ({})\n",
            kind.title(),
            super::text::group_count(group)
        );
        for (source, finding) in &group.examples {
            let mode = finding
                .mode
                .map(|mode| format!(" [{mode}]"))
                .unwrap_or_default();
            let _ = writeln!(out, "- {}{mode}: {}", code(source), cell(&finding.message));
            if let Some(diff) = &finding.diff {
                let _ = writeln!(out, "\n  ```diff");
                for line in diff_lines(diff, "  ") {
                    let _ = writeln!(out, "{}", line.replace("```", "'''"));
                }
                let _ = writeln!(out, "  ```\n");
            }
        }
        let shown = group.examples.len() as u64;
        if group.count > shown {
            let _ = writeln!(out, "- ... and {} more", group.count - shown);
        }
        out.push('\n');
    }
    if !any {
        let _ = writeln!(out, "None.\n");
    }
}

/// `check --format markdown`: the whole report at the end, from the tally.
pub struct MarkdownWriter {
    inputs: Vec<String>,
    clock: Option<String>,
}

impl MarkdownWriter {
    pub fn new(options: &super::writer::CheckOutputOptions) -> MarkdownWriter {
        MarkdownWriter {
            inputs: options.inputs.clone(),
            clock: options.clock.clone(),
        }
    }
}

impl super::writer::CheckWriter for MarkdownWriter {
    fn finish(
        self: Box<Self>,
        tally: &CheckTally,
        out: &mut dyn crate::report::styled::StyledWrite,
    ) -> std::io::Result<()> {
        let text = review_markdown(tally, &self.inputs, self.clock.as_deref());
        super::writer::line(out, text.trim_end().as_bytes())
    }
}
