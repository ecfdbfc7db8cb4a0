//! Reading the expected canonical payload paired with the selected packet, for the Digests
//! tab's diff. The naming convention itself is the corpus's (`corpus::expected_payload_name`).

use crate::a2a::Mode;
use crate::corpus::{expected_payload_name, Source};
use serde_json::Value;
use std::path::PathBuf;

pub fn expected_path(source: &Source, mode: Mode) -> Option<PathBuf> {
    if source.line.is_some() {
        return None;
    }
    let name = expected_payload_name(source.file_name()?, mode)?;
    Some(source.path.with_file_name(name))
}

/// `None` when no file is paired; `Some(Err)` when one is but cannot be read as JSON.
pub fn expected_payload(source: &Source, mode: Mode) -> Option<Result<Value, String>> {
    let path = expected_path(source, mode)?;
    if !path.is_file() {
        return None;
    }
    Some(
        crate::input::read_file(&path, crate::corpus::DEFAULT_MAX_FILE_BYTES)
            .map_err(|error| error.reason())
            .and_then(|bytes| serde_json::from_slice(&bytes).map_err(|error| error.to_string())),
    )
}
