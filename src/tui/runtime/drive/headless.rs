//! The inspector on one thread, for tests, benchmarks and the fuzz target: an `App` whose reads
//! a `Reader` answers at once (the runtime answers them on other threads).

use crate::corpus::CheckOptions;
use crate::tui::runtime::list_build::build_list;
use crate::tui::runtime::loader::load;
use crate::tui::runtime::reader::Reader;
use crate::tui::state::app::App;
use crate::tui::state::list_rows::ListEvent;
use crate::tui::state::reads::Read;
use crate::tui::update::rows::apply_list;
use crate::tui::update::{update, Action, Effect};
use crate::tui::views::ViewState;
use std::path::PathBuf;

/// Answers every read among `effects` at once (a search or list build runs to its end),
/// feeding the answers
/// back through `update`; returns the other effects, in order.
pub fn answer_reads(app: &mut App, reader: &Reader, effects: Vec<Effect>) -> Vec<Effect> {
    let mut others = Vec::new();
    for effect in effects {
        let more = match effect {
            Effect::Read(Read::Detail(request)) => {
                update(app, Action::Detail(Box::new(reader.detail(request))))
            }
            Effect::Read(Read::Search(request)) => {
                let mut more = Vec::new();
                let mut reports = Vec::new();
                reader.search(&request, &|| true, &mut |event| {
                    reports.push(event);
                    true
                });
                for event in reports {
                    more.extend(update(app, Action::Search(request.generation, event)));
                }
                more
            }
            Effect::Read(Read::List(request)) => {
                let mut more = Vec::new();
                let mut reports = Vec::new();
                build_list(&request, &|| true, &mut |event| {
                    reports.push(event);
                    true
                });
                for event in reports {
                    more.extend(update(app, Action::List(request.generation, event)));
                }
                more
            }
            other => {
                others.push(other);
                continue;
            }
        };
        others.extend(answer_reads(app, reader, more));
    }
    others
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
        crate::tui::views::view(&self.app, &mut self.view, frame);
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
