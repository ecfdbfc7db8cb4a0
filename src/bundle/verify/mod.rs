//! Upstream's `verify_bundle` (spec §9), in its order, first failure wins. The walk also keeps
//! what a reviewer needs afterwards: the manifest's bytes and the lines of the first
//! `events.ndjson` member, each with what could be read from it even where verification
//! failed (spec §15).
//!
//! One job a file: `sequence` (step 0, then the archive, then step 25: the order of it all),
//! `members` (steps 1-7 and 9, member by member), `manifest` (step 8), `events` (steps 10-24
//! over the lines), `errors` (the error values several steps share), `lenient` (what is
//! still read from lines once a check failed), `outcome` (what the walk returns and keeps, and the
//! member names it reads: the words every step shares).

mod errors;
mod events;
mod lenient;
mod manifest;
mod members;
mod outcome;
mod sequence;

pub use lenient::{collect_rest, lenient_facts};
pub use outcome::{Keep, TimeWindow, Verified, Walk, EVENTS, MANIFEST};
pub use sequence::{bundle_too_big, walk, Source};
