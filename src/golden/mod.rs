//! Golden digests: the per-directory manifest format, planning a bless, writing it
//! atomically, and readable JSON differences for mismatches.

mod bless;
mod content;
mod diff;
mod index;
mod index_scan;
mod manifest;
mod object;
mod parse_stream;
mod pending;
mod spool;
mod write;

pub use bless::{
    describe_options, merge_bless, remove_pending, write_bless, BlessCounts, BlessSink,
    BlessWriteError, BlessWritten, Change, DiscardSink, Existing, MergeError, MergeSpec, Writing,
};
#[cfg(test)]
pub use bless::{plan_bless, BlessPlan};
pub use content::{
    before, keeps_content, Before, Content, Contents, BEFORE_CONTENT_MISMATCH, BEFORE_DIGEST_ONLY,
    BEFORE_STREAM_LINE, MAX_CONTENT_BYTES,
};
pub use diff::{diff_json, line_diff, ChangeKind, JsonDiff, PathChange, MAX_LISTED_CHANGES};
pub use index::ManifestIndex;
pub use manifest::{
    parse_manifest, parse_object_golden, render_manifest, shown_value, GoldenEntry, GoldenManifest,
    ManifestEncoder, ManifestError, ModeGolden, PacketKey, RecordedOptions, MANIFEST_FORMAT,
    MANIFEST_FORMATS,
};
pub use object::{records_object, ObjectGolden, OBJECT_KEYS};
pub use pending::{read_pending, PendingGoldens};
pub use spool::{EntryCursor, EntrySpool, SortedEntries};
pub use write::{
    ci_is_set, ci_refuses_writes, ci_writes_values_text, manifest_lock_path, manifest_path,
    read_manifest, read_manifest_file, remove_stale_temps, write_manifest, ManifestFile,
    ManifestWriter, CI_WRITES_VALUES, MANIFEST_FILE_NAME, MAX_MANIFEST_BYTES, PENDING_FILE_NAME,
};
