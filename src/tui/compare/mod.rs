//! The inspector on two runs (`--compare BASE CANDIDATE`): the pairs as the list, one marker
//! per change kind (`~` changed, `+` added, `-` removed, `=` unchanged), filtered by change and
//! by state transition; the Compare view shows both sides' handoff explanation (state, each
//! flag with the rows that decided it) and compared document side by side, lines that differ
//! marked `≠`. State is plain data; `handle` turns a key into a change of it; `draw` reads it.
//!
//! It is a screen of its own beside the inspector's `App` (ARCHITECTURE.md says why) that
//! keeps the inspector's rules: its keys are the keymap's, what each does here is one table
//! ([`COMMANDS`]) that key handling, the status bar and the help read; Esc steps back as the
//! inspector's does (a search being typed, the help, then the search, then the filter, then
//! quits);
//! every pane wraps at its width; the loop polls as the inspector's does.
//!
//! By job: the state and its key handling (here), the two columns of the selected pair
//! (`columns.rs`), drawing (`draw.rs`).

mod columns;
mod draw;
#[cfg(test)]
mod tests;

use crate::compare::{ChangeKind, Comparison, Pair, Transition};
use crate::json::safe_text;
use crate::tui::state::keymap::{lookup, Command, Context};
use crate::tui::views::theme::Theme;
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
    /// What the last key did, when it is not on screen otherwise ("filter cleared").
    pub message: Option<String>,
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

/// What each of the inspector's commands does in the Compare view, in the help's order: the
/// one table key handling, the status bar and the help read (keys and status-bar labels are
/// the keymap's). A command not here does nothing in this view.
pub const COMMANDS: [(Command, &str); 12] = [
    (Command::Down, "next pair"),
    (Command::Up, "previous pair"),
    (Command::Top, "first pair"),
    (Command::Bottom, "last pair"),
    (Command::PageDown, "scroll both sides down"),
    (Command::PageUp, "scroll both sides up"),
    (Command::Search, "search the pairs' names and states"),
    (Command::NextMatch, "next match"),
    (Command::PrevMatch, "previous match"),
    (
        Command::Filter,
        "filter: what changed, each change kind, each state transition",
    ),
    (Command::Help, "this help (any key closes it)"),
    (Command::Quit, "quit (Esc first: help, search, filter)"),
];

/// What `command` does here, if it does anything.
pub fn command_help(command: Command) -> Option<&'static str> {
    COMMANDS
        .iter()
        .find(|(known, _)| *known == command)
        .map(|(_, help)| *help)
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
            message: None,
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
        let Some(command) =
            lookup(Context::Global, &key).filter(|command| command_help(*command).is_some())
        else {
            return false;
        };
        self.message = None;
        let last = self.shown.len().saturating_sub(1);
        match command {
            Command::Quit => self.quit_or_back(key),
            Command::Help => self.help = true,
            Command::Search => {
                self.searching = true;
                self.search.clear();
            }
            Command::NextMatch => self.find(true),
            Command::PrevMatch => self.find(false),
            Command::Down => self.select(self.selected.saturating_add(1).min(last)),
            Command::Up => self.select(self.selected.saturating_sub(1)),
            Command::Top => self.select(0),
            Command::Bottom => self.select(last),
            Command::PageDown => self.scroll = self.scroll.saturating_add(10),
            Command::PageUp => self.scroll = self.scroll.saturating_sub(10),
            Command::Filter => {
                self.filter = (self.filter + 1) % self.filters.len().max(1);
                self.refilter();
            }
            _ => return false,
        }
        true
    }

    /// q and Ctrl-C quit; Esc first clears the search, then the filter, then quits (the
    /// inspector's order: the last thing set on top of the list goes first).
    fn quit_or_back(&mut self, key: KeyEvent) {
        if key.code != KeyCode::Esc {
            self.should_quit = true;
        } else if !self.search.is_empty() {
            self.message = Some(format!("search \"{}\" cleared", safe_text(&self.search)));
            self.search.clear();
        } else if self.filter != 0 {
            self.filter = 0;
            self.refilter();
            self.message = Some("filter cleared".to_owned());
        } else {
            self.should_quit = true;
        }
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

/// Runs the Compare inspector in the terminal until the user quits: the inspector's loop
/// (draw when something changed, the poll its only wait, a resize redraws).
pub fn run(comparison: Comparison, color: bool) -> std::io::Result<()> {
    use ratatui::crossterm::event::{self, Event, KeyEventKind};
    let mut app = CompareApp::new(comparison, color);
    let mut guard = crate::tui::runtime::terminal::TerminalGuard::enter()?;
    let mut dirty = true;
    while !app.should_quit {
        if dirty {
            app.prepare();
            guard.terminal.draw(|frame| app.draw(frame))?;
            dirty = false;
        }
        if event::poll(std::time::Duration::from_millis(40))? {
            match event::read()? {
                Event::Key(key) if key.kind == KeyEventKind::Press => {
                    app.handle(key);
                    dirty = true;
                }
                Event::Resize(..) => dirty = true,
                _ => {}
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
