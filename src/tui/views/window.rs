//! Long detail content drawn by its visible window. The detail scroll stops at
//! [`MAX_SCROLL`] rows and every line takes at least one row, so no line past the first
//! [`MAX_LINES`] can ever be on screen: builders stop there (a whole big document would be
//! millions of lines, gigabytes of spans), and a frame wraps and draws only the lines its rows
//! need. The lines of a view state are built once (`view_state::cached`) and kept until that state
//! changes, so scrolling a big packet does not rebuild them.

use crate::tui::state::app::App;
use crate::tui::views::hanging;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use std::cell::RefCell;
use std::rc::Rc;

/// How far the detail scrolls at most, in wrapped rows.
pub const MAX_SCROLL: usize = (u16::MAX / 2) as usize;

/// The lines a detail shows at most: enough to fill a pane of up to 1,024 rows at the
/// deepest scroll. Anything after them cannot be drawn.
pub const MAX_LINES: usize = MAX_SCROLL + 1024;

/// A detail's lines (trailing spaces trimmed, at most [`MAX_LINES`]), with where each ends in
/// wrapped rows at the last width drawn.
#[derive(Debug, Default)]
pub struct WindowLines {
    lines: Vec<Line<'static>>,
    row_ends: RefCell<Option<(u16, Vec<usize>)>>,
}

impl WindowLines {
    pub fn new(lines: impl IntoIterator<Item = Line<'static>>) -> WindowLines {
        WindowLines {
            lines: lines
                .into_iter()
                .take(MAX_LINES)
                .map(trim_line_end)
                .collect(),
            row_ends: RefCell::new(None),
        }
    }

    /// The row after each line's last, at `width` (computed once per width).
    fn row_ends(&self, width: u16) -> std::cell::Ref<'_, [usize]> {
        let stale = !matches!(&*self.row_ends.borrow(), Some((at, _)) if *at == width);
        if stale {
            let mut end = 0;
            let ends = self
                .lines
                .iter()
                .map(|line| {
                    end += hanging::row_count(line, width);
                    end
                })
                .collect();
            *self.row_ends.borrow_mut() = Some((width, ends));
        }
        std::cell::Ref::map(self.row_ends.borrow(), |cached| match cached {
            Some((_, ends)) => ends.as_slice(),
            // Filled just above; were it not, no rows would be drawn rather than a panic.
            None => &[],
        })
    }

    /// Draws the lines by the wrap rule at the detail scroll and reports how far they can
    /// scroll in `state`, exactly as a paragraph of all of them would (see `scrolled_detail`).
    pub fn draw(&self, app: &App, scroll_max: &mut Option<u16>, buf: &mut Buffer, area: Rect) {
        let ends = self.row_ends(area.width);
        let total = ends.last().copied().unwrap_or(0);
        let max = total
            .saturating_sub(usize::from(area.height))
            .min(MAX_SCROLL) as u16;
        let reported = scroll_max.map_or(max, |other| other.max(max));
        *scroll_max = Some(reported);
        let scroll = usize::from(app.tabs.scroll.min(max));
        // The first line with a row at or after the scroll, through the one that fills the
        // pane: wrapping is per line, so these alone wrap to the same rows.
        let first = ends.partition_point(|end| *end <= scroll);
        let skipped = first.checked_sub(1).map_or(0, |before| ends[before]);
        let bottom = scroll + usize::from(area.height);
        let last = ends[first..]
            .iter()
            .position(|end| *end >= bottom)
            .map_or(self.lines.len(), |at| first + at + 1);
        let rows = hanging::window(
            &self.lines[first.min(last)..last],
            area.width,
            scroll - skipped,
            usize::from(area.height),
        );
        Paragraph::new(rows).render(area, buf);
    }
}

/// What `view_state::cached` keeps per packet: a key per view state and its lines.
pub type DrawnCache = Vec<(String, Rc<WindowLines>)>;

/// Drops a line's trailing spaces (column padding), which would otherwise wrap into blank
/// rows on a narrow pane.
pub fn trim_line_end(mut line: Line<'static>) -> Line<'static> {
    while let Some(last) = line.spans.last_mut() {
        let trimmed = last.content.trim_end().len();
        if trimmed == 0 {
            line.spans.pop();
            continue;
        }
        if trimmed < last.content.len() {
            last.content = last.content[..trimmed].to_owned().into();
        }
        break;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::views::view_state::ViewState;
    use ratatui::text::Span;

    /// The oracle: every line wrapped, all of them drawn as one paragraph at the scroll.
    fn whole(lines: &[Line<'static>], scroll: u16, area: Rect) -> (ratatui::buffer::Buffer, u16) {
        let lines: Vec<Line<'static>> = lines.iter().cloned().map(trim_line_end).collect();
        let rows = hanging::wrapped(&lines, area.width);
        let max = rows
            .len()
            .saturating_sub(usize::from(area.height))
            .min(MAX_SCROLL) as u16;
        let paragraph = Paragraph::new(rows);
        // Through a terminal as the window is (its flush treats wide characters its own way).
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(area.width, area.height))
                .unwrap();
        terminal
            .draw(|frame| frame.render_widget(paragraph.scroll((scroll.min(max), 0)), area))
            .unwrap();
        (terminal.backend().buffer().clone(), max)
    }

    #[test]
    fn a_window_draws_what_the_whole_paragraph_draws() {
        let words = [
            "a",
            "bb",
            "a long-ish word",
            "漢字",
            "",
            "x y z",
            "0123456789012",
        ];
        let lines: Vec<Line<'static>> = (0..120)
            .map(|i| {
                let text = (0..i % 9)
                    .map(|j| words[(i + j) % words.len()])
                    .collect::<Vec<_>>();
                Line::from(vec![Span::raw(format!("{i} ")), Span::raw(text.join(" "))])
            })
            .collect();
        let app = App::new(Vec::new(), Default::default(), false);
        let window = WindowLines::new(lines.clone());
        for (width, height) in [(7u16, 3u16), (13, 10), (40, 25), (200, 200)] {
            let area = Rect::new(0, 0, width, height);
            for scroll in (0..400).step_by(13).chain([u16::MAX]) {
                let (expected, max) = whole(&lines, scroll, area);
                let mut app_scrolled = App::new(Vec::new(), Default::default(), false);
                app_scrolled.tabs.scroll = scroll;
                let mut state = ViewState::default();
                let mut terminal =
                    ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height))
                        .unwrap();
                terminal
                    .draw(|frame| {
                        window.draw(
                            &app_scrolled,
                            &mut state.scroll_max,
                            frame.buffer_mut(),
                            area,
                        )
                    })
                    .unwrap();
                assert_eq!(
                    terminal.backend().buffer(),
                    &expected,
                    "{width}x{height} at {scroll}"
                );
                assert_eq!(state.scroll_max, Some(max));
            }
        }
        drop(app);
    }

    #[test]
    fn lines_past_the_last_drawable_are_dropped() {
        let lines = WindowLines::new((0..MAX_LINES + 10).map(|i| Line::from(i.to_string())));
        assert_eq!(lines.lines.len(), MAX_LINES);
        assert_eq!(*lines.row_ends(80).last().unwrap(), MAX_LINES);
    }
}
