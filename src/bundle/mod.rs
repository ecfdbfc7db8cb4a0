//! Assay evidence bundles (`.tar.gz` of `manifest.json` + `events.ndjson`): read in memory
//! through upstream's limits, verified check by check exactly as upstream's
//! `verify_bundle` does (spec `assay-evidence-bundle.md` §9, first failure wins, upstream's
//! code, class and message), and written as upstream's writer writes them.
//!
//! What a passing verification shows: the archive has upstream's layout, every line's
//! content hash matches its `data`/`type`/`subject`, the sequence is contiguous and the run
//! root and manifest file hash agree with the lines. What it does not: who wrote the bundle
//! (nothing is signed: edit any line, recompute the hashes, and it verifies again), and
//! `time`, `source`, `id` and producer fields are covered only by the file hash, which the
//! same editor reseals. It says nothing about whether a handoff was correct or authorized.

pub mod attest;
pub mod cache;
pub mod error;
pub mod event;
pub mod fast;
pub mod hash;
pub mod inspect;
pub mod limits;
pub mod line;
pub mod lines;
pub mod lint_table;
pub mod name;
pub mod open;
pub mod report;
pub mod steps;
pub mod strict;
pub mod summary;
pub mod verify;
pub mod write;

pub use cache::BundleCache;
pub use error::{Compared, ErrorClass, ErrorCode, VerifyError};
pub use limits::Limits;
pub use lines::{EventLines, LineFacts};
pub use lint_table::{LintOutcome, A2A_LINT_TABLE};
pub use name::{bundle_event_ref, is_bundle_path};
pub use open::{open_bytes, open_path, open_reader, verify_path, verify_reader, Bundle};
pub use report::{
    BundleReport, HashMismatch, VerifiedFacts, LINT_NOT_EVALUATED, UNVERIFIED_SHOWS, VERIFIED_SHOWS,
};
pub use verify::Verified;
