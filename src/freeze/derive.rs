//! Deriving the negative matrix from one positive packet: for every N row and explicit
//! negative, a variant of the packet that exercises it, with the outcome the freeze expects
//! in each mode. The expectations come from the freeze's statements (defaults for every
//! negative, the N3 rejection, the N4 partial visibility), not from running the converter.

use super::states::HandoffState;
use crate::a2a::{convert, ConvertOptions, ErrorKind, Mode};
use serde_json::{json, Map, Value};

/// What the freeze expects in one mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    State(HandoffState),
    Error { kind: ErrorKind, rule: &'static str },
}

impl Expected {
    pub fn describe(self) -> String {
        match self {
            Expected::State(state) => state.key().to_owned(),
            Expected::Error { kind, rule } => format!("error {} ({rule})", kind.name()),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct DerivedPacket {
    /// File stem, e.g. `n5_x4_task_kind_missing`.
    pub name: &'static str,
    /// The rows the variant is built to exercise.
    pub rows: Vec<&'static str>,
    /// What was changed, in a few words.
    pub change: &'static str,
    pub packet: Value,
    /// Strict first.
    pub expected: [Expected; 2],
}

const DEFAULTS: Expected = Expected::State(HandoffState::Defaults);

/// The variants of `positive`, which must convert in strict mode with `handoff.visible`
/// (a typed `task.requested` packet with `task.kind == "delegation"` and a typed `task.id`).
pub fn derive_negatives(positive: &[u8]) -> Result<Vec<DerivedPacket>, String> {
    let conversion = convert(positive, &ConvertOptions::default().with_mode(Mode::Strict));
    let state = match (&conversion.result, conversion.packet.as_ref()) {
        (Ok(converted), Some(_)) => super::handoff_state(converted.handoff()),
        (Err(error), _) => {
            return Err(format!(
                "not a positive packet: its strict conversion is rejected ({}: {})",
                error.kind.name(),
                crate::json::safe_text(&error.message)
            ))
        }
        _ => None,
    };
    let positive_state = match state {
        Some(state @ (HandoffState::TaskAndMessageRefs | HandoffState::TaskRefOnly)) => state,
        other => {
            return Err(format!(
                "not a positive packet: its strict conversion gives handoff state {}, not a typed positive (event_type \"task.requested\" with task.kind \"delegation\")",
                other.map_or("outside the five legal states", HandoffState::key)
            ))
        }
    };
    let Some(Value::Object(root)) = conversion.packet.as_ref().cloned() else {
        return Err("not a JSON object".to_owned());
    };
    let has_message = positive_state == HandoffState::TaskAndMessageRefs;
    let lenient_missing_task = if has_message {
        HandoffState::MessageRefOnly
    } else {
        HandoffState::NoRefs
    };
    let base = weak_signal_free_base(&root);
    let positive_rows = if has_message {
        vec!["P", "TR", "MR"]
    } else {
        vec!["P", "TR"]
    };
    let variant = |edit: &dyn Fn(&mut Map<String, Value>)| {
        let mut packet = root.clone();
        edit(&mut packet);
        Value::Object(packet)
    };
    let weak = |edit: &dyn Fn(&mut Map<String, Value>)| {
        let mut packet = base.clone();
        edit(&mut packet);
        Value::Object(packet)
    };
    Ok(vec![
        DerivedPacket {
            name: "p_positive",
            rows: positive_rows,
            change: "the input itself",
            packet: Value::Object(root.clone()),
            expected: [Expected::State(positive_state); 2],
        },
        DerivedPacket {
            name: "n1_x1_artifact_shared",
            rows: vec!["N1", "X1"],
            change: "event_type artifact.shared (task.id kept, artifact.id added)",
            packet: variant(&|packet| {
                packet.insert("event_type".into(), json!("artifact.shared"));
                with_object(packet, "artifact", |artifact| {
                    if !artifact.get("id").is_some_and(Value::is_string) {
                        artifact.insert("id".into(), json!("artifact-derived"));
                    }
                });
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n2_x2_unmapped_event_type",
            rows: vec!["N2", "X2"],
            change: "event_type session.unknown (lenient falls back to a generic message)",
            packet: variant(&|packet| {
                packet.insert("event_type".into(), json!("session.unknown"));
            }),
            expected: [
                Expected::Error {
                    kind: ErrorKind::StrictLossinessViolation,
                    rule: "S2",
                },
                DEFAULTS,
            ],
        },
        DerivedPacket {
            name: "n3_n4_missing_task_id",
            rows: vec!["N3", "N4", "SYN"],
            change: "task.id removed (strict rejects; lenient substitutes unknown-task)",
            packet: variant(&|packet| {
                with_object(packet, "task", |task| {
                    task.remove("id");
                });
            }),
            expected: [
                Expected::Error {
                    kind: ErrorKind::Measurement,
                    rule: "S3",
                },
                Expected::State(lenient_missing_task),
            ],
        },
        DerivedPacket {
            name: "n5_x4_task_kind_missing",
            rows: vec!["N5", "X4"],
            change: "task.kind removed",
            packet: variant(&|packet| {
                with_object(packet, "task", |task| {
                    task.remove("kind");
                });
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n5_x5_task_kind_analysis",
            rows: vec!["N5", "X5"],
            change: "task.kind \"analysis\"",
            packet: variant(&|packet| {
                with_object(packet, "task", |task| {
                    task.insert("kind".into(), json!("analysis"));
                });
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n6_x6_agent_role_alone",
            rows: vec!["N6", "X6"],
            change: "no task.kind; agent.role \"delegator\"",
            packet: weak(&|packet| {
                with_object(packet, "agent", |agent| {
                    agent.insert("role".into(), json!("delegator"));
                });
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n6_x7_attributes_handoff_blob",
            rows: vec!["N6", "X7"],
            change: "no task.kind; attributes carry a handoff-looking blob",
            packet: weak(&|packet| {
                packet.insert(
                    "attributes".into(),
                    json!({"delegation": "true", "handoff": {"visible": true, "source_kind": "typed_payload", "task_ref_visible": true, "message_ref_visible": true}}),
                );
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n6_x8_discovery_agent_card",
            rows: vec!["N6", "X7", "X8"],
            change: "no task.kind; attributes.assay_g4 makes payload.discovery visible",
            packet: weak(&|packet| {
                packet.insert(
                    "attributes".into(),
                    json!({"assay_g4": {"agent_card": {"visible": true}, "extended_card_access": {"visible": true}}}),
                );
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n6_x9_unmapped_top_level_handoff",
            rows: vec!["N6", "X9"],
            change: "no task.kind; an unmapped top-level handoff object",
            packet: weak(&|packet| {
                packet.insert(
                    "handoff".into(),
                    json!({"visible": true, "source_kind": "typed_payload"}),
                );
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "x3_agent_capabilities",
            rows: vec!["X3"],
            change: "event_type agent.capabilities with agent.capabilities listed",
            packet: variant(&|packet| {
                packet.insert("event_type".into(), json!("agent.capabilities"));
                with_object(packet, "agent", |agent| {
                    agent.insert("capabilities".into(), json!(["delegation", "planning"]));
                });
            }),
            expected: [DEFAULTS; 2],
        },
        DerivedPacket {
            name: "n7_x10_task_updated",
            rows: vec!["N7", "X10"],
            change: "event_type task.updated",
            packet: variant(&|packet| {
                packet.insert("event_type".into(), json!("task.updated"));
            }),
            expected: [DEFAULTS; 2],
        },
    ])
}

/// The positive packet without any weak signal (agent.role, attributes, unmapped keys) and
/// without task.kind, so each N6 variant carries exactly one weak signal and no positive.
fn weak_signal_free_base(root: &Map<String, Value>) -> Map<String, Value> {
    let mut base: Map<String, Value> = root
        .iter()
        .filter(|(key, _)| {
            crate::a2a::RECOGNISED_TOP_LEVEL_KEYS.contains(&key.as_str()) && *key != "attributes"
        })
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    with_object(&mut base, "agent", |agent| {
        agent.remove("role");
    });
    with_object(&mut base, "task", |task| {
        task.remove("kind");
    });
    base
}

/// Edits the object at `key`, which is made an object if it is absent or not one.
fn with_object(
    packet: &mut Map<String, Value>,
    key: &str,
    edit: impl FnOnce(&mut Map<String, Value>),
) {
    let mut object = match packet.remove(key) {
        Some(Value::Object(object)) => object,
        _ => Map::new(),
    };
    edit(&mut object);
    packet.insert(key.to_owned(), Value::Object(object));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::freeze::matched_rows;

    const WITH_MESSAGE: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://coordinator","role":"orchestrator"},"task":{"id":"task-123","status":"requested","kind":"delegation"},"message":{"id":"msg-1","role":"assistant"},"attributes":{"priority":"urgent"},"trace":"x"}"#;
    const WITHOUT_MESSAGE: &str = r#"{"protocol":"a2a","version":"0.3","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;

    fn outcome(packet: &Value, mode: Mode) -> (Expected, crate::freeze::RowSet) {
        let bytes = serde_json::to_vec(packet).unwrap();
        let conversion = convert(&bytes, &ConvertOptions::default().with_mode(mode));
        let rows = matched_rows(&conversion);
        let expected = match &conversion.result {
            Ok(converted) => {
                Expected::State(crate::freeze::handoff_state(converted.handoff()).unwrap())
            }
            Err(error) => Expected::Error {
                kind: error.kind,
                rule: error.rule,
            },
        };
        (expected, rows)
    }

    #[test]
    fn the_converter_meets_every_derived_expectation() {
        for input in [WITH_MESSAGE, WITHOUT_MESSAGE] {
            let derived = derive_negatives(input.as_bytes()).unwrap();
            let mut covered = std::collections::HashSet::new();
            for packet in &derived {
                for (index, mode) in Mode::BOTH.into_iter().enumerate() {
                    let (got, rows) = outcome(&packet.packet, mode);
                    assert_eq!(got, packet.expected[index], "{} {mode}", packet.name);
                    for id in rows.ids() {
                        covered.insert(id);
                    }
                    // Every targeted row is exercised in each mode where it is reachable.
                    for id in &packet.rows {
                        if crate::freeze::unreachable_reason(id, mode).is_none() {
                            assert!(rows.contains(id), "{} {mode} misses {id}", packet.name);
                        }
                    }
                }
            }
            let missing: Vec<&str> = crate::freeze::COVERAGE_ROW_IDS
                .into_iter()
                .filter(|id| !covered.contains(id))
                .collect();
            let expect_missing: Vec<&str> = if input == WITH_MESSAGE {
                vec![]
            } else {
                vec!["MR"]
            };
            assert_eq!(missing, expect_missing, "{input}");
        }
    }

    #[test]
    fn negatives_are_refused_as_input() {
        let analysis = WITHOUT_MESSAGE.replace("delegation", "analysis");
        assert!(derive_negatives(analysis.as_bytes())
            .unwrap_err()
            .contains("handoff state defaults"));
        let no_task_id = WITHOUT_MESSAGE.replace("\"id\":\"t\",", "");
        assert!(derive_negatives(no_task_id.as_bytes())
            .unwrap_err()
            .contains("missing required field: task.id"));
        assert!(derive_negatives(b"nope").is_err());
    }
}
