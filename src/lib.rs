//! handoff-inspector's core: everything the CLI and the TUI show, with no terminal code.
//!
//! Layering (nothing below imports anything above): `input` (the one door every file is
//! read through) and
//! `json` <- `rules` <- `a2a` <- `freeze`; `migrate` and `profiles` use `json` and `rules`;
//! `golden` (manifest format, bless planning, diffs) sits on those, `corpus` on `golden`;
//! `compare` (two runs paired at the handoff seam) on `corpus`; `report` sits on top. The binary's `cli` and `tui` modules are thin faces over this library.

pub mod a2a;
pub mod bundle;
pub mod compare;
pub mod corpus;
pub mod freeze;
/// Fuzz target bodies (see fuzz/README.md); replayed by tests/hostile/fuzz_replay.rs.
pub mod fuzzing;
pub mod golden;
pub mod input;
pub mod json;
pub mod migrate;
pub mod profiles;
pub mod report;
pub mod rules;

// Faces over the core. The core modules above never import these.
pub mod cli;
pub mod tui;
