//! The summary of one packet (what its check is made from) and the options
//! packets are evaluated with.

use crate::a2a::{CanonicalType, ConvertOptions, ErrorKind, Mode};
use crate::corpus::{PacketKind, RawPacket, Source};
use crate::freeze::{HandoffState, RowSet};
use crate::json::Digest;
use crate::profiles::ProfileOptions;

/// How packets are evaluated: the modes a raw packet is converted in, and the options of the
/// other handoff profiles.
#[derive(Clone, Debug)]
pub struct EvaluateOptions {
    /// Conversion options; their `mode` is replaced by each mode in `modes`.
    pub conversion: ConvertOptions,
    pub modes: Vec<Mode>,
    pub profile: ProfileOptions,
    /// Whether the summary counts what only a check reports: repeated keys, a profile's
    /// failures, migration findings. `diff` reads a packet's kind and states alone, and
    /// counting them was a tenth of its time.
    pub check_findings: bool,
}

impl Default for EvaluateOptions {
    fn default() -> Self {
        EvaluateOptions {
            conversion: ConvertOptions::default(),
            modes: Mode::BOTH.to_vec(),
            profile: ProfileOptions::default(),
            check_findings: true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DigestSet {
    pub payload: Digest,
    pub handoff: Digest,
    pub discovery: Digest,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeResult {
    Converted {
        canonical_type: CanonicalType,
        state: Option<HandoffState>,
        digests: DigestSet,
    },
    Rejected {
        kind: ErrorKind,
        rule: &'static str,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeSummary {
    pub mode: Mode,
    pub result: ModeResult,
    /// The K1-A rows the packet matched in this mode.
    pub rows: RowSet,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacketSummary {
    pub source: Source,
    /// Byte offset of the packet in its file (see `reread_packet`).
    pub offset: u64,
    pub kind: PacketKind,
    pub duplicate_keys: u32,
    /// Error-severity findings of a canonical audit.
    pub audit_errors: u32,
    /// Warning-severity findings of a canonical audit.
    pub audit_warnings: u32,
    /// For canonical input: the state of the first handoff object audited.
    pub canonical_state: Option<HandoffState>,
    /// For canonical input: the freeze negatives its payloads show holding (checklist Q4/Q5).
    pub audit_supports: crate::freeze::AuditSupport,
    /// Master/sub, ContextCore and UAIX packets: rows that failed / warned.
    pub profile_failures: u32,
    pub profile_warnings: u32,
    /// A2A protocol objects: findings of the migration (mixed versions, checks on the result).
    pub migration_findings: u32,
    /// For raw packets: one entry per evaluated mode, strict first.
    pub modes: [Option<ModeSummary>; 2],
}

impl PacketSummary {
    pub fn mode(&self, mode: Mode) -> Option<&ModeSummary> {
        self.modes[mode.index()].as_ref()
    }

    pub fn evaluated_modes(&self) -> impl Iterator<Item = &ModeSummary> {
        self.modes.iter().flatten()
    }

    /// The handoff state to show for this packet in `mode`: the converted state for raw
    /// packets, the audited state for canonical ones.
    pub fn state(&self, mode: Mode) -> Option<HandoffState> {
        match self.mode(mode).map(|summary| summary.result) {
            Some(ModeResult::Converted { state, .. }) => state,
            _ => self.canonical_state,
        }
    }

    pub fn canonical_type(&self, mode: Mode) -> Option<CanonicalType> {
        match self.mode(mode)?.result {
            ModeResult::Converted { canonical_type, .. } => Some(canonical_type),
            ModeResult::Rejected { .. } => None,
        }
    }
}

impl PacketSummary {
    /// A packet's summary before anything is evaluated: its kind and repeated keys only.
    pub(super) fn of_kind(
        packet: &RawPacket,
        kind: PacketKind,
        duplicate_keys: u32,
    ) -> PacketSummary {
        PacketSummary {
            source: packet.source.clone(),
            offset: packet.offset,
            kind,
            duplicate_keys,
            audit_errors: 0,
            audit_warnings: 0,
            canonical_state: None,
            audit_supports: Default::default(),
            profile_failures: 0,
            profile_warnings: 0,
            migration_findings: 0,
            modes: [None, None],
        }
    }
}
