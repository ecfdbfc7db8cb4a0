//! ContextCore's two mappings as data: its handoff statuses to its own A2A-style TaskState
//! (doc §Protocol 7), with the A2A spec's v0.3 and v1.0 names where a name corresponds, and
//! the handoff fields to OTel GenAI span attributes (doc §3).
//!
//! ContextCore's `TaskState` (PENDING, WORKING, ...) is ContextCore's own enum, not the A2A
//! spec's: A2A has no `pending`, spells `canceled` with one L, and has `auth-required` and
//! `unknown`. The A2A columns below are the inspector's name correspondence, labelled as
//! such; they are never conformance with the A2A spec.

use crate::json::JsonPath;
use crate::profiles::detect::ProfileKind;
use crate::profiles::rows::clip;
use serde::Serialize;
use serde_json::Value;

/// Where an A2A spec name in the state table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MappingBasis {
    /// ContextCore's state name matches an A2A state name (case and spelling aside).
    NameCorrespondence,
    /// No A2A state of that name; the nearest A2A state, chosen by the inspector.
    Nearest,
    /// No A2A state corresponds.
    NoMapping,
}

/// One row of the status table.
#[derive(Debug, Serialize)]
pub struct StateMappingRow {
    /// The ContextCore handoff status.
    pub status: &'static str,
    /// ContextCore's own TaskState the doc maps it to.
    pub contextcore_task_state: Option<&'static str>,
    /// `Both`, or `CC -> A2A` when the reverse maps elsewhere.
    pub direction: &'static str,
    /// The A2A v0.3 (JSON-RPC) state name, where one corresponds.
    pub a2a_v03: Option<&'static str>,
    /// The A2A v1.0 state name, where one corresponds.
    pub a2a_v10: Option<&'static str>,
    pub basis: MappingBasis,
    pub note: &'static str,
}

static STATE_ROWS: [StateMappingRow; 10] = [
    StateMappingRow {
        status: "pending",
        contextcore_task_state: Some("PENDING"),
        direction: "Both",
        a2a_v03: Some("submitted"),
        a2a_v10: Some("TASK_STATE_SUBMITTED"),
        basis: MappingBasis::Nearest,
        note: "A2A has no `pending`; `submitted` is the nearest A2A state (the inspector's choice, not ContextCore's)",
    },
    StateMappingRow {
        status: "accepted",
        contextcore_task_state: Some("WORKING"),
        direction: "CC -> A2A",
        a2a_v03: Some("working"),
        a2a_v10: Some("TASK_STATE_WORKING"),
        basis: MappingBasis::NameCorrespondence,
        note: "the reverse maps WORKING to in_progress",
    },
    StateMappingRow {
        status: "in_progress",
        contextcore_task_state: Some("WORKING"),
        direction: "Both",
        a2a_v03: Some("working"),
        a2a_v10: Some("TASK_STATE_WORKING"),
        basis: MappingBasis::NameCorrespondence,
        note: "",
    },
    StateMappingRow {
        status: "input_required",
        contextcore_task_state: Some("INPUT_REQUIRED"),
        direction: "Both",
        a2a_v03: Some("input-required"),
        a2a_v10: Some("TASK_STATE_INPUT_REQUIRED"),
        basis: MappingBasis::NameCorrespondence,
        note: "",
    },
    StateMappingRow {
        status: "completed",
        contextcore_task_state: Some("COMPLETED"),
        direction: "Both",
        a2a_v03: Some("completed"),
        a2a_v10: Some("TASK_STATE_COMPLETED"),
        basis: MappingBasis::NameCorrespondence,
        note: "",
    },
    StateMappingRow {
        status: "failed",
        contextcore_task_state: Some("FAILED"),
        direction: "Both",
        a2a_v03: Some("failed"),
        a2a_v10: Some("TASK_STATE_FAILED"),
        basis: MappingBasis::NameCorrespondence,
        note: "",
    },
    StateMappingRow {
        status: "timeout",
        contextcore_task_state: Some("FAILED"),
        direction: "CC -> A2A",
        a2a_v03: Some("failed"),
        a2a_v10: Some("TASK_STATE_FAILED"),
        basis: MappingBasis::NameCorrespondence,
        note: "lossy: the reverse maps FAILED to failed",
    },
    StateMappingRow {
        status: "cancelled",
        contextcore_task_state: Some("CANCELLED"),
        direction: "Both",
        a2a_v03: Some("canceled"),
        a2a_v10: Some("TASK_STATE_CANCELED"),
        basis: MappingBasis::NameCorrespondence,
        note: "A2A spells it with one L (v0.3 REST used TASK_STATE_CANCELLED)",
    },
    StateMappingRow {
        status: "rejected",
        contextcore_task_state: Some("REJECTED"),
        direction: "Both",
        a2a_v03: Some("rejected"),
        a2a_v10: Some("TASK_STATE_REJECTED"),
        basis: MappingBasis::NameCorrespondence,
        note: "",
    },
    StateMappingRow {
        status: "expired",
        contextcore_task_state: None,
        direction: "-",
        a2a_v03: None,
        a2a_v10: None,
        basis: MappingBasis::NoMapping,
        note: "CC-CONTRACT only; ContextCore gives no mapping and A2A has no such state",
    },
];

