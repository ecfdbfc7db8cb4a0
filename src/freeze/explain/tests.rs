use super::*;

fn explain_text(text: &str, mode: Mode) -> Explanation {
    explain(text.as_bytes(), &ConvertOptions::default().with_mode(mode))
}

#[test]
fn positive_packet_is_decided_by_p_tr_mr() {
    let explanation = explain_text(
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"},"message":{"id":"m"}}"#,
        Mode::Strict,
    );
    let deciders: Vec<Vec<&str>> = explanation
        .fields
        .iter()
        .map(|field| field.decided_by.clone())
        .collect();
    assert_eq!(deciders, vec![vec!["P"], vec!["P"], vec!["TR"], vec!["MR"]]);
    assert_eq!(explanation.state, Some(HandoffState::TaskAndMessageRefs));
    assert_eq!(
        explanation.matched().collect::<Vec<_>>(),
        vec!["P", "TR", "MR"]
    );
}

#[test]
fn analysis_kind_is_decided_by_n5_with_evidence() {
    let explanation = explain_text(
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"analysis"}}"#,
        Mode::Strict,
    );
    assert_eq!(explanation.fields[0].decided_by, vec!["N5", "X5"]);
    let shown: Vec<String> = explanation.fields[0]
        .evidence
        .iter()
        .map(Evidence::describe)
        .collect();
    assert_eq!(
        shown,
        vec![
            r#"$.event_type = "task.requested""#,
            r#"$.task.kind = "analysis""#
        ]
    );
    assert_eq!(explanation.state, Some(HandoffState::Defaults));
}

/// The evidence of every row as it was held before it was read from the text: each
/// path the row names looked up in the packet's whole tree, N6 and X9 ending with every
/// unmapped key.
fn evidence_from_the_tree(explanation: &Explanation, tree: &Value) -> Vec<Vec<String>> {
    explanation
        .rows
        .iter()
        .map(|row| {
            let mut evidence: Vec<Evidence> = row
                .evidence
                .iter()
                .map(|evidence| Evidence::at(evidence.path.clone(), tree))
                .collect();
            if UNMAPPED_KEY_ROWS.contains(&row.rule) {
                let fields = explanation.conversion.fields.as_deref().unwrap();
                evidence.extend(
                    fields
                        .unmapped_keys
                        .iter()
                        .map(|key| Evidence::at(JsonPath::keys(&[key]), tree)),
                );
            }
            evidence.iter().map(Evidence::describe).collect()
        })
        .collect()
}

#[test]
fn evidence_read_from_the_text_is_the_trees() {
    let mut packets: Vec<Vec<u8>> = vec![
        br#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a","role":"r"},"task":{"id":"t"},"z":[1,{"b":2}],"y":"x","z":"last","\u0061b":null,"attributes":{"assay_g4":{"k":1}},"agent":{"id":"b"}}"#.to_vec(),
        br#"{"protocol":"a2a","version":"0.2","event_type":"artifact.shared","agent":{"id":"a"},"extra":1}"#.to_vec(),
    ];
    packets.extend(crate::json::test_fixtures::a2a_fixture_texts());
    let mut with_unmapped = 0;
    for bytes in packets {
        let Ok(tree) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        for mode in Mode::BOTH {
            let explanation = explain(&bytes, &ConvertOptions::default().with_mode(mode));
            if explanation.members().is_none() {
                continue;
            }
            let read: Vec<Vec<String>> = explanation
                .rows
                .iter()
                .map(|row| {
                    let evidence: Vec<String> =
                        explanation.evidence(row).map(|e| e.describe()).collect();
                    assert_eq!(evidence.len(), explanation.evidence_count(row));
                    evidence
                })
                .collect();
            assert_eq!(
                read,
                evidence_from_the_tree(&explanation, &tree),
                "{}",
                String::from_utf8_lossy(&bytes)
            );
            let unmapped = explanation.conversion.fields.as_deref().unwrap();
            with_unmapped += usize::from(!unmapped.unmapped_keys.is_empty());
        }
    }
    assert!(with_unmapped >= 4, "{with_unmapped}");
}

#[test]
fn matched_rows_agrees_with_the_explanation() {
    let packets = [
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a","role":"r"},"task":{"kind":"delegation"},"attributes":{"assay_g4":{}},"x":1}"#,
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.updated","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#,
        r#"{"protocol":"a2a","version":"0.2","event_type":"other","agent":{"id":"a"},"attributes":[1]}"#,
        r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"}}"#,
    ];
    for packet in packets {
        for mode in Mode::BOTH {
            let explanation = explain_text(packet, mode);
            let fast: Vec<&str> = matched_rows(&explanation.conversion).ids().collect();
            assert_eq!(
                fast,
                explanation.matched().collect::<Vec<_>>(),
                "{packet} {mode}"
            );
        }
    }
}

#[test]
fn rejected_before_fields_matches_no_row() {
    let explanation = explain_text("not json", Mode::Lenient);
    assert_eq!(explanation.matched().count(), 0);
    assert_eq!(explanation.conversion_rows, vec!["C3"]);
    assert!(explanation.fields.is_empty());
}

/// Reading the rows back from the emitted payload gives each field the deciders the raw
/// packet's explanation gives it, for every fixture packet in both modes.
#[test]
fn payload_explanation_agrees_with_the_raw_explanation() {
    let mut compared = 0;
    for entry in std::fs::read_dir("fixtures/a2a").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") || name.contains(".payload.") || name == "goldens.json" {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for mode in Mode::BOTH {
            let explanation = explain(&bytes, &ConvertOptions::default().with_mode(mode));
            let Some(converted) = explanation.conversion.converted() else {
                continue;
            };
            let substitutions = &converted.lossiness.substitutions;
            let read_back = explain_payload(
                converted.payload(),
                Some(converted.canonical_type),
                Some(substitutions),
            );
            // Without the lossiness notes, only an agent's literal `unknown-task` reads
            // differently (as the substituted id).
            let inferred =
                explain_payload(converted.payload(), Some(converted.canonical_type), None);
            if name != "literal_unknown_task_id.json" {
                assert_eq!(inferred.rows, read_back.rows, "{name} {mode}");
            }
            let deciders = |fields: &[FieldDecision]| {
                fields
                    .iter()
                    .map(|field| (field.field, field.value.clone(), field.decided_by.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                deciders(&read_back.fields),
                deciders(&explanation.fields),
                "{name} {mode}"
            );
            assert_eq!(
                read_back.rows,
                matched_rows(&explanation.conversion),
                "{name} {mode}"
            );
            compared += 1;
        }
    }
    assert!(compared > 10, "{compared}");
}
