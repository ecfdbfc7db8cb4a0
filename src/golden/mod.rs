//! Golden digests: the per-directory manifest format, planning a bless, writing it
//! atomically, and readable JSON differences for mismatches.

mod bless;
mod diff;
mod manifest;
mod object;
mod write;

pub use bless::{plan_bless, BlessPlan, Change};
pub use diff::{diff_json, line_diff, ChangeKind, JsonDiff, PathChange, MAX_LISTED_CHANGES};
pub use manifest::{
    parse_manifest, render_manifest, shown_value, GoldenEntry, GoldenManifest, ManifestError,
    ModeGolden, PacketKey, RecordedOptions, MANIFEST_FORMAT,
};
pub use object::{records_object, ObjectGolden, OBJECT_KEYS};
pub use write::{
    ci_is_set, manifest_path, read_manifest, remove_stale_temps, write_manifest,
    MANIFEST_FILE_NAME, MAX_MANIFEST_BYTES,
};
