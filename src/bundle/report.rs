//! A bundle's verification report: upstream's verdict, the spec's §15 counts, the A2A lint
//! outcomes and the content-hash mismatches, computed once from what the reader kept, and
//! what every face says a verdict shows and does not show.

use super::error::VerifyError;
use super::lint_table::{LintOutcome, LintPacks};
use super::open::Bundle;
use crate::json::{digest_bytes, digest_value, Digest};
use serde_json::Value;

/// What a passing verification established, in owned, comparable form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedFacts {
    pub run_id: String,
    pub run_root: String,
    pub event_count: u64,
}

/// A bundle's verification report and the facts every face shows for it, without its lines
/// (the event packets carry those). Cheap to clone behind an `Arc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleReport {
    /// Upstream's verdict: what passed, or the first failed check (code, class, message,
    /// step, compared values).
    pub verdict: Result<VerifiedFacts, VerifyError>,
    /// The digest a golden records for the bundle as a whole: the canonical digest of its
    /// `manifest.json` when that parses as JSON, else the SHA-256 of the manifest's bytes,
    /// else of nothing (no manifest could be read).
    pub manifest_digest: Digest,
    /// Whether a `manifest.json` member was read at all.
    pub has_manifest: bool,
    /// Lines of the first `events.ndjson` member (all of them, readable or not).
    pub lines: usize,
    /// Lines that became event packets (parse as JSON objects).
    pub event_packets: usize,
    /// Spec §15's counts (`None` when no events member could be read).
    pub event_count: Option<u64>,
    pub a2a_events: Option<u64>,
    pub handoff_visible_events: Option<u64>,
    /// Upstream's A2A lint pack rules evaluated over the readable events.
    pub lint: Vec<LintOutcome>,
    /// The event lines whose stored content hash differs from the one recomputed from the
    /// line, in stored order (none in a bundle that verifies): what each such event's own
    /// explanation and check say.
    pub hash_mismatches: Vec<HashMismatch>,
}

/// One event line whose `assaycontenthash` is not the hash recomputed from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashMismatch {
    /// The line's position in `events.ndjson`, from 0 (its SEQ).
    pub seq: usize,
    pub stored: String,
    pub recomputed: String,
}

impl BundleReport {
    pub fn is_valid(&self) -> bool {
        self.verdict.is_ok()
    }

    pub fn error(&self) -> Option<&VerifyError> {
        self.verdict.as_ref().err()
    }

    pub fn run_root(&self) -> Option<&str> {
        self.verdict
            .as_ref()
            .ok()
            .map(|facts| facts.run_root.as_str())
    }

    /// Upstream's A2A lint outcomes, only for a bundle that verifies: upstream lints nothing
    /// else, so a rejected bundle's rules are `LINT_NOT_EVALUATED`, never "pass".
    pub fn evaluated_lint(&self) -> Option<&[LintOutcome]> {
        self.is_valid().then_some(self.lint.as_slice())
    }

    /// The content-hash mismatch of event line `seq`, if its hash does not match.
    pub fn hash_mismatch(&self, seq: usize) -> Option<&HashMismatch> {
        let at = self
            .hash_mismatches
            .binary_search_by_key(&seq, |mismatch| mismatch.seq)
            .ok()?;
        self.hash_mismatches.get(at)
    }

    /// `valid`, or the error code: what a golden records and a list shows.
    pub fn verdict_key(&self) -> String {
        match &self.verdict {
            Ok(_) => "valid".to_owned(),
            Err(error) => error.code.as_str(),
        }
    }
}

/// What every face says instead of a rejected bundle's lint rules.
pub const LINT_NOT_EVALUATED: &str =
    "not evaluated: bundle unverified (upstream lints only a bundle that verifies)";

/// What a bundle's verification establishes and what it does not, said under a `verified`
/// verdict only: a rejected bundle establishes nothing past its failed check.
pub const VERIFIED_SHOWS: &str = "Upstream's checks show the archive is well formed and every line matches its content hash, the run root and the manifest's file hash. They do not show who wrote it (nothing is signed: edit a line, re-seal the hashes, and it passes again; time, source and id are covered only by the re-sealable file hash), nor anything about whether a handoff was correct or authorized. Goldens catch a re-sealed edit.";

/// What is said under an `UNVERIFIED` verdict instead.
pub const UNVERIFIED_SHOWS: &str = "Upstream's verification stops at the first failed check: nothing after it (content hashes, sequence, run root, file hash) is established for this bundle, and its events are shown as read, not as verified.";

impl BundleReport {
    /// The report of an opened bundle, from the verifier's facts: the lint rules from each
    /// line's type and `data` flags, with no new parse of any line.
    pub fn of(bundle: &Bundle) -> BundleReport {
        let mut lint = LintPacks::default();
        let mut event_packets = 0;
        let mut hash_mismatches = Vec::new();
        if let Some(lines) = &bundle.events {
            for (position, facts) in lines.facts.iter().enumerate() {
                if facts.object {
                    lint.add_facts(position, facts.type_.as_deref(), &facts.data);
                    event_packets += 1;
                }
                if let (Some(stored), Some(recomputed)) = (&facts.stored_hash, &facts.computed_hash)
                {
                    if stored != recomputed {
                        hash_mismatches.push(HashMismatch {
                            seq: position,
                            stored: stored.clone(),
                            recomputed: recomputed.clone(),
                        });
                    }
                }
            }
        }
        let manifest_digest = match &bundle.manifest_text {
            Some(bytes) => match serde_json::from_slice::<Value>(bytes) {
                Ok(value) => digest_value(&value),
                Err(_) => digest_bytes(bytes),
            },
            None => digest_bytes(b""),
        };
        BundleReport {
            verdict: match &bundle.verdict {
                Ok(verified) => Ok(VerifiedFacts {
                    run_id: verified.manifest.run_id.clone(),
                    run_root: verified.run_root.clone(),
                    event_count: verified.event_count,
                }),
                Err(error) => Err(error.clone()),
            },
            manifest_digest,
            has_manifest: bundle.manifest_text.is_some(),
            lines: bundle
                .events
                .as_ref()
                .map_or(0, |lines| lines.counts.lines as usize),
            event_packets,
            event_count: bundle.event_count(),
            a2a_events: bundle.a2a_events(),
            handoff_visible_events: bundle.handoff_visible_events(),
            lint: lint.finish(),
            hash_mismatches,
        }
    }
}
