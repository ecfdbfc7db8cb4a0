//! Assay evidence bundles: `verify` against upstream's verdicts, `bundle` (the writer), the
//! project's tampered bundles check by check, and bundles through the corpus commands.

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod attest;
mod attest_faces;
mod check;
mod tampered;
mod verify;
mod write;
