//! Invariants of the conversion over generated packets.

use handoff_inspector::a2a::{convert, CanonicalType, ConvertOptions, Mode};
use handoff_inspector::corpus::{summarize, EvaluateOptions, RawPacket, Source};
use handoff_inspector::freeze::{
    audit, detect_canonical, explain, matched_rows, unreachable_reason, HandoffState,
};
use handoff_inspector::json::{canonical_bytes, digest_value, scan_duplicate_keys};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn maybe_string(values: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => proptest::sample::select(values).prop_map(|text| Value::String(text.to_owned())),
        1 => Just(Value::Null),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(json!(["delegation"])),
    ]
}

fn packet() -> impl Strategy<Value = Value> {
    (
        maybe_string(&[
            "task.requested",
            "task.updated",
            "artifact.shared",
            "agent.capabilities",
            "session.unknown",
        ]),
        maybe_string(&["0.2", "0.3.1", "1.0", "0.1"]),
        maybe_string(&["agent://a", "unknown-agent"]),
        maybe_string(&["orchestrator", "delegator"]),
        maybe_string(&["task-1", "unknown-task"]),
        maybe_string(&["delegation", "analysis", "Delegation"]),
        maybe_string(&["msg-1"]),
        maybe_string(&["artifact-1"]),
        proptest::collection::btree_map("[a-z_]{1,8}", any::<u8>().prop_map(Value::from), 0..4),
        proptest::option::of(Just(
            json!({"handoff": {"visible": true}, "assay_g4": {"agent_card": {"visible": true}}}),
        )),
    )
        .prop_map(
            |(event, version, agent, role, task_id, kind, message, artifact, extra, attributes)| {
                let mut packet = Map::new();
                packet.insert("protocol".into(), json!("a2a"));
                packet.insert("version".into(), version);
                packet.insert("event_type".into(), event);
                packet.insert("agent".into(), json!({"id": agent, "role": role}));
                packet.insert("task".into(), json!({"id": task_id, "kind": kind}));
                packet.insert("message".into(), json!({"id": message}));
                packet.insert("artifact".into(), json!({"id": artifact}));
                if let Some(attributes) = attributes {
                    packet.insert("attributes".into(), attributes);
                }
                for (key, value) in extra {
                    packet.entry(key).or_insert(value);
                }
                Value::Object(packet)
            },
        )
}

