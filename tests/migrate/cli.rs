//! `handoff-inspector migrate` through the real binary: every fixture pair, re-migration,
//! the trace and report formats, choices, bad input and exit codes.

use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate")
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn run_path(args: &[&str], path: &Path) -> Output {
    bin()
        .args(args)
        .arg(path)
        .output()
        .expect("the binary runs")
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "stdout is not JSON ({error}): {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// An input fixture, its expected output, and the `--to` that turns one into the other.
struct Pair {
    input: PathBuf,
    expected: PathBuf,
    to: &'static str,
}

fn pairs(dir: &Path) -> Vec<Pair> {
    let mut pairs = Vec::new();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    for name in &names {
        let (stem, to, target) = if let Some(stem) = name
            .strip_suffix(".v03.jsonrpc.json")
            .map(|stem| format!("{stem}.v03.jsonrpc"))
            .or_else(|| {
                name.strip_suffix(".v03.rest.json")
                    .map(|stem| format!("{stem}.v03.rest"))
            }) {
            (stem, "1.0", "v10")
        } else if let Some(stem) = name
            .strip_suffix(".v10.json")
            .filter(|stem| !stem.contains(".v03."))
        {
            (format!("{stem}.v10"), "0.3", "v03")
        } else {
            continue;
        };
        let expected = dir.join(format!("{stem}.{target}.json"));
        assert!(
            expected.exists(),
            "{name} has no expected output {}",
            expected.display()
        );
        pairs.push(Pair {
            input: dir.join(name),
            expected,
            to,
        });
    }
    pairs
}

fn main_pairs() -> Vec<Pair> {
    pairs(&fixtures())
}

fn bad_pairs() -> Vec<Pair> {
    pairs(&fixtures().join("bad"))
}

#[test]
fn every_fixture_migrates_to_its_expected_output() {
    let all: Vec<Pair> = main_pairs().into_iter().chain(bad_pairs()).collect();
    assert!(all.len() >= 50, "only {} fixture pairs", all.len());
    for pair in all {
        let output = run_path(&["migrate", "--to", pair.to], &pair.input);
        assert_eq!(
            output.status.code(),
            expected_code(&pair.input),
            "{}: {}",
            pair.input.display(),
            stderr(&output)
        );
        assert_eq!(
            stdout_json(&output),
            read_json(&pair.expected),
            "{} differs from {}",
            pair.input.display(),
            pair.expected.display()
        );
    }
}

#[test]
fn both_dialects_and_every_object_type_have_fixtures() {
    let names: Vec<String> = main_pairs()
        .iter()
        .map(|pair| {
            pair.input
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let has = |needle: &str| names.iter().any(|name| name.starts_with(needle));
    for object in [
        "task.v03.jsonrpc",
        "task.v03.rest",
        "task-status.",
        "message.v03.jsonrpc",
        "message.v03.rest",
        "part-text.",
        "part-file-uri.v03.jsonrpc",
        "part-file-uri.v03.rest",
        "part-file-bytes.v03.jsonrpc",
        "part-file-bytes.v03.rest",
        "part-data.",
        "artifact.",
        "status-update-event.v03.jsonrpc",
        "status-update-event.v03.rest",
        "artifact-update-event.v03.jsonrpc",
        "artifact-update-event.v03.rest",
        "send-message-request.v03.jsonrpc",
        "send-message-request.v03.rest",
        "send-message-response-task.",
        "send-message-response-message.",
        "stream-status-update.",
        "stream-artifact-update.",
        "stream-response.v03.rest",
        "get-task-request.",
        "cancel-task-request.",
        "resubscribe-request.",
        "push-config-set-request.",
        "push-config-get-request.",
        "push-config-list-request.",
        "push-config-delete-request.",
        "push-config-list-response.v03.jsonrpc",
        "push-config-list-response.v03.rest",
        "push-config-get-response.",
        "task-push-notification-config.v03.jsonrpc",
        "task-push-notification-config.v03.rest",
        "push-notification-config.",
        "extended-card-request.",
        "error-response.",
        "error-32007.",
        "list-tasks-draft-request.",
        "agent-card.v03.jsonrpc",
        "agent-card.v03.rest",
        "task.v10",
        "agent-card.v10",
    ] {
        assert!(has(object), "no fixture for {object}");
    }
}

/// The fixtures `migrate --to 0.3` refuses (exit 1): v0.3 output the v0.3 check rejects
/// (ListTasks has no v0.3.0 method; a request without `id`, with an object `id`, or a
/// SendMessage without `message`), or a card no v0.3 client could use.
const REFUSED: &[&str] = &[
    "bad/list-tasks-request.v10.json",
    "bad/get-task-request-no-id.v10.json",
    "bad/get-task-request-object-id.v10.json",
    "bad/send-message-request-empty-params.v10.json",
    "bad/agent-card-v10-only.v10.json",
];

/// The exit code `migrate` gives a fixture: 1 for the refused ones, never 0 with such
/// output.
fn expected_code(path: &Path) -> Option<i32> {
    Some(if REFUSED.iter().any(|refused| path.ends_with(refused)) {
        1
    } else {
        0
    })
}

/// The `--format json` report of one file.
fn report(args: &[&str], path: &Path) -> Value {
    let mut all = vec!["migrate", "--format", "json"];
    all.extend_from_slice(args);
    let output = run_path(&all, path);
    assert_eq!(
        output.status.code(),
        expected_code(path),
        "{}: {}",
        path.display(),
        stderr(&output)
    );
    stdout_json(&output)
}

#[test]
fn well_formed_fixtures_pass_the_target_check() {
    for pair in main_pairs() {
        let report = report(&["--to", pair.to], &pair.input);
        assert_eq!(report["findings"], json!([]), "{}", pair.input.display());
        let errors: Vec<&Value> = report["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|warning| warning["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", pair.input.display());
    }
}

#[test]
fn migrating_a_migrated_object_changes_nothing() {
    for pair in main_pairs() {
        let expected = read_json(&pair.expected);
        let again = run_path(&["migrate", "--to", pair.to], &pair.expected);
        if again.status.code() == Some(1) {
            // A bare v1.0 text or data part reads the same as a v0.3 part without `kind`, and
            // is too common to claim; the tool says so instead of guessing.
            let keys: Vec<&String> = expected.as_object().unwrap().keys().collect();
            assert!(
                keys.iter()
                    .all(|key| ["text", "data", "metadata"].contains(&key.as_str())),
                "{}: {}",
                pair.expected.display(),
                stderr(&again)
            );
            assert!(
                stderr(&again).contains("too common to claim"),
                "{}",
                stderr(&again)
            );
            continue;
        }
        let report = report(&["--to", pair.to], &pair.expected);
        assert_eq!(report["result"], expected, "{}", pair.expected.display());
        for step in report["steps"].as_array().unwrap() {
            assert_eq!(
                step["before_digest"],
                step["after_digest"],
                "{}: step {} changed a migrated object",
                pair.expected.display(),
                step["id"]
            );
        }
    }
}

#[test]
fn every_step_is_exercised_by_some_fixture() {
    let mut seen = BTreeSet::new();
    for pair in main_pairs().into_iter().chain(bad_pairs()) {
        let report = report(&["--to", pair.to], &pair.input);
        for step in report["steps"].as_array().unwrap() {
            seen.insert(step["id"].as_str().unwrap().to_owned());
        }
    }
    let list = run(&["migrate", "--list-steps"]);
    let table = String::from_utf8_lossy(&list.stdout);
    let ids: Vec<&str> = table
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|id| !id.starts_with("--"))
        .collect();
    assert!(ids.len() >= 60, "{ids:?}");
    for id in ids {
        assert!(seen.contains(id), "no fixture exercises step {id}");
    }
}

#[test]
fn v10_input_is_recognised_and_left_unchanged_with_a_note() {
    let path = fixtures().join("task.v03.jsonrpc.v10.json");
    let output = run_path(&["migrate"], &path);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_json(&output), read_json(&path));
    assert!(
        stderr(&output).contains("already A2A v1.0: left unchanged"),
        "{}",
        stderr(&output)
    );
    let report = report(&[], &path);
    assert_eq!(report["detected"]["version"], "1.0");
    assert_eq!(report["steps"], json!([]));
}

#[test]
fn json_report_has_the_documented_shape() {
    let report = report(
        &[],
        &fixtures().join("send-message-request.v03.jsonrpc.json"),
    );
    assert_eq!(report["detected"]["version"], "0.3");
    assert_eq!(report["detected"]["dialect"], "json-rpc");
    assert_eq!(report["detected"]["object"], "json-rpc-request");
    assert!(report["detected"]["reasons"].as_array().unwrap().len() >= 2);
    let steps = report["steps"].as_array().unwrap();
    let ids: Vec<&str> = steps
        .iter()
        .map(|step| step["id"].as_str().unwrap())
        .collect();
    for id in [
        "jsonrpc-method-rename",
        "send-config-blocking-to-returnImmediately",
        "send-config-push-rename",
        "history-length-zero",
        "push-auth-schemes-to-scheme",
        "role-enum",
        "part-text",
    ] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    for step in steps {
        for key in [
            "id",
            "title",
            "paths",
            "lossy",
            "choice",
            "before_digest",
            "after_digest",
        ] {
            assert!(step.get(key).is_some(), "step without {key}: {step}");
        }
        assert_eq!(step["before_digest"].as_str().unwrap().len(), 64);
    }
    let history = steps
        .iter()
        .find(|step| step["id"] == "history-length-zero")
        .unwrap();
    assert_eq!(history["lossy"], true);
    assert_eq!(history["choice"]["key"], "history-length-zero");
    assert_eq!(history["choice"]["value"], "unlimited");
    assert_eq!(history["choice"]["default"], true);
    assert_eq!(
        history["choice"]["override_hint"],
        "--choice history-length-zero=keep"
    );
    assert_eq!(
        history["paths"],
        json!([{"before": "$.params.configuration.historyLength", "after": null}])
    );
    // Consecutive steps chain: each starts where the previous one ended.
    for window in steps.windows(2) {
        assert_eq!(window[0]["after_digest"], window[1]["before_digest"]);
    }
    assert_eq!(
        report["result"],
        read_json(&fixtures().join("send-message-request.v03.jsonrpc.v10.json"))
    );
    assert!(report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w["rule"] == "history-length-zero"));
}

#[test]
fn steps_trace_shows_each_step_with_its_diff_and_marks() {
    let output = run_path(
        &["migrate", "--steps"],
        &fixtures().join("agent-card.v03.jsonrpc.json"),
    );
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("A2A v0.3 AgentCard (JSON-RPC dialect) -> v1.0"),
        "{text}"
    );
    assert!(text.contains("detected from:"));
    assert!(text.contains("step 1/"));
    assert!(text.contains("card-interfaces-merge: url, preferredTransport"));
    assert!(
        text.contains("  path     $.url -> $.supportedInterfaces[0].url"),
        "{text}"
    );
    assert!(text.contains("LOSSY"));
    assert!(text.contains("CHOICE interface-protocol-version=0.3 (default; other: --choice interface-protocol-version=1.0)"), "{text}");
    assert!(
        text.contains("    -  \"preferredTransport\": \"JSONRPC\","),
        "{text}"
    );
    assert!(
        text.contains("    +      \"protocolBinding\": \"JSONRPC\""),
        "{text}"
    );
    assert!(text.contains("check against v1.0: no findings"));
}

