//! Hostile input: files and directories built to hurt, against every command under a
//! watchdog with peak memory read; and every committed fuzz input replayed on stable.

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod fuzz_replay;
mod input;
