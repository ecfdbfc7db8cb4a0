//! The packet list: group headers and one line per packet with its status glyph, kind, event
//! type and named handoff state.

use super::text::safe;
use crate::corpus::ModeResult;
use crate::tui::app::{App, Focus, ListRow};
use crate::tui::status::glyph;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

pub fn draw(app: &App, frame: &mut Frame, area: Rect, theme: &Theme) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(app.focus == Focus::List))
        .title(" packets ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height);
    let width = usize::from(inner.width);
    let lines: Vec<Line> = app
        .rows
        .iter()
        .enumerate()
        .skip(app.list_offset)
        .take(height)
        .map(|(row, entry)| {
            let selected = row == app.selected;
            let line = match entry {
                ListRow::Group {
                    label,
                    count,
                    failing,
                    folded,
                } => group_line(label, *count, *failing, *folded, width, theme),
                ListRow::Packet(index) => packet_line(app, *index, width, theme),
            };
            if selected {
                line.style(theme.selected())
            } else {
                line
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

/// `▾ fixtures/a2a/ 34 · 3 failing`: the counts first claim their room, the label (shortened
/// from the left, keeping the directory's own name) takes the rest.
fn group_line(
    label: &str,
    count: usize,
    failing: usize,
    folded: bool,
    width: usize,
    theme: &Theme,
) -> Line<'static> {
    let marker = if folded { "▸" } else { "▾" };
    let counts = format!(" {count}");
    let failing_text = if failing > 0 {
        format!(" · {failing} failing")
    } else {
        String::new()
    };
    let room = width.saturating_sub(2 + counts.chars().count() + failing_text.chars().count());
    Line::from(vec![
        Span::styled(
            format!("{marker} {}", safe(&fit_left(label, room.max(4)))),
            theme.title(),
        ),
        Span::styled(counts, theme.dim()),
        Span::styled(failing_text, theme.bad()),
    ])
}

fn packet_line(app: &App, index: usize, width: usize, theme: &Theme) -> Line<'static> {
    let summary = &app.packets[index].summary;
    let status = app.status(index);
    let name = match summary.source.line {
        Some(line) => format!(":{line}"),
        None => {
            let file = summary.source.file_name().unwrap_or("?");
            file.strip_suffix(".json").unwrap_or(file).to_owned()
        }
    };
    let event = match summary.mode(app.mode).map(|mode| mode.result) {
        Some(ModeResult::Converted { canonical_type, .. }) => {
            canonical_type.short_name().to_owned()
        }
        Some(ModeResult::Rejected { rule, .. }) => format!("rejected {rule}"),
        // Not a raw packet: its kind is what there is to say.
        None => summary.kind.tag().to_owned(),
    };
    let state = summary
        .state(app.mode)
        .map(|state| state.short())
        .unwrap_or("");
    let columns = format!(" {:<16} {:<9}", fit_right(&event, 16), state);
    let room = width.saturating_sub(3 + columns.chars().count()).max(8);
    let name = fit_middle(&name, room);
    Line::from(vec![
        Span::styled(format!(" {} ", glyph(status)), theme.status(status)),
        Span::styled(format!("{:<room$}", safe(&name)), theme.text()),
        Span::styled(columns, theme.dim()),
    ])
}

/// Shortens from the left with an ellipsis, keeping the end visible.
pub fn fit_left(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    if width == 0 {
        return String::new();
    }
    let keep: String = text.chars().skip(count - (width - 1)).collect();
    format!("…{keep}")
}

/// Shortens at the right with an ellipsis.
pub fn fit_right(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let keep: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{keep}…")
}

/// Shortens in the middle, keeping both the start and the end of a name.
pub fn fit_middle(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    if width < 3 {
        return fit_right(text, width);
    }
    let head = (width - 1) / 2;
    let tail = width - 1 - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting() {
        assert_eq!(fit_middle("happy_task_requested", 11), "happy…ested");
        assert_eq!(fit_middle("short", 11), "short");
        assert_eq!(fit_left("fixtures/a2a/", 8), "…es/a2a/");
        assert_eq!(fit_right("agent.capabilities", 16), "agent.capabilit…");
    }
}
