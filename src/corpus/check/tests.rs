//! The status rules through `check_packet`, one kind of packet or golden at a time.

use super::*;
use crate::a2a::{convert, ErrorKind, Mode};
use crate::corpus::{CheckFinding, FindingKind, RawPacket, Source, Status};
use crate::freeze::HandoffState;
use crate::golden::ModeGolden;
use serde_json::Value;

const POSITIVE: &str = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"message":{"id":"m"}}"#;

fn raw(text: &[u8]) -> RawPacket {
    RawPacket {
        source: Source::file("d/p.json"),
        offset: 0,
        bytes: text.to_vec(),
        bundle: None,
        in_bundle: None,
    }
}

fn check(text: &[u8], golden: GoldenLookup<'_>) -> PacketCheck {
    check_packet(&raw(text), &CheckOptions::default(), golden, &[None, None])
}

#[test]
fn without_golden_a_clean_raw_packet_is_no_golden() {
    let result = check(
        POSITIVE.as_bytes(),
        GoldenLookup::Missing("no goldens.json in d"),
    );
    assert_eq!(result.status, Status::NoGolden);
    assert_eq!(result.findings[0].message, "no goldens.json in d");
    assert_eq!(
        result.mode(Mode::Strict).unwrap().golden,
        GoldenVerdict::Missing
    );
}

#[test]
fn recorded_entry_conforms_and_a_changed_one_mismatches() {
    let first = check(POSITIVE.as_bytes(), GoldenLookup::Missing("none"));
    let entry = first.recorded().unwrap();
    let again = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&entry));
    assert_eq!(again.status, Status::Conforms, "{:?}", again.findings);

    let mut drifted = entry.clone();
    let strict = drifted.modes[0].as_mut().unwrap();
    strict.state = Some(HandoffState::Defaults);
    strict.handoff = crate::json::Digest::from_hex(HandoffState::Defaults.digest_hex());
    let result = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&drifted));
    assert_eq!(result.status, Status::Mismatch);
    assert_eq!(result.mode(Mode::Strict).unwrap().status, Status::Mismatch);
    assert_eq!(result.mode(Mode::Lenient).unwrap().status, Status::Conforms);
    let finding = &result.findings[0];
    assert!(
        finding.message.starts_with(
            "strict: state defaults -> task_and_message_refs; handoff 60e992b4881c -> e478af7359a2"
        ),
        "{}",
        finding.message
    );
    let diff = finding.diff.as_ref().unwrap();
    assert_eq!(diff.total_changes, 4);
}

#[test]
fn expected_error_recorded_for_bytes_that_are_not_json() {
    let bytes = b"\xEF\xBB\xBF{}";
    let unrecorded = check(bytes, GoldenLookup::Missing("none"));
    assert_eq!(unrecorded.status, Status::Error);
    assert!(unrecorded.findings[0].message.contains("byte-order mark"));
    let entry = unrecorded.recorded().unwrap();
    assert_eq!(
        entry.mode(Mode::Strict).unwrap().error,
        Some(ErrorKind::Measurement)
    );
    assert_eq!(
        check(bytes, GoldenLookup::Entry(&entry)).status,
        Status::Conforms
    );
}

#[test]
fn duplicate_keys_are_findings_unless_acknowledged() {
    let bytes = br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"x","kind":"delegation"}}"#;
    let first = check(bytes, GoldenLookup::Missing("none"));
    assert_eq!(first.status, Status::Finding);
    assert_eq!(first.duplicate_key_paths.to_vec(), vec!["$.task.kind"]);
    let entry = first.recorded().unwrap();
    assert_eq!(
        check(bytes, GoldenLookup::Entry(&entry)).status,
        Status::Conforms
    );
    // The acknowledgement no longer holds once the packet changes.
    let fixed = POSITIVE.as_bytes();
    let mut stale = check(fixed, GoldenLookup::Missing("none"))
        .recorded()
        .unwrap();
    stale.duplicate_keys = entry.duplicate_keys.clone();
    assert_eq!(
        check(fixed, GoldenLookup::Entry(&stale)).status,
        Status::Mismatch
    );
}

#[test]
fn expected_error_against_a_conversion() {
    let mut entry = check(POSITIVE.as_bytes(), GoldenLookup::Missing("none"))
        .recorded()
        .unwrap();
    entry.modes[0] = Some(ModeGolden {
        error: Some(ErrorKind::Measurement),
        rule: Some("S3".to_owned()),
        ..ModeGolden::default()
    });
    let result = check(POSITIVE.as_bytes(), GoldenLookup::Entry(&entry));
    assert!(result.findings[0].message.starts_with(
        "strict: golden expects error measurement (S3), the conversion gives task_and_message_refs"
    ));
}

