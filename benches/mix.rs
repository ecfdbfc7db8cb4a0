//! The realistic mix: the 20,000 packets the upstream adapter's output was recorded for
//! (tests/data/oracle/a2a-mixed-20k.ndjson.gz), in process, one core, both modes: conversion
//! only, and conversion + the whole `convert` output line (batch, digests, terminal-safe).
//! Run: `cargo bench --bench mix`; criterion prints packets/s as "thrpt".

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use flate2::read::GzDecoder;
use handoff_inspector::a2a::{convert, ConvertOptions, Mode};
use handoff_inspector::corpus::Source;
use handoff_inspector::report::convert_line::convert_line;
use std::hint::black_box;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

fn mix() -> Vec<Vec<u8>> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/oracle/a2a-mixed-20k.ndjson.gz");
    let Ok(file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    BufReader::new(GzDecoder::new(file))
        .split(b'\n')
        .map_while(Result::ok)
        .collect()
}

fn realistic_mix(c: &mut Criterion) {
    let packets = mix();
    let stream: Arc<Path> = Arc::from(Path::new("mix.ndjson"));
    let mut group = c.benchmark_group("mix20k");
    group.throughput(Throughput::Elements(packets.len() as u64));
    group.sample_size(10);
    for mode in [Mode::Strict, Mode::Lenient] {
        let options = ConvertOptions {
            adapter_version: "5.4.0".into(),
            ..ConvertOptions::default()
        }
        .with_mode(mode);
        group.bench_function(format!("convert/{}", mode.name()), |bench| {
            bench.iter(|| {
                for packet in &packets {
                    black_box(convert(packet, &options));
                }
            })
        });
        group.bench_function(format!("convert+line/{}", mode.name()), |bench| {
            bench.iter(|| {
                for (index, packet) in packets.iter().enumerate() {
                    let conversion = convert(packet, &options);
                    let source = Source::line(stream.clone(), index + 1);
                    black_box(convert_line(&source, &conversion).ok());
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, realistic_mix);
criterion_main!(benches);
