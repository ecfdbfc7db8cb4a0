//! Issue 24's table, row by row: each command run as a user runs it (the release binary as a
//! child, stdout to /dev/null) on the input the issue names, with its wall time, CPU time and
//! peak RSS (`wait4`'s `ru_maxrss` of the child), the row's memory bound and whether the run
//! is within it. Prints figures; asserts only that every child ran to an exit of its own
//! (no panic, no signal).
//!
//! | row | input (built once under target/bench-mix) | bound |
//! |---|---|---|
//! | verify | the oracle mix six times over as a bundle (`bundle --mode lenient`: 93,012 events) | 64 MiB |
//! | inspector-1m, inspector-2m | issue 39: `render --view handoff` on the mix 50 (100) times over (1M lines, 373 MB; 2M), against `check` of the same stream | 256 MiB (2M: 512, twice the 1M bound), 1.5x `check`'s CPU |
//! | check-200k-goldens | `check` of the mix 10 times over with the goldens.json `bless` wrote | 96 MiB |
//! | check-1m-goldens | `check` of the mix 50 times over with its goldens.json | 128 MiB |
//! | inspector-1m-goldens | `render --view handoff` on that 1M-line directory with its manifest | 1 GiB |
//! | array-CMD | `explain`/`migrate`/`profile`/`ls`/`digest` on `[{"a":1,"a":2},...]`, 1M objects (14 MB) | 64 MiB + 4x the input |
//! | array-VIEW | `explain --format json`, `render --view findings` / `what-if`, `diff` with itself, on that array | 64 MiB + 4x the input(s) |
//! | attributes-CMD | `convert --mode lenient`, `check`, `render --view conversion` on a raw packet with that array in `attributes` | 64 MiB + 4x the input |
//! | diff-200k, diff-1m | `diff` of the mix 10 (50) times over against a copy with its middle line dropped and an agent renamed after it | `check` of one side: its peak + 32 MiB, 2x its CPU |
//! | shard-KofN | issue 39: `check --shard K/4 --stats` of one stream, the mix 20 times over (400k lines), against `check` of the whole | 40% of the whole's CPU, 25% +- 5 of its packets, its peak + 32 MiB; the four add up to the whole (`shard-union`) |
//! | check-throughput | `check --stats` of that stream on every core | 300k packets/s of wall time, 128 MiB |
//! | keys200k-CMD, keys400k-CMD | issue 34: `ls`, `check`, `convert`, `explain` (text, `-json`), `digest`, `migrate` (`-lines`), `profile`, `render` (every tab, then the what-if panel), `diff` with itself, on a raw packet of 200k (400k) distinct top-level keys the adapter does not map (3.4, 6.8 MB) | 64 MiB + 4x the input(s) |
//!
//! Run: `cargo bench --bench bounds`. `BASELINE=/path/to/an/older/handoff-inspector` runs
//! every row with that binary too, interleaved run by run, for before/after figures under the
//! same load. `UPSTREAM_VERIFY=/path/to/verify-harness` (scripts/upstream-verify) adds
//! upstream's verifier on the same bundle. `BOUNDS_ROUNDS=N` sets the runs per row and binary
//! (default 3: wall and CPU are medians, peak RSS the largest); `BOUNDS_ROWS=verify,check`
//! runs the rows whose id contains one of the words, and writes only their inputs. Without
//! `--bench` (`cargo test --all-targets`) every row runs once on tiny inputs (2,000 lines,
//! 1,000 objects, 2,000 and 4,000 keys).
//!
//! A child's `ru_maxrss` starts from what its parent held when it was spawned (Linux carries
//! the parent's high-water mark across `exec`), so this process writes its inputs streaming
//! and stays small; the floor is printed (the same figure for `--version`).

#[path = "support/realistic.rs"]
mod realistic;

use realistic::{blessed_dir, mix_file, scratch_dir, write_once};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

