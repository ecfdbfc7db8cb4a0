//! Handoff tab: the four flags with their deciding rows and evidence, the named state, the
//! whole frozen rule table with matched rows highlighted, and what each flag may and must not
//! be read as. Canonical input shows its audit instead.

use crate::corpus::PacketDetail;
use crate::freeze::{Explanation, GUARDRAIL, HANDOFF_FIELDS, K1A_TABLE};
use crate::report::explain::{evidence_list, evidence_listed};
use crate::rules::Verdict;
use crate::tui::state::app::{App, Focus};
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// The Handoff tab, drawn from the state (a `StatefulWidget` keeping its scroll extent in the
/// `ViewState`).
pub struct HandoffView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for HandoffView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let HandoffView { app, detail, theme } = self;
        let lines = match (detail.explanation(app.mode), &detail.audit) {
            (Some(explanation), _) => explanation_lines(app, explanation, area.width, theme),
            (None, Some(audit)) => crate::tui::views::findings::audit_lines(audit, theme),
            (None, None) if detail.profile.is_some() => detail
                .profile
                .as_ref()
                .map(|report| crate::tui::views::profile::report_lines(report, theme))
                .unwrap_or_default(),
            (None, None) => vec![
                heading("No K1-A handoff seam on this packet.", theme),
                crate::tui::views::text::classified_as(detail, theme),
            ],
        };
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}

/// How many items of a row's evidence the tab lists; the rest are counted.
pub const LISTED_EVIDENCE: usize = 20;

fn explanation_lines(
    app: &App,
    explanation: &Explanation,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let wide = width >= 100;
    let mut lines = Vec::new();
    let mode = explanation.mode();
    match &explanation.conversion.result {
        Err(error) => {
            lines.push(heading(
                &format!("{mode} mode: rejected, no handoff object emitted"),
                theme,
            ));
            lines.push(Line::from(vec![
                Span::styled(format!("[{}] ", error.rule), theme.bad()),
                Span::raw(format!("{}: {}", error.kind.name(), safe(&error.message))),
            ]));
            if let Some(row) = explanation
                .row("N3")
                .filter(|row| row.verdict == Verdict::Matched)
            {
                lines.push(Line::from(vec![
                    Span::styled("N3 ", theme.highlight()),
                    Span::raw("strict task.requested without task.id: measurement error; no emitted packet"),
                ]));
                lines.push(Line::from(Span::styled(
                    format!("   {}", evidence_listed(explanation, row, LISTED_EVIDENCE)),
                    theme.secondary(),
                )));
            }
            lines.push(Line::from(Span::styled(
                "press m to see the other mode",
                theme.secondary(),
            )));
        }
        Ok(converted) => {
            lines.push(heading(&format!("handoff ({mode} mode)"), theme));
            lines.push(Line::from(Span::styled(
                // The last column is the deciding row's id: named in full where it fits.
                if width >= 50 {
                    format!("  {:<20} {:<16} {}", "field", "value", "decided by")
                } else {
                    // Two columns narrower so that the header ends where the row ids do.
                    format!("  {:<20} {:<14} {}", "field", "value", "row")
                },
                theme.secondary(),
            )));
            for (index, field) in explanation.fields.iter().enumerate() {
                let selected = app.focus == Focus::Detail && app.tabs.handoff.cursor == index;
                let line = crate::tui::views::text::field_line(
                    if selected { "▸ " } else { "  " },
                    field,
                    theme,
                );
                lines.push(if selected {
                    line.style(theme.selected())
                } else {
                    line
                });
                lines.push(Line::from(Span::styled(
                    format!("      {}", evidence_list(&field.evidence)),
                    theme.secondary(),
                )));
            }
            let state = explanation
                .state
                .map(|state| state.name())
                .unwrap_or("NOT one of the five legal states");
            lines.push(Line::from(vec![
                Span::styled("  state ", theme.secondary()),
                Span::styled(state.to_owned(), theme.accent()),
                Span::styled(
                    format!("  {}", converted.handoff_digest().short(16)),
                    theme.secondary(),
                ),
            ]));
        }
    }
    lines.push(Line::default());
    lines.push(heading(
        "K1-A frozen rule table (matched rows highlighted)",
        theme,
    ));
    for row in K1A_TABLE
        .rows
        .iter()
        .filter(|row| crate::freeze::COVERAGE_ROW_IDS.contains(&row.id))
    {
        let matched = explanation
            .row(row.id)
            .is_some_and(|outcome| outcome.verdict == Verdict::Matched);
        let (mark, style) = if matched {
            ("●", theme.highlight())
        } else {
            ("·", theme.secondary())
        };
        lines.push(Line::from(vec![
            Span::styled(format!(" {mark} {:<4}", row.id), style),
            Span::styled(
                format!("{:<38} ", row.title),
                if matched {
                    theme.text()
                } else {
                    theme.secondary()
                },
            ),
            // The result beside the title where it fits, else on the next line.
            Span::styled(
                if wide {
                    row.result.to_owned()
                } else {
                    String::new()
                },
                theme.secondary(),
            ),
        ]));
        if !wide {
            lines.push(Line::from(Span::styled(
                format!("        → {}", row.result),
                theme.secondary(),
            )));
        }
        if matched {
            if let Some(outcome) = explanation.row(row.id) {
                if explanation.evidence_count(outcome) > 0 {
                    lines.push(Line::from(Span::styled(
                        format!(
                            "        {}",
                            evidence_listed(explanation, outcome, LISTED_EVIDENCE)
                        ),
                        theme.secondary(),
                    )));
                }
            }
        }
    }
    lines.push(Line::default());
    lines.push(heading("what each flag may and must not be read as", theme));
    for field in &HANDOFF_FIELDS {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<20}", field.name), theme.accent()),
            Span::raw(format!("may imply: {}", field.may_imply)),
        ]));
        lines.push(Line::from(vec![
            Span::raw(format!("  {:<20}", "")),
            Span::styled(
                format!("must not imply: {}", field.must_not_imply),
                theme.warn(),
            ),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(GUARDRAIL, theme.secondary())));
    lines
}
