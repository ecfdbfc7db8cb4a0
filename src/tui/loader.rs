//! Loading runs on a background thread so the first frame appears at once: it walks the
//! paths, summarizes packets in parallel batches and sends them as they come. Every event
//! carries the load's generation, so a reload never mixes in a stale load's results.

use super::update::Action;
use crate::corpus::{
    read_packets, summarize, walk, EvaluateOptions, FileFormat, LoadError, PacketSummary,
    RawPacket, WalkItem, DEFAULT_MAX_FILE_BYTES,
};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

const BATCH: usize = 4096;

#[derive(Debug)]
pub enum LoaderEvent {
    Packets(Vec<PacketSummary>),
    Errors(Vec<LoadError>),
    Progress {
        files_done: usize,
        files_total: usize,
    },
    Done,
    FileReloaded {
        path: PathBuf,
        summaries: Vec<PacketSummary>,
        errors: Vec<LoadError>,
    },
}

/// Starts and supersedes loads. `current` is shared with the threads so that a superseded
/// load stops early.
#[derive(Clone)]
pub struct Loader {
    sender: Sender<Action>,
    options: EvaluateOptions,
    current: Arc<AtomicU64>,
}

impl Loader {
    pub fn new(sender: Sender<Action>, options: EvaluateOptions) -> Loader {
        Loader {
            sender,
            options,
            current: Arc::new(AtomicU64::new(0)),
        }
    }

    pub fn generation(&self) -> u64 {
        self.current.load(Ordering::SeqCst)
    }

    /// Loads everything under `roots` from scratch; returns the new generation.
    pub fn load_all(&self, roots: Vec<PathBuf>) -> u64 {
        let generation = self.current.fetch_add(1, Ordering::SeqCst) + 1;
        let this = self.clone();
        std::thread::spawn(move || this.run_load(generation, roots));
        generation
    }

    /// Reloads the given files (changed, created or removed) in the current generation.
    pub fn reload_files(&self, paths: Vec<PathBuf>) {
        let generation = self.generation();
        let this = self.clone();
        std::thread::spawn(move || {
            for path in paths {
                let (summaries, errors) = match FileFormat::of(&path) {
                    Some(format) if path.is_file() => {
                        this.summarize_file(&path, format, generation)
                    }
                    _ => (Vec::new(), Vec::new()),
                };
                if !this.send(
                    generation,
                    LoaderEvent::FileReloaded {
                        path,
                        summaries,
                        errors,
                    },
                ) {
                    return;
                }
            }
        });
    }

    fn send(&self, generation: u64, event: LoaderEvent) -> bool {
        self.generation() == generation
            && self.sender.send(Action::Loader(generation, event)).is_ok()
    }

    fn run_load(&self, generation: u64, roots: Vec<PathBuf>) {
        load(&roots, &self.options, &mut |event| {
            self.send(generation, event)
        });
    }

    fn summarize_file(
        &self,
        path: &Path,
        format: FileFormat,
        generation: u64,
    ) -> (Vec<PacketSummary>, Vec<LoadError>) {
        let mut packets = Vec::new();
        let mut errors = Vec::new();
        read_packets(path, format, DEFAULT_MAX_FILE_BYTES, &mut |packet| {
            match packet {
                Ok(packet) => packets.push(packet),
                Err(error) => errors.push(error),
            }
            self.generation() == generation
        });
        (
            packets
                .par_iter()
                .map(|packet| summarize(packet, &self.options))
                .collect(),
            errors,
        )
    }
}

/// Walks `roots`, reads and summarizes every packet in parallel batches, and hands each
/// event to `sink` in order; stops early when `sink` returns false. The loader thread and
/// the tests share it.
pub fn load(
    roots: &[PathBuf],
    options: &EvaluateOptions,
    sink: &mut dyn FnMut(LoaderEvent) -> bool,
) {
    let items = walk(roots);
    let files_total = items
        .iter()
        .filter(|item| matches!(item, WalkItem::File { .. }))
        .count();
    let mut files_done = 0;
    let mut pending: Vec<RawPacket> = Vec::with_capacity(BATCH);
    let mut errors = Vec::new();
    let flush = |pending: &mut Vec<RawPacket>,
                 errors: &mut Vec<LoadError>,
                 sink: &mut dyn FnMut(LoaderEvent) -> bool| {
        let summaries: Vec<PacketSummary> = pending
            .par_iter()
            .map(|packet| summarize(packet, options))
            .collect();
        pending.clear();
        let mut alive = true;
        if !errors.is_empty() {
            alive &= sink(LoaderEvent::Errors(std::mem::take(errors)));
        }
        if !summaries.is_empty() {
            alive &= sink(LoaderEvent::Packets(summaries));
        }
        alive
    };
    for item in items {
        match item {
            WalkItem::Error(error) => errors.push(error),
            WalkItem::File { path, format } => {
                let mut alive = true;
                read_packets(&path, format, DEFAULT_MAX_FILE_BYTES, &mut |packet| {
                    match packet {
                        Ok(packet) => pending.push(packet),
                        Err(error) => errors.push(error),
                    }
                    if pending.len() >= BATCH {
                        alive = flush(&mut pending, &mut errors, sink);
                    }
                    alive
                });
                if !alive {
                    return;
                }
                files_done += 1;
                if files_done % 64 == 0
                    && !sink(LoaderEvent::Progress {
                        files_done,
                        files_total,
                    })
                {
                    return;
                }
            }
        }
    }
    if flush(&mut pending, &mut errors, sink) {
        sink(LoaderEvent::Progress {
            files_done,
            files_total,
        });
        sink(LoaderEvent::Done);
    }
}
