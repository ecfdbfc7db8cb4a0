//! `migrate` never exits 0 on output its target version rejects without saying why: each
//! object below is one the official SDK (a2a-sdk 1.3.0) or the target version's own schema
//! reads differently from a plain rewrite, given without a fixture name's hint.

use crate::common::{run, Run};
use serde_json::{json, Value};
use std::path::PathBuf;

/// `migrate ARGS FILE` on `input`, written to a file whose name hints nothing.
fn migrate(input: &Value, args: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("hi-migrate-targets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let digest = handoff_inspector::json::digest_value(input).to_hex();
    let path: PathBuf = dir.join(format!("{}.json", &digest[..16]));
    std::fs::write(&path, serde_json::to_vec(input).unwrap()).unwrap();
    let mut all = vec!["migrate"];
    all.extend_from_slice(args);
    let path_text = path.to_string_lossy().into_owned();
    all.push(&path_text);
    let done = run(&all);
    let _ = std::fs::remove_file(&path);
    done
}

fn result(done: &Run) -> Value {
    serde_json::from_str(&done.stdout)
        .unwrap_or_else(|error| panic!("not JSON ({error}): {}\n{}", done.stdout, done.stderr))
}

#[test]
fn a_v03_request_without_a_usable_id_or_its_params_is_refused() {
    let cases = [
        (
            json!({"jsonrpc": "2.0", "method": "GetTask", "params": {"id": "t"}}),
            "$.id (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": {"bad": "type"}, "method": "GetTask", "params": {"id": "t"}}),
            "$.id (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "CancelTask", "params": {"id": "t"}}),
            "$.id (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {}}),
            "$.params.message (V03-REQUIRED)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask"}),
            "$.params (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": ["t"]}),
            "$.params (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "1.0", "id": 1, "method": "GetTask", "params": {"id": "t"}}),
            "$.jsonrpc (V03-JSONRPC)",
        ),
        (
            json!({"jsonrpc": "2.0", "id": [1], "result": {"id": "t", "status": {"state": "TASK_STATE_WORKING"}}}),
            "$.id (V03-JSONRPC)",
        ),
    ];
    for (input, at) in cases {
        let done = migrate(&input, &["--to", "0.3"]);
        assert_eq!(done.code, 1, "{input}: {}", done.stderr);
        assert!(
            done.stderr
                .contains(&format!("fails the v0.3 check at {at}")),
            "{input}: expected {at} in\n{}",
            done.stderr
        );
    }
    // The extended card's request is the one v0.3 request without params.
    let card = json!({"jsonrpc": "2.0", "id": 2, "method": "GetExtendedAgentCard"});
    assert_eq!(migrate(&card, &["--to", "0.3"]).code, 0);
}

