//! Aggregating a corpus check as it streams past: counts, the coverage matrix, the evidence
//! for each review-checklist question, and findings grouped by kind with a few examples each.
//! Its size does not grow with the corpus, so a million packets report in a few screens.
//!
//! By job: the tally and its counting of each item (here), the evidence for each checklist
//! question (`checklist.rs`), and one evidence bundle's tally (`bundle.rs`).

mod bundle;
mod checklist;
#[cfg(test)]
mod tests;

pub use bundle::BundleTally;
use bundle::MAX_BUNDLES;
use checklist::{language_evidence, weigh_audit, Q_LANGUAGE};
pub use checklist::{Answer, QuestionEvidence};

use crate::a2a::Mode;
use crate::corpus::{
    CheckFinding, CheckItem, FindingKind, ModeResult, PacketCheck, PacketKind, Status,
};
use crate::freeze::{COVERAGE_ROW_IDS, REVIEW_CHECKLIST};

/// Examples kept per coverage cell.
const CELL_EXAMPLES: usize = 3;

/// A packet (and mode) that evidences something, for display.
pub type Example = String;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct FindingGroup {
    /// Findings of this kind.
    pub count: u64,
    /// Packets (or unreadable inputs) with at least one of them.
    pub packets: u64,
    /// (source, finding), first ones in walk order.
    pub examples: Vec<(String, CheckFinding)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoverageCell {
    pub packets: u64,
    pub examples: Vec<Example>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CheckTally {
    pub modes: Vec<Mode>,
    pub require_golden: bool,
    /// Examples kept per finding group.
    pub example_limit: usize,
    pub packets: u64,
    pub load_errors: u64,
    /// Packets per status, indexed like `Status::ALL`.
    pub by_status: [u64; Status::ALL.len()],
    /// Packets per kind, indexed like `PacketKind::ALL`.
    pub by_kind: [u64; PacketKind::ALL.len()],
    /// Raw packets per mode (strict, lenient) and status: packet × mode outcomes.
    pub by_mode_status: [[u64; Status::ALL.len()]; 2],
    /// Raw packets per mode that converted, and that the adapter rejected.
    pub by_mode_outcome: [ModeOutcomes; 2],
    /// Packets whose status is `no golden`, by what was done to them.
    pub no_golden: NoGoldenSplit,
    /// Packets whose status fails the check.
    pub failing: u64,
    /// Packets whose failing or warning findings the manifest records as expected
    /// (intentional negatives), and how many findings that is.
    pub recorded_packets: u64,
    pub recorded_findings: u64,
    /// Indexed like `FindingKind::ALL`.
    pub groups: Vec<FindingGroup>,
    /// Indexed like `COVERAGE_ROW_IDS`, then strict/lenient.
    pub coverage: Vec<[CoverageCell; 2]>,
    /// Indexed like `REVIEW_CHECKLIST`.
    pub checklist: Vec<QuestionEvidence>,
    /// Evidence bundles, in walk order (at most `MAX_BUNDLES`; `bundles_total` counts all).
    pub bundles: Vec<BundleTally>,
    pub bundles_total: u64,
}

/// Raw packets of one mode by the adapter's outcome; `no_golden_*` of them have no golden.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModeOutcomes {
    pub converted: u64,
    pub rejected: u64,
    pub no_golden_converted: u64,
    pub no_golden_rejected: u64,
}

/// Packets without a golden: raw packets converted in every mode run, raw packets the adapter
/// rejected in some mode, and other kinds (audited or evaluated).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoGoldenSplit {
    pub converted: u64,
    pub rejected: u64,
    pub evaluated: u64,
}

/// Position of `item` in `all` (the `ALL` arrays index the tally's counters).
fn index_in<T: PartialEq>(all: &[T], item: &T) -> usize {
    all.iter()
        .position(|candidate| candidate == item)
        .unwrap_or(0)
}

fn status_index(status: Status) -> usize {
    index_in(&Status::ALL, &status)
}

fn kind_index(kind: PacketKind) -> usize {
    index_in(&PacketKind::ALL, &kind)
}

fn finding_index(kind: FindingKind) -> usize {
    index_in(&FindingKind::ALL, &kind)
}

impl CheckTally {
    pub fn new(modes: &[Mode], require_golden: bool, example_limit: usize) -> CheckTally {
        CheckTally {
            modes: modes.to_vec(),
            require_golden,
            example_limit,
            packets: 0,
            load_errors: 0,
            by_status: [0; Status::ALL.len()],
            by_kind: [0; PacketKind::ALL.len()],
            by_mode_status: [[0; Status::ALL.len()]; 2],
            by_mode_outcome: Default::default(),
            no_golden: NoGoldenSplit::default(),
            failing: 0,
            recorded_packets: 0,
            recorded_findings: 0,
            groups: vec![FindingGroup::default(); FindingKind::ALL.len()],
            coverage: vec![Default::default(); COVERAGE_ROW_IDS.len()],
            checklist: {
                let mut checklist = vec![QuestionEvidence::default(); REVIEW_CHECKLIST.len()];
                checklist[Q_LANGUAGE] = language_evidence();
                checklist
            },
            bundles: Vec::new(),
            bundles_total: 0,
        }
    }

