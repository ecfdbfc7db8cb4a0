//! Hostile files and directories against every command, through the real binary. Each case
//! runs under a watchdog (a regression fails instead of hanging the suite) and its peak RSS
//! is read, so "memory linear and small" is checked, not assumed. The binary reports its own
//! `VmHWM` (HANDOFF_INSPECTOR_PEAK_RSS): `wait4`'s figure would include this test process's
//! memory, which Linux carries into a spawned child's peak across exec.
#![cfg(unix)]

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Long enough for a loaded two-core machine; only a hang reaches it.
const WATCHDOG: Duration = Duration::from_secs(120);

struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
    peak_rss_bytes: u64,
}

/// Runs the binary with `args` (stdin from `stdin_file` or empty) under the watchdog.
fn run_guarded(dir: &Path, args: &[&str], stdin_file: Option<&Path>) -> Outcome {
    let out_path = dir.join(".stdout");
    let err_path = dir.join(".stderr");
    let rss_path = dir.join(".peak-rss");
    let _ = std::fs::remove_file(&rss_path);
    let stdin = match stdin_file {
        Some(path) => Stdio::from(std::fs::File::open(path).unwrap()),
        None => Stdio::null(),
    };
    let child = Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .env("HANDOFF_INSPECTOR_PEAK_RSS", &rss_path)
        .stdin(stdin)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("binary runs");
    let pid = child.id() as libc::pid_t;
    let (done, finished) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(WATCHDOG).is_err() {
            // SAFETY: kill on the pid of our own child, which has not been reaped yet (the
            // main thread reaps it only after this thread has been told or has killed it).
            unsafe { libc::kill(pid, libc::SIGKILL) };
            return true;
        }
        false
    });
    let mut status = 0;
    // SAFETY: waits for our own child; status is a valid out-pointer.
    let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
    let _ = done.send(());
    let killed = watchdog.join().unwrap();
    std::mem::forget(child);
    assert_eq!(reaped, pid, "waitpid failed");
    assert!(!killed, "{args:?} did not finish: killed by the watchdog");
    assert!(
        libc::WIFEXITED(status),
        "{args:?} died by signal {}",
        libc::WTERMSIG(status)
    );
    Outcome {
        code: libc::WEXITSTATUS(status),
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        peak_rss_bytes: std::fs::read_to_string(&rss_path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
            .unwrap_or_else(|| panic!("{args:?} reported no peak RSS")),
    }
}

/// docs/hostile-input.md's bound: 64 MiB plus four times the input.
fn memory_bound(input_bytes: u64) -> u64 {
    64 * 1024 * 1024 + 4 * input_bytes
}

/// docs/hostile-input.md's bound for a command that holds a packet as a JSON tree (migrate on
/// an A2A object of ordinary shape): 64 MiB plus 32 times the input.
fn tree_memory_bound(input_bytes: u64) -> u64 {
    64 * 1024 * 1024 + 32 * input_bytes
}

fn fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
}

/// Asserts a refusal: exit 1 or 2, the message names `what` and the reason, memory small.
fn refused(outcome: &Outcome, what: &str, reason: &str) {
    let text = format!("{}{}", outcome.stdout, outcome.stderr);
    assert!(
        outcome.code == 1 || outcome.code == 2,
        "exit {}: {text}",
        outcome.code
    );
    assert!(text.contains(what), "does not name {what}: {text}");
    assert!(text.contains(reason), "does not say {reason}: {text}");
    assert!(
        outcome.peak_rss_bytes < memory_bound(0),
        "peak RSS {} bytes",
        outcome.peak_rss_bytes
    );
}

fn positive() -> std::path::PathBuf {
    crate::common::a2a("happy_task_requested")
}

#[test]
fn fifos_are_refused_by_every_single_file_reader() {
    let dir = tempfile::tempdir().unwrap();
    let fifo_path = dir.path().join("pipe.json");
    fifo(&fifo_path);
    let good = positive();
    let good = good.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["migrate", "pipe.json"],
        vec!["migrate", "--steps", "pipe.json"],
        vec!["profile", "pipe.json"],
        vec!["profile", "--previous", "pipe.json", good],
        vec!["derive", "pipe.json", "--out", "out"],
        vec!["explain", "pipe.json"],
        vec!["convert", "pipe.json"],
        vec!["digest", "pipe.json"],
        vec!["check", "pipe.json"],
        vec!["ls", "pipe.json"],
    ];
    for args in cases {
        let outcome = run_guarded(dir.path(), &args, None);
        refused(&outcome, "pipe.json", "FIFO");
    }
}

#[test]
fn devices_behind_symlinks_are_refused_not_read() {
    let dir = tempfile::tempdir().unwrap();
    symlink("/dev/zero", dir.path().join("zero.json")).unwrap();
    let good = positive();
    let good = good.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["migrate", "zero.json"],
        vec!["profile", "zero.json"],
        vec!["profile", "--previous", "zero.json", good],
        vec!["derive", "zero.json", "--out", "out"],
        vec!["explain", "zero.json"],
        vec!["check", "zero.json"],
    ];
    for args in cases {
        let outcome = run_guarded(dir.path(), &args, None);
        refused(&outcome, "zero.json", "a device");
    }
}

