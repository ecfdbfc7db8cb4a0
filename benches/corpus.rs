//! Corpus-scale figures for `check`: where the time goes per packet (conversion, the rest of the
//! summary, the verdict, the pipeline), then the real binary end to end on a 1M-line NDJSON
//! file and on 100k single-packet files, with 1 and 2 worker threads and peak memory.
//!
//! Run: `cargo bench --bench corpus` (sizes: BENCH_LINES, BENCH_FILES; corpora are written
//! once under target/bench-corpus and reused). Prints figures; asserts nothing.

#[path = "support/synthetic.rs"]
mod synthetic;

use handoff_inspector::a2a::{convert, ConvertOptions, Mode};
use handoff_inspector::corpus::{
    check_packet, stream_packets, summarize, walk, CheckOptions, EvaluateOptions, GoldenLookup,
    PipelineOptions, RawPacket, Source,
};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// CPU time of the calling thread (user + system) in seconds, from /proc (100 Hz ticks): the
/// machine is shared, so per-packet figures are taken in CPU time, which other load inflates
/// far less than wall time.
fn thread_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let after_name = stat.rfind(')').map_or("", |end| &stat[end + 1..]);
    let fields: Vec<f64> = after_name
        .split_whitespace()
        .map(|field| field.parse().unwrap_or(0.0))
        .collect();
    (fields.get(11).copied().unwrap_or(0.0) + fields.get(12).copied().unwrap_or(0.0)) / 100.0
}

fn rate(count: u64, seconds: f64) -> String {
    format!("{:>9.0}/s", count as f64 / seconds.max(1e-9))
}

/// Single-thread cost of each stage, per packet, on `count` packets held in memory.
fn stages(count: u64) {
    let packets: Vec<RawPacket> = (0..count)
        .map(|index| RawPacket {
            source: Source::file("mem.json"),
            offset: 0,
            bytes: synthetic::packet(index).into_bytes(),
            bundle: None,
            in_bundle: None,
        })
        .collect();
    let both = EvaluateOptions::default();
    let strict_only = EvaluateOptions {
        modes: vec![Mode::Strict],
        ..EvaluateOptions::default()
    };
    println!("stage (one thread, {count} packets in memory)   packets/s of CPU  CPU us/packet");
    // Each stage runs three times; the least CPU time is reported (other load only adds).
    let measure = |name: &str, run: &mut dyn FnMut(&RawPacket)| {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let started = thread_cpu_seconds();
            for packet in &packets {
                run(packet);
            }
            best = best.min(thread_cpu_seconds() - started);
        }
        println!(
            "  {name:<48} {}   {:>6.2}",
            rate(count, best),
            best * 1e6 / count as f64
        );
    };
    for mode in Mode::BOTH {
        let options = ConvertOptions::default().with_mode(mode);
        measure(
            &format!("a2a::convert + 3 digests, {mode}"),
            &mut |packet| {
                let conversion = convert(&packet.bytes, &options);
                if let Some(converted) = conversion.converted() {
                    black_box((
                        converted.payload_digest(),
                        converted.handoff_digest(),
                        converted.discovery_digest(),
                    ));
                }
            },
        );
    }
    let strict = ConvertOptions::default().with_mode(Mode::Strict);
    let lenient = ConvertOptions::default().with_mode(Mode::Lenient);
    let digests = |conversion: &handoff_inspector::a2a::Conversion| {
        if let Some(converted) = conversion.converted() {
            black_box((
                converted.payload_digest(),
                converted.handoff_digest(),
                converted.discovery_digest(),
            ));
        }
    };
    measure(
        "conversions check needs (lenient only where it differs)",
        &mut |packet| {
            let first = convert(&packet.bytes, &strict);
            digests(&first);
            let differs = match &first.result {
                Ok(converted) => !converted.lossiness.substitutions.is_empty(),
                Err(error) => !error.rule.starts_with('C'),
            };
            if differs {
                digests(&convert(&packet.bytes, &lenient));
            }
        },
    );
    measure("summarize, strict", &mut |packet| {
        black_box(summarize(packet, &strict_only));
    });
    measure("summarize, both modes", &mut |packet| {
        black_box(summarize(packet, &both));
    });
    let check_options = CheckOptions::default();
    measure(
        "check_packet (summary + verdict), both modes",
        &mut |packet| {
            black_box(check_packet(
                packet,
                &check_options,
                GoldenLookup::Missing("no goldens.json"),
                &[None, None],
            ));
        },
    );
}

