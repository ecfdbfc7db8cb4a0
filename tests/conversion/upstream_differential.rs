//! The converter against the upstream adapter's own recorded output (tests/data/oracle):
//! every one of 20,000 packets in both modes, whole batch canonicalized, error kinds equal.

use flate2::read::GzDecoder;
use handoff_inspector::a2a::{convert, ConvertOptions, Mode};
use handoff_inspector::json::canonical_bytes;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;

fn gz_lines(name: &str) -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/oracle")
        .join(name);
    let file = std::fs::File::open(&path).unwrap();
    BufReader::new(GzDecoder::new(file))
        .split(b'\n')
        .map(|line| line.unwrap())
        .collect()
}

fn differential(mode: Mode, expected_name: &str) {
    let packets = gz_lines("a2a-mixed-20k.ndjson.gz");
    let expected = gz_lines(expected_name);
    assert_eq!(packets.len(), 20_000);
    assert_eq!(expected.len(), packets.len());
    let options = ConvertOptions {
        adapter_version: "5.4.0".into(),
        ..ConvertOptions::default()
    }
    .with_mode(mode);
    let (mut converted, mut mismatches) = (0usize, Vec::new());
    for (index, (packet, want)) in packets.iter().zip(&expected).enumerate() {
        let want: Value = serde_json::from_slice(want).unwrap();
        let got = convert(packet, &options);
        let agrees = match (&got.result, want["ok"].as_bool()) {
            (Ok(batch), Some(true)) => {
                converted += 1;
                canonical_bytes(&batch.batch()) == canonical_bytes(&want["batch"])
            }
            (Err(error), Some(false)) => Some(error.kind.name()) == want["error_kind"].as_str(),
            _ => false,
        };
        if !agrees {
            mismatches.push(index + 1);
        }
    }
    assert!(
        mismatches.is_empty(),
        "{mode}: {} line(s) differ from upstream, first {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(10)]
    );
    // The corpus is what its README says (19% strict, 78% lenient convert): a check that
    // the comparison above really compared batches.
    let share = converted * 100 / packets.len();
    match mode {
        Mode::Strict => assert!((15..=25).contains(&share), "{share}%"),
        Mode::Lenient => assert!((70..=85).contains(&share), "{share}%"),
    }
}

#[test]
fn strict_batches_equal_upstream() {
    differential(Mode::Strict, "a2a-mixed-20k.upstream.strict.ndjson.gz");
}

#[test]
fn lenient_batches_equal_upstream() {
    differential(Mode::Lenient, "a2a-mixed-20k.upstream.lenient.ndjson.gz");
}

/// The same through the real binary: `convert --adapter-version 5.4.0` on an NDJSON stream
/// of the corpus prints, line for line, upstream's batch (canonicalized) or its error kind.
#[test]
fn convert_cli_prints_upstreams_batches() {
    let packets = gz_lines("a2a-mixed-20k.ndjson.gz");
    let dir = tempfile::tempdir().unwrap();
    let stream = dir.path().join("mix.ndjson");
    let take = 3_000;
    let mut text = Vec::new();
    for packet in &packets[..take] {
        text.extend_from_slice(packet);
        text.push(b'\n');
    }
    std::fs::write(&stream, text).unwrap();
    for (mode, expected_name) in [
        ("strict", "a2a-mixed-20k.upstream.strict.ndjson.gz"),
        ("lenient", "a2a-mixed-20k.upstream.lenient.ndjson.gz"),
    ] {
        let expected = gz_lines(expected_name);
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
            .args(["convert", "--adapter-version", "5.4.0", "--mode", mode])
            .arg(&stream)
            .output()
            .unwrap();
        let lines: Vec<&[u8]> = output
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        // Blank corpus lines (if any) are not packets; every other line is answered in order.
        assert!(
            lines.len() <= take && lines.len() + 10 > take,
            "{}",
            lines.len()
        );
        for line in lines {
            let got: Value = serde_json::from_slice(line).unwrap();
            let source = got["source"].as_str().unwrap();
            let number: usize = source.rsplit(':').next().unwrap().parse().unwrap();
            let want: Value = serde_json::from_slice(&expected[number - 1]).unwrap();
            assert_eq!(got["ok"], want["ok"], "{mode} line {number}");
            if got["ok"] == true {
                assert_eq!(
                    canonical_bytes(&got["batch"]),
                    canonical_bytes(&want["batch"]),
                    "{mode} line {number}"
                );
            } else {
                assert_eq!(
                    got["error"]["kind"], want["error_kind"],
                    "{mode} line {number}"
                );
            }
        }
    }
}

