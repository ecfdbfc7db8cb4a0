//! The expected canonical payload paired with a raw packet by the fixtures' naming
//! convention: `NAME.json` pairs with `NAME.MODE.payload.json` beside it.

use crate::a2a::Mode;
use crate::corpus::Source;
use serde_json::Value;
use std::path::PathBuf;

pub fn expected_path(source: &Source, mode: Mode) -> Option<PathBuf> {
    if source.line.is_some() {
        return None;
    }
    let name = source.file_name()?;
    let stem = name.strip_suffix(".json")?;
    Some(
        source
            .path
            .with_file_name(format!("{stem}.{mode}.payload.json")),
    )
}

/// `None` when no file is paired; `Some(Err)` when one is but cannot be read as JSON.
pub fn expected_payload(source: &Source, mode: Mode) -> Option<Result<Value, String>> {
    let path = expected_path(source, mode)?;
    if !path.is_file() {
        return None;
    }
    Some(
        std::fs::read(&path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| serde_json::from_slice(&bytes).map_err(|error| error.to_string())),
    )
}
