//! Aggregating a corpus check as it streams past: counts, the coverage matrix, the evidence
//! for each review-checklist question, and findings grouped by kind with a few examples each.
//! Its size does not grow with the corpus, so a million packets report in a few screens.

use crate::a2a::Mode;
use crate::corpus::{
    CheckFinding, CheckItem, FindingKind, ModeResult, PacketCheck, PacketKind, Status,
};
use crate::freeze::{
    HandoffState, RowSet, COVERAGE_ROW_IDS, FORBIDDEN_PHRASES, GUARDRAIL, K1A_TABLE,
    REVIEW_CHECKLIST,
};

/// Examples kept per coverage cell.
const CELL_EXAMPLES: usize = 3;
/// Examples kept per checklist question and side.
const QUESTION_EXAMPLES: usize = 5;

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

/// Evidence for one checklist question.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QuestionEvidence {
    pub support: u64,
    pub counter: u64,
    pub support_examples: Vec<Example>,
    /// Counter-evidence with the reason, e.g. `x.json (strict): visible without the positive rule`.
    pub counter_examples: Vec<Example>,
}

/// The answer a question gets from its evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    NotEvidenced,
}

impl Answer {
    pub fn label(self) -> &'static str {
        match self {
            Answer::Yes => "Yes",
            Answer::No => "No",
            Answer::NotEvidenced => "Not evidenced by this corpus",
        }
    }
}

impl QuestionEvidence {
    pub fn answer(&self) -> Answer {
        if self.counter > 0 {
            Answer::No
        } else if self.support > 0 {
            Answer::Yes
        } else {
            Answer::NotEvidenced
        }
    }

    fn supports(&mut self, example: impl FnOnce() -> Example) {
        self.support += 1;
        if self.support_examples.len() < QUESTION_EXAMPLES {
            self.support_examples.push(example());
        }
    }

    fn contradicts(&mut self, example: impl FnOnce() -> Example) {
        self.counter += 1;
        if self.counter_examples.len() < QUESTION_EXAMPLES {
            self.counter_examples.push(example());
        }
    }
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

/// Bundles described one by one in the reviewer's report; the rest are counted.
const MAX_BUNDLES: usize = 50;

/// One evidence bundle as the reviewer's report shows it: upstream's verdict and lint rules
/// (from its report) and what its events say, aggregated as they stream past (a bundle's
/// events follow its own packet in walk order).
#[derive(Clone, Debug, PartialEq)]
pub struct BundleTally {
    pub source: String,
    path: std::sync::Arc<std::path::Path>,
    pub report: std::sync::Arc<crate::bundle::BundleReport>,
    /// The bundle packet's own status (its verdict against its golden).
    pub status: Status,
    pub events: u64,
    /// Events that are not A2A adapter events.
    pub not_checked: u64,
    /// Events with a freeze-audit error.
    pub audit_errors: u64,
    /// Events whose status fails the check (drift, findings).
    pub failing_events: u64,
    /// The freeze's checklist answered from this bundle's events alone.
    pub checklist: Vec<QuestionEvidence>,
    /// Events whose handoff is visible, by named state (`task_and_message_refs`, ...; events
    /// whose handoff is no legal state under `not a legal state`), with a few examples.
    pub visible_by_state: Vec<(&'static str, u64, Vec<Example>)>,
}

impl BundleTally {
    fn new(check: &PacketCheck, report: std::sync::Arc<crate::bundle::BundleReport>) -> Self {
        let mut checklist = vec![QuestionEvidence::default(); REVIEW_CHECKLIST.len()];
        checklist[Q_LANGUAGE] = language_evidence();
        BundleTally {
            source: check.summary.source.to_string(),
            path: check.summary.source.path.clone(),
            report,
            status: check.status,
            events: 0,
            not_checked: 0,
            audit_errors: 0,
            failing_events: 0,
            checklist,
            visible_by_state: Vec::new(),
        }
    }

