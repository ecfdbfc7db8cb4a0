//! The inspector on two runs (`--compare BASE CANDIDATE`): the pairs as the list, one marker
//! per change kind (`~` changed, `+` added, `-` removed, `=` unchanged), filtered by change and
//! by state transition; the Compare view shows both sides' handoff explanation (state, each
//! flag with the rows that decided it) and compared document side by side, lines that differ
//! marked `≠`. State is plain data; `handle` turns a key into a change of it; `draw` reads it.
//!
//! By job: the state and its key handling (here), the two columns of the selected pair
//! (`columns.rs`), drawing (`draw.rs`).

mod columns;
mod draw;
#[cfg(test)]
mod tests;

use super::keymap::{lookup, Command, Context};
use super::theme::Theme;
use crate::compare::{ChangeKind, Comparison, Pair, Transition};
use crate::json::safe_text;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

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
}

fn short(state: Option<crate::freeze::HandoffState>) -> &'static str {
    state.map_or("-", crate::freeze::HandoffState::short)
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
