//! One evidence bundle as the reviewer's report shows it, tallied from its own packet and
//! its events as they stream past.

use super::checklist::{
    language_evidence, weigh_audit, QuestionEvidence, QUESTION_EXAMPLES, Q_LANGUAGE,
};
use super::Example;
use crate::corpus::{PacketCheck, Status};
use crate::freeze::{HandoffState, REVIEW_CHECKLIST};

/// Bundles described one by one in the reviewer's report; the rest are counted.
pub(super) const MAX_BUNDLES: usize = 50;

/// One evidence bundle as the reviewer's report shows it: upstream's verdict and lint rules
/// (from its report) and what its events say, aggregated as they stream past (a bundle's
/// events follow its own packet in walk order).
#[derive(Clone, Debug, PartialEq)]
pub struct BundleTally {
    pub source: String,
    pub(super) path: std::sync::Arc<std::path::Path>,
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
    pub(super) fn new(
        check: &PacketCheck,
        report: std::sync::Arc<crate::bundle::BundleReport>,
    ) -> Self {
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

    pub(super) fn add_event(&mut self, check: &PacketCheck, require_golden: bool) {
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
