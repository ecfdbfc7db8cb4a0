//! Explaining a raw packet: every K1-A row evaluated with its evidence, and for each of the
//! four `handoff` fields the value and the row(s) that decided it.

use super::packet_members::{recognised_members, unmapped_value_spans, value_at};
use super::row_set::RowSet;
use super::states::{handoff_state, HandoffState};
use super::table::COVERAGE_ROW_IDS;
use crate::a2a::{
    canonical_type_for, convert, CanonicalType, Conversion, ConvertOptions, Mode, Substitution,
    TypedFields, UnmappedKeys,
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
    /// Every K1-A decision row (P, TR, MR, SYN, N1-N7, X1-X10), in table order. The rows that
    /// look at every unmapped top-level key (N6, X9) hold the rest of their evidence only:
    /// [`Explanation::evidence`] gives all of a row's.
    pub rows: Vec<RuleOutcome>,
    /// The four fields; empty when the packet was rejected.
    pub fields: Vec<FieldDecision>,
    pub state: Option<HandoffState>,
    /// Conversion-table rows that applied: the rejecting check, or the substitutions made.
    pub conversion_rows: Vec<&'static str>,
    /// The packet's recognised top-level members, read from its text for the evidence
    /// (`None`: rejected before its fields were read, or a packet whose tree would pass
    /// `json::tree_cap`, which no row reads).
    members: Option<Value>,
    /// Where each unmapped key's value lies in the packet's text, found when their evidence
    /// is first asked for.
    unmapped_spans: std::sync::OnceLock<Vec<std::ops::Range<usize>>>,
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

    /// The packet's recognised top-level members (`agent`, `task`, `attributes`...) as a
    /// tree: where every path a row's evidence names lies, but the unmapped keys. `None` when
    /// no row read the packet.
    pub fn members(&self) -> Option<&Value> {
        self.members.as_ref()
    }

    /// Everything `row` looked at: the evidence it holds, then for N6 and X9 each unmapped
    /// top-level key with its value, read from the packet's text as they are asked for. Held
    /// as evidence, a packet of 200k keys cost 56 MB an explanation (a path and a copy of the
    /// value per key, in two rows), and the inspector's detail kept six explanations.
    pub fn evidence<'a>(
        &'a self,
        row: &'a RuleOutcome,
    ) -> impl Iterator<Item = Evidence> + Clone + 'a {
        let keys = self
            .unmapped_keys_looked_at(row)
            .into_iter()
            .flat_map(move |keys| {
                let bytes = self.conversion.packet.bytes().unwrap_or_default();
                let spans = self
                    .unmapped_spans
                    .get_or_init(|| unmapped_value_spans(bytes, keys));
                keys.iter().zip(spans).map(move |(key, span)| Evidence {
                    path: JsonPath::keys(&[key]),
                    seen: value_at(bytes, span),
                })
            });
        row.evidence.iter().cloned().chain(keys)
    }

    /// How many items [`Explanation::evidence`] gives for `row`, without building them.
    pub fn evidence_count(&self, row: &RuleOutcome) -> usize {
        row.evidence.len()
            + self
                .unmapped_keys_looked_at(row)
                .map_or(0, UnmappedKeys::len)
    }

    /// The unmapped keys `row` looks at, when it read the packet.
    fn unmapped_keys_looked_at(&self, row: &RuleOutcome) -> Option<&UnmappedKeys> {
        if !UNMAPPED_KEY_ROWS.contains(&row.rule) || self.members.is_none() {
            return None;
        }
        Some(&self.conversion.fields.as_deref()?.unmapped_keys)
    }
}

/// The rows whose evidence ends with every unmapped top-level key ([`Explanation::evidence`]).
const UNMAPPED_KEY_ROWS: [&str; 2] = ["N6", "X9"];

