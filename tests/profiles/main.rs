//! The other handoff formats (master/sub, ContextCore, UAIX): `profile`, `formats` and
//! `explain` through the binary, one test per rule row, and invariants on generated JSON.

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod cli;
mod explain;
mod properties;
mod rows;
