//! `bundle`: what it writes verifies, is deterministic, matches upstream's writer byte for
//! byte for the same events, and never replaces a file without --force.

use crate::common::run;
use handoff_inspector::bundle::{open_path, Limits};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn bundles() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles")
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The stored event lines of a bundle, as an .ndjson file in `dir`.
fn events_file(bundle: &Path, dir: &Path) -> PathBuf {
    let opened = open_path(bundle, &Limits::default()).unwrap();
    let lines = opened.events.unwrap();
    let path = dir.join("events.ndjson");
    std::fs::write(&path, &lines.text).unwrap();
    path
}

#[test]
fn rewriting_upstreams_events_gives_upstreams_bytes() {
    for name in [
        "valid-01-one-event",
        "valid-02-two-events",
        "valid-03-ten-mixed",
        "valid-04-hundred",
        "valid-11-mixed-non-a2a",
    ] {
        let original = bundles().join(format!("{name}.tar.gz"));
        let dir = tempfile::tempdir().unwrap();
        let events = events_file(&original, dir.path());
        let run_id = open_path(&original, &Limits::default())
            .unwrap()
            .run_id()
            .unwrap()
            .to_owned();
        let out = dir.path().join("out.tar.gz");
        let result = run(&["bundle", "--out", s(&out), "--run-id", &run_id, s(&events)]);
        assert_eq!(result.code, 0, "{name}: {}", result.stderr);
        assert_eq!(
            std::fs::read(&out).unwrap(),
            std::fs::read(&original).unwrap(),
            "{name}: bytes differ from upstream's writer"
        );
    }
}

#[test]
fn written_bundle_verifies_with_the_hand_computed_run_root() {
    // The spec's worked example: type assay.test, no subject, data {"k":"v"}.
    let dir = tempfile::tempdir().unwrap();
    let event = r#"{"specversion":"1.0","type":"assay.test","source":"urn:assay:test","id":"x","time":"2026-02-27T10:05:00Z","datacontenttype":"application/json","assayrunid":"x","assayseq":0,"assayproducer":"assay","assayproducerversion":"5.4.0","assaygit":"unknown","assaypii":false,"assaysecrets":false,"data":{"k":"v"}}"#;
    let input = dir.path().join("one.ndjson");
    std::fs::write(&input, format!("{event}\n")).unwrap();
    let out = dir.path().join("one.tar.gz");
    let result = run(&["bundle", "--out", s(&out), s(&input)]);
    assert_eq!(result.code, 0, "{}", result.stderr);
    let content_hash = "sha256:72553aade62c46bad2704347c8b38e61a791e57cb440be6d65c891c178728ac0";
    let by_hand = format!(
        "sha256:{:x}",
        Sha256::digest(format!("{content_hash}\n").as_bytes())
    );
    let verify = run(&["verify", "--format", "json", s(&out)]);
    assert_eq!(verify.code, 0, "{}", verify.stdout);
    let line = &verify.json_lines()[0];
    assert_eq!(line["run_root"], by_hand.as_str());
    assert_eq!(line["run_id"], format!("run-{}", &by_hand[7..23]).as_str());
    assert!(result.stdout.contains(&by_hand), "{}", result.stdout);
}

#[test]
fn raw_packets_are_converted_and_the_output_is_deterministic() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = crate::common::fixtures().join("a2a");
    let first = dir.path().join("a.tar.gz");
    let second = dir.path().join("b.tar.gz");
    let one = run(&["bundle", "--out", s(&first), s(&fixtures)]);
    let two = run(&["bundle", "--out", s(&second), s(&fixtures)]);
    assert_eq!(one.code, 1, "strict rejections are left out and named");
    assert_eq!(two.code, 1);
    assert!(
        one.stderr.contains("not converted, left out"),
        "{}",
        one.stderr
    );
    assert!(
        one.stderr.contains("canonical payload, left out"),
        "{}",
        one.stderr
    );
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap()
    );
    let verify = run(&["verify", "--format", "json", s(&first)]);
    assert_eq!(verify.code, 0);
    let line = &verify.json_lines()[0];
    assert_eq!(line["a2a_events"], line["event_count"]);
    assert!(line["handoff_visible_events"].as_u64().unwrap() >= 1);

    let lenient = dir.path().join("lenient.tar.gz");
    let out = run(&[
        "bundle",
        "--mode",
        "lenient",
        "--out",
        s(&lenient),
        s(&fixtures),
    ]);
    let count = |path: &Path| {
        run(&["verify", "--format", "json", s(path)]).json_lines()[0]["event_count"]
            .as_u64()
            .unwrap()
    };
    assert!(count(&lenient) > count(&first), "{}", out.stderr);
}

