//! `check --format text`: a summary, then the findings grouped by kind, each group listing its
//! first examples (with the changed paths and line diff of mismatches) and how many more.

use crate::corpus::{CheckFinding, FindingKind, PacketKind, Status};
use crate::golden::JsonDiff;
use crate::json::safe_text;
use crate::report::styled::{Style, StyledText, StyledWrite};
use crate::report::tally::CheckTally;
use std::fmt::Write as _;

/// Groups shown, in this order: what fails first, informational last.
pub(crate) const GROUP_ORDER: [FindingKind; 15] = [
    FindingKind::LoadError,
    FindingKind::ManifestError,
    FindingKind::NotJson,
    FindingKind::PairedUnreadable,
    FindingKind::GoldenMismatch,
    FindingKind::PairedMismatch,
    FindingKind::BundleError,
    FindingKind::AttestationRefused,
    FindingKind::AuditError,
    FindingKind::ProfileFailure,
    FindingKind::MigrationFinding,
    FindingKind::DuplicateKeys,
    FindingKind::NoGolden,
    FindingKind::AuditWarning,
    FindingKind::ProfileWarning,
];

/// `N label, M label` for the non-zero counts, each in its style; `empty` (words that cannot
/// be read as "no problems") when every count is zero.
fn counts_line<T: Copy>(
    out: &mut StyledText,
    items: &[T],
    count: impl Fn(T) -> u64,
    name: impl Fn(T) -> String,
    style: impl Fn(T) -> Option<Style>,
    empty: &str,
) {
    let mut parts = items.iter().filter(|item| count(**item) > 0).peekable();
    if parts.peek().is_none() {
        out.push(empty);
    }
    for (index, item) in parts.enumerate() {
        if index > 0 {
            out.push(", ");
        }
        out.push_maybe(style(*item), &format!("{} {}", count(*item), name(*item)));
    }
}

/// A status's label, `no golden` followed by its split by what was done (converted, rejected
/// by the adapter, audited or evaluated): `parts` with a zero count are left out.
fn status_label(status: Status, parts: [(u64, &str); 3]) -> String {
    let label = status.label().to_owned();
    if status != Status::NoGolden {
        return label;
    }
    let shown: Vec<String> = parts
        .iter()
        .filter(|(count, _)| *count > 0)
        .map(|(count, what)| format!("{count} {what}"))
        .collect();
    format!("{label} ({})", shown.join(", "))
}

/// The summary lines shared by text and markdown. Packet counts and packet × mode counts
/// (raw packets, once per mode run) are on lines of their own, each labelled.
pub fn summary_lines(tally: &CheckTally) -> Vec<String> {
    styled_summary_lines(tally)
        .into_iter()
        .map(StyledText::into_string)
        .collect()
}

/// [`summary_lines`] with the status counts in their styles and load errors, when there are
/// any, as failures.
fn styled_summary_lines(tally: &CheckTally) -> Vec<StyledText> {
    let modes: Vec<&str> = tally.modes.iter().map(|mode| mode.name()).collect();
    let status_style = |status| Style::of_status(status, tally.require_golden);
    let mut first = StyledText::new();
    let _ = write!(
        first,
        "{} packets checked ({} mode{}), ",
        tally.packets,
        modes.join(" + "),
        if modes.len() == 1 { "" } else { "s" },
    );
    first.push_maybe(
        (tally.load_errors > 0).then_some(Style::Fail),
        &format!(
            "{} load error{}",
            tally.load_errors,
            if tally.load_errors == 1 { "" } else { "s" }
        ),
    );
    let mut lines = vec![first];
    let no_golden = tally.no_golden;
    let mut by_status = StyledText::from("packets by status: ");
    counts_line(
        &mut by_status,
        &Status::ALL,
        |status| tally.status_count(status),
        |status| {
            status_label(
                status,
                [
                    (no_golden.converted, "converted"),
                    (no_golden.rejected, "rejected by the adapter in a mode"),
                    (no_golden.evaluated, "audited or evaluated"),
                ],
            )
        },
        status_style,
        "no packet was read",
    );
    lines.push(by_status);
    let mut by_kind = StyledText::from("packets by kind: ");
    counts_line(
        &mut by_kind,
        &PacketKind::ALL,
        |kind| tally.kind_count(kind),
        |kind| kind.tag().to_owned(),
        |_| None,
        "no packet was read",
    );
    lines.push(by_kind);
    if tally.recorded_packets > 0 {
        lines.push(StyledText::from(format!(
            "recorded negatives: {} packet(s) fail or warn exactly as their goldens record ({} finding(s), not counted)",
            tally.recorded_packets, tally.recorded_findings
        )));
    }
    for &mode in &tally.modes {
        let outcomes = tally.by_mode_outcome[mode.index()];
        if outcomes.converted + outcomes.rejected == 0 {
            lines.push(StyledText::from(format!(
                "{mode}, raw packets (packet × mode): no raw A2A packet here, so the adapter ran on nothing"
            )));
            continue;
        }
        let mut line = StyledText::from(format!(
            "{mode}, raw packets (packet × mode): {} converted, {} rejected by the adapter; ",
            outcomes.converted, outcomes.rejected,
        ));
        counts_line(
            &mut line,
            &Status::ALL,
            |status| tally.mode_status_count(mode, status),
            |status| {
                status_label(
                    status,
                    [
                        (outcomes.no_golden_converted, "converted"),
                        (outcomes.no_golden_rejected, "rejected"),
                        (0, ""),
                    ],
                )
            },
            status_style,
            "no status",
        );
        lines.push(line);
    }
    lines
}

