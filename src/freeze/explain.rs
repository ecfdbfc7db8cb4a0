//! Explaining a raw packet: every K1-A row evaluated with its evidence, and for each of the
//! four `handoff` fields the value and the row(s) that decided it.

use super::states::{handoff_state, HandoffState};
use super::table::COVERAGE_ROW_IDS;
use crate::a2a::{
    canonical_type_for, convert, CanonicalType, Conversion, ConvertOptions, Mode, Substitution,
    TypedFields,
};
use crate::json::JsonPath;
use crate::rules::{Evidence, RuleOutcome, Verdict};
use serde::Serialize;
use serde_json::Value;

/// The value of one handoff field and why it has it.
#[derive(Clone, Debug, Serialize)]
pub struct FieldDecision {
    pub field: &'static str,
    pub value: Value,
    pub decided_by: Vec<&'static str>,
    pub evidence: Vec<Evidence>,
}

#[derive(Clone, Debug)]
pub struct Explanation {
    pub conversion: Conversion,
    /// Every K1-A decision row (P, TR, MR, SYN, N1-N7, X1-X10), in table order.
    pub rows: Vec<RuleOutcome>,
    /// The four fields; empty when the packet was rejected.
    pub fields: Vec<FieldDecision>,
    pub state: Option<HandoffState>,
    /// Conversion-table rows that applied: the rejecting check, or the substitutions made.
    pub conversion_rows: Vec<&'static str>,
}

impl Explanation {
    pub fn mode(&self) -> Mode {
        self.conversion.mode
    }

    pub fn matched(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.rows
            .iter()
            .filter(|row| row.verdict == Verdict::Matched)
            .map(|row| row.rule)
    }

    pub fn row(&self, id: &str) -> Option<&RuleOutcome> {
        self.rows.iter().find(|row| row.rule == id)
    }
}

/// What the rows look at, gathered once.
struct Facts<'a> {
    packet: &'a Value,
    fields: &'a TypedFields,
    emitted: Option<CanonicalType>,
    mapped: Option<CanonicalType>,
    mode: Mode,
    substitutions: &'a [Substitution],
    rejected_rule: Option<&'static str>,
}

