//! What the walk returns: the verdict, and what was read on the way for a reviewer.

use crate::bundle::error::VerifyError;
use crate::bundle::event::Manifest;
use crate::bundle::lines::EventLines;

/// What a passing verification returns (upstream's `VerifyResult`).
#[derive(Clone, Debug)]
pub struct Verified {
    pub manifest: Manifest,
    pub event_count: u64,
    pub run_root: String,
}

/// The walk's result: the verdict and what was read on the way.
pub struct Walk {
    pub verdict: Result<Verified, VerifyError>,
    pub manifest_text: Option<Vec<u8>>,
    pub manifest: Option<Manifest>,
    /// The first `events.ndjson` member, when the walk reached it.
    pub events: Option<EventLines>,
}
