//! The interactive inspector as a person uses it: the real binary in a real terminal (tmux),
//! driven with send-keys and read with capture-pane. `.ci/run` installs tmux when missing.

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

struct Session {
    socket: String,
}

impl Session {
    /// Starts the inspector in a tmux server of its own (tests run in parallel).
    fn start(name: &str, args: &str) -> Session {
        let binary = env!("CARGO_BIN_EXE_handoff-inspector");
        Session::start_command(name, &format!("env -u CI {binary} {args}"))
    }

    /// `start`, the inspector's process id written to `pid_file` (the shell that writes it
    /// becomes the inspector).
    fn start_noting_pid(name: &str, args: &str, pid_file: &Path) -> Session {
        let binary = env!("CARGO_BIN_EXE_handoff-inspector");
        Session::start_command(
            name,
            &format!(
                "sh -c 'echo $$ > {}; exec env -u CI {binary} {args}'",
                pid_file.display()
            ),
        )
    }

    fn start_command(name: &str, command: &str) -> Session {
        let socket = format!("handoff-inspector-{name}-{}", std::process::id());
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        // After the inspector exits, print its exit code and keep the pane open to read it.
        // CI is unset for the inspector: accepting a golden (which refuses under CI) writes
        // only into the tests' temporary directories.
        let script = format!("cd {} && {command}; echo EXIT=$?; sleep 30", root.display());
        let status = Command::new("tmux")
            .args([
                "-L",
                &socket,
                "new-session",
                "-d",
                "-x",
                "120",
                "-y",
                "40",
                "sh",
                "-c",
                &script,
            ])
            .env_remove("TMUX")
            .status()
            .expect("tmux must be installed (.ci/run installs it)");
        assert!(status.success());
        Session { socket }
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            let status = Command::new("tmux")
                .args(["-L", &self.socket, "send-keys", "-t", "0", key])
                .status()
                .unwrap();
            assert!(status.success());
        }
    }

    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p", "-t", "0"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `text` (a readiness wait, not a performance check).
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?}"), |screen| screen.contains(text))
    }

    /// Waits until the screen no longer shows `text` (a readiness wait, like `wait_for`).
    fn wait_until_gone(&self, text: &str) {
        self.wait_until(&format!("{text:?} to go"), |screen| !screen.contains(text));
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
    }
}

#[test]
fn browse_explain_what_if_and_quit_in_a_real_terminal() {
    let session = Session::start("browse", "--color never fixtures/a2a");
    session.wait_for("34 packets");
    session.keys(&["3", "/", "happy_task_requested.json", "Enter"]);
    session.wait_for("typed positive: task + message refs");
    // The matched row marker is drawn with the rule table; wait for the frame that has it
    // (a loaded machine can show an intermediate frame first).
    let screen = session.wait_for("● P");
    assert!(
        screen.contains("fixtures/a2a/happy_task_requested.json"),
        "{screen}"
    );

    session.keys(&["w"]);
    session.wait_for("what-if (in memory; nothing is written)");
    session.keys(&["k"]);
    let screen = session.wait_for("\"analysis\"");
    assert!(screen.contains("defaults (not visible)"), "{screen}");
    // Escape alone first: an ESC followed at once by another key reaches the terminal as one
    // Alt+key sequence when the machine is slow to read it, so wait until the popup is gone.
    session.keys(&["Escape"]);
    session.wait_until_gone("what-if (in memory; nothing is written)");
    session.keys(&["?"]);
    session.wait_for("key closes)");
    session.keys(&["x", "6"]);
    session.wait_for("K1-A rule coverage in this corpus");

    session.keys(&["q"]);
    let screen = session.wait_for("EXIT=0");
    // The alternate screen is gone: none of the inspector's frame is left on the terminal.
    assert!(
        !screen.contains("handoff-inspector  34 packets"),
        "{screen}"
    );
}

