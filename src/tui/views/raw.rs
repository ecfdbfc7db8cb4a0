//! Raw tab: the packet text as in the file (re-indented without reordering when it is a
//! single long line), with line numbers and syntax colour.

use super::text::{json_line, reindent};
use crate::corpus::PacketDetail;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

pub fn draw(app: &App, detail: &PacketDetail, frame: &mut Frame, area: Rect, theme: &Theme) {
    let text = String::from_utf8_lossy(&detail.bytes);
    let single_line = !text.trim_end().contains('\n');
    let shown = if single_line && text.len() > usize::from(area.width) {
        reindent(&text)
    } else {
        text.into_owned()
    };
    let mut lines = Vec::new();
    if single_line && shown.contains('\n') {
        lines.push(Line::from(Span::styled(
            format!(
                "{} bytes on one line; shown indented, key order as in the file",
                detail.bytes.len()
            ),
            theme.dim(),
        )));
    }
    for (number, line) in shown.lines().enumerate() {
        let mut numbered = vec![Span::styled(format!("{:>4} ", number + 1), theme.dim())];
        numbered.extend(json_line(line, theme).spans);
        lines.push(Line::from(numbered));
    }
    super::scrolled_detail(app, lines, frame, area);
}
