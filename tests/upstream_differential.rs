//! The converter against the upstream adapter's own recorded output (tests/data/oracle):
//! every one of 20,000 packets in both modes, whole batch canonicalized, error kinds equal.

use flate2::read::GzDecoder;
use handoff_inspector::a2a::{convert, ConvertOptions, Mode};
use handoff_inspector::corpus::Source;
use handoff_inspector::json::canonical_bytes;
use handoff_inspector::report::convert_line::{convert_line, line_via_value};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;

fn gz_lines(name: &str) -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/oracle")
        .join(name);
    let file = std::fs::File::open(&path).unwrap();
    BufReader::new(GzDecoder::new(file))
        .split(b'\n')
        .map(|line| line.unwrap())
        .collect()
}

fn differential(mode: Mode, expected_name: &str) {
    let packets = gz_lines("a2a-mixed-20k.ndjson.gz");
    let expected = gz_lines(expected_name);
    assert_eq!(packets.len(), 20_000);
    assert_eq!(expected.len(), packets.len());
    let options = ConvertOptions {
        adapter_version: "5.4.0".into(),
        ..ConvertOptions::default()
    }
    .with_mode(mode);
    let (mut converted, mut mismatches) = (0usize, Vec::new());
    for (index, (packet, want)) in packets.iter().zip(&expected).enumerate() {
        let want: Value = serde_json::from_slice(want).unwrap();
        let got = convert(packet, &options);
        // The direct output line is byte for byte the line built through `Value`.
        let source = Source::line(std::sync::Arc::from(Path::new("mix.ndjson")), index + 1);
        if convert_line(&source, &got).unwrap()
            != line_via_value(&source, &got).unwrap().into_bytes()
        {
            mismatches.push(index + 1);
        }
        let agrees = match (&got.result, want["ok"].as_bool()) {
            (Ok(batch), Some(true)) => {
                converted += 1;
                canonical_bytes(&batch.batch()) == canonical_bytes(&want["batch"])
            }
            (Err(error), Some(false)) => Some(error.kind.name()) == want["error_kind"].as_str(),
            _ => false,
        };
        if !agrees {
            mismatches.push(index + 1);
        }
    }
    assert!(
        mismatches.is_empty(),
        "{mode}: {} line(s) differ from upstream, first {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
    // The corpus is what its README says (19% strict, 78% lenient convert): a check that
    // the comparison above really compared batches.
    let share = converted * 100 / packets.len();
    match mode {
        Mode::Strict => assert!((15..=25).contains(&share), "{share}%"),
        Mode::Lenient => assert!((70..=85).contains(&share), "{share}%"),
    }
}

#[test]
fn strict_batches_equal_upstream() {
    differential(Mode::Strict, "a2a-mixed-20k.upstream.strict.ndjson.gz");
}

#[test]
fn lenient_batches_equal_upstream() {
    differential(Mode::Lenient, "a2a-mixed-20k.upstream.lenient.ndjson.gz");
}

/// The same through the real binary: `convert --adapter-version 5.4.0` on an NDJSON stream
/// of the corpus prints, line for line, upstream's batch (canonicalized) or its error kind.
#[test]
fn convert_cli_prints_upstreams_batches() {
    let packets = gz_lines("a2a-mixed-20k.ndjson.gz");
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("mix.ndjson");
    let take = 3_000;
    let mut text = Vec::new();
    for packet in &packets[..take] {
        text.extend_from_slice(packet);
        text.push(b'\n');
    }
    std::fs::write(&stream, text).unwrap();
    for (mode, expected_name) in [
        ("strict", "a2a-mixed-20k.upstream.strict.ndjson.gz"),
        ("lenient", "a2a-mixed-20k.upstream.lenient.ndjson.gz"),
    ] {
        let expected = gz_lines(expected_name);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
            .args(["convert", "--adapter-version", "5.4.0", "--mode", mode])
            .arg(&stream)
            .output()
            .unwrap();
        let lines: Vec<&[u8]> = output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        // Blank corpus lines (if any) are not packets; every other line is answered in order.
        assert!(
            lines.len() <= take && lines.len() + 10 > take,
            "{}",
            lines.len()
        );
        for line in lines {
            let got: Value = serde_json::from_slice(line).unwrap();
            let source = got["source"].as_str().unwrap();
            let number: usize = source.rsplit(':').next().unwrap().parse().unwrap();
            let want: Value = serde_json::from_slice(&expected[number - 1]).unwrap();
            assert_eq!(got["ok"], want["ok"], "{mode} line {number}");
            if got["ok"] == true {
                assert_eq!(
                    canonical_bytes(&got["batch"]),
                    canonical_bytes(&want["batch"]),
                    "{mode} line {number}"
                );
            } else {
                assert_eq!(
                    got["error"]["kind"], want["error_kind"],
                    "{mode} line {number}"
                );
            }
        }
    }
}
