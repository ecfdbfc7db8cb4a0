//! `check --format text`: a summary, then the findings grouped by kind, each group listing its
//! first examples (with the changed paths and line diff of mismatches) and how many more.

use super::tally::CheckTally;
use crate::corpus::{CheckFinding, FindingKind, PacketKind, Status};
use crate::golden::JsonDiff;
use crate::json::safe_text;
use std::fmt::Write as _;

/// Groups shown, in this order: what fails first, informational last.
pub const GROUP_ORDER: [FindingKind; 15] = [
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

/// `N label, M label` for the non-zero counts; `empty` (words that cannot be read as "no
/// problems") when every count is zero.
fn counts_line<T: Copy>(
    items: &[T],
    count: impl Fn(T) -> u64,
    name: impl Fn(T) -> String,
    empty: &str,
) -> String {
    let parts: Vec<String> = items
        .iter()
        .filter(|item| count(**item) > 0)
        .map(|item| format!("{} {}", count(*item), name(*item)))
        .collect();
    if parts.is_empty() {
        empty.to_owned()
    } else {
        parts.join(", ")
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
    let modes: Vec<&str> = tally.modes.iter().map(|mode| mode.name()).collect();
    let mut lines = vec![format!(
        "{} packets checked ({} mode{}), {} load error{}",
        tally.packets,
        modes.join(" + "),
        if modes.len() == 1 { "" } else { "s" },
        tally.load_errors,
        if tally.load_errors == 1 { "" } else { "s" }
    )];
    let no_golden = tally.no_golden;
    lines.push(format!(
        "packets by status: {}",
        counts_line(
            &Status::ALL,
            |status| tally.status_count(status),
            |status| status_label(
                status,
                [
                    (no_golden.converted, "converted"),
                    (no_golden.rejected, "rejected by the adapter in a mode"),
                    (no_golden.evaluated, "audited or evaluated"),
                ]
            ),
            "no packet was read"
        )
    ));
    lines.push(format!(
        "packets by kind: {}",
        counts_line(
            &PacketKind::ALL,
            |kind| tally.kind_count(kind),
            |kind| kind.tag().to_owned(),
            "no packet was read"
        )
    ));
    if tally.recorded_packets > 0 {
        lines.push(format!(
            "recorded negatives: {} packet(s) fail or warn exactly as their goldens record ({} finding(s), not counted)",
            tally.recorded_packets, tally.recorded_findings
        ));
    }
    for &mode in &tally.modes {
        let outcomes = tally.by_mode_outcome[mode.index()];
        if outcomes.converted + outcomes.rejected == 0 {
            lines.push(format!(
                "{mode}, raw packets (packet × mode): no raw A2A packet here, so the adapter ran on nothing"
            ));
            continue;
        }
        lines.push(format!(
            "{mode}, raw packets (packet × mode): {} converted, {} rejected by the adapter; {}",
            outcomes.converted,
            outcomes.rejected,
            counts_line(
                &Status::ALL,
                |status| tally.mode_status_count(mode, status),
                |status| status_label(
                    status,
                    [
                        (outcomes.no_golden_converted, "converted"),
                        (outcomes.no_golden_rejected, "rejected"),
                        (0, ""),
                    ]
                ),
                "no status"
            )
        ));
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

/// `N finding(s) in M packet(s)`: a group counts findings and the packets that have one; the
/// status line counts each packet once, by its worst status.
pub fn group_count(group: &super::tally::FindingGroup) -> String {
    format!("{} finding(s) in {} packet(s)", group.count, group.packets)
}

/// A finding's detail lines (changed paths, then the line diff), indented.
pub fn diff_lines(diff: &JsonDiff, indent: &str) -> Vec<String> {
    let mut lines: Vec<String> = diff
        .changes
        .iter()
        .map(|change| format!("{indent}{}", change.describe()))
        .collect();
    if diff.total_changes > diff.changes.len() {
        lines.push(format!(
            "{indent}... and {} more changed paths",
            diff.total_changes - diff.changes.len()
        ));
    }
    lines.extend(diff.lines.lines().map(|line| format!("{indent}{line}")));
    lines
}

fn finding_line(source: &str, finding: &CheckFinding) -> String {
    let mode = finding
        .mode
        .map(|mode| format!("[{mode}] "))
        .unwrap_or_default();
    format!(
        "  {}  {mode}{}",
        safe_text(source),
        safe_text(&finding.message)
    )
}

pub fn check_text(tally: &CheckTally) -> String {
    let mut out = String::new();
    for line in summary_lines(tally) {
        let _ = writeln!(out, "{line}");
    }
    for kind in GROUP_ORDER {
        let group = tally.group(kind);
        if group.count == 0 {
            continue;
        }
        let _ = writeln!(out, "\n{} ({})", kind.title(), group_count(group));
        for (source, finding) in &group.examples {
            let _ = writeln!(out, "{}", finding_line(source, finding));
            if let Some(diff) = &finding.diff {
                for line in diff_lines(diff, "      ") {
                    let _ = writeln!(out, "{line}");
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
    let _ = writeln!(out, "\n{}", verdict_line(tally));
    out
}

/// `check --format text`: everything at the end, from the tally.
pub struct TextWriter;

impl super::check_output::CheckWriter for TextWriter {
    fn item(
        &mut self,
        _item: &crate::corpus::CheckItem,
        _line: Option<Result<Vec<u8>, String>>,
        _out: &mut dyn std::io::Write,
    ) -> Result<(), super::check_output::OutputError> {
        Ok(())
    }

    fn finish(
        self: Box<Self>,
        tally: &CheckTally,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        super::check_output::line(out, check_text(tally).trim_end().as_bytes())
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
