//! Every kind of bad input in one directory: each is reported against its path (and line)
//! with a clear reason, the rest of the corpus is still checked, nothing hangs and nothing is
//! written.

use crate::common::{dir_names, run};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const GOOD: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;

struct BadCorpus {
    dir: tempfile::TempDir,
    /// Whether permission bits stop this process (not when running as root).
    permissions_apply: bool,
    _socket: std::os::unix::net::UnixListener,
}

fn bad_corpus() -> BadCorpus {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("good.json"), GOOD).unwrap();
    fs::write(root.join("empty.json"), "").unwrap();
    fs::write(root.join("blank.json"), "  \n\t\n").unwrap();
    fs::write(root.join("nul.json"), b"{\"a\":\0}").unwrap();
    fs::write(root.join("latin1.json"), b"{\"a\":\"caf\xe9\"}").unwrap();
    let mut bom = vec![0xEF, 0xBB, 0xBF];
    bom.extend_from_slice(GOOD.as_bytes());
    fs::write(root.join("bom.json"), bom).unwrap();
    fs::write(root.join("big.json"), format!("{GOOD}{}", " ".repeat(300))).unwrap();
    fs::write(
        root.join("stream.ndjson"),
        format!("{GOOD}\n\nnot json at all\n{}\n{GOOD}\r\n", "x".repeat(300)),
    )
    .unwrap();
    let fifo = root.join("fifo.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let socket = std::os::unix::net::UnixListener::bind(root.join("sock.json")).unwrap();
    std::os::unix::fs::symlink("/dev/null", root.join("device.json")).unwrap();
    std::os::unix::fs::symlink(root, root.join("loop")).unwrap();
    std::os::unix::fs::symlink(root.join("missing.json"), root.join("dangling.json")).unwrap();
    fs::write(root.join("locked.json"), GOOD).unwrap();
    fs::set_permissions(root.join("locked.json"), fs::Permissions::from_mode(0o000)).unwrap();
    fs::create_dir(root.join("closed")).unwrap();
    fs::write(root.join("closed/inside.json"), GOOD).unwrap();
    fs::set_permissions(root.join("closed"), fs::Permissions::from_mode(0o000)).unwrap();
    let permissions_apply = fs::read(root.join("locked.json")).is_err();
    BadCorpus {
        dir,
        permissions_apply,
        _socket: socket,
    }
}

impl Drop for BadCorpus {
    fn drop(&mut self) {
        // Let the temporary directory be removed.
        let _ = fs::set_permissions(
            self.dir.path().join("closed"),
            fs::Permissions::from_mode(0o755),
        );
    }
}

/// source (relative to the corpus) -> (kind, status, first finding's message)
fn results(report: &Value, root: &Path) -> BTreeMap<String, (String, String, String)> {
    let prefix = format!("{}/", root.display());
    report["packets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|packet| {
            let source = packet["source"].as_str().unwrap();
            let message = packet["findings"][0]["message"]
                .as_str()
                .unwrap_or("")
                .to_owned();
            (
                source.strip_prefix(&prefix).unwrap_or(source).to_owned(),
                (
                    packet["kind"].as_str().unwrap().to_owned(),
                    packet["status"].as_str().unwrap().to_owned(),
                    message,
                ),
            )
        })
        .collect()
}

