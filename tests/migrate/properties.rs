//! Invariants of the migration on generated input: no step panics on arbitrary JSON from any
//! root kind, detection and whole migrations never panic, and well-formed v0.3 objects
//! migrate to v1.0 that passes the check, stays put when migrated again, and survives a round
//! trip through v0.3.

use handoff_inspector::migrate::step::StepCtx;
use handoff_inspector::migrate::{
    detect, Choices, Detection, Dialect, Direction, Migration, ObjectKind, Version, FORWARD_STEPS,
    REVERSE_STEPS,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Keys the steps look at, so generated objects reach their code paths.
const KEYS: &[&str] = &[
    "kind",
    "id",
    "taskId",
    "contextId",
    "status",
    "state",
    "timestamp",
    "message",
    "role",
    "parts",
    "content",
    "text",
    "file",
    "uri",
    "bytes",
    "data",
    "mimeType",
    "name",
    "raw",
    "url",
    "mediaType",
    "filename",
    "metadata",
    "history",
    "artifacts",
    "artifactId",
    "artifact",
    "final",
    "method",
    "params",
    "result",
    "error",
    "code",
    "jsonrpc",
    "configuration",
    "blocking",
    "historyLength",
    "pushNotificationConfig",
    "pushNotification",
    "authentication",
    "schemes",
    "scheme",
    "pushNotificationConfigId",
    "task",
    "statusUpdate",
    "artifactUpdate",
    "configs",
    "url",
    "preferredTransport",
    "additionalInterfaces",
    "supportedInterfaces",
    "protocolVersion",
    "transport",
    "capabilities",
    "stateTransitionHistory",
    "supportsAuthenticatedExtendedCard",
    "security",
    "securityRequirements",
    "securitySchemes",
    "type",
    "in",
    "flows",
    "authorizationCode",
    "clientCredentials",
    "implicit",
    "password",
    "skills",
    "signatures",
    "value",
    "data_part_compat",
    "lastUpdatedAfter",
    "page_size",
    "returnImmediately",
    "tenant",
    "oauth2SecurityScheme",
    "apiKeySecurityScheme",
    "list",
    "fileWithUri",
    "fileWithBytes",
];

/// String values the steps compare against.
const WORDS: &[&str] = &[
    "task",
    "message",
    "text",
    "file",
    "data",
    "status-update",
    "artifact-update",
    "completed",
    "working",
    "unknown",
    "TASK_STATE_CANCELLED",
    "TASK_STATE_WORKING",
    "user",
    "agent",
    "ROLE_USER",
    "message/send",
    "tasks/get",
    "tasks/pushNotificationConfig/get",
    "tasks/pushNotificationConfig/list",
    "tasks/list",
    "SendMessage",
    "ListTasks",
    "apiKey",
    "oauth2",
    "mutualTLS",
    "2.0",
    "2025-04-02T16:59:25.331844",
    "2025-04-02T16:59:25+02:00",
    "iVBORw0KGgo...",
    "aGk=",
    "tasks/t/pushNotificationConfigs/c",
    "JSONRPC",
    "0.3.0",
    "",
    "\u{202e}",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-40_000i64..2_000_000_000_000).prop_map(|n| json!(n)),
        prop::sample::select(WORDS).prop_map(|word| json!(word)),
        "[a-z\u{e9}\u{202e}]{0,6}".prop_map(Value::String),
    ]
}

fn a2a_ish_json() -> impl Strategy<Value = Value> {
    scalar().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect::<Map<String, Value>>(),
                )
            }),
        ]
    })
}

fn synthetic_detection(object: ObjectKind, dialect: Dialect) -> Detection {
    Detection {
        version: Version::V0_3,
        dialect,
        object,
        method: None,
        mixed: false,
        reasons: Vec::new(),
        conflicts: Vec::new(),
        identical: false,
    }
}

proptest! {
    #![proptest_config(crate::common::proptest_config(96, 96))]

    #[test]
    fn no_step_panics_on_arbitrary_json_from_any_root(value in a2a_ish_json()) {
        let choices = Choices::none()
            .with("oauth-flow", "password")
            .with("invalid-base64", "repair")
            .with("file-data", "bytes");
        for object in ObjectKind::ALL {
            for dialect in [Dialect::JsonRpc, Dialect::Rest] {
                let detection = synthetic_detection(object, dialect);
                for step in FORWARD_STEPS.iter().chain(REVERSE_STEPS.iter()) {
                    let mut doc = value.clone();
                    let mut ctx = StepCtx::new(step, &detection, &choices);
                    (step.apply)(&mut doc, &mut ctx);
                }
            }
        }
    }

    #[test]
    fn detection_and_whole_migrations_never_panic(value in a2a_ish_json()) {
        let _ = detect(&value);
        for direction in [Direction::Forward, Direction::Reverse] {
            if let Ok(migration) = Migration::run(&value, direction, &Choices::none()) {
                let off: Vec<&str> = migration.steps.iter().step_by(2).map(|run| run.step.id).collect();
                let _ = migration.result_without(&off);
                let _ = migration.report();
                migration.each_step_diff(2, |_, _| {});
            }
        }
    }
}

fn with_kind(mut object: Value, kind: &str, keep: bool) -> Value {
    if keep {
        object["kind"] = json!(kind);
    }
    object
}

