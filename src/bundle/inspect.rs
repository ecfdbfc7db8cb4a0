//! What a reviewer is shown about one bundle beside its verdict: the values each
//! whole-bundle check compares (also when they agree), and the run-root computation line by
//! line (spec §6: content hashes in stored order, recomputed vs stored). Plain data for the
//! TUI's Bundle view; the verdict itself is the verifier's (`Bundle::verdict`), never
//! re-derived here.

use super::hash::{hex_digest, normalize_file_hash, RunRoot};
use super::open::Bundle;
use super::verify::EVENTS;
use sha2::{Digest, Sha256};

/// One compared value: what, the manifest's (or spec's) side, what the lines give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    pub what: &'static str,
    pub expected: String,
    pub found: String,
}

impl Comparison {
    pub fn agrees(&self) -> bool {
        self.expected == self.found
    }
}

/// One line's content hash.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashRow {
    /// Position in `events.ndjson`, from 0.
    pub position: usize,
    pub stored: Option<String>,
    pub recomputed: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inspection {
    /// The manifest's values against what the member and its lines give (steps 9, 23, 24).
    pub comparisons: Vec<Comparison>,
    /// Every line's content hash, in stored order.
    pub hashes: Vec<HashRow>,
    /// The run root over the recomputed hashes of the lines that have one, in order.
    pub run_root_recomputed: Option<String>,
    pub run_root_stored: Option<String>,
    /// Lines whose recomputed hash differs from the stored one (or lacks either).
    pub hash_mismatches: usize,
}

/// Reads off the bundle what the view compares. Cheap next to opening it: one SHA-256 pass
/// over the kept member bytes and one over the hashes.
pub fn inspect(bundle: &Bundle) -> Inspection {
    let mut inspection = Inspection::default();
    let manifest = bundle.manifest.as_ref();
    inspection.run_root_stored = manifest.map(|m| m.run_root.clone());
    let Some(lines) = &bundle.events else {
        return inspection;
    };
    let mut root = RunRoot::default();
    let mut rooted = 0usize;
    for (position, facts) in lines.facts.iter().enumerate() {
        let row = HashRow {
            position,
            stored: facts.stored_hash.clone(),
            recomputed: facts.computed_hash.clone(),
        };
        if row.stored.is_none() || row.stored != row.recomputed {
            inspection.hash_mismatches += 1;
        }
        if let Some(hash) = &row.recomputed {
            root.push(hash);
            rooted += 1;
        }
        inspection.hashes.push(row);
    }
    let recomputed = (rooted > 0).then(|| root.finish());
    if let Some(manifest) = manifest {
        let compare = |what, expected: String, found: String| Comparison {
            what,
            expected,
            found,
        };
        let count = lines.len() as u64;
        if let Some(meta) = manifest.files.get(EVENTS) {
            let digest = hex_digest(Sha256::digest(&lines.text).as_slice());
            inspection.comparisons.push(compare(
                "events.ndjson bytes (manifest vs read)",
                meta.bytes.to_string(),
                lines.text.len().to_string(),
            ));
            inspection.comparisons.push(compare(
                "events.ndjson sha256 (manifest vs computed)",
                normalize_file_hash(&meta.sha256),
                digest,
            ));
        }
        inspection.comparisons.push(compare(
            "event_count (manifest vs lines)",
            manifest.event_count.to_string(),
            count.to_string(),
        ));
        let shown_root = recomputed
            .clone()
            .unwrap_or_else(|| "(no line hashed)".into());
        inspection.comparisons.push(compare(
            "run_root (manifest vs recomputed)",
            manifest.run_root.clone(),
            shown_root.clone(),
        ));
        inspection.comparisons.push(compare(
            "bundle_id (manifest vs recomputed run_root)",
            manifest.bundle_id.clone(),
            shown_root,
        ));
    }
    inspection.run_root_recomputed = recomputed;
    inspection
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::{open_path, Limits};
    use std::path::Path;

    fn open(name: &str) -> Bundle {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/bundles")
            .join(name);
        open_path(&path, &Limits::default()).unwrap()
    }

    #[test]
    fn a_valid_bundle_agrees_everywhere_and_its_root_is_the_verifiers() {
        let bundle = open("valid-02-two-events.tar.gz");
        let inspection = inspect(&bundle);
        assert!(inspection.comparisons.iter().all(Comparison::agrees));
        assert_eq!(inspection.comparisons.len(), 5);
        assert_eq!(inspection.hashes.len(), 2);
        assert_eq!(inspection.hash_mismatches, 0);
        // The spec's worked example (§6).
        assert_eq!(
            inspection.run_root_recomputed.as_deref(),
            Some("sha256:a68405e9eed6ad28c74602a2e961c4a680470afe5cfe3fb267215d35fe27cebb")
        );
        assert_eq!(inspection.run_root_recomputed.as_deref(), bundle.run_root());
    }

    #[test]
    fn an_edited_line_shows_its_hash_mismatch_and_the_disagreeing_values() {
        let bundle = open("bad-events-edited-no-rehash.tar.gz");
        let inspection = inspect(&bundle);
        assert_eq!(inspection.hash_mismatches, 1);
        assert!(inspection.comparisons.iter().any(|c| !c.agrees()));
        assert_ne!(inspection.run_root_recomputed, inspection.run_root_stored);
    }
}