const MIB: f64 = 1024.0 * 1024.0;

/// One run of a child.
struct Measured {
    wall: f64,
    cpu: f64,
    peak_rss_bytes: u64,
    /// The exit code, or the signal that ended it as a text.
    ended: Result<i32, String>,
    /// The packets `check --stats` said it checked.
    packets: Option<u64>,
}

/// Runs `program args...` with stdout to /dev/null and stderr to a file under target/,
/// waits for it with `wait4` and returns its figures.
// The child is reaped by `wait4` (for its rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measure(program: &Path, args: &[String]) -> Measured {
    let stderr_path = scratch_dir().join("bounds-stderr.txt");
    let stderr = std::fs::File::create(&stderr_path).expect("stderr file");
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|error| panic!("{}: {error}", program.display()));
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain integers, for which all zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: wait4 writes only the status and the rusage it is given; the pid is our
        // child's, which nothing else waits for (`child` is never waited on through std).
        let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if waited == pid {
            break;
        }
        let error = std::io::Error::last_os_error();
        assert_eq!(
            error.kind(),
            std::io::ErrorKind::Interrupted,
            "wait4: {error}"
        );
    }
    let wall = started.elapsed().as_secs_f64();
    // `check --stats`: "handoff-inspector: stats: N packets, ..." on stderr.
    let packets = std::fs::read_to_string(&stderr_path)
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.split_once("stats: ").map(|(_, rest)| rest.to_owned()))
        .and_then(|rest| rest.split(' ').next().map(str::to_owned))
        .and_then(|count| count.parse().ok());
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    let ended = if libc::WIFEXITED(status) {
        Ok(libc::WEXITSTATUS(status))
    } else {
        Err(format!("signal {}", libc::WTERMSIG(status)))
    };
    if !matches!(ended, Ok(0..=2)) {
        let text = std::fs::read_to_string(&stderr_path).unwrap_or_default();
        let tail: String = text.lines().rev().take(5).collect::<Vec<_>>().join(" / ");
        println!(
            "    ({} {}: {ended:?}: {tail})",
            program.display(),
            args.join(" ")
        );
    }
    Measured {
        wall,
        cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        // Linux gives ru_maxrss in KiB.
        peak_rss_bytes: usage.ru_maxrss as u64 * 1024,
        ended,
        packets,
    }
}

/// A row of the table: a command on its input, held to a bound.
struct Row {
    id: String,
    what: String,
    args: Vec<String>,
    bound_bytes: f64,
    /// Programs other than the binaries under test (upstream's verifier), with their args.
    others: Vec<(String, PathBuf, Vec<String>)>,
    /// A row held to another command of the same binary (`diff` to `check` on one of its
    /// sides): that command's args and the CPU factor; it runs in the same rounds, and the
    /// row's bound is its peak RSS plus `bound_bytes`, its CPU at most the factor times its.
    relative_to: Option<(Vec<String>, f64)>,
    /// A relative row's share of its reference's packets (`--stats`), held within a fifth
    /// of it: a shard of N takes about 1/N of the lines.
    share: Option<f64>,
    /// Packets a second of wall time the row must reach (`--stats`).
    min_rate: Option<f64>,
    /// A relative row's peak RSS held to `bound_bytes` alone, not its reference's peak plus
    /// it (the inspector: its CPU held to `check`'s, its memory to a figure of its own).
    peak_absolute: bool,
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|arg| (*arg).to_owned()).collect()
}

