//! Upstream's two built-in A2A lint packs (`a2a-signal-followup`, `a2a-discovery-card-followup`,
//! v1.0.0) as data: the rows for explanations and reports, and one matcher per row so that
//! the evaluation below reads the same table. A rule passes when at least one event of the
//! bundle matches (upstream's pack semantics, spec §13); every rule is a warning upstream.

use super::event::DataFlags;
use crate::rules::{RuleRow, RuleTable};
use serde_json::Value;

const SPEC: &str = "spec/assay-evidence-bundle.md §13 (upstream packs a2a-*.yaml v1.0.0)";
const NOT_HANDOFF: &str =
    "anything about a handoff: no pack rule looks at data.handoff, and a match says nothing about whether a delegation was correct or authorized";

pub static A2A_LINT_TABLE: RuleTable = RuleTable {
    id: "a2a-lint",
    name: "upstream A2A lint packs (a2a-signal-followup, a2a-discovery-card-followup)",
    rows: &[
        RuleRow {
            id: "A2A-001",
            title: "capabilities signal present",
            condition: "some event's `type` is exactly assay.adapter.a2a.agent.capabilities",
            result: "pack a2a-signal-followup: no agent.capabilities event (warning)",
            may_imply: "the bundle holds at least one capabilities event",
            must_not_imply: NOT_HANDOFF,
            source: SPEC,
        },
        RuleRow {
            id: "A2A-002",
            title: "task lifecycle signal present",
            condition: "some event's `type` matches the glob assay.adapter.a2a.task.*",
            result: "pack a2a-signal-followup: no task.* event (warning)",
            may_imply: "the bundle holds at least one task event",
            must_not_imply: NOT_HANDOFF,
            source: SPEC,
        },
        RuleRow {
            id: "A2A-003",
            title: "artifact exchange signal present",
            condition: "some event's `type` is exactly assay.adapter.a2a.artifact.shared",
            result: "pack a2a-signal-followup: no artifact.shared event (warning)",
            may_imply: "the bundle holds at least one artifact event",
            must_not_imply: NOT_HANDOFF,
            source: SPEC,
        },
        RuleRow {
            id: "A2A-DC-001",
            title: "agent card visible",
            condition: "some event has JSON true at /data/discovery/agent_card_visible (the string \"true\" does not count)",
            result: "pack a2a-discovery-card-followup: no event with a visible agent card (warning)",
            may_imply: "some event's adapter output marks an agent card as visible",
            must_not_imply: "that the card was fetched, valid or signed",
            source: SPEC,
        },
        RuleRow {
            id: "A2A-DC-002",
            title: "extended card access visible",
            condition: "some event has JSON true at /data/discovery/extended_card_access_visible",
            result: "pack a2a-discovery-card-followup: no event with visible extended card access (warning)",
            may_imply: "some event's adapter output marks extended card access as visible",
            must_not_imply: "that access was granted or authorized",
            source: SPEC,
        },
    ],
};

/// How a row matches one event (same order as the table's rows).
enum Matcher {
    TypeIs(&'static str),
    /// A glob whose only `*` is at the end.
    TypeStartsWith(&'static str),
    /// JSON `true` at `/data/discovery/agent_card_visible` (`DataFlags`).
    AgentCardVisible,
    /// JSON `true` at `/data/discovery/extended_card_access_visible` (`DataFlags`).
    ExtendedCardAccessVisible,
}

const MATCHERS: [Matcher; 5] = [
    Matcher::TypeIs("assay.adapter.a2a.agent.capabilities"),
    Matcher::TypeStartsWith("assay.adapter.a2a.task."),
    Matcher::TypeIs("assay.adapter.a2a.artifact.shared"),
    Matcher::AgentCardVisible,
    Matcher::ExtendedCardAccessVisible,
];

impl Matcher {
    fn matches(&self, type_: Option<&str>, flags: &DataFlags) -> bool {
        match self {
            Matcher::TypeIs(want) => type_ == Some(want),
            Matcher::TypeStartsWith(prefix) => type_.is_some_and(|t| t.starts_with(prefix)),
            Matcher::AgentCardVisible => flags.agent_card_visible,
            Matcher::ExtendedCardAccessVisible => flags.extended_card_access_visible,
        }
    }
}

/// One rule's outcome over a bundle: the events (positions) that match it; the rule passes
/// when there is at least one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LintOutcome {
    /// The row's id (`A2A-001`); `row()` gives the row.
    pub rule: &'static str,
    pub matched: Vec<usize>,
}

impl LintOutcome {
    pub fn row(&self) -> Option<&'static RuleRow> {
        A2A_LINT_TABLE.row(self.rule)
    }

    pub fn passes(&self) -> bool {
        !self.matched.is_empty()
    }
}

/// Accumulates the five rules over a bundle's events, one event at a time.
#[derive(Clone, Debug, Default)]
pub struct LintPacks {
    matched: [Vec<usize>; 5],
}

impl LintPacks {
    /// One event, from what the verifier (or the lenient parse) already read of it: its
    /// `type` and its `data` flags. No parse here.
    pub(crate) fn add_facts(&mut self, position: usize, type_: Option<&str>, flags: &DataFlags) {
        for (matcher, matched) in MATCHERS.iter().zip(self.matched.iter_mut()) {
            if matcher.matches(type_, flags) {
                matched.push(position);
            }
        }
    }

    /// One event as a parsed JSON object.
    pub fn add(&mut self, position: usize, event: &Value) {
        let type_ = event.get("type").and_then(Value::as_str);
        self.add_facts(position, type_, &DataFlags::of_value(event.get("data")));
    }

    pub fn finish(self) -> Vec<LintOutcome> {
        A2A_LINT_TABLE
            .rows
            .iter()
            .zip(self.matched)
            .map(|(rule, matched)| LintOutcome {
                rule: rule.id,
                matched,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rule_passes_when_one_event_matches_with_strict_json_equality() {
        let mut packs = LintPacks::default();
        packs.add(0, &json!({"type": "assay.adapter.a2a.task.requested", "data": {"discovery": {"agent_card_visible": "true"}}}));
        packs.add(1, &json!({"type": "assay.adapter.a2a.message", "data": {"discovery": {"extended_card_access_visible": true}}}));
        let outcomes = packs.finish();
        let shown: Vec<(&str, Vec<usize>)> = outcomes
            .iter()
            .map(|outcome| (outcome.rule, outcome.matched.clone()))
            .collect();
        assert_eq!(
            shown,
            vec![
                ("A2A-001", vec![]),
                ("A2A-002", vec![0]),
                ("A2A-003", vec![]),
                ("A2A-DC-001", vec![]),
                ("A2A-DC-002", vec![1]),
            ]
        );
        assert!(!outcomes[0].passes() && outcomes[1].passes());
        assert_eq!(MATCHERS.len(), A2A_LINT_TABLE.rows.len());
    }
}