#[test]
fn a_v10_notification_is_named_and_a_bad_id_is_an_error() {
    let notification = json!({"jsonrpc": "2.0", "method": "tasks/get", "params": {"id": "t"}});
    let done = migrate(&notification, &[]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert!(
        done.stderr
            .contains("warning: [V10-JSONRPC] $.id: no `id`: a JSON-RPC notification"),
        "{}",
        done.stderr
    );
    let bad = json!({"jsonrpc": "2.0", "id": true, "method": "tasks/get", "params": {"id": "t"}});
    let done = migrate(&bad, &[]);
    assert!(
        done.stderr
            .contains("error: [V10-JSONRPC] $.id: `id` must be a string or an integer, found true"),
        "{}",
        done.stderr
    );
}

#[test]
fn members_neither_version_knows_are_dropped_on_the_way_to_v10_and_named() {
    let v02 = json!({"kind": "message", "messageId": "m", "role": "user",
        "parts": [{"type": "text", "text": "hi", "\u{1b}[31m": 1}]});
    let done = migrate(&v02, &[]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        result(&done),
        json!({"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]})
    );
    assert!(
        done.stderr
            .contains("warning: [drop-unknown-members] $.parts[0].type: dropped `type` = \"text\""),
        "{}",
        done.stderr
    );
    // A key is untrusted text: its control characters are escaped.
    assert!(!done.stderr.contains('\u{1b}'), "{}", done.stderr);
}

#[test]
fn a_v10_object_with_a_member_v10_does_not_define_gets_an_error_finding() {
    let input = json!({"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "priority": "high", "context_id": "c"});
    let done = migrate(&input, &["--format", "json"]);
    let report = result(&done);
    let unknown: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|finding| finding["rule"] == "V10-UNKNOWN")
        .map(|finding| finding["path"].as_str().unwrap())
        .collect();
    // The proto name `context_id` is what ProtoJSON parsers read as `contextId`.
    assert_eq!(unknown, ["$.priority"], "{report}");
}

#[test]
fn a_card_with_only_v10_interfaces_is_refused_unless_the_choice_forces_it() {
    let card = json!({"name": "a", "description": "d", "version": "1",
        "supportedInterfaces": [{"url": "https://x.example", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []});
    let done = migrate(&card, &["--to", "0.3"]);
    assert_eq!(done.code, 1, "{}", done.stderr);
    assert!(
        done.stderr.contains("--choice v10-only-card=convert"),
        "{}",
        done.stderr
    );
    let forced = migrate(&card, &["--to", "0.3", "--choice", "v10-only-card=convert"]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(result(&forced)["url"], "https://x.example");
    assert!(
        forced.stderr.contains("warning: [to03-card-v10-only]"),
        "{}",
        forced.stderr
    );
    // An interface without a version, or at 0.3, is one a v0.3 client can use.
    let mut mixed = card.clone();
    mixed["supportedInterfaces"]
        .as_array_mut()
        .unwrap()
        .push(json!({"url": "https://old.example", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"}));
    let done = migrate(&mixed, &["--to", "0.3"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(result(&done)["url"], "https://old.example");
    assert!(result(&done).get("additionalInterfaces").is_none());
}

#[test]
fn a_send_configuration_without_return_immediately_blocks_in_v03() {
    let input = json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {
        "message": {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "hi"}]},
        "configuration": {"historyLength": 2}}});
    let done = migrate(&input, &["--to", "0.3"]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        result(&done)["params"]["configuration"],
        json!({"historyLength": 2, "blocking": true})
    );
    // No configuration: none written, as the SDK writes none.
    let mut bare = input.clone();
    bare["params"]
        .as_object_mut()
        .unwrap()
        .remove("configuration");
    assert!(result(&migrate(&bare, &["--to", "0.3"]))["params"]
        .get("configuration")
        .is_none());
}

#[test]
fn timestamps_are_written_canonically_both_ways() {
    let cases = [
        ("2023-10-01T12:00:00.234-05:00", "2023-10-01T17:00:00.234Z"),
        ("2023-10-01T12:00:00.000Z", "2023-10-01T12:00:00Z"),
        ("2023-10-01T12:00:00.5Z", "2023-10-01T12:00:00.500Z"),
        (
            "2023-10-01T12:00:00.1234+00:00",
            "2023-10-01T12:00:00.123400Z",
        ),
    ];
    for (written, canonical) in cases {
        let v03 = json!({"kind": "task", "id": "t", "contextId": "c", "status": {"state": "working", "timestamp": written}});
        let forward = result(&migrate(&v03, &[]));
        assert_eq!(
            forward["status"]["timestamp"], canonical,
            "forward {written}"
        );
        let v10 = json!({"id": "t", "contextId": "c", "status": {"state": "TASK_STATE_WORKING", "timestamp": written}});
        let back = migrate(&v10, &["--to", "0.3"]);
        assert_eq!(back.code, 0, "{}", back.stderr);
        assert_eq!(
            result(&back)["status"]["timestamp"],
            canonical,
            "reverse {written}"
        );
    }
}

#[test]
fn a_rest_data_part_beside_proto_names_is_unwrapped_without_a_hint() {
    let input = json!({"artifact_id": "a", "parts": [{"data": {"data": {"k": 1}}}]});
    let done = migrate(&input, &[]);
    assert_eq!(done.code, 0, "{}", done.stderr);
    assert_eq!(
        result(&done),
        json!({"artifactId": "a", "parts": [{"data": {"k": 1}}]})
    );
    // With JSON names nothing tells the REST wrapper from v1.0 data holding `data`.
    let camel = json!({"artifactId": "a", "parts": [{"data": {"data": {"k": 1}}}]});
    assert_eq!(result(&migrate(&camel, &[])), camel);
}
