//! Directories and streams of packets: `ls`, `check`, `bless`, `derive` through the binary,
//! the inspector's accept against `bless`, bad input, the fixture tree as a gate, one
//! verdict per file in every command, bless's writes at the process boundary (writers at
//! once, interrupts, `CI`), and every command's output there (closed pipes, full disks,
//! reproducible output), what they draw for a terminal (colour), and one stream sharded
//! across a job matrix.

// The helpers every area shares (running the real binary, reading a drawn screen).
#[path = "../common/mod.rs"]
mod common;

mod accept;
mod bad_input;
mod commands;
mod fixture_gate;
mod one_verdict;
mod pending;
mod process_boundary;
mod stream_shards;
mod terminal;
mod writers;
