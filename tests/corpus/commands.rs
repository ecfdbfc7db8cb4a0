//! `ls`, `check`, `bless` and `derive` through the real binary: formats, exit codes, golden
//! drift with its diff, the manifest's safety rules, and the derive + bless + check round trip.

use crate::common::{a2a, copy_files, dir_names, fixtures, run, run_env, run_in, Run};
use serde_json::Value;
use std::fs;
use std::path::Path;

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn bless(args: &[&str]) -> Run {
    let mut all = vec!["bless"];
    all.extend_from_slice(args);
    run_env(&all, &[("CI", None)])
}

/// A copy of the bundled fixtures (with their manifest) to change freely.
fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_files(&fixtures().join("a2a"), dir.path());
    dir
}

fn check_json(args: &[&str]) -> (Run, Value) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let result = run(&all);
    let value = serde_json::from_str(&result.stdout)
        .unwrap_or_else(|error| panic!("not one JSON object ({error}): {}", result.stdout));
    (result, value)
}

fn packet<'v>(report: &'v Value, file: &str) -> &'v Value {
    report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|packet| packet["source"].as_str().unwrap().ends_with(file))
        .unwrap_or_else(|| panic!("{file} not in the report"))
}

#[test]
fn ls_lists_kind_reason_and_pairs() {
    let dir = fixtures().join("a2a");
    let result = run(&["ls", &s(&dir)]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let line = |name: &str| {
        result
            .stdout
            .lines()
            .find(|line| line.contains(&format!("/{name}  ")))
            .unwrap_or_else(|| panic!("{name}: {}", result.stdout))
            .to_owned()
    };
    assert!(line("happy_task_requested.json").ends_with(
        "  raw  top-level `protocol` is \"a2a\": the adapter's input  (expected payloads: strict: happy_task_requested.strict.payload.json, lenient: happy_task_requested.lenient.payload.json)"
    ));
    assert!(line("happy_task_requested.strict.payload.json")
        .contains("  payload  `adapter_id`, a member only the adapter writes into a payload  (expected strict payload of happy_task_requested.json)"));
    assert!(line("goldens.json").contains("  golden  `format` is \"handoff-inspector goldens v2\""));
    assert!(line("error_invalid_json.json").contains("  not-json  not JSON: EOF while parsing"));

    let json = run(&["ls", "--format", "json", &s(&dir)]);
    let lines = json.json_lines();
    let happy = lines
        .iter()
        .find(|line| {
            line["source"]
                .as_str()
                .unwrap()
                .ends_with("/happy_task_requested.json")
        })
        .unwrap();
    assert_eq!(happy["kind"], "raw");
    assert_eq!(happy["kind_name"], "raw A2A adapter packet");
    assert_eq!(
        happy["expected_payloads"]["lenient"],
        "happy_task_requested.lenient.payload.json"
    );
    assert_eq!(lines.len(), result.stdout.lines().count());
}

#[test]
fn bundled_fixtures_conform_in_every_format() {
    let dir = s(&fixtures().join("a2a"));
    let text = run(&["check", "--require-golden", &dir]);
    assert_eq!(text.code, 0, "{}{}", text.stdout, text.stderr);
    assert!(
        text.stdout.contains("status: 34 conforms"),
        "{}",
        text.stdout
    );
    assert!(text
        .stdout
        .ends_with("result: no failing packet (exit 0)\n"));

    let (json, report) = check_json(&[&dir]);
    assert_eq!(json.code, 0);
    assert_eq!(report["format"], "handoff-inspector check v1");
    assert_eq!(report["modes"], serde_json::json!(["strict", "lenient"]));
    let summary = &report["summary"];
    assert_eq!(summary["packets"], 34);
    assert_eq!(summary["by_status"]["conforms"], 34);
    assert_eq!(summary["exit_code"], 0);
    assert_eq!(summary["coverage"]["N3"]["lenient"], Value::Null);
    assert!(summary["coverage"]["N3"]["strict"].as_u64().unwrap() >= 1);
    let happy = packet(&report, "/happy_task_requested.json");
    assert_eq!(happy["kind"], "raw");
    assert_eq!(happy["modes"][0]["golden"], "matches");
    assert_eq!(happy["modes"][0]["state"], "task_and_message_refs");
    assert_eq!(
        happy["modes"][0]["digests"]["handoff"],
        "e478af7359a254678c90b5eb2737d63f79c6d667a2b5c4bc323442f07d09d33b"
    );
    assert_eq!(
        happy["modes"][1]["rows"],
        serde_json::json!(["P", "TR", "MR"])
    );
    let payload = packet(&report, "/happy_task_requested.strict.payload.json");
    assert_eq!(payload["audit"]["errors"], 0);
    assert_eq!(
        packet(&report, "/duplicate_task_kind.json")["duplicate_keys"],
        serde_json::json!(["$.task.kind"])
    );

    let junit = run(&["check", "--format", "junit", &dir]);
    assert_eq!(junit.code, 0);
    // 23 raw or not-JSON packets in two modes, 11 canonical payloads audited once.
    assert_eq!(junit.stdout.matches("<testcase ").count(), 23 * 2 + 11);
    assert!(junit
        .stdout
        .contains("tests=\"57\" failures=\"0\" errors=\"0\" skipped=\"0\""));
    assert!(
        junit.stdout.contains("<testcase classname=\"")
            && junit
                .stdout
                .contains("happy_task_requested.json [lenient]\"/>")
    );

    let markdown = run(&["check", "--format", "markdown", &dir]);
    assert_eq!(markdown.code, 0);
    for expected in [
        "## Review checklist",
        "| Q4 | Is synthetic `unknown-task` blocked from counting as `task_ref_visible`? | Yes | Yes |",
        "## Coverage matrix",
        "| N3 | strict task.requested without task.id | 2 | n/a |",
        "Every reachable cell is covered.",
        "- N3 lenient: N3 is the strict-mode rejection by definition",
    ] {
        assert!(markdown.stdout.contains(expected), "{expected}\n{}", markdown.stdout);
    }
    for row in handoff_inspector::freeze::COVERAGE_ROW_IDS {
        assert!(markdown.stdout.contains(&format!("\n| {row} | ")), "{row}");
    }
}

#[test]
fn no_golden_passes_unless_required() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(a2a("happy_task_requested"), dir.path().join("p.json")).unwrap();
    let plain = run(&["check", &s(dir.path())]);
    assert_eq!(plain.code, 0, "{}", plain.stdout);
    assert!(plain
        .stdout
        .contains("no golden (1 finding(s) in 1 packet(s))"));
    // Packets and packet × mode outcomes are counted apart, and no golden is split.
    assert!(plain
        .stdout
        .contains("packets by status: 1 no golden (1 converted)"));
    assert!(plain.stdout.contains(
        "strict, raw packets (packet × mode): 1 converted, 0 rejected by the adapter; 1 no golden (1 converted)"
    ));
    assert!(plain.stdout.contains("no goldens.json in "));
    let required = run(&["check", "--require-golden", &s(dir.path())]);
    assert_eq!(required.code, 1, "{}", required.stdout);
    let junit = run(&["check", "--format", "junit", &s(dir.path())]);
    assert!(junit
        .stdout
        .contains("<skipped message=\"no golden: no goldens.json in "));
    let junit = run(&[
        "check",
        "--format",
        "junit",
        "--require-golden",
        &s(dir.path()),
    ]);
    assert!(junit.stdout.contains("<failure type=\"no_golden\""));
    assert!(
        !dir.path().join("goldens.json").exists(),
        "check never writes"
    );
}

