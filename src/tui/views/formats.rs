//! Formats tab: the cross-format view (which field of each handoff format plays each role of
//! the A2A handoff seam), with the selected packet's own values when it is one of them.

use super::text::{heading, safe};
use crate::report::crosswalk_text::table_lines;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

pub fn draw(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let mut lines = vec![heading(
        "what each format can express of the A2A handoff seam",
        theme,
    )];
    for (index, text) in table_lines().into_iter().enumerate() {
        let style = if index == 0 {
            theme.accent()
        } else {
            theme.text()
        };
        lines.push(Line::from(Span::styled(text, style)));
    }
    if let Some(report) = app
        .selected_detail()
        .and_then(|detail| detail.profile.as_ref())
    {
        lines.push(Line::default());
        lines.push(heading("this packet's seam values", theme));
        for seam in &report.seam {
            let value = match (&seam.field, &seam.value) {
                (Some(field), Some(value)) => format!(
                    "{field} = {}",
                    serde_json::to_string(value).unwrap_or_default()
                ),
                (Some(field), None) => format!("{field} (absent)"),
                (None, _) => "cannot be expressed in this format".to_owned(),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<22}", seam.role.label()), theme.accent()),
                Span::raw(safe(&value)),
            ]));
        }
    }
    super::scrolled(lines, app.detail_scroll, frame, area);
}
