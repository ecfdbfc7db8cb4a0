//! `explain` routes master/sub, ContextCore and UAIX packets to their profile's rule table.

use crate::common::{fixtures, run};

fn profile_fixture(path: &str) -> String {
    fixtures()
        .join("profiles")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

#[test]
fn uaix_seed_fixture_has_no_failing_row_and_an_unverifiable_checksum() {
    let result = run(&[
        "explain",
        "--now",
        "2026-06-01T00:00:00Z",
        &profile_fixture("uaix/seed-004-fixture.json"),
    ]);
    assert_eq!(result.code, 0, "{}", result.stdout);
    assert!(
        result
            .stdout
            .contains("profile: UAIX uai.agent.handoff.v1 envelope"),
        "{}",
        result.stdout
    );
    assert!(
        result.stdout.contains("UAIX-12  unverifiable"),
        "{}",
        result.stdout
    );
}

#[test]
fn failing_master_sub_row_exits_one_with_json_outcomes() {
    let result = run(&[
        "explain",
        "--format",
        "json",
        &profile_fixture("ahc/neg-AHC-03-lowercase-result.json"),
    ]);
    assert_eq!(result.code, 1, "{}", result.stdout);
    let report = &result.json_lines()[0];
    let failed: Vec<&str> = report["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|outcome| outcome["verdict"] == "fail")
        .map(|outcome| outcome["rule"].as_str().unwrap())
        .collect();
    assert!(failed.contains(&"AHC-03"), "{failed:?}");
}

#[test]
fn expiry_depends_on_the_fixed_clock() {
    let path = profile_fixture("uaix/seed-004-fixture.json");
    let later = run(&["explain", "--now", "2031-01-01T00:00:00Z", &path]);
    assert_eq!(
        later.code, 1,
        "the seed expires at 2030-12-31T23:59:00Z: {}",
        later.stdout
    );
    assert_eq!(run(&["explain", "--now", "yesterday", &path]).code, 2);
}

#[test]
fn check_reports_profile_rows_in_every_format() {
    let seed = profile_fixture("uaix/seed-004-fixture.json");
    let clean = run(&["check", "--now", "2026-06-01T00:00:00Z", &seed]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);

    // Outside the fixture tree, where its golden records the failure as expected.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("neg-AHC-03-lowercase-result.json");
    std::fs::copy(
        profile_fixture("ahc/neg-AHC-03-lowercase-result.json"),
        &copy,
    )
    .unwrap();
    let failing = copy.to_string_lossy().into_owned();
    let in_tree = run(&[
        "check",
        &profile_fixture("ahc/neg-AHC-03-lowercase-result.json"),
    ]);
    assert_eq!(in_tree.code, 0, "recorded as expected: {}", in_tree.stdout);
    let text = run(&["check", &failing]);
    assert_eq!(text.code, 1, "{}", text.stdout);
    assert!(
        text.stdout
            .contains("AHC-03 $.result: result must be one of"),
        "{}",
        text.stdout
    );

    let json = run(&["check", "--format", "json", &failing]);
    assert_eq!(json.code, 1);
    let report: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert!(json.stdout.contains("\"profile_failure\""), "{report}");

    let junit = run(&["check", "--format", "junit", &failing]);
    assert!(junit.stdout.contains("AHC-03"), "{}", junit.stdout);
}

#[test]
fn check_reports_mixed_a2a_versions() {
    let dir = tempfile::tempdir().unwrap();
    // A v0.3 JSON-RPC task (kind discriminator) with a v1.0 state name.
    let mixed =
        r#"{"kind":"task","id":"t","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"}}"#;
    let path = dir.path().join("mixed.json");
    std::fs::write(&path, mixed).unwrap();
    let result = run(&["check", &path.to_string_lossy()]);
    assert_eq!(result.code, 1, "{}", result.stdout);
    assert!(
        result.stdout.contains("A2A migration findings"),
        "{}",
        result.stdout
    );
}

/// A contract-violation row names the violation as a question and answers it, so a passing
/// row cannot read as if the violation happened.
#[test]
fn violation_rows_say_the_question_and_the_answer() {
    let run = crate::common::run(&["explain", &profile_fixture("ahc/bad-types-everywhere.json")]);
    let v1 = run
        .stdout
        .lines()
        .find(|line| line.trim_start().starts_with("V1 "))
        .unwrap_or_else(|| panic!("no V1 row: {}", run.stdout));
    assert!(
        v1.contains("violation \"sub-agent mutates identity top-level contracts\"? possibly"),
        "{v1}"
    );
}