/// The closing verdict line.
pub fn verdict_line(tally: &CheckTally) -> String {
    match tally.exit_code() {
        0 => format!(
            "result: no failing packet (exit 0){}",
            if tally.status_count(Status::NoGolden) > 0 && !tally.require_golden {
                "; packets without a golden are not failures unless --require-golden"
            } else {
                ""
            }
        ),
        1 => format!("result: {} failing packet(s) (exit 1)", tally.failing),
        _ => format!(
            "result: {} input(s) could not be read, {} failing packet(s) (exit 2)",
            tally.load_errors, tally.failing
        ),
    }
}

/// [`verdict_line`], the verdict itself styled as passing or failing.
fn styled_verdict_line(tally: &CheckTally) -> StyledText {
    let line = verdict_line(tally);
    let style = if tally.exit_code() == 0 {
        Style::Pass
    } else {
        Style::Fail
    };
    let mut styled = StyledText::new();
    // The verdict up to its exit code; the note after it stays plain.
    let verdict_end = line
        .find("(exit ")
        .and_then(|at| line[at..].find(')').map(|end| at + end + 1))
        .unwrap_or(line.len());
    styled.push_styled(style, &line[..verdict_end]);
    styled.push(&line[verdict_end..]);
    styled
}

/// `N finding(s) in M packet(s)`: a group counts findings and the packets that have one; the
/// status line counts each packet once, by its worst status.
pub(crate) fn group_count(group: &crate::report::tally::FindingGroup) -> String {
    format!("{} finding(s) in {} packet(s)", group.count, group.packets)
}

/// The style of a group's heading: failing kinds as failures; what is reported without
/// failing (warnings, no golden without --require-golden) as warnings.
fn group_style(kind: FindingKind, require_golden: bool) -> Style {
    if kind.status().fails(require_golden) {
        Style::Fail
    } else {
        Style::Warn
    }
}

/// A finding's detail lines (changed paths, then the line diff), indented.
pub fn diff_lines(diff: &JsonDiff, indent: &str) -> Vec<String> {
    styled_diff_lines(diff, indent)
        .into_iter()
        .map(StyledText::into_string)
        .collect()
}

/// [`diff_lines`] with the line diff's removed and added lines styled.
fn styled_diff_lines(diff: &JsonDiff, indent: &str) -> Vec<StyledText> {
    let mut lines: Vec<StyledText> = diff
        .changes
        .iter()
        .map(|change| StyledText::from(format!("{indent}{}", change.describe())))
        .collect();
    if diff.total_changes > diff.changes.len() {
        lines.push(StyledText::from(format!(
            "{indent}... and {} more changed paths",
            diff.total_changes - diff.changes.len()
        )));
    }
    lines.extend(diff.lines.lines().map(|line| {
        let mut styled = StyledText::from(indent);
        styled.push_maybe(Style::of_diff_line(line), line);
        styled
    }));
    lines
}

/// `  SOURCE  [mode] message`: the source as a path, the finding's rule id where the message
/// names it.
fn finding_line(source: &str, finding: &CheckFinding) -> StyledText {
    let mut line = StyledText::from("  ");
    line.push_styled(Style::Path, &safe_text(source));
    line.push("  ");
    if let Some(mode) = finding.mode {
        let _ = write!(line, "[{mode}] ");
    }
    let message = safe_text(&finding.message);
    match &finding.rule {
        Some(rule) => line.push_marking(&message, &safe_text(rule), Style::Rule),
        None => line.push(&message),
    }
    line
}

/// The text report with what a reader scans for styled: the verdict, status counts, each
/// group's heading by whether it fails, sources, rule ids and the line diffs.
fn styled_check_text(tally: &CheckTally) -> StyledText {
    let mut out = StyledText::new();
    for line in styled_summary_lines(tally) {
        out.append(&line);
        out.push("\n");
    }
    for kind in GROUP_ORDER {
        let group = tally.group(kind);
        if group.count == 0 {
            continue;
        }
        out.push("\n");
        out.push_styled(group_style(kind, tally.require_golden), kind.title());
        let _ = writeln!(out, " ({})", group_count(group));
        for (source, finding) in &group.examples {
            out.append(&finding_line(source, finding));
            out.push("\n");
            if let Some(diff) = &finding.diff {
                for line in styled_diff_lines(diff, "      ") {
                    out.append(&line);
                    out.push("\n");
                }
            }
        }
        let shown = group.examples.len() as u64;
        if group.count > shown {
            let _ = writeln!(
                out,
                "  ... and {} more (--limit N shows more; --format json lists every packet)",
                group.count - shown
            );
        }
    }
    out.push("\n");
    out.append(&styled_verdict_line(tally));
    out.push("\n");
    out
}

/// `check --format text`: everything at the end, from the tally.
pub struct TextWriter;

impl super::writer::CheckWriter for TextWriter {
    fn finish(
        self: Box<Self>,
        tally: &CheckTally,
        out: &mut dyn StyledWrite,
    ) -> std::io::Result<()> {
        out.write_styled(&styled_check_text(tally).trim_end())?;
        out.write_all(b"\n")
    }
}

#[cfg(test)]
mod group_order_tests {
    use super::*;

    #[test]
    fn group_order_lists_every_kind() {
        for kind in FindingKind::ALL {
            assert!(GROUP_ORDER.contains(&kind), "{kind:?} is never shown");
        }
    }
}
