//! One verdict everywhere: for every file of the fixture tree, `ls`, `check --format json`,
//! `explain` and `digest` agree on what it is, and each prints the shape documented for
//! that kind.

use crate::common::{fixtures, run};
use serde_json::Value;
use std::collections::BTreeMap;

/// Kind per source, from `ls --format json`.
fn ls_kinds() -> BTreeMap<String, String> {
    let root = fixtures().to_string_lossy().into_owned();
    let listed = run(&["ls", "--format", "json", &root]);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    listed
        .json_lines()
        .iter()
        .map(|line| {
            (
                line["source"].as_str().unwrap().to_owned(),
                line["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn ls_and_check_give_every_file_the_same_kind() {
    let kinds = ls_kinds();
    let root = fixtures().to_string_lossy().into_owned();
    let checked = run(&["check", "--format", "json", &root]);
    let report: Value = serde_json::from_str(&checked.stdout).unwrap();
    let packets = report["packets"].as_array().unwrap();
    assert_eq!(packets.len(), kinds.len() - count(&kinds, "golden"));
    for packet in packets {
        let source = packet["source"].as_str().unwrap();
        assert_eq!(
            Some(packet["kind"].as_str().unwrap()),
            kinds.get(source).map(String::as_str),
            "{source}"
        );
    }
}

fn count(kinds: &BTreeMap<String, String>, kind: &str) -> usize {
    kinds.values().filter(|value| *value == kind).count()
}

#[test]
fn explain_explains_every_kind_as_what_it_is() {
    let kinds = ls_kinds();
    // One file of each kind, the first in path order.
    let mut seen = BTreeMap::new();
    for (source, kind) in &kinds {
        seen.entry(kind.clone()).or_insert_with(|| source.clone());
    }
    for expected in [
        "raw",
        "payload",
        "event",
        "a2a-0.3",
        "a2a-1.0",
        "a2a",
        "ahc",
        "contextcore",
        "uaix",
        "golden",
        "bundle",
        "not-json",
        "unknown",
    ] {
        assert!(
            seen.contains_key(expected),
            "no {expected} file in fixtures"
        );
    }
    for (kind, source) in &seen {
        let explained = run(&["explain", "--format", "json", source]);
        let line = &explained.json_lines()[0];
        let shape_key = match kind.as_str() {
            "raw" | "not-json" => "conversion_rows",
            "payload" | "event" | "batch" => "findings",
            "a2a-0.3" | "a2a-1.0" | "a2a" => "detected",
            "ahc" | "contextcore" | "uaix" => "outcomes",
            "golden" => "parses",
            "bundle" => "checks",
            _ => "reason",
        };
        let has = |key: &str| line.get(key).is_some() || line.to_string().contains(key);
        assert!(has(shape_key), "{kind} {source}: {line}");
        if let Some(reported) = line.get("kind").and_then(Value::as_str) {
            if matches!(
                kind.as_str(),
                "a2a-0.3" | "a2a-1.0" | "a2a" | "golden" | "bundle" | "unknown"
            ) {
                assert_eq!(reported, kind, "{source}");
            }
        }
        // Text names the kind's long name in its first line.
        let text = run(&["explain", source]);
        assert!(!text.stdout.is_empty(), "{source}");
    }
}

#[test]
fn digest_prints_hex_part_source_for_every_kind() {
    let kinds = ls_kinds();
    for (source, kind) in &kinds {
        let digested = run(&["digest", source]);
        if kind == "not-json" {
            assert_eq!(digested.code, 1, "{source}");
            assert!(digested.stderr.contains("[C3]"), "{}", digested.stderr);
            continue;
        }
        if kind == "bundle" {
            // Its run root (when it verifies) and manifest digest, then every event's digest
            // under BUNDLE:SEQ, each as ls names it.
            let verifies = !digested.stderr.contains("no run root");
            assert_eq!(digested.code, if verifies { 0 } else { 1 }, "{source}");
            let mut lines = digested.stdout.lines();
            if verifies {
                assert!(lines
                    .next()
                    .unwrap()
                    .ends_with(&format!("  run_root  {source}")));
            }
            assert!(lines
                .next()
                .unwrap()
                .ends_with(&format!("  manifest  {source}")));
            for line in lines {
                let fields: Vec<&str> = line.split("  ").collect();
                assert_eq!(fields[0].len(), 64, "{line}");
                assert_eq!(fields[1], "event", "{line}");
                assert_eq!(
                    kinds.get(fields[2]).map(String::as_str),
                    Some("event"),
                    "{line}"
                );
            }
            continue;
        }
        if digested.code != 0 {
            // Raw packets rejected in strict mode have no digest: the adapter's error.
            assert_eq!(kind, "raw", "{source}: {}", digested.stderr);
            assert!(digested.stderr.contains("not converted"));
            continue;
        }
        for line in digested.stdout.lines() {
            let fields: Vec<&str> = line.split("  ").collect();
            assert_eq!(fields[0].len(), 64, "{line}");
            assert!(
                ["payload", "event", "batch", "handoff", "object", "migrated"].contains(&fields[1]),
                "{line}"
            );
            assert_eq!(fields[2], source, "{line}");
        }
        let first_part = digested.stdout.split("  ").nth(1).unwrap_or("");
        let expected_part = match kind.as_str() {
            "raw" | "payload" => "payload",
            "event" => "event",
            "batch" => "batch",
            _ => "object",
        };
        assert_eq!(first_part, expected_part, "{source}");
    }
}

#[test]
fn junit_names_every_testcase_by_kind_or_mode() {
    let root = fixtures().to_string_lossy().into_owned();
    let junit = run(&["check", "--format", "junit", &root]);
    assert_eq!(junit.code, 0, "{}", junit.stderr);
    let name_of = |needle: &str| -> String {
        junit
            .stdout
            .lines()
            .find(|line| line.contains("<testcase") && line.contains(needle))
            .unwrap_or_else(|| panic!("no testcase for {needle}"))
            .to_owned()
    };
    assert!(name_of("neg-UAIX-10-secret.json").contains("[profile]"));
    assert!(name_of("task.v03.jsonrpc.json").contains("[migrate]"));
    assert!(name_of("canonical-payload.json").contains("[audit]"));
    assert!(name_of("happy_task_requested.json [strict]").contains("[strict]"));
    assert!(name_of("happy_task_requested.json [lenient]").contains("[lenient]"));
    assert!(name_of("jsonrpc-request.json").contains("[not checked]"));
    assert!(name_of("plain.json [strict]").contains("[strict]"));
    assert!(name_of("neg-tampered-event-hash.tar.gz [bundle]").contains("[bundle]"));
    assert!(name_of("a2a-ten-events.tar.gz:1 [audit]").contains("[audit]"));
}

/// One vocabulary: `explain`'s first line is `SOURCE  (NAME...)` with the very name `ls`
/// gives the file's kind, and its JSON names the kind by `ls`'s tag, for one file of every
/// kind (bytes that are not JSON included: never headed as a raw packet).
#[test]
fn explain_names_every_kind_as_ls_does() {
    let root = fixtures().to_string_lossy().into_owned();
    let listed = run(&["ls", "--format", "json", &root]);
    let mut seen = BTreeMap::new();
    for line in listed.json_lines() {
        let kind = line["kind"].as_str().unwrap().to_owned();
        seen.entry(kind).or_insert(line);
    }
    assert!(seen.len() >= 13, "{:?}", seen.keys());
    for (kind, line) in &seen {
        let source = line["source"].as_str().unwrap();
        let name = line["kind_name"].as_str().unwrap();
        let text = run(&["explain", source]);
        let first = text.stdout.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("{source}  ({name}")),
            "{kind}: {first}"
        );
        let json = run(&["explain", "--format", "json", source]);
        let line = &json.json_lines()[0];
        if kind != "ahc" && kind != "contextcore" && kind != "uaix" {
            assert_eq!(line["kind"], kind.as_str(), "{source}");
        }
    }
}

/// `--as KIND` forces the reading on every command that reads packets, and the reason says
/// what it overrides; bytes that are not JSON and bundles keep theirs.
#[test]
fn as_kind_forces_one_reading_on_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("capture.json");
    std::fs::copy(crate::common::a2a("happy_task_requested"), &raw).unwrap();
    let file = raw.to_string_lossy().into_owned();
    let root = dir.path().to_string_lossy().into_owned();

    let listed = run(&["ls", "--as", "payload", "--format", "json", &file]);
    let line = &listed.json_lines()[0];
    assert_eq!(line["kind"], "payload");
    assert!(line["reason"]
        .as_str()
        .unwrap()
        .contains("--as payload asks for it (by its own evidence: raw:"));
    let checked = run(&["check", "--as", "payload", "--format", "json", &file]);
    let report: Value = serde_json::from_str(&checked.stdout).unwrap();
    assert_eq!(report["packets"][0]["kind"], "payload");
    let explained = run(&["explain", "--as", "payload", "--format", "json", &file]);
    assert_eq!(explained.json_lines()[0]["kind"], "payload");
    let digested = run(&["digest", "--as", "payload", &file]);
    assert!(
        digested.stdout.contains("  payload  "),
        "{}",
        digested.stdout
    );
    // In a directory, convert takes only the adapter's input: forced to payload, it is not.
    let converted = run(&["convert", "--as", "payload", &root]);
    assert_eq!(converted.stdout, "");
    assert!(
        converted.stderr.contains("capture.json: payload"),
        "{}",
        converted.stderr
    );
    // Unforced, the same directory is converted.
    assert_eq!(run(&["convert", &root]).json_lines().len(), 1);
    // Read as an A2A object it is not: explain says so (exit 1), never silence.
    let a2a = run(&["explain", "--as", "a2a-1.0", &file]);
    assert_eq!(a2a.code, 1);
    assert!(
        a2a.stdout.contains("not detected as an A2A object"),
        "{}",
        a2a.stdout
    );
    // Bytes that are not JSON stay not-json; `bundle` cannot be asked for.
    std::fs::write(&raw, b"{\"protocol\": ").unwrap();
    let listed = run(&["ls", "--as", "event", "--format", "json", &file]);
    assert_eq!(listed.json_lines()[0]["kind"], "not-json");
    assert_eq!(run(&["ls", "--as", "bundle", &file]).code, 2);
}

/// Every A2A object of the migration fixtures: `ls`, `explain`, `migrate` and `check` ask the
/// one detection, so they agree on its version and on what migrates. `explain` prints its
/// migration (never nothing), and its steps are the ones `migrate` applies in the same
/// direction; `check` judges the same migrated form (`explain`'s digest is the golden's).
#[test]
fn every_face_agrees_on_what_an_a2a_object_migrates() {
    let kinds = ls_kinds();
    let mut compared = 0;
    for (source, kind) in &kinds {
        if !source.contains("/migrate/") || !matches!(kind.as_str(), "a2a-0.3" | "a2a-1.0" | "a2a")
        {
            continue;
        }
        let explained = run(&["explain", "--format", "json", source]);
        let line = &explained.json_lines()[0];
        assert_eq!(line["kind"], kind.as_str(), "{source}");
        let direction = line["direction"]
            .as_str()
            .unwrap_or_else(|| panic!("{source}: {line}"));
        let to = match direction {
            "0.3->1.0" => "1.0",
            _ => "0.3",
        };
        assert_eq!(to == "1.0", kind != "a2a-1.0", "{source}: {direction}");
        let migrated = run(&["migrate", "--to", to, "--format", "json", source]);
        let report: Value = serde_json::from_str(&migrated.stdout).unwrap();
        // `--to 0.3` output the v0.3 check rejects is an error; explain says it does not conform.
        let rejected = to == "0.3"
            && report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|finding| finding["severity"] == "error");
        assert_eq!(
            migrated.code,
            i32::from(rejected),
            "{source}: {}",
            migrated.stderr
        );
        if rejected {
            assert_eq!(line["conforms"], false, "{source}");
        }
        let ids = |steps: &Value| -> Vec<String> {
            steps
                .as_array()
                .unwrap()
                .iter()
                .map(|step| step["id"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(ids(&line["steps"]), ids(&report["steps"]), "{source}");
        assert_eq!(
            line["detected"]["version"], report["detected"]["version"],
            "{source}"
        );
        let text = run(&["explain", source]);
        assert!(text.stdout.lines().count() > 2, "{source}: {}", text.stdout);
        compared += 1;
    }
    assert!(compared > 50, "{compared}");
}

/// Two inputs on which faces once disagreed, held to one verdict: a bare Part named as a
/// migration's v1.0 output, and an error -32007 that reads the same in both versions.
#[test]
fn reported_disagreements_are_gone() {
    let file = |name: &str| {
        fixtures()
            .join("migrate")
            .join(name)
            .to_string_lossy()
            .into_owned()
    };
    for name in [
        "part-data.v03.jsonrpc.v10.json",
        "part-text.v03.jsonrpc.v10.json",
    ] {
        let path = file(name);
        let explained = run(&["explain", &path]);
        assert_eq!(explained.code, 0, "{name}");
        assert!(
            explained.stdout.contains("detected: A2A v1.0 Part"),
            "{}",
            explained.stdout
        );
        assert!(
            explained.stdout.contains("to03-part-"),
            "{}",
            explained.stdout
        );
        // migrate reads it as ls does: already v1.0, nothing differs.
        let migrated = run(&["migrate", &path]);
        assert_eq!(migrated.code, 0, "{}", migrated.stderr);
        assert!(
            migrated.stderr.contains("already A2A v1.0"),
            "{}",
            migrated.stderr
        );
        let back = run(&["migrate", "--to", "0.3", &path]);
        assert_eq!(back.code, 0, "{}", back.stderr);
        assert!(back.stdout.contains("\"kind\""), "{}", back.stdout);
    }
    let input = file("error-32007.v03.jsonrpc.json");
    let explained = run(&["explain", &input]);
    assert!(
        explained.stdout.contains("1. error-rename-32007"),
        "{}",
        explained.stdout
    );
    assert!(!explained.stdout.contains("nothing to migrate"));
    let sibling = run(&["explain", &file("error-32007.v03.jsonrpc.v10.json")]);
    let first_two: Vec<&str> = sibling.stdout.lines().take(2).collect();
    assert!(first_two[0].ends_with("(A2A v1.0 object)"), "{first_two:?}");
    assert!(
        first_two[1].starts_with("detected: A2A v1.0 JSON-RPC response"),
        "{first_two:?}"
    );
}

/// Issue 23: `explain` prints something for every file of the fixture tree (and every
/// bundle event), never nothing with exit 0.
#[test]
fn explain_is_never_silent() {
    for source in ls_kinds().keys() {
        let explained = run(&["explain", source]);
        assert!(
            !explained.stdout.trim().is_empty(),
            "{source}: exit {}, nothing printed",
            explained.code
        );
    }
}

/// An empty or binary file is the adapter's input all the same, in every command: a `not-json`
/// packet it rejects (C3), never a load error (docs/check.md, docs/commands.md say so).
#[test]
fn empty_and_binary_files_get_one_answer_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        ("empty.json", Vec::new()),
        ("spaces.json", b"  \n\t ".to_vec()),
        ("binary.json", vec![0x00, 0xff, 0xfe, 0x1b, 0x9b, 0x80]),
    ];
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let path = path.to_string_lossy().into_owned();
        let listed = run(&["ls", "--format", "json", &path]);
        assert_eq!(listed.code, 0, "ls {name}: {}", listed.stderr);
        assert_eq!(listed.json_lines()[0]["kind"], "not-json", "ls {name}");
        let checked = run(&["check", "--format", "json", &path]);
        assert_eq!(checked.code, 1, "check {name}: {}", checked.stderr);
        let report: Value = serde_json::from_str(&checked.stdout).unwrap();
        let packet = &report["packets"][0];
        assert_eq!(
            (&packet["kind"], &packet["status"]),
            (&Value::from("not-json"), &Value::from("error")),
            "check {name}"
        );
        assert_eq!(packet["modes"][0]["rule"], "C3", "check {name}");
        assert_eq!(report["summary"]["load_errors"], 0, "check {name}");
        for command in ["convert", "explain", "digest"] {
            let done = run(&[command, &path]);
            assert_eq!(
                done.code, 1,
                "{command} {name}: {}{}",
                done.stdout, done.stderr
            );
            assert!(
                format!("{}{}", done.stdout, done.stderr).contains("measurement"),
                "{command} {name}: the adapter's measurement error: {}{}",
                done.stdout,
                done.stderr
            );
        }
    }
}