/// Issue 23: the adapter's input is the default reading. Every one of the 20,000 recorded raw
/// packets reads as the adapter's input (`raw`; `not-json` for the lines that are not JSON,
/// which the adapter rejects as such), and every batch upstream wrote, each of its events and
/// each event's payload reads as what it is: in both modes, all of them.
#[test]
fn every_recorded_packet_and_upstream_output_reads_as_what_it_is() {
    use handoff_inspector::corpus::{classify_as, PacketKind, Root};
    let kind_of = |bytes: &[u8]| {
        let parsed = serde_json::from_slice::<Value>(bytes).map_err(|error| error.to_string());
        let parsed = parsed.as_ref().map_err(String::as_str);
        classify_as(parsed.map(Root::Tree), Some("capture.json"), None)
    };
    let mut misread = Vec::new();
    for (index, packet) in gz_lines("a2a-mixed-20k.ndjson.gz").iter().enumerate() {
        let read = kind_of(packet);
        let json = serde_json::from_slice::<Value>(packet).is_ok();
        let expected = if json {
            PacketKind::RawA2a
        } else {
            PacketKind::NotJson
        };
        if read.kind != expected {
            misread.push(format!(
                "raw line {}: {} ({})",
                index + 1,
                read.kind.tag(),
                read.reason
            ));
        }
    }
    let mut outputs = [0usize; 3];
    for name in [
        "a2a-mixed-20k.upstream.strict.ndjson.gz",
        "a2a-mixed-20k.upstream.lenient.ndjson.gz",
    ] {
        for (index, line) in gz_lines(name).iter().enumerate() {
            let recorded: Value = serde_json::from_slice(line).unwrap();
            if recorded["ok"] != true {
                continue;
            }
            let batch = &recorded["batch"];
            let mut expect = |value: &Value, kind: PacketKind, slot: usize| {
                outputs[slot] += 1;
                let read = kind_of(value.to_string().as_bytes());
                if read.kind != kind {
                    misread.push(format!(
                        "{name}:{} {}: {}",
                        index + 1,
                        kind.tag(),
                        read.reason
                    ));
                }
            };
            expect(batch, PacketKind::AdapterBatch, 0);
            for event in batch["events"].as_array().unwrap() {
                expect(event, PacketKind::EvidenceEvent, 1);
                expect(&event["data"], PacketKind::CanonicalPayload, 2);
            }
        }
    }
    assert!(
        misread.is_empty(),
        "{} misread, first: {:?}",
        misread.len(),
        &misread[..misread.len().min(10)]
    );
    // Both modes' conversions were there to read (19% strict and 78% lenient convert).
    assert!(outputs.iter().all(|&count| count > 19_000), "{outputs:?}");
}

/// A small fixed-seed generator for raw captures (xorshift64*): the same corpus every run.
struct Captures(u64);

impl Captures {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    /// One raw capture as an A2A client or agent would leave it: mostly adapter packets, with
    /// the odd shapes real captures have (another protocol, an array root, members the adapter
    /// does not map, `agent` and `handoff` without `event_type`, bytes that are not JSON).
    fn capture(&mut self) -> Vec<u8> {
        use serde_json::json;
        match self.next() % 20 {
            0 => {
                return self
                    .pick(&[
                        &b""[..],
                        b"   \n",
                        b"{\"protocol\": \"a2a\", ",
                        b"\xEF\xBB\xBF{\"protocol\":\"a2a\"}",
                        b"not json at all",
                        b"{\"a\":\"\xe9\"}",
                        b"[1, 2,]",
                    ])
                    .to_vec()
            }
            1 => {
                let inner = self.object();
                let root = match self.next() % 5 {
                    0 => json!([inner]),
                    1 => json!([]),
                    2 => json!("task.requested"),
                    3 => json!(7),
                    _ => json!(null),
                };
                return root.to_string().into_bytes();
            }
            _ => {}
        }
        let mut object = self.object();
        if self.chance(30) {
            // `agent` + `handoff` without `event_type`: the shape once guessed as a payload.
            object.remove("event_type");
            object.insert(
                "handoff".into(),
                json!({"visible": self.chance(50), "route_kind": "delegate", "source_kind": "typed"}),
            );
            object.insert("agent".into(), json!({"id": "agent://worker"}));
        }
        let text = Value::Object(object).to_string();
        if self.chance(50) {
            text.into_bytes()
        } else {
            serde_json::to_vec_pretty(&serde_json::from_str::<Value>(&text).unwrap()).unwrap()
        }
    }

