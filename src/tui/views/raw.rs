//! Raw tab: the packet text as in the file (re-indented without reordering when it is a
//! single long line), with line numbers and syntax colour.

use crate::corpus::PacketDetail;
use crate::tui::state::app::App;
use crate::tui::views::text::{json_line, reindent};
use crate::tui::views::theme::Theme;
use crate::tui::views::view_state::ViewState;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::StatefulWidget;

/// The raw tab shows at most this much of a packet: every shown line becomes spans, and a
/// 16 MiB packet of `[[[[` re-indents into millions of lines (gigabytes of spans). The rest
/// is one `explain` or a pager away.
const MAX_RAW_BYTES: usize = 64 * 1024;
const MAX_RAW_LINES: usize = 4_000;

/// The Raw tab, drawn from the state (a `StatefulWidget` keeping what it measures in the
/// `ViewState`).
pub struct RawView<'a> {
    pub app: &'a App,
    pub detail: &'a PacketDetail,
    pub theme: &'a Theme,
}

impl StatefulWidget for RawView<'_> {
    type State = ViewState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ViewState) {
        let RawView { app, detail, theme } = self;
        let whole = detail.bytes.len();
        let prefix = &detail.bytes[..whole.min(MAX_RAW_BYTES)];
        let text = String::from_utf8_lossy(prefix);
        let single_line = !text.trim_end().contains('\n');
        let shown = if single_line && text.len() > usize::from(area.width) {
            reindent(&text)
        } else {
            text.into_owned()
        };
        let mut lines = Vec::new();
        let total_lines = shown.lines().count();
        if whole > MAX_RAW_BYTES || total_lines > MAX_RAW_LINES {
            lines.push(Line::from(Span::styled(
                format!(
                    "{whole} bytes; only the start is shown here (at most {} KiB, {MAX_RAW_LINES} lines)",
                    MAX_RAW_BYTES / 1024
                ),
                theme.secondary(),
            )));
        }
        if single_line && shown.contains('\n') {
            lines.push(Line::from(Span::styled(
                format!(
                    "{} bytes on one line; shown indented, key order as in the file",
                    detail.bytes.len()
                ),
                theme.secondary(),
            )));
        }
        for (number, line) in shown.lines().take(MAX_RAW_LINES).enumerate() {
            let mut numbered = vec![Span::styled(
                format!("{:>4} ", number + 1),
                theme.secondary(),
            )];
            numbered.extend(json_line(line, theme).spans);
            lines.push(Line::from(numbered));
        }
        crate::tui::views::scroll::scrolled_detail(app, state, lines, buf, area);
    }
}
