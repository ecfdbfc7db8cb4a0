//! Evidence bundles through every corpus face of the real binary: `check` (text, JSON, JUnit,
//! markdown) over a directory holding loose packets and bundles, goldens that catch a
//! re-sealed edit upstream's verifier accepts, `ls`/`explain`/`digest` on a bundle and on
//! BUNDLE:SEQ agreeing on one verdict.

use crate::common::{a2a, run, run_env};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bundles")
        .join(name)
}

/// `bless` as a person runs it: CI (which may be set around the test suite) refuses to write.
fn bless(dir: &Path) -> crate::common::Run {
    run_env(&["bless", &s(dir)], &[("CI", None)])
}

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A directory with one loose raw packet and three bundles (valid, non-A2A mix, tampered).
fn mixed_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        a2a("happy_task_requested"),
        dir.path().join("happy_task_requested.json"),
    )
    .unwrap();
    for (from, to) in [
        ("valid-03-ten-mixed.tar.gz", "ten.tar.gz"),
        ("valid-11-mixed-non-a2a.tar.gz", "mixed.tar.gz"),
        ("bad-events-edited-no-rehash.tar.gz", "tampered.tar.gz"),
    ] {
        std::fs::copy(data(from), dir.path().join(to)).unwrap();
    }
    dir
}

fn check_json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let result = run(&all);
    let report = serde_json::from_str(&result.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", result.stdout));
    (result.code, report)
}

fn packet<'a>(report: &'a Value, suffix: &str) -> &'a Value {
    report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|packet| packet["source"].as_str().unwrap().ends_with(suffix))
        .unwrap_or_else(|| panic!("no packet {suffix}"))
}

