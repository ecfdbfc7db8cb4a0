//! The writes `bless` makes, at the process boundary: writers of one directory at once keep
//! every file's entries (the manifest's lock and the merge under it), a writer that cannot
//! get the lock says so with exit 2, an interrupt at any moment leaves the old manifest and
//! no temporary file, and `CI` refuses exactly the values the docs' table says.

use crate::common::{dir_names, run_env};
use handoff_inspector::golden::{manifest_lock_path, parse_manifest, CI_WRITES_VALUES};
use handoff_inspector::persist::LockFile;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn line(id: &str) -> String {
    format!(
        r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},"task":{{"id":"{id}","kind":"delegation"}}}}"#
    )
}

/// `lines` packets in `dir/NAME`, one a line, their ids starting with `prefix`.
fn write_stream(dir: &Path, name: &str, prefix: &str, lines: usize) {
    let text: String = (0..lines)
        .map(|index| line(&format!("{prefix}{index}")) + "\n")
        .collect();
    std::fs::write(dir.join(name), text).unwrap();
}

fn bless_command(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_handoff-inspector"));
    command
        .arg("bless")
        .args(args)
        .env_remove("CI")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// How many entries of each named file the directory's manifest holds.
fn entries_per_file(dir: &Path, names: &[String]) -> Vec<usize> {
    let manifest = parse_manifest(&std::fs::read(dir.join("goldens.json")).unwrap()).unwrap();
    names
        .iter()
        .map(|name| {
            manifest
                .packets
                .keys()
                .filter(|key| &key.file == name)
                .count()
        })
        .collect()
}

/// Names left in `dir` that only a write in progress has.
fn leftovers(dir: &Path) -> Vec<String> {
    dir_names(dir)
        .into_iter()
        .filter(|name| name.ends_with(".tmp") || name.ends_with(".lock"))
        .collect()
}

fn concurrent_blesses(files: usize, lines: usize) {
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (0..files).map(|index| format!("f{index}.ndjson")).collect();
    for (index, name) in names.iter().enumerate() {
        write_stream(dir.path(), name, &format!("p{index}-"), lines);
    }
    let children: Vec<_> = names
        .iter()
        .map(|name| {
            bless_command(&[&dir.path().join(name).to_string_lossy()])
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    assert_eq!(entries_per_file(dir.path(), &names), vec![lines; files]);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
}

// Before the lock, the last rename won: one file's entries, 20 times of 20 with two.
#[test]
fn two_blesses_at_once_keep_both_files_entries() {
    concurrent_blesses(2, 3000);
}

#[test]
fn ten_blesses_at_once_keep_every_files_entries() {
    concurrent_blesses(10, 200);
}

#[test]
fn a_bless_that_cannot_get_the_lock_says_so_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_stream(dir.path(), "s.ndjson", "s", 3);
    let held =
        LockFile::acquire(&manifest_lock_path(dir.path()), Duration::ZERO, &mut |_| {}).unwrap();
    let started = Instant::now();
    let refused = run_env(
        &[
            "bless",
            "--lock-timeout",
            "1",
            &dir.path().to_string_lossy(),
        ],
        &[("CI", None)],
    );
    assert_eq!(refused.code, 2, "{}{}", refused.stdout, refused.stderr);
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert!(
        refused
            .stderr
            .contains("another bless or accept is writing this manifest; waiting up to 1 s"),
        "{}",
        refused.stderr
    );
    assert!(
        refused.stderr.contains("another writer held this lock")
            && refused.stderr.contains("nothing written"),
        "{}",
        refused.stderr
    );
    assert!(!dir.path().join("goldens.json").exists());
    drop(held);
    assert_eq!(leftovers(dir.path()), Vec::<String>::new());
    let blessed = run_env(&["bless", &dir.path().to_string_lossy()], &[("CI", None)]);
    assert_eq!(blessed.code, 0, "{}", blessed.stderr);
    assert_eq!(entries_per_file(dir.path(), &["s.ndjson".to_owned()]), [3]);
}

/// Each value of the table, in other cases and with spaces around it, lets bless write;
/// others refuse, writing nothing.
#[test]
fn ci_refuses_exactly_what_the_table_says() {
    let mut writes: Vec<String> = Vec::new();
    for value in CI_WRITES_VALUES {
        writes.extend([
            value.to_string(),
            value.to_uppercase(),
            format!(" {value}"),
            format!("{value} "),
            format!("\t{}\t", capitalized(value)),
        ]);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), line("t")).unwrap();
    let path = dir.path().to_string_lossy().into_owned();
    for value in &writes {
        std::fs::remove_file(dir.path().join("goldens.json")).ok();
        let blessed = run_env(&["bless", &path], &[("CI", Some(value))]);
        assert_eq!(blessed.code, 0, "CI={value:?}: {}", blessed.stderr);
        assert!(dir.path().join("goldens.json").exists(), "CI={value:?}");
    }
    for value in ["true", "1", "yes", "on", "falsy", "0 0", "n"] {
        std::fs::remove_file(dir.path().join("goldens.json")).ok();
        let refused = run_env(&["bless", &path], &[("CI", Some(value))]);
        assert_eq!(refused.code, 2, "CI={value:?}");
        assert!(
            refused
                .stderr
                .contains("empty, `0`, `false`, `no` or `off` lets bless write"),
            "{}",
            refused.stderr
        );
        assert!(!dir.path().join("goldens.json").exists(), "CI={value:?}");
    }
}

fn capitalized(value: &str) -> String {
    let mut chars = value.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// When a signal is sent: a while after the start (while the corpus is checked), or a while
/// after the temporary manifest appears (while it is written).
#[cfg(unix)]
#[derive(Clone, Copy, Debug)]
enum Moment {
    AfterStart(u64),
    AfterTemp(u64),
}

/// SIGINT, SIGTERM and SIGHUP at several moments of a bless that rewrites every entry: the
/// process ends by that signal (a shell shows 130, 143, 129), the manifest is the old one
/// (or, once the rename was done, the new one whole), and no temporary or lock file is left.
/// Before the interrupt cleanup, 11 of 21 such runs left a `.goldens.*.tmp`.
#[cfg(unix)]
#[test]
fn signals_during_a_bless_leave_the_old_manifest_and_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("s.ndjson");
    write_stream(dir.path(), "s.ndjson", "old", 2000);
    let first = bless_command(&[&stream.to_string_lossy()])
        .output()
        .unwrap();
    assert!(first.status.success());
    let old = std::fs::read(dir.path().join("goldens.json")).unwrap();
    // Every entry changes: the whole manifest is written again.
    write_stream(dir.path(), "s.ndjson", "new", 2000);
    let moments = [
        Moment::AfterStart(30),
        Moment::AfterTemp(0),
        Moment::AfterTemp(3),
        Moment::AfterTemp(15),
        Moment::AfterTemp(60),
    ];
    let mut during_write = 0;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        for moment in moments {
            let mut child = bless_command(&[&stream.to_string_lossy()]).spawn().unwrap();
            let started = Instant::now();
            let wait = |ms: u64| std::thread::sleep(Duration::from_millis(ms));
            let sent = match moment {
                Moment::AfterStart(ms) => {
                    wait(ms);
                    true
                }
                Moment::AfterTemp(ms) => {
                    let mut seen = false;
                    while !seen && child.try_wait().unwrap().is_none() {
                        seen = dir_names(dir.path())
                            .iter()
                            .any(|name| name.starts_with(".goldens.") && name.ends_with(".tmp"));
                        if !seen {
                            std::thread::sleep(Duration::from_micros(200));
                        }
                        assert!(started.elapsed() < Duration::from_secs(120));
                    }
                    wait(ms);
                    seen
                }
            };
            let pid = i32::try_from(child.id()).unwrap();
            // SAFETY: kill(2) with this test's own child's pid; it cannot have been reaped
            // yet (only `wait` below reaps it), so the pid is not reused.
            unsafe { libc::kill(pid, signal) };
            let status = child.wait().unwrap();
            let manifest = std::fs::read(dir.path().join("goldens.json")).unwrap();
            let context = format!("signal {signal} at {moment:?}: {status:?}");
            assert_eq!(leftovers(dir.path()), Vec::<String>::new(), "{context}");
            if status.success() {
                // It finished before the signal came: the new manifest, whole.
                assert!(parse_manifest(&manifest).is_ok(), "{context}");
            } else {
                assert_eq!(status.signal(), Some(signal), "{context}");
                if manifest != old {
                    // The signal came after the rename: the new manifest, whole.
                    assert!(parse_manifest(&manifest).is_ok(), "{context}");
                }
                if sent && matches!(moment, Moment::AfterTemp(_)) {
                    during_write += 1;
                }
            }
            std::fs::write(dir.path().join("goldens.json"), &old).unwrap();
        }
    }
    // Most moments after the temporary file appeared land while it is being written.
    assert!(
        during_write >= 6,
        "only {during_write} signals landed mid-write"
    );
}

