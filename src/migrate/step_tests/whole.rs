//! Whole migrations over every case document and fixture: the judgement, the step texts, the
//! replays and the report agree with the migration they come from.

use super::forward::forward_cases;
use super::reverse::reverse_cases;
use crate::json::digest_value;
use crate::migrate::choices::Choices;
use crate::migrate::{Direction, Judgement, Migration};
use serde_json::{json, Value};

#[test]
fn a_judgement_is_what_the_whole_migration_concludes() {
    // Every case document and every fixture, both directions: the judgement `check` keeps
    // (steps run in place, nothing recorded) agrees with the full migration.
    for doc in every_doc() {
        for direction in [Direction::Forward, Direction::Reverse] {
            let full = Migration::run(&doc, direction, &Choices::none());
            let judged = Judgement::of(doc.clone(), direction);
            match (full, judged) {
                (Ok(full), Ok(judged)) => {
                    assert_eq!(judged.findings, full.findings, "{doc}");
                    assert_eq!(judged.result_digest, digest_value(&full.result), "{doc}");
                    assert_eq!(judged.detection.conflicts, full.detection.conflicts);
                }
                (Err(_), Err(_)) => {}
                (full, judged) => panic!("{doc}: {:?} vs {:?}", full.is_ok(), judged.is_ok()),
            }
        }
    }
}

#[test]
fn step_texts_diff_as_the_step_diff_and_a_dropped_result_is_rebuilt() {
    // Every fixture both ways: the texts `step_texts` hands over diff to the hunks
    // `step_diff` gives, and `result_without` nothing equals the result `drop_result` forgot.
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
    let mut checked = 0;
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let doc: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        for direction in [Direction::Forward, Direction::Reverse] {
            let Ok(mut migration) = Migration::run(&doc, direction, &Choices::none()) else {
                continue;
            };
            for index in 0..=migration.steps.len() {
                let texts = migration.step_texts(index);
                assert_eq!(texts.is_some(), index < migration.steps.len(), "{path:?}");
                let hunks = texts
                    .map(|(old, new)| crate::migrate::diff::text_hunks(&old, &new, 2))
                    .unwrap_or_default();
                assert_eq!(hunks, migration.step_diff(index, 2), "{path:?} {index}");
                checked += usize::from(!hunks.is_empty());
            }
            let result = migration.result.clone();
            migration.drop_result();
            assert_eq!(migration.result, Value::Null);
            assert_eq!(migration.result_without(&[]), result, "{path:?}");
        }
    }
    assert!(checked > 10, "only {checked} step diffs compared");
}

/// Every case document and every fixture of fixtures/migrate.
fn every_doc() -> Vec<Value> {
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/migrate");
    let mut docs: Vec<Value> = forward_cases()
        .into_iter()
        .chain(reverse_cases())
        .flat_map(|case| [case.applies, case.not])
        .collect();
    for entry in std::fs::read_dir(fixtures).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|ext| ext == "json") {
            docs.push(serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap());
        }
    }
    docs
}

/// Everything a migration shows, replays included, as text to compare.
fn everything(migration: &Migration) -> String {
    let mut shown = format!(
        "{}\n{:?}\n{:?}\n",
        serde_json::to_string_pretty(&migration.report()).unwrap(),
        migration.steps,
        migration.input()
    );
    migration.each_step_diff(2, |run, lines| {
        shown.push_str(run.step.id);
        for line in lines {
            shown.push_str(&format!("{}{}\n", line.tag.sign(), line.text));
        }
    });
    for run in &migration.steps {
        shown.push_str(&migration.result_without(&[run.step.id]).to_string());
    }
    for index in 0..migration.steps.len() {
        shown.push_str(&format!("{:?}", migration.step_diff(index, 1)));
    }
    shown
}

#[test]
fn a_migration_of_a_tree_given_up_replays_from_its_text_as_one_of_a_shared_tree() {
    // A tree given up is kept as its canonical text, parsed for the replays; a shared tree is
    // kept as it is. Reports, step records, diffs and results with steps off all agree, and
    // the input given back is the input (floats, escapes and non-ASCII text included).
    let mut docs = every_doc();
    docs.push(json!({"kind": "message", "role": "user", "messageId": "m",
        "parts": [{"kind": "data", "data": {"f": 0.1, "g": -0.0, "h": 1e300, "i": -7,
            "j": 18446744073709551615u64, "k": 2.5e-308, "s": "é\u{1}\"\\\u{202e}"}}]}));
    let mut compared = 0;
    for doc in docs {
        for direction in [Direction::Forward, Direction::Reverse] {
            let shared = Migration::run(
                std::sync::Arc::new(doc.clone()),
                direction,
                &Choices::none(),
            );
            let owned = Migration::run(doc.clone(), direction, &Choices::none());
            match (shared, owned) {
                (Ok(shared), Ok(owned)) => {
                    assert_eq!(*owned.input(), doc);
                    // The replay ends with the result (as the input when already at target).
                    let replayed = owned.each_step_diff_then_result(2, |_, _| {});
                    assert_eq!(replayed, owned.result, "{doc}");
                    assert_eq!(everything(&owned), everything(&shared), "{doc}");
                    compared += 1;
                }
                (Err(_), Err(_)) => {}
                (shared, owned) => panic!("{doc}: {:?} vs {:?}", shared.is_ok(), owned.is_ok()),
            }
        }
    }
    assert!(compared > 50, "only {compared} migrations compared");
}

#[test]
fn the_report_written_straight_out_is_the_report_built_as_a_value() {
    for doc in every_doc() {
        for direction in [Direction::Forward, Direction::Reverse] {
            let Ok(migration) = Migration::run(&doc, direction, &Choices::none()) else {
                continue;
            };
            let mut written = Vec::new();
            crate::migrate::write_report(&migration, &mut written).unwrap();
            let built = serde_json::to_string_pretty(&migration.report()).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), built, "{doc}");
        }
    }
}

#[test]
fn a_tree_too_deep_to_parse_again_is_kept_as_a_tree() {
    // serde_json refuses a 128th level; a tree built in code can be deeper than any parsed
    // one. The migration then keeps the tree (a copy) and its replays still work.
    let mut deep = json!("leaf");
    for _ in 0..130 {
        deep = json!([deep]);
    }
    let doc = json!({"kind": "message", "role": "user", "messageId": "m",
        "parts": [{"kind": "data", "data": {"deep": deep}}]});
    assert!(serde_json::from_str::<Value>(&doc.to_string()).is_err());
    let owned = Migration::run(doc.clone(), Direction::Forward, &Choices::none()).unwrap();
    assert_eq!(*owned.input(), doc);
    assert!(!owned.steps.is_empty());
    let shared = Migration::run(
        std::sync::Arc::new(doc),
        Direction::Forward,
        &Choices::none(),
    )
    .unwrap();
    assert_eq!(everything(&owned), everything(&shared));
}