#[test]
fn a_small_terminal_gets_a_message_and_ctrl_c_quits() {
    let session = Session::start("small", "--color never fixtures/a2a");
    session.wait_for("34 packets");
    let status = Command::new("tmux")
        .args([
            "-L",
            &session.socket,
            "resize-window",
            "-t",
            "0",
            "-x",
            "60",
            "-y",
            "20",
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let screen = session.wait_for("needs at least 80x24");
    assert!(screen.contains("60x20"), "{screen}");
    session.keys(&["C-c"]);
    session.wait_for("EXIT=0");
}

#[test]
fn files_changed_on_disk_are_rechecked_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/a2a");
    for name in ["happy_task_requested.json", "happy_artifact_shared.json"] {
        std::fs::copy(fixtures.join(name), dir.path().join(name)).unwrap();
    }
    let session = Session::start("reload", &format!("--color never {}", dir.path().display()));
    session.wait_for("2 packets");
    session.keys(&["/", "happy_task", "Enter"]);
    session.wait_for("typed positive: task + message refs");
    // Turn the delegation into an analysis task on disk: the flags must follow.
    let packet = std::fs::read_to_string(dir.path().join("happy_task_requested.json")).unwrap();
    std::fs::write(
        dir.path().join("happy_task_requested.json"),
        packet.replace("\"delegation\"", "\"analysis\""),
    )
    .unwrap();
    let screen = session.wait_for("defaults (not visible)");
    assert!(
        screen.contains("2 packets"),
        "the file is replaced, not added: {screen}"
    );
    assert!(
        screen.contains("happy_task_requested.json"),
        "the selection is kept: {screen}"
    );
    // A new file appears in the list.
    std::fs::copy(
        fixtures.join("n7_task_updated_delegation.json"),
        dir.path().join("n7.json"),
    )
    .unwrap();
    session.wait_for("3 packets");
}

#[test]
fn accepting_a_golden_shows_what_it_writes_and_reports_the_files_that_changed() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/demo-golden-drift");
    for name in ["happy_task_requested.json", "goldens.json"] {
        std::fs::copy(demo.join(name), dir.path().join(name)).unwrap();
    }
    let session = Session::start("accept", &format!("--color never {}", dir.path().display()));
    session.wait_for("1 packets");
    session.keys(&["a"]);
    let screen = session.wait_for("accepting writes (recorded");
    assert!(
        screen.contains("task_ref_only → task_and_message_refs"),
        "{screen}"
    );
    session.keys(&["a", "y"]);
    session.wait_for("golden recorded in");
    let manifest = std::fs::read_to_string(dir.path().join("goldens.json")).unwrap();
    assert!(!manifest.contains("task_ref_only"), "{manifest}");
    let screen = session.wait_for("= matches the golden");
    // The watcher's report of the manifest it wrote does not take the accept's place.
    assert!(screen.contains("golden recorded in"), "{screen}");
    assert!(!screen.contains("re-checking"), "{screen}");
}

/// The inspector takes `--now` as `check` does: the UAIX fixtures (which expire on
/// 2030-01-01) hold their goldens at the fixtures' clock and differ from them at a later one.
#[test]
fn the_inspector_checks_at_the_clock_now_gives() {
    let fixed = Session::start(
        "now-fixed",
        &format!(
            "--color never --now {} fixtures/profiles/uaix",
            crate::common::FIXTURES_NOW
        ),
    );
    fixed.wait_for("16 packets");
    let screen = fixed.wait_until("the load to finish", |screen| {
        screen.contains("16 packets") && !screen.contains("loading")
    });
    assert!(screen.contains("▾ fixtures/profiles/uaix/ 16 "), "{screen}");
    assert!(!screen.contains("failing"), "{screen}");
    let later = Session::start(
        "now-later",
        "--color never --now 2031-01-01T00:00:00Z fixtures/profiles/uaix",
    );
    later.wait_for("▾ fixtures/profiles/uaix/ 16 · 15 failing");
}

/// The Compare view in a real terminal: with a filter and a search set, Esc clears the
/// search, then the filter, and only the third Esc quits.
#[test]
fn the_compare_view_steps_back_with_esc_before_it_quits() {
    let session = Session::start(
        "compare",
        "--color never --compare screenshots/demo-compare/run1 screenshots/demo-compare/run2",
    );
    session.wait_for("Pairs 4/5");
    session.keys(&["f"]);
    session.wait_for("Pairs 2/5");
    session.keys(&["/", "positive", "Enter"]);
    session.wait_for("/positive n/N");
    // Escape alone each time, waiting for its frame (see the browse test above).
    session.keys(&["Escape"]);
    let screen = session.wait_for("search \"positive\" cleared");
    assert!(screen.contains("Pairs 2/5"), "{screen}");
    session.keys(&["Escape"]);
    let screen = session.wait_for("filter cleared");
    assert!(screen.contains("Pairs 4/5"), "{screen}");
    assert!(!session.screen().contains("EXIT="));
    session.keys(&["Escape"]);
    session.wait_for("EXIT=0");
}

