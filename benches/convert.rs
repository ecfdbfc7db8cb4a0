//! Conversion + digests (payload, handoff, discovery) on the bundled fixture packets, one core.
//! Run: `cargo bench --bench convert`; criterion prints packets/s as "thrpt".

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use handoff_inspector::a2a::{convert, ConvertOptions, Mode};
use std::hint::black_box;

fn fixture_packets() -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/a2a");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .collect()
        })
        .unwrap_or_default();
    paths.retain(|path| {
        let name = path
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        name.ends_with(".json") && !name.ends_with(".payload.json")
    });
    paths.sort();
    paths
        .iter()
        .filter_map(|path| std::fs::read(path).ok())
        .collect()
}

fn conversion_and_digests(c: &mut Criterion) {
    let packets = fixture_packets();
    let mut group = c.benchmark_group("convert+digests");
    group.throughput(Throughput::Elements(packets.len() as u64));
    for mode in [Mode::Strict, Mode::Lenient] {
        let options = ConvertOptions::default().with_mode(mode);
        group.bench_function(mode.name(), |bench| {
            bench.iter(|| {
                for packet in &packets {
                    let conversion = convert(black_box(packet), &options);
                    if let Some(converted) = conversion.converted() {
                        black_box((
                            converted.payload_digest(),
                            converted.handoff_digest(),
                            converted.discovery_digest(),
                        ));
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, conversion_and_digests);
criterion_main!(benches);
