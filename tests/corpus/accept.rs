//! The inspector's accept of one golden (`corpus::accept_golden`, through `record_golden`, its
//! write without the refusal under CI) against `bless` through the binary: accepting one
//! packet writes the very bytes `bless` writes when that packet is the only change, through
//! the one writer both share, and a manifest with nothing to change is left as it was.

use crate::common::{copy_files, run_env};
use handoff_inspector::corpus::{
    record_golden, CheckItem, CheckOptions, Collect, CorpusCheck, PacketCheck,
};
use std::fs;
use std::path::Path;

fn packet(id: &str, kind: &str) -> String {
    format!(
        r#"{{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{{"id":"a"}},"task":{{"id":"{id}","kind":"{kind}"}}}}"#
    )
}

/// The manifest is the test's own, in a temporary directory: written even under CI.
fn bless(path: &Path) {
    let blessed = run_env(&["bless", &path.to_string_lossy()], &[("CI", None)]);
    assert_eq!(blessed.code, 0, "{}{}", blessed.stdout, blessed.stderr);
}

/// The check of the packet whose source ends with `wanted`, as the inspector holds it.
fn check_of(dir: &Path, wanted: &str) -> PacketCheck {
    checks_in(dir)
        .into_iter()
        .rfind(|check| check.summary.source.to_string().ends_with(wanted))
        .unwrap_or_else(|| panic!("no packet {wanted}"))
}

/// The checks of every packet under `dir`, as the inspector holds them.
pub fn checks_in(dir: &Path) -> Vec<PacketCheck> {
    let mut checks = Vec::new();
    CorpusCheck::new(&[dir.to_path_buf()], &CheckOptions::default())
        .run(&mut Collect(|item| {
            if let CheckItem::Packet(check) = item {
                checks.push(*check);
            }
        }))
        .unwrap();
    checks
}

/// `base` copied twice: `bless` of `named` in one, accept of the packet `wanted` in the other.
fn bless_and_accept(base: &Path, named: &str, wanted: &str) -> (Vec<u8>, Vec<u8>, usize) {
    let (blessed, accepted) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    copy_files(base, blessed.path());
    copy_files(base, accepted.path());
    bless(&blessed.path().join(named));
    let check = check_of(accepted.path(), wanted);
    let recorded = record_golden(&check, &CheckOptions::default()).unwrap();
    assert_eq!(recorded.manifest, accepted.path().join("goldens.json"));
    let temps: Vec<_> = fs::read_dir(accepted.path())
        .unwrap()
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "temporary files left: {temps:?}");
    (
        fs::read(blessed.path().join("goldens.json")).unwrap(),
        fs::read(accepted.path().join("goldens.json")).unwrap(),
        recorded.changes.len(),
    )
}

#[test]
fn accepting_one_packet_writes_the_bytes_bless_writes() {
    let base = tempfile::tempdir().unwrap();
    let dir = base.path();
    fs::write(dir.join("a.json"), packet("t-a", "delegation")).unwrap();
    fs::write(dir.join("b.json"), packet("t-b", "analysis")).unwrap();
    let stream = [packet("s1", "delegation"), packet("s2", "delegation")];
    fs::write(dir.join("s.ndjson"), stream.join("\n") + "\n").unwrap();
    bless(dir);
    let before = fs::read(dir.join("goldens.json")).unwrap();

    // A packet not in the manifest: added.
    fs::write(dir.join("c.json"), packet("t-c", "delegation")).unwrap();
    let (blessed, accepted, changes) = bless_and_accept(dir, "c.json", "c.json");
    assert_eq!(changes, 1);
    assert_ne!(blessed, before);
    assert_eq!(
        String::from_utf8_lossy(&accepted),
        String::from_utf8_lossy(&blessed)
    );
    fs::remove_file(dir.join("c.json")).unwrap();

    // A packet whose outcome drifted: its entry updated, every other byte kept.
    fs::write(dir.join("b.json"), packet("t-b2", "delegation")).unwrap();
    let (blessed, accepted, changes) = bless_and_accept(dir, "b.json", "b.json");
    assert!(changes >= 1);
    assert_ne!(blessed, before);
    assert_eq!(
        String::from_utf8_lossy(&accepted),
        String::from_utf8_lossy(&blessed)
    );
    fs::write(dir.join("b.json"), packet("t-b", "analysis")).unwrap();

    // One line of a stream drifted: bless of the stream records every line, accept one.
    let drifted = [packet("s1", "delegation"), packet("s2-new", "analysis")];
    fs::write(dir.join("s.ndjson"), drifted.join("\n") + "\n").unwrap();
    let (blessed, accepted, changes) = bless_and_accept(dir, "s.ndjson", "s.ndjson:2");
    assert!(changes >= 1);
    assert_eq!(
        String::from_utf8_lossy(&accepted),
        String::from_utf8_lossy(&blessed)
    );
}

#[test]
fn accepting_an_unchanged_golden_leaves_the_manifest_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.json"), packet("t-a", "delegation")).unwrap();
    bless(dir.path());
    let manifest = dir.path().join("goldens.json");
    let before = fs::metadata(&manifest).unwrap();
    let recorded =
        record_golden(&check_of(dir.path(), "a.json"), &CheckOptions::default()).unwrap();
    assert!(recorded.changes.is_empty(), "{:?}", recorded.changes);
    // Not rewritten: the same file (a rename would give a new inode), no temporary left.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(fs::metadata(&manifest).unwrap().ino(), before.ino());
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        2,
        "a.json and goldens.json only"
    );
}
