//! Checking one packet: its summary, compared with its golden entry and its paired expected
//! payloads, audited when it is canonical input, and turned into a `Status` with findings.
//! This is the one place the status rules live; `check`, `bless` and the TUI all use it.
//!
//! - `outcome`: what a check takes (options, golden lookup) and gives (`PacketCheck`).
//! - `packet`: `check_packet`, which runs the rest in order and sets the status.
//! - `object`: a packet's object golden (non-converted kinds and bundles), and its drift.
//! - `golden`: a converted packet's mode goldens and the duplicate keys a manifest acknowledges.
//! - `paired`: a mode's expected payload file against the converted payload.
//! - `audit`: the packet's own verdicts: canonical audit, profile rows, migration checks.

mod audit;
mod golden;
mod object;
mod outcome;
mod packet;
mod paired;
#[cfg(test)]
mod tests;

pub use golden::golden_finding;
pub use object::event_hash_text;
pub use outcome::{
    recorded_mode, CheckOptions, GoldenLookup, GoldenVerdict, ModeCheck, PacketCheck,
};
pub use packet::check_packet;