    fn object(&mut self) -> serde_json::Map<String, Value> {
        use serde_json::json;
        let mut object = serde_json::Map::new();
        let protocol = self
            .pick(&[
                json!("a2a"),
                json!("a2a"),
                json!("a2a"),
                json!("acp"),
                json!("mcp"),
                json!("A2A"),
                json!(5),
                json!(null),
                Value::Bool(false),
            ])
            .clone();
        if self.chance(90) {
            object.insert("protocol".into(), protocol);
        }
        if self.chance(85) {
            let version = self.pick(&["0.2", "0.3", "0.3.1", "1.0", "0", "v0.2"]);
            object.insert("version".into(), json!(version));
        }
        if self.chance(80) {
            let event_type = self.pick(&[
                "task.requested",
                "task.updated",
                "artifact.shared",
                "agent.capabilities",
                "session.unknown",
                "",
            ]);
            object.insert("event_type".into(), json!(event_type));
        }
        if self.chance(70) {
            object.insert("timestamp".into(), json!("2026-02-27T10:05:00Z"));
        }
        if self.chance(85) {
            let role = self
                .pick(&[json!("orchestrator"), json!(5), json!(null)])
                .clone();
            object.insert(
                "agent".into(),
                json!({"id": "agent://planner", "role": role}),
            );
        }
        if self.chance(70) {
            let kind = self
                .pick(&[
                    json!("delegation"),
                    json!("analysis"),
                    json!(["delegation"]),
                ])
                .clone();
            object.insert(
                "task".into(),
                json!({"id": "task-1", "kind": kind, "status": "working"}),
            );
        }
        if self.chance(50) {
            object.insert("message".into(), json!({"id": "msg-1", "role": "user"}));
        }
        if self.chance(25) {
            object.insert("artifact".into(), json!({"id": "art-1", "name": "plan.md"}));
        }
        if self.chance(40) {
            object.insert("attributes".into(), json!({"priority": "high", "tags": []}));
        }
        for (key, value) in [
            ("discovery", json!({"agent_card": true})),
            ("route_ref", json!("route://a")),
            ("unmapped_fields_count", json!(2)),
            ("schema", json!("a2a.task.v1")),
            ("Task", json!({"id": "x"})),
            ("extra_top_level", json!(true)),
            ("kind", json!("note")),
            ("status", json!("ok")),
            ("id", json!("capture-1")),
            ("metadata", json!({})),
        ] {
            if self.chance(8) {
                object.insert(key.into(), value);
            }
        }
        object
    }
}