/// Writes an object with its keys in reverse order (serde_json would sort them).
fn reversed_text(value: &Value) -> String {
    match value {
        Value::Object(members) => {
            let parts: Vec<String> = members
                .iter()
                .rev()
                .map(|(key, item)| {
                    format!("{}:{}", Value::String(key.clone()), reversed_text(item))
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(reversed_text)
                .collect::<Vec<_>>()
                .join(",")
        ),
        other => other.to_string(),
    }
}

fn options(lenient: bool) -> ConvertOptions {
    ConvertOptions::default().with_mode(if lenient { Mode::Lenient } else { Mode::Strict })
}

proptest! {
    #![proptest_config(crate::common::proptest_config(512, 512))]

    #[test]
    fn only_task_requested_can_leave_the_defaults(packet in packet(), lenient in any::<bool>()) {
        let conversion = convert(packet.to_string().as_bytes(), &options(lenient));
        if let Some(converted) = conversion.converted() {
            if converted.canonical_type != CanonicalType::TaskRequested {
                prop_assert_eq!(converted.handoff(), &HandoffState::Defaults.to_json());
            }
            prop_assert!(handoff_inspector::freeze::handoff_state(converted.handoff()).is_some());
        }
    }

    #[test]
    fn unmapped_count_covers_unknown_top_level_keys(packet in packet(), lenient in any::<bool>()) {
        let unknown = packet.as_object().unwrap().keys()
            .filter(|key| !["protocol", "version", "event_type", "timestamp", "agent", "task", "artifact", "message", "attributes"].contains(&key.as_str()))
            .count();
        if let Some(converted) = convert(packet.to_string().as_bytes(), &options(lenient)).converted() {
            let count = converted.payload()["unmapped_fields_count"].as_u64().unwrap() as usize;
            prop_assert!(count >= unknown);
            prop_assert_eq!(count, unknown + converted.lossiness.substitutions.len());
        }
    }

    #[test]
    fn key_order_does_not_change_digests(packet in packet(), lenient in any::<bool>()) {
        let forward = convert(packet.to_string().as_bytes(), &options(lenient));
        let backward = convert(reversed_text(&packet).as_bytes(), &options(lenient));
        match (forward.converted(), backward.converted()) {
            (Some(a), Some(b)) => {
                prop_assert_eq!(a.payload_digest(), b.payload_digest());
                prop_assert_eq!(a.handoff_digest(), b.handoff_digest());
            }
            (None, None) => prop_assert_eq!(forward.error(), backward.error()),
            _ => prop_assert!(false, "one order converted and the other did not"),
        }
    }

    #[test]
    fn repeated_conversion_is_byte_stable(packet in packet(), lenient in any::<bool>()) {
        let bytes = packet.to_string();
        let first = convert(bytes.as_bytes(), &options(lenient));
        let second = convert(bytes.as_bytes(), &options(lenient));
        let canonical = |c: &handoff_inspector::a2a::Conversion| c.converted().map(|c| canonical_bytes(&c.batch()));
        prop_assert_eq!(canonical(&first), canonical(&second));
    }

    #[test]
    fn digests_match_the_built_event_and_the_packet_parses_on_demand(packet in packet(), lenient in any::<bool>()) {
        let bytes = packet.to_string();
        let conversion = convert(bytes.as_bytes(), &options(lenient));
        prop_assert_eq!(conversion.packet.as_ref(), Some(&packet));
        if let Some(converted) = conversion.converted() {
            // Digests first: they are computed without building the event.
            let digests = (converted.payload_digest(), converted.handoff_digest(), converted.discovery_digest());
            let payload = &converted.event()["data"];
            prop_assert_eq!(digests, (digest_value(payload), digest_value(&payload["handoff"]), digest_value(&payload["discovery"])));
            prop_assert_eq!(converted.subject(), converted.event()["subject"].as_str().unwrap());
        }
    }

    #[test]
    fn emitted_payloads_pass_their_own_audit(packet in packet(), lenient in any::<bool>()) {
        if let Some(converted) = convert(packet.to_string().as_bytes(), &options(lenient)).converted() {
            let batch = converted.batch();
            let (shape, _) = detect_canonical(&batch).unwrap();
            let findings = audit(&batch, shape).findings;
            prop_assert!(findings.is_empty(), "{:?}", findings);
        }
    }

    #[test]
    fn no_input_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256), lenient in any::<bool>()) {
        let options = ConvertOptions { max_json_depth: Some(4), max_array_length: Some(3), ..options(lenient) };
        let _ = explain(&bytes, &options);
        let _ = scan_duplicate_keys(&bytes);
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            if let Some((shape, _)) = detect_canonical(&value) {
                let _ = audit(&value, shape);
            }
        }
    }

    #[test]
    fn no_json_shaped_input_panics(text in r#"[\[\]{}",:0-9a-z\\ ]{0,64}"#) {
        let _ = explain(text.as_bytes(), &ConvertOptions::default());
        let _ = scan_duplicate_keys(text.as_bytes());
    }

    #[test]
    fn modes_agree_without_substitutions(packet in packet(), lenient in any::<bool>()) {
        // `corpus::summarize` reuses one mode's result for the other when no substitution was
        // made; this is the spec property that makes that sound.
        let bytes = packet.to_string();
        let first = convert(bytes.as_bytes(), &options(lenient));
        let other = convert(bytes.as_bytes(), &options(!lenient));
        if let Some(error) = first.error().filter(|error| error.rule.starts_with('C')) {
            prop_assert_eq!(Some(error), other.error());
            prop_assert_eq!(matched_rows(&first), matched_rows(&other));
        }
        if let Some(converted) = first.converted().filter(|c| c.lossiness.substitutions.is_empty()) {
            let same = other.converted();
            prop_assert!(same.is_some(), "converted in one mode only: {}", bytes);
            let same = same.unwrap();
            prop_assert_eq!(canonical_bytes(&converted.batch()), canonical_bytes(&same.batch()));
            prop_assert_eq!(matched_rows(&first), matched_rows(&other));
        }
    }

    #[test]
    fn summaries_equal_full_conversions_in_each_mode(packet in packet()) {
        let raw = RawPacket { source: Source::file("p.json"), offset: 0, bytes: packet.to_string().into_bytes(), bundle: None, in_bundle: None };
        let both = summarize(&raw, &EvaluateOptions::default());
        for mode in Mode::BOTH {
            let alone = summarize(&raw, &EvaluateOptions { modes: vec![mode], ..EvaluateOptions::default() });
            prop_assert_eq!(both.mode(mode), alone.mode(mode));
        }
    }

    #[test]
    fn unreachable_cells_are_never_matched(packet in packet(), lenient in any::<bool>()) {
        let conversion = convert(packet.to_string().as_bytes(), &options(lenient));
        let mode = conversion.mode;
        for id in matched_rows(&conversion).ids() {
            prop_assert!(unreachable_reason(id, mode).is_none(), "{} matched in {}", id, mode);
        }
    }
}
