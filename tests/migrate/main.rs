//! A2A v0.3 -> v1.0 migration: `migrate` through the binary on every fixture pair, and
//! invariants of the migration on generated input.

// The helpers every area shares (here: the property tests' configuration).
#[path = "../common/mod.rs"]
mod common;

mod cli;
mod properties;
mod targets;
