//! A headless driver for the inspector: applies steps (keys, mouse, resizes, files changing on
//! disk, watcher reports) through the real `update` and `view` on a TestBackend, performs the
//! effects the way the runtime does (synchronously, but with loader results and search reports
//! delivered as separate steps so keys can arrive mid-load and mid-search; a detail read is
//! answered at once), and checks the state's invariants after every step. The property test,
//! `render` and the fuzz target all drive the inspector through it.

mod bytes;
pub mod headless;
mod invariants;
mod step;

pub use crate::tui::runtime::drive::bytes::steps_from_bytes;
pub use crate::tui::runtime::drive::invariants::check_invariants;
pub use crate::tui::runtime::drive::step::Step;
pub use headless::{answer_reads, load_blocking, Headless};

use crate::corpus::{CheckOptions, PacketCheck, Source};
use crate::tui::runtime::accept::accept_golden;
use crate::tui::runtime::drive::invariants::check_scroll;
use crate::tui::runtime::frame::draw_frame;
use crate::tui::runtime::list_build::build_list;
use crate::tui::runtime::loader::{check_file, load};
use crate::tui::runtime::perform::{perform_all, Executor};
use crate::tui::runtime::reader::Reader;
use crate::tui::state::app::{App, Discarded};
use crate::tui::state::reads::Read;
use crate::tui::state::selection::EditorTarget;
use crate::tui::update::{update, Action, Effect, Job};
use crate::tui::views::ViewState;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::collections::{BTreeSet, VecDeque};
use std::path::PathBuf;

pub struct Driver {
    pub app: App,
    /// What the views kept from the last frame.
    pub view: ViewState,
    terminal: Terminal<TestBackend>,
    /// The directory `WriteFile` / `RemoveFile` change, if any.
    scratch: Option<PathBuf>,
    /// What carries out the effects (the runtime's `perform` calls it), and what they did.
    pub effects: DriverEffects,
}

impl Driver {
    /// Loads `roots` completely and draws the first frame at `width` x `height`.
    pub fn new(
        roots: Vec<PathBuf>,
        options: CheckOptions,
        (width, height): (u16, u16),
        color: bool,
    ) -> Result<Driver, String> {
        let reader = Reader::new(options.clone());
        let mut app = App::new(roots, options, color);
        app.size = (width, height);
        load_blocking(&mut app, &reader);
        let terminal = Terminal::new(TestBackend::new(width.max(1), height.max(1)))
            .map_err(|error| error.to_string())?;
        let mut driver = Driver {
            effects: DriverEffects::new(reader, app.load_generation),
            app,
            view: ViewState::default(),
            terminal,
            scratch: None,
        };
        driver.draw()?;
        Ok(driver)
    }

    /// Lets `WriteFile` / `RemoveFile` change files under `dir`, and accepts write goldens there.
    pub fn with_scratch(mut self, dir: PathBuf) -> Driver {
        self.scratch = Some(dir);
        self.effects.writes = GoldenWrites::ToDisk;
        self
    }

    /// Applies one step, performs its effects, draws, and checks the invariants.
    pub fn apply(&mut self, step: &Step) -> Result<(), String> {
        match step {
            Step::Key(key) => {
                let before = Observed::of(&self.app);
                let effects = update(&mut self.app, Action::Key(*key));
                if crate::tui::state::geometry::too_small(self.screen()) && !self.app.should_quit {
                    let after = Observed::of(&self.app);
                    if before != after {
                        return Err(format!(
                            "{key:?} changed the state behind the too-small message: {before:?} -> {after:?}"
                        ));
                    }
                }
                self.perform(effects);
            }
            Step::Mouse(mouse) => {
                let effects = update(&mut self.app, Action::Mouse(*mouse));
                self.perform(effects);
            }
            Step::Resize(width, height) => {
                let (width, height) = ((*width).max(1), (*height).max(1));
                update(&mut self.app, Action::Resize(width, height));
                self.terminal.backend_mut().resize(width, height);
            }
            Step::WriteFile { name, contents } => {
                if let Some(path) = self.scratch_path(name) {
                    std::fs::write(&path, contents)
                        .map_err(|error| format!("{}: {error}", path.display()))?;
                    self.effects.unreported.insert(path);
                }
            }
            Step::RemoveFile { name } => {
                if let Some(path) = self.scratch_path(name) {
                    if path.is_file() {
                        std::fs::remove_file(&path)
                            .map_err(|error| format!("{}: {error}", path.display()))?;
                        self.effects.unreported.insert(path);
                    }
                }
            }
            Step::Notify => {
                if !self.effects.unreported.is_empty() {
                    let paths = std::mem::take(&mut self.effects.unreported)
                        .into_iter()
                        .collect();
                    let effects = update(&mut self.app, Action::FilesChanged(paths));
                    self.perform(effects);
                }
            }
            Step::Deliver(count) => {
                for _ in 0..*count {
                    let Some(action) = self.effects.pending.pop_front() else {
                        break;
                    };
                    let effects = update(&mut self.app, action);
                    self.perform(effects);
                }
            }
        }
        self.draw()?;
        check_invariants(&self.app)
    }