#[test]
fn every_bad_input_is_reported_and_the_rest_is_checked() {
    let corpus = bad_corpus();
    let root = corpus.dir.path();
    let before = dir_names(root);
    let result = run(&[
        "check",
        "--format",
        "json",
        "--max-file-bytes",
        "200",
        &root.to_string_lossy(),
    ]);
    assert_eq!(result.code, 2, "{}\n{}", result.stdout, result.stderr);
    let report: Value = serde_json::from_str(&result.stdout).unwrap();
    let found = results(&report, root);
    let expect = |source: &str, kind: &str, status: &str, message: &str| {
        let (got_kind, got_status, got_message) = found
            .get(source)
            .unwrap_or_else(|| panic!("{source} not reported: {found:#?}"));
        assert_eq!(
            (got_kind.as_str(), got_status.as_str()),
            (kind, status),
            "{source}"
        );
        assert!(
            got_message.contains(message),
            "{source}: {got_message:?} lacks {message:?}"
        );
    };
    expect("good.json", "raw", "no_golden", "no goldens.json in");
    // Empty, blank and binary files are packets whose bytes are not JSON: the adapter's C3.
    expect("empty.json", "not-json", "error", "not JSON: empty file");
    expect(
        "blank.json",
        "not-json",
        "error",
        "not JSON: only white space",
    );
    expect(
        "nul.json",
        "not-json",
        "error",
        "not JSON: NUL byte at byte",
    );
    expect(
        "latin1.json",
        "not-json",
        "error",
        "not JSON: invalid UTF-8 at byte 9",
    );
    expect(
        "bom.json",
        "not-json",
        "error",
        "starts with a UTF-8 byte-order mark",
    );
    expect(
        "big.json",
        "load_error",
        "error",
        "file is larger than the 200 bytes cap (--max-file-bytes)",
    );
    expect("stream.ndjson:1", "raw", "no_golden", "no goldens.json in");
    expect(
        "stream.ndjson:3",
        "not-json",
        "error",
        "not JSON: expected ident at line 1 column 2",
    );
    expect(
        "stream.ndjson:4",
        "load_error",
        "error",
        "line is longer than the 200 bytes cap (--max-file-bytes)",
    );
    expect("stream.ndjson:5", "raw", "no_golden", "no goldens.json in");
    expect(
        "fifo.json",
        "load_error",
        "error",
        "not a regular file (a FIFO); not opened",
    );
    expect(
        "sock.json",
        "load_error",
        "error",
        "not a regular file (a socket); not opened",
    );
    expect(
        "device.json",
        "load_error",
        "error",
        "not a regular file (a device); not opened",
    );
    expect(
        "loop",
        "load_error",
        "error",
        "directory already visited (symlink loop or repeated path); skipped",
    );
    expect(
        "dangling.json",
        "load_error",
        "error",
        "no such file or directory",
    );
    if corpus.permissions_apply {
        expect("locked.json", "load_error", "error", "permission denied");
        expect("closed", "load_error", "error", "permission denied");
    }
    // Blank NDJSON lines are not packets.
    assert!(!found.contains_key("stream.ndjson:2"));
    let summary = &report["summary"];
    assert_eq!(summary["exit_code"], 2);
    assert!(summary["load_errors"].as_u64().unwrap() >= 7);
    // Nothing was written.
    assert_eq!(dir_names(root), before);

    // The text report names every one against its path and line.
    let text = run(&["check", "--max-file-bytes", "200", &root.to_string_lossy()]);
    assert_eq!(text.code, 2);
    for shown in [
        "empty.json  not JSON: empty file",
        "stream.ndjson:4  line is longer than the 200 bytes cap",
        "stream.ndjson:3  not JSON: expected ident",
        "fifo.json  not a regular file (a FIFO); not opened",
    ] {
        assert!(text.stdout.contains(shown), "{shown}\n{}", text.stdout);
    }
    assert!(text.stdout.contains("result: "));
    assert!(
        text.stdout.trim_end().ends_with("(exit 2)"),
        "{}",
        text.stdout
    );
}

#[test]
fn ls_reports_bad_input_and_lists_the_rest() {
    let corpus = bad_corpus();
    let root = corpus.dir.path();
    let result = run(&["ls", "--max-file-bytes", "200", &root.to_string_lossy()]);
    assert_eq!(result.code, 2);
    for shown in [
        "good.json  raw  top-level `protocol` is \"a2a\"",
        "bom.json  not-json  not JSON: starts with a UTF-8 byte-order mark",
        "latin1.json  not-json  not JSON: invalid UTF-8 at byte 9",
        "empty.json  not-json  not JSON: empty file",
        "sock.json  load_error  not a regular file (a socket); not opened",
        "stream.ndjson:5  raw  ",
    ] {
        assert!(result.stdout.contains(shown), "{shown}\n{}", result.stdout);
    }
}
