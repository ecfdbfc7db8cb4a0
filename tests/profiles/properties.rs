//! `profiles::evaluate` never panics, whatever JSON it gets and whichever profile it is told
//! to use, and every report renders as text and JSON with one outcome per table row.

use handoff_inspector::profiles::{self, ProfileKind, ProfileOptions};
use handoff_inspector::report::profile_text;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Keys the profiles look at, so generated objects reach deep into the evaluators.
const KEYS: &[&str] = &[
    "handoff_id",
    "task_id",
    "from_agent",
    "to_agent",
    "input_scope",
    "actions_taken",
    "artifacts",
    "result",
    "next_action",
    "rulebook_update",
    "attempted_mutations",
    "path",
    "kind",
    "owner",
    "action",
    "input",
    "applied",
    "evidence_run_id",
    "schema_version",
    "capability_id",
    "inputs",
    "expected_output",
    "type",
    "fields",
    "max_lines",
    "priority",
    "status",
    "created_at",
    "deadline",
    "result_trace_id",
    "id",
    "fromAgent",
    "toAgent",
    "capabilityId",
    "expectedOutput",
    "resultTraceId",
    "uai_version",
    "profile",
    "message_id",
    "source",
    "target",
    "conversation",
    "correlation_id",
    "delivery",
    "idempotency_key",
    "fallback_directive",
    "expires_at",
    "trust",
    "body",
    "provenance",
    "issued_at",
    "integrity",
    "algorithm",
    "checksum",
    "canonicalization",
    "extensions",
    "blockers",
    "password",
    "target_agent_id",
    "delegated_authorization",
    "support_boundary",
    "x",
];

const ESC: char = '\u{1b}';
const RLO: char = '\u{202e}';

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        "[a-zA-Z0-9 ./_:-]{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("PASS"),
            Just("gates"),
            Just("v1"),
            Just("uai.agent.handoff.v1"),
            Just("completed"),
            Just("sha256:00"),
            Just("../../etc/passwd"),
            Just("/etc/passwd"),
            Just("2030-01-01T00:00:00Z"),
            Just("api_key=sk-live-abcdef"),
            Just("\u{1b}[2J\u{202e}"),
            Just("UAIX provides hosted messaging"),
            Just("TBD"),
            Just("false"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..10).prop_map(|pairs| {
                let map: Map<String, Value> =
                    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                Value::Object(map)
            }),
        ]
    })
}

fn force() -> impl Strategy<Value = Option<ProfileKind>> {
    prop_oneof![
        Just(None),
        prop::sample::select(ProfileKind::ALL.to_vec()).prop_map(Some),
    ]
}

proptest! {
    #![proptest_config(crate::common::proptest_config(400, 400))]

    #[test]
    fn evaluate_never_panics_and_covers_every_row(value in json_value(), force in force(), strict in any::<bool>()) {
        let options = ProfileOptions {
            force,
            profile_version: if strict { "1.2.7".parse().unwrap() } else { Default::default() },
            artifact_root: Some(std::env::temp_dir()),
            previous_status: Some("accepted".into()),
            ..ProfileOptions::default()
        };
        let bytes = serde_json::to_vec(&value).unwrap();
        let report = profiles::evaluate(&value, &bytes, None, &options);
        if let Some(profile) = &report.profile {
            let table = profile.kind.table();
            for row in table.rows {
                prop_assert!(report.outcome(row.id).is_some(), "no outcome for {}", row.id);
            }
        }
        let text = profile_text::render(&report);
        let terminal_safe = !text.contains(ESC) && !text.contains(RLO);
        prop_assert!(terminal_safe);
        prop_assert!(serde_json::to_string(&report).is_ok());
        let counts = report.counts();
        prop_assert_eq!(report.conforms(), report.profile.is_some() && counts.fail == 0);
    }

    #[test]
    fn detection_never_claims_a2a_owned_packets(value in json_value(), owner in prop::sample::select(vec!["protocol", "event_type", "adapter_id", "specversion"])) {
        let mut value = value;
        if let Value::Object(map) = &mut value {
            map.insert(owner.to_owned(), json!("x"));
            prop_assert!(profiles::detect(&value).is_none());
        }
    }

    #[test]
    fn unparsable_input_never_panics(text in ".{0,64}", force in force()) {
        let options = ProfileOptions { force, ..ProfileOptions::default() };
        let report = profiles::evaluate_unparsable(&text, None, &options);
        prop_assert!(!report.conforms());
        let _ = profile_text::render(&report);
    }
}
