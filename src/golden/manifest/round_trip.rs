//! Render then parse gives back the same manifest: the reader and the writer agree.

use super::*;
use crate::a2a::{ConvertOptions, ErrorKind};
use crate::freeze::{HandoffState, RowSet, COVERAGE_ROW_IDS};
use crate::golden::object::ObjectGolden;
use crate::json::Digest;
use crate::packet::PacketKind;

fn sample() -> GoldenManifest {
    let mut manifest = GoldenManifest::new(&ConvertOptions::default());
    let mut rows = RowSet::default();
    for id in ["P", "TR", "MR"] {
        rows.insert(id);
    }
    let converted = ModeGolden {
        rows: Some(rows),
        state: Some(HandoffState::TaskAndMessageRefs),
        handoff: Digest::from_hex(HandoffState::TaskAndMessageRefs.digest_hex()),
        discovery: Some(crate::json::digest_bytes(b"d")),
        payload: Some(crate::json::digest_bytes(b"p")),
        ..ModeGolden::default()
    };
    manifest.packets.insert(
        PacketKey::file("happy.json"),
        GoldenEntry {
            duplicate_keys: vec!["$.task.kind".to_owned()],
            modes: [Some(converted.clone()), Some(converted)],
            object: None,
            content: crate::golden::Contents {
                modes: [
                    crate::golden::Content::of(&serde_json::json!({
                        "handoff": {"visible": true},
                        "task": {"id": "t\u{202e}1"}
                    })),
                    None,
                ],
                object: None,
            },
        },
    );
    manifest.packets.insert(
        PacketKey::file("task.v03.json"),
        GoldenEntry {
            object: Some(Box::new(ObjectGolden {
                kind: PacketKind::A2aV03,
                object: crate::json::digest_bytes(b"o"),
                state: None,
                migrated: Some(crate::json::digest_bytes(b"m")),
                verdict: None,
                run_root: None,
                signer: None,
                failing: vec!["mixed-versions".to_owned(), "V10-3".to_owned()],
                warning: Vec::new(),
            })),
            content: crate::golden::Contents {
                modes: [None, None],
                object: crate::golden::Content::of(
                    &serde_json::json!({"kind": "task", "n": [1, 2.5]}),
                ),
            },
            ..GoldenEntry::default()
        },
    );
    manifest.packets.insert(
        PacketKey::file("b.tar.gz"),
        GoldenEntry {
            object: Some(Box::new(ObjectGolden {
                kind: PacketKind::Bundle,
                object: crate::json::digest_bytes(b"manifest"),
                state: None,
                migrated: None,
                verdict: Some("valid".to_owned()),
                run_root: Some(format!("sha256:{}", "ab".repeat(32))),
                signer: Some(format!("sha256:{}", "cd".repeat(32))),
                failing: Vec::new(),
                warning: Vec::new(),
            })),
            ..GoldenEntry::default()
        },
    );
    assert_eq!(
        PacketKey::parse("b.tar.gz:3"),
        PacketKey {
            file: "b.tar.gz".to_owned(),
            line: Some(3)
        }
    );
    manifest.packets.insert(
        PacketKey::parse("s.ndjson:10"),
        GoldenEntry {
            duplicate_keys: Vec::new(),
            modes: [
                Some(ModeGolden {
                    error: Some(ErrorKind::Measurement),
                    rule: Some("S3".to_owned()),
                    ..ModeGolden::default()
                }),
                None,
            ],
            object: None,
            content: Default::default(),
        },
    );
    manifest
        .packets
        .insert(PacketKey::parse("s.ndjson:9"), GoldenEntry::default());
    manifest
}

