//! Drawing the Compare inspector: the title, the list of pairs, both sides, the status line
//! and the help popup.

use super::CompareApp;
use crate::json::safe_text;
use crate::tui::keymap::{binding_label, Command, Context, KEYMAP};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

impl CompareApp {
    /// Draws the list and the Compare view.
    pub fn draw(&self, frame: &mut Frame) {
        let theme = self.theme;
        let [title, body, status] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .areas(frame.area());
        let summary = &self.comparison.summary;
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled(" Compare ", theme.title()),
                Span::raw(format!(
                    "{} -> {}   +{} -{} ~{} ({} state) ={}",
                    safe_text(&self.comparison.base.path.to_string_lossy()),
                    safe_text(&self.comparison.candidate.path.to_string_lossy()),
                    summary.added,
                    summary.removed,
                    summary.changed,
                    summary.state_changes,
                    summary.unchanged
                )),
            ])),
            title,
        );
        let [list, view] =
            Layout::horizontal([Constraint::Percentage(34), Constraint::Percentage(66)])
                .areas(body);
        self.draw_list(frame, list);
        self.draw_view(frame, view);
        let status_text = if self.searching {
            format!("/{}", safe_text(&self.search))
        } else {
            format!(
                "filter: {}  search: {}   j/k move  f filter  / search  n/N match  PgUp/PgDn scroll  ? help  q quit",
                self.filter_text(),
                if self.search.is_empty() { "-" } else { &self.search }
            )
        };
        frame.render_widget(
            Paragraph::new(Span::styled(
                safe_text(&status_text).into_owned(),
                theme.dim(),
            )),
            status,
        );
        if self.help {
            self.draw_help(frame, body);
        }
    }

    fn draw_list(&self, frame: &mut Frame, area: Rect) {
        let height = area.height.saturating_sub(2) as usize;
        let first = self.selected.saturating_sub(height.saturating_sub(1));
        let lines: Vec<Line> = self
            .shown
            .iter()
            .enumerate()
            .skip(first)
            .take(height)
            .map(|(row, &index)| {
                let text = self.label(&self.comparison.pairs[index]);
                if row == self.selected {
                    Line::styled(text, self.theme.selected())
                } else {
                    Line::raw(text)
                }
            })
            .collect();
        let title = format!(
            " Pairs {}/{} ",
            self.shown.len(),
            self.comparison.pairs.len()
        );
        let lines = if lines.is_empty() {
            vec![Line::styled("nothing matches the filter", self.theme.dim())]
        } else {
            lines
        };
        frame.render_widget(
            Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(title)),
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
            frame.render_widget(
                Paragraph::new(lines)
                    .scroll((self.scroll, 0))
                    .block(Block::default().borders(Borders::ALL).title(title)),
                area,
            );
        }
    }

    fn draw_help(&self, frame: &mut Frame, area: Rect) {
        let mut lines: Vec<String> = vec![
            "Compare: two runs paired at the handoff seam".to_owned(),
            String::new(),
            "~ changed   + added   - removed   = unchanged".to_owned(),
            "≠ a line that differs from the other side".to_owned(),
            String::new(),
        ];
        for binding in KEYMAP
            .iter()
            .filter(|binding| binding.context == Context::Global)
        {
            let help = match binding.command {
                Command::Filter => "filter: what changed, each change kind, each state transition",
                Command::PageDown | Command::PageUp => "scroll both sides",
                Command::Down | Command::Up => "next / previous pair",
                Command::Search
                | Command::NextMatch
                | Command::PrevMatch
                | Command::Top
                | Command::Bottom
                | Command::Help
                | Command::Quit => binding.help,
                _ => continue,
            };
            lines.push(format!("{:<12} {help}", binding_label(binding)));
        }
        lines.push(String::new());
        lines.push(
            "A state is visibility evidence only: what the adapter's output shows.".to_owned(),
        );
        let width = 78.min(area.width);
        let height = (lines.len() as u16 + 2).min(area.height);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        frame.render_widget(ratatui::widgets::Clear, popup);
        frame.render_widget(
            Paragraph::new(lines.into_iter().map(Line::raw).collect::<Vec<_>>())
                .block(Block::default().borders(Borders::ALL).title(" Help ")),
            popup,
        );
    }
}