/// What the rows look at, gathered once. Matching needs only the typed fields and the
/// emitted payload; the raw packet is needed only for evidence.
struct Facts<'a> {
    fields: &'a TypedFields,
    emitted: Option<CanonicalType>,
    mapped: Option<CanonicalType>,
    mode: Mode,
    substitutions: &'a [Substitution],
    rejected_rule: Option<&'static str>,
    /// Whether the packet carried `attributes` (when it was converted), and whether their
    /// `assay_g4` is an object: looked up once, the rows ask many times per packet.
    has_attributes: bool,
    has_assay_g4: bool,
    /// Unmapped top-level keys plus substitutions (the payload's `unmapped_fields_count`).
    unmapped: usize,
}

impl<'a> Facts<'a> {
    fn of(conversion: &'a Conversion) -> Option<Facts<'a>> {
        let fields = conversion.fields.as_ref()?;
        let converted = conversion.converted();
        let attributes = converted.and_then(|converted| converted.attributes());
        Some(Facts {
            has_attributes: attributes.is_some(),
            has_assay_g4: attributes.is_some_and(crate::a2a::Attributes::has_assay_g4),
            fields,
            emitted: converted.map(|converted| converted.canonical_type),
            mapped: canonical_type_for(fields.event_type.as_deref()),
            mode: conversion.mode,
            substitutions: converted
                .map(|converted| converted.lossiness.substitutions.as_slice())
                .unwrap_or(&[]),
            rejected_rule: conversion.error().map(|error| error.rule),
            unmapped: fields.unmapped_keys.len()
                + converted.map_or(0, |converted| converted.lossiness.substitutions.len()),
        })
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
        self.has_attributes
    }

    fn has_assay_g4(&self) -> bool {
        self.has_assay_g4
    }

    fn unmapped_count(&self) -> usize {
        self.unmapped
    }

    /// Whether row `id`'s case applies.
    fn matches(&self, id: &str) -> bool {
        use CanonicalType::*;
        let emitted = self.emitted.is_some();
        let weak = || {
            self.fields.agent_role.is_some()
                || self.has_attributes()
                || self.has_assay_g4()
                || self.unmapped_count() > 0
        };
        match id {
            "P" => self.positive(),
            "TR" => self.positive() && self.fields.task_id.is_some(),
            "MR" => self.positive() && self.fields.message_id.is_some(),
            "SYN" => self.substitutions.contains(&Substitution::TaskId),
            "N1" => self.is(ArtifactShared) && self.fields.task_id.is_some(),
            "N2" => self
                .substitutions
                .contains(&Substitution::GenericMessageEvent),
            "N3" => {
                self.mode == Mode::Strict
                    && self.rejected_rule == Some("S3")
                    && self.mapped == Some(TaskRequested)
            }
            "N4" => self.mode == Mode::Lenient && self.positive() && self.fields.task_id.is_none(),
            "N5" => self.is(TaskRequested) && !self.delegation(),
            "N6" => emitted && !self.positive() && weak(),
            "N7" | "X10" => self.is(TaskUpdated),
            "X1" => self.is(ArtifactShared),
            "X2" => self.is(Message),
            "X3" => self.is(AgentCapabilities),
            "X4" => self.is(TaskRequested) && self.fields.task_kind.is_none(),
            "X5" => self.is(TaskRequested) && self.fields.task_kind.is_some() && !self.delegation(),
            "X6" => emitted && !self.positive() && self.fields.agent_role.is_some(),
            "X7" => emitted && !self.positive() && self.has_attributes(),
            "X8" => emitted && !self.positive() && self.has_assay_g4(),
            "X9" => emitted && !self.positive() && self.unmapped_count() > 0,
            _ => false,
        }
    }

    /// The raw-packet paths row `id` looks at, with the values seen there; the unmapped
    /// keys N6 and X9 also look at are left to [`Explanation::evidence`].
    fn evidence(&self, id: &str, packet: &Value) -> Vec<Evidence> {
        let at = |keys: &[&str]| Evidence::at(JsonPath::keys(keys), packet);
        match id {
            "P" | "N5" | "N7" | "X10" => vec![at(&["event_type"]), at(&["task", "kind"])],
            "TR" | "SYN" => vec![at(&["task", "id"])],
            "MR" => vec![at(&["message", "id"])],
            "N1" | "X1" | "N3" => vec![at(&["event_type"]), at(&["task", "id"])],
            "N2" | "X2" => vec![at(&["event_type"]), at(&["message", "id"])],
            "N4" => vec![
                at(&["event_type"]),
                at(&["task", "kind"]),
                at(&["task", "id"]),
            ],
            "N6" => vec![at(&["agent", "role"]), at(&["attributes"])],
            "X3" => vec![at(&["event_type"])],
            "X4" | "X5" => vec![at(&["task", "kind"])],
            "X6" => vec![at(&["agent", "role"])],
            "X7" => vec![at(&["attributes"])],
            "X8" => vec![at(&["attributes", "assay_g4"])],
            _ => Vec::new(),
        }
    }
}

/// The K1-A rows a conversion matched, without building any evidence: what summaries and
/// coverage matrices need for a million packets.
pub fn matched_rows(conversion: &Conversion) -> RowSet {
    let mut rows = RowSet::default();
    if let Some(facts) = Facts::of(conversion) {
        for (index, id) in COVERAGE_ROW_IDS.into_iter().enumerate() {
            if facts.matches(id) {
                rows.0 |= 1 << index;
            }
        }
    }
    rows
}

/// Why a field that is not set by the positive rule keeps its default.
const NEGATIVE_DECIDERS: [&str; 10] = ["N1", "X1", "N2", "X2", "X3", "N7", "X10", "N5", "X4", "X5"];

/// Converts `payload` in the options' mode and explains the outcome.
pub fn explain(payload: &[u8], options: &ConvertOptions) -> Explanation {
    explain_conversion(convert(payload, options))
}

pub fn explain_conversion(conversion: Conversion) -> Explanation {
    let conversion_rows: Vec<&'static str> = match &conversion.result {
        Ok(converted) => converted
            .lossiness
            .substitutions
            .iter()
            .map(|sub| sub.rule())
            .collect(),
        Err(error) => vec![error.rule],
    };
    // The facts first: a packet rejected before its fields were read (an array of a million
    // small objects, say) is not read for evidence.
    let members =
        Facts::of(&conversion).and_then(|_| recognised_members(conversion.packet.bytes()?));
    let (rows, fields, state) = evaluate_rows(&conversion, members.as_ref());
    Explanation {
        conversion,
        rows,
        fields,
        state,
        conversion_rows,
        members,
        unmapped_spans: std::sync::OnceLock::new(),
    }
}