#[test]
fn check_reports_packets_and_bundles_in_every_format() {
    let dir = mixed_dir();
    let root = s(dir.path());

    let (code, report) = check_json(&[&root]);
    assert_eq!(code, 1, "the tampered bundle fails");
    // 1 raw packet + 3 bundles + 10 + 12 + 10 events.
    assert_eq!(report["summary"]["packets"], 36);
    assert_eq!(report["summary"]["by_kind"]["bundle"], 3);
    assert_eq!(report["summary"]["by_kind"]["event"], 32);
    assert_eq!(report["summary"]["by_kind"]["raw"], 1);
    let tampered = packet(&report, "/tampered.tar.gz");
    assert_eq!(tampered["kind"], "bundle");
    assert_eq!(tampered["status"], "finding");
    let finding = &tampered["findings"][0];
    assert_eq!(finding["kind"], "bundle_error");
    assert_eq!(finding["rule"], "IntegrityEventHash");
    assert_eq!(finding["class"], "Integrity");
    assert!(finding["message"]
        .as_str()
        .unwrap()
        .contains("Content hash mismatch at seq 1"));
    assert_eq!(tampered["bundle"]["valid"], false);
    assert_eq!(tampered["bundle"]["error"]["code"], "IntegrityEventHash");
    assert_eq!(tampered["bundle"]["error"]["step"], 17);
    // Its readable events are audited all the same (spec §15).
    assert_eq!(packet(&report, "/tampered.tar.gz:1")["kind"], "event");
    let ten = packet(&report, "/ten.tar.gz");
    assert_eq!(ten["bundle"]["valid"], true);
    assert_eq!(
        ten["bundle"]["run_root"],
        "sha256:b3d73b1e860dda69f848667d59648e67dfc57153036c818cd8fa7c4b94a19f27"
    );
    assert_eq!(ten["bundle"]["handoff_visible_events"], 3);
    assert_eq!(ten["object"]["verdict"], "valid");
    assert_eq!(
        packet(&report, "/ten.tar.gz:1")["audit"]["state"],
        "task_ref_only"
    );
    // Non-A2A events: listed, not checked.
    let statuses: Vec<&str> = report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|packet| {
            packet["source"]
                .as_str()
                .unwrap()
                .contains("/mixed.tar.gz:")
        })
        .map(|packet| packet["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), 12);
    assert_eq!(statuses.iter().filter(|s| **s == "not_checked").count(), 0);
    assert_eq!(packet(&report, "/happy_task_requested.json")["kind"], "raw");

    let text = run(&["check", &root]);
    assert_eq!(text.code, 1);
    assert!(text.stdout.contains("3 bundle"), "{}", text.stdout);
    assert!(
        text.stdout
            .contains("evidence bundle verification failures"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("IntegrityEventHash"),
        "{}",
        text.stdout
    );

    let junit = run(&["check", "--format", "junit", &root]);
    let case = |needle: &str| -> String {
        junit
            .stdout
            .lines()
            .find(|line| line.contains("<testcase") && line.contains(needle))
            .unwrap_or_else(|| panic!("no testcase {needle}: {}", junit.stdout))
            .to_owned()
    };
    assert!(case("tampered.tar.gz [bundle]").contains("[bundle]"));
    assert!(case("ten.tar.gz:1 [audit]").contains("[audit]"));
    assert!(case("happy_task_requested.json [strict]").contains("[strict]"));
    let tampered_case = junit
        .stdout
        .split("<testcase")
        .find(|part| part.contains("tampered.tar.gz [bundle]"))
        .unwrap();
    assert!(tampered_case.contains("<failure"), "{tampered_case}");
    assert!(
        tampered_case.contains("IntegrityEventHash"),
        "{tampered_case}"
    );

    let markdown = run(&["check", "--format", "markdown", &root]);
    let md = &markdown.stdout;
    assert!(md.contains("## Evidence bundles"), "{md}");
    assert!(md.contains("/ten.tar.gz`"), "{md}");
    assert!(md.contains("**fails verification**: Integrity `IntegrityEventHash`"));
    assert!(md.contains("| A2A-DC-002 |"));
    assert!(md.contains("| `task_ref_only` | 3 |"), "{md}");
    assert!(md.contains("happy_task_requested.json"));
}

#[test]
fn non_a2a_events_of_a_bundle_are_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        data("valid-11-mixed-non-a2a.tar.gz"),
        dir.path().join("m.tar.gz"),
    )
    .unwrap();
    let (_, report) = check_json(&[&s(dir.path())]);
    let unchecked: Vec<&Value> = report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|packet| packet["status"] == "not_checked")
        .collect();
    // valid-11 holds 9 A2A events and 3 assay.test.marker events. Without goldens every
    // event is no_golden (a missing golden outranks not checked: the line is still recorded).
    assert!(unchecked.is_empty());
    let bless = bless(dir.path());
    assert_eq!(bless.code, 0, "{}", bless.stderr);
    let (code, report) = check_json(&["--require-golden", &s(dir.path())]);
    assert_eq!(code, 0);
    assert_eq!(report["summary"]["by_status"]["not_checked"], 3);
    // explain says the same of a marker event; ls gives it the same kind.
    let marker = report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|packet| packet["status"] == "not_checked")
        .unwrap();
    let source = marker["source"].as_str().unwrap();
    let explained = run(&["explain", "--format", "json", source]);
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    let line = &explained.json_lines()[0];
    assert_eq!(line["status"], "not_checked");
    assert_eq!(line["kind"], marker["kind"]);
    let listed = run(&["ls", "--format", "json", source]);
    assert_eq!(listed.json_lines()[0]["kind"], marker["kind"]);
}

