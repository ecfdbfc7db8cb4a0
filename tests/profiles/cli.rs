//! `handoff-inspector profile` and `formats` through the real binary: exit codes, report
//! formats, flags, and bad input (unreadable files, paths leaving the artifact root, huge and
//! mistyped values) ending as findings or usage errors, never a crash.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/profiles")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn profile(file: &Path, extra: &[&str]) -> Output {
    let mut command = bin();
    command.arg("profile").arg(file).args(extra);
    command.output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const NOW: [&str; 2] = ["--now", "2026-06-01T00:00:00Z"];

#[test]
fn seed_uaix_fixture_exits_0_and_says_the_checksum_is_unverifiable() {
    let out = profile(&fixture("uaix/seed-004-fixture.json"), &NOW);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("UAIX-12  unverifiable"));
    assert!(text.contains("clock: 2026-06-01T00:00:00Z (fixed by --now)"));
    assert!(!text.to_lowercase().contains("verified"));
}

#[test]
fn expiry_follows_the_now_flag() {
    let file = fixture("uaix/seed-004-fixture.json");
    let later = profile(&file, &["--now", "2031-01-01T00:00:00Z"]);
    assert_eq!(later.status.code(), Some(1));
    assert!(stdout(&later).contains("expired packet"));
    let bad = profile(&file, &["--now", "tomorrow"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn failing_row_exits_1_and_json_carries_rule_paths_and_counts() {
    let out = profile(
        &fixture("ahc/neg-AHC-13-forbidden-mutation.json"),
        &["--format", "json"],
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["profile"]["kind"], "ahc");
    assert_eq!(report["profile_version"], "1.0");
    assert_eq!(report["counts"]["fail"], 2); // AHC-13 and V1
    let finding = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "AHC-13")
        .unwrap();
    assert_eq!(finding["path"], "$.attempted_mutations");
    assert_eq!(
        finding["message"],
        "attempted forbidden mutations: ['gates', 'protocol_review_contract']"
    );
}

#[test]
fn profile_version_changes_the_verdict() {
    let file = fixture("ahc/neg-AHC-15-no-applied.json");
    assert_eq!(profile(&file, &[]).status.code(), Some(0));
    let strict = profile(&file, &["--profile-version", "1.2.7"]);
    assert_eq!(strict.status.code(), Some(1));
    assert!(stdout(&strict).contains("rulebook_update.applied missing"));
    assert_eq!(
        profile(&file, &["--profile-version", "2.0"]).status.code(),
        Some(2)
    );
}

#[test]
fn artifact_root_flag_moves_the_root() {
    // From the fixture directory's parent, `artifacts/visual-check.md` does not exist.
    let file = fixture("ahc/pos-pass.json");
    let elsewhere = profile(
        &file,
        &["--artifact-root", fixture("uaix").to_str().unwrap()],
    );
    assert_eq!(elsewhere.status.code(), Some(1));
    assert!(stdout(&elsewhere).contains("artifacts[0].path not found: artifacts/visual-check.md"));
    let missing = profile(&file, &["--artifact-root", "/nonexistent/dir"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn symlink_out_of_the_root_is_reported_and_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(dir.path().join("outside.md"), "secret").unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.md"), root.join("link.md")).unwrap();
    let mut packet: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture("ahc/pos-pass.json")).unwrap()).unwrap();
    packet["artifacts"] = serde_json::json!([{"path": "link.md", "kind": "ui_evidence"}]);
    let file = root.join("packet.json");
    std::fs::write(&file, packet.to_string()).unwrap();
    let out = profile(&file, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(
        "artifacts[0].path outside --artifact-root: link.md (symbolic link pointing outside the artifact root"
    ));
}

#[test]
fn not_json_is_a_finding_and_ahc_01_with_as() {
    let file = fixture("ahc/neg-AHC-01-not-json.json");
    let plain = profile(&file, &[]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(stdout(&plain).contains("not JSON"));
    let as_ahc = profile(&file, &["--as", "ahc"]);
    assert_eq!(as_ahc.status.code(), Some(1));
    assert!(stdout(&as_ahc).contains("message: invalid handoff json "));
    assert_eq!(profile(&file, &["--as", "a2a"]).status.code(), Some(2));
}

#[test]
fn unrecognised_packet_exits_1_and_missing_file_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a2a.json");
    std::fs::write(
        &file,
        r#"{"protocol":"a2a","event_type":"task","handoff_id":"h","actions_taken":[]}"#,
    )
    .unwrap();
    let out = profile(&file, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("profile: none recognised"));
    let missing = profile(&dir.path().join("nope.json"), &[]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nope.json"));
}

#[test]
fn previous_snapshot_feeds_the_transition_check() {
    let out = profile(
        &fixture("contextcore/pos-msg-completed-with-trace.json"),
        &[
            "--previous",
            fixture("contextcore/pos-msg-pending.json")
                .to_str()
                .unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "transitions only warn");
    assert!(stdout(&out).contains("pending -> completed is not in _HANDOFF_TRANSITIONS"));
}

#[test]
fn huge_and_mistyped_values_are_findings() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("huge.json");
    let packet = serde_json::json!({
        "handoff_id": "h", "task_id": "t", "from_agent": "a", "to_agent": "b",
        "input_scope": "x".repeat(2_000_000),
        "actions_taken": [["nested"]], "artifacts": [{"path": "a/".repeat(5000), "kind": "k".repeat(300_000)}, 5, null],
        "result": {"PASS": true}, "next_action": {"owner": [1], "action": 0, "input": false},
        "rulebook_update": {"applied": [0], "evidence_run_id": {}},
        "attempted_mutations": 12
    });
    std::fs::write(&file, packet.to_string()).unwrap();
    for format in ["text", "json"] {
        let out = profile(&file, &["--format", format, "--profile-version", "1.2.7"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            out.stdout.len() < 200_000,
            "{format} output is {} bytes",
            out.stdout.len()
        );
    }
}

#[test]
fn formats_prints_the_crosswalk_with_the_a2a_seam_first() {
    let out = run(&["formats"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    let header = text.lines().next().unwrap();
    assert!(header.starts_with("role"));
    let columns: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(
        columns,
        vec![
            "role",
            "a2a-k1a",
            "ahc",
            "cc-msg",
            "cc-contract",
            "cc-store",
            "uaix"
        ]
    );
    let task_row = text
        .lines()
        .find(|l| l.starts_with("task reference"))
        .unwrap();
    assert!(task_row.contains("task.id") && task_row.contains("body.task_id"));
    assert!(text.contains("not expressible in K1-A v1"));
    assert!(text.contains("K1-A flags are visibility only"));
    let json = run(&["formats", "--format", "json"]);
    let columns: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(columns[0]["cells"][0]["field"], "task.id");
    assert_eq!(columns[0]["cells"][3]["expressibility"], "cannot_express");
}

#[test]
fn a_lone_surrogate_escape_is_named_as_such() {
    // Python's json reads `"\ud800"` (ContextCore's reader would load the record); this tool
    // does not, and says what the text holds instead of a cut-off escape.
    let dir = std::env::temp_dir().join(format!("hi-profiles-surrogate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cc.json");
    std::fs::write(
        &file,
        br#"{"schema_version": "v1", "handoff_id": "\ud800"}"#,
    )
    .unwrap();
    let output = profile(&file, &["--as", "cc-contract"]);
    let text = stdout(&output);
    assert!(
        text.contains("an unpaired surrogate `\\ud800` at line 1 column 41"),
        "{text}"
    );
    assert!(!text.contains("unexpected end of hex escape"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--lines`: one record per non-blank line, numbered as the input's lines, each the report
/// `--format json` prints (values in its messages from that line's own text) or why the line
/// was not read; exit 1 when any line fails.
#[test]
fn lines_gives_one_report_per_ndjson_line_with_values_from_each_lines_text() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("records.ndjson");
    let passing =
        std::fs::read_to_string(fixture("contextcore/pos-contract-minimal.json")).unwrap();
    let passing: serde_json::Value = serde_json::from_str(&passing).unwrap();
    let lines = [
        r#"{"schema_version":"v1","rogue":{"b":1,"a":2},"priority":100000000000000000000000000000}"#.to_owned(),
        String::new(),
        "not json".to_owned(),
        passing.to_string(),
    ];
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let out = profile(&file, &["--lines", "--as", "cc-contract"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let records: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let numbers: Vec<u64> = records
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3, 4]);
    let messages: Vec<&str> = records[0]["report"]["contextcore"]["schema_errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        messages[0],
        "Additional properties are not allowed ('rogue' was unexpected)"
    );
    assert!(messages.contains(&"100000000000000000000000000000 is not of type 'string'"));
    assert!(records[1]["report"]["findings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("not JSON"));
    assert_eq!(records[3 - 1]["report"]["counts"]["fail"], 0);
    // Every line passing: exit 0.
    std::fs::write(&file, passing.to_string() + "\n").unwrap();
    let out = profile(&file, &["--lines", "--as", "cc-contract"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // --lines writes JSON records: --format does not go with it.
    let out = profile(&file, &["--lines", "--format", "text"]);
    assert_eq!(out.status.code(), Some(2));
}