/// The rows behind each `handoff` field of canonical output (a payload, or an event's
/// `data`), where there is no raw packet to explain: the payload's recorded facts stand for
/// the typed fields (`upstream_event_type`, `agent.role`, `task.id`/`kind`, `message.id`,
/// `attributes`, `unmapped_fields_count`), and the same rows and field deciders as
/// [`explain_conversion`] run on them. The substitutions are the batch's lossiness notes when
/// known; otherwise `unknown-task` is read as the substituted task id and a `message` event of
/// an unmapped upstream type as the generic fallback (a literal `unknown-task` sent by the
/// agent reads the same in a payload alone). Evidence is left out: it names raw-packet paths
/// the payload does not have.
#[derive(Clone, Debug, Default)]
pub struct PayloadExplanation {
    pub rows: RowSet,
    pub fields: Vec<FieldDecision>,
}

pub fn explain_payload(
    payload: &Value,
    event_type: Option<CanonicalType>,
    known_substitutions: Option<&[Substitution]>,
) -> PayloadExplanation {
    let Some(object) = payload.as_object() else {
        return PayloadExplanation::default();
    };
    let text = |path: &[&str]| {
        path.iter()
            .try_fold(payload, |value, key| value.get(key))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    let upstream = text(&["upstream_event_type"]);
    let mapped = canonical_type_for(upstream.as_deref());
    let emitted = event_type.or(mapped).unwrap_or(CanonicalType::Message);
    let mut task_id = text(&["task", "id"]);
    let substitutions = match known_substitutions {
        Some(known) => known.to_vec(),
        None => {
            let mut inferred = Vec::new();
            if task_id.as_deref() == Some("unknown-task") {
                inferred.push(Substitution::TaskId);
            }
            if emitted == CanonicalType::Message && mapped.is_none() {
                inferred.push(Substitution::GenericMessageEvent);
            }
            inferred
        }
    };
    if substitutions.contains(&Substitution::TaskId) {
        // The raw packet had no task id: the adapter wrote the placeholder.
        task_id = None;
    }
    let fields = TypedFields {
        event_type: upstream,
        agent_role: text(&["agent", "role"]),
        task_id,
        task_kind: text(&["task", "kind"]),
        message_id: text(&["message", "id"]),
        ..TypedFields::default()
    };
    let attributes = object.get("attributes");
    let facts = Facts {
        fields: &fields,
        emitted: Some(emitted),
        mapped,
        mode: if substitutions.is_empty() {
            Mode::Strict
        } else {
            Mode::Lenient
        },
        substitutions: &substitutions,
        rejected_rule: None,
        has_attributes: attributes.is_some(),
        has_assay_g4: attributes
            .and_then(|attributes| attributes.get("assay_g4"))
            .is_some_and(Value::is_object),
        unmapped: object
            .get("unmapped_fields_count")
            .and_then(Value::as_u64)
            .unwrap_or(0) as usize,
    };
    let mut set = RowSet::default();
    let rows: Vec<RuleOutcome> = COVERAGE_ROW_IDS
        .iter()
        .map(|id| {
            let matched = facts.matches(id);
            if matched {
                set.insert(id);
            }
            RuleOutcome {
                rule: id,
                verdict: if matched {
                    Verdict::Matched
                } else {
                    Verdict::NotMatched
                },
                evidence: Vec::new(),
                message: None,
            }
        })
        .collect();
    let handoff = object.get("handoff").unwrap_or(&Value::Null);
    let mut fields = decide_fields(payload, &rows, handoff);
    for field in &mut fields {
        field.evidence.clear();
    }
    PayloadExplanation { rows: set, fields }
}

type Evaluated = (Vec<RuleOutcome>, Vec<FieldDecision>, Option<HandoffState>);

/// The rows and fields of `conversion`, their evidence read in `packet` (the packet's
/// recognised members).
fn evaluate_rows(conversion: &Conversion, packet: Option<&Value>) -> Evaluated {
    let read = Facts::of(conversion).and_then(|facts| Some((packet?, facts)));
    let Some((packet, facts)) = read else {
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
        return (rows, Vec::new(), None);
    };
    let rows: Vec<RuleOutcome> = COVERAGE_ROW_IDS
        .iter()
        .map(|id| {
            let verdict = if facts.matches(id) {
                Verdict::Matched
            } else {
                Verdict::NotMatched
            };
            RuleOutcome {
                rule: id,
                verdict,
                evidence: facts.evidence(id, packet),
                message: None,
            }
        })
        .collect();
    let converted = conversion.converted();
    let fields = converted
        .map(|converted| decide_fields(packet, &rows, converted.handoff()))
        .unwrap_or_default();
    let state = converted.and_then(|converted| handoff_state(converted.handoff()));
    (rows, fields, state)
}

fn decide_fields(packet: &Value, rows: &[RuleOutcome], handoff: &Value) -> Vec<FieldDecision> {
    let matched = |id: &str| {
        rows.iter()
            .any(|row| row.rule == id && row.verdict == Verdict::Matched)
    };
    let evidence = |keys: &[&str]| Evidence::at(JsonPath::keys(keys), packet);
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
mod tests;