#[test]
fn standard_input_is_capped_while_reading() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = run_guarded(dir.path(), &["migrate", "-"], Some(Path::new("/dev/zero")));
    refused(&outcome, "-:", "larger than the 16 MiB cap");
}

/// A corpus directory whose `goldens.json` is hostile.
fn corpus_with_manifest(hostile: impl Fn(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::copy(positive(), corpus.join("p.json")).unwrap();
    hostile(&corpus.join("goldens.json"));
    dir
}

/// Turns a path into something hostile (a FIFO, a link to a device).
type MakeHostile<'a> = &'a dyn Fn(&Path);

#[test]
fn hostile_manifests_are_refused_by_check_bless_and_render() {
    let hostiles: [(&str, MakeHostile); 2] = [
        ("FIFO", &|path| fifo(path)),
        ("a device", &|path| symlink("/dev/zero", path).unwrap()),
    ];
    for (reason, make) in hostiles {
        for args in [
            &["check", "corpus"][..],
            &["bless", "corpus"][..],
            &["bless", "--dry-run", "corpus"][..],
        ] {
            let dir = corpus_with_manifest(make);
            let outcome = run_guarded(dir.path(), args, None);
            refused(&outcome, "goldens.json", reason);
        }
        // render draws the problem into the picture instead of failing.
        let dir = corpus_with_manifest(make);
        let args = ["render", "--view", "digests", "--size", "200x40", "corpus"];
        let outcome = run_guarded(dir.path(), &args, None);
        assert_eq!(outcome.code, 0, "{}", outcome.stderr);
        assert!(
            outcome
                .stdout
                .contains("goldens.json: cannot read: not a regular file"),
            "{}",
            outcome.stdout
        );
        assert!(outcome.peak_rss_bytes < memory_bound(0));
    }
}

#[test]
fn the_largest_file_cap_does_not_wrap_to_zero() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(positive(), dir.path().join("p.json")).unwrap();
    let outcome = run_guarded(
        dir.path(),
        &[
            "check",
            "--format",
            "json",
            "--max-file-bytes",
            "18446744073709551615",
            "p.json",
        ],
        None,
    );
    // `cap + 1` wrapping to 0 would refuse every file as larger than a cap.
    assert!(outcome.code <= 1, "{}{}", outcome.stdout, outcome.stderr);
    assert!(
        outcome.stdout.contains(r#""source":"p.json","kind":"raw""#),
        "{}",
        outcome.stdout
    );
}

#[test]
fn escape_sequences_in_file_names_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "evil\u{1b}[31m\u{9b}.json";
    let good = positive();
    let good = good.to_str().unwrap();
    // A regular file named like that, to be handed as --out (not a directory).
    std::fs::write(dir.path().join("out\u{1b}[2J"), b"x").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["profile", evil],
        vec!["profile", "--previous", evil, good],
        vec!["profile", "--artifact-root", evil, good],
        vec!["render", evil],
        vec!["migrate", evil],
        vec!["derive", good, "--out", "out\u{1b}[2J"],
        vec!["check", evil],
    ];
    for args in cases {
        let outcome = run_guarded(dir.path(), &args, None);
        assert!(outcome.code == 1 || outcome.code == 2, "{args:?}");
        for text in [&outcome.stdout, &outcome.stderr] {
            assert!(
                !text.contains('\u{1b}') && !text.contains('\u{9b}'),
                "{args:?} wrote a raw control: {text:?}"
            );
        }
        assert!(
            outcome.stderr.contains("\\u{1b}") || outcome.stdout.contains("\\u{1b}"),
            "{args:?} does not name the file: {}",
            outcome.stderr
        );
    }
}

#[test]
fn render_on_a_missing_file_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = run_guarded(dir.path(), &["render", "missing.json"], None);
    refused(&outcome, "missing.json", "no such file or directory");
}

/// A corpus with one good packet and links that lead out of it: to `/`, to `/proc/kmsg`
/// (a read blocks), to itself.
fn corpus_with_escapes() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::copy(positive(), corpus.join("p.json")).unwrap();
    symlink("/", corpus.join("slash")).unwrap();
    symlink("/proc/kmsg", corpus.join("kmsg.json")).unwrap();
    symlink(".", corpus.join("self")).unwrap();
    dir
}

#[test]
fn walks_stay_inside_the_paths_given() {
    for args in [
        &["ls", "corpus"][..],
        &["check", "corpus"][..],
        &["convert", "corpus"][..],
        &["bless", "--dry-run", "corpus"][..],
    ] {
        let dir = corpus_with_escapes();
        let outcome = run_guarded(dir.path(), args, None);
        refused(&outcome, "corpus/slash", "pointing outside the paths given");
        refused(
            &outcome,
            "corpus/kmsg.json",
            "pointing outside the paths given",
        );
        refused(&outcome, "corpus/self", "symlink loop");
        // bless refuses to write anything when an input cannot be read; the others go on.
        assert!(
            args[0] == "bless" || outcome.stdout.contains("p.json"),
            "{args:?}: {}",
            outcome.stdout
        );
    }
    let dir = corpus_with_escapes();
    let args = ["render", "--view", "raw", "corpus"];
    let outcome = run_guarded(dir.path(), &args, None);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(outcome.peak_rss_bytes < memory_bound(0));
}

