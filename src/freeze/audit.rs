//! Auditing canonical evidence produced elsewhere (a payload, an evidence event or a batch)
//! against the freeze, without the raw packet: every violation becomes a finding with a rule
//! id and a JSON path.

use super::states::{handoff_state, HandoffState};
use crate::a2a::{canonical_type_for, CanonicalType, Substitution};
use crate::json::JsonPath;
use crate::rules::{Finding, Severity};
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CanonicalShape {
    Payload,
    Event,
    Batch,
}

impl CanonicalShape {
    pub fn name(self) -> &'static str {
        match self {
            CanonicalShape::Payload => "canonical payload",
            CanonicalShape::Event => "evidence event",
            CanonicalShape::Batch => "adapter batch",
        }
    }
}

/// The top-level members only the adapter writes into a payload (spec section 7): a raw
/// capture never carries them, so any one of them is positive evidence of a payload.
pub const PAYLOAD_MARKERS: [&str; 3] = ["adapter_id", "protocol_name", "upstream_event_type"];

/// The top-level members [`detect_canonical`] looks at: an object with none of them is not
/// canonical output, whatever else it holds.
pub const CANONICAL_MARKERS: [&str; 5] = [
    "adapter_id",
    "protocol_name",
    "upstream_event_type",
    "specversion",
    "events",
];

/// Recognises canonical adapter output by the members only it carries (never by a guess from
/// members a raw packet can hold too, such as `agent` or `handoff`), with the evidence.
pub fn detect_canonical(value: &Value) -> Option<(CanonicalShape, &'static str)> {
    let object = value.as_object()?;
    if let Some(events) = object.get("events").and_then(Value::as_array) {
        if object.contains_key("lossiness") {
            return Some((
                CanonicalShape::Batch,
                "the adapter's batch envelope: an `events` array and `lossiness`",
            ));
        }
        let cloud_event = |event: &Value| event.get("specversion").is_some();
        if !events.is_empty() && events.iter().all(cloud_event) {
            return Some((
                CanonicalShape::Batch,
                "the adapter's batch envelope: an `events` array of CloudEvents (`specversion`)",
            ));
        }
    }
    let event_type = object.get("type").and_then(Value::as_str).unwrap_or("");
    if object.contains_key("specversion")
        && (event_type.starts_with("assay.adapter.a2a.") || object.contains_key("data"))
    {
        return Some((
            CanonicalShape::Event,
            "the evidence event's CloudEvents envelope (`specversion` with `type` or `data`)",
        ));
    }
    let marker = PAYLOAD_MARKERS
        .iter()
        .find(|marker| object.contains_key(**marker))?;
    let reason = match *marker {
        "adapter_id" => "`adapter_id`, a member only the adapter writes into a payload",
        "protocol_name" => "`protocol_name`, a member only the adapter writes into a payload",
        _ => "`upstream_event_type`, a member only the adapter writes into a payload",
    };
    Some((CanonicalShape::Payload, reason))
}

#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    pub shape: CanonicalShape,
    pub findings: Vec<Finding>,
    /// The named state of each audited payload's handoff (in order), `None` where not legal.
    pub states: Vec<Option<HandoffState>>,
    /// What the audited payloads show in the freeze's favour, beyond the absence of errors.
    pub supports: AuditSupport,
}

impl AuditSupport {
    pub const SYNTHETIC: &'static str = "synthetic_task_not_counted";
    pub const TASK_UPDATED: &'static str = "task_updated_not_promoted";

    /// The keys `check --format json` writes under `audit.supports`.
    pub fn keys(self) -> Vec<&'static str> {
        let mut keys = Vec::new();
        if self.synthetic_task_not_counted {
            keys.push(Self::SYNTHETIC);
        }
        if self.task_updated_not_promoted {
            keys.push(Self::TASK_UPDATED);
        }
        keys
    }
}

/// Payloads whose handoff shows one of the freeze's negatives holding, the way a converted
/// packet's rows do (SYN, N7): the review checklist counts them as support, naming the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AuditSupport {
    /// `task.id` is the synthetic `unknown-task` and `task_ref_visible` is false (Q4).
    pub synthetic_task_not_counted: bool,
    /// A `task.updated` event with `task.kind` "delegation" whose handoff stays not visible (Q5).
    pub task_updated_not_promoted: bool,
}

impl Audit {
    pub fn conforms(&self) -> bool {
        !self
            .findings
            .iter()
            .any(|finding| finding.severity == Severity::Error)
    }
}

/// Audits `value` as the given shape.
pub fn audit(value: &Value, shape: CanonicalShape) -> Audit {
    let mut auditor = Auditor {
        findings: Vec::new(),
        states: Vec::new(),
        supports: AuditSupport::default(),
    };
    let root = JsonPath::root();
    match shape {
        CanonicalShape::Payload => auditor.payload(value, &root, None, None),
        CanonicalShape::Event => auditor.event(value, &root, None),
        CanonicalShape::Batch => auditor.batch(value, &root),
    }
    Audit {
        shape,
        findings: auditor.findings,
        states: auditor.states,
        supports: auditor.supports,
    }
}

