//! Pending goldens through the binary: `check --write-pending` under CI writes what drifted or
//! has no golden beside the manifest and never touches it; `bless --accept-pending` (refused
//! under CI) merges them in and removes them; `--reject-pending` removes them; shards of one
//! directory keep each other's pending entries; a run with nothing pending removes the file.

use crate::common::{copy_files, run_env, Run};
use std::path::Path;

const CI: (&str, Option<&str>) = ("CI", Some("true"));
const NO_CI: (&str, Option<&str>) = ("CI", None);

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A copy of the fixture directory with one packet changed (drift) and one added (no golden).
fn drifted() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_files(&crate::common::fixtures().join("a2a"), dir.path());
    let packet = dir.path().join("positive_no_refs.json");
    let text = std::fs::read_to_string(&packet).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["agent"]["id"] = serde_json::json!("agent://someone-else");
    std::fs::write(&packet, value.to_string()).unwrap();
    std::fs::write(
        dir.path().join("zz_new.json"),
        r#"{"protocol":"a2a","version":"0.3","event_type":"task.requested","task":{"id":"t9"},"agent":{"id":"a"}}"#,
    )
    .unwrap();
    dir
}

fn pending_keys(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("goldens.pending.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    manifest["packets"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect()
}

fn check(dir: &Path, extra: &[&str], env: (&str, Option<&str>)) -> Run {
    let mut args = vec!["check"];
    args.extend_from_slice(extra);
    args.push(s(dir));
    run_env(&args, &[env])
}

#[test]
fn the_pending_round_trip_under_ci_and_on_a_developers_machine() {
    let dir = drifted();
    let goldens = std::fs::read(dir.path().join("goldens.json")).unwrap();
    // CI: the check fails, writes the pending entries, and the goldens stay byte for byte.
    let ci = check(dir.path(), &["--write-pending"], CI);
    assert_eq!(ci.code, 1, "{}", ci.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("goldens.json")).unwrap(),
        goldens
    );
    assert_eq!(
        pending_keys(dir.path()),
        ["positive_no_refs.json", "zz_new.json"]
    );
    assert!(
        ci.stderr
            .contains("goldens.pending.json: 2 pending golden(s) from this run"),
        "{}",
        ci.stderr
    );
    // Written again by an identical run: the same bytes (nothing of the run is in them).
    let first = std::fs::read(dir.path().join("goldens.pending.json")).unwrap();
    check(dir.path(), &["--write-pending"], CI);
    assert_eq!(
        std::fs::read(dir.path().join("goldens.pending.json")).unwrap(),
        first
    );
    // A plain check says they wait.
    let plain = check(dir.path(), &[], CI);
    assert!(
        plain
            .stderr
            .contains("goldens.pending.json: pending goldens wait"),
        "{}",
        plain.stderr
    );
    // Accepting is a bless: refused under CI, and nothing changes.
    let refused = run_env(&["bless", "--accept-pending", s(dir.path())], &[CI]);
    assert_eq!(refused.code, 2);
    assert!(dir.path().join("goldens.pending.json").is_file());
    // On a developer's machine: merged in, removed; the check passes on the goldens again
    // (its paired payload still differs, which bless never writes).
    let accepted = run_env(&["bless", "--accept-pending", s(dir.path())], &[NO_CI]);
    assert_eq!(accepted.code, 0, "{}", accepted.stderr);
    assert!(
        accepted
            .stdout
            .contains("accepting 2 pending golden(s) from goldens.pending.json"),
        "{}",
        accepted.stdout
    );
    assert!(
        accepted.stdout.contains("+ zz_new.json"),
        "{}",
        accepted.stdout
    );
    assert!(!dir.path().join("goldens.pending.json").exists());
    let after = check(dir.path(), &["--require-golden", "--format", "json"], CI);
    let document: serde_json::Value = serde_json::from_str(&after.stdout).unwrap();
    let golden_findings = document["packets"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|packet| packet["findings"].as_array().cloned().unwrap_or_default())
        .filter(|finding| finding["kind"] == "golden_mismatch" || finding["kind"] == "no_golden")
        .count();
    assert_eq!(golden_findings, 0, "{}", after.stdout);
}

#[test]
fn reject_removes_and_a_run_with_nothing_pending_removes_the_file() {
    let dir = drifted();
    check(dir.path(), &["--write-pending"], CI);
    let rejected = run_env(&["bless", "--reject-pending", s(dir.path())], &[CI]);
    assert_eq!(rejected.code, 0, "{}", rejected.stderr);
    assert!(!dir.path().join("goldens.pending.json").exists());
    // Pending again; then the drift is undone and the new packet removed: a run that finds
    // nothing pending removes the file.
    check(dir.path(), &["--write-pending"], CI);
    copy_files(&crate::common::fixtures().join("a2a"), dir.path());
    std::fs::remove_file(dir.path().join("zz_new.json")).unwrap();
    let clean = check(dir.path(), &["--write-pending"], CI);
    assert_eq!(clean.code, 0, "{}", clean.stdout);
    assert!(!dir.path().join("goldens.pending.json").exists());
    assert!(clean
        .stderr
        .contains("removed, nothing is pending any more"));
}

#[test]
fn shards_of_one_directory_keep_each_others_pending_entries() {
    let dir = drifted();
    for shard in ["1/2", "2/2"] {
        let out = check(dir.path(), &["--write-pending", "--shard", shard], CI);
        assert_ne!(out.code, 2, "{}", out.stderr);
    }
    assert_eq!(
        pending_keys(dir.path()),
        ["positive_no_refs.json", "zz_new.json"]
    );
}

#[test]
fn pending_goldens_are_whole_entries_and_never_read_as_packets() {
    let dir = drifted();
    let one_mode = check(dir.path(), &["--write-pending", "--mode", "strict"], CI);
    assert_eq!(one_mode.code, 2);
    assert!(
        one_mode.stderr.contains("run it in both modes"),
        "{}",
        one_mode.stderr
    );
    check(dir.path(), &["--write-pending"], CI);
    // The pending file is no packet of the directory: not checked, not listed as one.
    let document: serde_json::Value =
        serde_json::from_str(&check(dir.path(), &["--format", "json"], CI).stdout).unwrap();
    assert!(document["packets"]
        .as_array()
        .unwrap()
        .iter()
        .all(|packet| !packet["source"]
            .as_str()
            .unwrap()
            .ends_with("goldens.pending.json")));
    let listed = run_env(&["ls", s(&dir.path().join("goldens.pending.json"))], &[CI]);
    assert!(listed.stdout.contains("  golden  "), "{}", listed.stdout);
}