impl Facts<'_> {
    fn evidence(&self, keys: &[&str]) -> Evidence {
        Evidence::at(JsonPath::keys(keys), self.packet)
    }

    fn is(&self, kind: CanonicalType) -> bool {
        self.emitted == Some(kind)
    }

    fn delegation(&self) -> bool {
        self.fields.task_kind.as_deref() == Some("delegation")
    }

    fn positive(&self) -> bool {
        self.is(CanonicalType::TaskRequested) && self.delegation()
    }

    fn has_attributes(&self) -> bool {
        self.packet.get("attributes").is_some()
    }

    fn has_assay_g4(&self) -> bool {
        self.packet
            .get("attributes")
            .and_then(|attributes| attributes.get("assay_g4"))
            .is_some_and(Value::is_object)
    }

    fn unmapped_count(&self) -> usize {
        self.fields.unmapped_keys.len() + self.substitutions.len()
    }

    fn unmapped_evidence(&self) -> Vec<Evidence> {
        self.fields
            .unmapped_keys
            .iter()
            .map(|key| self.evidence(&[key]))
            .collect()
    }

    /// Evaluates one row: whether its case applies, and the evidence looked at.
    fn row(&self, id: &'static str) -> (bool, Vec<Evidence>) {
        use CanonicalType::*;
        let event = || self.evidence(&["event_type"]);
        let kind = || self.evidence(&["task", "kind"]);
        let task_id = || self.evidence(&["task", "id"]);
        let message_id = || self.evidence(&["message", "id"]);
        let emitted = self.emitted.is_some();
        match id {
            "P" => (self.positive(), vec![event(), kind()]),
            "TR" => (
                self.positive() && self.fields.task_id.is_some(),
                vec![task_id()],
            ),
            "MR" => (
                self.positive() && self.fields.message_id.is_some(),
                vec![message_id()],
            ),
            "SYN" => (
                self.substitutions.contains(&Substitution::TaskId),
                vec![task_id()],
            ),
            "N1" => (
                self.is(ArtifactShared) && self.fields.task_id.is_some(),
                vec![event(), task_id()],
            ),
            "N2" => (
                self.substitutions
                    .contains(&Substitution::GenericMessageEvent),
                vec![event(), message_id()],
            ),
            "N3" => (
                self.mode == Mode::Strict
                    && self.rejected_rule == Some("S3")
                    && self.mapped == Some(TaskRequested),
                vec![event(), task_id()],
            ),
            "N4" => (
                self.mode == Mode::Lenient && self.positive() && self.fields.task_id.is_none(),
                vec![event(), kind(), task_id()],
            ),
            "N5" => (
                self.is(TaskRequested) && !self.delegation(),
                vec![event(), kind()],
            ),
            "N6" => {
                let weak = self.fields.agent_role.is_some()
                    || self.has_attributes()
                    || self.has_assay_g4()
                    || self.unmapped_count() > 0;
                let mut evidence = vec![
                    self.evidence(&["agent", "role"]),
                    self.evidence(&["attributes"]),
                ];
                evidence.extend(self.unmapped_evidence());
                (emitted && !self.positive() && weak, evidence)
            }
            "N7" | "X10" => (self.is(TaskUpdated), vec![event(), kind()]),
            "X1" => (self.is(ArtifactShared), vec![event(), task_id()]),
            "X2" => (self.is(Message), vec![event(), message_id()]),
            "X3" => (self.is(AgentCapabilities), vec![event()]),
            "X4" => (
                self.is(TaskRequested) && self.fields.task_kind.is_none(),
                vec![kind()],
            ),
            "X5" => (
                self.is(TaskRequested) && self.fields.task_kind.is_some() && !self.delegation(),
                vec![kind()],
            ),
            "X6" => (
                emitted && !self.positive() && self.fields.agent_role.is_some(),
                vec![self.evidence(&["agent", "role"])],
            ),
            "X7" => (
                emitted && !self.positive() && self.has_attributes(),
                vec![self.evidence(&["attributes"])],
            ),
            "X8" => (
                emitted && !self.positive() && self.has_assay_g4(),
                vec![self.evidence(&["attributes", "assay_g4"])],
            ),
            "X9" => (
                emitted && !self.positive() && self.unmapped_count() > 0,
                self.unmapped_evidence(),
            ),
            _ => (false, Vec::new()),
        }
    }
}

/// Why a field that is not set by the positive rule keeps its default.
const NEGATIVE_DECIDERS: [&str; 10] = ["N1", "X1", "N2", "X2", "X3", "N7", "X10", "N5", "X4", "X5"];

/// Converts `payload` in the options' mode and explains the outcome.
pub fn explain(payload: &[u8], options: &ConvertOptions) -> Explanation {
    explain_conversion(convert(payload, options))
}

pub fn explain_conversion(conversion: Conversion) -> Explanation {
    let converted = conversion.converted();
    let conversion_rows: Vec<&'static str> = match &conversion.result {
        Ok(converted) => converted
            .lossiness
            .substitutions
            .iter()
            .map(|sub| sub.rule())
            .collect(),
        Err(error) => vec![error.rule],
    };
    let (packet, fields) = match (conversion.packet.as_ref(), &conversion.fields) {
        (Some(packet), Some(fields)) => (packet, fields),
        _ => {
            // Rejected before the typed fields were read: no K1-A row can apply.
            let rows = COVERAGE_ROW_IDS
                .iter()
                .map(|id| RuleOutcome {
                    rule: id,
                    verdict: Verdict::NotMatched,
                    evidence: Vec::new(),
                    message: None,
                })
                .collect();
            return Explanation {
                conversion,
                rows,
                fields: Vec::new(),
                state: None,
                conversion_rows,
            };
        }
    };
    let facts = Facts {
        packet,
        fields,
        emitted: converted.map(|converted| converted.canonical_type),
        mapped: canonical_type_for(fields.event_type.as_deref()),
        mode: conversion.mode,
        substitutions: converted
            .map(|converted| converted.lossiness.substitutions.as_slice())
            .unwrap_or(&[]),
        rejected_rule: conversion.error().map(|error| error.rule),
    };
    let rows: Vec<RuleOutcome> = COVERAGE_ROW_IDS
        .iter()
        .map(|id| {
            let (matched, evidence) = facts.row(id);
            let verdict = if matched {
                Verdict::Matched
            } else {
                Verdict::NotMatched
            };
            RuleOutcome {
                rule: id,
                verdict,
                evidence,
                message: None,
            }
        })
        .collect();
    let field_decisions = converted
        .map(|converted| decide_fields(&facts, &rows, converted.handoff()))
        .unwrap_or_default();
    let state = converted.and_then(|converted| handoff_state(converted.handoff()));
    Explanation {
        conversion,
        rows,
        fields: field_decisions,
        state,
        conversion_rows,
    }
}

