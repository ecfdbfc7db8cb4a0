//! The bless plan: what it keeps, drops, reports and refuses.

use super::*;
use crate::a2a::{ConvertOptions, ErrorKind, Mode};
use crate::golden::{GoldenEntry, GoldenManifest, ModeGolden, PacketKey};
use std::collections::BTreeMap;

fn entry(error: ErrorKind) -> GoldenEntry {
    let golden = ModeGolden {
        error: Some(error),
        ..ModeGolden::default()
    };
    GoldenEntry {
        duplicate_keys: Vec::new(),
        modes: [Some(golden.clone()), Some(golden)],
        object: None,
        content: Default::default(),
    }
}

fn manifest_with(keys: &[&str]) -> GoldenManifest {
    let mut manifest = GoldenManifest::new(&ConvertOptions::default());
    for key in keys {
        manifest
            .packets
            .insert(PacketKey::file(*key), entry(ErrorKind::Measurement));
    }
    manifest
}

#[test]
fn never_drops_existing_packets_and_prunes_only_when_asked() {
    let existing = manifest_with(&["a.json", "gone.json", "other.json"]);
    let recorded = BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]);
    let still_exists = |key: &PacketKey| key.file == "other.json";
    let plan = plan_bless(
        Some(&existing),
        recorded.clone(),
        &Mode::BOTH,
        &ConvertOptions::default(),
        &still_exists,
        false,
    )
    .unwrap();
    assert!(plan.is_unchanged());
    assert_eq!(plan.unchanged, 1);
    assert_eq!(plan.manifest, existing);
    assert_eq!(plan.kept_gone, vec![PacketKey::file("gone.json")]);

    let pruned = plan_bless(
        Some(&existing),
        recorded,
        &Mode::BOTH,
        &ConvertOptions::default(),
        &still_exists,
        true,
    )
    .unwrap();
    assert_eq!(
        pruned.changes,
        vec![Change::Removed {
            key: PacketKey::file("gone.json")
        }]
    );
    assert!(pruned
        .manifest
        .packets
        .contains_key(&PacketKey::file("other.json")));
}

#[test]
fn reports_field_changes_and_additions() {
    let existing = manifest_with(&["a.json"]);
    let recorded = BTreeMap::from([
        (
            PacketKey::file("a.json"),
            entry(ErrorKind::StrictLossinessViolation),
        ),
        (PacketKey::file("b.json"), entry(ErrorKind::Measurement)),
    ]);
    let plan = plan_bless(
        Some(&existing),
        recorded,
        &[Mode::Lenient],
        &ConvertOptions::default(),
        &|_| true,
        false,
    )
    .unwrap();
    let shown: Vec<String> = plan.changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "~ a.json  lenient.error: measurement -> strict_lossiness_violation",
            "+ b.json  lenient: error measurement",
        ]
    );
    // Only the blessed mode changed; strict keeps its recorded value.
    let a = &plan.manifest.packets[&PacketKey::file("a.json")];
    assert_eq!(
        a.mode(Mode::Strict).unwrap().error,
        Some(ErrorKind::Measurement)
    );
    // A new packet gets only the modes blessed.
    let b = &plan.manifest.packets[&PacketKey::file("b.json")];
    assert!(b.mode(Mode::Strict).is_none());
}

#[test]
fn odd_recorded_values_are_shown_whole_and_safe() {
    // 64 bytes that are not a digest, with multi-byte characters: never cut mid-character.
    let rule = "é".repeat(32);
    let mut old = entry(ErrorKind::Measurement);
    old.modes[0].as_mut().unwrap().rule = Some(rule.clone());
    let mut existing = manifest_with(&[]);
    existing.packets.insert(PacketKey::file("a.json"), old);
    let plan = plan_bless(
        Some(&existing),
        BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]),
        &Mode::BOTH,
        &ConvertOptions::default(),
        &|_| true,
        false,
    )
    .unwrap();
    assert_eq!(
        plan.changes[0].to_string(),
        format!("~ a.json  strict.rule: {rule} -> absent")
    );
}

#[test]
fn changed_options_need_every_entry_recorded_again() {
    let existing = manifest_with(&["a.json", "b.json"]);
    let options = ConvertOptions {
        adapter_version: "9.0.0".to_owned(),
        ..ConvertOptions::default()
    };
    let partial = plan_bless(
        Some(&existing),
        BTreeMap::from([(PacketKey::file("a.json"), entry(ErrorKind::Measurement))]),
        &Mode::BOTH,
        &options,
        &|_| true,
        false,
    );
    let refused = partial.unwrap_err();
    assert!(matches!(refused, MergeError::Refused(_)));
    assert!(refused.to_string().contains("--adapter-version 3.4.0"));
    let full = plan_bless(
        Some(&existing),
        BTreeMap::from([
            (PacketKey::file("a.json"), entry(ErrorKind::Measurement)),
            (PacketKey::file("b.json"), entry(ErrorKind::Measurement)),
        ]),
        &Mode::BOTH,
        &options,
        &|_| true,
        false,
    )
    .unwrap();
    assert!(matches!(full.changes[0], Change::Options { .. }));
    assert_eq!(full.manifest.options.adapter_version, "9.0.0");
}