fn text(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The mix `copies` times over written as an evidence bundle by `bundle --mode lenient`.
fn mix_bundle(binary: &Path, lines: usize, copies: usize) -> PathBuf {
    let path = scratch_dir().join(format!("bundle-{lines}x{copies}-lenient.tar.gz"));
    if !path.exists() {
        let input = mix_file(lines, copies);
        let temporary = path.with_extension("tmp.tar.gz");
        let output = Command::new(binary)
            .args([
                "bundle", "--mode", "lenient", "--run-id", "mix-six", "--out",
            ])
            .arg(&temporary)
            .arg(&input)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs");
        assert!(
            temporary.exists(),
            "bundle wrote nothing: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::rename(&temporary, &path).expect("rename");
    }
    path
}

/// `[{"a":1,"a":2},...]`, `count` objects with a repeated key.
fn repeated_key_array(count: usize) -> PathBuf {
    small_objects_file(&format!("array-{count}-repeated-key.json"), "[", count, "]")
}

/// `open`, then `count` objects `{"a":1,"a":2}` comma-separated, then `close`, written once
/// under the scratch directory as `name`.
fn small_objects_file(name: &str, open: &str, count: usize, close: &str) -> PathBuf {
    let path = scratch_dir().join(name);
    write_once(&path, |out| {
        out.write_all(open.as_bytes()).expect("write");
        for index in 0..count {
            let separator: &[u8] = if index == 0 { b"" } else { b"," };
            out.write_all(separator)
                .and_then(|_| out.write_all(br#"{"a":1,"a":2}"#))
                .expect("write");
        }
        out.write_all(close.as_bytes()).expect("write");
    });
    path
}

/// The rows `selected` keeps (by id), their inputs written only for them: a run of a few rows
/// does not build the 1M-line corpus and its goldens for the others.
fn rows(binary: &Path, full: bool, selected: &dyn Fn(&str) -> bool) -> Vec<Row> {
    let lines = if full { 20_000 } else { 2_000 };
    let scale = |copies: usize| if full { copies } else { 1 };
    let mut rows = Vec::new();
    let any = |ids: &[String]| ids.iter().any(|id| selected(id));
    let ids = |prefix: &str, names: &[&str]| -> Vec<String> {
        names.iter().map(|name| format!("{prefix}{name}")).collect()
    };

    if selected("verify") {
        verify_row(binary, lines, scale(6), &mut rows);
    }
    // Issue 39: the inspector loading a stream costs what checking it costs.
    for (id, copies, bound) in [("inspector-1m", 50, 256.0), ("inspector-2m", 100, 512.0)] {
        if !selected(id) {
            continue;
        }
        let stream = text(&mix_file(lines, scale(copies)));
        rows.push(Row {
            id: id.into(),
            what: format!(
                "the inspector (`render --view handoff`) loading {} lines of the mix, against `check` of them",
                lines * scale(copies)
            ),
            args: strings(&["render", "--view", "handoff", &stream]),
            bound_bytes: bound * MIB,
            others: Vec::new(),
            relative_to: Some((strings(&["check", &stream]), 1.5)),
            share: None,
            min_rate: None,
            peak_absolute: true,
        });
    }
    for (id, copies, bound) in [
        ("check-200k-goldens", scale(10), 96.0),
        ("check-1m-goldens", scale(50), 128.0),
    ] {
        if !selected(id) {
            continue;
        }
        let dir = blessed_dir(binary, lines, copies);
        rows.push(Row {
            id: id.into(),
            what: format!(
                "`check` of {} lines of the mix against the goldens.json `bless` wrote",
                lines * copies
            ),
            args: vec!["check".into(), text(&dir)],
            bound_bytes: bound * MIB,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
    if selected("inspector-1m-goldens") {
        let dir = blessed_dir(binary, lines, scale(50));
        rows.push(Row {
            id: "inspector-1m-goldens".into(),
            what: format!(
                "the inspector (`render --view handoff`) on {} lines with their goldens.json",
                lines * scale(50)
            ),
            args: vec![
                "render".into(),
                "--view".into(),
                "handoff".into(),
                text(&dir),
            ],
            bound_bytes: 1024.0 * MIB,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
    let array_ids = ids(
        "array-",
        &[
            "explain",
            "migrate",
            "profile",
            "ls",
            "digest",
            "explain-json",
            "render-findings",
            "render-what-if",
            "diff",
        ],
    );
    if any(&array_ids) {
        array_rows(full, &mut rows);
    }
    let attributes_ids = ids("attributes-", &["convert", "check", "render-conversion"]);
    if any(&attributes_ids) {
        attributes_rows(full, &mut rows);
    }
    for (id, copies) in [("diff-200k", scale(10)), ("diff-1m", scale(50))] {
        if !selected(id) {
            continue;
        }
        let base = mix_file(lines, copies);
        let candidate = edited_copy(&base);
        rows.push(Row {
            id: id.into(),
            what: format!(
                "`diff` of {} lines of the mix against a copy with one line dropped, one renamed",
                lines * copies
            ),
            args: vec!["diff".into(), text(&base), text(&candidate)],
            bound_bytes: 32.0 * MIB,
            others: Vec::new(),
            relative_to: Some((vec!["check".into(), text(&base)], 2.0)),
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
    if any(&ids("shard-", &["1of4", "2of4", "3of4", "4of4"])) || selected("check-throughput") {
        stream_rows(lines, if full { 20 } else { 2 }, &selected, &mut rows);
    }
    for count in [200_000, 400_000] {
        let prefix = format!("keys{}k-", count / 1000);
        if any(&ids(&prefix, &DISTINCT_KEY_COMMANDS.map(|(name, _)| name))) {
            distinct_key_rows(&prefix, if full { count } else { count / 100 }, &mut rows);
        }
    }
    rows
}

/// Issue 39's rows on one stream of the mix `copies` times over (400k lines): `check --shard
/// K/4` of it, each held to `check` of the whole (at most 40% of its CPU, about a quarter of
/// its packets; the shards' packets add up to the whole's), and `check`'s throughput on it
/// (packets a second of wall time, on every core: 300k/s).
fn stream_rows(lines: usize, copies: usize, selected: &dyn Fn(&str) -> bool, rows: &mut Vec<Row>) {
    let stream = text(&mix_file(lines, copies));
    let whole = strings(&["check", "--stats", &stream]);
    for index in 1..=4 {
        let id = format!("shard-{index}of4");
        if !selected(&id) {
            continue;
        }
        rows.push(Row {
            id,
            what: format!(
                "`check --shard {index}/4` of one stream of {} lines of the mix",
                lines * copies
            ),
            args: strings(&[
                "check",
                "--stats",
                "--shard",
                &format!("{index}/4"),
                &stream,
            ]),
            bound_bytes: 32.0 * MIB,
            others: Vec::new(),
            relative_to: Some((whole.clone(), 0.4)),
            share: Some(0.25),
            min_rate: None,
            peak_absolute: false,
        });
    }
    if selected("check-throughput") {
        rows.push(Row {
            id: "check-throughput".into(),
            what: format!(
                "`check` of one stream of {} lines of the mix, packets/s of wall time",
                lines * copies
            ),
            args: whole,
            bound_bytes: 128.0 * MIB,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: Some(300_000.0),
            peak_absolute: false,
        });
    }
}

/// The commands run on a raw packet of distinct top-level keys, by row name.
const DISTINCT_KEY_COMMANDS: [(&str, &[&str]); 11] = [
    ("ls", &["ls"]),
    ("check", &["check"]),
    ("convert", &["convert"]),
    ("explain", &["explain"]),
    ("explain-json", &["explain", "--format", "json"]),
    ("digest", &["digest"]),
    ("migrate", &["migrate"]),
    ("migrate-lines", &["migrate", "--lines"]),
    ("profile", &["profile"]),
    // Every tab drawn in turn, then the what-if panel.
    ("render", &["render", "--view", "raw", "--keys", "2345678w"]),
    ("diff", &["diff"]),
];

/// Issue 34's rows: every command on a raw packet of `count` distinct top-level keys the
/// adapter does not map (`"extra_000000":1`, ...; 3.4 MB at 200k), bound 64 MiB + 4x the
/// input (`diff` with itself: both inputs).
fn distinct_key_rows(prefix: &str, count: usize, rows: &mut Vec<Row>) {
    let path = scratch_dir().join(format!("raw-{count}-distinct-keys.json"));
    write_once(&path, |out| {
        out.write_all(
            br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","timestamp":"2026-02-27T10:05:00Z","agent":{"id":"agent://c","role":"orchestrator"},"task":{"id":"task-123","status":"requested"},"message":{"id":"msg-1","role":"assistant"}"#,
        )
        .expect("write");
        for index in 0..count {
            write!(out, r#","extra_{index:06}":1"#).expect("write");
        }
        out.write_all(b"}").expect("write");
    });
    let size = std::fs::metadata(&path).map_or(0, |meta| meta.len()) as f64;
    for (name, command) in DISTINCT_KEY_COMMANDS {
        let mut args = strings(command);
        let inputs = if name == "diff" {
            args.push(text(&path));
            2.0
        } else {
            1.0
        };
        args.push(text(&path));
        rows.push(Row {
            id: format!("{prefix}{name}"),
            what: format!(
                "`{}` on a raw packet of {count} distinct top-level keys ({:.1} MB)",
                command.join(" "),
                size / 1e6
            ),
            args,
            bound_bytes: 64.0 * MIB + 4.0 * inputs * size,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
}

/// The `verify` row: the mix `copies` times over as a lenient bundle.
fn verify_row(binary: &Path, lines: usize, copies: usize, rows: &mut Vec<Row>) {
    let bundle = mix_bundle(binary, lines, copies);
    let mut others = Vec::new();
    if let Ok(upstream) = std::env::var("UPSTREAM_VERIFY") {
        others.push((
            "upstream".to_owned(),
            PathBuf::from(upstream),
            vec!["--time".to_owned(), text(&bundle)],
        ));
    }
    rows.push(Row {
        id: "verify".into(),
        what: format!(
            "`verify` of the mix x{} as a lenient bundle ({} lines in)",
            copies,
            lines * copies
        ),
        args: vec!["verify".into(), text(&bundle)],
        bound_bytes: 64.0 * MIB,
        others,
        relative_to: None,
        share: None,
        min_rate: None,
        peak_absolute: false,
    });
}

/// The rows of the array of 1M small objects with a repeated key (1,000 without `--bench`).
fn array_rows(full: bool, rows: &mut Vec<Row>) {
    let count = if full { 1_000_000 } else { 1_000 };
    let array = repeated_key_array(count);
    let size = std::fs::metadata(&array).map_or(0, |meta| meta.len());
    for command in ["explain", "migrate", "profile", "ls", "digest"] {
        rows.push(Row {
            id: format!("array-{command}"),
            what: format!(
                "`{command}` on [{{\"a\":1,\"a\":2}},...], {count} objects ({:.1} MB)",
                size as f64 / 1e6
            ),
            args: strings(&[command, &text(&array)]),
            bound_bytes: 64.0 * MIB + 4.0 * size as f64,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
    // The same array in the inspector's heaviest views, as JSON, and compared with itself.
    for (id, args) in [
        ("array-explain-json", &["explain", "--format", "json"][..]),
        ("array-render-findings", &["render", "--view", "findings"]),
        ("array-render-what-if", &["render", "--view", "what-if"]),
        ("array-diff", &["diff", &text(&array)]),
    ] {
        let mut args = strings(args);
        args.push(text(&array));
        let inputs = if id == "array-diff" { 2 } else { 1 };
        rows.push(Row {
            id: id.into(),
            what: format!("`{}` on that array", args[..args.len() - 1].join(" ")),
            args,
            bound_bytes: 64.0 * MIB + 4.0 * (inputs * size) as f64,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
}

/// The rows of a raw packet whose `attributes` hold that array: the converter copies them.
fn attributes_rows(full: bool, rows: &mut Vec<Row>) {
    let count = if full { 1_000_000 } else { 1_000 };
    let packet = attributes_packet(count);
    let size = std::fs::metadata(&packet).map_or(0, |meta| meta.len());
    for (id, args) in [
        ("attributes-convert", &["convert", "--mode", "lenient"][..]),
        ("attributes-check", &["check"]),
        (
            "attributes-render-conversion",
            &["render", "--view", "conversion"],
        ),
    ] {
        let mut args = strings(args);
        args.push(text(&packet));
        rows.push(Row {
            id: id.into(),
            what: format!(
                "`{}` on a raw packet with {count} such objects in `attributes`",
                args[..args.len() - 1].join(" ")
            ),
            args,
            bound_bytes: 64.0 * MIB + 4.0 * size as f64,
            others: Vec::new(),
            relative_to: None,
            share: None,
            min_rate: None,
            peak_absolute: false,
        });
    }
}

/// A copy of `path` without its middle line and with the first line after it that names an
/// agent naming another (the rename alone can fall on a packet whose compared document does
/// not hold the agent, and leave `diff` no gap to pair), written once beside it.
fn edited_copy(path: &Path) -> PathBuf {
    let changed = path.with_extension("one-dropped-one-renamed.ndjson");
    // Read streaming, twice: a child's peak RSS starts from this process's (see above).
    use std::io::BufRead;
    let lines = || {
        let file = std::fs::File::open(path).expect("the mix");
        std::io::BufReader::new(file).split(b'\n')
    };
    write_once(&changed, |out| {
        let count = lines().count();
        let mut pending = true;
        for (index, line) in lines().enumerate() {
            let line = line.expect("the mix");
            let named = pending && index > count / 2 && line.windows(9).any(|w| w == b"\"agent://");
            if index == count / 2 {
                continue;
            }
            if named {
                let line =
                    String::from_utf8_lossy(&line).replacen("\"agent://", "\"agent://changed-", 1);
                out.write_all(line.as_bytes()).expect("write");
                pending = false;
            } else {
                out.write_all(&line).expect("write");
            }
            out.write_all(b"\n").expect("write");
        }
    });
    changed
}

/// A raw A2A packet whose `attributes` are [`repeated_key_array`]'s array.
fn attributes_packet(count: usize) -> PathBuf {
    small_objects_file(
        &format!("attributes-{count}-repeated-key.json"),
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"attributes":["#,
        count,
        "]}",
    )
}

/// How many of a row's programs are the binaries' (the row's command and, for a relative
/// row, its reference after each).
fn runs_len(row: &Row, binaries: &[(String, PathBuf)]) -> usize {
    binaries.len() * if row.relative_to.is_some() { 2 } else { 1 }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// One line of a row's figures for one program, and whether it was within the bound.
fn report(name: &str, runs: &[Measured], bound: f64) -> (String, bool) {
    let walls: Vec<f64> = runs.iter().map(|run| run.wall).collect();
    let (low, high) = (
        walls.iter().copied().fold(f64::MAX, f64::min),
        walls.iter().copied().fold(0.0, f64::max),
    );
    let peak = runs.iter().map(|run| run.peak_rss_bytes).max().unwrap_or(0) as f64;
    let within = peak <= bound;
    let line = format!(
        "  {name:9} wall {:>7.2} s ({low:.2}-{high:.2})  CPU {:>7.2} s  peak RSS {:>7.1} MiB  {}",
        median(walls.clone()),
        median(runs.iter().map(|run| run.cpu).collect()),
        peak / MIB,
        if within { "within" } else { "OVER" }
    );
    (line, within)
}

/// One figure that says how fast this machine is, so that rows run on different machines (a
/// shared VM's speed moved by 2x between runs here) can be set side by side: SHA-256 of 64 MiB
/// on one thread, the best of three. Taken after every row: a child's peak RSS counts what its
/// parent held when it forked, and this holds 64 MiB.
fn machine_speed() -> String {
    use sha2::{Digest, Sha256};
    let block = vec![0x5au8; 64 << 20];
    let best = (0..3)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(Sha256::digest(&block));
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    format!(
        "this machine: SHA-256 on one thread at {:.0} MB/s (64 MiB, best of 3)",
        (64 << 20) as f64 / best / 1e6
    )
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let rounds: usize = if full {
        std::env::var("BOUNDS_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(3)
            .max(1)
    } else {
        1
    };
    let current = PathBuf::from(env!("CARGO_BIN_EXE_handoff-inspector"));
    let mut binaries = vec![("current".to_owned(), current.clone())];
    if let Ok(baseline) = std::env::var("BASELINE") {
        binaries.push(("baseline".to_owned(), PathBuf::from(baseline)));
    }
    let wanted: Vec<String> = std::env::var("BOUNDS_ROWS")
        .map(|rows| rows.split(',').map(str::to_owned).collect())
        .unwrap_or_default();

    for (name, binary) in &binaries {
        let floor = measure(binary, &strings(&["--version"]));
        println!(
            "{name}: {} (peak RSS of its `--version`: {:.1} MiB)",
            binary.display(),
            floor.peak_rss_bytes as f64 / MIB
        );
    }
    println!("{rounds} run(s) per row and program, interleaved; wall and CPU medians, peak RSS the largest\n");

    let mut summary = Vec::new();
    // (binary, a shard's packets, the whole's), for the shards' union.
    let mut shard_packets: Vec<(String, u64, u64)> = Vec::new();
    let selected =
        |id: &str| wanted.is_empty() || wanted.iter().any(|word| id.contains(word.as_str()));
    for row in rows(&current, full, &selected) {
        if !selected(&row.id) {
            continue;
        }
        println!(
            "{}: {}, bound {:.0} MiB",
            row.id,
            row.what,
            row.bound_bytes / MIB
        );
        // A relative row's reference command runs right after the row's, binary by binary.
        let programs: Vec<(String, PathBuf, Vec<String>)> = binaries
            .iter()
            .flat_map(|(name, binary)| {
                let reference = row
                    .relative_to
                    .as_ref()
                    .map(|(args, _)| (format!("{name} {}", args[0]), binary.clone(), args.clone()));
                std::iter::once((name.clone(), binary.clone(), row.args.clone())).chain(reference)
            })
            .chain(row.others.iter().cloned())
            .collect();
        let mut runs: Vec<Vec<Measured>> = programs.iter().map(|_| Vec::new()).collect();
        for _ in 0..rounds {
            for (index, (_, program, args)) in programs.iter().enumerate() {
                runs[index].push(measure(program, args));
            }
        }
        let all_runs = &runs;
        for (index, ((name, program, args), runs)) in all_runs
            .iter()
            .enumerate()
            .map(|(index, runs)| (index, (&programs[index], runs)))
        {
            for run in runs {
                // A panic (101) or a signal is a broken command, not a figure.
                assert!(
                    matches!(run.ended, Ok(code) if code != 101),
                    "{} {}: {:?}",
                    program.display(),
                    args.join(" "),
                    run.ended
                );
            }
            match &row.relative_to {
                // The reference's line, then the row's held to it.
                Some((_, factor)) if index % 2 == 0 && index + 1 < runs_len(&row, &binaries) => {
                    let reference = &all_runs[index + 1];
                    let peak = reference
                        .iter()
                        .map(|run| run.peak_rss_bytes)
                        .max()
                        .unwrap_or(0);
                    let cpu = median(reference.iter().map(|run| run.cpu).collect());
                    let peak_bound = if row.peak_absolute {
                        row.bound_bytes
                    } else {
                        peak as f64 + row.bound_bytes
                    };
                    let (line, within_memory) = report(name, runs, peak_bound);
                    let row_cpu = median(runs.iter().map(|run| run.cpu).collect());
                    let within_cpu = row_cpu <= factor * cpu;
                    // The share of the reference's packets, when the row is held to one.
                    let (share_text, within_share) = match row.share {
                        None => (String::new(), true),
                        Some(expected) => {
                            let taken = runs[0].packets.unwrap_or(0);
                            let whole = reference[0].packets.unwrap_or(0);
                            shard_packets.push((name.clone(), taken, whole));
                            let share = taken as f64 / whole.max(1) as f64;
                            (
                                format!(
                                    "; packets {taken} of {whole}, {:.1}%, bound {:.0}% +- {:.0}",
                                    share * 100.0,
                                    expected * 100.0,
                                    expected * 20.0
                                ),
                                (share - expected).abs() <= expected / 5.0,
                            )
                        }
                    };
                    let memory_text = if row.peak_absolute {
                        format!("{:.0} MiB", row.bound_bytes / MIB)
                    } else {
                        format!(
                            "{} peak {:.1} MiB + {:.0}",
                            programs[index + 1].0,
                            peak as f64 / MIB,
                            row.bound_bytes / MIB
                        )
                    };
                    println!(
                        "{line}  (bound: {memory_text}; CPU {:.2}x {}'s, bound {factor}x{share_text})",
                        row_cpu / cpu.max(1e-9),
                        programs[index + 1].0,
                    );
                    summary.push((
                        row.id.clone(),
                        name.clone(),
                        within_memory && within_cpu && within_share,
                    ));
                }
                Some(_) if index % 2 == 1 && index < runs_len(&row, &binaries) => {
                    let (line, _) = report(name, runs, f64::INFINITY);
                    println!("{line}");
                }
                _ => {
                    let (line, within) = report(name, runs, row.bound_bytes);
                    // Packets a second of wall time, and what the CPU time would give on two
                    // cores of the machine's own (the others' builds take the rest).
                    let (rate_text, within_rate) = match (row.min_rate, runs[0].packets) {
                        (Some(bound), Some(packets)) => {
                            let wall = median(runs.iter().map(|run| run.wall).collect());
                            let cpu = median(runs.iter().map(|run| run.cpu).collect());
                            let rate = packets as f64 / wall.max(1e-9);
                            (
                                format!(
                                    "  ({packets} packets: {:.0}k/s of wall, {:.0}k/s per 2 CPU-seconds; bound {:.0}k/s)",
                                    rate / 1e3,
                                    2.0 * packets as f64 / cpu.max(1e-9) / 1e3,
                                    bound / 1e3
                                ),
                                rate >= bound,
                            )
                        }
                        (Some(_), None) => ("  (no --stats figure)".to_owned(), false),
                        (None, _) => (String::new(), true),
                    };
                    println!("{line}{rate_text}");
                    summary.push((row.id.clone(), name.clone(), within && within_rate));
                }
            }
        }
    }
    // The shards together are the whole: their packets add up to its count, binary by binary.
    for (name, _) in &binaries {
        let of_binary: Vec<&(String, u64, u64)> = shard_packets
            .iter()
            .filter(|(shard_binary, _, _)| shard_binary == name)
            .collect();
        if of_binary.len() == 4 {
            let taken: u64 = of_binary.iter().map(|(_, taken, _)| taken).sum();
            let whole = of_binary[0].2;
            println!(
                "shard-union {name}: the four shards checked {taken} packets, the whole {whole}"
            );
            summary.push(("shard-union".to_owned(), name.clone(), taken == whole));
        }
    }
    println!();
    for (id, name, within) in summary {
        println!(
            "{id:22} {name:9} {}",
            if within { "within" } else { "OVER its bound" }
        );
    }
    println!("\n{}", machine_speed());
    let _ = std::io::stdout().lock().flush();
}