/// The whole status table, in the doc's order (plus CC-CONTRACT's `expired`).
pub fn state_mapping_rows() -> &'static [StateMappingRow] {
    &STATE_ROWS
}

/// What this packet's status maps to.
#[derive(Clone, Debug, Serialize)]
pub struct StateMapping {
    pub path: JsonPath,
    /// The status as written (`None`: absent; ContextCore then defaults to `pending`).
    pub status: Option<String>,
    pub row: Option<&'static StateMappingRow>,
    /// ContextCore's adapter maps an unknown status to PENDING / `pending` without a word.
    pub silent_fallback: bool,
    pub note: String,
}

pub(crate) fn state_mapping(kind: ProfileKind, value: &Value) -> StateMapping {
    let path = JsonPath::root().key("status");
    let seen = path.lookup(value);
    let status = seen.and_then(Value::as_str);
    let looked_up = status.unwrap_or("pending");
    let row = STATE_ROWS.iter().find(|row| row.status == looked_up);
    let contract_only = looked_up == "expired" && kind != ProfileKind::CcContract;
    let (row, silent_fallback, note) = match (seen, row) {
        (None, row) => (
            row,
            false,
            "status absent: ContextCore defaults to `pending`".to_owned(),
        ),
        (Some(_), Some(row)) if !contract_only => (Some(row), false, String::new()),
        (Some(other), _) => (
            STATE_ROWS.first(),
            true,
            format!(
                "status {} is not a ContextCore status; ContextCore's TaskAdapter silently falls back to PENDING / `pending`",
                clip(&other.to_string())
            ),
        ),
    };
    StateMapping {
        path,
        status: seen.map(|v| {
            clip(
                v.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| v.to_string())
                    .as_str(),
            )
        }),
        row,
        silent_fallback,
        note,
    }
}

/// One row of the OTel GenAI mapping table (doc §3).
#[derive(Debug, Serialize)]
pub struct OtelMappingRow {
    /// The handoff field (CC-MSG naming), or `-` for a constant.
    pub field: &'static str,
    pub legacy: Option<&'static str>,
    pub otel: Option<&'static str>,
    /// A constant value the SDK always sets.
    pub constant: Option<&'static str>,
    pub source: &'static str,
}

static OTEL_ROWS: [OtelMappingRow; 8] = [
    OtelMappingRow {
        field: "id",
        legacy: Some("handoff.id"),
        otel: Some("gen_ai.tool.call.id"),
        constant: None,
        source: "doc §3 OTel GenAI mapping",
    },
    OtelMappingRow {
        field: "capability_id",
        legacy: Some("handoff.capability_id"),
        otel: Some("gen_ai.tool.name"),
        constant: None,
        source: "doc §3 OTel GenAI mapping",
    },
    OtelMappingRow {
        field: "inputs",
        legacy: Some("handoff.inputs"),
        otel: Some("gen_ai.tool.call.arguments"),
        constant: None,
        source: "doc §3 OTel GenAI mapping (value is JSON text)",
    },
    OtelMappingRow {
        field: "-",
        legacy: None,
        otel: Some("gen_ai.tool.type"),
        constant: Some("agent_handoff"),
        source: "doc §3 OTel GenAI mapping",
    },
    OtelMappingRow {
        field: "-",
        legacy: None,
        otel: Some("gen_ai.operation.name"),
        constant: Some("handoff.request"),
        source: "create_handoff (agent/handoff.py)",
    },
    OtelMappingRow {
        field: "from_agent",
        legacy: Some("handoff.from_agent"),
        otel: None,
        constant: None,
        source: "create_handoff (agent/handoff.py)",
    },
    OtelMappingRow {
        field: "to_agent",
        legacy: Some("handoff.to_agent"),
        otel: None,
        constant: None,
        source: "create_handoff (agent/handoff.py)",
    },
    OtelMappingRow {
        field: "priority",
        legacy: Some("handoff.priority"),
        otel: None,
        constant: None,
        source: "create_handoff (agent/handoff.py)",
    },
];

/// The OTel mapping table.
pub fn otel_mapping_rows() -> &'static [OtelMappingRow] {
    &OTEL_ROWS
}