    fn add_event(&mut self, check: &PacketCheck, require_golden: bool) {
        self.events += 1;
        if check.status.fails(require_golden) {
            self.failing_events += 1;
        }
        if check.status == Status::NotChecked {
            self.not_checked += 1;
            return;
        }
        if check.summary.audit_errors > 0 {
            self.audit_errors += 1;
        }
        let source = check.summary.source.to_string();
        weigh_audit(&mut self.checklist, check, &source);
        let state = match check.summary.canonical_state {
            Some(HandoffState::Defaults) => return,
            Some(state) => state.key(),
            None => "not a legal state",
        };
        match self
            .visible_by_state
            .iter_mut()
            .find(|(key, ..)| *key == state)
        {
            Some((_, count, examples)) => {
                *count += 1;
                if examples.len() < QUESTION_EXAMPLES {
                    examples.push(source);
                }
            }
            None => self.visible_by_state.push((state, 1, vec![source])),
        }
    }
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

const Q_SURFACE: usize = 0;
const Q_PROMOTION: usize = 1;
const Q_WEAK_SIGNALS: usize = 2;
const Q_SYNTHETIC: usize = 3;
const Q_TASK_UPDATED: usize = 4;
const Q_LANGUAGE: usize = 5;

/// Question 6 is about wording, which packets do not carry: it is answered from the text this
/// inspector says about packets (the K1-A rows' titles, conditions, results and may-imply
/// columns, and the guardrail), checked for the phrases the freeze forbids.
fn language_evidence() -> QuestionEvidence {
    let mut evidence = QuestionEvidence::default();
    let texts = K1A_TABLE
        .rows
        .iter()
        .map(|row| {
            (
                format!("K1-A row {}", row.id),
                [row.title, row.condition, row.result, row.may_imply].join(" "),
            )
        })
        .chain(std::iter::once((
            "the guardrail sentence".to_owned(),
            GUARDRAIL.to_owned(),
        )));
    for (name, text) in texts {
        let lower = text.to_lowercase();
        match FORBIDDEN_PHRASES
            .iter()
            .find(|phrase| lower.contains(*phrase))
        {
            Some(phrase) => evidence.contradicts(|| format!("{name} says \"{phrase}\"")),
            None => evidence.supports(|| name),
        }
    }
    evidence
}

/// Audit rows that say the handoff surface itself is malformed.
const SURFACE_RULES: [&str; 6] = ["HP", "HL", "HK", "HT", "HE", "HD"];
/// Audit rows that say a handoff was visible where the positive rule does not hold.
const PROMOTION_RULES: [&str; 7] = ["P", "N1", "N2", "N5", "N7", "X3", "ET"];

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
    pub fn mode_status_count(&self, mode: Mode, status: Status) -> u64 {
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

    /// What one converted packet (in one mode) says about checklist questions 1-5.
    fn weigh_conversion(
        &mut self,
        rows: RowSet,
        state: Option<HandoffState>,
        label: &dyn Fn() -> String,
    ) {
        let Some(state) = state else {
            self.checklist[Q_SURFACE].contradicts(|| {
                format!(
                    "{}: the handoff is not one of the five legal objects",
                    label()
                )
            });
            return;
        };
        self.checklist[Q_SURFACE].supports(label);
        let visible = state != HandoffState::Defaults;
        let positive = rows.contains("P");
        let promotion = &mut self.checklist[Q_PROMOTION];
        let negative = REVIEW_CHECKLIST[Q_PROMOTION]
            .rows
            .iter()
            .any(|id| *id != "P" && rows.contains(id));
        match (positive, visible) {
            (true, true) => promotion.supports(label),
            (false, false) if negative => promotion.supports(label),
            (false, true) => {
                promotion.contradicts(|| format!("{}: visible without the positive rule", label()))
            }
            (true, false) => promotion.contradicts(|| {
                format!(
                    "{}: the positive rule holds but the handoff kept its defaults",
                    label()
                )
            }),
            (false, false) => {}
        }
        let weak = REVIEW_CHECKLIST[Q_WEAK_SIGNALS]
            .rows
            .iter()
            .any(|id| rows.contains(id));
        if weak && !positive {
            if visible {
                self.checklist[Q_WEAK_SIGNALS]
                    .contradicts(|| format!("{}: weak signals only, yet visible", label()));
            } else {
                self.checklist[Q_WEAK_SIGNALS].supports(label);
            }
        }
        if rows.contains("SYN") {
            let task_ref = matches!(
                state,
                HandoffState::TaskAndMessageRefs | HandoffState::TaskRefOnly
            );
            if task_ref {
                self.checklist[Q_SYNTHETIC].contradicts(|| {
                    format!(
                        "{}: task_ref_visible with the substituted unknown-task",
                        label()
                    )
                });
            } else {
                self.checklist[Q_SYNTHETIC].supports(label);
            }
        }
        if rows.contains("N7") {
            if visible {
                self.checklist[Q_TASK_UPDATED]
                    .contradicts(|| format!("{}: task.updated promoted", label()));
            } else {
                self.checklist[Q_TASK_UPDATED].supports(label);
            }
        }
    }
}

/// What the audit of canonical input says about the checklist questions (of the corpus, or of
/// one bundle's events).
fn weigh_audit(checklist: &mut [QuestionEvidence], check: &PacketCheck, source: &str) {
    let errors_with = |rules: &[&str]| -> Vec<&CheckFinding> {
        check
            .findings
            .iter()
            .filter(|finding| {
                finding.kind == FindingKind::AuditError
                    && finding
                        .rule
                        .as_deref()
                        .is_some_and(|rule| rules.contains(&rule))
            })
            .collect()
    };
    let label = || format!("{source} (audit)");
    let against = |findings: &[&CheckFinding]| {
        format!(
            "{}: {}",
            label(),
            findings
                .first()
                .map_or("", |finding| finding.message.as_str())
        )
    };
    let surface = errors_with(&SURFACE_RULES);
    if surface.is_empty() {
        checklist[Q_SURFACE].supports(label);
    } else {
        checklist[Q_SURFACE].contradicts(|| against(&surface));
    }
    let promotion = errors_with(&PROMOTION_RULES);
    let visible = check
        .summary
        .canonical_state
        .is_some_and(|state| state != HandoffState::Defaults);
    if !promotion.is_empty() {
        checklist[Q_PROMOTION].contradicts(|| against(&promotion));
    } else if visible {
        checklist[Q_PROMOTION].supports(label);
    }
    // Support, as a converted packet's SYN and N7 rows give it: the file's own payload shows
    // the negative holding (and names it), unless the audit found it broken.
    let supports = check.summary.audit_supports;
    let synthetic = errors_with(&["SYN"]);
    if !synthetic.is_empty() {
        checklist[Q_SYNTHETIC].contradicts(|| against(&synthetic));
    } else if supports.synthetic_task_not_counted {
        checklist[Q_SYNTHETIC].supports(|| {
            format!(
                "{}: task.id is unknown-task, task_ref_visible is false",
                label()
            )
        });
    }
    let updated = errors_with(&["N7"]);
    if !updated.is_empty() {
        checklist[Q_TASK_UPDATED].contradicts(|| against(&updated));
    } else if supports.task_updated_not_promoted {
        checklist[Q_TASK_UPDATED].supports(|| {
            format!(
                "{}: task.updated with task.kind \"delegation\", not visible",
                label()
            )
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{check_packet, CheckOptions, GoldenLookup, RawPacket, Source};

    fn packet(name: &str, text: &str) -> CheckItem {
        let raw = RawPacket {
            source: Source::file(name),
            offset: 0,
            bytes: text.as_bytes().to_vec(),
            bundle: None,
            in_bundle: None,
        };
        CheckItem::Packet(Box::new(check_packet(
            &raw,
            &CheckOptions::default(),
            GoldenLookup::Missing("no goldens.json in ."),
            &[None, None],
        )))
    }

    #[test]
    fn tallies_statuses_coverage_and_checklist_evidence() {
        let mut tally = CheckTally::new(&Mode::BOTH, false, 10);
        tally.add(&packet(
            "positive.json",
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"kind":"delegation"},"message":{"id":"m"}}"#,
        ));
        tally.add(&packet(
            "updated.json",
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.updated","agent":{"id":"a","role":"r"},"task":{"id":"t","kind":"delegation"}}"#,
        ));
        tally.add(&packet("broken.json", "{"));
        assert_eq!(tally.packets, 3);
        assert_eq!(tally.status_count(Status::NoGolden), 2);
        assert_eq!(tally.status_count(Status::Error), 1);
        assert_eq!(tally.failing, 1);
        assert_eq!(tally.exit_code(), 1);
        assert_eq!(tally.cell("N3", Mode::Strict).unwrap().packets, 1);
        assert_eq!(tally.cell("N4", Mode::Lenient).unwrap().packets, 1);
        assert_eq!(tally.cell("N7", Mode::Lenient).unwrap().packets, 1);
        assert_eq!(
            tally.cell("SYN", Mode::Lenient).unwrap().examples,
            vec!["positive.json (lenient)"]
        );
        let answers: Vec<Answer> = tally
            .checklist
            .iter()
            .map(QuestionEvidence::answer)
            .collect();
        assert_eq!(
            answers,
            vec![
                Answer::Yes,
                Answer::Yes,
                Answer::Yes,
                Answer::Yes,
                Answer::Yes,
                Answer::Yes
            ]
        );
        assert_eq!(tally.group(FindingKind::NotJson).count, 1);
    }

    #[test]
    fn audit_findings_are_counter_evidence() {
        let mut tally = CheckTally::new(&Mode::BOTH, false, 10);
        tally.add(&packet(
            "bad.payload.json",
            r#"{"adapter_id":"assay-adapter-a2a","upstream_event_type":"task.updated","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"handoff":{"visible":true,"source_kind":"typed_payload","task_ref_visible":true,"message_ref_visible":false},"unmapped_fields_count":0}"#,
        ));
        assert_eq!(tally.checklist[Q_PROMOTION].answer(), Answer::No);
        assert_eq!(tally.checklist[Q_TASK_UPDATED].answer(), Answer::No);
        assert!(tally.checklist[Q_TASK_UPDATED].counter_examples[0]
            .starts_with("bad.payload.json (audit): N7"));
        assert_eq!(tally.checklist[Q_SURFACE].answer(), Answer::Yes);
    }
}
