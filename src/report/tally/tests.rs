//! The tally: statuses, coverage and the checklist evidence, for and against.

use super::checklist::*;
use super::*;
use crate::corpus::{check_packet, CheckOptions, GoldenLookup, RawPacket, Source};

fn packet(name: &str, text: &str) -> CheckItem {
    let raw = RawPacket {
        source: Source::file(name),
        offset: 0,
        bytes: text.as_bytes().to_vec(),
        bundle: None,
        in_bundle: None,
    };
    CheckItem::Packet(Box::new(check_packet(
        &raw,
        &CheckOptions::default(),
        GoldenLookup::Missing("no goldens.json in ."),
        &[None, None],
    )))
}

#[test]
fn tallies_statuses_coverage_and_checklist_evidence() {
    let mut tally = CheckTally::new(&Mode::BOTH, false, 10);
    tally.add(&packet(
        "positive.json",
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"kind":"delegation"},"message":{"id":"m"}}"#,
    ));
    tally.add(&packet(
        "updated.json",
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.updated","agent":{"id":"a","role":"r"},"task":{"id":"t","kind":"delegation"}}"#,
    ));
    tally.add(&packet("broken.json", "{"));
    assert_eq!(tally.packets, 3);
    assert_eq!(tally.status_count(Status::NoGolden), 2);
    assert_eq!(tally.status_count(Status::Error), 1);
    assert_eq!(tally.failing, 1);
    assert_eq!(tally.exit_code(), 1);
    assert_eq!(tally.cell("N3", Mode::Strict).unwrap().packets, 1);
    assert_eq!(tally.cell("N4", Mode::Lenient).unwrap().packets, 1);
    assert_eq!(tally.cell("N7", Mode::Lenient).unwrap().packets, 1);
    assert_eq!(
        tally.cell("SYN", Mode::Lenient).unwrap().examples,
        vec!["positive.json (lenient)"]
    );
    let answers: Vec<Answer> = tally
        .checklist
        .iter()
        .map(QuestionEvidence::answer)
        .collect();
    assert_eq!(
        answers,
        vec![
            Answer::Yes,
            Answer::Yes,
            Answer::Yes,
            Answer::Yes,
            Answer::Yes,
            Answer::Yes
        ]
    );
    assert_eq!(tally.group(FindingKind::NotJson).count, 1);
}

#[test]
fn audit_findings_are_counter_evidence() {
    let mut tally = CheckTally::new(&Mode::BOTH, false, 10);
    tally.add(&packet(
        "bad.payload.json",
        r#"{"adapter_id":"assay-adapter-a2a","upstream_event_type":"task.updated","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"handoff":{"visible":true,"source_kind":"typed_payload","task_ref_visible":true,"message_ref_visible":false},"unmapped_fields_count":0}"#,
    ));
    assert_eq!(tally.checklist[Q_PROMOTION].answer(), Answer::No);
    assert_eq!(tally.checklist[Q_TASK_UPDATED].answer(), Answer::No);
    assert!(tally.checklist[Q_TASK_UPDATED].counter_examples[0]
        .starts_with("bad.payload.json (audit): N7"));
    assert_eq!(tally.checklist[Q_SURFACE].answer(), Answer::Yes);
}
