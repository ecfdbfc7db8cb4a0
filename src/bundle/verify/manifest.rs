//! Step 8: the manifest member, read within its limit, strictly pre-checked, then parsed.

use super::errors::read_error;
use super::outcome::Walk;
use crate::bundle::error::{ErrorCode as C, VerifyError};
use crate::bundle::event::{parse_manifest, Manifest};
use crate::bundle::limits::{exceeded, Limits};
use crate::bundle::strict::validate;
use std::cell::Cell;
use std::io::Read;

/// Step 8.
pub(super) fn read_manifest(
    entry: impl Read,
    limits: &Limits,
    tripped: &Cell<bool>,
    walk: &mut Walk,
) -> Result<Manifest, VerifyError> {
    let mut bytes = Vec::new();
    // A PAX `size` record can make the reader take more than the declared size.
    let mut bounded = entry.take(limits.max_manifest_bytes.saturating_add(1));
    bounded
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(8, &e, tripped, limits))?;
    if bytes.len() as u64 > limits.max_manifest_bytes {
        return Err(VerifyError::new(
            8,
            C::LimitFileSize,
            exceeded("member bytes", limits.max_manifest_bytes),
        ));
    }
    walk.manifest_text = Some(bytes);
    let bytes = walk.manifest_text.as_deref().unwrap_or_default();
    let text = std::str::from_utf8(bytes).map_err(|e| {
        VerifyError::new(
            8,
            C::ContractInvalidJson,
            format!("Invalid UTF-8 in manifest.json: {e}"),
        )
    })?;
    validate(text, limits.max_json_depth).map_err(|e| e.at_step(8, "Manifest"))?;
    let manifest =
        parse_manifest(text).map_err(|e| VerifyError::new(8, C::ContractInvalidJson, e))?;
    if manifest.schema_version != 1 {
        return Err(VerifyError::new(
            8,
            C::ContractSchemaVersion,
            format!("Unsupported schema version: {}", manifest.schema_version),
        )
        .comparing("schema_version", 1, manifest.schema_version));
    }
    Ok(manifest)
}
