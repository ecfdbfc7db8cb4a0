//! Accepting one packet's current outcome as its golden (the TUI's review): the same merge
//! and the same writer as `bless` (`golden::write_bless`), for a single packet, keeping every
//! other entry, written atomically under the manifest's lock (a `bless` of the directory at
//! the same time waits, or is waited for). The existing manifest is read through its on-disk index
//! one entry at a time, never as a whole tree: accepting into a manifest of a million entries
//! holds the index (24 bytes an entry), not the entries.

use super::check::PacketCheck;
use super::pair::manifest_key;
use super::CheckOptions;
use crate::golden::{
    ci_refuses_writes, keeps_content, manifest_path, write_bless, BlessWriteError, Change, Content,
    Contents, GoldenEntry, ManifestError, MergeError, MergeSpec, Writing,
};
use crate::json::{digest_value, Digest};
use crate::persist::LockError;
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// How long an accept waits for a `bless` of the same directory: the inspector waits with it,
/// so not long; the message says to try again.
const ACCEPT_LOCK_WAIT: Duration = Duration::from_secs(5);

/// What an accepted golden changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted {
    pub manifest: PathBuf,
    pub changes: Vec<Change>,
}

/// Why a golden was not recorded; `Display` says it in the words the inspector shows after
/// "not recorded: ".
#[derive(Debug)]
pub enum AcceptError {
    /// `CI` is set: goldens are never written there.
    CiIsSet,
    /// The packet's kind has no golden to record.
    NoGolden(super::PacketKind),
    /// The directory's manifest cannot be read; it is left as it is.
    Manifest { path: PathBuf, error: ManifestError },
    /// Another writer held the manifest's lock for all of `ACCEPT_LOCK_WAIT`.
    Busy(LockError),
    /// The merge was refused (the manifest was recorded under other options) or failed.
    Merge(MergeError),
    /// Writing the manifest failed; the one there (if any) is unchanged.
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl std::fmt::Display for AcceptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AcceptError::CiIsSet => write!(
                f,
                "not written: goldens are not recorded while CI is set (CI {} lets them be written)",
                crate::golden::ci_writes_values_text()
            ),
            AcceptError::NoGolden(kind) => write!(f, "a {} has no golden to record", kind.name()),
            AcceptError::Manifest { path, error } => write!(f, "{}: {error}", path.display()),
            AcceptError::Busy(error) => error.fmt(f),
            AcceptError::Merge(error) => error.fmt(f),
            AcceptError::Write { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for AcceptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AcceptError::CiIsSet | AcceptError::NoGolden(_) => None,
            AcceptError::Manifest { error, .. } => Some(error),
            AcceptError::Busy(error) => Some(error),
            AcceptError::Merge(error) => Some(error),
            AcceptError::Write { error, .. } => Some(error),
        }
    }
}

/// Records `check`'s current outcome (every evaluated mode) in its directory's manifest.
/// Refuses while `CI` is set, for kinds that are not converted, and when the existing manifest
/// cannot be read or was recorded under other options: an existing golden is never lost.
pub fn accept_golden(check: &PacketCheck, options: &CheckOptions) -> Result<Accepted, AcceptError> {
    if ci_refuses_writes() {
        return Err(AcceptError::CiIsSet);
    }
    record_golden(check, options)
}

/// `accept_golden` without its refusal under `CI`: for callers that write only manifests of
/// their own making (tests and benches in a temporary directory). The inspector goes through
/// `accept_golden`.
pub fn record_golden(check: &PacketCheck, options: &CheckOptions) -> Result<Accepted, AcceptError> {
    let mut entry = check
        .recorded()
        .ok_or(AcceptError::NoGolden(check.summary.kind))?;
    entry.content = recorded_content(check, &entry, options);
    let (dir, key) = manifest_key(&check.summary.source);
    let modes: Vec<_> = check
        .summary
        .evaluated_modes()
        .map(|mode| mode.mode)
        .collect();
    // At most the options' change and this entry's: the rest stream to the file.
    let mut changes = Vec::new();
    // Only this packet is recorded; every other entry stays as it is, gone or not.
    let written = write_bless(
        &dir,
        &mut std::iter::once(Ok((key, entry))),
        &MergeSpec {
            modes: &modes,
            options: &options.evaluate.conversion,
            still_exists: &|_| true,
            prune: false,
        },
        Writing {
            dry_run: false,
            lock_wait: ACCEPT_LOCK_WAIT,
            file: crate::golden::ManifestFile::Goldens,
            remove_after: None,
            waiting: &mut |_| {},
        },
        &mut |change| {
            changes.push(change.clone());
            Ok(())
        },
    )
    .map_err(|error| match error {
        BlessWriteError::Manifest(error) => AcceptError::Manifest {
            path: manifest_path(&dir),
            error,
        },
        BlessWriteError::Busy(error) => AcceptError::Busy(error),
        BlessWriteError::Merge(error) => AcceptError::Merge(error),
        BlessWriteError::Write(error) => AcceptError::Write {
            path: manifest_path(&dir),
            error,
        },
    })?;
    Ok(Accepted {
        manifest: written.written.unwrap_or_else(|| manifest_path(&dir)),
        changes,
    })
}