    pub fn status_count(&self, status: Status) -> u64 {
        self.by_status[status_index(status)]
    }

    pub fn kind_count(&self, kind: PacketKind) -> u64 {
        self.by_kind[kind_index(kind)]
    }

    /// Packets of `mode` with `status`.
    pub(crate) fn mode_status_count(&self, mode: Mode, status: Status) -> u64 {
        self.by_mode_status[mode.index()][status_index(status)]
    }

    pub fn group(&self, kind: FindingKind) -> &FindingGroup {
        &self.groups[finding_index(kind)]
    }

    pub fn cell(&self, row: &str, mode: Mode) -> Option<&CoverageCell> {
        let index = COVERAGE_ROW_IDS.iter().position(|id| *id == row)?;
        Some(&self.coverage[index][mode.index()])
    }

    /// 0 when everything conforms, 1 on any failing packet, 2 when anything could not be read.
    pub fn exit_code(&self) -> u8 {
        if self.load_errors > 0 {
            2
        } else if self.failing > 0 {
            1
        } else {
            0
        }
    }

    pub fn add(&mut self, item: &CheckItem) {
        match item {
            CheckItem::LoadError(error) => {
                self.load_errors += 1;
                self.groups[finding_index(FindingKind::LoadError)].packets += 1;
                let finding = CheckFinding::new(FindingKind::LoadError, None, error.reason.clone());
                self.note_finding(&|| error.source.to_string(), &finding);
            }
            CheckItem::Packet(check) => self.add_packet(check),
        }
    }

    /// `source` is only called for the examples kept: formatting a million source names
    /// that are then thrown away showed in profiles.
    fn note_finding(&mut self, source: &dyn Fn() -> String, finding: &CheckFinding) {
        let limit = self.example_limit;
        let group = &mut self.groups[finding_index(finding.kind)];
        group.count += 1;
        if group.examples.len() < limit {
            group.examples.push((source(), finding.clone()));
        }
    }

    fn add_packet(&mut self, check: &PacketCheck) {
        self.packets += 1;
        self.by_status[status_index(check.status)] += 1;
        self.by_kind[kind_index(check.summary.kind)] += 1;
        if check.status.fails(self.require_golden) {
            self.failing += 1;
        }
        if !check.recorded_findings.is_empty() {
            self.recorded_packets += 1;
            self.recorded_findings += check.recorded_findings.len() as u64;
        }
        let source = || check.summary.source.to_string();
        let mut seen = [false; FindingKind::ALL.len()];
        for finding in &check.findings {
            self.note_finding(&source, finding);
            let index = finding_index(finding.kind);
            if !std::mem::replace(&mut seen[index], true) {
                self.groups[index].packets += 1;
            }
        }
        for mode_check in check.modes.iter().flatten() {
            self.by_mode_status[mode_check.mode.index()][status_index(mode_check.status)] += 1;
        }
        let mut rejected_somewhere = false;
        for mode_check in check.modes.iter().flatten() {
            let Some(summary) = check.summary.mode(mode_check.mode) else {
                continue;
            };
            let outcomes = &mut self.by_mode_outcome[mode_check.mode.index()];
            let no_golden = mode_check.status == Status::NoGolden;
            match summary.result {
                ModeResult::Converted { .. } => {
                    outcomes.converted += 1;
                    outcomes.no_golden_converted += u64::from(no_golden);
                }
                ModeResult::Rejected { .. } => {
                    rejected_somewhere = true;
                    outcomes.rejected += 1;
                    outcomes.no_golden_rejected += u64::from(no_golden);
                }
            }
        }
        if check.status == Status::NoGolden {
            if check.modes.iter().all(Option::is_none) {
                self.no_golden.evaluated += 1;
            } else if rejected_somewhere {
                self.no_golden.rejected += 1;
            } else {
                self.no_golden.converted += 1;
            }
        }
        for mode_summary in check.summary.evaluated_modes() {
            let mode = mode_summary.mode;
            let label = || format!("{} ({mode})", source());
            for index in mode_summary.rows.indices() {
                let cell = &mut self.coverage[index][mode.index()];
                cell.packets += 1;
                if cell.examples.len() < CELL_EXAMPLES {
                    cell.examples.push(label());
                }
            }
            if let ModeResult::Converted { state, .. } = mode_summary.result {
                self.weigh_conversion(mode_summary.rows, state, &label);
            }
        }
        if let Some(report) = &check.bundle {
            self.bundles_total += 1;
            if self.bundles.len() < MAX_BUNDLES {
                self.bundles.push(BundleTally::new(check, report.clone()));
            }
        }
        // A bundle's event that is not an A2A adapter event was not audited: it bears on no
        // question.
        if check.summary.kind.canonical_shape().is_some() && check.status != Status::NotChecked {
            weigh_audit(&mut self.checklist, check, &source());
        }
        if check.summary.source.is_bundle_event() {
            let require_golden = self.require_golden;
            if let Some(bundle) = self
                .bundles
                .last_mut()
                .filter(|bundle| bundle.path == check.summary.source.path)
            {
                bundle.add_event(check, require_golden);
            }
        }
    }
}
