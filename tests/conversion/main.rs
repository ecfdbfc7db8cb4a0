//! The A2A adapter conversion and the K1-A rules: `convert`/`digest` through the binary,
//! every rule row through `explain`, invariants on generated packets, and the converter
//! against the upstream adapter's recorded output (20,000 packets).

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod convert_cli;
mod explain_rules;
mod properties;
mod upstream_differential;