    /// Delivers every pending loader result.
    pub fn settle(&mut self) -> Result<(), String> {
        self.apply(&Step::Deliver(usize::MAX))
    }

    /// The last drawn frame.
    pub fn buffer(&self) -> &ratatui::buffer::Buffer {
        self.terminal.backend().buffer()
    }

    fn screen(&self) -> ratatui::layout::Rect {
        ratatui::layout::Rect::new(0, 0, self.app.size.0, self.app.size.1)
    }

    /// A file name inside the scratch corpus; names with a path separator are refused so a
    /// step can never reach outside it.
    fn scratch_path(&self, name: &str) -> Option<PathBuf> {
        let dir = self.scratch.as_ref()?;
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return None;
        }
        Some(dir.join(name))
    }

    /// Performs effects through the runtime's own `perform`: loader results and search
    /// reports queue up as `pending`, a detail is read at once.
    fn perform(&mut self, effects: Vec<Effect>) {
        perform_all(&mut self.app, effects, &mut self.effects);
    }

    /// Draws a frame as the runtime does (geometry first) and refuses control characters on
    /// screen: packet text must never reach the terminal raw.
    fn draw(&mut self) -> Result<(), String> {
        draw_frame(&mut self.app, &mut self.view, &mut self.terminal)
            .map_err(|error| error.to_string())?;
        check_scroll(&self.app, &self.view)?;
        let buffer = self.terminal.backend().buffer();
        for (index, cell) in buffer.content.iter().enumerate() {
            if cell.symbol().chars().any(|c| c.is_control()) {
                let width = usize::from(buffer.area.width.max(1));
                return Err(format!(
                    "control character {:?} drawn at column {}, row {}",
                    cell.symbol(),
                    index % width,
                    index / width
                ));
            }
        }
        Ok(())
    }
}

/// Whether accepting a golden writes the manifest (only ever in a scratch corpus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoldenWrites {
    ToDisk,
    /// Accepts are recorded in `Driver::accepted` and nothing is written.
    Recorded,
}

/// The headless driver's executor: reads answered on this thread (a detail at once, a
/// search's or list build's reports and a load's results queued as `pending`, delivered by
/// `Step::Deliver`), copies and editor targets recorded, goldens written only in a scratch
/// corpus.
pub struct DriverEffects {
    /// Answers the app's reads, keeping what it read for the current load.
    pub reader: Reader,
    writes: GoldenWrites,
    /// Loader results and job reports not yet delivered, each with its generation.
    pending: VecDeque<Action>,
    /// Details read, to be taken back at once.
    answered: VecDeque<Action>,
    /// Files changed on disk that the watcher has not reported yet.
    unreported: BTreeSet<PathBuf>,
    /// The generation of the last load started (as the loader counts them).
    generation: u64,
    pub accepted: Vec<Source>,
    pub copied: Vec<String>,
    /// What `o` asked to open in the editor, in order (the headless driver runs no editor).
    pub opened: Vec<EditorTarget>,
}

impl DriverEffects {
    fn new(reader: Reader, generation: u64) -> DriverEffects {
        DriverEffects {
            reader,
            writes: GoldenWrites::Recorded,
            pending: VecDeque::new(),
            answered: VecDeque::new(),
            unreported: BTreeSet::new(),
            generation,
            accepted: Vec::new(),
            copied: Vec::new(),
            opened: Vec::new(),
        }
    }
}

