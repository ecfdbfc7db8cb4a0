//! What the inspector keeps per packet: the list's needs (name, kind, status and state per
//! mode, the K1-A rows for the coverage matrix and the rule filter, what the review asks) in
//! under 96 bytes, and where to read the packet again. Everything else a view shows (digests,
//! findings with their messages and diffs, the object golden) comes from checking the selected
//! packet again with the run's own `PacketChecker` (`reads::Reader::detail`): a million
//! packets' full checks were 600 bytes each.

use crate::a2a::{CanonicalType, Mode};
use crate::bundle::BundleReport;
use crate::corpus::{
    FindingKind, ModeResult, PacketCheck, PacketChecker, PacketKind, Source, Status,
};
use crate::freeze::{HandoffState, RowSet};
use std::sync::Arc;

/// One packet as the list holds it, made from its check by [`ListedPacket::new`].
#[derive(Clone, Debug)]
pub struct ListedPacket {
    pub source: Source,
    /// Where the packet starts in its file (what the detail and the search read again).
    pub offset: u64,
    pub kind: PacketKind,
    /// The packet's overall status (what `check` gives).
    pub status: Status,
    /// For canonical input: the state of the first handoff object audited.
    pub canonical_state: Option<HandoffState>,
    /// One per evaluated mode of a converted packet, strict first.
    pub modes: [Option<ListedMode>; 2],
    /// The kinds of the packet's findings, one bit each (what the review asks).
    findings: u16,
    /// Whether a bless would record a golden for it (`PacketCheck::records_golden`).
    pub records_golden: bool,
    /// An evidence bundle's own packet: its verification report.
    pub bundle: Option<Arc<BundleReport>>,
    /// What checked it, to check it again for the detail (shared by a run's packets).
    pub checker: Arc<PacketChecker>,
}

/// A converted packet's result in one mode, as the list shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListedMode {
    pub status: Status,
    pub shown: ModeShown,
    pub state: Option<HandoffState>,
    /// The K1-A rows matched in this mode.
    pub rows: RowSet,
}

/// What the list's event column says for a mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeShown {
    Converted(CanonicalType),
    /// Rejected under this rule.
    Rejected(RuleName),
}

/// A rejection's rule id as two bytes: its place in the table of the rule ids seen so far
/// (the conversion's rules are a few dozen literals; a million packets kept each as a 16-byte
/// `&str`). Shown as the id itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleName(u16);

/// The rule ids seen so far, in the order first seen: what a `RuleName` indexes.
static RULE_NAMES: std::sync::RwLock<Vec<&'static str>> = std::sync::RwLock::new(Vec::new());

impl RuleName {
    /// The name of `rule`, added to the table the first time it is seen.
    pub fn of(rule: &'static str) -> RuleName {
        let known = |names: &[&'static str]| names.iter().position(|name| *name == rule);
        let read = RULE_NAMES
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = known(&read) {
            return RuleName(at as u16);
        }
        drop(read);
        let mut names = RULE_NAMES
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let at = known(&names).unwrap_or_else(|| {
            names.push(rule);
            names.len() - 1
        });
        // Rule ids are literals of this program: far fewer than 65,536.
        RuleName(u16::try_from(at).unwrap_or(u16::MAX))
    }

    /// The rule id.
    pub fn as_str(self) -> &'static str {
        let names = RULE_NAMES
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        names.get(usize::from(self.0)).copied().unwrap_or("?")
    }
}

impl std::fmt::Display for RuleName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ListedPacket {
    pub fn new(check: &PacketCheck, checker: &Arc<PacketChecker>) -> ListedPacket {
        let summary = &check.summary;
        let mut modes = [None, None];
        for mode_summary in summary.evaluated_modes() {
            let mode = mode_summary.mode;
            let (shown, state) = match mode_summary.result {
                ModeResult::Converted {
                    canonical_type,
                    state,
                    ..
                } => (ModeShown::Converted(canonical_type), state),
                ModeResult::Rejected { rule, .. } => (
                    ModeShown::Rejected(RuleName::of(rule)),
                    summary.canonical_state,
                ),
            };
            modes[mode.index()] = Some(ListedMode {
                status: check.mode(mode).map_or(check.status, |mode| mode.status),
                shown,
                state,
                rows: mode_summary.rows,
            });
        }
        ListedPacket {
            source: summary.source.clone(),
            offset: summary.offset,
            kind: summary.kind,
            status: check.status,
            canonical_state: summary.canonical_state,
            modes,
            findings: check
                .findings
                .iter()
                .fold(0, |bits, finding| bits | bit(finding.kind)),
            records_golden: check.records_golden(),
            bundle: check.bundle.clone(),
            checker: Arc::clone(checker),
        }
    }

    pub fn mode(&self, mode: Mode) -> Option<&ListedMode> {
        self.modes[mode.index()].as_ref()
    }

    /// The status in `mode` (converted packets have one per mode), else the overall one.
    pub fn status_in(&self, mode: Mode) -> Status {
        self.mode(mode).map_or(self.status, |mode| mode.status)
    }

    /// The handoff state shown in `mode` (as `PacketSummary::state` says it).
    pub fn state(&self, mode: Mode) -> Option<HandoffState> {
        self.mode(mode)
            .map_or(self.canonical_state, |mode| mode.state)
    }

    /// Whether the check found something of this kind.
    pub fn has_finding(&self, kind: FindingKind) -> bool {
        self.findings & bit(kind) != 0
    }
}

fn bit(kind: FindingKind) -> u16 {
    let index = FindingKind::ALL
        .iter()
        .position(|candidate| *candidate == kind)
        .unwrap_or(0);
    1 << index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_finding_kind_has_its_own_bit() {
        let bits: std::collections::HashSet<u16> = FindingKind::ALL.into_iter().map(bit).collect();
        assert_eq!(bits.len(), FindingKind::ALL.len());
        assert!(FindingKind::ALL.len() <= 16);
    }

    #[test]
    fn a_listed_packet_is_small() {
        // What a million of them cost, in bytes each (the full check was about 600; with
        // each rejection's rule as a `&str`, 128).
        assert!(std::mem::size_of::<ListedPacket>() <= 96);
        assert!(std::mem::size_of::<ListedMode>() <= 12);
    }

    #[test]
    fn a_rule_name_shows_its_rule_and_one_rule_has_one_name() {
        let (s4, s7) = (RuleName::of("S4"), RuleName::of("S7"));
        assert_ne!(s4, s7);
        assert_eq!(RuleName::of("S4"), s4);
        assert_eq!((s4.to_string(), s7.as_str()), ("S4".to_owned(), "S7"));
    }
}
