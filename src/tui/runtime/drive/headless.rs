//! The inspector on one thread, for tests, benchmarks and the fuzz target: an `App` whose reads
//! are answered at once (the runtime answers them on other threads), through the runtime's own
//! `perform`.

use crate::corpus::{CheckOptions, PacketCheck};
use crate::tui::runtime::list_build::build_list;
use crate::tui::runtime::loader::load;
use crate::tui::runtime::perform::{perform_all, Executor};
use crate::tui::runtime::reader::Reader;
use crate::tui::state::app::{App, Discarded};
use crate::tui::state::list_rows::ListEvent;
use crate::tui::state::reads::Read;
use crate::tui::state::selection::EditorTarget;
use crate::tui::update::rows::apply_list;
use crate::tui::update::{update, Action, Effect, Job};
use crate::tui::views::ViewState;
use std::collections::VecDeque;
use std::path::PathBuf;

/// Answers every read at once (a search or list build runs to its end) and hands every other
/// effect back, in order, for the caller to look at or carry out.
struct AtOnce<'a> {
    reader: &'a Reader,
    answered: VecDeque<Action>,
    others: Vec<Effect>,
    /// The app's load generation, kept: a reload is handed back, not started.
    generation: u64,
}

impl Executor for AtOnce<'_> {
    fn read(&mut self, read: Read) {
        match read {
            Read::Detail(request) => {
                let answer = self.reader.detail(request);
                self.answered.push_back(Action::Detail(Box::new(answer)));
            }
            Read::Search(request) => {
                let answered = &mut self.answered;
                self.reader.search(&request, &|| true, &mut |event| {
                    answered.push_back(Action::Search(request.generation, event));
                    true
                });
            }
            Read::List(request) => {
                let answered = &mut self.answered;
                build_list(&request, &|| true, &mut |event| {
                    answered.push_back(Action::List(request.generation, event));
                    true
                });
            }
        }
    }

    fn cancel(&mut self, job: Job) {
        self.others.push(Effect::Cancel(job));
    }

    fn load_all(&mut self, _roots: Vec<PathBuf>) -> u64 {
        self.others.push(Effect::ReloadAll);
        self.generation
    }

    fn reload_files(&mut self, paths: Vec<PathBuf>) {
        self.others.push(Effect::ReloadFiles(paths));
    }

    fn copy(&mut self, text: String) {
        self.others.push(Effect::Copy(text));
    }

    fn open_editor(&mut self, target: EditorTarget) -> Option<String> {
        self.others.push(Effect::OpenEditor(target));
        None
    }

    fn accept_golden(
        &mut self,
        _app: &App,
        check: Box<PacketCheck>,
    ) -> Option<(String, Vec<PathBuf>)> {
        self.others.push(Effect::AcceptGolden(check));
        None
    }

    fn discard(&mut self, discarded: Vec<Discarded>) {
        self.others.push(Effect::Discard(discarded));
    }

    fn answered(&mut self) -> Option<Action> {
        self.answered.pop_front()
    }
}

/// Performs `effects` through the runtime's `perform`, answering every read at once and
/// feeding the answers back through `update`; returns the other effects, in order.
pub fn answer_reads(app: &mut App, reader: &Reader, effects: Vec<Effect>) -> Vec<Effect> {
    let mut at_once = AtOnce {
        reader,
        answered: VecDeque::new(),
        others: Vec::new(),
        generation: app.load_generation,
    };
    perform_all(app, effects, &mut at_once);
    at_once.others
}

/// Loads `app.roots` on this thread through the same path as the loader thread, answering the
/// reads the loaded state asks for.
pub fn load_blocking(app: &mut App, reader: &Reader) {
    let roots = app.roots.clone();
    let options = app.options.clone();
    // Each batch is taken as it comes, as the runtime takes them: holding every batch until
    // the end held a million packets twice over.
    load(&roots, &options, &mut |event| {
        let effects = update(app, Action::Loader(app.load_generation, event));
        answer_reads(app, reader, effects);
        true
    });
}

/// An `App` with its reader and view state, everything on this thread.
pub struct Headless {
    pub app: App,
    pub reader: Reader,
    pub view: ViewState,
}

impl Headless {
    /// The app on `roots`, not loaded yet.
    pub fn new(roots: Vec<PathBuf>, options: CheckOptions, color: bool) -> Headless {
        Headless {
            reader: Reader::new(options.clone()),
            app: App::new(roots, options, color),
            view: ViewState::default(),
        }
    }

    /// Loads the roots (again: packets loaded before are forgotten first).
    pub fn load(&mut self) {
        // With nothing left to select, forgetting asks for no read.
        crate::tui::update::list_job::clear_packets(&mut self.app);
        load_blocking(&mut self.app, &self.reader);
    }

    /// `update`, with the reads it asks for answered; returns the other effects.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let effects = update(&mut self.app, action);
        answer_reads(&mut self.app, &self.reader, effects)
    }

    /// Draws a frame with the view state kept from the last.
    pub fn view(&mut self, frame: &mut ratatui::Frame) {
        let screen = crate::tui::views::Screen { app: &self.app };
        frame.render_stateful_widget(screen, frame.area(), &mut self.view);
    }
}

impl std::ops::Deref for Headless {
    type Target = App;
    fn deref(&self) -> &App {
        &self.app
    }
}

impl std::ops::DerefMut for Headless {
    fn deref_mut(&mut self) -> &mut App {
        &mut self.app
    }
}

/// Builds the list at once on this thread (headless callers that set the state directly).
pub fn rebuild_rows_now(app: &mut App) {
    let request = app.list_request(0, app.list.filter);
    let mut built = None;
    build_list(&request, &|| true, &mut |event| {
        if let ListEvent::Done(list) = event {
            built = Some(list);
        }
        true
    });
    if let Some(built) = built {
        apply_list(app, *built);
    }
}