impl Executor for DriverEffects {
    fn read(&mut self, read: Read) {
        match read {
            Read::Detail(request) => {
                let answer = self.reader.detail(request);
                self.answered.push_back(Action::Detail(Box::new(answer)));
            }
            Read::Search(request) => {
                let generation = request.generation;
                let pending = &mut self.pending;
                self.reader.search(&request, &|| true, &mut |event| {
                    pending.push_back(Action::Search(generation, event));
                    true
                });
            }
            Read::List(request) => {
                let generation = request.generation;
                let pending = &mut self.pending;
                build_list(&request, &|| true, &mut |event| {
                    pending.push_back(Action::List(generation, event));
                    true
                });
            }
        }
    }

    // Reports of a cancelled job still pending are dropped by `update`, as in the runtime
    // (where some may already be on their way).
    fn cancel(&mut self, _job: Job) {}

    fn load_all(&mut self, roots: Vec<PathBuf>) -> u64 {
        // A new generation: results of the superseded load still pending are delivered later
        // and must be ignored by `update`, as in the runtime.
        self.generation += 1;
        let generation = self.generation;
        let options = self.reader.options().clone();
        let pending = &mut self.pending;
        load(&roots, &options, &mut |event| {
            pending.push_back(Action::Loader(generation, event));
            true
        });
        generation
    }

    fn reload_files(&mut self, paths: Vec<PathBuf>) {
        for path in paths {
            let event = check_file(path, self.reader.options());
            self.pending
                .push_back(Action::Loader(self.generation, event));
        }
    }

    fn copy(&mut self, text: String) {
        self.copied.push(text);
    }

    fn open_editor(&mut self, target: EditorTarget) -> Option<String> {
        self.opened.push(target);
        None
    }

    fn accept_golden(
        &mut self,
        app: &App,
        check: Box<PacketCheck>,
    ) -> Option<(String, Vec<PathBuf>)> {
        let source = check.summary.source.clone();
        self.accepted.push(source.clone());
        if self.writes != GoldenWrites::ToDisk {
            return None;
        }
        let written = accept_golden(app, &check);
        if let Some(manifest) = source.path.parent().map(|dir| dir.join("goldens.json")) {
            self.unreported.insert(manifest);
        }
        Some(written)
    }

    fn discard(&mut self, discarded: Vec<Discarded>) {
        drop(discarded);
    }

    fn answered(&mut self) -> Option<Action> {
        self.answered.pop_front()
    }
}

/// What a key may not change while the terminal is too small.
#[derive(Debug, PartialEq, Eq)]
struct Observed {
    selected: usize,
    tab: crate::tui::state::app::Tab,
    focus: crate::tui::state::app::Focus,
    mode: crate::a2a::Mode,
    filter: crate::tui::state::app::Filter,
    search: Option<String>,
    search_input: Option<String>,
    overlay: Option<String>,
    detail_scroll: u16,
    handoff_cursor: usize,
    digests_cursor: usize,
}

