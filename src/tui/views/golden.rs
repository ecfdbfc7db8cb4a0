//! Golden drift where a reviewer looks for it (the Digests tab and the review panel): per
//! mode, every field the manifest records next to its current value, `≠` where they differ,
//! with the changed paths; and what accepting the current outcome would write.

use crate::corpus::{recorded_mode, FindingKind, PacketCheck};
use crate::golden::GoldenEntry;
use crate::tui::state::review::{accept_preview, AcceptPreview, FieldChange};
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use ratatui::text::{Line, Span};

/// The golden section of the Digests tab for a converted packet (empty for other kinds).
pub fn drift_lines(
    check: &PacketCheck,
    golden: &Result<Option<GoldenEntry>, String>,
    rejected: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    // Asked without building the entry: it holds every repeated key's path as a string (a
    // million of them were 60 MB at this tab's first frame).
    if !check.records_golden() {
        return Vec::new();
    }
    let mut lines = Vec::new();
    let (dir, key) = crate::corpus::manifest_key(&check.summary.source);
    let manifest = crate::golden::manifest_path(&dir);
    let entry = match golden {
        Err(reason) => {
            lines.push(heading("golden", theme));
            lines.push(Line::from(Span::styled(
                format!("  manifest unreadable: {}", safe(reason)),
                theme.bad(),
            )));
            lines.push(Line::default());
            return lines;
        }
        Ok(None) => {
            lines.push(heading("golden", theme));
            lines.push(Line::from(Span::styled(
                format!(
                    "  no entry for {} in {}: a (review) can record one",
                    safe(&key.to_string()),
                    safe(&manifest.display().to_string())
                ),
                theme.secondary(),
            )));
            lines.push(Line::default());
            return lines;
        }
        Ok(Some(entry)) => entry,
    };
    lines.push(heading(
        &format!(
            "golden: {} in {} (recorded vs current)",
            safe(&key.to_string()),
            safe(&manifest.display().to_string())
        ),
        theme,
    ));
    if rejected {
        lines.push(Line::from(Span::styled(
            "  rejected this session: the recorded golden was kept",
            theme.warn(),
        )));
    }
    // Drifted modes first, with every recorded field; a mode that matches is one line.
    let mut modes: Vec<_> = check.summary.evaluated_modes().collect();
    let drifted_in = |summary: &&crate::corpus::ModeSummary| {
        entry.mode(summary.mode).is_some_and(|recorded| {
            recorded
                .fields()
                .iter()
                .zip(recorded_mode(summary).fields())
                .any(|((_, want), (_, got))| want.is_some() && *want != got)
        })
    };
    modes.sort_by_key(|summary| !drifted_in(summary));
    for summary in modes {
        let mode = summary.mode;
        let label = format!("  {:<8}", mode.to_string());
        let current = recorded_mode(summary);
        let Some(recorded) = entry.mode(mode) else {
            lines.push(Line::from(vec![
                Span::styled(label, theme.accent()),
                Span::styled("no golden recorded for this mode", theme.warn()),
            ]));
            continue;
        };
        if !drifted_in(&summary) {
            let fields: Vec<&str> = recorded
                .fields()
                .iter()
                .filter(|(_, value)| value.is_some())
                .map(|(field, _)| *field)
                .collect();
            lines.push(Line::from(vec![
                Span::styled(label, theme.accent()),
                Span::styled("= matches the golden", theme.good()),
                Span::styled(format!(" ({})", fields.join(", ")), theme.secondary()),
            ]));
            continue;
        }
        lines.push(Line::from(vec![
            Span::styled(label, theme.accent()),
            Span::styled("≠ differs from the golden", theme.bad()),
        ]));
        // The changed paths first: they say what the drift means at a glance.
        lines.extend(changed_paths(check, Some(mode), theme));
        lines.extend(field_lines(&recorded.fields(), &current.fields(), theme));
    }
    if let (Some(current), Some(recorded)) = (&check.object, &entry.object) {
        let drifted = current.as_ref() != recorded.as_ref();
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<8}", "object"), theme.accent()),
            if drifted {
                Span::styled("≠ differs from the golden", theme.bad())
            } else {
                Span::styled("= matches the golden", theme.good())
            },
        ]));
        if drifted {
            // What changed in the object, path by path, when the golden records its content.
            lines.extend(changed_paths(check, None, theme));
            lines.extend(field_lines(&recorded.fields(), &current.fields(), theme));
        }
        if !check.recorded_findings.is_empty() {
            lines.push(Line::from(Span::styled(
                format!(
                    "    {} finding(s) recorded as expected: an intentional negative",
                    check.recorded_findings.len()
                ),
                theme.secondary(),
            )));
        }
    } else if check.object.is_some() {
        lines.push(Line::from(Span::styled(
            "  the entry records a converted packet; this file is now another kind",
            theme.bad(),
        )));
    }
    lines.push(Line::default());
    lines
}