#[test]
fn choices_change_the_result() {
    let cases: &[(&str, &str, &str, Value)] = &[
        (
            "send-message-request.v03.jsonrpc.json",
            "history-length-zero=keep",
            "/params/configuration/historyLength",
            json!(0),
        ),
        (
            "send-message-response-task.v03.jsonrpc.json",
            "task-result=get",
            "/result/id",
            json!("task-3"),
        ),
        (
            "agent-card.v03.jsonrpc.json",
            "interface-protocol-version=1.0",
            "/supportedInterfaces/0/protocolVersion",
            json!("1.0"),
        ),
        (
            "agent-card.v03.jsonrpc.json",
            "interface-protocol-version=card",
            "/supportedInterfaces/1/protocolVersion",
            json!("0.3.0"),
        ),
        (
            "agent-card.v03.jsonrpc.json",
            "signatures=keep",
            "/signatures/0/signature",
            json!("c2lnbmF0dXJl"),
        ),
        (
            "task.v03.jsonrpc.json",
            "bare-task=webhook",
            "/task/id",
            json!("task-1"),
        ),
        (
            "error-response.v03.jsonrpc.json",
            "error-data=keep",
            "/error/data/retryable",
            json!(false),
        ),
        (
            "bad/multi-push-schemes.v03.jsonrpc.json",
            "push-auth-scheme=Basic",
            "/params/authentication/scheme",
            json!("Basic"),
        ),
        (
            "bad/multi-oauth-flows.v03.jsonrpc.json",
            "oauth-flow=clientCredentials",
            "/securitySchemes/oauth/oauth2SecurityScheme/flows/clientCredentials/tokenUrl",
            json!("https://auth.example.com/token"),
        ),
        (
            "bad/naive-timestamp.v03.jsonrpc.json",
            "naive-timestamp-zone=+02:00",
            "/status/timestamp",
            json!("2025-04-02T14:59:25.331844Z"),
        ),
        (
            "bad/invalid-base64.v03.jsonrpc.json",
            "invalid-base64=repair",
            "/raw",
            json!("iVBORw0KGgo="),
        ),
        (
            "bad/file-data-slip.v03.jsonrpc.json",
            "file-data=bytes",
            "/parts/0/raw",
            json!("aGk="),
        ),
    ];
    for (file, choice, pointer, expected) in cases {
        let output = run_path(&["migrate", "--choice", choice], &fixtures().join(file));
        assert_eq!(
            output.status.code(),
            Some(0),
            "{file} {choice}: {}",
            stderr(&output)
        );
        let result = stdout_json(&output);
        assert_eq!(
            result.pointer(pointer),
            Some(expected),
            "{file} {choice}: {result}"
        );
    }
    let output = run_path(
        &[
            "migrate",
            "--to",
            "0.3",
            "--choice",
            "final=terminal-or-interrupted",
        ],
        &fixtures().join("stream-status-update.v10.json"),
    );
    assert_eq!(
        stdout_json(&output).pointer("/result/final"),
        Some(&json!(true))
    );
    let output = run_path(
        &["migrate", "--choice", "push-config-id=cfg-7"],
        &write_temp(
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tasks/pushNotificationConfig/get", "params": {"id": "t"}}),
        ),
    );
    assert_eq!(
        stdout_json(&output)["params"],
        json!({"taskId": "t", "id": "cfg-7"})
    );
}

