//! How the library's per-packet `Status` (the same verdict `check` gives) is shown in the list.

use crate::a2a::Mode;
use crate::corpus::PacketCheck;
pub use crate::corpus::Status;

pub fn glyph(status: Status) -> &'static str {
    match status {
        Status::Conforms => "✓",
        Status::NotChecked => "·",
        Status::NoGolden => "○",
        Status::Finding => "!",
        Status::Mismatch => "≠",
        Status::Error => "✗",
    }
}

/// The packet's status in `mode` (converted packets have one per mode), else its overall one.
pub fn status_in(check: &PacketCheck, mode: Mode) -> Status {
    check.mode(mode).map_or(check.status, |mode| mode.status)
}

/// Whether a status counts as failing in a group's count: something was found or differs, or
/// the input could not be read.
pub fn is_failing(status: Status) -> bool {
    matches!(status, Status::Finding | Status::Mismatch | Status::Error)
}
