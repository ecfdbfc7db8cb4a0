//! The K1-A frozen rule table and the adapter's conversion table, as data.
//!
//! Row ids are stable: `P`, `TR`, `MR`, `SYN`, `N1`-`N7`, `X1`-`X10` follow the freeze; the
//! `H*` rows carry the freeze's placement, presence, default and enum rules, used by the audit
//! of canonical evidence; `C*`, `S*` and `L*` are the conversion spec's checks, strict
//! rejections and lenient substitutions.

use crate::rules::{RuleRow, RuleTable};

const VISIBLE_MAY: &str = "A bounded handoff / delegation-route surface was observed on a typed A2A task-request packet (task.requested + task.kind == \"delegation\")";
const VISIBLE_MUST_NOT: &str = "Delegation succeeded, was allowed, was correct, reached the right target, or completed a full chain";
const DEFAULTS: &str = "all defaults: visible=false, source_kind=\"unknown\", task_ref_visible=false, message_ref_visible=false";
const NO_PROMOTION: &str =
    "A delegation or handoff took place; only that this packet shape does not promote in v1";

macro_rules! row {
    ($id:expr, $title:expr, $condition:expr, $result:expr, $may:expr, $must_not:expr, $source:expr) => {
        RuleRow {
            id: $id,
            title: $title,
            condition: $condition,
            result: $result,
            may_imply: $may,
            must_not_imply: $must_not,
            source: $source,
        }
    };
}