/// A file of the mixed directory: its bytes, the kind `ls` must give it, and upstream's
/// recorded outcome per mode (strict, lenient) when it is one of the recorded packets.
type CorpusFile = (Vec<u8>, &'static str, Option<[Value; 2]>);

/// Issue 23 through the binary: a directory of raw captures (generated at a fixed seed, odd
/// shapes included, and 1,000 of the recorded packets) mixed with upstream's batches, events
/// and payloads, all under names that give no hint. `ls` reads every file as what it is, and
/// `convert DIR` gives every capture its line with the adapter's outcome: upstream's own for
/// the recorded packets, the documented one (`protocol must be 'a2a'`) for another protocol
/// or a root that is not an object.
#[test]
fn a_directory_of_captures_and_upstream_output_reads_as_what_it_is() {
    use handoff_inspector::a2a::Mode;
    use std::collections::BTreeMap;
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<CorpusFile> = Vec::new();
    let mut generator = Captures(0x23_2026_1128);
    for _ in 0..2_000 {
        let bytes = generator.capture();
        let kind = if serde_json::from_slice::<Value>(&bytes).is_ok() {
            "raw"
        } else {
            "not-json"
        };
        files.push((bytes, kind, None));
    }
    let packets = gz_lines("a2a-mixed-20k.ndjson.gz");
    let strict = gz_lines("a2a-mixed-20k.upstream.strict.ndjson.gz");
    let lenient = gz_lines("a2a-mixed-20k.upstream.lenient.ndjson.gz");
    let (mut batches, mut events, mut payloads) = (0, 0, 0);
    for index in (0..packets.len()).step_by(20) {
        let recorded = [&strict[index], &lenient[index]]
            .map(|line| serde_json::from_slice::<Value>(line).unwrap());
        let kind = if serde_json::from_slice::<Value>(&packets[index]).is_ok() {
            "raw"
        } else {
            "not-json"
        };
        files.push((packets[index].clone(), kind, Some(recorded.clone())));
        if let Some(batch) = recorded.iter().find(|line| line["ok"] == true) {
            let batch = &batch["batch"];
            let event = &batch["events"][0];
            files.push((batch.to_string().into_bytes(), "batch", None));
            files.push((serde_json::to_vec_pretty(event).unwrap(), "event", None));
            files.push((event["data"].to_string().into_bytes(), "payload", None));
            (batches, events, payloads) = (batches + 1, events + 1, payloads + 1);
        }
    }
    assert!(batches > 500 && events > 500 && payloads > 500);
    // Shuffled under hintless names, so that nothing but content can tell them apart.
    let mut order: Vec<usize> = (0..files.len()).collect();
    for at in (1..order.len()).rev() {
        order.swap(at, (generator.next() % (at as u64 + 1)) as usize);
    }
    let mut expected = BTreeMap::new();
    for (number, &index) in order.iter().enumerate() {
        let name = format!("c{number:05}.json");
        std::fs::write(dir.path().join(&name), &files[index].0).unwrap();
        expected.insert(name, index);
    }
    let name_of = |source: &str| source.rsplit('/').next().unwrap().to_owned();

    let root = dir.path().to_string_lossy().into_owned();
    let listed = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
        .args(["ls", "--format", "json", &root])
        .output()
        .unwrap();
    assert_eq!(listed.status.code(), Some(0));
    let mut misread = Vec::new();
    let mut seen = 0;
    for line in listed
        .stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
    {
        let line: Value = serde_json::from_slice(line).unwrap();
        let name = name_of(line["source"].as_str().unwrap());
        let (_, kind, _) = &files[expected[&name]];
        seen += 1;
        if line["kind"] != *kind {
            misread.push(format!(
                "{name}: {kind} read as {}: {}",
                line["kind"], line["reason"]
            ));
        }
    }
    assert_eq!(seen, files.len());
    assert!(
        misread.is_empty(),
        "{} misread: {:?}",
        misread.len(),
        &misread[..misread.len().min(10)]
    );

    let captures = files
        .iter()
        .filter(|(_, kind, _)| matches!(*kind, "raw" | "not-json"))
        .count();
    for (slot, mode) in Mode::BOTH.iter().enumerate() {
        let converted = std::process::Command::new(env!("CARGO_BIN_EXE_handoff-inspector"))
            .args([
                "convert",
                "--adapter-version",
                "5.4.0",
                "--mode",
                mode.name(),
                &root,
            ])
            .output()
            .unwrap();
        let mut answered = 0;
        for line in converted
            .stdout
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
        {
            let got: Value = serde_json::from_slice(line).unwrap();
            let name = name_of(got["source"].as_str().unwrap());
            let (bytes, kind, recorded) = &files[expected[&name]];
            assert!(
                matches!(*kind, "raw" | "not-json"),
                "{name}: a {kind} was converted"
            );
            answered += 1;
            match recorded {
                Some(recorded) => {
                    let want = &recorded[slot];
                    assert_eq!(got["ok"], want["ok"], "{mode} {name}");
                    if got["ok"] == true {
                        assert_eq!(
                            canonical_bytes(&got["batch"]),
                            canonical_bytes(&want["batch"]),
                            "{mode} {name}"
                        );
                    } else {
                        assert_eq!(got["error"]["kind"], want["error_kind"], "{mode} {name}");
                    }
                }
                None => {
                    let value = serde_json::from_slice::<Value>(bytes).ok();
                    let protocol = value.as_ref().and_then(|value| value.get("protocol"));
                    if value.is_some() && protocol != Some(&Value::String("a2a".into())) {
                        assert_eq!(got["error"]["kind"], "measurement", "{mode} {name}");
                        assert_eq!(
                            got["error"]["message"], "protocol must be 'a2a'",
                            "{mode} {name}"
                        );
                    }
                }
            }
        }
        assert_eq!(answered, captures, "{mode}: every capture gets its line");
        assert!(
            converted.stderr.ends_with(
                format!(
                    "skipped {} file(s) that are not the adapter's input\n",
                    files.len() - captures
                )
                .as_bytes()
            ),
            "{}",
            String::from_utf8_lossy(&converted.stderr)
        );
    }
}
