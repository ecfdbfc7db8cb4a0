//! Presenting outcomes as text and JSON. No terminal code: plain strings, or styled text that
//! says what each span is (`styled.rs`) for a face to draw, with every packet-derived string
//! passed through `json::safe_text`.

pub mod attestation_text;
pub mod bundle_explain;
pub mod check_json;
pub mod check_json_line;
#[cfg(test)]
mod check_json_oracle;
pub mod check_json_read;
pub mod check_output;
pub mod check_text;
pub mod compare_json;
pub mod compare_text;
pub mod convert_line;
pub mod crosswalk_text;
pub mod envelope_explain;
pub mod explain;
pub mod junit;
pub mod migrate_text;
pub mod object_explain;
pub mod profile_text;
pub mod relabel_text;
pub mod review;
pub mod sarif;
pub mod sarif_rules;
pub mod styled;
pub mod tally;
