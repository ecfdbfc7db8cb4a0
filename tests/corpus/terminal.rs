//! What the commands draw for a terminal, through the binary: colour with `--color always`
//! (and `auto` on a pseudo-terminal), none with `never`, with `NO_COLOR` under `auto`, on a
//! pipe under `auto`, or in any document format; the coloured text is the plain text with
//! colour codes added, nothing else.

use crate::common::fixtures;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_handoff-inspector");
const ESC: char = '\u{1b}';

/// Runs the binary with its stdout a pipe; `NO_COLOR` and `TERM` cleared unless given.
fn piped(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut command = Command::new(BIN);
    command.args(args).env_remove("NO_COLOR").env_remove("TERM");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("binary runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Single-quoted for `sh`.
fn quoted(arg: &str) -> String {
    format!("'{}'", arg.replace('\'', r"'\''"))
}

/// Runs `BIN args` on a pseudo-terminal (`script`, from util-linux), `env` set on top of a
/// `TERM=xterm` without `NO_COLOR`, `redirect` appended to the command line (`>/dev/null`
/// leaves only standard error on the terminal); returns what the terminal received.
pub fn on_terminal(args: &[&str], env: &[(&str, &str)], redirect: &str) -> String {
    let line: Vec<String> = std::iter::once(BIN)
        .chain(args.iter().copied())
        .map(quoted)
        .collect();
    let mut command = Command::new("script");
    command
        .args([
            "-qec",
            &format!("{} {redirect}", line.join(" ")),
            "/dev/null",
        ])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm");
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.output().expect("script (util-linux) runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The text without its SGR colour codes (`ESC [ digits ; ... m`).
fn without_colour(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        plain.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        assert_eq!(
            after[end..].chars().next(),
            Some('m'),
            "an escape that is no colour code: {:?}",
            &rest[at..(at + 12).min(rest.len())]
        );
        rest = &after[end + 1..];
    }
    plain.push_str(rest);
    plain
}

/// A corpus that both conforms and fails: the a2a fixtures with one expected payload changed.
fn failing_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = fixtures().join("a2a");
    for entry in std::fs::read_dir(&source).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            let target = dir.path().join(path.file_name().expect("name"));
            std::fs::copy(&path, target).expect("copy");
        }
    }
    let paired = dir.path().join("happy_task_requested.strict.payload.json");
    let text = std::fs::read_to_string(&paired).expect("paired payload");
    std::fs::write(&paired, text.replace("task-123", "task-124")).expect("write");
    dir
}