fn part() -> impl Strategy<Value = Value> {
    let text = ("[a-z ]{1,12}", any::<bool>())
        .prop_map(|(text, kind)| with_kind(json!({"text": text}), "text", kind));
    let uri = ("[a-z]{1,8}", any::<bool>(), any::<bool>()).prop_map(|(name, kind, mime)| {
        let mut file = json!({"uri": format!("https://files.example/{name}"), "name": name});
        if mime {
            file["mimeType"] = json!("application/pdf");
        }
        with_kind(json!({"file": file}), "file", kind)
    });
    let bytes = (prop::collection::vec(any::<u8>(), 0..12), any::<bool>()).prop_map(|(raw, kind)| {
        with_kind(json!({"file": {"bytes": standard_base64(&raw), "mimeType": "application/octet-stream"}}), "file", kind)
    });
    let data = ("[a-z]{1,6}", -100i64..100, any::<bool>())
        .prop_map(|(key, number, kind)| with_kind(json!({"data": {key: number}}), "data", kind));
    prop_oneof![text, uri, bytes, data]
}

fn standard_base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for index in 0..4 {
            if index <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * index)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn message() -> impl Strategy<Value = Value> {
    (
        prop::sample::select(&["user", "agent"][..]),
        "[a-z0-9]{1,6}",
        prop::collection::vec(part(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(role, id, parts, kind)| {
            with_kind(
                json!({"role": role, "messageId": format!("m-{id}"), "parts": parts}),
                "message",
                kind,
            )
        })
}

fn task() -> impl Strategy<Value = Value> {
    let states = &[
        "submitted",
        "working",
        "input-required",
        "completed",
        "canceled",
        "failed",
        "rejected",
        "auth-required",
        "unknown",
    ][..];
    let stamps = &[
        "2025-04-02T16:59:25.331Z",
        "2025-04-02T16:59:25.331844",
        "2025-04-02T18:59:25+02:00",
    ][..];
    (
        prop::sample::select(states),
        prop::option::of(prop::sample::select(stamps)),
        prop::option::of(message()),
        prop::collection::vec(message(), 0..3),
        prop::collection::vec(prop::collection::vec(part(), 1..3), 0..2),
        any::<bool>(),
    )
        .prop_map(|(state, stamp, status_message, history, artifacts, kind)| {
            let mut status = json!({"state": state});
            if let Some(stamp) = stamp {
                status["timestamp"] = json!(stamp);
            }
            if let Some(message) = status_message {
                status["message"] = message;
            }
            let artifacts: Vec<Value> = artifacts
                .into_iter()
                .enumerate()
                .map(|(index, parts)| json!({"artifactId": format!("a-{index}"), "parts": parts}))
                .collect();
            let mut task =
                json!({"id": "t-1", "contextId": "c-1", "status": status, "history": history});
            if !artifacts.is_empty() {
                task["artifacts"] = Value::Array(artifacts);
            }
            with_kind(task, "task", kind)
        })
}

/// Every v0.3 marker in a generated task, found by a plain recursive scan (the generator puts
/// no `kind`, `file` or `state` inside data or metadata).
fn v03_markers(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let stale = matches!(key.as_str(), "kind" | "file" | "final" | "content");
                let bad_state =
                    key == "state" && !inner.as_str().is_some_and(|s| s.starts_with("TASK_STATE_"));
                let bad_role =
                    key == "role" && !inner.as_str().is_some_and(|s| s.starts_with("ROLE_"));
                let naive = key == "timestamp" && !inner.as_str().is_some_and(|s| s.ends_with('Z'));
                if stale || bad_state || bad_role || naive {
                    found.push(format!("{key}: {inner}"));
                }
                found.extend(v03_markers(inner));
            }
        }
        Value::Array(items) => items
            .iter()
            .for_each(|item| found.extend(v03_markers(item))),
        _ => {}
    }
    found
}

proptest! {
    #![proptest_config(crate::common::proptest_config(128, 128))]

    #[test]
    fn well_formed_v03_tasks_migrate_cleanly_and_stay_put(task in task()) {
        let forward = Migration::run(&task, Direction::Forward, &Choices::none()).unwrap();
        prop_assert_eq!(forward.detection.version, Version::V0_3);
        prop_assert!(forward.findings.is_empty(), "{:?}", forward.findings);
        // Independent of the walker the steps share: no v0.3 marker is left anywhere.
        prop_assert_eq!(v03_markers(&forward.result), Vec::<String>::new());
        let again = Migration::run(&forward.result, Direction::Forward, &Choices::none()).unwrap();
        prop_assert!(again.already_at_target);
        prop_assert_eq!(&again.result, &forward.result);
        // v1.0 -> v0.3 -> v1.0 gives the same v1.0 object.
        let back = Migration::run(&forward.result, Direction::Reverse, &Choices::none()).unwrap();
        prop_assert!(back.findings.is_empty(), "{:?}", back.findings);
        let round = Migration::run(&back.result, Direction::Forward, &Choices::none()).unwrap();
        prop_assert_eq!(&round.result, &forward.result);
    }

    #[test]
    fn switching_every_step_off_gives_the_input_back(task in task()) {
        let forward = Migration::run(&task, Direction::Forward, &Choices::none()).unwrap();
        let all: Vec<&str> = FORWARD_STEPS.iter().map(|step| step.id).collect();
        prop_assert_eq!(forward.result_without(&all), task.clone());
        prop_assert_eq!(forward.result_without(&[]), forward.result.clone());
    }
}
