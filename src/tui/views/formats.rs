//! Formats tab: the cross-format view (which field of each handoff format plays each role of
//! the A2A handoff seam), with the selected packet's own values when it is one of them.

use crate::profiles::{crosswalk, Expressibility};
use crate::report::crosswalk_text::table_lines;
use crate::tui::state::app::App;
use crate::tui::views::text::{heading, safe};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// The Formats tab, drawn from the state (a `StatefulWidget` keeping its scroll extent in the
/// `ViewState`).
pub struct FormatsView<'a> {
    pub app: &'a App,
    pub theme: &'a Theme,
}

impl StatefulWidget for FormatsView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let FormatsView { app, theme } = self;
        let mut lines = vec![
            heading(
                "what each format can express of the A2A handoff seam",
                theme,
            ),
            Line::from(Span::styled(
                "~field: comes close but means something else; -: cannot express",
                theme.secondary(),
            )),
        ];
        let table = table_lines();
        let table_width = table
            .iter()
            .map(|line| line.chars().count())
            .max()
            .unwrap_or(0);
        if table_width <= usize::from(area.width) {
            lines.extend(table.into_iter().map(|text| Line::from(Span::raw(text))));
        } else {
            // Too wide for the table: one block per format.
            for column in crosswalk() {
                lines.push(Line::default());
                lines.push(Line::from(vec![
                    Span::styled(format!("{} ", column.id), theme.accent()),
                    Span::styled(column.name, theme.title()),
                ]));
                for cell in &column.cells {
                    let field = match (cell.expressibility, cell.field) {
                        (Expressibility::Field, Some(field)) => field.to_owned(),
                        (Expressibility::Partial, Some(field)) => format!("~{field}"),
                        _ => "-".to_owned(),
                    };
                    let style = if field == "-" {
                        theme.secondary()
                    } else {
                        theme.text()
                    };
                    lines.push(Line::from(vec![
                        Span::styled(format!("  {:<22}", cell.role.label()), theme.secondary()),
                        Span::styled(format!("{field:<20} "), style),
                        Span::styled(cell.note, theme.secondary()),
                    ]));
                }
            }
        }
        if let Some(report) = app
            .selected_detail()
            .and_then(|detail| detail.profile.as_ref())
        {
            lines.push(Line::default());
            lines.push(heading("this packet's seam values", theme));
            for seam in &report.seam {
                let value = match (&seam.field, &seam.value) {
                    (Some(field), Some(value)) => {
                        format!(
                            "{field} = {}",
                            crate::json::shown_json(value, crate::rules::EVIDENCE_VALUE_CHARS)
                        )
                    }
                    (Some(field), None) => format!("{field} (absent)"),
                    (None, _) => "cannot be expressed in this format".to_owned(),
                };
                lines.push(Line::from(vec![
                    Span::styled(format!("  {:<22}", seam.role.label()), theme.accent()),
                    Span::raw(safe(&value)),
                ]));
            }
        }
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}