#[test]
fn canonical_input_is_audited_and_unknown_is_not_checked() {
    let bad = br#"{"adapter_id":"assay-adapter-a2a","agent":{"id":"a"},"handoff":{"visible":true,"source_kind":"unknown","task_ref_visible":false,"message_ref_visible":false}}"#;
    let result = check(bad, GoldenLookup::Missing("none"));
    assert_eq!(result.status, Status::Finding);
    let kinds: Vec<FindingKind> = result.findings.iter().map(|finding| finding.kind).collect();
    assert!(kinds.contains(&FindingKind::AuditError));
    assert!(kinds.contains(&FindingKind::NoGolden));
    assert!(result
        .findings
        .iter()
        .filter(|finding| finding.kind == FindingKind::AuditError)
        .all(|finding| finding.rule.is_some()));

    // Recorded, the audit errors are what the packet is for; changed, they are drift.
    let entry = result.recorded().unwrap();
    let again = check(bad, GoldenLookup::Entry(&entry));
    // Failing exactly as recorded: an intentional negative, never shown as conforming.
    assert_eq!(
        again.status,
        Status::FailsAsRecorded,
        "{:?}",
        again.findings
    );
    assert!(!again.status.fails(true));
    assert_eq!(again.recorded_findings.len(), kinds.len() - 1);
    let fixed = br#"{"adapter_id":"assay-adapter-a2a","agent":{"id":"a"},"handoff":{"visible":false,"source_kind":"unknown","task_ref_visible":false,"message_ref_visible":false}}"#;
    let drifted = check(fixed, GoldenLookup::Entry(&entry));
    assert_eq!(drifted.status, Status::Mismatch);
    assert!(
        drifted.findings[0].message.contains("failing "),
        "{}",
        drifted.findings[0].message
    );
    // An array is the adapter's input (it rejects it); a foreign JSON-RPC message is unknown.
    assert_eq!(
        check(b"[1,2]", GoldenLookup::Missing("none")).status,
        Status::NoGolden
    );
    assert_eq!(
        check(
            br#"{"jsonrpc":"2.0","id":1,"result":3}"#,
            GoldenLookup::Missing("none")
        )
        .status,
        Status::NotChecked
    );
}

#[test]
fn paired_payload_is_compared_with_a_diff() {
    let dir = tempfile::tempdir().unwrap();
    let packet = raw(POSITIVE.as_bytes());
    let converted = convert(POSITIVE.as_bytes(), &Default::default());
    let mut payload = converted.converted().unwrap().payload().clone();
    let strict_path = dir.path().join("p.strict.payload.json");
    std::fs::write(&strict_path, serde_json::to_vec_pretty(&payload).unwrap()).unwrap();
    let lenient_path = dir.path().join("p.lenient.payload.json");
    payload["task"]["kind"] = Value::from("analysis");
    std::fs::write(&lenient_path, serde_json::to_vec(&payload).unwrap()).unwrap();
    let result = check_packet(
        &packet,
        &CheckOptions::default(),
        GoldenLookup::Missing("none"),
        &[Some(strict_path), Some(lenient_path)],
    );
    let mismatches: Vec<&CheckFinding> = result
        .findings
        .iter()
        .filter(|finding| finding.kind == FindingKind::PairedMismatch)
        .collect();
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].mode, Some(Mode::Lenient));
    let diff = mismatches[0].diff.as_ref().unwrap();
    assert_eq!(
        diff.changes[0].describe(),
        "~ $.task.kind: \"analysis\" -> \"delegation\""
    );
    assert!(diff.lines.contains("--- p.lenient.payload.json"));
    assert_eq!(result.mode(Mode::Strict).unwrap().status, Status::NoGolden);
}

#[test]
fn a_duplicate_key_finding_names_twenty_paths_and_counts_the_rest() {
    let members: Vec<String> = (0..25)
        .map(|index| format!(r#""k{index}":1,"k{index}":2"#))
        .collect();
    let bytes = format!(
        r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},{}}}"#,
        members.join(",")
    );
    let checked = check(bytes.as_bytes(), GoldenLookup::Missing("none"));
    assert_eq!(checked.duplicate_key_paths.len(), 25);
    let message = &checked
        .findings
        .iter()
        .find(|finding| finding.kind == FindingKind::DuplicateKeys)
        .unwrap()
        .message;
    assert!(
        message.starts_with("duplicate keys at $.k0 $.k1 ")
            && message.contains(" $.k19 and 5 more: a JSON parser keeps the last value")
            && !message.contains("$.k20"),
        "{message}"
    );
}