/// One span attribute this packet maps to.
#[derive(Clone, Debug, Serialize)]
pub struct OtelAttribute {
    /// The attribute name (OTel GenAI where one exists, else the legacy name).
    pub attribute: &'static str,
    /// The legacy `handoff.*` attribute set beside it in the default dual-emit mode.
    pub legacy: Option<&'static str>,
    /// Where the value comes from in this packet (`None` for a constant).
    pub from: Option<JsonPath>,
    /// The value as it would be emitted (shortened); `None` when the field is absent.
    pub value: Option<String>,
    /// True when the inspector applied the doc's CC-MSG mapping to another shape's field.
    pub derived: bool,
}

/// The field playing `msg_field`'s part in each shape.
fn field_in_shape(kind: ProfileKind, msg_field: &str) -> (&'static str, bool) {
    match (kind, msg_field) {
        (ProfileKind::CcContract, "id") => ("handoff_id", true),
        (ProfileKind::CcStore, "id") => ("id", true),
        (ProfileKind::CcStore, "capability_id") => ("capabilityId", true),
        (ProfileKind::CcStore, "from_agent") => ("fromAgent", true),
        (ProfileKind::CcStore, "to_agent") => ("toAgent", true),
        (ProfileKind::CcStore, "inputs") => ("inputs", true),
        (ProfileKind::CcStore, "priority") => ("priority", true),
        (ProfileKind::CcContract, other) => (static_name(other), true),
        (_, other) => (static_name(other), false),
    }
}

fn static_name(field: &str) -> &'static str {
    OTEL_ROWS
        .iter()
        .map(|row| row.field)
        .find(|name| *name == field)
        .unwrap_or("-")
}

pub(crate) fn otel_attributes(kind: ProfileKind, value: &Value) -> Vec<OtelAttribute> {
    OTEL_ROWS
        .iter()
        .map(|row| {
            let attribute = row.otel.or(row.legacy).unwrap_or("-");
            let legacy = if row.otel.is_some() { row.legacy } else { None };
            if let Some(constant) = row.constant {
                return OtelAttribute {
                    attribute,
                    legacy,
                    from: None,
                    value: Some(constant.to_owned()),
                    derived: false,
                };
            }
            let (field, derived) = field_in_shape(kind, row.field);
            let path = JsonPath::root().key(field);
            let seen = path.lookup(value).map(|v| match v {
                Value::String(text) => clip(text),
                other => clip(&other.to_string()),
            });
            let seen = match (seen, row.field) {
                (None, "priority") => Some("normal (default)".to_owned()),
                (seen, _) => seen,
            };
            OtelAttribute {
                attribute,
                legacy,
                from: Some(path),
                value: seen,
                derived: derived && kind != ProfileKind::CcMsg,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_status_maps_with_a2a_names() {
        let mapping = state_mapping(ProfileKind::CcMsg, &json!({"status": "cancelled"}));
        let row = mapping.row.unwrap();
        assert_eq!(row.contextcore_task_state, Some("CANCELLED"));
        assert_eq!(row.a2a_v03, Some("canceled"));
        assert_eq!(row.a2a_v10, Some("TASK_STATE_CANCELED"));
        assert!(!mapping.silent_fallback);
    }

    #[test]
    fn unknown_status_falls_back_silently_like_contextcore() {
        let mapping = state_mapping(ProfileKind::CcMsg, &json!({"status": "paused"}));
        assert!(mapping.silent_fallback);
        assert_eq!(mapping.row.unwrap().status, "pending");
        let expired = state_mapping(ProfileKind::CcContract, &json!({"status": "expired"}));
        assert_eq!(expired.row.unwrap().basis, MappingBasis::NoMapping);
        assert!(!expired.silent_fallback);
    }

    #[test]
    fn otel_attributes_take_values_from_the_shape() {
        let msg = json!({"id":"h1","capability_id":"c","inputs":{"a":1}});
        let attrs = otel_attributes(ProfileKind::CcMsg, &msg);
        let get = |name: &str| attrs.iter().find(|a| a.attribute == name).unwrap().clone();
        assert_eq!(get("gen_ai.tool.call.id").value.as_deref(), Some("h1"));
        assert_eq!(
            get("gen_ai.tool.call.arguments").value.as_deref(),
            Some("{\"a\":1}")
        );
        assert_eq!(
            get("gen_ai.tool.type").value.as_deref(),
            Some("agent_handoff")
        );
        assert_eq!(
            get("handoff.priority").value.as_deref(),
            Some("normal (default)")
        );
        let store = json!({"id":"h2","capabilityId":"c2"});
        let attrs = otel_attributes(ProfileKind::CcStore, &store);
        let tool = attrs
            .iter()
            .find(|a| a.attribute == "gen_ai.tool.name")
            .unwrap();
        assert_eq!(tool.value.as_deref(), Some("c2"));
        assert!(tool.derived);
    }
}
