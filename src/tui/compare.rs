//! The inspector on two runs (`--compare BASE CANDIDATE`): the pairs as the list, one marker
//! per change kind (`~` changed, `+` added, `-` removed, `=` unchanged), filtered by change and
//! by state transition; the Compare view shows both sides' handoff explanation (state, each
//! flag with the rows that decided it) and compared document side by side, lines that differ
//! marked `≠`. State is plain data; `handle` turns a key into a change of it; `draw` reads it.

use super::keymap::{binding_label, lookup, Command, Context, KEYMAP};
use super::theme::Theme;
use crate::compare::{state_name, ChangeKind, Comparison, Explained, Pair, Transition};
use crate::json::safe_text;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// Most lines of a document shown per side (the JSON format has them all).
const DOCUMENT_LINES: usize = 2_000;

/// The Compare inspector's state.
pub struct CompareApp {
    pub comparison: Comparison,
    /// Pairs shown (indices into `comparison.pairs`), after the filters.
    pub shown: Vec<usize>,
    pub selected: usize,
    /// The filters `f` cycles through, and the one applied.
    pub filters: Vec<PairFilter>,
    pub filter: usize,
    pub search: String,
    pub searching: bool,
    pub help: bool,
    pub scroll: u16,
    pub should_quit: bool,
    pub theme: Theme,
    /// The selected pair's two columns, built once per selection.
    columns: Option<(usize, Columns)>,
}

/// One choice of the list's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairFilter {
    /// Every pair but the unchanged ones.
    WhatChanged,
    Change(ChangeKind),
    Transition(Transition),
}

impl PairFilter {
    fn choices(transitions: Vec<Transition>) -> Vec<PairFilter> {
        let mut choices = vec![PairFilter::WhatChanged];
        choices.extend(ChangeKind::ALL.into_iter().map(PairFilter::Change));
        choices.extend(transitions.into_iter().map(PairFilter::Transition));
        choices
    }

    pub fn describe(&self) -> String {
        match self {
            PairFilter::WhatChanged => "what changed".to_owned(),
            PairFilter::Change(kind) => kind.key().to_owned(),
            PairFilter::Transition(transition) => {
                crate::report::compare_text::transition_title(transition)
            }
        }
    }
}

struct Columns {
    base: Vec<(bool, String)>,
    candidate: Vec<(bool, String)>,
}

impl CompareApp {
    pub fn new(comparison: Comparison, color: bool) -> CompareApp {
        let mut transitions: Vec<Transition> = comparison
            .by_transition()
            .into_iter()
            .map(|(transition, _)| transition)
            .collect();
        transitions.dedup();
        let mut app = CompareApp {
            comparison,
            shown: Vec::new(),
            selected: 0,
            filters: PairFilter::choices(transitions),
            filter: 0,
            search: String::new(),
            searching: false,
            help: false,
            scroll: 0,
            should_quit: false,
            theme: Theme::new(color),
            columns: None,
        };
        app.refilter();
        app
    }

    fn matches(&self, pair: &Pair) -> bool {
        match self.filters.get(self.filter) {
            Some(PairFilter::Change(kind)) => pair.change == *kind,
            Some(PairFilter::Transition(transition)) => {
                *transition == self.comparison.transition(pair)
            }
            // Unchanged pairs are hidden at first: what changed is the question.
            _ => pair.change != ChangeKind::Unchanged,
        }
    }

    /// Moves to the next (or previous) listed pair whose label holds the search text.
    fn find(&mut self, forward: bool) {
        if self.search.is_empty() || self.shown.is_empty() {
            return;
        }
        let needle = self.search.to_lowercase();
        let count = self.shown.len();
        for step in 1..=count {
            let row = if forward {
                (self.selected + step) % count
            } else {
                (self.selected + count - step % count) % count
            };
            let pair = self.comparison.pairs[self.shown[row]];
            if self.label(&pair).to_lowercase().contains(&needle) {
                self.select(row);
                return;
            }
        }
    }

    fn refilter(&mut self) {
        // Most significant first, as `diff` lists them; sequence order within a transition.
        let mut keyed: Vec<(Transition, usize)> = (0..self.comparison.pairs.len())
            .filter(|&index| self.matches(&self.comparison.pairs[index]))
            .map(|index| {
                (
                    self.comparison.transition(&self.comparison.pairs[index]),
                    index,
                )
            })
            .collect();
        keyed.sort_unstable();
        self.shown = keyed.into_iter().map(|(_, index)| index).collect();
        self.selected = self.selected.min(self.shown.len().saturating_sub(1));
        self.scroll = 0;
        self.columns = None;
    }

