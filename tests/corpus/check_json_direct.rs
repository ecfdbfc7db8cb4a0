//! `check --format json` packet lines are written directly (src/report/check_json_line.rs);
//! they must be byte-identical to the lines the former `serde` path builds, on every fixture
//! directory (goldens matching and drifted, recorded negatives, object goldens, bundles), on
//! load errors and on the 20,000 packets of the realistic upstream mix.

use flate2::read::GzDecoder;
use handoff_inspector::corpus::{check_corpus, CheckItem, CheckOptions, PipelineOptions};
use handoff_inspector::report::check_json::{packet_json, packet_json_via_serde};
use std::io::Read;
use std::path::{Path, PathBuf};

fn lines_of(paths: &[PathBuf]) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    check_corpus(
        paths,
        &CheckOptions::default(),
        PipelineOptions::default(),
        false,
        &mut |item: CheckItem| {
            let direct = String::from_utf8(packet_json(&item).unwrap()).unwrap();
            lines.push((direct, packet_json_via_serde(&item).unwrap()));
        },
    )
    .unwrap();
    lines
}

fn assert_identical(lines: &[(String, String)], at_least: usize) {
    assert!(lines.len() >= at_least, "only {} lines", lines.len());
    for (direct, oracle) in lines {
        assert_eq!(direct, oracle);
    }
}

#[test]
fn fixture_lines_equal_the_serde_lines() {
    let lines = lines_of(&[PathBuf::from("fixtures")]);
    assert_identical(&lines, 200);
    // The fixtures hold what the rare parts are made of.
    assert!(lines
        .iter()
        .any(|(line, _)| line.contains("\"recorded_findings\"")));
    assert!(lines.iter().any(|(line, _)| line.contains("\"object\"")));
    assert!(lines.iter().any(|(line, _)| line.contains("\"audit\"")));
}

#[test]
fn drifted_goldens_load_errors_and_unsafe_names_equal_the_serde_lines() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for entry in std::fs::read_dir("fixtures/a2a").unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, root.join(path.file_name().unwrap())).unwrap();
        }
    }
    // A drifted digest (a golden diff in the finding) and an unsafe, quoted file name.
    let goldens = std::fs::read_to_string(root.join("goldens.json")).unwrap();
    let drifted = goldens.replacen(
        "ceef933219a7e44fd8d2f74ba74dd2fa9191b801922b987ddf7423b198892bfc",
        "0eef933219a7e44fd8d2f74ba74dd2fa9191b801922b987ddf7423b198892bfc",
        1,
    );
    assert_ne!(drifted, goldens);
    std::fs::write(root.join("goldens.json"), drifted).unwrap();
    // A paired expected payload that differs (a structural diff in the finding).
    let paired = root.join("happy_artifact_shared.strict.payload.json");
    let payload = std::fs::read_to_string(&paired).unwrap();
    let edited = payload.replacen("agent://worker", "agent://someone-else", 1);
    assert_ne!(edited, payload);
    std::fs::write(&paired, edited).unwrap();
    std::fs::write(
        root.join("odd \u{202e}\"name\u{1b}.json"),
        br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a\u009b"},"task":{"kind":"delegation"},"message":{"id":"m"},"attributes":{"k":"\u202e"}}"#,
    )
    .unwrap();
    std::fs::write(root.join("empty.json"), b"").unwrap();
    let lines = lines_of(&[root.to_path_buf(), root.join("missing.json")]);
    assert_identical(&lines, 30);
    assert!(lines.iter().any(|(line, _)| line.contains("\"diff\"")));
    assert!(lines.iter().any(|(line, _)| line.contains("load_error")));
    assert!(lines.iter().any(|(line, _)| line.contains("odd ")));
    assert!(!lines.iter().any(|(line, _)| line.contains('\u{202e}')));
}

#[test]
fn realistic_mix_lines_equal_the_serde_lines() {
    let mut text = Vec::new();
    GzDecoder::new(
        std::fs::File::open(Path::new("tests/data/oracle/a2a-mixed-20k.ndjson.gz")).unwrap(),
    )
    .read_to_end(&mut text)
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("mix.ndjson");
    std::fs::write(&stream, text).unwrap();
    assert_identical(&lines_of(&[stream]), 20_000);
}
