//! Loading runs on a background thread so the first frame appears at once. It is the library's
//! corpus check (the same walk, goldens, pairing and verdicts as `check`), streamed to the
//! inspector in batches. Every event carries the load's generation, so a reload never mixes in
//! a stale load's results. The reads `update` asks for are answered here too: details on one
//! thread (only the latest request of a burst is read: a key held down does not queue a read
//! per packet passed), each search and each list build on its own, stopped when a newer one of
//! its kind or Esc supersedes it.

use crate::corpus::{CheckItem, CheckOptions, CheckSink, ControlFlow, CorpusCheck, LoadError};
use crate::tui::runtime::list_build::build_list;
use crate::tui::runtime::reader::Reader;
use crate::tui::state::listed::ListedPacket;
use crate::tui::state::reads::{DetailRequest, LoaderEvent, Read};
use crate::tui::update::{Action, Job};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

const BATCH: usize = 4096;

/// Lists of up to this many packets are built on the calling thread (see `Loader::read`).
const LIST_AT_ONCE: usize = 16_384;

/// Starts and supersedes loads. `current` is shared with the threads so that a superseded
/// load's results are dropped.
#[derive(Clone)]
pub struct Loader {
    sender: Sender<Action>,
    options: CheckOptions,
    current: Arc<AtomicU64>,
    reader: Arc<Reader>,
    details: Sender<DetailRequest>,
    /// The generation of the search allowed to run (0: none).
    search: Arc<AtomicU64>,
    /// The generation of the list build allowed to run (0: none).
    list: Arc<AtomicU64>,
}