fn write_temp(value: &Value) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("migrate-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", NEXT.fetch_add(1, Ordering::SeqCst)));
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path
}

#[test]
fn bad_input_is_named_in_a_warning_or_finding() {
    let cases: &[(&str, &str)] = &[
        ("mixed-versions.v03.jsonrpc.json", "mixed versions: detected v0.3 but found $.status.state"),
        ("invalid-base64.v03.jsonrpc.json", "error: [part-file-bytes] $.raw: not valid base64"),
        ("invalid-base64.v03.jsonrpc.json", "error: [V10-BASE64] $.raw"),
        ("naive-timestamp.v03.jsonrpc.json", "warning: [timestamp-utc-z] $.status.timestamp: 2025-04-02T16:59:25.331844 had no zone"),
        ("multi-oauth-flows.v03.jsonrpc.json", "warning: [oauth-flows-single] $.securitySchemes.oauth: v1.0 allows one OAuth flow per scheme"),
        ("multi-push-schemes.v03.jsonrpc.json", "warning: [push-auth-schemes-to-scheme] $.params.authentication.schemes: v1.0 holds one scheme: kept Bearer, dropped Basic"),
        ("file-data-slip.v03.jsonrpc.json", "error: [part-file-data] $.parts[0].file.data"),
        ("missing-role.v03.jsonrpc.json", "error: [V10-REQUIRED] $.role: Message requires `role`"),
        ("list-tasks-request.v10.json", "error: [V03-METHOD] $.method"),
        ("list-tasks-request.v10.json", "error: the v0.3 result fails the v0.3 check at $.method (V03-METHOD)"),
        ("message-v02-part-type.v03.jsonrpc.json", "warning: [drop-unknown-members] $.parts[0].type: dropped `type` = \"text\""),
        ("task-status-offset.v10.json", "warning: [to03-timestamp-utc-z] $.status.timestamp: 2023-10-01T12:00:00.234-05:00 converted to UTC 2023-10-01T17:00:00.234Z"),
        ("get-task-request-no-id.v10.json", "error: the v0.3 result fails the v0.3 check at $.id (V03-JSONRPC)"),
        ("get-task-request-object-id.v10.json", "error: [V03-JSONRPC] $.id: `id` must be a string or an integer, found {\"bad\":\"type\"}"),
        ("send-message-request-empty-params.v10.json", "error: the v0.3 result fails the v0.3 check at $.params.message (V03-REQUIRED)"),
        // A REST push config's name read as the SDK reads it: what follows the config id is
        // not read (a warning); a name with no task or config id is refused where it raises.
        ("push-config-name-trailing.v03.rest.json", "warning: [task-push-config-flatten] $.name: `/extra` after the config id is not read"),
        ("push-config-name-empty-task.v03.rest.json", "error: [task-push-config-flatten] $.name: `name` does not start `tasks/{task}/pushNotificationConfigs/{config}` with a task and a config id"),
        ("agent-card-v10-only.v10.json", "`--choice v10-only-card=convert` writes the v0.3 card anyway"),
        ("agent-card-v10-only.v10.json", "error: the migration to v0.3 failed at $.supportedInterfaces (to03-card-v10-only)"),
    ];
    for (file, expected) in cases {
        let path = fixtures().join("bad").join(file);
        let to = if file.ends_with(".v10.json") {
            "0.3"
        } else {
            "1.0"
        };
        let output = run_path(&["migrate", "--to", to], &path);
        assert_eq!(output.status.code(), expected_code(&path), "{file}");
        assert!(
            stderr(&output).contains(expected),
            "{file}: expected {expected:?} in\n{}",
            stderr(&output)
        );
    }
}