/// The pipeline alone: read, batch, hand to the pool, deliver in order; no evaluation.
fn pipeline_only(path: &Path, jobs: usize) {
    let items = walk(&[path.to_path_buf()], &Default::default());
    let started = Instant::now();
    let mut count = 0u64;
    let _ = stream_packets(
        &items,
        PipelineOptions {
            jobs: Some(jobs),
            ..PipelineOptions::default()
        },
        &|_| false,
        |item| item.map(|packet| packet.bytes.len()).unwrap_or(0),
        |length| {
            count += 1;
            black_box(length);
        },
    );
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "  pipeline only (read + batch + ordered delivery), {jobs} job(s): {count} packets, {} ",
        rate(count, seconds)
    );
}

fn binary_run(label: &str, args: &[&str], report: &Path) {
    let Ok(report_file) = std::fs::File::create(report) else {
        println!("  {label}: cannot create {}", report.display());
        return;
    };
    let started = Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .args(args)
        .stdout(report_file)
        .output();
    let seconds = started.elapsed().as_secs_f64();
    let report_bytes = std::fs::metadata(report).map_or(0, |meta| meta.len());
    match output {
        Ok(output) => {
            let stats = String::from_utf8_lossy(&output.stderr)
                .lines()
                .find(|line| line.starts_with("stats:"))
                .unwrap_or("")
                .to_owned();
            println!(
                "  {label:<44} exit {} in {seconds:>6.2} s; {} bytes of report; {stats}",
                output.status.code().unwrap_or(-1),
                report_bytes
            );
        }
        Err(error) => println!("  {label}: cannot run the binary: {error}"),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --all-targets` (CI) runs this binary without
    // it, and must not spend minutes writing and checking a million packets.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("corpus bench: run it with `cargo bench --bench corpus`");
        return;
    }
    let lines = env_count("BENCH_LINES", 1_000_000);
    let files = env_count("BENCH_FILES", 100_000);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-corpus");
    let ndjson = root.join(format!("lines-{lines}.ndjson"));
    let tree = root.join(format!("files-{files}"));
    if let Err(error) = std::fs::create_dir_all(&root) {
        eprintln!("cannot create {}: {error}", root.display());
        return;
    }
    if !ndjson.exists() {
        println!("writing {} ...", ndjson.display());
        if let Err(error) = synthetic::write_ndjson(&ndjson, lines) {
            eprintln!("{error}");
            return;
        }
    }
    if !tree.exists() {
        println!("writing {} ...", tree.display());
        if let Err(error) = synthetic::write_files(&tree, files) {
            eprintln!("{error}");
            return;
        }
    }
    println!(
        "cores: {}",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    stages(env_count("BENCH_STAGE_PACKETS", 200_000));
    if std::env::var_os("BENCH_STAGES_ONLY").is_some() {
        return;
    }
    println!("pipeline overhead");
    for jobs in [1, 2] {
        pipeline_only(&ndjson, jobs);
    }
    pipeline_only(&tree, 2);
    let ndjson_arg = ndjson.to_string_lossy().into_owned();
    let tree_arg = tree.to_string_lossy().into_owned();
    println!("end to end (the release binary; --stats prints packets/s and peak RSS)");
    for (label, args) in [
        (
            "check NDJSON, both modes, 1 job",
            vec!["check", "--stats", "--jobs", "1", &ndjson_arg],
        ),
        (
            "check NDJSON, both modes, 2 jobs",
            vec!["check", "--stats", "--jobs", "2", &ndjson_arg],
        ),
        (
            "check NDJSON, strict only, 2 jobs",
            vec![
                "check",
                "--stats",
                "--mode",
                "strict",
                "--jobs",
                "2",
                &ndjson_arg,
            ],
        ),
        (
            "check NDJSON, both, 2 jobs, --format json",
            vec![
                "check",
                "--stats",
                "--format",
                "json",
                "--jobs",
                "2",
                &ndjson_arg,
            ],
        ),
        (
            "check NDJSON, both, 2 jobs, --format markdown",
            vec![
                "check",
                "--stats",
                "--format",
                "markdown",
                "--jobs",
                "2",
                &ndjson_arg,
            ],
        ),
        (
            "check files, both modes, 2 jobs",
            vec!["check", "--stats", "--jobs", "2", &tree_arg],
        ),
    ] {
        binary_run(label, &args, &root.join("last-report.out"));
    }
}