pub static K1A_TABLE: RuleTable = RuleTable {
    id: "k1a",
    name: "K1-A v1 handoff freeze",
    rows: &[
        row!("P", "positive typed rule",
            "canonical event type is assay.adapter.a2a.task.requested AND typed task.kind == \"delegation\"",
            "visible=true, source_kind=\"typed_payload\"", VISIBLE_MAY, VISIBLE_MUST_NOT, "K1-A §4.1 positive v1 source rule"),
        row!("TR", "task reference visible",
            "P holds AND upstream task.id is a JSON string present before any lenient substitution",
            "task_ref_visible=true",
            "A typed task.id from the upstream packet was visible on a packet that already satisfied handoff.visible",
            "Task identity verified, synthetic fallback accepted as real, or route completeness", "K1-A task_ref_visible rule"),
        row!("MR", "message reference visible",
            "P holds AND upstream message.id is a JSON string",
            "message_ref_visible=true",
            "A typed message.id from the upstream packet was visible on a packet that already satisfied handoff.visible",
            "Message legitimacy, target identity, or delegation success", "K1-A message_ref_visible rule"),
        row!("SYN", "synthetic task id never counts",
            "lenient mode substituted task.id = \"unknown-task\" (no typed task.id upstream)",
            "task_ref_visible=false", "",
            "Task identity verified, or synthetic fallback accepted as real", "K1-A synthetic fallback rule"),
        row!("N1", "artifact.shared with task.id", "artifact.shared packet with a typed task.id",
            DEFAULTS, "", NO_PROMOTION, "K1-A negative matrix N1"),
        row!("N2", "generic message fallback",
            "lenient: unmapped event_type falls back to assay.adapter.a2a.message",
            "all defaults, even if message.id or unknown-message exists", "", NO_PROMOTION, "K1-A negative matrix N2"),
        row!("N3", "strict task.requested without task.id",
            "strict mode, task.requested packet without a typed task.id",
            "measurement error; no emitted packet, so no handoff object", "",
            "Anything about the handoff: nothing was emitted", "K1-A negative matrix N3"),
        row!("N4", "lenient delegation without task.id",
            "lenient mode, task.requested with task.kind == \"delegation\" but no typed task.id",
            "visible=true, source_kind=\"typed_payload\", task_ref_visible=false; message_ref_visible follows typed message.id",
            VISIBLE_MAY, "Task identity: the task id is the synthetic unknown-task", "K1-A negative matrix N4"),
        row!("N5", "missing or non-delegation task.kind",
            "task.requested packet whose typed task.kind is missing or not \"delegation\"",
            DEFAULTS, "", NO_PROMOTION, "K1-A negative matrix N5"),
        row!("N6", "weak signals alone",
            "agent.role, attributes, attributes.assay_g4 (payload.discovery) or unmapped keys present, and P does not hold",
            DEFAULTS, "", NO_PROMOTION, "K1-A negative matrix N6"),
        row!("N7", "task.updated in v1", "canonical event type is assay.adapter.a2a.task.updated",
            "all defaults until a later freeze widens the positive rule", "", NO_PROMOTION, "K1-A negative matrix N7"),
        row!("X1", "artifact.shared", "artifact.shared packet, even if task.id exists",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (1)"),
        row!("X2", "generic message fallback", "generic assay.adapter.a2a.message fallback, even if message.id exists",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (2)"),
        row!("X3", "agent.capabilities", "agent.capabilities packet",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (3)"),
        row!("X4", "missing task.kind", "task.requested packet without a typed task.kind",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (4)"),
        row!("X5", "non-delegation task.kind", "task.requested packet whose typed task.kind is not \"delegation\"",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (5)"),
        row!("X6", "agent.role alone", "a typed agent.role is present",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (6)"),
        row!("X7", "attributes blobs", "the packet carries attributes (for example an attributes.handoff blob)",
            "must not promote; attributes are never a handoff source", "", NO_PROMOTION, "K1-A explicit negative (7)"),
        row!("X8", "payload.discovery", "attributes.assay_g4 feeds payload.discovery",
            "must not promote; discovery is a separate surface", "", NO_PROMOTION, "K1-A explicit negative (8)"),
        row!("X9", "unmapped_fields_count alone", "the packet has unmapped top-level keys or substitutions",
            "must not promote", "", NO_PROMOTION, "K1-A explicit negative (9)"),
        row!("X10", "task.updated in v1", "canonical event type is assay.adapter.a2a.task.updated",
            "must not promote in v1", "", NO_PROMOTION, "K1-A explicit negative (10)"),
        row!("HP", "presence", "every emitted canonical payload",
            "carries a top-level handoff object", "", "", "K1-A presence rule"),
        row!("HL", "placement", "the handoff object",
            "is a top-level sibling of agent, task, message, attributes, discovery; never inside discovery or attributes",
            "", "", "K1-A placement rule"),
        row!("HK", "exact key set", "the handoff object",
            "has exactly visible, source_kind, task_ref_visible, message_ref_visible", "", "", "K1-A default values table"),
        row!("HT", "JSON types", "the handoff fields",
            "visible, task_ref_visible, message_ref_visible are booleans; source_kind is a string", "", "",
            "K1-A default values table"),
        row!("HE", "source_kind enum", "handoff.source_kind",
            "is \"typed_payload\" or \"unknown\"; \"typed_payload\" exactly when visible is true", "",
            "Confidence, correctness, trust, or protocol-native completeness beyond the frozen rule",
            "K1-A source_kind enum and v1 reachability"),
        row!("HD", "defaults when not visible", "handoff.visible is false",
            "task_ref_visible and message_ref_visible are false", "", "", "K1-A default values table"),
        row!("ET", "event type consistent", "an evidence event",
            "type is one of the five canonical types and matches the payload's upstream_event_type mapping", "", "",
            "Adapter conversion spec §3 and §6"),
    ],
};

pub static CONVERSION_TABLE: RuleTable = RuleTable {
    id: "conversion",
    name: "A2A adapter conversion checks",
    rows: &[
        row!(
            "C1",
            "payload size",
            "max_payload_bytes set and the payload is longer",
            "measurement: payload exceeds max_payload_bytes (LIMIT)",
            "",
            "",
            "conversion spec §2 step 1"
        ),
        row!(
            "C3",
            "JSON",
            "the bytes are not valid JSON (invalid UTF-8 included)",
            "measurement: invalid A2A payload JSON: <parser message>",
            "",
            "",
            "conversion spec §2 step 3"
        ),
        row!(
            "C4D",
            "depth",
            "depth > max_json_depth (root = 1)",
            "measurement: payload exceeds max_json_depth (LIMIT)",
            "",
            "",
            "conversion spec §2 step 4"
        ),
        row!(
            "C4A",
            "array length",
            "an array longer than max_array_length",
            "measurement: payload exceeds max_array_length (LIMIT)",
            "",
            "",
            "conversion spec §2 step 4"
        ),
        row!(
            "C5",
            "protocol",
            "top-level protocol is not the JSON string \"a2a\"",
            "measurement: protocol must be 'a2a'",
            "",
            "",
            "conversion spec §2 step 5"
        ),
        row!(
            "C6",
            "version present",
            "no string version at top level and no ingest protocol_version",
            "measurement: missing required field: version",
            "",
            "",
            "conversion spec §2 step 6"
        ),
        row!(
            "C7",
            "version range",
            "version is not MAJOR.MINOR[.x] with MAJOR == 0 and MINOR >= 2",
            "unsupported_protocol_version: unsupported A2A version: V",
            "",
            "",
            "conversion spec §2 step 7"
        ),
        row!(
            "S1",
            "strict: agent.id",
            "strict mode, no typed agent.id",
            "measurement: missing required field: agent.id",
            "",
            "",
            "conversion spec §4 (1)"
        ),
        row!(
            "S2",
            "strict: event type",
            "strict mode, unmapped event_type",
            "strict_lossiness_violation: unsupported event_type in strict mode",
            "",
            "",
            "conversion spec §4 (2)"
        ),
        row!(
            "S3",
            "strict: task.id",
            "strict mode, task.requested or task.updated without typed task.id",
            "measurement: missing required field: task.id",
            "",
            "",
            "conversion spec §4 (3)"
        ),
        row!(
            "S4",
            "strict: artifact.id",
            "strict mode, artifact.shared without typed artifact.id",
            "measurement: missing required field: artifact.id",
            "",
            "",
            "conversion spec §4 (4)"
        ),
        row!(
            "L1",
            "lenient: agent.id",
            "no typed agent.id",
            "agent.id = unknown-agent; note; +1 unmapped",
            "",
            "",
            "conversion spec §5"
        ),
        row!(
            "L2",
            "lenient: event type",
            "unmapped event type",
            "event assay.adapter.a2a.message; note; +1 unmapped",
            "",
            "",
            "conversion spec §5"
        ),
        row!(
            "L3",
            "lenient: task.id",
            "task.* event without typed task.id",
            "task.id = unknown-task; note; +1 unmapped",
            "",
            "",
            "conversion spec §5"
        ),
        row!(
            "L4",
            "lenient: artifact.id",
            "artifact.shared without typed artifact.id",
            "artifact.id = unknown-artifact; note; +1 unmapped",
            "",
            "",
            "conversion spec §5"
        ),
        row!(
            "L5",
            "lenient: message.id",
            "generic message event without typed message.id",
            "message.id = unknown-message; note; +1 unmapped",
            "",
            "",
            "conversion spec §5"
        ),
    ],
};

/// Ids of the rows that make up the K1-A coverage matrix (the decision rows, not the audit rows).
pub const COVERAGE_ROW_IDS: [&str; 21] = [
    "P", "TR", "MR", "SYN", "N1", "N2", "N3", "N4", "N5", "N6", "N7", "X1", "X2", "X3", "X4", "X5",
    "X6", "X7", "X8", "X9", "X10",
];

/// The four handoff fields with their freeze "may imply / must not imply" text.
pub struct HandoffField {
    pub name: &'static str,
    pub default: &'static str,
    pub may_imply: &'static str,
    pub must_not_imply: &'static str,
}

pub static HANDOFF_FIELDS: [HandoffField; 4] = [
    HandoffField { name: "visible", default: "false", may_imply: VISIBLE_MAY, must_not_imply: VISIBLE_MUST_NOT },
    HandoffField {
        name: "source_kind",
        default: "\"unknown\"",
        may_imply: "Which class of source set the seam (typed_payload vs unknown)",
        must_not_imply: "Confidence, correctness, trust, or protocol-native completeness beyond the frozen rule",
    },
    HandoffField {
        name: "task_ref_visible",
        default: "false",
        may_imply: "A typed task.id from the upstream packet was visible on a packet that already satisfied handoff.visible",
        must_not_imply: "Task identity verified, synthetic fallback accepted as real, or route completeness",
    },
    HandoffField {
        name: "message_ref_visible",
        default: "false",
        may_imply: "A typed message.id from the upstream packet was visible on a packet that already satisfied handoff.visible",
        must_not_imply: "Message legitimacy, target identity, or delegation success",
    },
];

/// The guardrail sentence shown under every handoff explanation.
pub const GUARDRAIL: &str = "Every handoff.* flag is bounded observed visibility only: none of them means the handoff was valid, authorized, complete, trusted or successful.";

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn row_ids_are_unique_and_complete() {
        for table in [&K1A_TABLE, &CONVERSION_TABLE] {
            let ids: HashSet<&str> = table.rows.iter().map(|row| row.id).collect();
            assert_eq!(ids.len(), table.rows.len(), "{}", table.id);
        }
        for id in COVERAGE_ROW_IDS {
            assert!(K1A_TABLE.row(id).is_some(), "{id}");
        }
    }

    #[test]
    fn no_row_uses_forbidden_language() {
        // The freeze's language rule applies to our own text; "must not imply" columns may
        // name what a flag does not mean, so only the positive columns are checked.
        for row in K1A_TABLE.rows.iter().chain(CONVERSION_TABLE.rows) {
            for text in [row.title, row.condition, row.result, row.may_imply] {
                let lower = text.to_lowercase();
                for banned in ["verified", "valid delegation", "route resolved"] {
                    assert!(!lower.contains(banned), "{}: {text}", row.id);
                }
            }
        }
    }
}