#[test]
fn dropped_fields_are_named() {
    let cases: &[(&str, &str)] = &[
        ("status-update-event.v03.jsonrpc.json", "[status-event-drop-final] $.final: dropped `final` = false"),
        ("get-task-request.v03.jsonrpc.json", "[drop-request-metadata] $.params.metadata: dropped `metadata` = {\"x\":\"y\"}"),
        ("agent-card.v03.jsonrpc.json", "[card-drop-state-transition-history] $.capabilities.stateTransitionHistory: dropped"),
        ("agent-card.v03.jsonrpc.json", "[card-signatures-invalidated] $.signatures: dropped 1 signature(s)"),
        ("agent-card.v03.jsonrpc.json", "[card-protocol-version-into-interfaces] $.protocolVersion: patch digits dropped: 0.3.0 became 0.3"),
        ("error-response.v03.jsonrpc.json", "`retryable` = false became its JSON text"),
        ("send-message-request.v03.jsonrpc.json", "[history-length-zero] $.params.configuration.historyLength: dropped `historyLength: 0`"),
    ];
    for (file, expected) in cases {
        let output = run_path(&["migrate"], &fixtures().join(file));
        assert!(
            stderr(&output).contains(expected),
            "{file}: expected {expected:?} in\n{}",
            stderr(&output)
        );
    }
    let output = run_path(
        &["migrate", "--to", "0.3"],
        &fixtures().join("agent-card-oauth.v10.json"),
    );
    for expected in [
        "[to03-drop-tenant] $.supportedInterfaces[0].tenant: dropped `tenant` = \"acme\"",
        "pkceRequired: dropped `pkceRequired` = true",
        "[to03-card-v10-only] $.supportedInterfaces[0]: dropped the interface at \"https://s.example.com/a2a\": its protocolVersion \"1.0\" is not one a v0.3 client speaks",
    ] {
        assert!(
            stderr(&output).contains(expected),
            "expected {expected:?} in\n{}",
            stderr(&output)
        );
    }
}