struct Auditor {
    findings: Vec<Finding>,
    states: Vec<Option<HandoffState>>,
    supports: AuditSupport,
}

const HANDOFF_KEYS: [&str; 4] = [
    "visible",
    "source_kind",
    "task_ref_visible",
    "message_ref_visible",
];

impl Auditor {
    fn error(&mut self, rule: &str, path: JsonPath, message: impl Into<String>) {
        self.findings
            .push(Finding::new(rule, Severity::Error, path, message));
    }

    fn warn(&mut self, rule: &str, path: JsonPath, message: impl Into<String>) {
        self.findings
            .push(Finding::new(rule, Severity::Warning, path, message));
    }

    fn batch(&mut self, value: &Value, path: &JsonPath) {
        let Some(events) = value.get("events").and_then(Value::as_array) else {
            self.error("HP", path.key("events"), "a batch needs an `events` array");
            return;
        };
        let substitutions = lossiness_substitutions(value.get("lossiness"));
        for (index, event) in events.iter().enumerate() {
            self.event(
                event,
                &path.key("events").index(index),
                substitutions.as_deref(),
            );
        }
    }

    fn event(&mut self, value: &Value, path: &JsonPath, substitutions: Option<&[Substitution]>) {
        let Some(object) = value.as_object() else {
            self.error(
                "ET",
                path.clone(),
                "an evidence event must be a JSON object",
            );
            return;
        };
        let event_type = object.get("type").and_then(Value::as_str);
        let canonical = event_type.and_then(CanonicalType::parse);
        if canonical.is_none() {
            self.error(
                "ET",
                path.key("type"),
                format!(
                    "event type {} is not one of the five canonical A2A adapter types",
                    shown(object.get("type"))
                ),
            );
        }
        let Some(data) = object.get("data") else {
            self.error(
                "HP",
                path.key("data"),
                "the event has no `data` payload, so no handoff object",
            );
            return;
        };
        if let (Some(canonical), Some(payload)) = (canonical, data.as_object()) {
            let expected = match payload.get("upstream_event_type").and_then(Value::as_str) {
                Some(upstream) => {
                    canonical_type_for(Some(upstream)).unwrap_or(CanonicalType::Message)
                }
                None => CanonicalType::Message,
            };
            // Without upstream_event_type the packet had no string event_type, which only the
            // generic fallback emits; with one, the mapping decides.
            if expected != canonical {
                self.error(
                    "ET",
                    path.key("type"),
                    format!(
                        "event type {} does not match the payload: upstream_event_type {} maps to {}",
                        canonical.name(),
                        shown(payload.get("upstream_event_type")),
                        expected.name()
                    ),
                );
            }
        }
        self.payload(data, &path.key("data"), canonical, substitutions);
    }

    fn payload(
        &mut self,
        value: &Value,
        path: &JsonPath,
        event_type: Option<CanonicalType>,
        substitutions: Option<&[Substitution]>,
    ) {
        let Some(payload) = value.as_object() else {
            self.error(
                "HP",
                path.clone(),
                "the canonical payload must be a JSON object",
            );
            self.states.push(None);
            return;
        };
        for holder in ["discovery", "agent", "task", "message", "artifact"] {
            if payload
                .get(holder)
                .and_then(|object| object.get("handoff"))
                .is_some()
            {
                self.error(
                    "HL",
                    path.key(holder).key("handoff"),
                    format!(
                        "handoff must be a top-level sibling on the payload, not inside `{holder}`"
                    ),
                );
            }
        }
        let Some(handoff) = payload.get("handoff") else {
            self.error(
                "HP",
                path.key("handoff"),
                "the payload has no top-level `handoff` object",
            );
            self.states.push(None);
            return;
        };
        let handoff_path = path.key("handoff");
        self.states.push(handoff_state(handoff));
        let Some(handoff) = handoff.as_object() else {
            self.error(
                "HT",
                handoff_path,
                format!(
                    "handoff must be an object, found {}",
                    crate::json::type_with_article(handoff)
                ),
            );
            return;
        };
        self.shape(handoff, &handoff_path);
        self.semantics(payload, handoff, path, event_type, substitutions);
    }

