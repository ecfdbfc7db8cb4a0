//! Presenting outcomes as text and JSON. No terminal code: plain strings, or styled text that
//! says what each span is (`styled.rs`) for a face to draw, with every packet-derived string
//! passed through `json::safe_text`.

pub mod attestation_text;
pub mod bundle_explain;
pub mod check;
pub mod compare_json;
pub mod compare_text;
pub mod convert_line;
pub mod crosswalk_text;
pub mod envelope_explain;
pub mod explain;
pub mod migrate_text;
pub mod object_explain;
pub mod profile_text;
pub mod relabel_text;
pub mod styled;
pub mod tally;

// `check_output` and `check_json_read`: the paths `cli/check.rs` and `cli/report.rs` import
// the check's output and its saved results by.
pub use check::{json_read as check_json_read, output as check_output};