impl Observed {
    fn of(app: &App) -> Observed {
        Observed {
            selected: app.list.selected,
            tab: app.tab,
            focus: app.focus,
            mode: app.mode,
            filter: app.list.filter,
            search: app.search.query.clone(),
            search_input: app.search.input.clone(),
            overlay: app.overlay.as_ref().map(|overlay| format!("{overlay:?}")),
            detail_scroll: app.tabs.scroll,
            handoff_cursor: app.tabs.handoff.cursor,
            digests_cursor: app.tabs.digests.cursor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::state::app::ListRow;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn key(c: char) -> Step {
        Step::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
    }

    fn fixtures_a2a() -> Driver {
        Driver::new(
            vec![PathBuf::from("fixtures/a2a")],
            CheckOptions::default(),
            (120, 40),
            false,
        )
        .unwrap()
    }

    #[test]
    fn reload_with_a_selection_keeps_it() {
        let mut driver = fixtures_a2a();
        driver.apply(&key('j')).unwrap();
        let selected = driver.app.selected_summary().unwrap().source.clone();
        driver.apply(&key('r')).unwrap();
        assert!(driver.app.packets.is_empty(), "reload starts from nothing");
        driver.settle().unwrap();
        assert_eq!(driver.app.selected_summary().unwrap().source, selected);
    }

    #[test]
    fn h_folds_the_group_and_l_unfolds_it() {
        let mut driver = Driver::new(
            vec![PathBuf::from("fixtures/migrate")],
            CheckOptions::default(),
            (120, 40),
            false,
        )
        .unwrap();
        let groups = |driver: &Driver| -> Vec<String> {
            driver
                .app
                .list
                .rows
                .iter()
                .filter_map(|row| match row {
                    ListRow::Group(group) => Some(group.label.clone()),
                    ListRow::Packet(_) => None,
                })
                .collect()
        };
        // One group per directory, in path order.
        assert_eq!(
            groups(&driver),
            [
                "fixtures/migrate/",
                "fixtures/migrate/bad/",
                "fixtures/migrate/not-a2a/"
            ]
        );
        let rows = driver.app.list.rows.len();
        driver.apply(&key('h')).unwrap();
        assert_eq!(driver.app.list.selected, 0, "the folded group is selected");
        assert!(driver.app.list.rows.len() < rows);
        assert!(driver.app.selected_packet().is_none());
        driver.apply(&key('j')).unwrap();
        assert!(
            driver.app.selected_packet().is_some(),
            "j moves into the next group"
        );
        driver.apply(&key('k')).unwrap();
        driver.apply(&key('l')).unwrap();
        assert_eq!(driver.app.list.rows.len(), rows);
        assert_eq!(
            driver.app.list.selected, 1,
            "unfolding selects the group's first packet"
        );
    }

    #[test]
    fn keys_do_nothing_behind_the_too_small_message() {
        let mut driver = fixtures_a2a();
        driver.apply(&Step::Resize(60, 20)).unwrap();
        let selected = driver.app.list.selected;
        driver.apply(&key('j')).unwrap();
        driver.apply(&key('4')).unwrap();
        assert_eq!(driver.app.list.selected, selected);
        assert_eq!(driver.app.tab, crate::tui::state::app::Tab::Handoff);
        driver.apply(&Step::Resize(80, 24)).unwrap();
        driver.apply(&key('j')).unwrap();
        assert_ne!(driver.app.list.selected, selected);
    }

    #[test]
    fn invariants_catch_a_selection_out_of_view() {
        let mut driver = fixtures_a2a();
        driver.apply(&Step::Resize(80, 24)).unwrap();
        driver.apply(&key('G')).unwrap();
        driver.app.list.offset = 0;
        assert!(check_invariants(&driver.app)
            .unwrap_err()
            .contains("outside the list view"));
        driver.app.list.rows.push(ListRow::Packet(usize::MAX));
        assert!(check_invariants(&driver.app).is_err());
    }

    #[test]
    fn bytes_decode_into_every_kind_of_step() {
        let data: Vec<u8> = (0u8..16).flat_map(|kind| [kind, 7, 200]).collect();
        let steps = steps_from_bytes(&data);
        assert_eq!(steps.len(), 16);
        let kinds: std::collections::BTreeSet<&str> = steps
            .iter()
            .map(|step| match step {
                Step::Key(_) => "key",
                Step::Mouse(_) => "mouse",
                Step::Resize(..) => "resize",
                Step::WriteFile { .. } => "write",
                Step::RemoveFile { .. } => "remove",
                Step::Notify => "notify",
                Step::Deliver(_) => "deliver",
            })
            .collect();
        assert_eq!(kinds.len(), 7, "{kinds:?}");
        assert!(
            steps_from_bytes(&[1, 2]).is_empty(),
            "an incomplete step is dropped"
        );
    }

    #[test]
    fn scratch_names_cannot_leave_the_scratch_directory() {
        let driver = fixtures_a2a().with_scratch(PathBuf::from("/nonexistent-scratch"));
        assert!(driver.scratch_path("../x.json").is_none());
        assert!(driver.scratch_path(".hidden").is_none());
        assert!(driver.scratch_path("a.json").is_some());
    }
}
