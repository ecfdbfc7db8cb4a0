//! The interactive event loop: keys, mouse, resizes and the watcher's reports become actions,
//! `update` turns them into effects that `perform` carries out (through `Live`), and a frame is drawn when
//! something changed. The only code that touches the terminal, the clipboard, threads and the
//! watcher; reads go to the loader's threads.

use crate::corpus::PacketCheck;
use crate::tui::runtime::accept::accept_golden;
use crate::tui::runtime::editor;
use crate::tui::runtime::frame::draw_frame;
use crate::tui::runtime::loader::Loader;
use crate::tui::runtime::perform::{update_and_perform, Executor};
use crate::tui::runtime::priority::lower_this_thread;
use crate::tui::runtime::terminal::{copy_osc52, TerminalGuard};
use crate::tui::state::app::{App, Discarded};
use crate::tui::state::reads::Read;
use crate::tui::state::selection::EditorTarget;
use crate::tui::update::{Action, Job};
use notify::event::ModifyKind;
use notify::{EventKind, Watcher};
use ratatui::crossterm::event::{self, Event};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::corpus::{CheckOptions, FileFormat};

/// Runs the inspector on `roots` until the user quits.
pub fn run(roots: Vec<PathBuf>, options: CheckOptions, color: bool) -> std::io::Result<()> {
    let (sender, receiver) = mpsc::channel::<Action>();
    let loader = Loader::new(sender.clone(), options.clone());
    let mut app = App::new(roots.clone(), options, color);
    app.load_generation = loader.load_all(roots.clone());

    // File changes arrive on their own channel and are debounced below. Only content and
    // directory changes count: reading a file (as the loader does) must not look like one.
    let (change_sender, change_receiver) = mpsc::channel::<PathBuf>();
    let spelled = RootSpelling::new(&roots);
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
        let Ok(event) = result else { return };
        if !matches!(
            event.kind,
            EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
        ) {
            return;
        }
        if matches!(event.kind, EventKind::Modify(ModifyKind::Metadata(_))) {
            return;
        }
        for path in event.paths {
            if FileFormat::of(&path).is_some() {
                let _ = change_sender.send(spelled.as_user_wrote(&path));
            }
        }
    })
    .ok();
    if let Some(watcher) = watcher.as_mut() {
        for root in &roots {
            let _ = watcher.watch(root, notify::RecursiveMode::Recursive);
        }
    }

    let mut view_state = crate::tui::views::ViewState::default();
    let mut guard = TerminalGuard::enter()?;
    let mut changed: BTreeSet<PathBuf> = BTreeSet::new();
    let mut last_change = Instant::now();
    let mut dirty = true;
    while !app.should_quit {
        if dirty {
            draw_frame(&mut app, &mut view_state, &mut guard.terminal)?;
            dirty = false;
        }
        let mut actions = Vec::new();
        // While a job runs, its answers are taken sooner (the poll is the loop's only wait).
        let wait = if app.search.running.is_some() || app.list.building.is_some() {
            Duration::from_millis(5)
        } else {
            Duration::from_millis(40)
        };
        if event::poll(wait)? {
            match event::read()? {
                Event::Key(key) => actions.push(Action::Key(key)),
                Event::Mouse(mouse) => actions.push(Action::Mouse(mouse)),
                Event::Resize(width, height) => actions.push(Action::Resize(width, height)),
                _ => {}
            }
        }
        for path in change_receiver.try_iter() {
            changed.insert(path);
            last_change = Instant::now();
        }
        if !changed.is_empty() && last_change.elapsed() > Duration::from_millis(250) {
            actions.push(Action::FilesChanged(
                std::mem::take(&mut changed).into_iter().collect(),
            ));
        }
        for action in actions {
            dirty = true;
            let mut live = Live {
                loader: &loader,
                guard: Some(&mut guard),
            };
            update_and_perform(&mut app, action, &mut live);
        }
        dirty |= take_answers(&mut app, &loader, &receiver);
    }
    drop(guard);
    Ok(())
}