/// SIGTERM and SIGHUP (Ctrl-C is a key in raw mode) end the inspector by that signal, and
/// the screen is restored first: the shell shows 143 / 129 on the normal screen, none of the
/// inspector's frame left. (Before, the signal's default action left the terminal on the
/// alternate screen, in raw mode.)
#[cfg(unix)]
#[test]
fn a_signal_ends_the_inspector_and_restores_the_terminal() {
    for (name, signal, code) in [("term", libc::SIGTERM, 143), ("hup", libc::SIGHUP, 129)] {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("pid");
        let session = Session::start_noting_pid(
            &format!("signal-{name}"),
            "--color never fixtures/a2a",
            &pid_file,
        );
        session.wait_for("34 packets");
        let pid: i32 = std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // SAFETY: kill(2) of the inspector this test started; its shell is waiting on it, so
        // the pid is not reused before this call.
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let screen = session.wait_for(&format!("EXIT={code}"));
        assert!(
            !screen.contains("handoff-inspector  34 packets"),
            "{name}: {screen}"
        );
    }
}

/// A stand-in editor: notes its arguments in `args` beside it, says so on the screen it was
/// handed, and ends when Enter is typed.
fn stub_editor(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("stub-editor");
    let args = dir.join("args");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\necho \"STUB EDITOR $*\"\nread answer\n",
            args.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

#[test]
fn o_opens_the_packet_in_the_editor_at_its_line_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let packet = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/a2a/happy_task_requested.json"),
    )
    .unwrap();
    let packet: serde_json::Value = serde_json::from_str(&packet).unwrap();
    let mut stream = String::new();
    for id in ["task-zero", "task-one", "task-two"] {
        let mut packet = packet.clone();
        packet["task"]["id"] = id.into();
        stream.push_str(&format!("{packet}\n"));
    }
    let stream_path = dir.path().join("stream.ndjson");
    std::fs::write(&stream_path, stream).unwrap();
    let editor = stub_editor(dir.path());
    let binary = env!("CARGO_BIN_EXE_handoff-inspector");
    let session = Session::start_command(
        "editor",
        &format!(
            "env -u CI -u EDITOR VISUAL={} {binary} --color never {}",
            editor.display(),
            stream_path.display()
        ),
    );
    session.wait_for("3 packets");
    session.keys(&["/", "task-one", "Enter"]);
    session.wait_for("stream.ndjson:2");
    session.keys(&["o"]);
    // The editor has the terminal: the inspector's screen is gone while it runs.
    let screen = session.wait_for("STUB EDITOR +2 ");
    assert!(
        screen.contains(&stream_path.display().to_string()),
        "{screen}"
    );
    assert!(
        !screen.contains("3 packets"),
        "the inspector drew over the editor: {screen}"
    );
    let args = std::fs::read_to_string(dir.path().join("args")).unwrap();
    assert_eq!(args, format!("+2\n{}\n", stream_path.display()));
    // Back: the inspector draws again, says where it was, and still takes keys.
    session.keys(&["Enter"]);
    let screen = session.wait_for("back from ");
    assert!(
        screen.contains("3 packets") && screen.contains("stream.ndjson:2"),
        "{screen}"
    );
    assert!(
        !screen.contains("STUB EDITOR"),
        "the editor's screen is left: {screen}"
    );
    session.keys(&["q"]);
    session.wait_for("EXIT=0");
}

#[test]
fn o_without_an_editor_says_how_to_set_one() {
    let binary = env!("CARGO_BIN_EXE_handoff-inspector");
    let session = Session::start_command(
        "no-editor",
        &format!("env -u CI -u EDITOR -u VISUAL {binary} --color never fixtures/a2a"),
    );
    // Every packet listed before the search: a search scans the packets listed when it starts.
    session.wait_for("34 packets");
    session.keys(&["/", "happy_task_requested", "Enter"]);
    session.wait_for("typed positive");
    session.keys(&["o"]);
    session.wait_for("no editor set: set $VISUAL or $EDITOR");
    session.keys(&["q"]);
    session.wait_for("EXIT=0");
}