/// The changed paths of the golden drift of `mode` (`None`: the object's), before -> after.
fn changed_paths(
    check: &PacketCheck,
    mode: Option<crate::a2a::Mode>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for finding in check
        .findings
        .iter()
        .filter(|finding| finding.kind == FindingKind::GoldenMismatch && finding.mode == mode)
    {
        if let Some(diff) = &finding.diff {
            lines.push(Line::from(Span::styled(
                format!("    changed paths ({}):", diff.total_changes),
                theme.secondary(),
            )));
            for change in &diff.changes {
                lines.push(Line::from(Span::styled(
                    format!("      {}", change.describe()),
                    theme.bad(),
                )));
            }
        }
    }
    lines
}

/// `= state  task_ref_only`, or for a drifted field `≠ state` with the recorded and current
/// values on their own lines. Fields the golden does not record are not compared by `check`
/// and are shown as such.
fn field_lines(
    recorded: &[(&'static str, Option<String>)],
    current: &[(&'static str, Option<String>)],
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    for ((field, want), (_, got)) in recorded.iter().cloned().zip(current.iter().cloned()) {
        match (want, got) {
            (None, None) => {}
            (None, Some(got)) => lines.push(Line::from(vec![
                Span::styled(format!("    · {field:<10}"), theme.secondary()),
                Span::styled(
                    format!("not recorded; current {}", safe(&got)),
                    theme.secondary(),
                ),
            ])),
            (Some(want), got) if Some(&want) == got.as_ref() => lines.push(Line::from(vec![
                Span::styled(format!("    = {field:<10}"), theme.good()),
                Span::raw(safe(&want)),
            ])),
            (Some(want), got) => {
                lines.push(Line::from(Span::styled(
                    format!("    ≠ {field}"),
                    theme.bad(),
                )));
                lines.push(Line::from(vec![
                    Span::styled("        recorded ", theme.secondary()),
                    Span::raw(safe(&want)),
                ]));
                lines.push(Line::from(vec![
                    Span::styled("        current  ", theme.secondary()),
                    Span::styled(safe(got.as_deref().unwrap_or("absent")), theme.accent()),
                ]));
            }
        }
    }
    lines
}

/// What accepting writes for `check` (see `review::accept_preview`): the whole entry when it
/// is new, else each field that changes (recorded → current); "no change" when accepting
/// would write nothing.
pub fn accept_lines(
    check: &PacketCheck,
    golden: &Result<Option<GoldenEntry>, String>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let (new, changes) = match accept_preview(check, golden) {
        AcceptPreview::NoGolden(kind) => {
            return vec![Line::from(Span::styled(
                format!("a {} has no golden to record", kind.name()),
                theme.secondary(),
            ))]
        }
        AcceptPreview::Unreadable(reason) => {
            return vec![Line::from(Span::styled(
                format!(
                    "manifest unreadable, nothing can be written: {}",
                    safe(&reason)
                ),
                theme.bad(),
            ))]
        }
        AcceptPreview::Writes { new, changes } => (new, changes),
    };
    let mut lines = vec![Line::from(Span::styled(
        if new {
            "accepting writes a new entry:"
        } else {
            "accepting writes (recorded → current):"
        },
        theme.warn(),
    ))];
    if changes.is_empty() {
        lines.push(Line::from(Span::styled(
            "  no change: the manifest already records this outcome",
            theme.secondary(),
        )));
    }
    lines.extend(changes.into_iter().map(|FieldChange { label, change }| {
        Line::from(vec![Span::styled(label, theme.accent()), Span::raw(change)])
    }));
    lines
}
