//! The one interpreter of effects. `update` returns what it wants done as `Effect`s; `perform`
//! hands each to an `Executor`: the live runtime's (the loader's threads, the terminal, the
//! clipboard), the headless driver's (its own thread, answers queued as steps) or `Headless`'s
//! (every read answered at once). What an effect means for the state (the load's generation,
//! the message after an accept or an editor) is decided here, once, for all of them.

use crate::corpus::PacketCheck;
use crate::tui::state::app::{App, Discarded};
use crate::tui::state::reads::Read;
use crate::tui::state::selection::EditorTarget;
use crate::tui::update::{update, Action, Effect, Job};
use std::collections::VecDeque;
use std::path::PathBuf;

/// What carries out effects. Answers to reads come back as actions: later (the runtime's
/// threads, through its channel), or at once through `answered`.
pub trait Executor {
    /// Starts a read (a detail, a search, a list build).
    fn read(&mut self, read: Read);
    /// Stops a running job; its reports still on their way are dropped by `update`.
    fn cancel(&mut self, job: Job);
    /// Starts loading `roots` afresh; returns the new load's generation (reports of older
    /// loads are dropped by `update`).
    fn load_all(&mut self, roots: Vec<PathBuf>) -> u64;
    /// Checks these files again under the current load's generation.
    fn reload_files(&mut self, paths: Vec<PathBuf>);
    /// Puts text on the clipboard.
    fn copy(&mut self, text: String);
    /// Opens the editor at `target`; what to tell the user after, if anything.
    fn open_editor(&mut self, target: EditorTarget) -> Option<String>;
    /// Records `check` as its packet's golden; what to tell the user and which files to check
    /// again, or `None` when it was not written here.
    fn accept_golden(
        &mut self,
        app: &App,
        check: Box<PacketCheck>,
    ) -> Option<(String, Vec<PathBuf>)>;
    /// Frees what the state let go of.
    fn discard(&mut self, discarded: Vec<Discarded>);
    /// An answer to a read made at once, to feed back through `update`.
    fn answered(&mut self) -> Option<Action> {
        None
    }
}

/// Does what `effect` asks, through `executor`.
pub fn perform(app: &mut App, effect: Effect, executor: &mut impl Executor) {
    match effect {
        Effect::Read(read) => executor.read(read),
        Effect::Cancel(job) => executor.cancel(job),
        Effect::ReloadAll => app.load_generation = executor.load_all(app.roots.clone()),
        Effect::ReloadFiles(paths) => executor.reload_files(paths),
        Effect::Copy(text) => executor.copy(text),
        Effect::OpenEditor(target) => {
            if let Some(message) = executor.open_editor(target) {
                app.message = Some(message);
            }
        }
        Effect::AcceptGolden(check) => {
            if let Some((message, files)) = executor.accept_golden(app, check) {
                if !files.is_empty() {
                    executor.reload_files(files);
                }
                app.message = Some(message);
            }
        }
        Effect::Discard(discarded) => executor.discard(discarded),
    }
}

/// Performs `effects` in order, then feeds every answer the executor made at once back
/// through `update`, performing what that asks in turn, until nothing is left.
pub fn perform_all(app: &mut App, effects: Vec<Effect>, executor: &mut impl Executor) {
    let mut effects = VecDeque::from(effects);
    loop {
        while let Some(effect) = effects.pop_front() {
            perform(app, effect, executor);
        }
        let Some(answer) = executor.answered() else {
            return;
        };
        effects.extend(update(app, answer));
    }
}

/// `update`, then `perform_all` of what it asked.
pub fn update_and_perform(app: &mut App, action: Action, executor: &mut impl Executor) {
    let effects = update(app, action);
    perform_all(app, effects, executor);
}
