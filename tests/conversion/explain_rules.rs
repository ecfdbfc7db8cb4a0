//! Every K1-A row and every conversion-table row, exercised through `explain --format json`
//! on the bundled fixtures. Each test names the row it guards.

use crate::common::{a2a, run};
use serde_json::Value;

fn explain(fixture: &str, mode: &str, extra: &[&str]) -> Value {
    let path = a2a(fixture);
    let mut args = vec!["explain", "--format", "json", "--mode", mode];
    args.extend_from_slice(extra);
    let path = path.to_string_lossy().into_owned();
    args.push(&path);
    let result = run(&args);
    assert!(
        result.code == 0 || result.code == 1,
        "exit {}: {}",
        result.code,
        result.stderr
    );
    result.json_lines().remove(0)
}

fn matched(explanation: &Value) -> Vec<String> {
    explanation["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|row| row["matched"] == Value::Bool(true))
        .map(|row| row["id"].as_str().unwrap().to_owned())
        .collect()
}

fn flags(explanation: &Value) -> (bool, String, bool, bool) {
    let handoff = &explanation["handoff"];
    (
        handoff["visible"].as_bool().unwrap(),
        handoff["source_kind"].as_str().unwrap().to_owned(),
        handoff["task_ref_visible"].as_bool().unwrap(),
        handoff["message_ref_visible"].as_bool().unwrap(),
    )
}

fn defaults() -> (bool, String, bool, bool) {
    (false, "unknown".to_owned(), false, false)
}

fn decided_by(explanation: &Value, field: &str) -> Vec<String> {
    let field = explanation["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == field)
        .unwrap();
    field["decided_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|id| id.as_str().unwrap().to_owned())
        .collect()
}

fn error_of(explanation: &Value) -> (String, String, Vec<String>) {
    (
        explanation["error"]["kind"]
            .as_str()
            .unwrap_or("")
            .to_owned(),
        explanation["error"]["message"]
            .as_str()
            .unwrap_or("")
            .to_owned(),
        explanation["conversion_rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_str().unwrap().to_owned())
            .collect(),
    )
}

#[test]
fn row_p_tr_mr_typed_positive() {
    let explanation = explain("happy_task_requested", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["P", "TR", "MR"]);
    assert_eq!(
        flags(&explanation),
        (true, "typed_payload".to_owned(), true, true)
    );
    assert_eq!(decided_by(&explanation, "visible"), vec!["P"]);
    assert_eq!(explanation["state"], "typed positive: task + message refs");
}

#[test]
fn row_tr_without_mr_is_task_ref_only() {
    let explanation = explain("positive_task_ref_only", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["P", "TR"]);
    assert_eq!(decided_by(&explanation, "message_ref_visible"), vec!["MR"]);
    assert_eq!(explanation["state"], "typed positive: task ref only");
}

#[test]
fn row_syn_and_n4_lenient_delegation_without_task_id() {
    let explanation = explain("negative_missing_task_id", "lenient", &[]);
    assert_eq!(matched(&explanation), vec!["P", "MR", "SYN", "N4"]);
    assert_eq!(
        flags(&explanation),
        (true, "typed_payload".to_owned(), false, true)
    );
    assert_eq!(
        decided_by(&explanation, "task_ref_visible"),
        vec!["SYN", "N4"]
    );
    assert_eq!(explanation["state"], "typed positive: message ref only");
}

#[test]
fn neither_ref_when_ids_are_not_strings() {
    // task.id 42 is not typed: strict rejects, lenient substitutes and still promotes.
    let strict = explain("positive_no_refs", "strict", &[]);
    assert_eq!(error_of(&strict).2, vec!["S3"]);
    let lenient = explain("positive_no_refs", "lenient", &[]);
    assert_eq!(
        flags(&lenient),
        (true, "typed_payload".to_owned(), false, false)
    );
    assert_eq!(lenient["state"], "typed positive: no refs");
}

#[test]
fn literal_unknown_task_string_is_still_typed() {
    let explanation = explain("literal_unknown_task_id", "lenient", &[]);
    assert_eq!(matched(&explanation), vec!["P", "TR", "MR"]);
    assert_eq!(
        flags(&explanation),
        (true, "typed_payload".to_owned(), true, true)
    );
}

#[test]
fn row_n1_x1_artifact_shared_with_task_id() {
    let explanation = explain("happy_artifact_shared", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["N1", "X1"]);
    assert_eq!(flags(&explanation), defaults());
    assert_eq!(decided_by(&explanation, "visible"), vec!["N1", "X1"]);
}

#[test]
fn row_n2_x2_generic_message_fallback() {
    let explanation = explain("n2_unknown_event_type", "lenient", &[]);
    assert_eq!(matched(&explanation), vec!["N2", "N6", "X2", "X9"]);
    assert_eq!(explanation["canonical_type"], "assay.adapter.a2a.message");
    assert_eq!(flags(&explanation), defaults());
    let without_message = explain("n2_unknown_event_without_message", "lenient", &[]);
    assert_eq!(flags(&without_message), defaults());
    assert_eq!(
        without_message["conversion_rows"],
        serde_json::json!(["L2", "L5"])
    );
}

#[test]
fn row_n3_strict_task_requested_without_task_id() {
    let explanation = explain("negative_missing_task_id", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["N3"]);
    assert_eq!(
        error_of(&explanation),
        (
            "measurement".to_owned(),
            "missing required field: task.id".to_owned(),
            vec!["S3".to_owned()]
        )
    );
    assert!(explanation.get("handoff").is_none());
}

#[test]
fn row_n5_x5_non_delegation_kind() {
    let explanation = explain("n5_task_kind_analysis", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["N5", "X5"]);
    assert_eq!(flags(&explanation), defaults());
}

#[test]
fn row_n5_x4_missing_kind() {
    for fixture in ["n5_task_kind_missing", "n5_task_kind_not_a_string"] {
        let explanation = explain(fixture, "strict", &[]);
        assert_eq!(matched(&explanation), vec!["N5", "X4"], "{fixture}");
        assert_eq!(flags(&explanation), defaults());
    }
}

#[test]
fn row_n6_x6_x7_x8_x9_weak_signals_alone() {
    let explanation = explain("n6_weak_signals_only", "strict", &[]);
    assert_eq!(
        matched(&explanation),
        vec!["N5", "N6", "X4", "X6", "X7", "X8", "X9"]
    );
    assert_eq!(flags(&explanation), defaults());
    assert_eq!(decided_by(&explanation, "visible"), vec!["N5", "X4", "N6"]);
}

#[test]
fn row_n7_x10_task_updated_never_promotes() {
    let explanation = explain("n7_task_updated_delegation", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["N6", "N7", "X6", "X10"]);
    assert_eq!(flags(&explanation), defaults());
}

#[test]
fn row_x3_agent_capabilities() {
    let explanation = explain("x3_agent_capabilities", "strict", &[]);
    assert_eq!(matched(&explanation), vec!["N6", "X3", "X7", "X8"]);
    assert_eq!(flags(&explanation), defaults());
}

#[test]
fn error_rows_c3_c5_c6_c7() {
    let cases = [
        (
            "error_invalid_json",
            "C3",
            "measurement",
            "invalid A2A payload JSON: EOF while parsing a value at line 2 column 0",
        ),
        (
            "error_protocol_not_a2a",
            "C5",
            "measurement",
            "protocol must be 'a2a'",
        ),
        (
            "error_missing_version",
            "C6",
            "measurement",
            "missing required field: version",
        ),
        (
            "error_version_1_0",
            "C7",
            "unsupported_protocol_version",
            "unsupported A2A version: 1.0",
        ),
    ];
    for (fixture, row, kind, message) in cases {
        for mode in ["strict", "lenient"] {
            let explanation = explain(fixture, mode, &[]);
            assert_eq!(
                error_of(&explanation),
                (kind.to_owned(), message.to_owned(), vec![row.to_owned()]),
                "{fixture} {mode}"
            );
            assert!(matched(&explanation).is_empty());
        }
    }
}

#[test]
fn error_row_c6_ingest_version_fills_in() {
    let explanation = explain(
        "error_missing_version",
        "strict",
        &["--protocol-version", "0.3"],
    );
    assert_eq!(explanation["ok"], true);
    assert_eq!(
        flags(&explanation),
        (true, "typed_payload".to_owned(), true, false)
    );
}

#[test]
fn error_rows_c1_c4d_c4a_limits() {
    let cases = [
        (
            vec!["--max-payload-bytes", "10"],
            "C1",
            "payload exceeds max_payload_bytes (10)",
        ),
        (
            vec!["--max-json-depth", "2"],
            "C4D",
            "payload exceeds max_json_depth (2)",
        ),
        (
            vec!["--max-array-length", "2"],
            "C4A",
            "payload exceeds max_array_length (2)",
        ),
    ];
    for (flags, row, message) in cases {
        let explanation = explain("x3_agent_capabilities", "strict", &flags);
        assert_eq!(
            error_of(&explanation),
            (
                "measurement".to_owned(),
                message.to_owned(),
                vec![row.to_owned()]
            )
        );
    }
}

#[test]
fn error_rows_s1_s2_s3_s4_and_substitutions_l1_l3_l4() {
    let strict = [
        (
            "missing_agent_id",
            "S1",
            "measurement",
            "missing required field: agent.id",
        ),
        (
            "n2_unknown_event_type",
            "S2",
            "strict_lossiness_violation",
            "unsupported event_type in strict mode",
        ),
        (
            "task_updated_missing_task_id",
            "S3",
            "measurement",
            "missing required field: task.id",
        ),
        (
            "artifact_missing_id",
            "S4",
            "measurement",
            "missing required field: artifact.id",
        ),
    ];
    for (fixture, row, kind, message) in strict {
        assert_eq!(
            error_of(&explain(fixture, "strict", &[])),
            (kind.to_owned(), message.to_owned(), vec![row.to_owned()])
        );
    }
    let lenient = [
        ("missing_agent_id", vec!["L1"]),
        ("task_updated_missing_task_id", vec!["L3"]),
        ("artifact_missing_id", vec!["L4"]),
    ];
    for (fixture, rows) in lenient {
        let explanation = explain(fixture, "lenient", &[]);
        assert_eq!(explanation["ok"], true);
        assert_eq!(error_of(&explanation).2, rows, "{fixture}");
    }
    // N3 is only the task.requested case; task.updated without an id is S3 alone.
    assert!(matched(&explain("task_updated_missing_task_id", "strict", &[])).is_empty());
}

#[test]
fn duplicate_keys_are_reported_and_the_last_value_converts() {
    let explanation = explain("duplicate_task_kind", "strict", &[]);
    assert_eq!(
        explanation["duplicate_keys"],
        serde_json::json!([{"path": "$.task.kind", "occurrences": 2}])
    );
    assert_eq!(matched(&explanation), vec!["P", "TR"]);
    let text = run(&["explain", &a2a("duplicate_task_kind").to_string_lossy()]);
    assert_eq!(text.code, 1);
    assert!(
        text.stdout
            .contains("duplicate key $.task.kind appears 2 times"),
        "{}",
        text.stdout
    );
}

#[test]
fn hostile_strings_never_reach_the_terminal_raw() {
    let path = a2a("hostile_control_characters")
        .to_string_lossy()
        .into_owned();
    for args in [
        vec!["explain", &path],
        vec!["explain", "--format", "json", &path],
        vec!["convert", &path],
    ] {
        let result = run(&args);
        for forbidden in ['\u{1b}', '\u{9b}', '\u{202e}', '\u{200b}'] {
            assert!(
                !result.stdout.contains(forbidden),
                "{forbidden:?} leaked from {args:?}"
            );
        }
    }
    let text = run(&["explain", &path]).stdout;
    assert!(
        text.contains("task-\\u{9b}15") && text.contains("msg\\u{200b}-15"),
        "{text}"
    );
    // JSON output escapes instead, and stays the same JSON value.
    let converted = run(&["convert", &path]).json_lines();
    assert_eq!(
        converted[0]["batch"]["events"][0]["data"]["agent"]["role"],
        "\u{202e}toor"
    );
}

#[test]
fn canonical_examples_audit_clean_and_broken_payloads_are_named() {
    let path = crate::common::fixtures().join("a2a/happy_task_requested.strict.payload.json");
    let clean = run(&["explain", "--format", "json", &path.to_string_lossy()]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    assert_eq!(clean.json_lines()[0]["findings"], serde_json::json!([]));

    let dir = tempfile::tempdir().unwrap();
    let mut payload: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    payload["upstream_event_type"] = "artifact.shared".into();
    payload["handoff"]["source_kind"] = "attributes".into();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, payload.to_string()).unwrap();
    let result = run(&["explain", "--format", "json", &broken.to_string_lossy()]);
    assert_eq!(result.code, 1);
    let rules: Vec<String> = result.json_lines()[0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| {
            format!(
                "{} {}",
                finding["rule"].as_str().unwrap(),
                finding["path"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        rules,
        vec!["HE $.handoff.source_kind", "N1 $.handoff.visible"]
    );
}