#[test]
fn deep_trees_are_walked() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().join("deep");
    for _ in 0..1500 {
        deep.push("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(positive(), deep.join("p.json")).unwrap();
    let outcome = run_guarded(dir.path(), &["ls", "deep"], None);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(outcome.stdout.contains("/d/d/p.json"), "{}", outcome.stdout);
}

#[test]
fn ignored_and_hidden_files_are_left_out_unless_no_ignore() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["p.json", "target/debug/t.json", ".cache/h.json"] {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::copy(positive(), path).unwrap();
    }
    std::fs::write(dir.path().join(".gitignore"), "target/\n").unwrap();
    let listed = run_guarded(dir.path(), &["ls", "."], None);
    assert_eq!(listed.stdout.lines().count(), 1, "{}", listed.stdout);
    assert!(listed.stdout.contains("p.json"));
    let all = run_guarded(dir.path(), &["ls", "--no-ignore", "."], None);
    assert_eq!(all.stdout.lines().count(), 3, "{}", all.stdout);
    let named = run_guarded(dir.path(), &["ls", "target/debug/t.json"], None);
    assert!(named.stdout.contains("t.json"), "{}", named.stdout);
}

/// Runs `args` on a file of `bytes` and checks the memory bound against its size.
fn within_memory_bound(name: &str, bytes: &[u8], commands: &[&[&str]]) {
    within_bound(name, bytes, commands, memory_bound, 2);
}

/// Runs each command on `text` (as FILE) and checks it stays within 64 MiB + 32x the input.
fn within_tree_memory_bound(name: &str, text: &str, commands: &[&[&str]]) {
    within_bound(name, text.as_bytes(), commands, tree_memory_bound, 1);
}

/// Runs each command on a file of `bytes`: it must exit with at most `max_code` and peak
/// under `bound(size)`.
fn within_bound(
    name: &str,
    bytes: &[u8],
    commands: &[&[&str]],
    bound: fn(u64) -> u64,
    max_code: i32,
) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), bytes).unwrap();
    for args in commands {
        let mut args = args.to_vec();
        args.push(name);
        let outcome = run_guarded(dir.path(), &args, None);
        assert!(outcome.code <= max_code, "{args:?}: {}", outcome.stderr);
        assert!(
            outcome.peak_rss_bytes < bound(bytes.len() as u64),
            "{args:?}: peak RSS {} MiB for {} bytes",
            outcome.peak_rss_bytes >> 20,
            bytes.len()
        );
    }
}

#[test]
fn pathological_nesting_costs_memory_linear_in_the_input() {
    let deep = vec![b'['; 12_000_000];
    within_memory_bound(
        "deep.json",
        &deep,
        &[&["check"], &["explain"], &["migrate"], &["profile"]],
    );
    within_memory_bound(
        "deep.json",
        &deep[..3_000_000],
        &[&["render", "--view", "raw"]],
    );
}

/// The commands that read one packet whole: each must stay within the bound on a
/// pathological packet.
const EVERY_ONE_PACKET_READER: &[&[&str]] = &[
    &["check"],
    &["explain"],
    &["migrate"],
    &["profile"],
    &["render", "--view", "raw"],
];

#[test]
fn a_million_repeats_of_one_key_cost_memory_linear_in_the_input() {
    let mut text = String::from("{");
    for _ in 0..1_000_000 {
        text.push_str("\"a\":1,");
    }
    text.push_str("\"a\":1}");
    within_memory_bound("dup.json", text.as_bytes(), EVERY_ONE_PACKET_READER);
}

/// `open`, then `{"a":1,"a":2}` repeated (250k times, 1M under `HANDOFF_DEEP_TESTS=1`),
/// comma-separated, then `close`.
fn small_objects_with_repeated_keys(open: &str, close: &str) -> String {
    small_objects_with_repeated_keys_at(250_000, open, close)
}