    fn shape(&mut self, handoff: &Map<String, Value>, path: &JsonPath) {
        for key in HANDOFF_KEYS {
            if !handoff.contains_key(key) {
                self.error("HK", path.key(key), format!("handoff is missing `{key}`"));
            }
        }
        for key in handoff
            .keys()
            .filter(|key| !HANDOFF_KEYS.contains(&key.as_str()))
        {
            self.error(
                "HK",
                path.key(key),
                format!("handoff has an extra key `{}`", crate::json::safe_text(key)),
            );
        }
        for key in ["visible", "task_ref_visible", "message_ref_visible"] {
            if let Some(value) = handoff.get(key).filter(|value| !value.is_boolean()) {
                self.error(
                    "HT",
                    path.key(key),
                    format!(
                        "`{key}` must be a boolean, found {}",
                        crate::json::type_with_article(value)
                    ),
                );
            }
        }
        match handoff.get("source_kind") {
            Some(Value::String(kind)) if kind == "typed_payload" || kind == "unknown" => {}
            Some(Value::String(kind)) => self.error(
                "HE",
                path.key("source_kind"),
                format!(
                    "source_kind \"{}\" is outside the v1 enum (typed_payload | unknown)",
                    crate::json::safe_text(kind)
                ),
            ),
            Some(other) => self.error(
                "HT",
                path.key("source_kind"),
                format!(
                    "`source_kind` must be a string, found {}",
                    crate::json::type_with_article(other)
                ),
            ),
            None => {}
        }
    }

    fn semantics(
        &mut self,
        payload: &Map<String, Value>,
        handoff: &Map<String, Value>,
        path: &JsonPath,
        event_type: Option<CanonicalType>,
        substitutions: Option<&[Substitution]>,
    ) {
        let handoff_path = path.key("handoff");
        let flag = |key: &str| handoff.get(key) == Some(&Value::Bool(true));
        let visible = flag("visible");
        let source_kind = handoff.get("source_kind").and_then(Value::as_str);
        match (visible, source_kind) {
            (true, Some("unknown")) => self.error(
                "HE",
                handoff_path.key("source_kind"),
                "visible is true but source_kind is \"unknown\"",
            ),
            (false, Some("typed_payload")) => self.error(
                "HE",
                handoff_path.key("source_kind"),
                "source_kind is \"typed_payload\" but visible is false",
            ),
            _ => {}
        }
        let upstream = payload.get("upstream_event_type").and_then(Value::as_str);
        let task = payload.get("task").and_then(Value::as_object);
        let task_id = task.and_then(|task| task.get("id")).and_then(Value::as_str);
        let task_kind = task
            .and_then(|task| task.get("kind"))
            .and_then(Value::as_str);
        let message_id = payload
            .get("message")
            .and_then(|message| message.get("id"))
            .and_then(Value::as_str);
        if task_id == Some("unknown-task") && !flag("task_ref_visible") {
            self.supports.synthetic_task_not_counted = true;
        }
        let updated = event_type.or_else(|| canonical_type_for(upstream));
        if updated == Some(CanonicalType::TaskUpdated)
            && task_kind == Some("delegation")
            && !visible
        {
            self.supports.task_updated_not_promoted = true;
        }
        let generic = event_type == Some(CanonicalType::Message)
            || (event_type.is_none()
                && upstream.is_some_and(|upstream| canonical_type_for(Some(upstream)).is_none()));

        if visible {
            let event_ok = upstream == Some("task.requested")
                && event_type.is_none_or(|event_type| event_type == CanonicalType::TaskRequested);
            if !event_ok {
                let rule = match event_type.or_else(|| canonical_type_for(upstream)) {
                    Some(CanonicalType::TaskUpdated) => "N7",
                    Some(CanonicalType::ArtifactShared) => "N1",
                    Some(CanonicalType::AgentCapabilities) => "X3",
                    _ if generic => "N2",
                    _ => "P",
                };
                self.error(
                    rule,
                    handoff_path.key("visible"),
                    format!(
                        "visible is true but upstream_event_type is {}; only task.requested can promote",
                        shown(payload.get("upstream_event_type"))
                    ),
                );
            }
            if task_kind != Some("delegation") {
                self.error(
                    "N5",
                    handoff_path.key("visible"),
                    format!(
                        "visible is true but task.kind is {}, not \"delegation\"",
                        shown(task.and_then(|t| t.get("kind")))
                    ),
                );
            }
        } else {
            for key in ["task_ref_visible", "message_ref_visible"] {
                if flag(key) {
                    self.error(
                        "HD",
                        handoff_path.key(key),
                        format!("{key} is true while visible is false"),
                    );
                }
            }
        }

        if flag("task_ref_visible") {
            match task_id {
                None => self.error(
                    "TR",
                    handoff_path.key("task_ref_visible"),
                    "task_ref_visible is true but the payload has no task.id",
                ),
                Some("unknown-task") => self.synthetic_task(payload, path, substitutions),
                Some(_) => {}
            }
        }
        if flag("message_ref_visible") {
            if message_id.is_none() {
                self.error(
                    "MR",
                    handoff_path.key("message_ref_visible"),
                    "message_ref_visible is true but the payload has no message.id",
                );
            } else if generic {
                self.error(
                    "N2",
                    handoff_path.key("message_ref_visible"),
                    "message_ref_visible is true on a generic message fallback event",
                );
            }
        }
    }

