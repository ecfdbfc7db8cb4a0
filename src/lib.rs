//! handoff-inspector's core: everything the CLI and the TUI show, with no terminal code.
//!
//! Layering (nothing below imports anything above):
//! `json` <- `a2a` <- `freeze`; `migrate` and `profiles` use `json`;
//! `corpus` and `golden` sit on those; `report`, `cli` and `tui` sit on top.

pub mod json;