#[test]
fn render_then_parse_round_trips() {
    let manifest = sample();
    let text = render_manifest(&manifest);
    assert_eq!(parse_manifest(text.as_bytes()), Ok(manifest.clone()));
    // Content is written indented, one field per line, and terminal-safe.
    assert!(
        text.contains("        \"content\": {\n          \"handoff\": {"),
        "{text}"
    );
    assert!(!text.contains('\u{202e}'), "{text}");
    // A v1 manifest (digests only) is still read: the same entries without content.
    let mut digests_only = manifest;
    for entry in digests_only.packets.values_mut() {
        entry.content = Default::default();
    }
    let v1 =
        render_manifest(&digests_only).replace(MANIFEST_FORMAT, "handoff-inspector goldens v1");
    assert!(v1.contains("goldens v1"));
    assert_eq!(parse_manifest(v1.as_bytes()), Ok(digests_only));
    // Natural line order, one field per line.
    let nine = text.find("s.ndjson:9").unwrap();
    let ten = text.find("s.ndjson:10").unwrap();
    assert!(nine < ten, "{text}");
    assert!(text.contains("\n        \"state\": \"task_and_message_refs\",\n"));
    assert!(text.ends_with("}\n"));
}

#[test]
fn empty_manifest_round_trips() {
    let manifest = GoldenManifest::new(&ConvertOptions::default());
    assert_eq!(
        parse_manifest(render_manifest(&manifest).as_bytes()),
        Ok(manifest)
    );
}

/// Entries of every shape a raw packet's golden takes (also what `typed` tests read).
pub(super) fn arbitrary_entry() -> impl proptest::strategy::Strategy<Value = GoldenEntry> {
    use proptest::prelude::*;
    let digest = proptest::option::of(any::<[u8; 32]>().prop_map(Digest));
    let rows = proptest::option::of(
        proptest::sample::subsequence(COVERAGE_ROW_IDS.to_vec(), 0..5).prop_map(|ids| {
            let mut rows = RowSet::default();
            for id in ids {
                rows.insert(id);
            }
            rows
        }),
    );
    let converted = (
        rows.clone(),
        proptest::option::of(proptest::sample::select(HandoffState::ALL.to_vec())),
        digest.clone(),
        digest.clone(),
        digest,
    )
        .prop_map(|(rows, state, handoff, discovery, payload)| ModeGolden {
            rows,
            state,
            handoff,
            discovery,
            payload,
            ..ModeGolden::default()
        });
    let rejected = (rows, "[A-Z][0-9]", any::<bool>()).prop_map(|(rows, rule, kind)| ModeGolden {
        error: Some(if kind {
            ErrorKind::Measurement
        } else {
            ErrorKind::StrictLossinessViolation
        }),
        rule: Some(rule),
        rows,
        ..ModeGolden::default()
    });
    let mode = proptest::option::of(prop_oneof![converted, rejected]);
    (
        proptest::collection::vec("\\PC{1,12}", 0..3),
        mode.clone(),
        mode,
    )
        .prop_map(|(duplicate_keys, strict, lenient)| GoldenEntry {
            object: None,
            duplicate_keys,
            modes: [strict, lenient],
            content: Default::default(),
        })
}

proptest::proptest! {
    #[test]
    fn any_manifest_round_trips(
        entries in proptest::collection::btree_map(
            proptest::strategy::Strategy::prop_map(("[a-z\\u{e9}\\u{202e} \"\\\\:]{1,10}", proptest::prelude::any::<bool>(), 1usize..5000),
                |(stem, stream, line): (String, bool, usize)| {
                    // A line number only ever belongs to a stream's key.
                    if stream {
                        (format!("{stem}.ndjson"), Some(line))
                    } else {
                        (format!("{stem}.json"), None)
                    }
                }),
            arbitrary_entry(),
            0..6,
        ),
        adapter in "\\PC{1,8}",
        depth in proptest::option::of(1usize..100),
    ) {
        let mut manifest = GoldenManifest::new(&ConvertOptions {
            adapter_version: adapter,
            max_json_depth: depth,
            ..ConvertOptions::default()
        });
        for ((file, line), entry) in entries {
            manifest.packets.insert(PacketKey { file, line }, entry);
        }
        let text = render_manifest(&manifest);
        proptest::prop_assert_eq!(parse_manifest(text.as_bytes()), Ok(manifest));
    }
}
