//! Findings tab: the packet's check verdict and findings (the same as `check` reports: goldens,
//! expected payloads, audit, profile rows, migration), what the packet is, duplicate keys,
//! rejections, and the corpus's load errors.

use crate::corpus::PacketDetail;
use crate::freeze::Audit;
use crate::rules::Severity;
use crate::tui::state::app::App;
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// The Findings tab, drawn from the state (a `StatefulWidget` keeping its scroll extent in the
/// `ViewState`).
pub struct FindingsView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for FindingsView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let FindingsView { app, detail, theme } = self;
        let mut lines = Vec::new();
        // Repeated keys the golden acknowledges are not a finding of the check: they are listed
        // as acknowledged, never as a warning under a verdict that says there is nothing.
        let acknowledged = app.selected_check().is_some_and(|check| {
            !check.duplicate_key_paths.is_empty()
                && !check
                    .findings
                    .iter()
                    .any(|finding| finding.kind == crate::corpus::FindingKind::DuplicateKeys)
        });
        if let Some(check) = app.selected_check() {
            let status = check
                .mode(app.mode)
                .map_or(check.status, |mode| mode.status);
            lines.push(Line::from(vec![
                Span::styled("check: ", theme.title()),
                Span::styled(
                    format!(
                        "{} {}",
                        crate::tui::state::status::glyph(status),
                        status.label()
                    ),
                    theme.status(status),
                ),
                Span::styled(
                    format!(
                        "  ({} finding(s){})",
                        check.findings.len(),
                        if acknowledged {
                            "; repeated keys acknowledged by the golden, below"
                        } else {
                            ""
                        }
                    ),
                    theme.secondary(),
                ),
            ]));
            for finding in &check.findings {
                let style = theme.status(finding.kind.status());
                // Messages of per-mode findings may already start with their mode ("strict: ...").
                let mode = finding
                    .mode
                    .filter(|mode| !finding.message.starts_with(&format!("{mode}:")))
                    .map(|mode| format!("{mode} "))
                    .unwrap_or_default();
                lines.push(Line::from(vec![
                    Span::styled(format!("  {} ", finding.kind.title()), style),
                    Span::styled(mode, theme.secondary()),
                    Span::raw(safe(&finding.message)),
                ]));
                if let Some(diff) = &finding.diff {
                    for change in diff.changes.iter().take(12) {
                        lines.push(Line::from(Span::styled(
                            format!("      {}", change.describe()),
                            theme.secondary(),
                        )));
                    }
                }
            }
            if !check.recorded_findings.is_empty() {
                lines.push(Line::from(Span::styled(
                    format!(
                        "  recorded as expected by the golden ({}): an intentional negative, not counted",
                        check.recorded_findings.len()
                    ),
                    theme.secondary(),
                )));
                for finding in &check.recorded_findings {
                    lines.push(Line::from(vec![
                        Span::styled(format!("    {} ", finding.kind.title()), theme.secondary()),
                        Span::raw(safe(&finding.message)),
                    ]));
                }
            }
            lines.push(Line::default());
        }
        lines.push(heading("this packet", theme));
        let before = lines.len();
        lines.push(Line::from(vec![
            Span::styled("  kind ", theme.secondary()),
            Span::raw(format!(
                "{}: {}",
                detail.classification.kind.name(),
                safe(&detail.classification.reason)
            )),
        ]));
        let (label, style) = if acknowledged {
            (
                "  duplicate key, acknowledged by the golden: ",
                theme.secondary(),
            )
        } else {
            ("  warning [duplicate key] ", theme.warn())
        };
        let duplicates = detail.duplicate_keys();
        for duplicate in &duplicates.first {
            lines.push(Line::from(vec![
                Span::styled(label, style),
                Span::raw(format!(
                    "{} appears {} times; the last value is the one converted",
                    duplicate.path, duplicate.occurrences
                )),
            ]));
        }
        if duplicates.unlisted() > 0 {
            // A line a key for the first ones only: a packet may repeat a million keys.
            lines.push(Line::from(vec![
                Span::styled(label, style),
                Span::raw(format!(
                    "and {} more repeated keys, not listed here (`explain` lists every one)",
                    duplicates.unlisted()
                )),
            ]));
        }
        for explanation in &detail.explanations {
            if let Some(error) = explanation.conversion.error() {
                lines.push(Line::from(vec![
                    Span::styled(
                        format!("  {} rejected [{}] ", explanation.mode(), error.rule),
                        theme.bad(),
                    ),
                    Span::raw(format!("{}: {}", error.kind.name(), safe(&error.message))),
                ]));
            }
        }
        if let Some(audit) = &detail.audit {
            lines.extend(audit_lines(audit, theme));
        }
        if let Some(report) = &detail.profile {
            for finding in &report.findings {
                lines.push(Line::from(vec![
                    Span::styled(format!("  [{}] ", finding.rule), theme.warn()),
                    Span::styled(format!("{} ", finding.path), theme.accent()),
                    Span::raw(safe(&finding.message)),
                ]));
            }
        }
        if lines.len() == before + 1 {
            lines.push(Line::from(Span::styled(
                "  nothing more to note",
                theme.good(),
            )));
        }
        lines.push(Line::default());
        lines.push(heading(
            &format!("corpus load errors ({})", app.load_errors.len()),
            theme,
        ));
        for error in app.load_errors.iter().take(500) {
            lines.push(Line::from(vec![
                Span::styled("  ✗ ", theme.bad()),
                Span::raw(safe(&error.to_string())),
            ]));
        }
        if app.load_errors.len() > 500 {
            lines.push(Line::from(Span::styled(
                format!("  … and {} more", app.load_errors.len() - 500),
                theme.secondary(),
            )));
        }
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}

/// The audit of canonical input, shared with the Handoff tab.
pub fn audit_lines(audit: &Audit, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines = vec![heading(
        &format!("{} audited against the K1-A freeze", audit.shape.name()),
        theme,
    )];
    for (index, state) in audit.states.iter().enumerate() {
        lines.push(Line::from(vec![
            Span::styled(format!("  handoff #{} ", index + 1), theme.secondary()),
            Span::styled(
                state
                    .map(|state| state.name())
                    .unwrap_or("NOT one of the five legal states")
                    .to_owned(),
                theme.accent(),
            ),
        ]));
    }
    if audit.findings.is_empty() {
        lines.push(Line::from(Span::styled(
            "  no findings: shape and source rules hold",
            theme.good(),
        )));
    }
    for finding in &audit.findings {
        let style = match finding.severity {
            Severity::Error => theme.bad(),
            Severity::Warning => theme.warn(),
            Severity::Note => theme.secondary(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("  [{}] ", finding.rule), style),
            Span::styled(format!("{} ", finding.path), theme.accent()),
            Span::raw(safe(&finding.message)),
        ]));
    }
    lines
}
