//! The golden manifest: one `goldens.json` per fixture directory, recording for every packet
//! of that directory and each mode what the conversion is expected to give: the matched K1-A
//! rows, the named handoff state and the three digests, or the expected error kind and rule.
//!
//! The file is JSON written in one fixed layout (one field per line, packets sorted by file
//! name then line number), so that a change to one packet is a change to a few lines of the
//! diff. It is parsed strictly: anything unexpected is an error naming the place, never
//! something to overwrite.
//!
//! One job a file: `key` (a packet's name), `options` (the recorded conversion options),
//! `model` (what is recorded per packet and mode), `error`, `fields` (typed field access for
//! the reader), `parse` (reading and validating), `typed` (an entry read with no tree, as `check` reads
//! each one), `render` (the one fixed layout).

mod error;
mod fields;
mod key;
mod model;
mod options;
mod parse;
mod render;
#[cfg(test)]
mod round_trip;
mod typed;

pub use error::ManifestError;
pub use key::PacketKey;
pub use model::{
    shown_value, GoldenEntry, GoldenManifest, ModeGolden, MANIFEST_FORMAT, MANIFEST_FORMATS,
};
pub use options::RecordedOptions;
pub use parse::{parse_manifest, parse_object_golden};
pub use render::{render_manifest, ManifestEncoder};

// Not public: what the rest of `golden` also needs, the entry-at-a-time reader
// (`parse_stream`) and the spool that keeps entries on disk while a bless sorts them.
pub(super) use error::bad;
pub(super) use parse::{check_format, parse_entry, parse_entry_json, parse_options};
pub(super) use render::{entry_json, quoted};
pub(super) use typed::read_entry_typed;