#[test]
fn drift_is_reported_with_changed_paths_and_a_line_diff() {
    let dir = fixture_copy();
    let happy = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&happy).unwrap();
    fs::write(
        &happy,
        text.replace("\"kind\":\"delegation\"", "\"kind\":\"analysis\""),
    )
    .unwrap();
    let result = run(&["check", &s(dir.path())]);
    assert_eq!(result.code, 1, "{}", result.stdout);
    let out = &result.stdout;
    for expected in [
        "golden mismatches (2 finding(s) in 1 packet(s))",
        "[strict] strict: rows P TR MR -> N5 N6 X5 X6 X7; state task_and_message_refs -> defaults; handoff e478af7359a2 -> 60e992b4881c; payload ",
        // What changed in the event, against the payload the golden records.
        "; handoff state: typed positive: task + message refs -> defaults (not visible)\n      ~ $.handoff.message_ref_visible: true -> false",
        "      ~ $.handoff.visible: true -> false\n      ~ $.task.kind: \"delegation\" -> \"analysis\"\n      --- golden payload (strict)\n      +++ converted payload (strict)",
        "expected-payload mismatches (2 finding(s) in 1 packet(s))",
        "[lenient] lenient: the converted payload differs from happy_task_requested.lenient.payload.json at 5 path(s)",
        "      ~ $.handoff.visible: true -> false",
        "      ~ $.task.kind: \"delegation\" -> \"analysis\"",
        "      --- happy_task_requested.strict.payload.json",
        "      +++ converted payload (strict)",
        "-    \"kind\": \"delegation\"",
        "+    \"kind\": \"analysis\"",
        "result: 1 failing packet(s) (exit 1)",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in\n{out}");
    }
    let (_, report) = check_json(&[&s(dir.path())]);
    let packet = packet(&report, "/happy_task_requested.json");
    assert_eq!(packet["status"], "mismatch");
    assert_eq!(packet["modes"][0]["golden"], "differs");
    let kinds: Vec<&str> = packet["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|finding| finding["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        vec![
            "golden_mismatch",
            "paired_mismatch",
            "golden_mismatch",
            "paired_mismatch"
        ]
    );
    let changes = &packet["findings"][1]["diff"]["changes"];
    assert_eq!(changes[4]["path"], "$.task.kind");
    assert_eq!(changes[4]["change"], "changed");
    assert_eq!(report["summary"]["by_finding"]["golden_mismatch"], 2);

    let junit = run(&["check", "--format", "junit", &s(dir.path())]);
    assert!(junit.stdout.contains("failures=\"2\""), "{}", junit.stdout);
    assert!(junit
        .stdout
        .contains("<failure type=\"mismatch\" message=\"strict: rows P TR MR -&gt; N5"));
    let markdown = run(&["check", "--format", "markdown", &s(dir.path())]);
    assert!(markdown
        .stdout
        .contains("### golden mismatches (2 finding(s) in 1 packet(s))"));
    assert!(markdown.stdout.contains("  ```diff"));
}

#[test]
fn manifest_problems_are_usage_errors() {
    let dir = fixture_copy();
    let wrong_options = run(&["check", "--adapter-version", "9.9.9", &s(dir.path())]);
    assert_eq!(wrong_options.code, 2);
    assert!(wrong_options.stdout.contains(
        "golden manifest recorded under other conversion options; run with --adapter-version 3.4.0"
    ));
    fs::write(
        dir.path().join("goldens.json"),
        "{\"format\": \"something else\"}",
    )
    .unwrap();
    let malformed = run(&["check", &s(dir.path())]);
    assert_eq!(malformed.code, 2, "{}", malformed.stdout);
    assert!(malformed
        .stdout
        .contains("malformed golden manifest: $.format is \"something else\""));
}

#[test]
fn bless_records_reports_changes_and_keeps_entries() {
    let dir = tempfile::tempdir().unwrap();
    let path = s(dir.path());
    for name in [
        "happy_task_requested",
        "negative_missing_task_id",
        "happy_artifact_shared",
    ] {
        fs::copy(a2a(name), dir.path().join(format!("{name}.json"))).unwrap();
    }
    let first = bless(&[&path]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stdout.contains(
        "  + happy_task_requested.json  strict: task_and_message_refs [P TR MR] payload "
    ));
    assert!(first.stdout.contains("  + negative_missing_task_id.json  strict: error measurement (S3); lenient: message_ref_only [P MR SYN N4] payload "));
    assert!(first.stdout.contains("  wrote 3 change(s)"));
    // Atomic write: the manifest and no temporary file next to it.
    assert_eq!(
        dir_names(dir.path()),
        vec![
            "goldens.json",
            "happy_artifact_shared.json",
            "happy_task_requested.json",
            "negative_missing_task_id.json"
        ]
    );
    let manifest = fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(manifest.starts_with("{\n  \"format\": \"handoff-inspector goldens v2\",\n"));
    assert_eq!(run(&["check", "--require-golden", &path]).code, 0);

    let again = bless(&[&path]);
    assert!(
        again.stdout.contains("  3 unchanged\n  no changes"),
        "{}",
        again.stdout
    );

    // A changed packet: the change is printed field by field.
    let happy = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&happy).unwrap();
    fs::write(&happy, text.replace("\"id\":\"msg-1\",", "")).unwrap();
    let changed = bless(&[&s(&happy)]);
    assert!(
        changed
            .stdout
            .contains("  ~ happy_task_requested.json  strict.rows: P TR MR -> P TR"),
        "{}",
        changed.stdout
    );
    assert!(changed.stdout.contains(
        "  ~ happy_task_requested.json  strict.state: task_and_message_refs -> task_ref_only"
    ));
    // Blessing one file keeps the entries of the others.
    let after = fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(after.contains("\"happy_artifact_shared.json\""));
    assert!(after.contains("\"negative_missing_task_id.json\""));

    // A packet that is gone keeps its entry until --prune.
    fs::remove_file(dir.path().join("happy_artifact_shared.json")).unwrap();
    let kept = bless(&[&path]);
    assert!(kept
        .stdout
        .contains("1 entry of packets not found kept (--prune removes them)"));
    assert!(fs::read_to_string(dir.path().join("goldens.json"))
        .unwrap()
        .contains("happy_artifact_shared.json"));
    let pruned = bless(&["--prune", &path]);
    assert!(pruned
        .stdout
        .contains("  - happy_artifact_shared.json  (packet gone; --prune)"));
    assert!(!fs::read_to_string(dir.path().join("goldens.json"))
        .unwrap()
        .contains("happy_artifact_shared.json"));
}

