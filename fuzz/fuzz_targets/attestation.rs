//! cargo-fuzz target; the body is `handoff_inspector::fuzzing::attestation` (replayed on stable
//! by tests/hostile/fuzz_replay.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| handoff_inspector::fuzzing::attestation(data));