impl Loader {
    pub fn new(sender: Sender<Action>, options: CheckOptions) -> Loader {
        let reader = Arc::new(Reader::new(options.clone()));
        let (details, requests) = std::sync::mpsc::channel::<DetailRequest>();
        let (answers, detail_reader) = (sender.clone(), Arc::clone(&reader));
        std::thread::spawn(move || {
            crate::tui::runtime::priority::lower_this_thread();
            while let Ok(mut request) = requests.recv() {
                while let Ok(newer) = requests.try_recv() {
                    request = newer;
                }
                let answer = detail_reader.detail(request);
                if answers.send(Action::Detail(Box::new(answer))).is_err() {
                    return;
                }
            }
        });
        Loader {
            sender,
            options,
            current: Arc::new(AtomicU64::new(0)),
            reader,
            details,
            search: Arc::new(AtomicU64::new(0)),
            list: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Starts a read; its answer arrives as an action.
    pub fn read(&self, read: Read) {
        match read {
            Read::Detail(request) => {
                let _ = self.details.send(request);
            }
            Read::Search(request) => {
                let reader = Arc::clone(&self.reader);
                let generation = request.generation;
                self.spawn_job(&self.search, generation, move |current, send| {
                    reader.search(&request, current, &mut |event| {
                        send(Action::Search(generation, event))
                    });
                });
            }
            // A short list is built at once (under a millisecond or two): its answer is taken
            // before the next frame, so the screen never shows the list before it.
            Read::List(request) if request.size() <= LIST_AT_ONCE => {
                self.list.store(request.generation, Ordering::SeqCst);
                build_list(&request, &|| true, &mut |event| {
                    self.sender
                        .send(Action::List(request.generation, event))
                        .is_ok()
                });
            }
            Read::List(request) => {
                let generation = request.generation;
                self.spawn_job(&self.list, generation, move |current, send| {
                    build_list(&request, current, &mut |event| {
                        send(Action::List(generation, event))
                    });
                });
            }
        }
    }

    /// Runs a job (a search, a list build) on its own thread for as long as `slot` holds its
    /// generation: a newer job of the same kind, or a cancel, stops it at its next report.
    fn spawn_job(
        &self,
        slot: &Arc<AtomicU64>,
        generation: u64,
        job: impl FnOnce(&dyn Fn() -> bool, &mut dyn FnMut(Action) -> bool) + Send + 'static,
    ) {
        slot.store(generation, Ordering::SeqCst);
        let (slot, sender) = (Arc::clone(slot), self.sender.clone());
        std::thread::spawn(move || {
            crate::tui::runtime::priority::lower_this_thread();
            let current = || slot.load(Ordering::SeqCst) == generation;
            job(&current, &mut |action| sender.send(action).is_ok());
        });
    }

    /// Stops the running job of that kind.
    pub fn cancel(&self, job: Job) {
        match job {
            Job::Search => &self.search,
            Job::List => &self.list,
        }
        .store(0, Ordering::SeqCst);
    }

    pub fn generation(&self) -> u64 {
        self.current.load(Ordering::SeqCst)
    }

    /// Loads everything under `roots` from scratch; returns the new generation.
    pub fn load_all(&self, roots: Vec<PathBuf>) -> u64 {
        let generation = self.current.fetch_add(1, Ordering::SeqCst) + 1;
        let this = self.clone();
        std::thread::spawn(move || {
            crate::tui::runtime::priority::lower_this_thread();
            crate::tui::runtime::priority::lower_check_workers();
            load(&roots, &this.options, &mut |event| {
                this.send(generation, event)
            });
        });
        generation
    }

    /// Checks the given files again (changed, created or removed) in the current generation.
    pub fn reload_files(&self, paths: Vec<PathBuf>) {
        let generation = self.generation();
        let this = self.clone();
        std::thread::spawn(move || {
            crate::tui::runtime::priority::lower_this_thread();
            for path in paths {
                let event = check_file(path, &this.options);
                if !this.send(generation, event) {
                    return;
                }
            }
        });
    }

    fn send(&self, generation: u64, event: LoaderEvent) -> bool {
        self.generation() == generation
            && self.sender.send(Action::Loader(generation, event)).is_ok()
    }
}

/// A corpus run's sink that lists each checked packet with the run's checker (handed over
/// before the first packet: each row keeps it) and keeps load errors; `each` is told of every
/// listed packet and answers whether the run goes on.
struct Listing<F> {
    checker: Option<Arc<crate::corpus::PacketChecker>>,
    checks: Vec<ListedPacket>,
    errors: Vec<LoadError>,
    each: F,
}

impl<F: FnMut(&mut Vec<ListedPacket>, &mut Vec<LoadError>) -> bool> CheckSink<CheckItem>
    for Listing<F>
{
    type Error = std::convert::Infallible;

    fn take(&mut self, item: CheckItem) -> Result<ControlFlow<()>, Self::Error> {
        match (item, &self.checker) {
            // The full check (digests, findings with their words) is let go here; the
            // detail checks the selected packet again.
            (CheckItem::Packet(check), Some(checker)) => {
                self.checks.push(ListedPacket::new(&check, checker))
            }
            // Every run shares its checker before its first result.
            (CheckItem::Packet(_), None) => {}
            (CheckItem::LoadError(error), _) => self.errors.push(error),
        }
        Ok(match (self.each)(&mut self.checks, &mut self.errors) {
            true => ControlFlow::Continue(()),
            false => ControlFlow::Break(()),
        })
    }

    fn checker(&mut self, checker: &Arc<crate::corpus::PacketChecker>) {
        self.checker = Some(Arc::clone(checker));
    }
}

impl<F> Listing<F> {
    fn new(each: F) -> Listing<F> {
        Listing {
            checker: None,
            checks: Vec::new(),
            errors: Vec::new(),
            each,
        }
    }
}

/// Checks one file again (changed, created or removed: a file that is gone has no packets).
/// The loader thread and the headless driver share it.
pub fn check_file(path: PathBuf, options: &CheckOptions) -> LoaderEvent {
    let mut listing = Listing::new(|_: &mut Vec<ListedPacket>, _: &mut Vec<LoadError>| true);
    if path.is_file() {
        let _ = CorpusCheck::new(std::slice::from_ref(&path), options).run(&mut listing);
    }
    LoaderEvent::FileReloaded {
        path,
        checks: listing.checks,
        errors: listing.errors,
    }
}

/// Checks every packet under `roots` and hands the results to `sink` in walk order, in
/// batches; stops the run once `sink` returns false. The loader thread and the tests share it.
pub fn load(roots: &[PathBuf], options: &CheckOptions, sink: &mut dyn FnMut(LoaderEvent) -> bool) {
    let mut alive = true;
    let mut count = 0usize;
    let mut listing = Listing::new(
        |checks: &mut Vec<ListedPacket>, errors: &mut Vec<LoadError>| {
            if checks.len() >= BATCH {
                count += checks.len();
                if !errors.is_empty() {
                    alive &= sink(LoaderEvent::Errors(std::mem::take(errors)));
                }
                alive &= sink(LoaderEvent::Packets(std::mem::take(checks)));
                alive &= sink(LoaderEvent::Progress { packets: count });
            }
            alive
        },
    );
    let result = CorpusCheck::new(roots, options).run(&mut listing);
    let Listing {
        checks, mut errors, ..
    } = listing;
    count += checks.len();
    if !alive {
        return;
    }
    // What the workers freed (a big packet's trees) is not left in their arenas while the
    // main thread builds the selected packet's detail.
    crate::tui::runtime::memory::release_freed_memory();
    let pending = match result {
        Ok(run) => pending_beside(&run.items, &mut errors),
        Err(error) => {
            errors.push(LoadError {
                source: crate::corpus::Source::file("."),
                reason: error.into_start(),
            });
            Vec::new()
        }
    };
    if !errors.is_empty() && !sink(LoaderEvent::Errors(errors)) {
        return;
    }
    if !checks.is_empty() && !sink(LoaderEvent::Packets(checks)) {
        return;
    }
    if !pending.is_empty() && !sink(LoaderEvent::Pending(pending)) {
        return;
    }
    sink(LoaderEvent::Progress { packets: count });
    sink(LoaderEvent::Done);
}

/// The pending goldens of each directory a walked file lies in; one that cannot be read is a
/// load error naming it.
fn pending_beside(
    items: &[crate::corpus::WalkItem],
    errors: &mut Vec<LoadError>,
) -> Vec<crate::golden::PendingGoldens> {
    let dirs: std::collections::BTreeSet<PathBuf> = crate::corpus::files_read(items)
        .into_iter()
        .map(|(dir, _)| dir)
        .collect();
    let mut found = Vec::new();
    for dir in dirs {
        match crate::golden::read_pending(&dir) {
            Ok(Some(pending)) => found.push(pending),
            Ok(None) => {}
            Err(error) => errors.push(LoadError {
                source: crate::corpus::Source::file(
                    crate::golden::ManifestFile::Pending.path(&dir),
                ),
                reason: format!("pending goldens not read: {error}"),
            }),
        }
    }
    found
}