#[test]
fn stream_lines_are_recorded_by_line_and_pruned_when_gone() {
    let dir = tempfile::tempdir().unwrap();
    let line = |id: &str| {
        format!(
            r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},"task":{{"id":"{id}","kind":"delegation"}}}}"#
        )
    };
    let stream = dir.path().join("s.ndjson");
    fs::write(
        &stream,
        format!("{}\n{}\n\n{}\n", line("t1"), line("t2"), line("t3")),
    )
    .unwrap();
    // Named relative to the working directory, as people type it.
    let here = Some(dir.path());
    let first = run_in(here, &["bless", "s.ndjson"], &[("CI", None)]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(
        first
            .stdout
            .starts_with("./goldens.json:\n  + s.ndjson:1  strict: task_ref_only"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("  + s.ndjson:4  "),
        "blank line 3 is not a packet: {}",
        first.stdout
    );
    let checked = run_in(here, &["check", "--require-golden", "s.ndjson"], &[]);
    assert_eq!(checked.code, 0, "{}", checked.stdout);
    fs::write(&stream, format!("{}\n", line("t1"))).unwrap();
    let kept = run_in(here, &["bless", "s.ndjson"], &[("CI", None)]);
    assert!(
        kept.stdout.contains("2 entries of packets not found kept"),
        "{}",
        kept.stdout
    );
    let pruned = run_in(here, &["bless", "--prune", "s.ndjson"], &[("CI", None)]);
    assert!(
        pruned
            .stdout
            .contains("  - s.ndjson:2  (packet gone; --prune)"),
        "{}",
        pruned.stdout
    );
    assert!(pruned
        .stdout
        .contains("  - s.ndjson:4  (packet gone; --prune)"));
    let manifest = fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(manifest.contains("\"s.ndjson:1\": {"));
    assert!(!manifest.contains("s.ndjson:2"));
}

#[test]
fn bless_refuses_under_ci_and_on_bad_input() {
    let dir = fixture_copy();
    let path = s(dir.path());
    let manifest = dir.path().join("goldens.json");
    let before = fs::read(&manifest).unwrap();
    let happy = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&happy).unwrap();
    fs::write(&happy, text.replace("delegation", "analysis")).unwrap();

    let refused = run_env(&["bless", &path], &[("CI", Some("true"))]);
    assert_eq!(refused.code, 2);
    assert!(refused
        .stderr
        .contains("refusing to write golden manifests while CI is set"));
    assert_eq!(fs::read(&manifest).unwrap(), before);
    let dry = run_env(&["bless", "--dry-run", &path], &[("CI", Some("true"))]);
    assert_eq!(dry.code, 0, "{}", dry.stderr);
    assert!(dry.stdout.contains("would write"), "{}", dry.stdout);
    assert_eq!(fs::read(&manifest).unwrap(), before);

    // An unreadable input: nothing is written anywhere.
    std::os::unix::fs::symlink(dir.path().join("missing"), dir.path().join("dangling.json"))
        .unwrap();
    let unreadable = bless(&[&path]);
    assert_eq!(unreadable.code, 2);
    assert!(
        unreadable
            .stderr
            .contains("dangling.json: no such file or directory"),
        "{}",
        unreadable.stderr
    );
    assert!(unreadable.stderr.contains("nothing written"));
    assert_eq!(fs::read(&manifest).unwrap(), before);
    fs::remove_file(dir.path().join("dangling.json")).unwrap();

    // A malformed manifest is never overwritten.
    fs::write(&manifest, "{\"format\":").unwrap();
    let malformed = bless(&[&path]);
    assert_eq!(malformed.code, 2);
    assert!(malformed.stderr.contains("malformed golden manifest"));
    assert_eq!(fs::read_to_string(&manifest).unwrap(), "{\"format\":");
}

