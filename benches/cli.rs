//! The command line end to end on the realistic mix (the 20,000 packets the upstream adapter's
//! output was recorded for, tests/data/oracle/a2a-mixed-20k.ndjson.gz): what a user runs,
//! NDJSON in, /dev/null out. Prints figures; asserts nothing.
//!
//! - `convert --mode M --adapter-version 5.4.0` on one core (pinned with `taskset -c 1` when
//!   it exists), both modes: packets per wall second and per CPU second (the child's user +
//!   system time, which moves less than wall time on a shared machine).
//! - `check --stats` on 1M lines made by repeating the mix, on every core and with `--jobs 1`:
//!   packets/s, CPU per packet, peak RSS (as `--stats` reports them).
//! - `check --stats` against the goldens.json `bless` wrote, on 200k and 1M lines of the mix
//!   (blessed once under target/bench-mix/blessed-*).
//!
//! Run: `cargo bench --bench cli`. `CLI_BENCH_BASELINE=/path/to/an/older/handoff-inspector`
//! interleaves every run with that binary's, so the two are compared under the same load.
//! `CLI_BENCH_ROUNDS=N` sets the rounds (median reported; default 5). Without `--bench`
//! (`cargo test --benches`) it runs once on 2,000 packets to show that it works.

#[path = "support/realistic.rs"]
mod realistic;

use realistic::{blessed_dir, mix_file};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

struct Run {
    wall: f64,
    cpu: f64,
}

fn children_cpu_seconds() -> f64 {
    // SAFETY: rusage is plain integers, for which all zero bytes are a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage only writes the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let seconds = |time: libc::timeval| time.tv_sec as f64 + time.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

fn has_taskset() -> bool {
    Command::new("taskset")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// Runs `binary args...` (pinned to CPU 1 when asked) with stdout to /dev/null; returns its
/// wall and CPU time and its stderr.
fn run(binary: &Path, args: &[&str], pin: bool) -> (Run, String) {
    let mut command = if pin {
        let mut command = Command::new("taskset");
        command.arg("-c").arg("1").arg(binary);
        command
    } else {
        Command::new(binary)
    };
    command
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let cpu_before = children_cpu_seconds();
    let started = Instant::now();
    let output = command.output().expect("the binary runs");
    let wall = started.elapsed().as_secs_f64();
    let cpu = children_cpu_seconds() - cpu_before;
    (
        Run { wall, cpu },
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn stats_field(stats: &str, after: &str, until: char) -> Option<f64> {
    let start = stats.find(after)? + after.len();
    let rest = &stats[start..];
    rest[..rest.find(until)?].trim().parse().ok()
}

/// `check --stats` on `path` with each binary, `rounds` times: median packets/s, CPU per
/// packet and peak RSS, one line per binary.
fn check_stats(
    binaries: &[(&str, PathBuf)],
    path: &str,
    jobs: Option<&str>,
    rounds: usize,
    label: &str,
) {
    for (name, binary) in binaries {
        let mut rates = Vec::new();
        let mut cpu_per_packet = Vec::new();
        let mut rss = Vec::new();
        for _ in 0..rounds {
            let mut args = vec!["check", "--stats"];
            if let Some(jobs) = jobs {
                args.extend(["--jobs", jobs]);
            }
            args.push(path);
            let (_, stderr) = run(binary, &args, false);
            let stats = stderr
                .lines()
                .find(|line| line.starts_with("stats:"))
                .unwrap_or_default()
                .to_owned();
            rates.extend(stats_field(&stats, " s: ", ' '));
            cpu_per_packet.extend(stats_field(&stats, "(", ' '));
            rss.extend(stats_field(&stats, "peak RSS ", ' '));
        }
        if rates.is_empty() {
            println!("  {name}: no --stats line");
            continue;
        }
        println!(
            "  {label:8} {name:9} {:>7.0}k packets/s   {:>5.1} us CPU/packet   peak RSS {:.0} MiB",
            median(rates) / 1e3,
            median(cpu_per_packet),
            median(rss)
        );
    }
}

fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let rounds: usize = if full {
        std::env::var("CLI_BENCH_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(5)
    } else {
        1
    };
    let current = PathBuf::from(env!("CARGO_BIN_EXE_handoff-inspector"));
    let mut binaries = vec![("current", current)];
    if let Ok(baseline) = std::env::var("CLI_BENCH_BASELINE") {
        binaries.push(("baseline", PathBuf::from(baseline)));
    }
    let pin = has_taskset();
    let (convert_lines, check_copies) = if full { (20_000, 50) } else { (2_000, 1) };
    let convert_input = mix_file(convert_lines, 1);
    let convert_path = convert_input.to_string_lossy().into_owned();

    println!(
        "convert, {convert_lines} packets of the mix, one core{}, median of {rounds} interleaved rounds",
        if pin { " (taskset -c 1)" } else { "" }
    );
    for mode in ["strict", "lenient"] {
        let mut runs: Vec<Vec<Run>> = binaries.iter().map(|_| Vec::new()).collect();
        for _ in 0..rounds {
            for (index, (_, binary)) in binaries.iter().enumerate() {
                let args = [
                    "convert",
                    "--mode",
                    mode,
                    "--adapter-version",
                    "5.4.0",
                    &convert_path,
                ];
                runs[index].push(run(binary, &args, pin).0);
            }
        }
        for ((name, _), runs) in binaries.iter().zip(runs) {
            let wall = median(runs.iter().map(|run| run.wall).collect());
            let cpu = median(runs.iter().map(|run| run.cpu).collect());
            println!(
                "  {mode:8} {name:9} {:>7.0}k packets/s   {:>7.0}k packets per CPU-second",
                convert_lines as f64 / wall / 1e3,
                convert_lines as f64 / cpu.max(1e-9) / 1e3
            );
        }
    }

    let check_input = mix_file(convert_lines, check_copies);
    let check_path = check_input.to_string_lossy().into_owned();
    let packets = convert_lines * check_copies;
    let check_rounds = rounds.min(3);
    println!("check --stats, {packets} lines of the mix, both modes, median of {check_rounds}");
    for jobs in [None, Some("1")] {
        let label = if jobs.is_some() {
            "--jobs 1"
        } else {
            "all cores"
        };
        check_stats(&binaries, &check_path, jobs, check_rounds, label);
    }

    // `check` against the goldens `bless` wrote (issue 24: the manifest is read from an index
    // on disk, not held): 200k lines (99 MB goldens.json) and 1M lines (497 MB).
    let blessed_copies: &[usize] = if full { &[10, 50] } else { &[1] };
    for &copies in blessed_copies {
        let dir = blessed_dir(&binaries[0].1, convert_lines, copies);
        let dir = dir.to_string_lossy().into_owned();
        println!(
            "check --stats against goldens.json (after bless), {} lines, median of {check_rounds}",
            convert_lines * copies
        );
        check_stats(&binaries, &dir, None, check_rounds, "all cores");
    }
    let _ = std::io::stdout().lock().flush();
}
