//! The fixture tree as a gate: `check --require-golden fixtures` passes, and a drifted
//! negative of any kind (a profile negative, a migration negative, an audited payload) fails
//! it, naming the file and the field that changed.

use crate::common::{fixtures, run, FIXTURES_NOW};
use std::fs;
use std::path::Path;

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn gate(root: &Path) -> crate::common::Run {
    gate_at(FIXTURES_NOW, root)
}

fn gate_at(now: &str, root: &Path) -> crate::common::Run {
    run(&[
        "check",
        "--require-golden",
        "--now",
        now,
        &root.to_string_lossy(),
    ])
}

/// What the UAIX fixtures mean depends on the date (their envelopes expire on 2030-01-01), so
/// the gate is held at a fixed clock, here and in CI: at a later clock the positives expire.
#[test]
fn the_fixture_gate_is_held_at_a_fixed_clock() {
    let uaix = fixtures().join("profiles").join("uaix");
    assert_eq!(gate(&uaix).code, 0);
    let later = gate_at("2031-01-01T00:00:00Z", &uaix);
    assert_eq!(later.code, 1, "{}", later.stdout);
    assert!(later.stdout.contains("UAIX-08"), "{}", later.stdout);
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run"))
        .unwrap_or_default();
    let gate_line = ci
        .lines()
        .find(|line| line.contains("check --require-golden"))
        .unwrap_or("");
    assert!(
        gate_line.contains(&format!("--now {FIXTURES_NOW}")),
        "CI's gate runs at the fixtures' clock: {gate_line:?}"
    );
}

#[test]
fn the_fixture_tree_passes_its_own_gate() {
    let result = gate(&fixtures());
    assert_eq!(result.code, 0, "{}", result.stdout);
    assert!(
        result.stdout.contains("recorded negatives: "),
        "{}",
        result.stdout
    );
}

#[test]
fn a_drifted_negative_of_each_kind_fails_the_gate_by_name() {
    let cases = [
        // A profile negative: its content changes (the row still fails).
        ("profiles/uaix/neg-UAIX-10-secret.json", "object"),
        // A migration negative: the mixed-version signal is gone.
        ("migrate/bad/mixed-versions.v03.jsonrpc.json", "failing"),
        // An audited canonical payload: its content changes.
        ("migrate/not-a2a/canonical-payload.json", "object"),
    ];
    for (file, field) in cases {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("fixtures");
        copy_tree(&fixtures(), &root);
        assert_eq!(gate(&root).code, 0);
        let path = root.join(file);
        let text = fs::read_to_string(&path).unwrap();
        let changed = match file {
            f if f.contains("UAIX-10") => {
                text.replace("Run the migration test suite", "Run the suite")
            }
            f if f.contains("mixed-versions") => text
                .replace("TASK_STATE_WORKING", "working")
                .replace("ROLE_USER", "user"),
            _ => text.replace("\"t\"", "\"t2\""),
        };
        assert_ne!(changed, text, "{file}: the edit changed nothing");
        fs::write(&path, changed).unwrap();
        let result = gate(&root);
        assert_eq!(result.code, 1, "{file}\n{}", result.stdout);
        let named = result
            .stdout
            .lines()
            .find(|line| line.contains(file) && line.contains(&format!("{field} ")))
            .unwrap_or_else(|| panic!("{file} / {field} not named:\n{}", result.stdout));
        assert!(named.contains("->"), "{named}");
    }
}