/// How long the loop takes answers (loaded packets, search and list reports) before it draws
/// and looks at the keys again: a reload's batches arrive faster than they are taken.
const ANSWERS_PER_FRAME: Duration = Duration::from_millis(6);

/// Takes what the loader's threads sent, for up to `ANSWERS_PER_FRAME`; whether anything
/// came. The benchmark's loop calls it as the runtime does.
pub fn take_answers(app: &mut App, loader: &Loader, receiver: &mpsc::Receiver<Action>) -> bool {
    let started = Instant::now();
    let mut any = false;
    while started.elapsed() < ANSWERS_PER_FRAME {
        let Ok(action) = receiver.try_recv() else {
            break;
        };
        any = true;
        let mut live = Live {
            loader,
            guard: None,
        };
        update_and_perform(app, action, &mut live);
    }
    any
}

/// The live runtime's executor: reads, reloads and searches go to the loader's threads (their
/// answers come back as actions through its channel), the editor gets the terminal, a copy
/// goes out as OSC 52. The benchmark drives it too (without a terminal).
pub struct Live<'a> {
    pub loader: &'a Loader,
    /// The terminal, to hand to the editor; `None` where there is none.
    pub guard: Option<&'a mut TerminalGuard>,
}

impl Executor for Live<'_> {
    fn read(&mut self, read: Read) {
        self.loader.read(read);
    }

    fn cancel(&mut self, job: Job) {
        self.loader.cancel(job);
    }

    fn load_all(&mut self, roots: Vec<PathBuf>) -> u64 {
        self.loader.load_all(roots)
    }

    fn reload_files(&mut self, paths: Vec<PathBuf>) {
        self.loader.reload_files(paths);
    }

    fn copy(&mut self, text: String) {
        copy_osc52(&text);
    }

    fn open_editor(&mut self, target: EditorTarget) -> Option<String> {
        Some(match self.guard.as_deref_mut() {
            Some(guard) => editor::open(&target, guard),
            None => format!(
                "{} not opened: no terminal to hand the editor",
                target.shown()
            ),
        })
    }

    fn accept_golden(
        &mut self,
        app: &App,
        check: Box<PacketCheck>,
    ) -> Option<(String, Vec<PathBuf>)> {
        Some(accept_golden(app, &check))
    }

    fn discard(&mut self, discarded: Vec<Discarded>) {
        // Freeing a million packets takes a tenth of a second: not on the UI thread.
        std::thread::spawn(move || {
            lower_this_thread();
            drop(discarded);
        });
    }
}

/// The watcher reports absolute paths; packets are named as the user spelled their roots
/// (often relative). This maps one back to the other so a reloaded file replaces its packets
/// instead of appearing twice.
struct RootSpelling {
    roots: Vec<(PathBuf, PathBuf)>,
}

impl RootSpelling {
    fn new(roots: &[PathBuf]) -> RootSpelling {
        let roots = roots
            .iter()
            .filter_map(|root| {
                std::fs::canonicalize(root)
                    .ok()
                    .map(|canonical| (canonical, root.clone()))
            })
            .collect();
        RootSpelling { roots }
    }

    fn as_user_wrote(&self, path: &std::path::Path) -> PathBuf {
        let canonical_parent = path
            .parent()
            .and_then(|parent| std::fs::canonicalize(parent).ok());
        let absolute = match (canonical_parent, path.file_name()) {
            (Some(parent), Some(name)) => parent.join(name),
            _ => path.to_path_buf(),
        };
        for (canonical, spelled) in &self.roots {
            if absolute == *canonical {
                return spelled.clone();
            }
            if let Ok(relative) = absolute.strip_prefix(canonical) {
                return spelled.join(relative);
            }
        }
        path.to_path_buf()
    }
}
