//! A packet as read (its source and bytes) and an input that yielded none (its source and
//! the reason).

use super::Source;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawPacket {
    pub source: Source,
    /// Where the packet starts in its file (0 for a whole-file packet), so that a view can
    /// read it again without keeping every packet in memory.
    pub offset: u64,
    pub bytes: Vec<u8>,
    /// Set on the packet that stands for a whole evidence bundle (kind `bundle`): its
    /// verification report. Its `bytes` are then the bundle's `manifest.json`.
    pub bundle: Option<std::sync::Arc<crate::bundle::BundleReport>>,
    /// Set on each event packet of a bundle (`BUNDLE:SEQ`): the report of the bundle it is
    /// in, so the event's own explanation and check can say its content hash does not match
    /// and that the bundle fails verification.
    pub in_bundle: Option<std::sync::Arc<crate::bundle::BundleReport>>,
}

/// An input that yielded no packet, with the reason in plain words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LoadError {
    pub source: Source,
    pub reason: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.source, self.reason)
    }
}

impl std::error::Error for LoadError {}
