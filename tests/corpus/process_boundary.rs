//! The process boundary through the binary: a reader that goes away (stdout or stderr a
//! closed pipe) ends every command quietly, never with a panic; a full disk (`/dev/full`)
//! ends it with exit 2 and a message naming the stream; two runs of `check` print the same
//! bytes in every format; a misspelt subcommand read as a PATH is named.

use crate::common::{fixtures, FIXTURES_NOW};
use std::process::{Command, Stdio};

/// One command of each family, on the fixtures; each writes more than nothing to stdout.
fn families() -> Vec<Vec<String>> {
    let f = |path: &str| fixtures().join(path).to_string_lossy().into_owned();
    let mut commands: Vec<Vec<String>> = ["text", "json", "junit", "markdown", "sarif"]
        .iter()
        .map(|format| {
            vec![
                "check".into(),
                "--format".into(),
                (*format).into(),
                f("a2a"),
            ]
        })
        .collect();
    commands.extend([
        vec!["ls".into(), f("")],
        vec!["convert".into(), f("a2a")],
        vec!["digest".into(), f("a2a")],
        vec!["explain".into(), f("a2a/happy_task_requested.json")],
        vec!["migrate".into(), f("migrate/agent-card.v03.jsonrpc.json")],
        vec!["diff".into(), f("a2a"), f("a2a")],
        vec!["render".into(), f("a2a")],
        vec!["formats".into()],
        vec!["verify".into(), f("bundles/a2a-ten-events.tar.gz")],
    ]);
    commands
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
}

/// Runs `args` with stdout (or stderr) a pipe whose reader is gone before the first write.
fn with_closed(args: &[String], stream: &str) -> (Option<i32>, String) {
    let mut command = binary();
    command.args(args).stdin(Stdio::null());
    let (out, err) = match stream {
        "stdout" => (Stdio::piped(), Stdio::piped()),
        _ => (Stdio::null(), Stdio::piped()),
    };
    command.stdout(out).stderr(err);
    let mut child = command.spawn().expect("binary runs");
    let kept = match stream {
        "stdout" => {
            drop(child.stdout.take());
            child.stderr.take()
        }
        _ => {
            drop(child.stderr.take());
            None
        }
    };
    let mut stderr = String::new();
    if let Some(mut kept) = kept {
        let _ = std::io::Read::read_to_string(&mut kept, &mut stderr);
    }
    let status = child.wait().expect("binary ends");
    (status.code(), stderr)
}

#[test]
fn a_closed_stdout_or_stderr_ends_every_command_quietly() {
    for args in families() {
        for stream in ["stdout", "stderr"] {
            let (code, stderr) = with_closed(&args, stream);
            assert!(
                matches!(code, Some(0..=2)),
                "{args:?} with {stream} closed: exit {code:?}\n{stderr}"
            );
            assert!(
                !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
                "{args:?} with {stream} closed:\n{stderr}"
            );
        }
    }
}

#[test]
fn a_full_disk_is_exit_2_naming_standard_output() {
    for args in families() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens");
        let output = binary()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("handoff-inspector: standard output: no space left on device")
                || stderr.contains("handoff-inspector: standard output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn check_prints_the_same_bytes_run_after_run_in_every_format() {
    // The whole fixture tree, UAIX expiry included, on the system clock and at --now.
    let tree = fixtures().to_string_lossy().into_owned();
    for format in ["text", "json", "junit", "markdown", "sarif"] {
        for now in [None, Some(FIXTURES_NOW)] {
            let mut args = vec!["check", "--format", format];
            if let Some(now) = now {
                args.extend(["--now", now]);
            }
            args.push(&tree);
            let first = binary().args(&args).output().expect("binary runs");
            std::thread::sleep(std::time::Duration::from_millis(1100));
            let second = binary().args(&args).output().expect("binary runs");
            assert!(
                first.stdout == second.stdout,
                "check --format {format} (now {now:?}) printed different bytes twice"
            );
            let text = String::from_utf8_lossy(&first.stdout);
            assert!(
                !text.contains("the clock is"),
                "{format}: a clock in a finding"
            );
            if let (Some(now), "json" | "sarif" | "markdown") = (now, format) {
                assert!(
                    text.contains(now),
                    "{format}: the --now clock is not stated"
                );
            }
        }
    }
}

#[test]
fn a_misspelt_or_misplaced_subcommand_is_named() {
    let fixtures = fixtures().to_string_lossy().into_owned();
    for (args, told) in [
        (vec!["chek", &fixtures], "did you mean `check`?"),
        (vec!["verfy", &fixtures], "did you mean `verify`?"),
        (vec!["mirgate", &fixtures], "did you mean `migrate`?"),
        // An inspector flag (the global `--color` goes before a subcommand too).
        (
            vec!["--now", "2026-06-01T00:00:00Z", "check", &fixtures],
            "`check` was read as a PATH for the inspector, because a flag came before it",
        ),
    ] {
        let output = binary().args(&args).output().expect("binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(told), "{args:?}: {stderr}");
    }
}