/// [`small_objects_with_repeated_keys`] with `objects` objects by default (1M under
/// `HANDOFF_DEEP_TESTS=1`): the cases whose trees cost most per object (a payload's
/// attributes, both sides of a diff) fail their bound well below 250k, and run in less time.
fn small_objects_with_repeated_keys_at(objects: usize, open: &str, close: &str) -> String {
    let objects = if crate::common::deep_tests() {
        1_000_000
    } else {
        objects
    };
    let mut text = String::with_capacity(objects * 14 + open.len() + close.len());
    text.push_str(open);
    for index in 0..objects {
        if index > 0 {
            text.push(',');
        }
        text.push_str(r#"{"a":1,"a":2}"#);
    }
    text.push_str(close);
    text
}

/// Every one-file command, and the inspector's views that build the most, held to the bound
/// on the arrays of small objects below.
const SMALL_OBJECT_READERS: &[&[&str]] = &[
    &["ls"],
    &["explain"],
    &["migrate"],
    &["profile"],
    &["digest"],
    &["convert"],
    &["check"],
    &["explain", "--format", "json"],
    // Every tab drawn in turn, then the what-if panel: one run's peak covers them all.
    &["render", "--view", "raw", "--keys", INSPECTOR_TABS],
];

/// The keys that draw each of the inspector's tabs after the first, then open the what-if
/// panel.
const INSPECTOR_TABS: &str = "2345678w";

/// `[{"a":1,"a":2},...]`: an array of many small objects, each repeating a key. serde_json's
/// tree of it costs about 50 times the text (690-712 MiB for 1M objects in `explain`,
/// `migrate`, `profile`, `ls`, `digest`, 2.8 GiB in `render`); a root that is not an object
/// is now read without a tree (`json::read_root`) in every command. 250k objects (3.5 MB; a
/// tree would still cost about 170 MiB against the 78 MiB bound) keep the debug build's nine
/// runs short; `HANDOFF_DEEP_TESTS=1` runs the issue's 1M objects (14 MB), and
/// docs/hostile-input.md gives the release figures for 1M.
#[test]
fn an_array_of_small_objects_with_repeated_keys_costs_memory_linear_in_the_input() {
    let text = small_objects_with_repeated_keys("[", "]");
    within_memory_bound("array.json", text.as_bytes(), SMALL_OBJECT_READERS);
}

/// `{"x":[{"a":1,"a":2},...]}`: the same array under an object root. Its tree cost 690-720
/// MiB for 1M objects (14 MB) in every one-file command; an object's tree is now built only
/// within `json::tree_cap` (32 MiB + twice the text), past it the file is read without one
/// and is the adapter's input, saying why (release figures in docs/hostile-input.md). 250k
/// objects by default (a tree would cost about 170 MiB against the 78 MiB bound). `render`
/// took 787 MiB to 2.1 GiB for 1M objects, by view: the detail's views parsed their own
/// trees past the cap, relabelling parsed one to set `version`, the Findings view drew a
/// line per repeated key and the check's 11 MB message naming them all, and `explain
/// --format json` held the list and its 40 MB line.
#[test]
fn an_object_holding_small_objects_with_repeated_keys_costs_memory_linear_in_the_input() {
    let text = small_objects_with_repeated_keys(r#"{"x":["#, "]}");
    within_memory_bound("object.json", text.as_bytes(), SMALL_OBJECT_READERS);
}

/// `migrate --lines` on one line holding such an array, or such an object: each line was
/// parsed into a tree whatever its size (691 MiB for 1M objects, 14 MB, though plain `migrate`
/// refuses the same file in 21 MiB); a line is now read as plain `migrate` reads a file
/// (`json::read_root`: an array from its type, an object's tree within `json::tree_cap`).
#[test]
fn migrate_lines_on_a_line_of_small_objects_costs_memory_linear_in_the_input() {
    for (open, close) in [("[", "]"), (r#"{"x":["#, "]}")] {
        let mut text = small_objects_with_repeated_keys(open, close);
        text.push('\n');
        within_memory_bound("line.ndjson", text.as_bytes(), &[&["migrate", "--lines"]]);
    }
}

/// A raw packet whose `attributes` hold such an array: the converter copies `attributes`
/// into the payload, normalized, and kept them as a tree (721-744 MiB for 1M objects in
/// `convert`, `check`, `explain`, `digest`; 1.4 GiB in `render --view conversion`); it now
/// writes their normalized text as the packet is read (`a2a::Attributes`), with the facts the
/// rules read, and the inspector lays the payload out from its canonical text. 100k objects
/// by default (1.4 MB: the debug build of e3cd77c took 87 MiB to convert it, against 69).
#[test]
fn a_raw_packet_with_small_objects_in_its_attributes_costs_memory_linear_in_the_input() {
    let text = small_objects_with_repeated_keys_at(
        100_000,
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"attributes":["#,
        "]}",
    );
    within_memory_bound(
        "attributes.json",
        text.as_bytes(),
        &[
            &["convert", "--mode", "lenient"],
            &["digest"],
            &["check"],
            &["explain"],
            &["explain", "--format", "json"],
            &["render", "--view", "raw", "--keys", INSPECTOR_TABS],
        ],
    );
}

/// `diff` of two runs of one such packet each: it parsed each side's tree to read the
/// packet's identity (1.4 GiB for 1M objects, either shape) and, for a changed pair, built both
/// payloads' trees with their attributes (2.1 GiB). Now the identity is read within the tree
/// cap and attributes past it are compared by digest. Bound: 64 MiB + 4x both inputs. 100k
/// objects a file by default (the debug build of e3cd77c took 156 MiB on the array pair,
/// against 75).
#[test]
fn diff_of_small_objects_with_repeated_keys_costs_memory_linear_in_the_inputs() {
    let attributes = |agent: &str| {
        small_objects_with_repeated_keys_at(
            100_000,
            &format!(
                r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"{agent}"}},"attributes":["#
            ),
            "]}",
        )
    };
    let pairs = [
        (
            small_objects_with_repeated_keys_at(100_000, "[", "]"),
            small_objects_with_repeated_keys_at(100_000, "[", "]"),
        ),
        (
            small_objects_with_repeated_keys_at(100_000, r#"{"x":["#, "]}"),
            small_objects_with_repeated_keys_at(100_000, r#"{"x":["#, "]}"),
        ),
        (attributes("a"), attributes("b")),
    ];
    for (base, candidate) in pairs {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("base.json"), &base).unwrap();
        std::fs::write(dir.path().join("candidate.json"), &candidate).unwrap();
        let outcome = run_guarded(
            dir.path(),
            &["diff", "--mode", "lenient", "base.json", "candidate.json"],
            None,
        );
        assert!(outcome.code <= 1, "{}", outcome.stderr);
        let inputs = (base.len() + candidate.len()) as u64;
        assert!(
            outcome.peak_rss_bytes < memory_bound(inputs),
            "diff: peak RSS {} MiB for {inputs} bytes",
            outcome.peak_rss_bytes >> 20
        );
    }
}

/// `{"k0":1,"k0":1,"k1":1,"k1":1,...}`: `count` different keys, each given twice.
fn distinct_repeated_keys(count: usize) -> String {
    let mut text = String::from("{");
    for index in 0..count {
        if index > 0 {
            text.push(',');
        }
        text.push_str(&format!("\"k{index}\":1,\"k{index}\":1"));
    }
    text.push('}');
    text
}

#[test]
fn many_different_repeated_keys_cost_memory_linear_in_the_input() {
    // 200k keys, 4.5 MB: the scan kept a map of every decoded key and a path per repeated
    // key beside the packet's tree (about 20 times the input in check, 30 in migrate). The
    // inspector (`render` draws it) also kept every repeated key's path twice, one string
    // each, beside the tree; it now keeps the check's as one string and scans the detail's
    // when the findings view asks.
    let text = distinct_repeated_keys(200_000);
    // The adapter's input is the default reading, so this object is a raw packet: `render`
    // (the inspector's detail of it) is held to the bound in the test below.
    within_memory_bound("keys.json", text.as_bytes(), &EVERY_ONE_PACKET_READER[..4]);
}

/// The inspector's detail of a raw packet of 200k top-level keys, each repeated (4.6 MB;
/// bound 81 MiB): it peaked at 104 MiB (release, `render --view raw`) while each of its six
/// conversions (two explanations, four for the relabel outcome) kept its own copy of the
/// packet's text, and the detail's tree sat beside the relabel outcome's; the conversions
/// now share the detail's text and the one relabelled text, and the detail parses its tree
/// after them: 72 MiB release, 71 debug (83 debug with the shared text alone, which fails).
#[test]
fn the_inspector_detail_of_a_raw_packet_of_200k_keys_is_within_the_bound() {
    let text = distinct_repeated_keys(200_000);
    within_memory_bound("keys.json", text.as_bytes(), &EVERY_ONE_PACKET_READER[4..]);
}

/// A raw packet whose adapter fields are followed by `count` distinct top-level keys the
/// adapter does not map (`"extra_000000":1`, ...; 3.4 MB at 200k keys). It is not a positive
/// packet (no `task.kind`), so rows N6 and X9 match and name every key. scripts/memory_cases.py
/// and benches/bounds.rs make the same packet.
fn raw_packet_of_distinct_keys(count: usize) -> String {
    let mut text = String::from(
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://c","role":"orchestrator"},"task":{"id":"task-123","status":"requested"},"message":{"id":"msg-1","role":"assistant"}"#,
    );
    for index in 0..count {
        text.push_str(&format!(r#","extra_{index:06}":1"#));
    }
    text.push('}');
    text
}

/// Every command that reads one packet, on a raw packet of distinct top-level keys.
const DISTINCT_KEY_READERS: &[&[&str]] = &[
    &["ls"],
    &["check"],
    &["convert"],
    &["explain"],
    &["explain", "--format", "json"],
    &["digest"],
    &["migrate"],
    &["migrate", "--lines"],
    &["profile"],
    // Every tab drawn in turn, then the what-if panel: one run's peak covers them all.
    &["render", "--view", "raw", "--keys", INSPECTOR_TABS],
];

/// A raw packet of 200k and of 400k distinct top-level keys (3.4 and 6.8 MB) in every
/// command, within 64 MiB + 4x the input (`diff` with itself: 4x both). Each conversion kept
/// the keys as a `String` each, each explanation a tree of the packet of its own and, for N6
/// and X9, a path and a copy of the value per key; the inspector's detail held six
/// explanations and its own tree, the what-if panel two more trees, and `migrate` built the
/// tree and four explanations to refuse the file. At 200k keys (release): `migrate` 198 MiB,
/// `explain` 127, `render` 640 (docs/performance.md has the figures before and after).
#[test]
fn a_raw_packet_of_many_distinct_keys_costs_memory_linear_in_the_input() {
    for count in [200_000, 400_000] {
        let text = raw_packet_of_distinct_keys(count);
        within_memory_bound("keys.json", text.as_bytes(), DISTINCT_KEY_READERS);
        // Compared with itself: both inputs count.
        within_bound(
            "keys.json",
            text.as_bytes(),
            &[&["diff", "keys.json"]],
            |size| memory_bound(2 * size),
            1,
        );
    }
}

/// `migrate` refuses the adapter's own packet from its top-level members, without building
/// its tree, and says what relabelling it 1.0 does, as when the tree was read.
#[test]
fn migrate_refuses_a_raw_packet_of_many_keys_without_its_tree() {
    let text = raw_packet_of_distinct_keys(400_000);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.json"), &text).unwrap();
    let outcome = run_guarded(dir.path(), &["migrate", "keys.json"], None);
    assert_eq!(outcome.code, 1, "{}", outcome.stderr);
    assert!(outcome.stdout.is_empty(), "{}", outcome.stdout);
    assert!(
        outcome.stderr.starts_with(
            "keys.json: not an A2A object: a raw A2A adapter packet (top-level `protocol` \"a2a\" with `event_type`)"
        ),
        "{}",
        outcome.stderr
    );
    assert!(
        outcome
            .stderr
            .contains("strict relabelled 1.0: rejected [C7]"),
        "{}",
        outcome.stderr
    );
    // Less than the tree of the packet alone (about 55 MB) beside its text.
    assert!(
        outcome.peak_rss_bytes < 64 << 20,
        "peak RSS {} MiB",
        outcome.peak_rss_bytes >> 20
    );
}

/// An A2A v0.3 Task whose one message has `count` tiny text parts.
fn task_of_tiny_parts(count: usize) -> String {
    let parts: Vec<serde_json::Value> = (0..count)
        .map(|_| serde_json::json!({"kind": "text", "text": "x"}))
        .collect();
    serde_json::json!({
        "kind": "task",
        "id": "task-1",
        "contextId": "ctx-1",
        "status": {"state": "completed", "timestamp": "2025-04-02T16:59:25.331Z"},
        "history": [{
            "kind": "message", "role": "user", "messageId": "msg-1", "contextId": "ctx-1",
            "parts": parts,
        }],
    })
    .to_string()
}

#[test]
fn an_a2a_object_of_many_tiny_members_costs_one_tree_in_check_and_the_inspector() {
    // 40k two-member parts, 1.1 MB: serde_json's tree of it is about 24 times the input.
    // check held three (the parse, a copy for the migration and its result) and migrated the
    // object twice; it now migrates the parsed tree in place, once. The inspector (`render`
    // draws it) migrated it for every view, kept the parse twice, and the loader's freed
    // trees stayed in its worker threads' arenas; it now migrates when the Migrate view asks.
    let text = task_of_tiny_parts(40_000);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("task.json"), &text).unwrap();
    for args in [
        &["check", "task.json"][..],
        &["render", "--view", "raw", "task.json"],
        &["render", "--view", "handoff", "task.json"],
    ] {
        let outcome = run_guarded(dir.path(), args, None);
        assert!(outcome.code <= 1, "{args:?}: {}", outcome.stderr);
        assert!(
            outcome.peak_rss_bytes < tree_memory_bound(text.len() as u64),
            "{args:?}: peak RSS {} MiB for {} bytes",
            outcome.peak_rss_bytes >> 20,
            text.len()
        );
    }
}

/// An A2A v0.3 agent card with `count` skills.
fn agent_card_of_skills(count: usize) -> String {
    let skills: Vec<serde_json::Value> = (0..count)
        .map(|index| {
            serde_json::json!({"id": format!("s{index}"), "name": "n", "description": "d",
                "tags": ["t"]})
        })
        .collect();
    serde_json::json!({
        "protocolVersion": "0.3.0", "name": "Trip Planner", "description": "Plans trips.",
        "url": "https://agent.example.com/a2a/v1", "preferredTransport": "JSONRPC",
        "version": "1.2.0", "capabilities": {"streaming": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "skills": skills,
    })
    .to_string()
}

#[test]
fn an_a2a_object_costs_one_tree_in_every_command_that_migrates_it() {
    // A 0.8 MB Task of 30k two-member parts (its tree is about 24 times the text) and a
    // 1.2 MB card of 20k skills. The migration used to copy the input tree to migrate it and
    // keep the copy for its replays, `--steps` held the result while replaying, and
    // `--format json` built the report as a tree holding a copy of the result and every path
    // a step changed as an object (about 100 and 160 times this Task). Now the tree is
    // migrated in place, the input kept as its canonical text, the result printed before the
    // replay, and the report written straight out. `digest` kept a copy of the object and a
    // whole migration beside the parse; it now digests in place and judges one copy.
    let commands: &[&[&str]] = &[
        &["migrate"],
        &["migrate", "--steps"],
        &["migrate", "--format", "json"],
        &["explain"],
        &["digest"],
    ];
    within_tree_memory_bound("task.json", &task_of_tiny_parts(30_000), commands);
    let mut with_check = commands.to_vec();
    with_check.push(&["check"]);
    within_tree_memory_bound("card.json", &agent_card_of_skills(20_000), &with_check);
}

#[test]
fn the_inspector_draws_a_big_object_without_a_line_per_member() {
    // An agent card of 50k skills (2.9 MB). The Migrate view held the packet's tree, the
    // migration's result, a replayed copy for the step's diff and every line of that diff
    // (the first step re-indents the whole card), and the Conversion view a line of spans
    // for every line of the card, pretty: 186 and 226 MiB (release). The detail's migration
    // now keeps no result tree, the copy is dropped before diffing, and both views build
    // only the lines that can be drawn, once.
    within_tree_memory_bound(
        "card.json",
        &agent_card_of_skills(50_000),
        &[
            &["render", "--view", "migrate"],
            &["render", "--view", "migrate", "--keys", "l<Space>"],
            &["render", "--view", "conversion"],
        ],
    );
}

#[test]
fn the_migrate_view_of_an_object_of_many_tiny_members_costs_one_tree() {
    // A Task of 40k two-member parts (1.1 MB; its tree is about 24 times the text). The
    // inspector's detail kept the packet's tree for its views and the migration copied it to
    // migrate (the tree was shared), so the Migrate view held two trees at once (141 MiB
    // for 60k parts in release, over the bound). The migration now takes the detail's tree
    // and migrates it in place, keeping its canonical text for the replays.
    within_tree_memory_bound(
        "task.json",
        &task_of_tiny_parts(40_000),
        &[
            &["render", "--view", "migrate"],
            &["render", "--view", "migrate", "--keys", "l<Space>"],
            &["render", "--view", "migrate", "--keys", "ln"],
        ],
    );
}

#[test]
fn profile_json_escapes_packet_text_and_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let name = "p\u{9b}\u{202e}.json";
    let packet =
        "{\"profile\":\"uai.agent.handoff.v1\",\"x\u{9b}\":\"\u{202e}\u{7f}\u{85}\u{200b}\"}";
    std::fs::write(dir.path().join(name), packet).unwrap();
    let outcome = run_guarded(dir.path(), &["profile", "--format", "json", name], None);
    assert!(outcome.code <= 1, "{}", outcome.stderr);
    let unsafe_chars: Vec<char> = outcome
        .stdout
        .chars()
        .filter(|&c| c != '\n' && handoff_inspector::json::is_unsafe_char(c))
        .collect();
    assert!(
        unsafe_chars.is_empty(),
        "raw {unsafe_chars:?} in {}",
        outcome.stdout
    );
    assert!(outcome.stdout.contains("\\u202e"), "{}", outcome.stdout);
    serde_json::from_str::<serde_json::Value>(&outcome.stdout).expect("still JSON");
}

#[test]
fn bless_removes_the_temp_files_of_killed_runs_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    std::fs::copy(positive(), corpus.join("p.json")).unwrap();
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    for name in [".goldens.k1ll3d.tmp", ".goldens.live00.tmp"] {
        let file = std::fs::File::create(corpus.join(name)).unwrap();
        if name.contains("k1ll3d") {
            file.set_modified(hour_ago).unwrap();
        }
    }
    let outcome = run_guarded(dir.path(), &["bless", "corpus"], None);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains(
            "removed 1 stale temporary file(s) of interrupted bless runs: .goldens.k1ll3d.tmp"
        ),
        "{}",
        outcome.stdout
    );
    assert!(!corpus.join(".goldens.k1ll3d.tmp").exists());
    // A fresh one may belong to a bless running right now.
    assert!(corpus.join(".goldens.live00.tmp").exists());
}

/// The fixtures' v0.3 Task (migrate/task.v03.jsonrpc.json) with `messages` history messages,
/// copies of its first one with distinct ids, as JSON text.
fn task_with_history(messages: usize) -> String {
    let fixture = crate::common::fixtures().join("migrate/task.v03.jsonrpc.json");
    let mut task: serde_json::Value =
        serde_json::from_slice(&std::fs::read(fixture).unwrap()).unwrap();
    let message = task["history"][0].clone();
    let history: Vec<serde_json::Value> = (0..messages)
        .map(|index| {
            let mut message = message.clone();
            message["messageId"] = format!("msg-{index}").into();
            message
        })
        .collect();
    task["history"] = history.into();
    task.to_string()
}

#[test]
fn step_diffs_of_large_documents_finish() {
    // A v0.3 Task with 4,000 history messages: steps rewrite thousands of lines, which the
    // unbounded line diff took quadratic time over (kept small: a debug build runs it).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.json"), task_with_history(4_000)).unwrap();
    let outcome = run_guarded(dir.path(), &["migrate", "--steps", "big.json"], None);
    assert_eq!(outcome.code, 0, "{}", outcome.stderr);
    assert!(
        outcome.stdout.contains("step(s) applied"),
        "{}",
        outcome.stderr
    );
}

#[test]
fn migrate_memory_does_not_grow_with_the_step_count() {
    // A 1.2 MB v0.3 Task: every step used to keep the whole document before and after it
    // (about 130 times the input at peak); now the migration keeps the input, the result and
    // the document of the step it is on, and diffs stream.
    let text = task_with_history(6_000);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.json"), &text).unwrap();
    for args in [
        &["migrate", "big.json"][..],
        &["migrate", "--steps", "big.json"],
        &["migrate", "--format", "json", "big.json"],
    ] {
        let outcome = run_guarded(dir.path(), args, None);
        assert_eq!(outcome.code, 0, "{args:?}: {}", outcome.stderr);
        assert!(
            outcome.peak_rss_bytes < tree_memory_bound(text.len() as u64),
            "{args:?}: peak RSS {} MiB for {} bytes",
            outcome.peak_rss_bytes >> 20,
            text.len()
        );
    }
}

#[test]
fn walk_flags_belong_to_the_commands_that_walk() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".hidden")).unwrap();
    std::fs::copy(positive(), dir.path().join(".hidden/p.json")).unwrap();
    for command in [
        "check", "ls", "convert", "bless", "render", "explain", "digest",
    ] {
        let mut args = vec![command, "--no-ignore", "--follow-outside"];
        if command == "bless" {
            args.push("--dry-run");
        }
        args.push(".");
        let outcome = run_guarded(dir.path(), &args, None);
        assert!(
            !outcome.stderr.contains("unexpected argument"),
            "{args:?}: {}",
            outcome.stderr
        );
    }
    let good = positive();
    for command in ["migrate", "profile", "verify", "formats"] {
        // Refused by the argument parser, before anything runs (so no peak RSS either).
        let outcome = crate::common::run(&[command, "--no-ignore", good.to_str().unwrap()]);
        assert_eq!(outcome.code, 2, "{command}: {}", outcome.stderr);
        assert!(
            outcome.stderr.contains("unexpected argument '--no-ignore'"),
            "{command}: {}",
            outcome.stderr
        );
    }
}