#[test]
fn derive_then_bless_then_check_round_trip() {
    let out = tempfile::tempdir().unwrap();
    let target = out.path().join("negatives");
    let derived = run(&[
        "derive",
        &s(&a2a("happy_task_requested")),
        "--out",
        &s(&target),
    ]);
    assert_eq!(derived.code, 0, "{}", derived.stderr);
    assert!(derived
        .stdout
        .contains("n3_n4_missing_task_id.json  rows N3 N4 SYN  strict: error measurement (S3)  lenient: message_ref_only"));
    let packets = dir_names(&target);
    assert_eq!(packets.len(), 13, "{packets:?}");
    // The freeze's expectations, before any digest: check compares states and errors.
    let expected_only = run(&["check", &s(&target)]);
    assert_eq!(expected_only.code, 0, "{}", expected_only.stdout);
    let blessed = bless(&[&s(&target)]);
    assert_eq!(blessed.code, 0, "{}", blessed.stderr);
    assert!(blessed.stdout.contains("strict.payload: absent -> "));
    assert!(
        !blessed.stdout.contains("strict.state:"),
        "expectations held: {}",
        blessed.stdout
    );
    let checked = run(&[
        "check",
        "--require-golden",
        "--format",
        "markdown",
        &s(&target),
    ]);
    assert_eq!(checked.code, 0, "{}", checked.stdout);
    assert!(checked.stdout.contains("Every reachable cell is covered."));
    let again = run(&[
        "derive",
        &s(&a2a("happy_task_requested")),
        "--out",
        &s(&target),
    ]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("refusing to overwrite"));
    let forced = run(&[
        "derive",
        "--force",
        &s(&a2a("happy_task_requested")),
        "--out",
        &s(&target),
    ]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
}

#[test]
fn derive_refuses_a_negative_packet() {
    let out = tempfile::tempdir().unwrap();
    let result = run(&[
        "derive",
        &s(&a2a("n5_task_kind_analysis")),
        "--out",
        &s(out.path()),
    ]);
    assert_eq!(result.code, 2);
    assert!(
        result.stderr.contains("not a positive packet"),
        "{}",
        result.stderr
    );
    assert!(dir_names(out.path()).is_empty());
}

/// `diff`: two runs of the same packets where the candidate drops one, adds one, changes one
/// so that its named handoff state changes and one so that only another field changes.
mod diff {
    use super::*;

    const BASE: [&str; 5] = [
        "happy_artifact_shared",
        "happy_task_requested",
        "n5_task_kind_analysis",
        "positive_task_ref_only",
        "x3_agent_capabilities",
    ];

    /// Two directories, two bundles and two NDJSON streams of the same two runs.
    struct Runs {
        _dir: tempfile::TempDir,
        dirs: (String, String),
        bundles: (String, String),
        streams: (String, String),
    }

    fn runs() -> Runs {
        let dir = tempfile::tempdir().unwrap();
        let (base, candidate) = (dir.path().join("base"), dir.path().join("candidate"));
        fs::create_dir_all(&base).unwrap();
        fs::create_dir_all(&candidate).unwrap();
        for name in BASE {
            fs::copy(a2a(name), base.join(format!("{name}.json"))).unwrap();
        }
        for name in &BASE[1..] {
            fs::copy(a2a(name), candidate.join(format!("{name}.json"))).unwrap();
        }
        fs::copy(
            a2a("n7_task_updated_delegation"),
            candidate.join("n7_task_updated_delegation.json"),
        )
        .unwrap();
        // Its state: typed positive (task + message refs) -> defaults.
        let happy = fs::read_to_string(a2a("happy_task_requested")).unwrap();
        fs::write(
            candidate.join("happy_task_requested.json"),
            happy.replace(r#""kind":"delegation""#, r#""kind":"analysis""#),
        )
        .unwrap();
        // Same state, another field (with an escape sequence, shown terminal-safe).
        let path = candidate.join("positive_task_ref_only.json");
        let mut value: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        value["agent"]["role"] = Value::from("reviewer\u{1b}[31m");
        fs::write(&path, value.to_string()).unwrap();

        let make = |from: &Path, name: &str| {
            let bundle = dir.path().join(format!("{name}.tar.gz"));
            let written = run(&["bundle", "--run-id", name, "--out", &s(&bundle), &s(from)]);
            assert_eq!(written.code, 0, "{}", written.stderr);
            let stream = dir.path().join(format!("{name}.ndjson"));
            let mut names: Vec<_> = fs::read_dir(from)
                .unwrap()
                .map(|entry| entry.unwrap().path())
                .collect();
            names.sort();
            let lines: Vec<String> = names
                .iter()
                .map(|path| {
                    let value: Value =
                        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
                    value.to_string()
                })
                .collect();
            fs::write(&stream, lines.join("\n") + "\n").unwrap();
            (s(&bundle), s(&stream))
        };
        let (base_bundle, base_stream) = make(&base, "run-a");
        let (candidate_bundle, candidate_stream) = make(&candidate, "run-b");
        Runs {
            dirs: (s(&base), s(&candidate)),
            bundles: (base_bundle, candidate_bundle),
            streams: (base_stream, candidate_stream),
            _dir: dir,
        }
    }

    fn diff(format: &str, sides: &(String, String)) -> Run {
        run(&["diff", "--format", format, &sides.0, &sides.1])
    }

    #[test]
    fn every_format_counts_the_four_edits_and_names_both_states() {
        let runs = runs();
        for sides in [&runs.dirs, &runs.bundles, &runs.streams] {
            let json = diff("json", sides);
            assert_eq!(json.code, 1, "{}", json.stderr);
            let report: Value = serde_json::from_str(&json.stdout).unwrap();
            assert_eq!(
                report["summary"],
                serde_json::json!({"added": 1, "removed": 1, "changed": 2, "unchanged": 2,
                    "state_changes": 1, "signer_changed": false}),
                "{sides:?}"
            );
            assert_eq!(report["mode"], "strict");
            let changes = report["changes"].as_array().unwrap();
            assert_eq!(changes.len(), 4);
            let state_change = changes
                .iter()
                .find(|change| {
                    change["state"]["base"] != change["state"]["candidate"]
                        && change["change"] == "changed"
                })
                .unwrap();
            assert_eq!(
                state_change["state"],
                serde_json::json!({"base": "task_and_message_refs", "candidate": "defaults"})
            );
            let visible = &state_change["flags"][0];
            assert_eq!(visible["path"], "handoff.visible");
            assert_eq!(
                (&visible["base"], &visible["candidate"]),
                (&Value::Bool(true), &Value::Bool(false))
            );
            assert_eq!(visible["rule"]["base"], "P");
            assert!(visible["rule"]["candidate"]
                .as_str()
                .unwrap()
                .contains("N5"));
            let fields_only = changes
                .iter()
                .find(|change| {
                    change["change"] == "changed" && change["flags"].as_array().unwrap().is_empty()
                })
                .unwrap();
            assert_eq!(fields_only["fields"].as_array().unwrap().len(), 1);
            assert!(fields_only["fields"][0]["path"]
                .as_str()
                .unwrap()
                .ends_with("agent.role"));
            for change in changes {
                for key in [
                    "change",
                    "base",
                    "candidate",
                    "kind",
                    "state",
                    "flags",
                    "fields",
                ] {
                    assert!(change.get(key).is_some(), "{key} missing in {change}");
                }
            }
            let added = changes
                .iter()
                .find(|change| change["change"] == "added")
                .unwrap();
            assert!(added["base"].is_null());
            assert!(
                added["candidate"].as_str().unwrap().contains("run-b")
                    || added["candidate"].as_str().unwrap().contains("candidate")
            );

            let text = diff("text", sides);
            assert_eq!(text.code, 1);
            assert!(text.stdout.contains("summary: 1 added, 1 removed, 2 changed (1 with another handoff state), 2 unchanged"), "{}", text.stdout);
            assert!(
                text.stdout.contains(
                    "== typed positive: task + message refs -> defaults (not visible) (1)"
                ),
                "{}",
                text.stdout
            );
            assert!(
                text.stdout
                    .contains("handoff.visible: true -> false   rule P -> N5"),
                "{}",
                text.stdout
            );
            // The most significant group comes first.
            let first_group = text.stdout.find("\n== ").unwrap();
            assert!(text.stdout[first_group..]
                .starts_with("\n== typed positive: task + message refs -> defaults"));
            let markdown = diff("markdown", sides);
            assert_eq!(markdown.code, 1);
            assert!(
                markdown.stdout.contains("| 1 | 1 | 2 | 1 | 2 |"),
                "{}",
                markdown.stdout
            );
            assert!(markdown
                .stdout
                .contains("`typed positive: task + message refs -> defaults (not visible)`"));
            for run in [&json, &text, &markdown] {
                assert!(
                    !run.stdout.contains('\u{1b}'),
                    "raw escape in {}",
                    run.stdout
                );
            }
        }
    }

    /// Two runs of 40 packets where the candidate drops one, adds one, changes `agent.id` in
    /// one and removes `task.id` in another (lenient: its task becomes `unknown-task`, its
    /// subject with it, and its state `typed positive: no refs`): as directories, bundles
    /// and NDJSON streams, the packet whose state changed is one change with both states.
    #[test]
    fn forty_packets_pair_the_packet_whose_ids_changed_as_one_change_in_every_shape() {
        let dir = tempfile::tempdir().unwrap();
        let packet = |agent: &str, task: Option<&str>| {
            let task = task.map_or(String::new(), |task| format!(r#""id":"{task}","#));
            format!(
                r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"agent://{agent}"}},"task":{{{task}"kind":"delegation"}}}}"#
            )
        };
        let write_run = |name: &str, packets: &[(usize, String)]| {
            let root = dir.path().join(name);
            fs::create_dir_all(&root).unwrap();
            for (n, packet) in packets {
                fs::write(root.join(format!("p{n:02}.json")), packet).unwrap();
            }
            let stream = dir.path().join(format!("{name}.ndjson"));
            let lines: Vec<&str> = packets.iter().map(|(_, packet)| packet.as_str()).collect();
            fs::write(&stream, lines.join("\n") + "\n").unwrap();
            let bundle = dir.path().join(format!("{name}.tar.gz"));
            let written = run(&[
                "bundle",
                "--mode",
                "lenient",
                "--run-id",
                name,
                "--out",
                &s(&bundle),
                &s(&root),
            ]);
            assert_eq!(written.code, 0, "{}", written.stderr);
            (s(&root), s(&bundle), s(&stream))
        };
        let base: Vec<(usize, String)> = (0..40)
            .map(|n| {
                (
                    n,
                    packet(&format!("worker-{n}"), Some(&format!("task-{n}"))),
                )
            })
            .collect();
        let mut candidate: Vec<(usize, String)> =
            base.iter().filter(|(n, _)| *n != 5).cloned().collect();
        candidate.push((40, packet("worker-40", Some("task-40"))));
        for (n, text) in &mut candidate {
            match n {
                10 => *text = packet("worker-ten", Some("task-10")),
                20 => *text = packet("worker-20", None),
                _ => {}
            }
        }
        let (base, candidate) = (write_run("run-a", &base), write_run("run-b", &candidate));
        for sides in [
            (&base.0, &candidate.0),
            (&base.1, &candidate.1),
            (&base.2, &candidate.2),
        ] {
            let json = run(&[
                "diff", "--mode", "lenient", "--format", "json", sides.0, sides.1,
            ]);
            assert_eq!(json.code, 1, "{}", json.stderr);
            let report: Value = serde_json::from_str(&json.stdout).unwrap();
            assert_eq!(
                report["summary"],
                serde_json::json!({"added": 1, "removed": 1, "changed": 2, "unchanged": 37,
                    "state_changes": 1, "signer_changed": false}),
                "{sides:?}"
            );
            let changed: Vec<&Value> = report["changes"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|change| change["change"] == "changed")
                .collect();
            let states: Vec<&Value> = changed.iter().map(|change| &change["state"]).collect();
            assert!(
                states.contains(
                    &&serde_json::json!({"base": "task_ref_only", "candidate": "no_refs"})
                ),
                "{sides:?}: {states:?}"
            );
            let flags: Vec<&Value> = changed
                .iter()
                .map(|change| &change["flags"][0]["path"])
                .collect();
            assert!(
                flags.contains(&&Value::from("handoff.task_ref_visible")),
                "{flags:?}"
            );
            let text = run(&["diff", "--mode", "lenient", sides.0, sides.1]);
            assert!(
                text.stdout
                    .contains("== typed positive: task ref only -> typed positive: no refs (1)"),
                "{}",
                text.stdout
            );
        }
    }

    /// The header's range is over instants: an offset is compared as the instant it is and
    /// written in UTC; text, a number and a date without an offset are counted, not ranged.
    #[test]
    fn the_header_ranges_instants_and_counts_the_times_it_cannot_read() {
        let dir = tempfile::tempdir().unwrap();
        let stream = dir.path().join("times.ndjson");
        let lines: Vec<String> = [
            r#""yesterday""#,
            "1700000000",
            r#""2026-02-27 10:05:00""#,
            r#""2026-02-27T12:05:00+02:00""#,
            r#""2026-02-27T10:30:00Z""#,
        ]
        .iter()
        .map(|time| {
            format!(
                r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":{time},"agent":{{"id":"agent://a"}},"task":{{"id":"task-1","kind":"delegation"}}}}"#
            )
        })
        .collect();
        fs::write(&stream, lines.join("\n") + "\n").unwrap();
        let text = run(&["diff", &s(&stream), &s(&stream)]);
        assert_eq!(text.code, 0, "{}", text.stderr);
        assert!(
            text.stdout.contains(
                "times 2026-02-27T10:05:00Z .. 2026-02-27T10:30:00Z; 3 times not RFC 3339, not counted)"
            ),
            "{}",
            text.stdout
        );
        let json = run(&["diff", "--format", "json", &s(&stream), &s(&stream)]);
        let report: Value = serde_json::from_str(&json.stdout).unwrap();
        let header = &report["header"]["candidate"];
        assert_eq!(
            (
                &header["first_time"],
                &header["last_time"],
                &header["times_not_rfc3339"]
            ),
            (
                &Value::from("2026-02-27T10:05:00Z"),
                &Value::from("2026-02-27T10:30:00Z"),
                &Value::from(3)
            )
        );
    }

    #[test]
    fn a_run_against_itself_changes_nothing_and_bundles_report_run_facts_once() {
        let runs = runs();
        for sides in [&runs.dirs, &runs.bundles, &runs.streams] {
            for format in ["text", "json", "markdown"] {
                let same = run(&["diff", "--format", format, &sides.0, &sides.0]);
                assert_eq!(same.code, 0, "{format} {sides:?}: {}", same.stdout);
            }
            let json = diff("json", &(sides.0.clone(), sides.0.clone()));
            let report: Value = serde_json::from_str(&json.stdout).unwrap();
            assert_eq!(report["summary"]["unchanged"], 5);
            assert_eq!(report["changes"], serde_json::json!([]));
        }
        let json = diff("json", &runs.bundles);
        let report: Value = serde_json::from_str(&json.stdout).unwrap();
        assert_eq!(report["header"]["base"]["bundle"]["verdict"], "valid");
        assert_eq!(
            report["header"]["base"]["run_ids"],
            serde_json::json!(["run-a"])
        );
        assert_eq!(
            report["header"]["candidate"]["run_ids"],
            serde_json::json!(["run-b"])
        );
        // Run ids, event ids and content hashes are not per-event changes.
        for change in report["changes"].as_array().unwrap() {
            for field in change["fields"].as_array().unwrap() {
                let path = field["path"].as_str().unwrap();
                assert!(
                    ["assayrunid", "assaycontenthash", "assayseq", ".id", ".time"]
                        .iter()
                        .all(|scoped| !path.ends_with(scoped)),
                    "{path}"
                );
            }
        }
    }

    #[test]
    fn an_unreadable_side_exits_2_and_a_bad_file_is_named_while_the_rest_is_compared() {
        let runs = runs();
        let missing = run(&["diff", &runs.dirs.0, "/nonexistent/run"]);
        assert_eq!(missing.code, 2);
        assert!(
            missing.stderr.contains("/nonexistent/run"),
            "{}",
            missing.stderr
        );
        let dir = tempfile::tempdir().unwrap();
        copy_files(Path::new(&runs.dirs.1), dir.path());
        // Larger than the cap: named with its reason, the rest compared.
        fs::write(dir.path().join("zz_big.json"), vec![b' '; 200_000]).unwrap();
        let result = run(&[
            "diff",
            "--format",
            "json",
            "--max-file-bytes",
            "100000",
            &runs.dirs.0,
            &s(dir.path()),
        ]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        assert!(result.stderr.contains("zz_big.json"), "{}", result.stderr);
        let report: Value = serde_json::from_str(&result.stdout).unwrap();
        assert_eq!(report["summary"]["changed"], 2);
        let errors = report["header"]["candidate"]["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1);
        assert!(errors[0]["source"]
            .as_str()
            .unwrap()
            .ends_with("zz_big.json"));
        assert!(errors[0]["reason"]
            .as_str()
            .unwrap()
            .contains("--max-file-bytes"));
    }
}

/// The clock the UAIX expiry rows read, fixed so two runs print the same bytes.
const NOW: &str = "2026-06-01T00:00:00Z";

fn sarif_of(result: &Run) -> Value {
    // Read through types generated from the SARIF 2.1.0 schema: a member of the wrong type,
    // a missing required member or an unknown level fails here.
    let typed: serde_sarif::sarif::Sarif = serde_json::from_str(&result.stdout)
        .unwrap_or_else(|error| panic!("not SARIF 2.1.0 ({error}): {}", result.stdout));
    assert_eq!(typed.runs.len(), 1);
    let value: Value = serde_json::from_str(&result.stdout).unwrap();
    assert_eq!(value["version"], "2.1.0");
    let driver = &value["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "handoff-inspector");
    assert!(driver["informationUri"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    let rules: Vec<&str> = driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    for result in value["runs"][0]["results"].as_array().unwrap() {
        let rule = result["ruleId"].as_str().unwrap();
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules.get(index), Some(&rule), "{result}");
        let location = &result["locations"][0]["physicalLocation"]["artifactLocation"];
        assert!(
            location["uri"].as_str().is_some_and(|uri| !uri.is_empty()),
            "{result}"
        );
        assert!(["error", "warning", "note"].contains(&result["level"].as_str().unwrap()));
        assert!(result["partialFingerprints"]["handoffInspector/v1"].is_string());
    }
    value
}

#[test]
fn sarif_declares_every_rule_and_locates_every_result() {
    let whole = run(&["check", "--now", NOW, "--format", "sarif", &s(&fixtures())]);
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    let value = sarif_of(&whole);
    let results = value["runs"][0]["results"].as_array().unwrap();
    // The intentional negatives fail exactly as recorded: notes, never errors.
    assert!(!results.is_empty());
    assert!(
        results.iter().all(|result| result["level"] != "error"),
        "{results:?}"
    );
    assert!(results
        .iter()
        .any(|result| result["ruleId"] == "IntegrityEventHash" && result["level"] == "note"));
    // Reruns give the same results with the same fingerprints.
    let again = run(&["check", "--now", NOW, "--format", "sarif", &s(&fixtures())]);
    assert_eq!(whole.stdout, again.stdout);

    // A drifted copy: the changed packet is an error at its file, under the drift's rule.
    let dir = fixture_copy();
    let packet = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&packet)
        .unwrap()
        .replace("delegation", "analysis");
    fs::write(&packet, text).unwrap();
    let drifted = run_in(
        Some(dir.path()),
        &["check", "--now", NOW, "--format", "sarif", "."],
        &[],
    );
    assert_eq!(drifted.code, 1, "{}", drifted.stderr);
    let value = sarif_of(&drifted);
    let errors: Vec<&Value> = value["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|result| result["level"] == "error")
        .collect();
    assert!(!errors.is_empty());
    for error in &errors {
        let location = &error["locations"][0]["physicalLocation"]["artifactLocation"];
        assert_eq!(location["uri"], "happy_task_requested.json", "{error}");
        assert_eq!(location["uriBaseId"], "%SRCROOT%");
    }
    assert!(errors
        .iter()
        .any(|error| error["ruleId"] == "golden_mismatch"));
}

/// The `source` of every packet of a `check --format json` output.
pub(crate) fn sources(json: &str) -> Vec<String> {
    let value: Value = serde_json::from_str(json).unwrap();
    value["packets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|packet| packet["source"].as_str().unwrap().to_owned())
        .collect()
}

/// `check --shard K/N --format json` of each K into DIR/part-K.json; the paths.
fn save_shards(root: &Path, count: usize, dir: &Path) -> Vec<String> {
    (1..=count)
        .map(|index| {
            let shard = format!("{index}/{count}");
            let part = run(&[
                "check",
                "--now",
                NOW,
                "--shard",
                &shard,
                "--format",
                "json",
                &s(root),
            ]);
            assert!(part.code <= 1, "{}", part.stderr);
            let path = dir.join(format!("part-{index}.json"));
            fs::write(&path, &part.stdout).unwrap();
            s(&path)
        })
        .collect()
}

#[test]
fn shards_are_disjoint_and_their_union_is_the_whole_run() {
    let whole = run(&["check", "--now", NOW, "--format", "json", &s(&fixtures())]);
    let saved = tempfile::tempdir().unwrap();
    let mut union = Vec::new();
    for part in save_shards(&fixtures(), 3, saved.path()) {
        let part = sources(&fs::read_to_string(&part).unwrap());
        assert!(!part.is_empty(), "a shard is empty");
        union.extend(part);
    }
    // Laid end to end in K order the shards are the whole run, in its order, each packet once.
    assert_eq!(union, sources(&whole.stdout));
    let bad = run(&["check", "--shard", "4/3", &s(&fixtures())]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("1 <= K <= N"), "{}", bad.stderr);
}

#[test]
fn report_of_saved_shards_prints_what_check_prints_for_the_whole() {
    let saved = tempfile::tempdir().unwrap();
    let drifted = fixture_copy();
    let packet = drifted.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&packet)
        .unwrap()
        .replace("delegation", "analysis");
    fs::write(&packet, text).unwrap();
    for (root, code) in [(fixtures(), 0), (drifted.path().to_path_buf(), 1)] {
        let out = saved
            .path()
            .join(if code == 0 { "clean" } else { "drifted" });
        fs::create_dir_all(&out).unwrap();
        let mut parts = save_shards(&root, 3, &out);
        parts.reverse();
        for format in ["text", "json", "junit", "markdown", "sarif"] {
            let whole = run(&["check", "--now", NOW, "--format", format, &s(&root)]);
            let mut args = vec!["report", "--format", format];
            args.extend(parts.iter().map(String::as_str));
            let report = run(&args);
            assert_eq!(whole.code, code, "{format}: {}", whole.stderr);
            assert_eq!(report.code, code, "{format}: {}", report.stderr);
            assert!(
                report.stdout == whole.stdout,
                "{format}: report differs from check"
            );
        }
        // One saved whole run reports as itself too.
        let whole = run(&["check", "--now", NOW, "--format", "json", &s(&root)]);
        let path = out.join("whole.json");
        fs::write(&path, &whole.stdout).unwrap();
        let report = run(&["report", "--format", "json", &s(&path)]);
        assert_eq!(report.stdout, whole.stdout);
    }
    // Shards that do not fit together, and a file that is no saved result: exit 2, named.
    let parts = save_shards(&fixtures(), 3, saved.path());
    let missing = run(&["report", &parts[0], &parts[2]]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("shard 2/3 is missing"),
        "{}",
        missing.stderr
    );
    let other_root = tempfile::tempdir().unwrap();
    let other = save_shards(&fixtures().join("a2a"), 3, other_root.path());
    let mixed = run(&["report", &parts[0], &other[1], &parts[2]]);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stderr.contains("other PATHs"), "{}", mixed.stderr);
    let twice = run(&["report", &parts[0], &parts[0], &parts[1], &parts[2]]);
    assert_eq!(twice.code, 2, "{}", twice.stderr);
    let not_saved = run(&["report", &s(&a2a("happy_task_requested"))]);
    assert_eq!(not_saved.code, 2);
    assert!(
        not_saved.stderr.contains("happy_task_requested.json:1:"),
        "{}",
        not_saved.stderr
    );
}

#[test]
fn the_ci_workflow_commands_run_as_written() {
    let workflow = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci/handoff-check-matrix.yml"),
    )
    .unwrap();
    let commands: Vec<&str> = workflow
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("handoff-inspector "))
        .collect();
    assert_eq!(commands.len(), 4, "{commands:?}");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        s(&bin_dir),
        std::env::var("PATH").unwrap_or_default()
    );
    let work = tempfile::tempdir().unwrap();
    let shell = |command: &str| {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(work.path())
            .env("PATH", &path)
            .env("CORPUS", fixtures())
            .env("SHARDS", "3")
            .env("NOW", NOW)
            .output()
            .unwrap();
        assert!(output.status.success(), "{command}: {output:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    for index in 1..=3 {
        shell(&commands[0].replace("${{ matrix.shard }}", &index.to_string()));
    }
    shell(commands[1]);
    shell(commands[2]);
    let gate = shell(commands[3]);
    let whole =
        |format: &str| run(&["check", "--now", NOW, "--format", format, &s(&fixtures())]).stdout;
    assert_eq!(
        fs::read_to_string(work.path().join("handoff.md")).unwrap(),
        whole("markdown")
    );
    assert_eq!(
        fs::read_to_string(work.path().join("handoff.sarif")).unwrap(),
        whole("sarif")
    );
    assert_eq!(gate, whole("text"));
}

/// A report says only what ran: with `--mode strict` the coverage matrix has no lenient
/// column, lists no lenient cell as uncovered and suggests nothing for it.
#[test]
fn markdown_coverage_covers_only_the_modes_that_ran() {
    let out = run(&[
        "check",
        "--mode",
        "strict",
        "--format",
        "markdown",
        &s(&fixtures().join("a2a")),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let coverage = out
        .stdout
        .split("## Coverage matrix")
        .nth(1)
        .unwrap()
        .split("## ")
        .next()
        .unwrap();
    assert!(coverage.contains("| Row | Title | strict | Example packets |"));
    assert!(coverage.contains("Not run, so not shown: lenient"));
    assert!(!coverage.contains(" lenient |"), "{coverage}");
    assert!(!coverage.contains("lenient,"), "{coverage}");
    assert!(!coverage.contains("Uncovered cells"), "{coverage}");
    assert!(!out.stdout.contains("lenient, raw packets"));
    let both = run(&["check", "--format", "markdown", &s(&fixtures().join("a2a"))]);
    assert!(both
        .stdout
        .contains("| Row | Title | strict | lenient | Example packets |"));
}

/// `bless` records goldens.json only: a raw packet's paired expected payloads that drifted are
/// named with what changed in them (paths, before -> after) and the command that updates
/// each; the command does what it says.
/// Goldens keep the JSON their digests cover (format v2), so drift shows what changed in the
/// event, field by field, in `check` and in `bless`; a v1 manifest (digests only) is still
/// read and says the before is unknown until blessed again.
#[test]
fn drift_shows_the_changed_fields_and_a_digest_only_golden_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let path = s(dir.path());
    for name in ["happy_task_requested", "happy_artifact_shared"] {
        fs::copy(a2a(name), dir.path().join(format!("{name}.json"))).unwrap();
    }
    // An object golden too: a canonical payload (not paired with a raw packet here).
    fs::copy(
        fixtures().join("a2a/n5_task_kind_analysis.strict.payload.json"),
        dir.path().join("canonical.json"),
    )
    .unwrap();
    assert_eq!(bless(&[&path]).code, 0);
    let manifest = fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(manifest.contains("\"format\": \"handoff-inspector goldens v2\""));
    assert!(
        manifest
            .contains("        \"content\": {\n          \"adapter_id\": \"assay-adapter-a2a\","),
        "{manifest}"
    );
    let happy = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&happy).unwrap();
    fs::write(
        &happy,
        text.replace("\"kind\":\"delegation\"", "\"kind\":\"analysis\"")
            .replace("\"id\":\"msg-1\"", "\"id\":\"msg-2\""),
    )
    .unwrap();
    let canonical = dir.path().join("canonical.json");
    let text = fs::read_to_string(&canonical).unwrap();
    fs::write(&canonical, text.replace("\"task-5\"", "\"task-999\"")).unwrap();

    let checked = run(&["check", &path]);
    assert_eq!(checked.code, 1);
    for expected in [
        "; handoff state: typed positive: task + message refs -> defaults (not visible)\n",
        "      ~ $.handoff.task_ref_visible: true -> false\n      ~ $.handoff.visible: true -> false\n      ~ $.message.id: \"msg-1\" -> \"msg-2\"\n      ~ $.task.kind: \"delegation\" -> \"analysis\"\n      --- golden payload (lenient)",
        "canonical.json  object ",
        "      ~ $.task.id: \"task-5\" -> \"task-999\"\n      --- golden object\n      +++ this object",
    ] {
        assert!(checked.stdout.contains(expected), "missing {expected:?} in\n{}", checked.stdout);
    }
    let dry = bless(&["--dry-run", &path]);
    for expected in [
        "  ~ happy_task_requested.json  strict.state: task_and_message_refs -> defaults\n      handoff state: typed positive: task + message refs -> defaults (not visible)\n",
        "  ~ happy_task_requested.json  strict.payload: ef0434aab2e4 -> ",
        "\n      ~ $.message.id: \"msg-1\" -> \"msg-2\"\n      ~ $.task.kind: \"delegation\" -> \"analysis\"\n",
        "  ~ canonical.json  object: ",
        "\n      ~ $.task.id: \"task-5\" -> \"task-999\"\n",
    ] {
        assert!(dry.stdout.contains(expected), "missing {expected:?} in\n{}", dry.stdout);
    }

    // The same manifest as v1 wrote it (digests only): read, and the before is unknown.
    let mut value: Value = serde_json::from_str(&manifest).unwrap();
    value["format"] = Value::from("handoff-inspector goldens v1");
    for entry in value["packets"].as_object_mut().unwrap().values_mut() {
        let entry = entry.as_object_mut().unwrap();
        entry.remove("content");
        for mode in ["strict", "lenient"] {
            if let Some(golden) = entry.get_mut(mode) {
                golden.as_object_mut().unwrap().remove("content");
            }
        }
    }
    fs::write(dir.path().join("goldens.json"), value.to_string()).unwrap();
    let old = run(&["check", &path]);
    assert_eq!(old.code, 1, "{}", old.stderr);
    for expected in [
        "; handoff state: typed positive: task + message refs -> defaults (not visible); payload before unknown: the golden stores only the digest; bless again to record the content\n      ~ $.message_ref_visible: true -> false",
        "; object before unknown: the golden stores only the digest; bless again to record the content\n",
    ] {
        assert!(old.stdout.contains(expected), "missing {expected:?} in\n{}", old.stdout);
    }
    let upgrade = bless(&["--dry-run", &path]);
    for expected in [
        "  ~ happy_task_requested.json  strict.payload: ef0434aab2e4 -> ",
        "      before unknown: the golden stored only the digest (this bless records the content)\n",
        "  ~ happy_artifact_shared.json  strict.content: not recorded -> recorded (the JSON of digest ",
    ] {
        assert!(upgrade.stdout.contains(expected), "missing {expected:?} in\n{}", upgrade.stdout);
    }
}

#[test]
fn bless_names_drifted_paired_payloads_and_how_to_update_them() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "happy_task_requested.json",
        "happy_task_requested.strict.payload.json",
        "happy_task_requested.lenient.payload.json",
    ] {
        fs::copy(fixtures().join("a2a").join(name), dir.path().join(name)).unwrap();
    }
    let packet = dir.path().join("happy_task_requested.json");
    let text = fs::read_to_string(&packet).unwrap();
    fs::write(&packet, text.replace("\"delegation\"", "\"analysis\"")).unwrap();
    let out = run_env(&["bless", &s(dir.path())], &[("CI", None)]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for expected in [
        "paired expected payloads that differ from the conversion (2): bless records goldens.json only",
        "  strict: the converted payload differs from happy_task_requested.strict.payload.json at 5 path(s)",
        "      ~ $.task.kind: \"delegation\" -> \"analysis\"",
        "      ~ $.handoff.visible: true -> false",
    ] {
        assert!(out.stdout.contains(expected), "{expected}\n{}", out.stdout);
    }
    let update = out
        .stdout
        .lines()
        .find(|line| line.contains("update it: ") && line.contains("--mode strict"))
        .unwrap()
        .split("update it: ")
        .nth(1)
        .unwrap()
        .replacen(
            "handoff-inspector",
            env!("CARGO_BIN_EXE_handoff-inspector"),
            1,
        );
    if std::process::Command::new("jq")
        .arg("--version")
        .output()
        .is_ok()
    {
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(&update)
            .status()
            .unwrap();
        assert!(status.success(), "{update}");
        let after = run(&["check", &s(dir.path())]);
        assert!(
            after
                .stdout
                .contains("expected-payload mismatches (1 finding(s) in 1 packet(s))"),
            "{}",
            after.stdout
        );
    }
}