#[test]
fn goldens_catch_a_resealed_time_edit_that_upstream_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = dir.path().join("run.tar.gz");
    std::fs::copy(data("valid-03-ten-mixed.tar.gz"), &bundle).unwrap();
    let bless = bless(dir.path());
    assert_eq!(bless.code, 0, "{}", bless.stderr);
    let clean = run(&["check", "--require-golden", &s(dir.path())]);
    assert_eq!(clean.code, 0, "{}", clean.stdout);

    // Same events, `time` of seq 2 edited, file hash re-sealed: upstream's verifier accepts.
    std::fs::copy(data("edge-events-time-edited-resealed.tar.gz"), &bundle).unwrap();
    let verified = run(&["verify", &s(&bundle)]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);

    let (code, report) = check_json(&["--require-golden", &s(dir.path())]);
    assert_eq!(code, 1);
    let drifted: Vec<&str> = report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|packet| packet["status"] == "mismatch")
        .map(|packet| packet["source"].as_str().unwrap())
        .collect();
    let name = |suffix: &str| format!("{}{suffix}", s(&bundle));
    assert_eq!(drifted, vec![name(""), name(":2")], "{report}");
    let event = packet(&report, "/run.tar.gz:2");
    assert_eq!(event["findings"][0]["kind"], "golden_mismatch");
    assert!(event["findings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("object "));
    // Same verdict and run root: only the manifest's file hash moved.
    let whole = packet(&report, "/run.tar.gz");
    assert_eq!(whole["object"]["verdict"], "valid");
    let text = run(&["check", "--require-golden", &s(dir.path())]);
    assert!(text.stdout.contains("golden mismatches"), "{}", text.stdout);
}

#[test]
fn a_tampered_bundle_blessed_is_a_recorded_negative() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        data("bad-events-edited-no-rehash.tar.gz"),
        dir.path().join("t.tar.gz"),
    )
    .unwrap();
    assert_eq!(bless(dir.path()).code, 0);
    let manifest = std::fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(
        manifest.contains("\"verdict\": \"IntegrityEventHash\""),
        "{manifest}"
    );
    assert!(
        manifest.contains("\"failing\": [\"IntegrityEventHash\"]"),
        "{manifest}"
    );
    let (code, report) = check_json(&["--require-golden", &s(dir.path())]);
    assert_eq!(code, 0);
    let whole = packet(&report, "/t.tar.gz");
    // Not "conforms": it fails, exactly as recorded (and that does not fail `check`).
    assert_eq!(whole["status"], "fails_as_recorded");
    assert_eq!(whole["recorded_findings"][0]["rule"], "IntegrityEventHash");
    let text = run(&["check", "--require-golden", &s(dir.path())]);
    // The bundle and its tampered event (its content hash does not match), both recorded.
    assert!(
        text.stdout.contains("2 fails as recorded"),
        "{}",
        text.stdout
    );
    // Repaired (a valid bundle in its place): the recorded failure no longer happens: drift.
    std::fs::copy(
        data("valid-03-ten-mixed.tar.gz"),
        dir.path().join("t.tar.gz"),
    )
    .unwrap();
    let (code, report) = check_json(&["--require-golden", &s(dir.path())]);
    assert_eq!(code, 1);
    let message = packet(&report, "/t.tar.gz")["findings"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("verdict IntegrityEventHash -> valid"),
        "{message}"
    );
}

