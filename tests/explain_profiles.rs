//! `explain` routes master/sub, ContextCore and UAIX packets to their profile's rule table.

mod common_bin;
use common_bin::{fixtures, run};

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