#[test]
fn not_a2a_input_exits_1_with_the_reason() {
    let cases: &[(&str, &str)] = &[
        ("plain.json", "no A2A object found"),
        ("array.json", "the top-level JSON value is an array"),
        ("adapter-packet.json", "a raw A2A adapter packet"),
        ("canonical-payload.json", "a canonical A2A adapter payload"),
        ("evidence-event.json", "an adapter evidence event"),
        ("not-json.json", "not JSON"),
        ("jsonrpc-response.json", "carries nothing A2A-specific"),
        ("jsonrpc-request.json", "\"eth_call\" is not an A2A method"),
    ];
    for (file, reason) in cases {
        let output = run_path(&["migrate"], &fixtures().join("not-a2a").join(file));
        assert_eq!(output.status.code(), Some(1), "{file}");
        assert!(output.stdout.is_empty(), "{file}");
        let message = stderr(&output);
        assert!(
            message.contains("not an A2A object") && message.contains(reason),
            "{file}: {message}"
        );
        assert!(
            message.contains(file),
            "{file}: the message names the file: {message}"
        );
    }
}

#[test]
fn usage_and_io_errors_exit_2() {
    let task = fixtures().join("task.v03.jsonrpc.json");
    let task = task.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["migrate", "/nonexistent/task.json"],
            "/nonexistent/task.json",
        ),
        (&["migrate", "--choice", "nope=1", task], "unknown key"),
        (
            &["migrate", "--choice", "task-result=maybe", task],
            "expected send, get",
        ),
        (
            &["migrate", "--choice", "naive-timestamp-zone=Mars", task],
            "offset",
        ),
        (
            &["migrate", "--choice", "final=terminal", task],
            "unknown key",
        ),
        (&["migrate", "--choice", "novalue", task], "KEY=VALUE"),
        (&["migrate", "--to", "2.0", task], "2.0"),
        (&["migrate"], "FILE"),
    ];
    for (args, message) in cases {
        let output = run(args);
        assert_eq!(
            output.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(
            stderr(&output).contains(message),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn reads_standard_input() {
    let mut child = bin()
        .args(["migrate", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(br#"{"kind": "text", "text": "hi"}"#)
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_json(&output), json!({"text": "hi"}));
}

#[test]
fn terminal_unsafe_text_is_escaped_but_the_json_is_equal() {
    let input = json!({"kind": "text", "text": "left\u{202e}right \u{1b}[2J \u{9b}"});
    let path = write_temp(&input);
    let output = run_path(&["migrate"], &path);
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    assert!(!text.contains('\u{202e}') && !text.contains('\u{1b}') && !text.contains('\u{9b}'));
    assert_eq!(
        stdout_json(&output),
        json!({"text": "left\u{202e}right \u{1b}[2J \u{9b}"})
    );
    let trace = run_path(&["migrate", "--steps"], &path);
    let trace = String::from_utf8(trace.stdout).unwrap();
    assert!(!trace.contains('\u{202e}') && !trace.contains('\u{1b}') && !trace.contains('\u{9b}'));
}

#[test]
fn duplicate_keys_are_named() {
    let dir = std::env::temp_dir().join(format!("migrate-dup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dup.json");
    std::fs::write(&path, br#"{"kind": "text", "text": "a", "text": "b"}"#).unwrap();
    let output = run_path(&["migrate"], &path);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("warning: [input] $.text: key appears 2 times"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn the_migrate_page_lists_the_generated_step_table() {
    let list = run(&["migrate", "--list-steps"]);
    assert_eq!(list.status.code(), Some(0));
    let table = String::from_utf8(list.stdout).unwrap();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/migrate.md"))
            .unwrap();
    assert!(
        readme.contains(table.trim_end()),
        "docs/migrate.md must contain the output of `migrate --list-steps`:\n{table}"
    );
}

#[test]
fn help_lists_steps_and_choices() {
    let output = run(&["migrate", "--help"]);
    let text = String::from_utf8_lossy(&output.stdout);
    for needle in [
        "jsonrpc-method-rename",
        "to03-status-event-add-final",
        "history-length-zero=unlimited",
        "Exit codes",
    ] {
        assert!(text.contains(needle), "{needle} missing from --help");
    }
}

#[test]
fn a_raw_adapter_packet_shows_the_seam_consequence_of_relabelling() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/a2a/happy_task_requested.json");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .arg("migrate")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "not an A2A protocol object");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("strict relabelled 1.0: rejected [C7] unsupported_protocol_version: unsupported A2A version: 1.0"), "{stderr}");
    assert!(
        stderr.contains("strict as sent (0.2): typed positive: task + message refs"),
        "{stderr}"
    );
}

/// Pipes `input` to `migrate ARGS -` and returns the output.
fn migrate_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = bin()
        .arg("migrate")
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command refused on its arguments (`--kind no-such-kind`) exits before it reads, and
    // the write then meets a closed pipe: the exit status and output are what is tested.
    match child.stdin.take().unwrap().write_all(input) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

#[test]
fn forced_readings_settle_what_the_shape_cannot_tell() {
    let part = br#"{"data": {"k": 1}}"#;
    let refused = migrate_stdin(&[], part);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("--kind part --from"),
        "{}",
        stderr(&refused)
    );
    let same = migrate_stdin(&["--kind", "part", "--from", "1.0"], part);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert_eq!(stdout_json(&same), json!({"data": {"k": 1}}));
    assert!(stderr(&same).contains("nothing differs between v0.3 and v1.0 for this object"));
    let back = migrate_stdin(&["--kind", "part", "--from", "1.0", "--to", "0.3"], part);
    assert_eq!(
        stdout_json(&back),
        json!({"kind": "data", "data": {"k": 1}})
    );
    // A JSON-RPC response with nothing A2A-specific: --from says it is one.
    let empty = br#"{"jsonrpc": "2.0", "id": 1, "result": null}"#;
    assert_eq!(migrate_stdin(&[], empty).status.code(), Some(1));
    let told = migrate_stdin(&["--from", "0.3"], empty);
    assert_eq!(told.status.code(), Some(0), "{}", stderr(&told));
    assert!(stderr(&told).contains("nothing differs between v0.3 and v1.0"));
    let unknown = migrate_stdin(&["--kind", "no-such-kind"], part);
    assert_eq!(unknown.status.code(), Some(2));
    // The classifier's forced reading (`--as a2a-1.0`) is the same hint as `--from 1.0`:
    // `explain` detects what `migrate --from` detects, and migrates it the same way.
    let path = write_temp(&json!({"jsonrpc": "2.0", "id": 1, "result": null}));
    let explained = run_path(&["explain", "--as", "a2a-1.0"], &path);
    let text = String::from_utf8_lossy(&explained.stdout);
    assert!(
        text.contains("detected: A2A v1.0 JSON-RPC response"),
        "{text}"
    );
    assert!(
        text.contains("nothing differs between v0.3 and v1.0"),
        "{text}"
    );
    let path = write_temp(&json!({"artifactId": "a", "parts": [{"data": {"k": 1}}]}));
    let explained = run_path(&["explain", "--as", "a2a-0.3"], &path);
    let text = String::from_utf8_lossy(&explained.stdout);
    assert!(text.contains("detected: A2A v0.3 Artifact"), "{text}");
}

#[test]
fn forced_readings_of_objects_only_a_hint_can_place() {
    // The v1.0 list-configs result with no configs (ProtoJSON left `configs` out): A2A only
    // by a hint; then it is v0.3's empty array.
    let empty = br#"{"jsonrpc": "2.0", "id": 4, "result": {}}"#;
    let refused = migrate_stdin(&["--to", "0.3"], empty);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("--from 0.3|1.0"),
        "{}",
        stderr(&refused)
    );
    let told = migrate_stdin(&["--from", "1.0", "--to", "0.3"], empty);
    assert_eq!(told.status.code(), Some(0), "{}", stderr(&told));
    assert_eq!(stdout_json(&told)["result"], json!([]));
    // A generic error and a delete's null result migrate to themselves when told.
    let error = br#"{"jsonrpc": "2.0", "id": 5, "error": {"code": -32603, "message": "x"}}"#;
    let same = migrate_stdin(&["--kind", "json-rpc-response"], error);
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(stderr(&same).contains("nothing differs between v0.3 and v1.0"));
    // A REST data part reads as a JSON-RPC one too; `--from 0.3-rest` says which.
    let part = br#"{"artifactId": "a", "parts": [{"data": {"data": {"k": 1}}}]}"#;
    let rpc = migrate_stdin(&["--from", "0.3"], part);
    assert_eq!(
        stdout_json(&rpc)["parts"][0],
        json!({"data": {"data": {"k": 1}}})
    );
    let rest = migrate_stdin(&["--from", "0.3-rest"], part);
    assert_eq!(rest.status.code(), Some(0), "{}", stderr(&rest));
    assert_eq!(stdout_json(&rest)["parts"][0], json!({"data": {"k": 1}}));
    // A `url` alone: the refusal names the two readings.
    let url = br#"{"url": "https://h/hook"}"#;
    let refused = migrate_stdin(&[], url);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("--kind push-notification-config --from 0.3"),
        "{}",
        stderr(&refused)
    );
    let same = migrate_stdin(
        &["--kind", "push-notification-config", "--from", "0.3"],
        url,
    );
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    assert!(stderr(&same).contains("nothing differs between v0.3 and v1.0"));
    // An A2A error without data gets the ErrorInfo naming it only when asked (as the SDK
    // writes every error).
    let error = br#"{"jsonrpc": "2.0", "id": 5, "error": {"code": -32001, "message": "gone"}}"#;
    assert!(stdout_json(&migrate_stdin(&[], error))["error"]
        .get("data")
        .is_none());
    let always = migrate_stdin(&["--choice", "error-data=always"], error);
    assert_eq!(
        stdout_json(&always)["error"]["data"][0]["reason"],
        "TASK_NOT_FOUND"
    );
    // A flat v1.0 push config in a result is a TaskPushNotificationConfig: nested again.
    let config = br#"{"jsonrpc": "2.0", "id": 6, "result": {"url": "https://h/hook"}}"#;
    let back = migrate_stdin(&["--to", "0.3"], config);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert_eq!(
        stdout_json(&back)["result"],
        json!({"taskId": "", "pushNotificationConfig": {"url": "https://h/hook"}})
    );
}

#[test]
fn reverse_migrates_the_inner_object_of_a_wrapped_result() {
    // ProtoJSON left the empty parts out: only the wrapper member says it is a Message.
    let input = br#"{"jsonrpc": "2.0", "id": 1, "result": {"message": {"messageId": "m", "role": "ROLE_USER"}}}"#;
    let output = migrate_stdin(&["--to", "0.3"], input);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        stdout_json(&output)["result"],
        json!({"kind": "message", "messageId": "m", "role": "user", "parts": []})
    );
    let event = br#"{"statusUpdate": {"status": {"state": "TASK_STATE_WORKING"}}}"#;
    let output = migrate_stdin(&["--to", "0.3"], event);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let result = stdout_json(&output);
    assert_eq!(result["kind"], "status-update");
    assert_eq!(result["status"]["state"], "working");
    assert_eq!(result["taskId"], "");
}

#[test]
fn lines_migrates_each_ndjson_line_on_its_own() {
    let input = b"{\"kind\": \"text\", \"text\": \"hi\"}\n\nnot json\n{\"hello\": 1}\n{\"id\": \"t\", \"status\": {\"state\": \"working\"}}\n";
    let output = migrate_stdin(&["--lines"], input);
    assert_eq!(output.status.code(), Some(1));
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0]["line"], 1);
    assert_eq!(lines[0]["result"], json!({"text": "hi"}));
    assert_eq!(lines[0]["steps"], json!(["part-text"]));
    assert_eq!(lines[1]["line"], 3);
    assert!(lines[1]["error"].as_str().unwrap().contains("not JSON"));
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .contains("not an A2A object"));
    assert_eq!(lines[3]["result"]["status"]["state"], "TASK_STATE_WORKING");
}

#[test]
fn proto_names_are_read_as_json_names_and_named() {
    let path = fixtures().join("message-proto-names.v03.rest.json");
    let output = run_path(&["migrate"], &path);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("note: [proto-field-names] $.messageId: read `message_id` (proto name)"),
        "{}",
        stderr(&output)
    );
    // The v0.3 JSON-RPC schema names only JSON names: there it is a warning.
    let rpc = br#"{"jsonrpc": "2.0", "id": 1, "method": "message/send", "params": {"message": {"message_id": "m", "role": "user", "parts": [{"kind": "text", "text": "x"}], "metadata": {"task_id": "theirs"}}}}"#;
    let output = migrate_stdin(&[], rpc);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stderr(&output).contains("warning: [proto-field-names] $.params.message.messageId"));
    let result = stdout_json(&output);
    assert_eq!(result["params"]["message"]["messageId"], "m");
    assert_eq!(
        result["params"]["message"]["metadata"],
        json!({"task_id": "theirs"})
    );
}
