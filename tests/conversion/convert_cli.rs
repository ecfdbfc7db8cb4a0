//! `convert` and `digest` through the real binary: output shape, ordering, sources, exit
//! codes, bad input, byte stability.

use crate::common::{a2a, fixtures, run};
use serde_json::Value;
use std::fs;

#[test]
fn converted_line_has_the_documented_shape() {
    let result = run(&["convert", &a2a("happy_task_requested").to_string_lossy()]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let line = &result.json_lines()[0];
    let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
    assert_eq!(keys, vec!["batch", "digests", "ok", "source"]);
    let event = &line["batch"]["events"][0];
    let mut event_keys: Vec<&str> = event
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    event_keys.sort_unstable();
    assert_eq!(
        event_keys,
        vec![
            "assaycontenthash",
            "assaygit",
            "assaypii",
            "assayproducer",
            "assayproducerversion",
            "assayrunid",
            "assaysecrets",
            "assayseq",
            "data",
            "datacontenttype",
            "id",
            "source",
            "specversion",
            "subject",
            "time",
            "type"
        ]
    );
    assert_eq!(event["id"], "a2a:task-123:0");
    assert_eq!(event["time"], "2026-02-27T10:05:00Z");
    assert_eq!(
        line["digests"]["handoff"],
        "e478af7359a254678c90b5eb2737d63f79c6d667a2b5c4bc323442f07d09d33b"
    );
    assert_eq!(
        line["digests"]["discovery"],
        "26b4d9c0105f4cc26d4b413e7b6b27effe5829f9f319a60b91ca490fd7776a13"
    );
    assert_eq!(line["batch"]["lossiness"]["lossiness_level"], "none");
    assert_eq!(line["batch"]["lossiness"]["unmapped_fields_count"], 0);
    // The producer version follows the adapter version; the adapter never sets a content hash.
    assert_eq!(
        event["assayproducerversion"],
        event["data"]["adapter_version"]
    );
    assert_eq!(event["assaycontenthash"], Value::Null);
    // The top-level fields print in the documented order.
    assert!(
        result.stdout.starts_with(r#"{"source":"#),
        "{}",
        result.stdout
    );
}

#[test]
fn expected_payloads_beside_the_fixtures_match() {
    // Every NAME.MODE.payload.json beside a raw fixture is what `convert` emits for NAME in MODE.
    let dir = fixtures().join("a2a");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".payload.json") else {
            continue;
        };
        let (raw, mode) = stem.rsplit_once('.').unwrap();
        let result = run(&[
            "convert",
            "--mode",
            mode,
            &dir.join(format!("{raw}.json")).to_string_lossy(),
        ]);
        let expected: Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            result.json_lines()[0]["batch"]["events"][0]["data"],
            expected,
            "{name}"
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} expected files");
}

#[test]
fn error_lines_and_exit_code_one() {
    let result = run(&[
        "convert",
        &a2a("negative_missing_task_id").to_string_lossy(),
    ]);
    assert_eq!(result.code, 1);
    let line = &result.json_lines()[0];
    assert_eq!(line["ok"], false);
    assert_eq!(
        line["error"],
        serde_json::json!({"kind": "measurement", "message": "missing required field: task.id"})
    );
}

#[test]
fn directories_are_sorted_and_ndjson_lines_are_sources() {
    let dir = tempfile::tempdir().unwrap();
    let packet = fs::read_to_string(a2a("happy_task_requested")).unwrap();
    fs::create_dir(dir.path().join("sub")).unwrap();
    fs::write(dir.path().join("sub/b.json"), &packet).unwrap();
    fs::write(dir.path().join("a.json"), &packet).unwrap();
    fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
    fs::write(
        dir.path().join("s.ndjson"),
        format!("{}\n\n{}", packet.trim(), "not json"),
    )
    .unwrap();
    let result = run(&["convert", &dir.path().to_string_lossy()]);
    assert_eq!(result.code, 1, "{}", result.stderr);
    let sources: Vec<String> = result
        .json_lines()
        .iter()
        .map(|line| {
            line["source"]
                .as_str()
                .unwrap()
                .trim_start_matches(&*dir.path().to_string_lossy())
                .to_owned()
        })
        .collect();
    assert_eq!(
        sources,
        vec!["/a.json", "/s.ndjson:1", "/s.ndjson:3", "/sub/b.json"]
    );
    assert_eq!(
        result.json_lines()[2]["error"]["message"],
        "invalid A2A payload JSON: expected ident at line 1 column 2"
    );
}

