//! A2A v0.3 -> v1.0 migration: `migrate` through the binary on every fixture pair, and
//! invariants of the migration on generated input.

mod cli;
mod properties;