    /// `task_ref_visible` with task.id "unknown-task": synthetic unless the evidence says otherwise.
    fn synthetic_task(
        &mut self,
        payload: &Map<String, Value>,
        path: &JsonPath,
        substitutions: Option<&[Substitution]>,
    ) {
        let at = path.key("handoff").key("task_ref_visible");
        match substitutions {
            Some(subs) if subs.contains(&Substitution::TaskId) => {
                self.error("SYN", at, "task_ref_visible is true but task.id is the substituted unknown-task (lossiness notes)")
            }
            Some(_) => {}
            None => match payload.get("unmapped_fields_count").and_then(Value::as_u64) {
                // Each substitution adds one unmapped field; none means the id was typed upstream.
                Some(0) => {}
                _ => self.warn(
                    "SYN",
                    at,
                    "task_ref_visible is true with task.id \"unknown-task\" and unmapped fields > 0: it may be the synthetic substitute (no lossiness notes to tell)",
                ),
            },
        }
    }
}

/// Substitutions named by a batch's lossiness notes, when it has notes.
fn lossiness_substitutions(lossiness: Option<&Value>) -> Option<Vec<Substitution>> {
    let notes = lossiness?.get("notes")?.as_array()?;
    let all = [
        Substitution::AgentId,
        Substitution::GenericMessageEvent,
        Substitution::TaskId,
        Substitution::ArtifactId,
        Substitution::MessageId,
    ];
    Some(
        all.into_iter()
            .filter(|sub| notes.iter().any(|note| note.as_str() == Some(sub.note())))
            .collect(),
    )
}

fn shown(value: Option<&Value>) -> String {
    match value {
        Some(value) => crate::json::shown_json(value, crate::rules::EVIDENCE_VALUE_CHARS),
        None => "absent".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules_of(value: Value) -> Vec<String> {
        let shape = detect_canonical(&value)
            .map(|(shape, _)| shape)
            .unwrap_or(CanonicalShape::Payload);
        audit(&value, shape)
            .findings
            .iter()
            .map(|finding| format!("{} {}", finding.rule, finding.path))
            .collect()
    }

    fn payload(handoff: Value) -> Value {
        json!({"adapter_id": "assay-adapter-a2a", "upstream_event_type": "task.requested",
               "agent": {"id": "a"}, "task": {"id": "t", "kind": "delegation"}, "message": {"id": "m"},
               "handoff": handoff, "unmapped_fields_count": 0})
    }

    #[test]
    fn legal_positive_payload_has_no_findings() {
        assert!(rules_of(payload(HandoffState::TaskAndMessageRefs.to_json())).is_empty());
    }

    #[test]
    fn shape_violations() {
        let mut value = payload(json!({"visible": "yes", "source_kind": "attributes", "extra": 1}));
        assert_eq!(
            rules_of(value.clone()),
            vec![
                "HK $.handoff.task_ref_visible",
                "HK $.handoff.message_ref_visible",
                "HK $.handoff.extra",
                "HT $.handoff.visible",
                "HE $.handoff.source_kind",
            ]
        );
        value.as_object_mut().unwrap().remove("handoff");
        value["discovery"] = json!({"handoff": HandoffState::Defaults.to_json()});
        assert_eq!(
            rules_of(value),
            vec!["HL $.discovery.handoff", "HP $.handoff"]
        );
    }

    #[test]
    fn visible_on_the_wrong_event_is_named_by_its_negative() {
        let mut value = payload(HandoffState::TaskRefOnly.to_json());
        value["upstream_event_type"] = json!("task.updated");
        assert_eq!(rules_of(value), vec!["N7 $.handoff.visible"]);
    }

    #[test]
    fn synthetic_task_in_a_batch_is_syn() {
        let mut data = payload(HandoffState::TaskAndMessageRefs.to_json());
        data["task"]["id"] = json!("unknown-task");
        data["unmapped_fields_count"] = json!(1);
        let event =
            json!({"specversion": "1.0", "type": "assay.adapter.a2a.task.requested", "data": data});
        let batch = json!({"events": [event], "lossiness": {"notes": ["missing task.id -> substituted unknown-task"]}});
        assert_eq!(
            rules_of(batch),
            vec!["SYN $.events[0].data.handoff.task_ref_visible"]
        );
    }

    #[test]
    fn event_type_must_match_the_payload() {
        let data = payload(HandoffState::Defaults.to_json());
        let event = json!({"specversion": "1.0", "type": "assay.adapter.a2a.artifact.shared", "data": data});
        assert_eq!(rules_of(event), vec!["ET $.type"]);
    }
}
