//! Verifying and loading a 100,000-event bundle (upstream's `max_events`): CPU seconds of one
//! thread per 100k events, for docs/performance.md. Three figures: `verify`'s
//! streamed verification (`verify_reader`: verdict and counts, each line dropped once
//! checked), verify + load (`open_bytes`) alone, and verify + load + the packets every face
//! gets (`packets_of`) together, each the median of the runs. `BUNDLE_FILE=PATH` times an
//! existing bundle instead (docs/performance.md's 93,012-event mix).
//!
//! The events are the 100 of the upstream-written `valid-04-hundred` bundle (strict and
//! lenient A2A conversions, ~1.1 KB a line) repeated 1,000 times, re-sequenced and written
//! with the project's writer. `BUNDLE_EVENTS` changes the count; `BUNDLE_RUNS` the repeats.

use handoff_inspector::bundle::write::{assign_run, write_bundle};
use handoff_inspector::bundle::{open_bytes, open_path, verify_reader, Limits};
use handoff_inspector::corpus::packets_of;
use serde_json::Value;
use std::path::Path;
use std::time::Instant;

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// CPU time of the calling thread (user + system) in seconds, from /proc (100 Hz ticks).
fn thread_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap_or_default();
    let after_name = stat.rfind(')').map_or("", |end| &stat[end + 1..]);
    let fields: Vec<f64> = after_name
        .split_whitespace()
        .map(|field| field.parse().unwrap_or(0.0))
        .collect();
    (fields.get(11).copied().unwrap_or(0.0) + fields.get(12).copied().unwrap_or(0.0)) / 100.0
}

/// Writes `count` events (the sample's 100, cycled) to `out`; returns the bundle's bytes.
fn write_events(count: usize, out: &Path) -> Vec<u8> {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bundles/valid-04-hundred.tar.gz");
    let opened = open_path(&sample, &Limits::default()).expect("sample bundle opens");
    let lines = opened.events.expect("sample has events");
    let base: Vec<Value> = (0..lines.len())
        .map(|i| serde_json::from_slice(lines.content(i)).expect("sample lines are JSON"))
        .collect();
    let mut events: Vec<Value> = base.iter().cycle().take(count).cloned().collect();
    assign_run(&mut events, "bench-run").expect("run id");
    let started = Instant::now();
    let cpu = thread_cpu_seconds();
    let written = write_bundle(&events).expect("bundle written");
    let write_cpu = thread_cpu_seconds() - cpu;
    let write_wall = started.elapsed().as_secs_f64();
    let _ = std::fs::write(out, &written.bytes);
    println!(
        "bundle: {count} events, {} bytes gzip ({}); written in {write_cpu:.2} s CPU ({write_wall:.2} s wall)",
        written.bytes.len(),
        out.display()
    );
    written.bytes
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --all-targets` (CI) runs this binary without
    // it, in a debug build: then a small smoke run (200 events, once) that still checks.
    let full = std::env::args().any(|arg| arg == "--bench");
    let count = env_count("BUNDLE_EVENTS", if full { 100_000 } else { 200 });
    let runs = env_count("BUNDLE_RUNS", if full { 5 } else { 1 });
    let name = if full {
        "bench-bundle-100k.tar.gz"
    } else {
        "bench-bundle-smoke.tar.gz"
    };
    let out = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join(name);
    // BUNDLE_REUSE=1: verify the bundle a previous run wrote (for profiling the reader alone).
    let reuse = std::env::var_os("BUNDLE_REUSE").filter(|_| full);
    let given = std::env::var_os("BUNDLE_FILE").filter(|_| full);
    let bytes = match (&given, reuse.and_then(|_| std::fs::read(&out).ok())) {
        (Some(file), _) => std::fs::read(file).expect("BUNDLE_FILE reads"),
        (None, Some(bytes)) => bytes,
        (None, None) => write_events(count, &out),
    };
    let count = match given {
        Some(_) => verify_reader(&bytes[..], &Limits::default())
            .event_count()
            .unwrap_or(0) as usize,
        None => count,
    };
    let mut streamed = Vec::new();
    for _ in 0..runs {
        let cpu = thread_cpu_seconds();
        let verdict = verify_reader(&bytes[..], &Limits::default());
        streamed.push(thread_cpu_seconds() - cpu);
        assert!(verdict.is_valid(), "{:?}", verdict.error());
        assert_eq!(verdict.event_count(), Some(count as u64));
    }
    streamed.sort_by(f64::total_cmp);
    println!(
        "verify streamed (verify_reader, what `verify` runs; one thread, {runs} runs): median {:.2} s CPU for {count} events (range {:.2}-{:.2} s)",
        streamed[streamed.len() / 2],
        streamed[0],
        streamed[streamed.len() - 1]
    );
    let mut cpus = Vec::new();
    let mut walls = Vec::new();
    let mut packet_cpus = Vec::new();
    let mut totals = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let cpu = thread_cpu_seconds();
        let bundle = open_bytes(&bytes, &Limits::default());
        let spent = thread_cpu_seconds() - cpu;
        walls.push(started.elapsed().as_secs_f64());
        assert!(bundle.is_valid(), "{:?}", bundle.error());
        assert_eq!(bundle.event_count(), Some(count as u64));
        let decoded = bundle.events.as_ref().map_or(0, |e| e.text.len());
        cpus.push(spent);
        // The packets every face gets from it (report, lint rules, one packet per event).
        let cpu = thread_cpu_seconds();
        let packets = packets_of(&out, bundle);
        let packets_cpu = thread_cpu_seconds() - cpu;
        packet_cpus.push(packets_cpu);
        totals.push(spent + packets_cpu);
        assert_eq!(packets.events.len(), count);
        drop(packets);
        if cpus.len() == 1 {
            println!("decoded events.ndjson: {decoded} bytes");
        }
    }
    cpus.sort_by(f64::total_cmp);
    packet_cpus.sort_by(f64::total_cmp);
    totals.sort_by(f64::total_cmp);
    walls.sort_by(f64::total_cmp);
    let median_cpu = cpus[cpus.len() / 2];
    let per_100k = median_cpu * 100_000.0 / count as f64;
    println!(
        "verify + load (one thread, {runs} runs): median {median_cpu:.2} s CPU, {:.2} s wall; {per_100k:.2} s CPU per 100k events (range {:.2}-{:.2} s)",
        walls[walls.len() / 2],
        cpus[0],
        cpus[cpus.len() - 1]
    );
    println!(
        "then its packets (report, lint rules, one packet per event): median {:.2} s CPU",
        packet_cpus[packet_cpus.len() / 2]
    );
    let median_total = totals[totals.len() / 2];
    println!(
        "verify + load + packets together: median {median_total:.2} s CPU; {:.2} s CPU per 100k events (range {:.2}-{:.2} s)",
        median_total * 100_000.0 / count as f64,
        totals[0],
        totals[totals.len() - 1]
    );
}