    /// A pair's list label: marker, source(s), states.
    pub fn label(&self, pair: &Pair) -> String {
        let marker = match pair.change {
            ChangeKind::Changed => '~',
            ChangeKind::Added => '+',
            ChangeKind::Removed => '-',
            ChangeKind::Unchanged => '=',
        };
        let source = |candidate: bool, index: Option<u32>| {
            index.map(|index| {
                let side = if candidate {
                    &self.comparison.candidate
                } else {
                    &self.comparison.base
                };
                let record = &side.records[index as usize];
                let relative = side.relative(record.file).to_string_lossy().into_owned();
                match record.line {
                    crate::compare::WHOLE_FILE => relative,
                    line => format!("{relative}:{line}"),
                }
            })
        };
        let name = source(true, pair.candidate)
            .or_else(|| source(false, pair.base))
            .unwrap_or_default();
        let (old, new) = self.comparison.states(pair);
        let states = if pair.change == ChangeKind::Changed && old != new {
            format!("{} -> {}", short(old), short(new))
        } else {
            short(new.or(old)).to_owned()
        };
        format!("{marker} {}  {states}", safe_text(&name))
    }

    /// Handles a key through the inspector's keymap; `false` when it does nothing here.
    pub fn handle(&mut self, key: KeyEvent) -> bool {
        if self.searching {
            match key.code {
                KeyCode::Esc => {
                    self.searching = false;
                    self.search.clear();
                }
                KeyCode::Enter => self.searching = false,
                KeyCode::Backspace => {
                    self.search.pop();
                }
                KeyCode::Char(c) => {
                    self.search.push(c);
                    // Incremental: the selected pair, else the next one that matches.
                    let label = self
                        .shown
                        .get(self.selected)
                        .map(|&index| self.label(&self.comparison.pairs[index]).to_lowercase());
                    if !label.is_some_and(|label| label.contains(&self.search.to_lowercase())) {
                        self.find(true);
                    }
                }
                _ => return false,
            }
            return true;
        }
        if self.help {
            self.help = false;
            return true;
        }
        let last = self.shown.len().saturating_sub(1);
        match lookup(Context::Global, &key) {
            Some(Command::Quit) => self.should_quit = true,
            Some(Command::Help) => self.help = true,
            Some(Command::Search) => {
                self.searching = true;
                self.search.clear();
            }
            Some(Command::NextMatch) => self.find(true),
            Some(Command::PrevMatch) => self.find(false),
            Some(Command::Down) => self.select(self.selected.saturating_add(1).min(last)),
            Some(Command::Up) => self.select(self.selected.saturating_sub(1)),
            Some(Command::Top) => self.select(0),
            Some(Command::Bottom) => self.select(last),
            Some(Command::PageDown) => self.scroll = self.scroll.saturating_add(10),
            Some(Command::PageUp) => self.scroll = self.scroll.saturating_sub(10),
            Some(Command::Filter) => {
                self.filter = (self.filter + 1) % self.filters.len().max(1);
                self.refilter();
            }
            _ => return false,
        }
        true
    }

    fn select(&mut self, index: usize) {
        if index != self.selected {
            self.selected = index;
            self.scroll = 0;
            self.columns = None;
        }
    }

    fn filter_text(&self) -> String {
        self.filters
            .get(self.filter)
            .map_or_else(|| "what changed".to_owned(), PairFilter::describe)
    }

    /// Builds the selected pair's columns (once per selection).
    pub fn prepare(&mut self) {
        let Some(&index) = self.shown.get(self.selected) else {
            self.columns = None;
            return;
        };
        if matches!(&self.columns, Some((built, _)) if *built == index) {
            return;
        }
        let pair = self.comparison.pairs[index];
        let side = |candidate: bool, at: Option<u32>| match at {
            None => vec![(false, "(no packet on this side)".to_owned())],
            Some(at) => match self.comparison.explain(candidate, at) {
                Ok((source, kind, explained)) => {
                    let state = if candidate {
                        self.comparison.states(&pair).1
                    } else {
                        self.comparison.states(&pair).0
                    };
                    side_lines(&source.to_string(), kind.tag(), state, &explained)
                }
                Err(error) => vec![(false, format!("cannot read again: {}", safe_text(&error)))],
            },
        };
        let (mut base, mut candidate) = (side(false, pair.base), side(true, pair.candidate));
        if pair.change == ChangeKind::Changed {
            // The other paths that changed, before the documents (they may be far down).
            let change = self.comparison.change(&pair);
            for (lines, candidate_side) in [(&mut base, false), (&mut candidate, true)] {
                let at = lines
                    .iter()
                    .position(|(_, text)| text == "Payload")
                    .unwrap_or(lines.len());
                let mut changed = vec![(false, "Other paths changed".to_owned())];
                for field in &change.fields {
                    let value = if candidate_side {
                        field.candidate.as_ref()
                    } else {
                        field.base.as_ref()
                    };
                    changed.push((
                        false,
                        format!(
                            "  {} = {}",
                            safe_text(&field.path),
                            crate::report::compare_text::shown_value(value)
                        ),
                    ));
                }
                if change.more_fields > 0 {
                    changed.push((false, format!("  ... and {} more", change.more_fields)));
                }
                if change.fields.is_empty() {
                    changed.push((false, "  (none)".to_owned()));
                }
                lines.splice(at..at, changed);
            }
        }
        if pair.base.is_some() && pair.candidate.is_some() {
            mark_differences(&mut base, &mut candidate);
        }
        self.columns = Some((index, Columns { base, candidate }));
    }

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

fn short(state: Option<crate::freeze::HandoffState>) -> &'static str {
    state.map_or("-", crate::freeze::HandoffState::short)
}

