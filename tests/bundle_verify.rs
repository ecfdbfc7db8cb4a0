//! `verify` against upstream's own verdicts for the upstream-written bundles
//! (tests/data/bundles/expected.json): valid, code, class, message, counts, run root.

mod common_bin;

use common_bin::run;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn bundles() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles")
}

fn expected() -> Vec<Value> {
    let text = std::fs::read_to_string(bundles().join("expected.json")).unwrap();
    serde_json::from_str::<Value>(&text)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn every_upstream_bundle_gets_upstreams_verdict() {
    let cases = expected();
    assert_eq!(cases.len(), 11);
    for case in cases {
        let file = case["file"].as_str().unwrap();
        let path = bundles().join(file);
        let out = run(&["verify", "--format", "json", path.to_str().unwrap()]);
        let lines = out.json_lines();
        assert_eq!(lines.len(), 1, "{file}: {}", out.stdout);
        let got = &lines[0];
        let valid = case["valid"].as_bool().unwrap();
        assert_eq!(out.code, if valid { 0 } else { 1 }, "{file}");
        assert_eq!(got["valid"], case["valid"], "{file}");
        assert_eq!(got["source"], path.to_str().unwrap(), "{file}");
        for key in [
            "event_count",
            "run_root",
            "run_id",
            "a2a_events",
            "handoff_visible_events",
        ] {
            assert_eq!(got[key], case[key], "{file}: {key}");
        }
        if valid {
            assert!(got["error"].is_null(), "{file}");
        } else {
            assert_eq!(got["error"]["code"], case["error_code"], "{file}");
            assert_eq!(got["error"]["class"], case["error_class"], "{file}");
            assert_eq!(got["error"]["message"], case["message"], "{file}");
            assert!(got["error"]["step"].as_u64().is_some(), "{file}");
        }
    }
}

#[test]
fn text_output_names_the_check_and_the_compared_values() {
    let path = bundles().join("bad-events-edited-no-rehash.tar.gz");
    let out = run(&["verify", path.to_str().unwrap()]);
    assert_eq!(out.code, 1);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "FAIL  Integrity  IntegrityEventHash  Content hash mismatch at seq 1  {}",
            path.display()
        )
    );
    assert_eq!(lines[1], "  step 17: content hash recomputed equals stored");
    assert!(
        lines[2].starts_with("  content hash of line 2: expected sha256:7a2f6194"),
        "{}",
        lines[2]
    );
    assert!(lines[2].contains("found sha256:7e972c9d"), "{}", lines[2]);

    let valid = bundles().join("valid-02-two-events.tar.gz");
    let out = run(&["verify", valid.to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        format!(
            "OK  sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb  2 events  {}\n",
            valid.display()
        )
    );
}

#[test]
fn a_directory_stands_for_its_bundles_and_an_unreadable_path_exits_2() {
    let out = run(&["verify", "--format", "json", bundles().to_str().unwrap()]);
    assert_eq!(out.code, 1, "some bundles there fail");
    assert_eq!(out.json_lines().len(), 11);

    let missing = bundles().join("no-such.tar.gz");
    let valid = bundles().join("valid-01-one-event.tar.gz");
    let out = run(&["verify", missing.to_str().unwrap(), valid.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no-such.tar.gz"), "{}", out.stderr);
    assert!(
        out.stdout.starts_with("OK  "),
        "the readable bundle is still reported"
    );
}

#[test]
fn a_path_without_a_bundle_exits_2_and_says_so() {
    let a2a = common_bin::fixtures().join("a2a");
    let out = run(&["verify", a2a.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(out.stdout, "", "nothing was verified");
    assert_eq!(
        out.stderr.trim_end(),
        format!(
            "handoff-inspector: no evidence bundle (.tar.gz) found under {}",
            a2a.display()
        )
    );
    // One path without a bundle among others still exits 2; the bundles found are reported.
    let valid = bundles().join("valid-01-one-event.tar.gz");
    let out = run(&["verify", valid.to_str().unwrap(), a2a.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.starts_with("OK  "), "{}", out.stdout);
    assert!(out
        .stderr
        .contains("no evidence bundle (.tar.gz) found under"));
}

#[test]
fn limits_can_be_changed() {
    let path = bundles().join("valid-04-hundred.tar.gz");
    let out = run(&[
        "verify",
        "--format",
        "json",
        "--limit",
        "max_events=99",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
    assert_eq!(out.json_lines()[0]["error"]["code"], "LimitTotalEvents");
    let out = run(&[
        "verify",
        "--limit",
        "max_events=100",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0);
    let out = run(&["verify", "--limit", "max_evnts=1", path.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown limit"), "{}", out.stderr);
    let out = run(&[
        "verify",
        "--no-verify-limits",
        "--limit",
        "max_path_len=3",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 1);
}