fn path(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The commands that colour their text, each on input where it has something to colour.
fn colouring_commands(corpus: &Path) -> Vec<Vec<String>> {
    let f = |name: &str| path(&fixtures().join(name));
    vec![
        vec!["check".into(), path(corpus)],
        vec!["ls".into(), f("bundles")],
        vec!["explain".into(), f("a2a/duplicate_task_kind.json")],
        vec!["explain".into(), f("a2a/error_missing_version.json")],
        vec![
            "explain".into(),
            f("bundles/neg-tampered-event-hash.tar.gz"),
        ],
        vec![
            "explain".into(),
            f("bundles/neg-tampered-event-hash.tar.gz:1"),
        ],
        vec!["verify".into(), f("bundles")],
        vec![
            "diff".into(),
            path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/demo-compare/run1")),
            path(&Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/demo-compare/run2")),
        ],
    ]
}

#[test]
fn always_colours_the_plain_text_and_never_is_the_plain_text() {
    let corpus = failing_corpus();
    for args in colouring_commands(corpus.path()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (always_code, always) = piped(&[&["--color", "always"], &args[..]].concat(), &[]);
        let (never_code, never) = piped(&[&args[..], &["--color", "never"]].concat(), &[]);
        let (_, auto) = piped(&args, &[]);
        assert!(always.contains(ESC), "{args:?}: no colour with always");
        assert!(!never.contains(ESC), "{args:?}: colour with never");
        assert!(!auto.contains(ESC), "{args:?}: colour on a pipe under auto");
        assert_eq!(never, auto, "{args:?}: never and auto on a pipe differ");
        assert_eq!(
            without_colour(&always),
            never,
            "{args:?}: colour changed the text"
        );
        assert_eq!(always_code, never_code, "{args:?}: colour changed the exit");
    }
}

#[test]
fn what_a_reader_scans_for_has_its_colour() {
    let corpus = failing_corpus();
    let (_, check) = piped(&["check", "--color", "always", &path(corpus.path())], &[]);
    // Red (bold) for what fails, green for what conforms, magenta for paths.
    assert!(
        check.contains("\u{1b}[1;31mgolden mismatches\u{1b}[0m"),
        "{check}"
    );
    assert!(check.contains("conforms\u{1b}[0m"), "{check}");
    assert!(check.contains("\u{1b}[32m"), "{check}");
    assert!(check.contains("\u{1b}[35m"), "{check}");
    assert!(
        check.contains("\u{1b}[1;31mresult: 2 failing packet(s) (exit 1)\u{1b}[0m"),
        "{check}"
    );
    let (_, verify) = piped(
        &[
            "verify",
            "--color=always",
            &path(&fixtures().join("bundles/neg-tampered-event-hash.tar.gz")),
        ],
        &[],
    );
    assert!(verify.starts_with("\u{1b}[1;31mFAIL\u{1b}[0m"), "{verify}");
    // Rule ids and error codes in cyan.
    assert!(
        verify.contains("\u{1b}[36mIntegrityEventHash\u{1b}[0m"),
        "{verify}"
    );
}

#[test]
fn documents_are_never_coloured() {
    let corpus = failing_corpus();
    for format in ["json", "junit", "markdown", "sarif"] {
        let (_, out) = piped(
            &[
                "check",
                "--color",
                "always",
                "--format",
                format,
                &path(corpus.path()),
            ],
            &[],
        );
        assert!(
            !out.is_empty() && !out.contains(ESC),
            "check --format {format}"
        );
    }
    let run = |name: &str| path(&Path::new(env!("CARGO_MANIFEST_DIR")).join(name));
    for format in ["json", "markdown"] {
        let (_, out) = piped(
            &[
                "diff",
                "--color",
                "always",
                "--format",
                format,
                &run("screenshots/demo-compare/run1"),
                &run("screenshots/demo-compare/run2"),
            ],
            &[],
        );
        assert!(
            !out.is_empty() && !out.contains(ESC),
            "diff --format {format}"
        );
    }
    for command in ["ls", "verify"] {
        let (_, out) = piped(
            &[
                command,
                "--color",
                "always",
                "--format",
                "json",
                &path(&fixtures().join("bundles")),
            ],
            &[],
        );
        assert!(
            !out.is_empty() && !out.contains(ESC),
            "{command} --format json"
        );
    }
}

#[test]
fn auto_colours_a_terminal_unless_no_color() {
    let dir = failing_corpus();
    let corpus = path(dir.path());
    let args = ["check", &corpus];
    let coloured = on_terminal(&args, &[], "");
    assert!(coloured.contains("\u{1b}[1;31m"), "{coloured}");
    let plain = on_terminal(&args, &[("NO_COLOR", "1")], "");
    assert!(
        plain.contains("result: 2 failing") && !plain.contains(ESC),
        "{plain}"
    );
    let dumb = on_terminal(&args, &[("TERM", "dumb")], "");
    assert!(
        dumb.contains("result: 2 failing") && !dumb.contains(ESC),
        "{dumb}"
    );
    // An empty NO_COLOR is no request (no-color.org), and always wins over NO_COLOR.
    let empty = on_terminal(&args, &[("NO_COLOR", "")], "");
    assert!(empty.contains(ESC), "{empty}");
    let (_, forced) = piped(
        &["--color", "always", "check", &corpus],
        &[("NO_COLOR", "1")],
    );
    assert!(forced.contains(ESC), "{forced}");
}

#[test]
fn the_flag_goes_before_or_after_the_subcommand() {
    let a2a = path(&fixtures().join("a2a"));
    let (before_code, before) = piped(&["--color", "never", "check", &a2a], &[]);
    let (after_code, after) = piped(&["check", &a2a, "--color=never"], &[]);
    assert_eq!((before_code, &before), (after_code, &after));
    assert!(before.contains("packets checked"), "{before}");
}

#[test]
fn render_takes_the_global_flag_and_its_old_spelling() {
    let bundles = path(&fixtures().join("bundles"));
    let svg = |args: &[&str]| piped(&[&["render"], args, &[&bundles]].concat(), &[]).1;
    let coloured = svg(&[]);
    let never = svg(&["--color", "never"]);
    // A file, not a terminal: colour unless never, on a pipe too.
    assert_ne!(coloured, never);
    assert_eq!(svg(&["--color", "always"]), coloured);
    assert_eq!(svg(&["--no-color"]), never);
}

/// Shows the progress line from the first redraw (a tenth of a second) instead of after a
/// second of work, so a small corpus is enough.
const PROGRESS_NOW: (&str, &str) = ("HANDOFF_INSPECTOR_PROGRESS_AFTER_MS", "0");

/// A directory holding one NDJSON stream of `lines` raw packets (a tenth of a second of
/// checking or more, in a debug build).
fn stream_corpus(lines: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let packet =
        std::fs::read_to_string(fixtures().join("a2a/happy_task_requested.json")).expect("fixture");
    let packet: serde_json::Value = serde_json::from_str(&packet).expect("fixture JSON");
    let mut text = String::new();
    for line in 0..lines {
        let mut packet = packet.clone();
        packet["task"]["id"] = format!("task-{line}").into();
        text.push_str(&packet.to_string());
        text.push('\n');
    }
    std::fs::write(dir.path().join("stream.ndjson"), text).expect("write stream");
    dir
}

/// The progress line `what` was drawn and then cleared: nothing is left on the terminal
/// after its last drawing but the erase.
fn drawn_and_cleared(terminal: &str, what: &str) {
    let last = terminal
        .rfind(&format!("{what}: "))
        .unwrap_or_else(|| panic!("no `{what}` progress line on the terminal: {terminal:?}"));
    let line = &terminal[last..];
    assert!(
        line.contains(" packets, ") && line.contains(" packets/s, ") && line.contains(" s"),
        "{line:?}"
    );
    let after = &line[line.find('\r').unwrap_or(line.len())..];
    assert!(
        after.contains("\u{1b}[2K") && without_colour_or_erase(after).trim().is_empty(),
        "the line is not cleared: {after:?}"
    );
}

/// The text without erase-line codes and carriage returns.
fn without_colour_or_erase(text: &str) -> String {
    text.replace("\u{1b}[2K", "").replace('\r', "")
}

#[test]
fn progress_is_drawn_on_a_terminal_and_cleared() {
    let corpus = stream_corpus(3000);
    let stream = path(&corpus.path().join("stream.ndjson"));
    let dir = path(corpus.path());
    let out = path(&corpus.path().join("out.tar.gz"));
    for (what, args) in [
        ("checking", vec!["check", &dir]),
        ("checking", vec!["bless", "--dry-run", &dir]),
        ("converting", vec!["convert", &stream]),
        ("reading", vec!["diff", &stream, &stream]),
        ("bundling", vec!["bundle", "--out", &out, &stream]),
    ] {
        // Standard output to /dev/null: the terminal shows standard error alone.
        let terminal = on_terminal(&args, &[PROGRESS_NOW], ">/dev/null");
        drawn_and_cleared(&terminal, what);
    }
}

#[test]
fn verify_counts_bundles_as_files_and_their_events_as_packets() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bundle = fixtures().join("bundles/a2a-ten-events.tar.gz");
    for copy in 0..200 {
        std::fs::copy(&bundle, dir.path().join(format!("copy-{copy:03}.tar.gz"))).expect("copy");
    }
    let terminal = on_terminal(
        &["verify", &path(dir.path())],
        &[PROGRESS_NOW],
        ">/dev/null",
    );
    drawn_and_cleared(&terminal, "verifying");
    // `N packets, M files`: each bundle is a file of ten events.
    let last = &terminal[terminal.rfind("verifying: ").unwrap_or(0)..];
    let number = |word: &str| -> u64 {
        let before = &last[..last.find(word).unwrap_or(0)];
        let digits = before
            .rsplit(|c: char| !c.is_ascii_digit())
            .find(|part| !part.is_empty());
        digits.and_then(|digits| digits.parse().ok()).unwrap_or(0)
    };
    let (packets, files) = (number(" packets, "), number(" file"));
    assert!(files > 0 && packets == 10 * files, "{last:?}");
}

#[test]
fn no_progress_on_a_pipe_or_over_results_on_the_terminal() {
    let corpus = stream_corpus(3000);
    let dir = path(corpus.path());
    // Standard error a pipe: nothing but what the command says.
    let output = Command::new(BIN)
        .args(["check", &dir])
        .env(PROGRESS_NOW.0, PROGRESS_NOW.1)
        .output()
        .expect("binary runs");
    assert!(
        output.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&output.stderr)
    );
    // JSON lines streaming to the same terminal are their own progress.
    let terminal = on_terminal(&["check", "--format", "json", &dir], &[PROGRESS_NOW], "");
    assert!(terminal.contains("\"summary\""), "{terminal:?}");
    assert!(
        !terminal.contains("checking: "),
        "a progress line over the results"
    );
    // The text report at the end, on the terminal: the line is gone before it.
    let terminal = on_terminal(&["check", "--color", "never", &dir], &[PROGRESS_NOW], "");
    let report = terminal.find("packets checked").expect("the report");
    let cleared = terminal[..report].rfind("\u{1b}[2K");
    assert!(
        !terminal[report..].contains("checking: ")
            && (cleared.is_some() || !terminal.contains("checking: ")),
        "{terminal:?}"
    );
}
