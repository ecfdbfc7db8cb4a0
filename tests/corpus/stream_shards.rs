//! One NDJSON stream across a job matrix: `check --shard K/N` cuts a stream of at least
//! `corpus::SPLIT_BYTES` by line ranges (a shard reads only its piece), every line keeps its
//! number, and `report` of the shards prints what `check` prints for the whole.

use crate::common::{copy_files, fixtures, run, run_env, Run};
use handoff_inspector::corpus::SPLIT_BYTES;
use serde_json::Value;
use std::fs;
use std::path::Path;

const NOW: &str = "2026-06-01T00:00:00Z";
const FORMATS: [&str; 5] = ["text", "json", "junit", "markdown", "sarif"];

fn s(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The bundled raw A2A fixtures that are JSON, each as one compact line.
fn packet_lines() -> Vec<String> {
    let mut names: Vec<_> = fs::read_dir(fixtures().join("a2a"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.ends_with(".json") && !name.contains(".payload.") && name != "goldens.json"
        })
        .collect();
    names.sort();
    names
        .iter()
        .filter_map(|path| serde_json::from_slice::<Value>(&fs::read(path).unwrap()).ok())
        .map(|value| value.to_string())
        .collect()
}

/// Where the test stream holds what a cut must not break.
struct Stream {
    /// Byte range of the 250 KB line.
    long_line: std::ops::Range<u64>,
    /// Line numbers of the lines that are not JSON.
    not_json: Vec<usize>,
}

/// A stream over `SPLIT_BYTES`: packets with blank padding lines between them (numbered, never
/// checked), CRLF ends on every third, a 250 KB packet line where the first cut of four falls,
/// lines that are not JSON, and no newline after the last line.
fn write_stream(path: &Path) -> Stream {
    let packets = packet_lines();
    let mut text = String::new();
    let mut line = 1;
    let mut not_json = Vec::new();
    let mut long_line = 0..0;
    let padding = format!("{}\n", " ".repeat(3000));
    for index in 0..340 {
        if index == 60 {
            let start = text.len() as u64;
            text.push_str(&format!(
                "{{\"protocol\":\"a2a\",\"version\":\"0.2\",\"event_type\":\"task.requested\",\"agent\":{{\"id\":\"a\"}},\"task\":{{\"id\":\"t\",\"kind\":\"delegation\"}},\"note\":\"{}\"}}\n",
                "x".repeat(250_000)
            ));
            long_line = start..text.len() as u64;
            line += 1;
        }
        if index % 50 == 7 {
            text.push_str("not json {\n");
            not_json.push(line);
        } else {
            text.push_str(&packets[index % packets.len()]);
            text.push_str(if index % 3 == 0 { "\r\n" } else { "\n" });
        }
        text.push_str(&padding);
        line += 2;
    }
    text.push_str(&packets[0]);
    assert!(text.len() as u64 > SPLIT_BYTES, "the stream is to be cut");
    fs::write(path, text).unwrap();
    Stream {
        long_line,
        not_json,
    }
}

fn check(args: &[&str]) -> Run {
    let mut all = vec!["check", "--now", NOW];
    all.extend_from_slice(args);
    run(&all)
}

/// `check --shard K/N --format json PATH` for every K, saved into `dir`; the saved paths.
fn save_shards(path: &Path, count: usize, dir: &Path) -> Vec<String> {
    (1..=count)
        .map(|index| {
            let shard = format!("{index}/{count}");
            let part = check(&["--shard", &shard, "--format", "json", &s(path)]);
            assert!(part.code <= 1, "{shard}: {}", part.stderr);
            let saved = dir.join(format!("part-{index}.json"));
            fs::write(&saved, &part.stdout).unwrap();
            s(&saved)
        })
        .collect()
}

/// The sources of a saved result's packets.
fn sources(saved: &str) -> Vec<String> {
    crate::commands::sources(&fs::read_to_string(saved).unwrap())
}

/// `report` of the saved shards prints, in every format, what `check` prints for the whole,
/// with its exit code.
fn assert_report_is_the_whole(parts: &[String], paths: &[&str], formats: &[&str]) {
    for format in formats {
        let mut whole = vec!["--format", format];
        whole.extend_from_slice(paths);
        let whole = check(&whole);
        let mut args = vec!["report", "--format", format];
        args.extend(parts.iter().rev().map(String::as_str));
        let report = run(&args);
        assert_eq!(report.code, whole.code, "{format}: {}", report.stderr);
        assert!(
            report.stdout == whole.stdout,
            "{format}: report differs from check:\n{}\n---\n{}",
            report.stdout,
            whole.stdout
        );
    }
}

#[test]
fn four_shards_of_one_stream_report_what_check_prints_for_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gateway.ndjson");
    let stream = write_stream(&path);
    let size = fs::metadata(&path).unwrap().len();
    // The first cut falls inside the long line (the plan's axis is the size plus one).
    let first_cut = (size + 1) / 4;
    assert!(stream.long_line.contains(&first_cut), "{first_cut}");
    let saved = tempfile::tempdir().unwrap();
    let parts = save_shards(&path, 4, saved.path());
    let whole = check(&["--format", "json", &s(&path)]);
    let whole_sources = crate::commands::sources(&whole.stdout);
    // Each shard holds a part of the lines (about a quarter of the bytes each), and laid end
    // to end they are the whole run's packets, each once, in order, with the same numbers.
    let mut union = Vec::new();
    for part in &parts {
        let part = sources(part);
        assert!(
            part.len() > whole_sources.len() / 8,
            "{} of {}",
            part.len(),
            whole_sources.len()
        );
        union.extend(part);
    }
    assert_eq!(union, whole_sources);
    // The numbers are the stream's: the lines that are not JSON are found where they are.
    let value: Value = serde_json::from_str(&whole.stdout).unwrap();
    let not_json: Vec<usize> = value["packets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|packet| packet["kind"] == "not-json")
        .map(|packet| {
            let source = packet["source"].as_str().unwrap();
            source.rsplit(':').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(not_json, stream.not_json);
    assert_report_is_the_whole(&parts, &[&s(&path)], &FORMATS);

    // Recorded by line, every line's golden is found again by each shard: a line numbered
    // wrong would meet another line's golden (a mismatch) or none.
    let blessed = run_env(&["bless", "--now", NOW, &s(&path)], &[("CI", None)]);
    assert_eq!(blessed.code, 0, "{}", blessed.stderr);
    let parts = save_shards(&path, 4, saved.path());
    for part in &parts {
        let value: Value = serde_json::from_str(&fs::read_to_string(part).unwrap()).unwrap();
        let summary = &value["summary"];
        assert_eq!(summary["by_status"]["mismatch"], 0, "{part}: {summary}");
        assert_eq!(summary["by_status"]["no_golden"], 0, "{part}: {summary}");
    }
    assert_report_is_the_whole(&parts, &[&s(&path)], &["text", "json"]);
}

#[test]
fn more_shards_than_lines_leave_shards_empty_and_a_tree_is_cut_by_both() {
    let dir = tempfile::tempdir().unwrap();
    // Three lines, the second longer than a shard's piece, the last without a newline.
    let path = dir.path().join("three.ndjson");
    let packets = packet_lines();
    let long = "y".repeat(SPLIT_BYTES as usize + 4096);
    fs::write(&path, format!("{}\r\n{long}\n{}", packets[0], packets[1])).unwrap();
    let saved = tempfile::tempdir().unwrap();
    let parts = save_shards(&path, 8, saved.path());
    let held: Vec<usize> = parts.iter().map(|part| sources(part).len()).collect();
    assert_eq!(held.iter().sum::<usize>(), 3, "{held:?}");
    assert!(
        held.iter().filter(|&&count| count == 0).count() >= 5,
        "{held:?}"
    );
    let mut union = Vec::new();
    for part in &parts {
        union.extend(sources(part));
    }
    let name = s(&path);
    assert_eq!(
        union,
        [1, 2, 3].map(|line| format!("{name}:{line}")).to_vec()
    );
    assert_report_is_the_whole(&parts, &[&name], &["text", "json"]);

    // A tree of small files and one big stream: the files go whole, the stream is cut.
    let tree = tempfile::tempdir().unwrap();
    copy_files(&fixtures().join("a2a"), &tree.path().join("a2a"));
    write_stream(&tree.path().join("b-stream.ndjson"));
    let tree_saved = tempfile::tempdir().unwrap();
    let parts = save_shards(tree.path(), 4, tree_saved.path());
    let holding_lines = parts
        .iter()
        .filter(|part| {
            sources(part)
                .iter()
                .any(|source| source.contains("b-stream.ndjson:"))
        })
        .count();
    assert!(
        holding_lines >= 3,
        "the stream is in {holding_lines} shards"
    );
    assert_report_is_the_whole(&parts, &[&s(tree.path())], &["text", "json"]);
}

#[test]
fn a_stream_that_changes_size_between_shards_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("growing.ndjson");
    write_stream(&path);
    let saved = tempfile::tempdir().unwrap();
    let first = check(&["--shard", "1/2", "--format", "json", &s(&path)]);
    let first_path = saved.path().join("part-1.json");
    fs::write(&first_path, &first.stdout).unwrap();
    // The gateway appends a line before the second job runs.
    let mut text = fs::read_to_string(&path).unwrap();
    text.push_str("\n{}\n");
    fs::write(&path, text).unwrap();
    let second = check(&["--shard", "2/2", "--format", "json", &s(&path)]);
    let second_path = saved.path().join("part-2.json");
    fs::write(&second_path, &second.stdout).unwrap();
    let report = run(&["report", &s(&first_path), &s(&second_path)]);
    assert_eq!(report.code, 2, "{}", report.stdout);
    assert!(
        report.stderr.contains("planned over other file sizes"),
        "{}",
        report.stderr
    );
    assert!(report.stdout.is_empty(), "{}", report.stdout);
}
