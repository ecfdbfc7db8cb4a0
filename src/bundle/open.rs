//! Opening a bundle: the verdict plus what a reviewer can read even when verification fails
//! (the manifest's bytes, the lines of the first `events.ndjson` member), or for `verify`
//! the verdict and counts alone. Streamed through the limits; nothing is extracted.

use super::error::VerifyError;
use super::event::Manifest;
use super::limits::Limits;
use super::lines::EventLines;
use super::verify::{bundle_too_big, walk, Keep, Source, Verified};
use crate::input::{open_regular, InputError};
use std::io;
use std::path::Path;
use std::sync::OnceLock;

pub struct Bundle {
    pub verdict: Result<Verified, VerifyError>,
    /// The first manifest.json member's bytes, when the walk read it.
    pub manifest_text: Option<Vec<u8>>,
    /// The manifest as deserialized, when it got that far.
    pub manifest: Option<Manifest>,
    /// The first events.ndjson member, when one could be reached: its lines and their facts
    /// (`open_*`), or only spec §15's counts over them (`verify_*`).
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
            Err(_) => self.events.as_ref().map(|e| e.object_count()),
        }
    }

    pub fn a2a_events(&self) -> Option<u64> {
        self.events.as_ref().map(|e| e.a2a_count())
    }

    pub fn handoff_visible_events(&self) -> Option<u64> {
        self.events.as_ref().map(|e| e.handoff_visible_count())
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

/// Opens a bundle from its bytes (steps 1-26), keeping every line.
pub fn open_bytes(input: &[u8], limits: &Limits) -> Bundle {
    read_bundle(input, limits, Keep::Lines)
}

/// Opens a bundle from any reader, streamed (step 0's ceiling counted as it goes), keeping
/// every line.
pub fn open_reader(reader: impl io::Read, limits: &Limits) -> Bundle {
    read_bundle(reader, limits, Keep::Lines)
}

/// Opens a bundle file through the input layer (a FIFO, device or directory is refused
/// before a byte is read); `Err` only when the file cannot be opened at all (a load error,
/// not a verdict: upstream's "failed to open bundle"). The size cap is step 0's.
pub fn open_path(path: &Path, limits: &Limits) -> Result<Bundle, InputError> {
    if let Some(observer) = OPEN_OBSERVER.get() {
        observer(path);
    }
    let file = open_regular(path)?;
    Ok(open_reader(file, limits))
}

/// `verify`'s reading: the same walk as `open_reader`, streamed, keeping only the verdict,
/// the manifest and spec §15's counts (each line dropped once checked), so memory does not
/// grow with the bundle. `events` then holds counts and no lines.
pub fn verify_reader(reader: impl io::Read, limits: &Limits) -> Bundle {
    read_bundle(reader, limits, Keep::Counts)
}

/// `verify_reader` on a file opened through the input layer; a file larger than
/// `max_bundle_bytes` fails step 0 without being read.
pub fn verify_path(path: &Path, limits: &Limits) -> Result<Bundle, InputError> {
    let file = open_regular(path)?;
    if file
        .metadata()
        .is_ok_and(|m| m.len() > limits.max_bundle_bytes)
    {
        return Ok(refused(bundle_too_big(limits)));
    }
    Ok(verify_reader(file, limits))
}

/// The one walk behind every reading: the input streamed through step 0's ceiling, then
/// steps 1-26. A failure of step 0 (the input too big or unreadable) is the verdict whatever
/// the walk found, as upstream reads the whole input first; nothing is listed then.
fn read_bundle(reader: impl io::Read, limits: &Limits, keep: Keep) -> Bundle {
    let mut source = Source::new(reader, limits);
    let walked = walk(&mut source, limits, keep);
    if let Some(error) = source.finish() {
        return refused(error);
    }
    Bundle {
        verdict: walked.verdict,
        manifest_text: walked.manifest_text,
        manifest: walked.manifest,
        events: walked.events,
    }
}

fn refused(error: VerifyError) -> Bundle {
    Bundle {
        verdict: Err(error),
        manifest_text: None,
        manifest: None,
        events: None,
    }
}

/// Told of every path `open_path` opens, once a test has set it: opening a 100,000-event
/// bundle costs about half a second of CPU, so the faces that show one event at a time must
/// keep the opened bundle (`BundleCache`), and a test counts the opens through this to hold
/// them to it. Unset in the tool itself, where it costs one load per open.
static OPEN_OBSERVER: OnceLock<fn(&Path)> = OnceLock::new();

/// Sets the observer `open_path` tells each path it opens (a test's hook; the first set
/// stays: `false` when one was set already).
#[doc(hidden)]
pub fn observe_opens(observer: fn(&Path)) -> bool {
    OPEN_OBSERVER.set(observer).is_ok()
}