/// The inspector's accepts while a bless of the same directory runs, one packet after another
/// (the first while bless checks its stream, the rest while it checks and writes), and every
/// accepted entry kept with the stream's. (Before the lock, bless merged into the manifest it
/// read at its start, and its rename dropped what was accepted meanwhile.)
#[test]
fn accepts_during_a_bless_of_the_same_directory_are_all_kept() {
    use handoff_inspector::corpus::{record_golden, CheckOptions};
    let dir = tempfile::tempdir().unwrap();
    let accepted_dir = dir.path().join("d");
    std::fs::create_dir(&accepted_dir).unwrap();
    for index in 0..300 {
        std::fs::write(
            accepted_dir.join(format!("a{index:03}.json")),
            line(&format!("a{index}")),
        )
        .unwrap();
    }
    let checks = crate::accept::checks_in(&accepted_dir);
    write_stream(&accepted_dir, "s.ndjson", "s", 3000);
    let mut child = bless_command(&[&accepted_dir.join("s.ndjson").to_string_lossy()])
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let mut accepted = Vec::new();
    for check in &checks {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        record_golden(check, &CheckOptions::default()).unwrap();
        accepted.push(
            check
                .summary
                .source
                .path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned(),
        );
    }
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!accepted.is_empty());
    let mut names = accepted.clone();
    names.push("s.ndjson".to_owned());
    let mut expected = vec![1; accepted.len()];
    expected.push(3000);
    assert_eq!(entries_per_file(&accepted_dir, &names), expected);
    assert_eq!(leftovers(&accepted_dir), Vec::<String>::new());
}