#[test]
fn never_replaces_a_file_without_force_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.tar.gz");
    std::fs::write(&out, b"keep me").unwrap();
    let packet = crate::common::a2a("happy_task_requested");
    let refused = run(&["bundle", "--out", s(&out), s(&packet)]);
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("--force"), "{}", refused.stderr);
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
    let forced = run(&["bundle", "--force", "--out", s(&out), s(&packet)]);
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    assert_eq!(run(&["verify", s(&out)]).code, 0);
    assert_eq!(crate::common::dir_names(dir.path()), vec!["out.tar.gz"]);

    let colon = run(&[
        "bundle",
        "--out",
        s(&dir.path().join("c.tar.gz")),
        "--run-id",
        "a:b",
        s(&packet),
    ]);
    assert_eq!(colon.code, 2);
    assert!(colon.stderr.contains("RunIdHasNoColon"), "{}", colon.stderr);
    assert_eq!(crate::common::dir_names(dir.path()), vec!["out.tar.gz"]);
}

/// A new bundle gets the permissions the umask gives (0644 under 022, 0600 under 077), as
/// the user's other tools would; one replaced with --force keeps its own. Before, every bundle
/// was 0600 (the temporary file's mode, carried by the rename).
#[cfg(unix)]
#[test]
fn a_written_bundle_takes_the_umask_and_a_replaced_one_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let input = bundles().join("valid-02-two-events.tar.gz");
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let out = dir.path().join(format!("u{umask}.tar.gz"));
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask {umask} && exec \"$0\" bundle --out \"$1\" \"$2\""
            ))
            .arg(env!("CARGO_BIN_EXE_handoff-inspector"))
            .arg(&out)
            .arg(&input)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
        assert_eq!(mode(&out), expected, "umask {umask}");
    }
    let replaced = dir.path().join("u022.tar.gz");
    std::fs::set_permissions(&replaced, std::fs::Permissions::from_mode(0o640)).unwrap();
    let again = run(&["bundle", "--force", "--out", s(&replaced), s(&input)]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(mode(&replaced), 0o640);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

/// When every input is left out (or cannot be read), nothing is written and the last line
/// says so and why, after the lines that name each input; exit 2.
#[test]
fn a_bundle_of_nothing_is_not_written_and_the_last_line_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("in");
    std::fs::create_dir(&inputs).unwrap();
    std::fs::write(inputs.join("a.json"), r#"{"protocol":"other"}"#).unwrap();
    std::fs::write(inputs.join("b.json"), "not json").unwrap();
    let out = dir.path().join("out.tar.gz");
    let cases = [
        (inputs.clone(), "nothing written: every packet found (2) was left out (named above), and a bundle needs at least one event"),
        (dir.path().join("empty"), "nothing written: no packets found, and a bundle needs at least one event"),
        (dir.path().join("missing"), "nothing written: 1 input(s) could not be read (named above)"),
    ];
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    for (input, reason) in cases {
        let result = run(&["bundle", "--out", s(&out), s(&input)]);
        assert_eq!(result.code, 2, "{}", result.stderr);
        let last = result.stderr.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            format!("handoff-inspector: {}: {reason}", out.display()),
            "{}",
            result.stderr
        );
        assert!(!out.exists());
    }
}
