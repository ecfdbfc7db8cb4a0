//! Drawing the Compare inspector: the title, the list of pairs, both sides, the status line
//! and the help popup. Every pane wraps at its width, as the inspector's tabs do: what a
//! wide terminal shows, a narrow one shows on more lines.

use crate::json::safe_text;
use crate::tui::compare::{CompareApp, COMMANDS};
use crate::tui::state::keymap::{binding_label, Binding, Command, Context, KEYMAP};
use crate::tui::views::hanging;
use crate::tui::views::hints::key_hints;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// `text` in pieces of at most `width` characters (at least one piece).
fn pieces(text: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(width.max(1))
        .map(|chunk| chunk.iter().collect())
        .collect()
}

/// The Global bindings of `command`, in the keymap's order.
fn bindings(command: Command) -> impl Iterator<Item = &'static Binding> {
    KEYMAP
        .iter()
        .filter(move |binding| binding.context == Context::Global && binding.command == command)
}

impl CompareApp {
    /// Draws the list and the Compare view.
    pub fn draw(&self, frame: &mut Frame) {
        let theme = self.theme;
        let area = frame.area();
        let summary = &self.comparison.summary;
        let mut title_text = format!(
            " Compare {} -> {}   +{} -{} ~{} ({} state) ={}",
            safe_text(&self.comparison.base.path.to_string_lossy()),
            safe_text(&self.comparison.candidate.path.to_string_lossy()),
            summary.added,
            summary.removed,
            summary.changed,
            summary.state_changes,
            summary.unchanged
        );
        // Who signed each run, when the two bundles' attestations differ (trusted keys given).
        if let Some(line) = crate::report::compare_text::signer_line(&self.comparison) {
            title_text.push_str("   ");
            title_text.push_str(&line);
        }
        let title_lines = pieces(&title_text, usize::from(area.width));
        let title_height = (title_lines.len() as u16).min(area.height / 4).max(1);
        let [title, body, status] = Layout::vertical([
            Constraint::Length(title_height),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .areas(area);
        frame.render_widget(
            Paragraph::new(
                title_lines
                    .into_iter()
                    .map(|line| Line::styled(line, theme.title()))
                    .collect::<Vec<_>>(),
            ),
            title,
        );
        let [list, view] =
            Layout::horizontal([Constraint::Percentage(34), Constraint::Percentage(66)])
                .areas(body);
        self.draw_list(frame, list);
        self.draw_view(frame, view);
        self.draw_status(frame, status);
        if self.help {
            self.draw_help(frame, body);
        }
    }

    /// The status line: the search being typed, else what the last key did, else the filter,
    /// the search and the keys, as the inspector's status bar gives them.
    fn draw_status(&self, frame: &mut Frame, area: Rect) {
        let theme = self.theme;
        let line = if self.searching {
            Line::from(vec![
                Span::styled("/", theme.key()),
                Span::raw(safe_text(&self.search).into_owned()),
                Span::styled("▏", theme.accent()),
                Span::styled("  Enter search  Esc cancel", theme.secondary()),
            ])
        } else if let Some(message) = &self.message {
            Line::from(Span::styled(format!(" {message}"), theme.warn()))
        } else {
            let mut spans = Vec::new();
            if self.filter != 0 {
                spans.push(Span::styled(
                    format!(" filter: {} ", safe_text(&self.filter_text())),
                    theme.accent(),
                ));
            }
            if !self.search.is_empty() {
                spans.push(Span::styled(
                    format!(" /{} n/N ", safe_text(&self.search)),
                    theme.accent(),
                ));
            }
            let shown: Vec<&Binding> = COMMANDS
                .iter()
                .flat_map(|(command, _)| bindings(*command))
                .filter(|binding| !binding.short.is_empty())
                .collect();
            key_hints(&mut spans, shown, area.width, &theme);
            Line::from(spans)
        };
        frame.render_widget(Paragraph::new(line), area);
    }

    /// The pairs, each label wrapped at the pane's width; the selected pair is always whole
    /// on screen.
    fn draw_list(&self, frame: &mut Frame, area: Rect) {
        let width = usize::from(area.width.saturating_sub(2));
        let height = usize::from(area.height.saturating_sub(2));
        let rows = |row: usize| -> Vec<String> {
            let index = self.shown[row];
            pieces(&self.label(&self.comparison.pairs[index]), width)
        };
        // The first row shown: as far up as still leaves the selected pair whole.
        let mut first = self.selected.min(self.shown.len());
        let mut used = if first < self.shown.len() {
            rows(first).len()
        } else {
            0
        };
        while first > 0 {
            let above = rows(first - 1).len();
            if used + above > height {
                break;
            }
            used += above;
            first -= 1;
        }
        let mut lines: Vec<Line> = Vec::new();
        for row in first..self.shown.len() {
            if lines.len() >= height {
                break;
            }
            let style = if row == self.selected {
                self.theme.selected()
            } else {
                Style::default()
            };
            lines.extend(
                rows(row)
                    .into_iter()
                    .map(|piece| Line::styled(piece, style)),
            );
        }
        let title = format!(
            " Pairs {}/{} ",
            self.shown.len(),
            self.comparison.pairs.len()
        );
        if lines.is_empty() {
            lines.push(Line::styled(
                "nothing matches the filter",
                self.theme.secondary(),
            ));
        }
        let rows = hanging::wrapped(&lines, area.width.saturating_sub(2));
        frame.render_widget(
            Paragraph::new(rows).block(Block::default().borders(Borders::ALL).title(title)),
            area,
        );
    }

    fn draw_view(&self, frame: &mut Frame, area: Rect) {
        let [left, right] =
            Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
                .areas(area);
        let column = |lines: &[(bool, String)]| -> Vec<Line> {
            lines
                .iter()
                .map(|(differs, text)| {
                    let marker = if *differs { "≠ " } else { "  " };
                    let style = if *differs {
                        self.theme.accent()
                    } else {
                        self.theme.text()
                    };
                    Line::styled(format!("{marker}{text}"), style)
                })
                .collect()
        };
        let (base, candidate) = match &self.columns {
            Some((_, columns)) => (column(&columns.base), column(&columns.candidate)),
            None => (Vec::new(), Vec::new()),
        };
        for (lines, area, title) in [(base, left, " Base "), (candidate, right, " Candidate ")] {
            let rows = hanging::wrapped(&lines, area.width.saturating_sub(2));
            frame.render_widget(
                Paragraph::new(rows)
                    .scroll((self.scroll, 0))
                    .block(Block::default().borders(Borders::ALL).title(title)),
                area,
            );
        }
    }

    /// The help: what each key does here, from [`COMMANDS`] and the keymap's keys.
    fn draw_help(&self, frame: &mut Frame, area: Rect) {
        let width = 78.min(area.width);
        let inner = usize::from(width.saturating_sub(2));
        let mut lines: Vec<String> = Vec::new();
        let mut prose = |text: &str| {
            let wrapped = crate::tui::views::text::wrap_words(text, inner);
            if wrapped.is_empty() {
                lines.push(String::new());
            }
            lines.extend(wrapped);
        };
        prose("Compare: two runs paired at the handoff seam");
        prose("");
        prose("~ changed, + added, - removed, = unchanged");
        prose("≠ a line that differs from the other side");
        prose("");
        const KEYS: usize = 13;
        for (command, help) in COMMANDS {
            let keys: Vec<String> = bindings(command).map(binding_label).collect();
            let wrapped = crate::tui::views::text::wrap_words(help, inner.saturating_sub(KEYS));
            for (at, piece) in wrapped.iter().enumerate() {
                let key = if at == 0 {
                    keys.join(" ")
                } else {
                    String::new()
                };
                lines.push(format!("{key:<12} {piece}"));
            }
        }
        lines.push(String::new());
        let mut prose = |text: &str| lines.extend(crate::tui::views::text::wrap_words(text, inner));
        prose("A state is visibility evidence only: what the adapter's output shows.");
        let height = (lines.len() as u16 + 2).min(area.height);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        frame.render_widget(ratatui::widgets::Clear, popup);
        frame.render_widget(
            Paragraph::new(hanging::wrapped(
                &lines.into_iter().map(Line::raw).collect::<Vec<_>>(),
                width.saturating_sub(2),
            ))
            .block(Block::default().borders(Borders::ALL).title(" Help ")),
            popup,
        );
    }
}
