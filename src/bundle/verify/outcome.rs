//! What the walk returns: the verdict, and what was read on the way for a reviewer.

use crate::bundle::error::VerifyError;
use crate::bundle::event::Manifest;
use crate::bundle::lines::EventLines;
use chrono::{DateTime, Utc};

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
