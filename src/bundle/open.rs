//! Opening a bundle: the verdict plus what a reviewer can read even when verification fails
//! (the manifest's bytes, the lines of the first `events.ndjson` member). All in memory,
//! through the limits; nothing is extracted.

use super::error::VerifyError;
use super::event::Manifest;
use super::limits::{CeilingReader, Limits};
use super::lines::{EventLines, LineReader};
use super::verify::{collect_rest, read_input, walk, Verified, EVENTS};
use crate::input::{open_regular, InputError};
use flate2::read::GzDecoder;
use std::cell::Cell;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{LazyLock, Mutex, PoisonError};

pub struct Bundle {
    pub verdict: Result<Verified, VerifyError>,
    /// The first manifest.json member's bytes, when the walk read it.
    pub manifest_text: Option<Vec<u8>>,
    /// The manifest as deserialized, when it got that far.
    pub manifest: Option<Manifest>,
    /// The first events.ndjson member's lines, when one could be reached.
    pub events: Option<EventLines>,
}

impl Bundle {
    pub fn is_valid(&self) -> bool {
        self.verdict.is_ok()
    }

    pub fn error(&self) -> Option<&VerifyError> {
        self.verdict.as_ref().err()
    }

    /// Verified: the manifest's count; else lines that parse as JSON objects (spec §15).
    pub fn event_count(&self) -> Option<u64> {
        match &self.verdict {
            Ok(verified) => Some(verified.event_count),
            Err(_) => self.events.as_ref().map(|e| e.object_count() as u64),
        }
    }

    pub fn a2a_events(&self) -> Option<u64> {
        self.events.as_ref().map(|e| e.a2a_count() as u64)
    }

    pub fn handoff_visible_events(&self) -> Option<u64> {
        self.events
            .as_ref()
            .map(|e| e.handoff_visible_count() as u64)
    }

    pub fn run_id(&self) -> Option<&str> {
        self.verdict
            .as_ref()
            .ok()
            .map(|v| v.manifest.run_id.as_str())
    }

    pub fn run_root(&self) -> Option<&str> {
        self.verdict.as_ref().ok().map(|v| v.run_root.as_str())
    }
}

/// Opens a bundle from its bytes (steps 1-26).
pub fn open_bytes(input: &[u8], limits: &Limits) -> Bundle {
    let walked = walk(input, limits);
    let events = match walked.events {
        Some(events) => Some(events),
        None => first_events_member(input, limits),
    };
    Bundle {
        verdict: walked.verdict,
        manifest_text: walked.manifest_text,
        manifest: walked.manifest,
        events,
    }
}

/// Opens a bundle from any reader: step 0 (the input ceiling) first.
pub fn open_reader(reader: impl io::Read, limits: &Limits) -> Bundle {
    match read_input(reader, limits) {
        Ok(bytes) => open_bytes(&bytes, limits),
        Err(error) => Bundle {
            verdict: Err(error),
            manifest_text: None,
            manifest: None,
            events: None,
        },
    }
}

/// Opens a bundle file through the input layer (a FIFO, device or directory is refused
/// before a byte is read); `Err` only when the file cannot be opened at all (a load error,
/// not a verdict: upstream's "failed to open bundle"). The size cap is step 0's.
pub fn open_path(path: &Path, limits: &Limits) -> Result<Bundle, InputError> {
    count_open(path);
    let file = open_regular(path)?;
    Ok(open_reader(file, limits))
}

/// How many times `open_path` was asked for each path in this process. Opening a
/// 100,000-event bundle costs about half a second of CPU, so the faces that show one event
/// at a time must keep the opened bundle (`BundleCache`); tests count here that they do. A
/// map, so that a directory of many bundles costs one lookup per open, not a scan of every
/// path opened before.
static OPENED: LazyLock<Mutex<HashMap<PathBuf, usize>>> = LazyLock::new(Default::default);

fn count_open(path: &Path) {
    let mut opened = OPENED.lock().unwrap_or_else(PoisonError::into_inner);
    match opened.get_mut(path) {
        Some(count) => *count += 1,
        None => {
            opened.insert(path.to_owned(), 1);
        }
    }
}

/// How many times `open_path` opened (or tried to open) `path` in this process, as spelled.
pub fn times_opened(path: &Path) -> usize {
    OPENED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(path)
        .copied()
        .unwrap_or(0)
}

/// When verification stopped before the events member: find the first member whose name is
/// exactly `events.ndjson` and read its lines leniently, within the same limits.
fn first_events_member(input: &[u8], limits: &Limits) -> Option<EventLines> {
    let tripped = Rc::new(Cell::new(false));
    let decoded = CeilingReader::new(GzDecoder::new(input), limits.max_decode_bytes, tripped);
    let mut archive = tar::Archive::new(decoded);
    let entries = archive.entries().ok()?;
    for entry in entries {
        let entry = entry.ok()?;
        if entry.path_bytes().as_ref() != EVENTS.as_bytes() {
            continue;
        }
        let mut lines = EventLines::default();
        let mut reader = LineReader::new(entry, &lines.text);
        collect_rest(&mut reader, limits, &mut lines);
        return Some(lines);
    }
    None
}
