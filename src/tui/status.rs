//! The per-packet status shown by a glyph in the list.

use crate::a2a::Mode;
use crate::corpus::{ModeResult, PacketKind, PacketSummary};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    Conforms,
    Mismatch,
    Error,
    NoGolden,
    Finding,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Conforms,
        Status::Mismatch,
        Status::Error,
        Status::NoGolden,
        Status::Finding,
    ];

    pub fn glyph(self) -> &'static str {
        match self {
            Status::Conforms => "✓",
            Status::Mismatch => "≠",
            Status::Error => "✗",
            Status::NoGolden => "○",
            Status::Finding => "!",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Status::Conforms => "conforms",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
            Status::NoGolden => "no golden",
            Status::Finding => "finding",
        }
    }
}

/// The status of a packet in `mode`. Without a golden entry a raw packet is "no golden" (its
/// rejection in a mode is an outcome, not an error); canonical input is judged by its audit;
/// anything that could not be evaluated at all is an error.
pub fn status_of(summary: &PacketSummary, mode: Mode) -> Status {
    if summary.duplicate_keys > 0
        || summary.audit_errors > 0
        || summary.audit_warnings > 0
        || summary.profile_failures > 0
        || summary.profile_warnings > 0
        || summary.migration_findings > 0
    {
        return Status::Finding;
    }
    match summary.kind {
        PacketKind::NotJson | PacketKind::Unknown => Status::Error,
        PacketKind::RawA2a => match summary.mode(mode).map(|mode| mode.result) {
            Some(ModeResult::Converted { .. } | ModeResult::Rejected { .. }) => Status::NoGolden,
            None => Status::Error,
        },
        // Canonical input and profile packets are judged by their own rule tables.
        PacketKind::CanonicalPayload
        | PacketKind::EvidenceEvent
        | PacketKind::AdapterBatch
        | PacketKind::MasterSub
        | PacketKind::ContextCore
        | PacketKind::Uaix => Status::Conforms,
        _ => Status::NoGolden,
    }
}