/// `lines` copies of the positive packet as NDJSON, each with its own task id (so each is a
/// packet of its own with its own golden entry).
fn positive_packets_ndjson(lines: usize) -> String {
    let packet = std::fs::read_to_string(positive()).unwrap();
    let packet: serde_json::Value = serde_json::from_str(&packet).unwrap();
    let mut text = String::new();
    for index in 0..lines {
        let mut line = packet.clone();
        line["task"]["id"] = format!("t-{index}").into();
        text.push_str(&line.to_string());
        text.push('\n');
    }
    text
}

#[test]
fn an_existing_manifest_costs_a_few_times_its_size() {
    // A manifest is read entry by entry into its entries, never as one JSON tree of the
    // whole file (that took about 8 times the file: 414 MiB for a 50 MB manifest). 40,000
    // entries (about 20 MB): check and bless --dry-run stay under docs/hostile-input.md's
    // bound, 64 MiB plus 3 times the manifest.
    let text = positive_packets_ndjson(40_000);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("c")).unwrap();
    std::fs::write(dir.path().join("c/stream.ndjson"), &text).unwrap();
    let first = run_guarded(dir.path(), &["bless", "c"], None);
    assert_eq!(first.code, 0, "{}", first.stderr);
    let manifest_bytes = std::fs::metadata(dir.path().join("c/goldens.json"))
        .unwrap()
        .len();
    assert!(manifest_bytes > 15_000_000, "{manifest_bytes}");
    for (args, says) in [
        (&["check", "c"][..], "40000 conforms"),
        (&["bless", "--dry-run", "c"][..], "no changes"),
    ] {
        let outcome = run_guarded(dir.path(), args, None);
        assert_eq!(outcome.code, 0, "{args:?}: {}", outcome.stderr);
        assert!(
            outcome.stdout.contains(says),
            "{args:?}: {}",
            outcome.stdout
        );
        assert!(
            outcome.peak_rss_bytes < 64 * 1024 * 1024 + 3 * manifest_bytes,
            "{args:?}: peak RSS {} MiB for a {} MB manifest",
            outcome.peak_rss_bytes >> 20,
            manifest_bytes / 1_000_000
        );
    }
}