/// One side's lines: source, kind, state, the handoff flags with their deciding rows, the
/// discovery flags, then the compared document (pretty JSON, terminal-safe).
fn side_lines(
    source: &str,
    kind: &str,
    state: Option<crate::freeze::HandoffState>,
    explained: &Explained,
) -> Vec<(bool, String)> {
    let mut lines = vec![
        safe_text(source).into_owned(),
        format!("kind: {kind}"),
        format!("state: {}", state_name(state)),
        "Handoff".to_owned(),
    ];
    let payload = crate::compare::payload_of(&explained.document);
    for field in [
        "visible",
        "source_kind",
        "task_ref_visible",
        "message_ref_visible",
    ] {
        let value = payload
            .get("handoff")
            .and_then(|handoff| handoff.get(field));
        let rows = explained
            .deciders
            .iter()
            .find(|decision| decision.field == field)
            .map(|decision| decision.decided_by.join(" "))
            .unwrap_or_default();
        lines.push(format!(
            "  {field} = {}  [{}]",
            crate::report::compare_text::shown_value(value),
            if rows.is_empty() { "-" } else { &rows }
        ));
    }
    if let Some(discovery) = payload
        .get("discovery")
        .and_then(serde_json::Value::as_object)
    {
        lines.push("Discovery".to_owned());
        for (name, value) in discovery {
            lines.push(format!(
                "  {} = {}",
                safe_text(name),
                crate::report::compare_text::shown_value(Some(value))
            ));
        }
    }
    lines.push("Payload".to_owned());
    let pretty = serde_json::to_string_pretty(&explained.document).unwrap_or_default();
    for (shown, line) in pretty.lines().enumerate() {
        if shown == DOCUMENT_LINES {
            lines.push("… (longer: see diff --format json)".to_owned());
            break;
        }
        lines.push(format!("  {}", safe_text(line)));
    }
    // The first line (source) always differs between runs; it is not a change.
    lines.into_iter().map(|line| (false, line)).collect()
}

/// Marks the lines of each side that the other side does not have (a line diff, Myers).
fn mark_differences(base: &mut [(bool, String)], candidate: &mut [(bool, String)]) {
    let old: Vec<&str> = base.iter().map(|(_, text)| text.as_str()).collect();
    let new: Vec<&str> = candidate.iter().map(|(_, text)| text.as_str()).collect();
    let ops = similar::capture_diff_slices(similar::Algorithm::Myers, &old, &new);
    let mut old_marks = vec![false; old.len()];
    let mut new_marks = vec![false; new.len()];
    for op in ops {
        let (tag, old_range, new_range) = op.as_tag_tuple();
        if tag != similar::DiffTag::Equal {
            old_range.for_each(|index| old_marks[index] = true);
            new_range.for_each(|index| new_marks[index] = true);
        }
    }
    // Line 0 is the source: two runs always name different files or bundles.
    for (index, (mark, _)) in base.iter_mut().enumerate() {
        *mark = index > 0 && old_marks[index];
    }
    for (index, (mark, _)) in candidate.iter_mut().enumerate() {
        *mark = index > 0 && new_marks[index];
    }
}

/// Runs the Compare inspector in the terminal until the user quits.
pub fn run(comparison: Comparison, color: bool) -> std::io::Result<()> {
    use ratatui::crossterm::event::{self, Event, KeyEventKind};
    let mut app = CompareApp::new(comparison, color);
    let mut guard = super::terminal::TerminalGuard::enter()?;
    while !app.should_quit {
        app.prepare();
        guard.terminal.draw(|frame| app.draw(frame))?;
        if let Event::Key(key) = event::read()? {
            if key.kind == KeyEventKind::Press {
                app.handle(key);
            }
        }
    }
    Ok(())
}

