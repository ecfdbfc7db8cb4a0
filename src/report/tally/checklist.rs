//! The evidence for each review-checklist question: what a converted packet, the audit of
//! canonical input and the inspector's own wording say for and against it.

use super::{CheckTally, Example};
use crate::corpus::{CheckFinding, FindingKind, PacketCheck};
use crate::freeze::{
    HandoffState, RowSet, FORBIDDEN_PHRASES, GUARDRAIL, K1A_TABLE, REVIEW_CHECKLIST,
};

/// Examples kept per checklist question and side.
pub(super) const QUESTION_EXAMPLES: usize = 5;

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

pub(super) const Q_SURFACE: usize = 0;
pub(super) const Q_PROMOTION: usize = 1;
pub(super) const Q_WEAK_SIGNALS: usize = 2;
pub(super) const Q_SYNTHETIC: usize = 3;
pub(super) const Q_TASK_UPDATED: usize = 4;
pub(super) const Q_LANGUAGE: usize = 5;

/// Question 6 is about wording, which packets do not carry: it is answered from the text this
/// inspector says about packets (the K1-A rows' titles, conditions, results and may-imply
/// columns, and the guardrail), checked for the phrases the freeze forbids.
pub(super) fn language_evidence() -> QuestionEvidence {
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
pub(super) const SURFACE_RULES: [&str; 6] = ["HP", "HL", "HK", "HT", "HE", "HD"];
/// Audit rows that say a handoff was visible where the positive rule does not hold.
pub(super) const PROMOTION_RULES: [&str; 7] = ["P", "N1", "N2", "N5", "N7", "X3", "ET"];

impl CheckTally {
    /// What one converted packet (in one mode) says about checklist questions 1-5.
    pub(super) fn weigh_conversion(
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
pub(super) fn weigh_audit(checklist: &mut [QuestionEvidence], check: &PacketCheck, source: &str) {
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
