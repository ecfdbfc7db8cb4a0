//! What `check` prints: the one output both `check` and `report` feed (`output.rs`), each
//! format's writer in its own file (`text.rs`, `json.rs` with its line in `json_line.rs`,
//! `junit.rs`, `review.rs` for markdown, `sarif.rs` with its rule catalogue in
//! `sarif_rules.rs`), and saved JSON results read back (`json_read.rs`).

pub mod json;
pub mod json_line;
#[cfg(test)]
mod json_oracle;
pub mod json_read;
pub mod junit;
pub mod output;
pub mod review;
pub mod sarif;
pub mod sarif_rules;
pub mod text;
pub mod writer;