/// Draws the Compare inspector after `keys` into a buffer of `size` (tests, screenshots).
pub fn render_to_buffer(
    comparison: Comparison,
    keys: &[KeyEvent],
    size: (u16, u16),
) -> ratatui::buffer::Buffer {
    let mut app = CompareApp::new(comparison, true);
    for key in keys {
        app.handle(*key);
    }
    app.prepare();
    let backend = ratatui::backend::TestBackend::new(size.0, size.1);
    let mut terminal = match ratatui::Terminal::new(backend) {
        Ok(terminal) => terminal,
        Err(never) => match never {},
    };
    let _ = terminal.draw(|frame| app.draw(frame));
    terminal.backend().buffer().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::{compare, CompareOptions};
    use ratatui::crossterm::event::KeyModifiers;
    use std::path::Path;

    fn app() -> CompareApp {
        let options = CompareOptions::new(
            crate::a2a::Mode::Strict,
            Default::default(),
            Default::default(),
        );
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/demo-compare");
        let comparison = compare(&root.join("run1"), &root.join("run2"), &options).unwrap();
        CompareApp::new(comparison, false)
    }

    fn press(app: &mut CompareApp, keys: &str) {
        for c in keys.chars() {
            app.handle(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
    }

    fn labels(app: &CompareApp) -> Vec<String> {
        app.shown
            .iter()
            .map(|&index| app.label(&app.comparison.pairs[index]))
            .collect()
    }

    #[test]
    fn the_list_holds_what_changed_most_significant_first_with_a_marker_per_kind() {
        let app = app();
        assert_eq!(
            labels(&app),
            vec![
                "~ happy_task_requested.json  task+msg -> defaults",
                "~ positive_task_ref_only.json  task only",
                "+ n7_task_updated_delegation.json  defaults",
                "- happy_artifact_shared.json  defaults",
            ]
        );
    }

    #[test]
    fn the_filter_cycles_change_kinds_then_transitions() {
        let mut app = app();
        let mut seen = Vec::new();
        for _ in 0..app.filters.len() {
            press(&mut app, "f");
            seen.push((app.filter_text(), app.shown.len()));
        }
        assert_eq!(seen[0], ("changed".to_owned(), 2));
        assert_eq!(seen[3], ("unchanged".to_owned(), 1));
        assert!(seen.contains(&(
            "typed positive: task + message refs -> defaults (not visible)".to_owned(),
            1
        )));
        // Round trip to the default.
        assert_eq!(seen.last().unwrap(), &("what changed".to_owned(), 4));
    }

    #[test]
    fn search_moves_to_matches_and_help_comes_from_the_keymap() {
        let mut app = app();
        press(&mut app, "/n7");
        app.handle(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        assert_eq!(app.selected, 2);
        press(&mut app, "n");
        assert_eq!(app.selected, 2, "the only match stays selected");
        press(&mut app, "j");
        assert_eq!(app.selected, 3);
        press(&mut app, "?");
        assert!(app.help);
        let buffer = {
            let backend = ratatui::backend::TestBackend::new(120, 30);
            let mut terminal = ratatui::Terminal::new(backend).unwrap();
            app.prepare();
            terminal.draw(|frame| app.draw(frame)).unwrap();
            terminal.backend().buffer().clone()
        };
        let text: String = buffer.content().iter().map(|cell| cell.symbol()).collect();
        assert!(
            text.contains("filter: what changed, each change kind"),
            "{text}"
        );
        assert!(text.contains("j/↓"), "{text}");
        press(&mut app, "x");
        assert!(!app.help);
        press(&mut app, "q");
        assert!(app.should_quit);
    }

    #[test]
    fn a_changed_pair_shows_both_sides_with_differing_lines_marked() {
        let mut app = app();
        app.prepare();
        let Some((_, columns)) = &app.columns else {
            panic!("no columns")
        };
        let marked = |lines: &[(bool, String)]| {
            lines
                .iter()
                .filter(|(differs, _)| *differs)
                .map(|(_, text)| text.clone())
                .collect::<Vec<_>>()
        };
        let base = marked(&columns.base);
        assert!(
            base.contains(&"  visible = true  [P]".to_owned()),
            "{base:?}"
        );
        assert!(
            base.contains(&"  $.task.kind = \"delegation\"".to_owned()),
            "{base:?}"
        );
        let candidate = marked(&columns.candidate);
        assert!(
            candidate.contains(&"  visible = false  [N5 X5 N6]".to_owned()),
            "{candidate:?}"
        );
        // Discovery did not change: not marked.
        assert!(!base.iter().any(|line| line.contains("agent_card_visible")));
    }
}
