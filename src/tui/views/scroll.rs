//! The one rule for long lines, in every tab: they wrap at the pane's width, and the detail
//! scrolls, stopping at the last wrapped line.

use crate::tui::state::app::App;
use crate::tui::views::hanging;
use crate::tui::views::view_state::ViewState;
use crate::tui::views::window::{trim_line_end, WindowLines};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

/// The one rule for long lines, in every tab (and stated in help): they wrap at the pane's
/// width with a hanging indent (see `hanging`), and j/k (detail focused) scroll. The scroll stops at the last wrapped line.
pub const WRAP_RULE: &str = "Long lines wrap at the pane's width in every tab, their continuations indented; with the detail focused, PgUp/PgDn and j/k scroll it (on Handoff and Digests, j/k first move the selected line).";

/// Renders lines as a paragraph that wraps at the pane's width, scrolled by `scroll` rows
/// (kept inside the content: the last wrapped line stops at the bottom).
pub(crate) fn scrolled_wrapped(
    lines: Vec<Line<'static>>,
    scroll: u16,
    buf: &mut Buffer,
    area: Rect,
) {
    let lines: Vec<Line<'static>> = lines.into_iter().map(trim_line_end).collect();
    // Small content (a tab's header, a panel): wrapped whole, once, and the rows on screen drawn.
    let rows = hanging::wrapped(&lines, area.width);
    let max = rows.len().saturating_sub(usize::from(area.height));
    let rows: Vec<Line<'static>> = rows
        .into_iter()
        .skip(usize::from(scroll).min(max))
        .take(usize::from(area.height))
        .collect();
    Paragraph::new(rows).render(area, buf);
}

/// Renders the detail's lines by the wrap rule at the detail scroll, and reports how far this
/// content can scroll, so that the state keeps the scroll inside it after the frame (G then k
/// moves up at once). Side-by-side columns report the longer one.
/// Only the lines on screen are wrapped and drawn (see `window`).
pub(crate) fn scrolled_detail(
    app: &App,
    state: &mut ViewState,
    lines: Vec<Line<'static>>,
    buf: &mut Buffer,
    area: Rect,
) {
    WindowLines::new(lines).draw(app, &mut state.scroll_max, buf, area);
}

/// Renders lines by the wrap rule (see `WRAP_RULE`).
pub(crate) fn scrolled(lines: Vec<Line<'static>>, scroll: u16, buf: &mut Buffer, area: Rect) {
    scrolled_wrapped(lines, scroll, buf, area);
}