#[cfg(unix)]
#[test]
fn bad_files_are_reported_and_the_rest_converts() {
    let dir = tempfile::tempdir().unwrap();
    let packet = fs::read_to_string(a2a("happy_task_requested")).unwrap();
    fs::write(dir.path().join("good.json"), &packet).unwrap();
    fs::write(dir.path().join("empty.json"), "").unwrap();
    fs::write(dir.path().join("binary.json"), b"\x00\x01\x02").unwrap();
    std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).unwrap();
    let fifo = dir.path().join("pipe.json");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let result = run(&["convert", &dir.path().to_string_lossy()]);
    assert_eq!(result.code, 2, "I/O problems exit 2");
    // The good packet converts; the empty and binary files get the adapter's verdict on them
    // (invalid JSON, a measurement error), like any bytes.
    let lines = result.json_lines();
    let outcomes: Vec<(bool, &str)> = lines
        .iter()
        .map(|line| {
            (
                line["ok"].as_bool().unwrap(),
                line["error"]["kind"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        vec![(false, "measurement"), (false, "measurement"), (true, "")]
    );
    for reason in ["not a regular file (a FIFO); not opened", "symlink loop"] {
        assert!(
            result.stderr.contains(reason),
            "missing {reason:?} in {}",
            result.stderr
        );
    }
}

#[test]
fn any_bytes_named_on_the_command_line_get_the_adapters_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[u8]); 5] = [
        ("empty.json", b""),
        ("blank.json", b"  \n\t"),
        ("nul.json", b"{\"a\":1}\x00"),
        ("latin1.json", b"{\"a\":\"\xe9\"}"),
        ("bom.json", b"\xEF\xBB\xBF{}"),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        fs::write(&path, bytes).unwrap();
        let path = path.to_string_lossy().into_owned();
        let converted = run(&["convert", &path]);
        assert_eq!(converted.code, 1, "{name}: {}", converted.stderr);
        let line = &converted.json_lines()[0];
        assert_eq!(line["ok"], false, "{name}");
        assert_eq!(line["error"]["kind"], "measurement", "{name}");
        let explained = run(&["explain", "--format", "json", &path]);
        assert!(
            explained.stdout.contains("\"C3\""),
            "{name}: {}",
            explained.stdout
        );
        // `check` calls them not JSON, naming the same conversion row.
        let checked = run(&["check", "--format", "json", &path]);
        let report: Value = serde_json::from_str(&checked.stdout).unwrap();
        let packet = &report["packets"][0];
        assert_eq!(packet["kind"], "not-json", "{name}");
        assert_eq!(packet["findings"][0]["rule"], "C3", "{name}");
    }
}

#[test]
fn a_directory_converts_its_raw_packets_and_names_what_it_skipped() {
    let dir = fixtures().join("a2a");
    let result = run(&["convert", "--mode", "lenient", &dir.to_string_lossy()]);
    for line in result.json_lines() {
        let source = line["source"].as_str().unwrap();
        assert!(
            !source.ends_with(".payload.json") && !source.ends_with("goldens.json"),
            "{source} was converted"
        );
    }
    assert!(result
        .stderr
        .contains("skipped 12 file(s) that are not the adapter's input"));
    assert!(result.stderr.contains(
        "happy_task_requested.strict.payload.json: payload (canonical payload), not a raw A2A adapter packet"
    ));
}

#[test]
fn missing_path_is_exit_two_and_usage_errors_too() {
    assert_eq!(run(&["convert", "/no/such/file.json"]).code, 2);
    assert_eq!(run(&["convert", "--mode", "sloppy", "x.json"]).code, 2);
    assert_eq!(run(&["convert"]).code, 2);
}

#[test]
fn conversion_is_byte_stable() {
    let dir = fixtures().join("a2a").to_string_lossy().into_owned();
    let args = ["convert", "--mode", "lenient", dir.as_str()];
    let first = run(&args);
    let second = run(&args);
    assert_eq!(first.stdout, second.stdout);
    assert!(first.stdout.lines().count() > 20);
}

#[test]
fn digest_parts_name_the_handoff_state() {
    let path = a2a("negative_missing_task_id")
        .to_string_lossy()
        .into_owned();
    let handoff = run(&["digest", "--mode", "lenient", "--part", "handoff", &path]);
    assert_eq!(handoff.code, 0);
    assert_eq!(
        handoff.stdout.trim_end(),
        format!("0be260743587b9594018a4ab7809560157be088be0372a8ae7c7faa6a744effe  handoff  {path}  [typed positive: message ref only]")
    );
    let strict = run(&["digest", &path]);
    assert_eq!(strict.code, 1);
    assert!(strict
        .stderr
        .contains("not converted: measurement: missing required field: task.id"));
    // Canonical input: the part is read from the object itself.
    let expected = fixtures().join("a2a/negative_missing_task_id.lenient.payload.json");
    let from_canonical = run(&["digest", "--part", "handoff", &expected.to_string_lossy()]);
    assert_eq!(
        from_canonical.stdout.split("  ").next(),
        handoff.stdout.split("  ").next()
    );
    let payload_raw = run(&["digest", "--mode", "lenient", &path]).stdout;
    let payload_canonical = run(&["digest", &expected.to_string_lossy()]).stdout;
    assert_eq!(
        payload_raw.split(' ').next(),
        payload_canonical.split(' ').next()
    );
}