#[test]
fn ls_explain_digest_agree_on_a_bundle_and_its_events() {
    let dir = mixed_dir();
    let bundle = s(&dir.path().join("ten.tar.gz"));
    let event = format!("{bundle}:1");

    let listed = run(&["ls", "--format", "json", &bundle]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let lines = listed.json_lines();
    assert_eq!(lines.len(), 11);
    assert_eq!(lines[0]["source"], bundle.as_str());
    assert_eq!(lines[0]["kind"], "bundle");
    assert!(lines[0]["reason"].as_str().unwrap().contains("accepts it"));
    assert_eq!(lines[2]["source"], event.as_str());
    assert_eq!(lines[2]["kind"], "event");
    let one = run(&["ls", "--format", "json", &event]);
    assert_eq!(one.json_lines()[0]["kind"], "event");

    let (_, report) = check_json(&[&bundle]);
    assert_eq!(packet(&report, "/ten.tar.gz")["kind"], "bundle");
    assert_eq!(packet(&report, "/ten.tar.gz:1")["kind"], "event");

    let explained = run(&["explain", "--format", "json", &bundle]);
    assert_eq!(explained.code, 0, "{}", explained.stderr);
    let whole = &explained.json_lines()[0];
    assert_eq!(whole["kind"], "bundle");
    assert_eq!(whole["valid"], true);
    assert_eq!(whole["checks"].as_array().unwrap().len(), 26);
    assert!(whole["checks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|check| check["outcome"] == "pass"));
    assert_eq!(whole["events"][1]["source"], event.as_str());
    assert_eq!(whole["events"][1]["state"], "task_ref_only");
    assert_eq!(whole["events"][1]["content_hash_matches"], true);
    let text = run(&["explain", &bundle]);
    assert!(text.stdout.contains("verdict: OK"), "{}", text.stdout);
    assert!(text
        .stdout
        .contains("pass        17  recomputed content hash equals the stored one"));

    let tampered = run(&["explain", &s(&dir.path().join("tampered.tar.gz"))]);
    assert_eq!(tampered.code, 1);
    assert!(tampered
        .stdout
        .contains("verdict: FAIL  Integrity  IntegrityEventHash"));
    assert!(
        tampered.stdout.contains("FAIL        17"),
        "{}",
        tampered.stdout
    );
    assert!(tampered.stdout.contains("not reached 18"));
    assert!(tampered.stdout.contains("hash MISMATCH"));

    let one_event = run(&["explain", "--format", "json", &event]);
    assert_eq!(one_event.code, 0, "{}", one_event.stderr);
    let line = &one_event.json_lines()[0];
    assert_eq!(line["source"], event.as_str());
    assert!(line.get("findings").is_some(), "{line}");
    let missing = run(&["explain", &format!("{bundle}:99")]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("no readable event 99"),
        "{}",
        missing.stderr
    );

    // digest: run root, manifest, then one event digest per line, equal to the goldens'.
    let digested = run(&["digest", &bundle]);
    assert_eq!(digested.code, 0, "{}", digested.stderr);
    let rows: Vec<Vec<&str>> = digested
        .stdout
        .lines()
        .map(|line| line.split("  ").collect())
        .collect();
    assert_eq!(
        rows[0],
        vec![
            "b3d73b1e860dda69f848667d59648e67dfc57153036c818cd8fa7c4b94a19f27",
            "run_root",
            bundle.as_str()
        ]
    );
    assert_eq!(rows[1][1], "manifest");
    assert_eq!(rows.len(), 12);
    assert_eq!(rows[3][2], event.as_str());
    let single = run(&["digest", &event]);
    assert_eq!(
        single.stdout.trim_end(),
        digested.stdout.lines().nth(3).unwrap()
    );
    assert_eq!(
        packet(&report, "/ten.tar.gz:1")["object"]["object"],
        rows[3][0]
    );
    let rejected = run(&["digest", &s(&dir.path().join("tampered.tar.gz"))]);
    assert_eq!(rejected.code, 1);
    assert!(
        rejected.stderr.contains("no run root"),
        "{}",
        rejected.stderr
    );
}

#[test]
fn lint_rules_agree_with_upstreams_lint_on_every_sample() {
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(data("expected.json")).unwrap()).unwrap();
    let mut compared = 0;
    for sample in expected.as_array().unwrap() {
        let Some(findings) = sample["lint_rules_with_findings"].as_array() else {
            continue;
        };
        let file = sample["file"]
            .as_str()
            .or_else(|| sample["bundle"].as_str())
            .or_else(|| sample["name"].as_str())
            .unwrap_or_else(|| panic!("no file name in {sample}"));
        let path = data(Path::new(file).file_name().unwrap().to_str().unwrap());
        let (_, report) = check_json(&[&s(&path)]);
        let bundle = &report["packets"][0]["bundle"];
        for rule in bundle["lint"].as_array().unwrap() {
            let id = rule["rule"].as_str().unwrap();
            let upstream_finds = findings
                .iter()
                .any(|finding| finding.as_str().unwrap().ends_with(&format!(":{id}")));
            assert_eq!(rule["passes"], !upstream_finds, "{file} {id}");
        }
        compared += 1;
    }
    assert!(compared >= 5, "{compared}");
}

/// Upstream lints only a bundle that verifies: a rejected bundle's rules are never "pass",
/// in `explain` text and JSON or in `check`'s JSON; its view says what a failure leaves
/// unestablished instead of what verifying shows.
#[test]
fn a_rejected_bundles_lint_is_not_evaluated() {
    let tampered = crate::common::fixtures().join("bundles/neg-tampered-event-hash.tar.gz");
    let out = run(&["explain", &s(&tampered)]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let tail: Vec<&str> = out.stdout.lines().rev().take(2).collect();
    assert_eq!(
        tail,
        [
            "  not evaluated: bundle unverified (upstream lints only a bundle that verifies)",
            "upstream's A2A lint rules (pass when one event matches; warnings upstream):",
        ]
    );
    assert!(!out.stdout.contains(" pass  ("), "{}", out.stdout);
    assert!(out.stdout.contains("stops at the first failed check"));
    assert!(!out.stdout.contains("Upstream's checks show"));
    assert!(out
        .stdout
        .contains("compared content hash of event :1: expected"));
    let json = run(&["explain", "--format", "json", &s(&tampered)]);
    assert!(json.json_lines()[0]["lint"].is_null(), "{}", json.stdout);
    let (_, report) = check_json(&[&s(&tampered)]);
    assert!(report["packets"][0]["bundle"]["lint"].is_null());
    // A verified bundle keeps its rules.
    let valid = crate::common::fixtures().join("bundles/a2a-ten-events.tar.gz");
    let out = run(&["explain", &s(&valid)]);
    assert!(
        out.stdout.contains("  A2A-001     pass  ("),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("Upstream's checks show"));
}

#[test]
fn unreadable_bundles_are_a_verdict_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("garbage.tar.gz"), b"not gzip at all").unwrap();
    std::fs::write(dir.path().join("empty.tgz"), b"").unwrap();
    std::fs::copy(
        data("bad-entry-path-traversal.tar.gz"),
        dir.path().join("traversal.tar.gz"),
    )
    .unwrap();
    std::fs::copy(
        data("bad-gzip-truncated-half.tar.gz"),
        dir.path().join("truncated.tar.gz"),
    )
    .unwrap();
    let before: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    let (code, report) = check_json(&[&s(dir.path())]);
    assert_eq!(code, 1);
    let code_of = |suffix: &str| packet(&report, suffix)["bundle"]["error"]["code"].clone();
    assert_eq!(code_of("/garbage.tar.gz"), "IntegrityTar");
    assert_eq!(code_of("/empty.tgz"), "IntegrityTar");
    assert_eq!(code_of("/traversal.tar.gz"), "SecurityPathTraversal");
    assert_eq!(code_of("/truncated.tar.gz"), "IntegrityIo");
    // The truncated one still lists the line it could read (spec §15: one event).
    assert_eq!(packet(&report, "/truncated.tar.gz:0")["kind"], "event");
    assert_eq!(report["summary"]["by_kind"]["bundle"], 4);
    // Nothing was extracted or written beside them.
    let after: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(before.len(), after.len());
    let listed = run(&["ls", &s(dir.path())]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(listed.stdout.contains("garbage.tar.gz  bundle  assay evidence bundle (.tar.gz): fails upstream's verification: Integrity IntegrityTar"), "{}", listed.stdout);
}

/// A bundle's checklist answers are supported by its own events, named: a2a-ten-events' event
/// :2 (a task.updated delegation with the synthetic unknown-task id, not visible) answers Q4
/// and Q5.
#[test]
fn a_bundles_own_events_support_q4_and_q5() {
    let bundle = crate::common::fixtures().join("bundles/a2a-ten-events.tar.gz");
    let out = run(&["check", "--format", "markdown", &s(&bundle)]);
    let row = |id: &str| {
        out.stdout
            .lines()
            .rfind(|line| line.starts_with(&format!("| {id} |")))
            .unwrap_or_else(|| panic!("{}", out.stdout))
            .to_owned()
    };
    let q4 = row("Q4");
    assert!(
        q4.contains("| Yes (for: `") && q4.contains("a2a-ten-events.tar.gz:2 (audit): task.id is unknown-task, task_ref_visible is false"),
        "{q4}"
    );
    let q5 = row("Q5");
    assert!(
        q5.contains("a2a-ten-events.tar.gz:2 (audit): task.updated with task.kind \"delegation\", not visible"),
        "{q5}"
    );
    assert!(!out.stdout.contains("Not evidenced by this bundle |\n| Q5"));
}

/// Issue 23: the tampered event of fixtures/bundles/neg-tampered-event-hash.tar.gz is never
/// "no findings": `explain BUNDLE:1` and `check` say its content hash does not match
/// (recomputed vs stored) and that the bundle fails verification; its untampered sibling
/// says the bundle fails but not that its own hash does; a verified bundle's event says so.
#[test]
fn a_tampered_event_says_its_hash_does_not_match_and_the_bundle_fails() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bundles");
    let bundle = s(&fixtures.join("neg-tampered-event-hash.tar.gz"));
    let tampered = format!("{bundle}:1");
    let explained = run(&["explain", &tampered]);
    assert_eq!(explained.code, 1, "{}", explained.stdout);
    let lines: Vec<&str> = explained.stdout.lines().collect();
    let hash_line = lines[1];
    let (recomputed, stored) = hash_line
        .strip_prefix("content hash does not match: recomputed ")
        .and_then(|rest| rest.split_once(", stored "))
        .unwrap_or_else(|| panic!("{}", explained.stdout));
    assert!(recomputed.starts_with("sha256:") && stored.starts_with("sha256:"));
    assert_ne!(recomputed, stored);
    assert_eq!(
        lines[2],
        "bundle: fails upstream's verification: Integrity IntegrityEventHash: Content hash mismatch at seq 1"
    );
    let json = run(&["explain", "--format", "json", &tampered]);
    let line = &json.json_lines()[0];
    assert_eq!(line["content_hash"]["matches"], false);
    assert_eq!(line["content_hash"]["recomputed"], recomputed);
    assert_eq!(line["bundle"]["valid"], false);
    assert_eq!(line["bundle"]["error"], "IntegrityEventHash");

    let sibling = run(&["explain", &format!("{bundle}:2")]);
    assert!(!sibling.stdout.contains("content hash does not match"));
    assert!(sibling
        .stdout
        .contains("bundle: fails upstream's verification"));

    for target in [bundle.as_str(), tampered.as_str()] {
        let (code, report) = check_json(&[target]);
        assert_eq!(
            code, 0,
            "{target}: the fixture's golden records the failure"
        );
        let event = packet(&report, ":1");
        let recorded = event["recorded_findings"].to_string();
        let findings = format!("{recorded}{}", event["findings"]);
        assert!(
            findings.contains(&format!(
                "content hash does not match: recomputed {recomputed}, stored {stored}; the bundle fails upstream's verification"
            )),
            "{target}: {event}"
        );
    }
    // Without a golden the same is a failure of its own.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixtures.join("neg-tampered-event-hash.tar.gz"),
        dir.path().join("b.tar.gz"),
    )
    .unwrap();
    let (code, report) = check_json(&[&s(dir.path())]);
    assert_eq!(code, 1);
    assert!(packet(&report, ":1")["findings"]
        .to_string()
        .contains("content hash does not match"));

    let verified = run(&[
        "explain",
        &format!("{}:1", s(&fixtures.join("a2a-ten-events.tar.gz"))),
    ]);
    assert!(verified
        .stdout
        .contains("bundle: upstream's verifier accepts it"));
    assert!(!verified.stdout.contains("content hash does not match"));
}
