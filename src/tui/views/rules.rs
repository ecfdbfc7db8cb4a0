//! Rules tab: the corpus-wide coverage matrix of the K1-A rule table, rows x {strict,
//! lenient}; Enter on a cell filters the list to the packets that exercise it.

use crate::a2a::Mode;
use crate::freeze::{unreachable_reason, COVERAGE_ROW_IDS, K1A_TABLE};
use crate::tui::state::app::{App, Focus};
use crate::tui::views::text::heading;
use crate::tui::views::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// The Rules tab, the coverage matrix drawn from the state (a `Widget`: it keeps nothing between
/// frames).
pub struct RulesView<'a> {
    pub app: &'a App,
    pub theme: &'a Theme,
}

impl Widget for RulesView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let RulesView { app, theme } = self;
        let mut lines = vec![
            heading(
                "K1-A rule coverage in this corpus (packets per row and mode)",
                theme,
            ),
            Line::from(Span::styled(
                format!("  {:<5}{:>7} {:>8}  {}", "row", "strict", "lenient", "rule"),
                theme.secondary(),
            )),
        ];
        let mut uncovered = Vec::new();
        for (row, id) in COVERAGE_ROW_IDS.iter().enumerate() {
            let title = K1A_TABLE.row(id).map(|row| row.title).unwrap_or("");
            // The counts come before the title so that a narrow pane wraps only the title.
            let mut spans = vec![Span::styled(format!("  {id:<5}"), theme.accent())];
            for column in 0..2 {
                let count = app.coverage[row][column];
                let selected = app.focus == Focus::Detail && app.tabs.rules.cursor == (row, column);
                let reachable = unreachable_reason(id, Mode::BOTH[column]).is_none();
                let width = if column == 0 { 6 } else { 8 };
                let text = match (count, reachable) {
                    (0, false) => format!("{:>width$}", "n/a"),
                    (0, true) => format!("{:>width$}", "—"),
                    _ => format!("{count:>width$}"),
                };
                let style = if selected {
                    theme.selected()
                } else if count == 0 && reachable {
                    theme.warn()
                } else if !reachable {
                    theme.secondary()
                } else {
                    theme.text()
                };
                spans.push(Span::styled(text, style));
                spans.push(Span::raw(" "));
                if count == 0 && reachable {
                    uncovered.push(format!("{id}/{}", Mode::BOTH[column]));
                }
            }
            spans.push(Span::raw(format!(" {title}")));
            lines.push(Line::from(spans));
        }
        lines.push(Line::default());
        if uncovered.is_empty() {
            lines.push(Line::from(Span::styled(
                "every cell is exercised",
                theme.good(),
            )));
        } else {
            lines.push(Line::from(vec![
                Span::styled(format!("uncovered ({}): ", uncovered.len()), theme.warn()),
                Span::raw(uncovered.join(" ")),
            ]));
        }
        lines.push(Line::from(Span::styled(
            "n/a: unreachable by construction (strict never substitutes; lenient never rejects for task.id)",
            theme.secondary(),
        )));
        if let Some(row) = COVERAGE_ROW_IDS
            .get(app.tabs.rules.cursor.0)
            .and_then(|id| K1A_TABLE.row(id))
        {
            lines.push(Line::default());
            lines.push(Line::from(vec![
                Span::styled(format!("{} ", row.id), theme.accent()),
                Span::raw(row.condition),
            ]));
            lines.push(Line::from(Span::styled(
                format!("   → {}", row.result),
                theme.secondary(),
            )));
            lines.push(Line::from(Span::styled(
                if app.focus == Focus::Detail {
                    "   Enter filters the list to this cell"
                } else {
                    "   l or → to move into the matrix"
                },
                theme.secondary(),
            )));
        }
        // Keep the selected row (and the two lines under it) in view.
        let cursor_line = app.tabs.rules.cursor.0 + 2;
        let scroll = (cursor_line + 3).saturating_sub(usize::from(area.height));
        crate::tui::views::scroll::scrolled(
            lines,
            scroll.min(usize::from(u16::MAX)) as u16,
            buf,
            area,
        );
    }
}
