//! What the walk returns: the verdict, and what was read on the way for a reviewer; what it
//! keeps, and the member names it reads. Every step of the walk imports these, and this file
//! imports no step.

use crate::bundle::error::VerifyError;
use crate::bundle::event::Manifest;
use crate::bundle::lines::EventLines;
use chrono::{DateTime, Utc};

// The only two member names upstream's layout allows (step 5), the manifest first (step 7).
pub const MANIFEST: &str = "manifest.json";
pub const EVENTS: &str = "events.ndjson";

/// What the walk keeps of the events member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The verdict and spec §15's counts only (`verify`): each line is dropped once it is
    /// checked and counted, so memory does not grow with the member.
    Counts,
    /// Also every line (up to `max_events`, each within `max_line_bytes`) with its facts, for
    /// the faces that list events; the rest are counted.
    Lines,
}

/// What a passing verification returns (upstream's `VerifyResult`), and the events' time
/// window an attestation's predicate states.
#[derive(Clone, Debug)]
pub struct Verified {
    pub manifest: Manifest,
    pub event_count: u64,
    pub run_root: String,
    pub time_window: TimeWindow,
}

/// The earliest and latest event `time`, compared as instants (so offsets compare correctly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeWindow {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl TimeWindow {
    pub fn at(time: DateTime<Utc>) -> TimeWindow {
        TimeWindow {
            start: time,
            end: time,
        }
    }

    pub fn widen(&mut self, time: DateTime<Utc>) {
        self.start = self.start.min(time);
        self.end = self.end.max(time);
    }
}

/// The walk's result: the verdict and what was read on the way.
pub struct Walk {
    pub verdict: Result<Verified, VerifyError>,
    pub manifest_text: Option<Vec<u8>>,
    pub manifest: Option<Manifest>,
    /// The first `events.ndjson` member, when the walk reached it.
    pub events: Option<EventLines>,
}