fn decide_fields(facts: &Facts<'_>, rows: &[RuleOutcome], handoff: &Value) -> Vec<FieldDecision> {
    let matched = |id: &str| {
        rows.iter()
            .any(|row| row.rule == id && row.verdict == Verdict::Matched)
    };
    let evidence = |keys: &[&str]| facts.evidence(keys);
    let event_and_kind = vec![evidence(&["event_type"]), evidence(&["task", "kind"])];
    let mut negatives: Vec<&'static str> = NEGATIVE_DECIDERS
        .into_iter()
        .filter(|id| matched(id))
        .collect();
    if matched("N6") {
        negatives.push("N6");
    }
    let positive = matched("P");
    let decision = |field: &'static str, decided_by: Vec<&'static str>, evidence: Vec<Evidence>| {
        FieldDecision {
            field,
            value: handoff.get(field).cloned().unwrap_or(Value::Null),
            decided_by,
            evidence,
        }
    };
    let visible_by = if positive {
        vec!["P"]
    } else {
        negatives.clone()
    };
    let task_ref = if !positive {
        decision(
            "task_ref_visible",
            negatives.clone(),
            vec![evidence(&["task", "id"])],
        )
    } else if matched("TR") {
        decision(
            "task_ref_visible",
            vec!["TR"],
            vec![evidence(&["task", "id"])],
        )
    } else {
        decision(
            "task_ref_visible",
            vec!["SYN", "N4"],
            vec![evidence(&["task", "id"])],
        )
    };
    let message_ref = if positive {
        decision(
            "message_ref_visible",
            vec!["MR"],
            vec![evidence(&["message", "id"])],
        )
    } else {
        decision(
            "message_ref_visible",
            negatives.clone(),
            vec![evidence(&["message", "id"])],
        )
    };
    vec![
        decision("visible", visible_by.clone(), event_and_kind.clone()),
        decision("source_kind", visible_by, event_and_kind),
        task_ref,
        message_ref,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explain_text(text: &str, mode: Mode) -> Explanation {
        explain(text.as_bytes(), &ConvertOptions::default().with_mode(mode))
    }

    #[test]
    fn positive_packet_is_decided_by_p_tr_mr() {
        let explanation = explain_text(
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"message":{"id":"m"}}"#,
            Mode::Strict,
        );
        let deciders: Vec<Vec<&str>> = explanation
            .fields
            .iter()
            .map(|field| field.decided_by.clone())
            .collect();
        assert_eq!(deciders, vec![vec!["P"], vec!["P"], vec!["TR"], vec!["MR"]]);
        assert_eq!(explanation.state, Some(HandoffState::TaskAndMessageRefs));
        assert_eq!(
            explanation.matched().collect::<Vec<_>>(),
            vec!["P", "TR", "MR"]
        );
    }

    #[test]
    fn analysis_kind_is_decided_by_n5_with_evidence() {
        let explanation = explain_text(
            r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"analysis"}}"#,
            Mode::Strict,
        );
        assert_eq!(explanation.fields[0].decided_by, vec!["N5", "X5"]);
        let shown: Vec<String> = explanation.fields[0]
            .evidence
            .iter()
            .map(Evidence::describe)
            .collect();
        assert_eq!(
            shown,
            vec![
                r#"$.event_type = "task.requested""#,
                r#"$.task.kind = "analysis""#
            ]
        );
        assert_eq!(explanation.state, Some(HandoffState::Defaults));
    }

    #[test]
    fn rejected_before_fields_matches_no_row() {
        let explanation = explain_text("not json", Mode::Lenient);
        assert_eq!(explanation.matched().count(), 0);
        assert_eq!(explanation.conversion_rows, vec!["C3"]);
        assert!(explanation.fields.is_empty());
    }
}