#[test]
fn bless_streams_in_constant_memory() {
    // bless used to keep one manifest entry per packet until it wrote (about 1 KiB each:
    // these 100,000 lines took 118 MiB); now its entries go to sorted runs on disk (six of
    // them here) and the manifest is written as they are merged. No manifest yet: the
    // docs/hostile-input.md's bound for bless, 64 MiB, with nothing per packet.
    let lines = 100_000;
    let text = positive_packets_ndjson(lines);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("c")).unwrap();
    std::fs::write(dir.path().join("c/stream.ndjson"), &text).unwrap();
    for (args, verdict) in [
        (
            &["bless", "--dry-run", "c"][..],
            "would write 100000 change(s)",
        ),
        (&["bless", "c"][..], "wrote 100000 change(s)"),
    ] {
        let outcome = run_guarded(dir.path(), args, None);
        assert_eq!(outcome.code, 0, "{args:?}: {}", outcome.stderr);
        assert!(
            outcome.stdout.contains(verdict),
            "{args:?}: {}",
            outcome.stdout.lines().last().unwrap_or_default()
        );
        assert!(
            outcome.peak_rss_bytes < memory_bound(0),
            "{args:?}: peak RSS {} MiB",
            outcome.peak_rss_bytes >> 20
        );
    }
    // Every entry written, in line order (numeric: 9 before 10), each once.
    let manifest = std::fs::read_to_string(dir.path().join("c/goldens.json")).unwrap();
    let keys: Vec<usize> = manifest
        .lines()
        .filter_map(|line| line.trim().strip_prefix("\"stream.ndjson:"))
        .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(keys, (1..=lines).collect::<Vec<_>>());
}