/// What the golden of `check` records besides digests (as `bless` does): the packet is read
/// again, and a content is kept only when it gives the digest the check recorded (the file
/// may have changed since the inspector loaded it).
fn recorded_content(check: &PacketCheck, entry: &GoldenEntry, options: &CheckOptions) -> Contents {
    let source = &check.summary.source;
    let mut contents = Contents::default();
    let in_bundle = crate::bundle::is_bundle_path(&source.path) && source.line.is_some();
    if !keeps_content(source.line, in_bundle) {
        return contents;
    }
    let Ok(bytes) = super::reread_packet(source, 0, options.max_file_bytes) else {
        return contents;
    };
    let kept = |value: &Value, digest: Option<Digest>| {
        (Some(digest_value(value)) == digest)
            .then(|| Content::of(value))
            .flatten()
    };
    if let Some(object) = &entry.object {
        if let Ok(value) = serde_json::from_slice::<Value>(&bytes) {
            contents.object = kept(&value, Some(object.object));
        }
        return contents;
    }
    for mode in crate::a2a::Mode::BOTH {
        let Some(golden) = entry.mode(mode) else {
            continue;
        };
        let conversion = crate::a2a::convert(&bytes, &options.evaluate.conversion.with_mode(mode));
        if let Some(converted) = conversion.converted() {
            contents.modes[mode.index()] = kept(converted.payload(), golden.payload);
        }
    }
    contents
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{CheckItem, Collect, CorpusCheck, Status};

    fn check_dir(dir: &std::path::Path) -> Vec<PacketCheck> {
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

    #[test]
    fn accepting_records_one_packet_and_keeps_the_others() {
        if ci_refuses_writes() {
            // Under CI the refusal is the behaviour; it is asserted below instead.
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("a.json"), r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#).unwrap();
            let checks = check_dir(dir.path());
            let refused = accept_golden(&checks[0], &CheckOptions::default()).unwrap_err();
            assert!(matches!(refused, AcceptError::CiIsSet));
            assert!(refused.to_string().contains("CI is set"));
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let packet = r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t","kind":"delegation"}}"#;
        std::fs::write(dir.path().join("a.json"), packet).unwrap();
        std::fs::write(
            dir.path().join("b.json"),
            packet.replace("delegation", "analysis"),
        )
        .unwrap();
        let checks = check_dir(dir.path());
        assert!(checks.iter().all(|check| check.status == Status::NoGolden));
        let accepted = accept_golden(&checks[0], &CheckOptions::default()).unwrap();
        assert_eq!(accepted.changes.len(), 1, "{:?}", accepted.changes);
        let statuses: Vec<Status> = check_dir(dir.path())
            .iter()
            .map(|check| check.status)
            .collect();
        assert_eq!(statuses, vec![Status::Conforms, Status::NoGolden]);

        // The recorded packet drifts: accepting again updates its entry, the other stays absent.
        std::fs::write(dir.path().join("a.json"), packet.replace("\"t\"", "\"t2\"")).unwrap();
        let drifted = check_dir(dir.path());
        assert_eq!(drifted[0].status, Status::Mismatch);
        accept_golden(&drifted[0], &CheckOptions::default()).unwrap();
        let statuses: Vec<Status> = check_dir(dir.path())
            .iter()
            .map(|check| check.status)
            .collect();
        assert_eq!(statuses, vec![Status::Conforms, Status::NoGolden]);
    }

    #[test]
    fn a_malformed_manifest_is_never_overwritten() {
        if ci_refuses_writes() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), r#"{"protocol":"a2a","version":"0.2","event_type":"task.requested","agent":{"id":"a"},"task":{"id":"t"}}"#).unwrap();
        let checks = check_dir(dir.path());
        std::fs::write(dir.path().join("goldens.json"), "{ not a manifest").unwrap();
        assert!(matches!(
            accept_golden(&checks[0], &CheckOptions::default()),
            Err(AcceptError::Manifest { .. })
        ));
        assert_eq!(
            std::fs::read_to_string(dir.path().join("goldens.json")).unwrap(),
            "{ not a manifest"
        );
    }
}
